"""Enum singletons registered in C++ (EnumDef) read from Python: the testing
library's testing.TestCxxIntEnum (low=10, high=20), testing.TestCxxStrEnum
("+", "*") and testing.TestEnumVariant (Alpha, Beta)."""

import pytest
import tvm_ffi
import tvm_ffi.testing


def _get(type_key, index):
    return tvm_ffi.get_global_func("testing.enum_get")(type_key, index)


def test_variant_lookup_returns_the_singleton():
    get = tvm_ffi.get_global_func("testing.enum_variant_get")
    alpha = get("Alpha")
    assert alpha._str_index == "Alpha"
    assert alpha._int_index == 0
    assert alpha.same_as(get("Alpha"))


def test_variant_lookup_of_unknown_name_is_value_error():
    get = tvm_ffi.get_global_func("testing.enum_variant_get")
    with pytest.raises(ValueError) as info:
        get("Gamma")
    assert str(info.value) == "Enum `testing.TestEnumVariant` has no instance with index Gamma"


def test_int_enum_value_is_its_int_index():
    low = _get("testing.TestCxxIntEnum", 10)
    assert low.value == 10
    assert low._str_index == "low"
    assert low.same_as(_get("testing.TestCxxIntEnum", "low"))


def test_str_enum_value_is_its_symbol():
    mul = _get("testing.TestCxxStrEnum", "*")
    assert mul.value == "*"
    assert mul._int_index == 1


def test_enum_value_is_read_only():
    low = _get("testing.TestCxxIntEnum", 10)
    with pytest.raises(AttributeError):
        low.value = 11
    assert low.value == 10
