"""TypeSchema targets that are C++ enums (EnumDef): a payload naming a singleton converts to it.

Fixtures: testing.TestCxxIntEnum (low=10, high=20), testing.TestCxxStrEnum ("+", "*")
and testing.TestCxxEnumHolder (fields priority, opcode) of the testing library's enum file."""

import pytest
import tvm_ffi
import tvm_ffi.testing  # loads the fixtures
from tvm_ffi import core
from tvm_ffi.core import TypeSchema

if core._object_type_key_to_index("testing.TestCxxIntEnum") is None:
    pytest.skip(
        "the testing library has no enum fixtures (cpp/src/testing/testing_enum.cc)",
        allow_module_level=True,
    )

INT_ENUM = TypeSchema("testing.TestCxxIntEnum")
STR_ENUM = TypeSchema("testing.TestCxxStrEnum")


def enum_get(key, index):
    return tvm_ffi.get_global_func("testing.enum_get")(key, index)


def converted(schema, value):
    return core._to_py_class_value(schema.convert(value))


def test_int_payload_converts_to_singleton():
    assert converted(INT_ENUM, 10).same_as(enum_get("testing.TestCxxIntEnum", 10))


def test_str_payload_converts_to_singleton():
    assert converted(STR_ENUM, "*").same_as(enum_get("testing.TestCxxStrEnum", "*"))


def test_singleton_passes_unchanged():
    high = enum_get("testing.TestCxxIntEnum", 20)
    assert converted(INT_ENUM, high).same_as(high)


def test_unknown_payload_reports_the_failing_ffi_convert():
    with pytest.raises(TypeError) as err:
        INT_ENUM.convert(11)
    assert str(err.value) == (
        "type conversion failed for testing.TestCxxIntEnum: "
        "expected testing.TestCxxIntEnum, got int\n  __ffi_convert__ failed:\n"
        "    Cannot cast from `int` to `testing.TestCxxIntEnum`"
    )


def test_unknown_short_str_payload_reports_it_as_small_str():
    with pytest.raises(TypeError) as err:
        STR_ENUM.check_value("x")
    assert str(err.value) == (
        "type check failed for testing.TestCxxStrEnum: "
        "expected testing.TestCxxStrEnum, got str\n  __ffi_convert__ failed:\n"
        "    Cannot cast from `ffi.SmallStr` to `testing.TestCxxStrEnum`"
    )


def test_payload_of_wrong_kind_is_rejected():
    with pytest.raises(TypeError, match="expected testing.TestCxxIntEnum, got str"):
        INT_ENUM.convert("low")


def test_enum_fields_normalize_payloads():
    info = core._lookup_or_register_type_info_from_type_key("testing.TestCxxEnumHolder")
    fields = {f.name: f for f in info.fields}
    assert fields["priority"]._is_payload_enum_field()
    assert fields["opcode"]._is_payload_enum_field()
    low = fields["priority"].normalize_value(10)
    assert low.same_as(enum_get("testing.TestCxxIntEnum", 10))
    plus = fields["opcode"].normalize_value("+")
    assert plus.same_as(enum_get("testing.TestCxxStrEnum", "+"))


def test_non_enum_field_is_not_payload_enum():
    info = core._lookup_or_register_type_info_from_type_key("testing.TestObjectBase")
    assert not any(f._is_payload_enum_field() for f in info.fields)


@tvm_ffi.register_object("testing.TestCxxEnumHolder")
class EnumHolder(tvm_ffi.Object):
    pass


def test_init_maps_enum_payloads_to_singletons():
    holder = EnumHolder(20, opcode="*")
    assert holder.priority.same_as(enum_get("testing.TestCxxIntEnum", 20))
    assert holder.opcode.same_as(enum_get("testing.TestCxxStrEnum", "*"))


def test_init_rejects_unknown_enum_payload():
    with pytest.raises(TypeError, match="expected testing.TestCxxIntEnum, got int"):
        EnumHolder(11, "*")


def test_assignment_maps_enum_payload_to_singleton():
    holder = EnumHolder(10, "*")
    holder.priority = 20
    holder.opcode = "+"
    assert holder.priority.same_as(enum_get("testing.TestCxxIntEnum", 20))
    assert holder.opcode.same_as(enum_get("testing.TestCxxStrEnum", "+"))


def test_assignment_rejects_unknown_enum_payload_with_the_normalization_error():
    holder = EnumHolder(10, "*")
    with pytest.raises(TypeError) as err:
        holder.priority = 11
    assert str(err.value).startswith(
        "type conversion failed for testing.TestCxxIntEnum: "
        "expected testing.TestCxxIntEnum, got int"
    )
    assert holder.priority.same_as(enum_get("testing.TestCxxIntEnum", 10))
