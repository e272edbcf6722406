"""tvm_ffi.structural_equal and get_first_structural_mismatch: value rules, object
kinds, definition regions, hooks, errors and mismatch paths."""

import math

import pytest
import tvm_ffi
from structural_types import Add, Const, DAdd, Hooked, Lam, Let, NoKind, Single, Var, nest
from tvm_ffi import convert, get_first_structural_mismatch, structural_equal
from tvm_ffi.access_path import AccessPath


def mismatch(lhs, rhs, **kwargs):
    paths = get_first_structural_mismatch(lhs, rhs, **kwargs)
    return None if paths is None else (str(paths[0].to_steps()), str(paths[1].to_steps()))


def test_pods_compare_by_type_and_bits():
    assert structural_equal(1, 1)
    assert not structural_equal(1, 1.0)
    assert not structural_equal(True, 1)
    assert not structural_equal(-0.0, 0.0)
    assert structural_equal(float("nan"), -float("nan"))


def test_strings_compare_by_content_across_storage():
    assert structural_equal("abc", "abc")
    assert structural_equal("a" * 40, "a" * 40)
    assert not structural_equal("ab", b"ab")


def test_containers_compare_by_content():
    assert structural_equal(convert([1, [2, "x"]]), convert([1, [2, "x"]]))
    assert not structural_equal(convert([1, 2]), tvm_ffi.List([1, 2]))
    assert structural_equal(convert({"a": 1, "b": 2}), convert({"b": 2, "a": 1}))
    assert not structural_equal(convert({"a": 1}), convert({"a": 1, "b": 2}))


def test_big_ints_compare_by_value():
    assert structural_equal(2**100, 2**100)
    assert not structural_equal(2**100, 2**100 + 1)


def test_free_variables_bind_only_in_definitions():
    x, y = Var("x", 1), Var("y", 1)
    assert not structural_equal(x, y)
    assert structural_equal(x, y, map_free_vars=True)
    assert structural_equal(Lam([x], Add(x, 1)), Lam([y], Add(y, 1)))
    assert structural_equal(Let(x, 1, Add(x, x)), Let(y, 1, Add(y, y)))


def test_dag_nodes_must_share_alike():
    a0, a1 = DAdd(1, 2), DAdd(1, 2)
    assert not structural_equal(Add(a0, a0), Add(a1, a0))
    assert structural_equal(Add(a0, a0), Add(a1, a1))


def test_unique_instances_compare_by_identity():
    s = Single(1, 2)
    assert structural_equal(s, s)
    assert not structural_equal(s, Single(1, 2))


def test_const_trees_compare_fields():
    assert structural_equal(Const(1, 2), Const(1, 2))
    assert not structural_equal(Const(1, 2), Const(1, 3))


def test_hooks_replace_the_field_walk():
    assert structural_equal(Hooked(1, 2), Hooked(1, 3))
    assert not structural_equal(Hooked(1, 2), Hooked(2, 2))


def test_unsupported_types_raise_type_error():
    with pytest.raises(TypeError, match="_type_s_eq_hash_kind is not set for type `testing"):
        structural_equal(NoKind(1, 2), NoKind(1, 2))
    fn = tvm_ffi.convert(lambda: 1)
    with pytest.raises(TypeError, match="Type metadata is not set for type `ffi.Function`"):
        structural_equal(fn, fn)


def test_equal_values_have_no_mismatch():
    assert get_first_structural_mismatch(convert([1, 2]), convert([1, 2])) is None


def test_mismatch_returns_two_access_paths():
    paths = get_first_structural_mismatch(convert([1, 2, 3]), convert([1, 2]))
    assert len(paths) == 2
    assert isinstance(paths[0], AccessPath) and isinstance(paths[1], AccessPath)
    assert paths[0] == AccessPath.root().array_item(2)
    assert paths[1] == AccessPath.root().array_item_missing(2)


def test_mismatch_in_maps_names_the_key():
    paths = get_first_structural_mismatch(convert({"a": 1}), convert({"b": 1}))
    assert paths[0] == AccessPath.root().map_item("a")
    assert paths[1] == AccessPath.root().map_item_missing("a")


def test_mismatch_of_leaves_ends_at_the_root():
    paths = get_first_structural_mismatch(1, "a")
    assert paths[0] == AccessPath.root() and paths[1] == AccessPath.root()


def test_mismatch_in_fields_adds_attr_steps():
    x, y = Var("x", 1), Var("y", 1)
    paths = get_first_structural_mismatch(Lam([x], Add(x, 1)), Lam([y], Add(y, 2)))
    assert paths[0] == AccessPath.root().attr("body").attr("b")
    assert paths[1] == AccessPath.root().attr("body").attr("b")


def test_nan_in_containers_is_equal():
    assert structural_equal(convert([math.nan]), convert([math.nan]))


# ---- deep and self-containing containers --------------------------------------------------------


@pytest.mark.parametrize(
    "make",
    [lambda v: tvm_ffi.Map({"k": v}), lambda v: tvm_ffi.Dict({"k": v})],
    ids=["Map", "Dict"],
)
def test_maps_nested_100000_deep_compare_without_crashing(make):
    assert structural_equal(nest(make, 100000), nest(make, 100000))
    assert not structural_equal(nest(make, 100000), nest(make, 99999))


def test_lists_containing_themselves_raise_value_error():
    a = tvm_ffi.List([1])
    a.append(a)
    b = tvm_ffi.List([1])
    b.append(b)
    try:
        with pytest.raises(ValueError, match="ffi.List contains itself"):
            structural_equal(a, b)
    finally:
        a.clear()
        b.clear()


def test_dict_containing_itself_compared_with_itself_raises_value_error():
    d = tvm_ffi.Dict({})
    d["self"] = d
    try:
        with pytest.raises(ValueError, match="contains itself"):
            structural_equal(d, d)
    finally:
        d.clear()
