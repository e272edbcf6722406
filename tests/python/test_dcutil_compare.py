"""ffi.RecursiveEq/Lt/Le/Gt/Ge and ffi.RecursiveHash on values and containers."""

import math

import pytest
import tvm_ffi
from tvm_ffi import Array, Dict, List, Map

_f = tvm_ffi.get_global_func
req, rlt, rle, rgt, rge, rhash = (
    _f("ffi.Recursive" + n) for n in ("Eq", "Lt", "Le", "Gt", "Ge", "Hash")
)


def order(a, b):
    return (rlt(a, b), rle(a, b), rgt(a, b), rge(a, b))


@pytest.mark.parametrize(
    "a, b",
    [(1, True), (1.0, 1), (Array([1]), List([1])), (Map({"a": 1}), Dict({"a": 1})), (None, 0)],
)
def test_values_of_different_types_are_unequal(a, b):
    assert not req(a, b)


def test_nan_equals_nan_and_zeros_are_equal():
    assert req(math.nan, float("nan"))
    assert req(0.0, -0.0)
    assert rhash(math.nan) == rhash(-math.nan)
    assert rhash(0.0) == rhash(-0.0)


def test_small_and_heap_strings_compare_by_content():
    long_text = "x" * 40
    assert req(long_text, "x" * 40)
    assert rlt("a", long_text)
    assert rlt(b"ab", b"ab\x00")


def test_none_sorts_first():
    assert order(None, 1) == (True, True, False, False)
    assert order(1, None) == (False, False, True, True)


def test_int64_extremes_order_numerically():
    assert rlt(-(2**63), 2**63 - 1)


def test_sequences_compare_element_wise_then_by_length():
    assert rlt(Array([1, 2]), Array([1, 2, 3]))
    assert rgt(List([1, 3]), List([1, 2, 3]))
    assert req(List([Array([1])]), List([Array([1])]))


def test_maps_equal_regardless_of_order():
    assert req(Map({"a": 1, "b": 2}), Map({"b": 2, "a": 1}))
    assert not req(Map({"a": 1}), Map({"a": 2}))
    assert rle(Map({"a": 1}), Map({"a": 1}))


def test_ordering_errors():
    with pytest.raises(
        TypeError, match="Cannot compare values of different types: int vs ffi.SmallStr"
    ):
        rlt(1, "a")
    with pytest.raises(TypeError, match="Cannot order NaN values"):
        rlt(math.nan, 1.0)
    with pytest.raises(TypeError, match="Cannot order Map/Dict values"):
        rlt(Map({"a": 1}), Map({"a": 2}))


def test_cycles():
    a = List([1])
    a.append(a)
    b = List([1])
    b.append(b)
    assert req(a, b)
    with pytest.raises(ValueError, match="cyclic reference detected in ordering"):
        rlt(a, b)
    assert rhash(a) == rhash(b)
    a.clear()
    b.clear()


def test_depth_1000_works():
    a, b = 1, 2
    for _ in range(1000):
        a, b = List([a]), List([b])
    assert rlt(a, b)
    assert rhash(a) != rhash(b)


def test_hash_values_agree_with_the_reference():
    assert rhash(None) == 2654435769
    assert rhash(1) == 2654435835
    assert rhash("a") == 2654439979
    assert rhash(Array([1, 2])) == 2823377144815479104
    assert rhash(List([1, 2])) == -8389770539569074377
    assert rhash(Map({"a": 1, "b": 2, 1: 3})) == 4331231574368909248


def test_map_hash_does_not_depend_on_order():
    assert rhash(Dict({"a": 1, "b": 2})) == rhash(Dict({"b": 2, "a": 1}))
    assert rhash(Array([1])) != rhash(List([1]))


def test_functions_without_fields_compare_equal():
    assert req(_f("testing.add_one"), _f("testing.echo"))


def test_big_ints_compare_and_hash_by_value():
    assert req(2**70, 2**70)
    assert not req(2**70, 2**70 + 1)
    assert rlt(-(2**70), 2**70) and rgt(2**71, 2**70)
    assert rhash(2**70) == rhash(2**70)
    assert repr(tvm_ffi.Array([2**70])) == "(%d,)" % 2**70
