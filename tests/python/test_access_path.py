"""tvm_ffi.access_path: AccessKind, AccessStep, AccessPath construction, navigation,
comparison and errors."""

import pytest
from tvm_ffi.access_path import AccessKind, AccessPath, AccessStep


def test_access_kind_values():
    assert [int(k) for k in AccessKind] == [0, 1, 2, 3, 4, 5]
    assert AccessKind.MAP_ITEM_MISSING == 5


def test_direct_construction_raises_value_error():
    with pytest.raises(ValueError, match="AccessPath can't be initialized directly"):
        AccessPath()


def test_root_has_depth_zero():
    root = AccessPath.root()
    assert root.depth == 0
    assert root.parent is None and root.step is None
    assert len(root.to_steps()) == 0


def test_builders_extend_with_parent_and_step():
    p = AccessPath.root().attr("a").array_item(2).map_item("k")
    assert p.depth == 3
    assert isinstance(p.step, AccessStep)
    assert p.step.kind == AccessKind.MAP_ITEM and p.step.key == "k"
    assert p.parent == AccessPath.root().attr("a").array_item(2)


def test_to_steps_lists_root_to_leaf():
    p = AccessPath.root().attr_missing("m").array_item_missing(3).map_item_missing(None)
    steps = p.to_steps()
    assert [s.kind for s in steps] == [
        AccessKind.ATTR_MISSING,
        AccessKind.ARRAY_ITEM_MISSING,
        AccessKind.MAP_ITEM_MISSING,
    ]
    assert steps[0].key == "m" and steps[1].key == 3 and steps[2].key is None


def test_equality_is_step_wise():
    assert AccessPath.root().attr("a") == AccessPath.root().attr("a")
    assert AccessPath.root().attr("a") != AccessPath.root().attr("b")
    assert AccessPath.root().array_item(1) != AccessPath.root().array_item_missing(1)
    assert (AccessPath.root() == 1) is False
    assert (AccessPath.root() != 1) is True


def test_hash_stays_identity_based():
    p = AccessPath.root()
    assert hash(p) == hash(p)
    assert {p: 1}[p] == 1


def test_is_prefix_of():
    p = AccessPath.root().attr("a").array_item(0)
    assert AccessPath.root().is_prefix_of(p)
    assert AccessPath.root().attr("a").is_prefix_of(p)
    assert p.is_prefix_of(p)
    assert not p.is_prefix_of(AccessPath.root().attr("a"))
