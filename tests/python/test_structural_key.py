"""tvm_ffi.StructuralKey: fields, repr-independent behaviour, Python hashing and
equality, and structural collapse of keys in Map and Dict."""

import pytest
import tvm_ffi
from tvm_ffi import StructuralKey, convert


def test_fields_hold_the_key_and_its_hash():
    key = StructuralKey(convert([1, 2]))
    assert list(key.key) == [1, 2]
    assert key.hash_i64 == 2823322240268045181


def test_python_hash_is_the_unsigned_structural_hash():
    assert hash(StructuralKey(-1)) == 2654435833
    assert hash(StructuralKey(convert([1, 2]))) == 2823322240268045181


def test_equality_is_structural():
    assert StructuralKey(convert([1, 2])) == StructuralKey(convert([1, 2]))
    assert StructuralKey(convert([1, 2])) != StructuralKey(convert([2, 1]))
    assert StructuralKey(1) != 1


def test_keys_collapse_in_python_dicts():
    d = {StructuralKey(convert([1, 2])): "a"}
    assert d[StructuralKey(convert([1, 2]))] == "a"


def test_keys_collapse_in_ffi_map_and_dict():
    m = tvm_ffi.Map({StructuralKey(convert([1, 2])): 1, StructuralKey(convert([3])): 2})
    assert m[StructuralKey(convert([1, 2]))] == 1
    d = tvm_ffi.Dict()
    d[StructuralKey(convert({"a": 1}))] = 1
    d[StructuralKey(convert({"a": 1}))] = 2
    assert len(d) == 1 and d[StructuralKey(convert({"a": 1}))] == 2


def test_equal_big_ints_are_one_map_key():
    m = tvm_ffi.Map({2**100: "x"})
    assert m[2**100] == "x"


def test_unsupported_key_raises_type_error():
    with pytest.raises(TypeError, match="Type metadata is not set for type `ffi.Function`"):
        StructuralKey(tvm_ffi.convert(lambda: 1))


def test_structural_equal_on_keys_themselves_raises():
    key = StructuralKey(1)
    with pytest.raises(
        TypeError, match="_type_s_eq_hash_kind is not set for type `ffi.StructuralKey`"
    ):
        tvm_ffi.structural_equal(key, key)
