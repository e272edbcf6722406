"""@py_class with annotations naming classes defined later: the class is registered at once
and finished when the names resolve (a later @py_class, or its first construction)."""

import inspect
from typing import List, Optional

import pytest
import tvm_ffi
from tvm_ffi.dataclasses import fields, is_dataclass, py_class


@py_class("test_deferred.Node")
class Node(tvm_ffi.Object):
    child: "Optional[Leaf]" = None
    x: int = 1


PENDING_FIELDS = Node.__tvm_ffi_type_info__.fields
PENDING_ARGS = Node.__tvm_ffi_type_info__._decorator_args


@py_class("test_deferred.Leaf")
class Leaf(tvm_ffi.Object):
    parent: "Optional[Node]" = None


def test_deferred_class_has_no_fields_while_pending():
    assert PENDING_FIELDS is None


def test_deferred_class_records_its_decorator_options_at_once():
    assert PENDING_ARGS["frozen"] is False and PENDING_ARGS["structural_eq"] == "tree"


def test_deferred_class_is_finished_by_a_later_py_class():
    assert [f.name for f in fields(Node)] == ["child", "x"]
    assert Node.__tvm_ffi_type_info__.fields is not None


def test_mutual_references_construct_and_convert():
    n = Node(Leaf())
    assert isinstance(n.child, Leaf)
    with pytest.raises(TypeError, match="expected test_deferred.Leaf"):
        n.child = Node()


def test_finished_class_has_the_generated_signature():
    assert str(inspect.signature(Node.__init__)) == "(self, child=<MISSING>, x=<MISSING>)"


def test_deferred_class_is_a_dataclass_at_once():
    @py_class("test_deferred.Waiting")
    class Waiting(tvm_ffi.Object):
        other: "NeverDefinedType"  # noqa: F821

    assert is_dataclass(Waiting)


def test_construction_with_unresolved_names_is_type_error():
    @py_class("test_deferred.Unresolved")
    class Unresolved(tvm_ffi.Object):
        items: "List[Missing]"  # noqa: F821

    with pytest.raises(
        TypeError,
        match=r"Cannot instantiate Unresolved: unresolved forward references: "
        r"\[\"items: List\[Missing\] \(name 'Missing' is not defined\)\"\]",
    ):
        Unresolved()


def test_failed_construction_leaves_the_class_pending():
    @py_class("test_deferred.Later")
    class Later(tvm_ffi.Object):
        peer: "Optional[LaterPeer]" = None

    with pytest.raises(TypeError, match="unresolved forward references"):
        Later()

    @py_class("test_deferred.LaterPeer")
    class LaterPeer(tvm_ffi.Object):
        pass

    globals()["LaterPeer"] = LaterPeer
    try:
        assert Later(LaterPeer()).peer is not None
    finally:
        del globals()["LaterPeer"]


def test_first_construction_finishes_the_class():
    @py_class("test_deferred.SelfFinishing")
    class SelfFinishing(tvm_ffi.Object):
        peer: "Optional[LateGlobal]" = None  # noqa: F821
        y: int = 2

    globals()["LateGlobal"] = Leaf
    try:
        obj = SelfFinishing()
        assert obj.y == 2
    finally:
        del globals()["LateGlobal"]


def test_user_init_of_deferred_class_is_restored():
    @py_class("test_deferred.WithInit")
    class WithInit(tvm_ffi.Object):
        peer: "Optional[LateInit]" = None
        v: int = 0

        def __init__(self, v):
            self.v = v * 2

    @py_class("test_deferred.LateInit")
    class LateInit(tvm_ffi.Object):
        pass

    globals()["LateInit"] = LateInit
    try:
        assert WithInit(3).v == 6
    finally:
        del globals()["LateInit"]


def test_child_of_pending_parent_waits_for_it():
    @py_class("test_deferred.PendingParent")
    class PendingParent(tvm_ffi.Object):
        peer: "Optional[LateParentPeer]" = None  # noqa: F821

    @py_class("test_deferred.ChildOfPending")
    class ChildOfPending(PendingParent):
        z: int = 5

    assert ChildOfPending.__tvm_ffi_type_info__.fields is None
    globals()["LateParentPeer"] = Leaf
    try:
        obj = ChildOfPending()
        assert obj.z == 5
        assert [f.name for f in fields(ChildOfPending)] == ["peer", "z"]
        (z_field,) = ChildOfPending.__tvm_ffi_type_info__.fields
        assert z_field.offset >= 24 + 8
    finally:
        del globals()["LateParentPeer"]
