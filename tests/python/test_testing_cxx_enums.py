"""The enum fixtures of tvm_ffi.testing: _TestCxxIntEnum (low=10, high=20), _TestCxxStrEnum
(add="+", mul="*") bound to the C++ enums of the testing library, their __ffi_convert__ type
attribute, and the c_class _TestCxxEnumHolder (priority, opcode) holding one of each."""

import inspect

import pytest
import tvm_ffi
import tvm_ffi.testing as testing
from tvm_ffi import core, registry
from tvm_ffi.core import TypeSchema
from tvm_ffi.dataclasses import IntEnum, StrEnum, fields, is_dataclass

IntE = testing._TestCxxIntEnum
StrE = testing._TestCxxStrEnum
Holder = testing._TestCxxEnumHolder


@pytest.fixture(autouse=True)
def testing_classes_bound():
    """Other test files bind their own classes to these type keys: during each test here the
    testing module's classes are bound, and the earlier bindings are put back after."""
    infos = [cls.__tvm_ffi_type_info__ for cls in (IntE, StrE, Holder)]
    saved = [(info, info.type_cls) for info in infos]
    for cls, info in zip((IntE, StrE, Holder), infos):
        registry._bind_class(cls, info)
    yield
    for info, cls in saved:
        registry._bind_class(cls, info)


def enum_get(key, index):
    return tvm_ffi.get_global_func("testing.enum_get")(key, index)


def convert_attr(cls):
    return core._lookup_type_attr(cls.__tvm_ffi_type_info__.type_index, "__ffi_convert__")


def test_int_enum_is_bound_to_the_cxx_type():
    assert issubclass(IntE, IntEnum)
    assert IntE.__tvm_ffi_type_info__.type_key == "testing.TestCxxIntEnum"


def test_str_enum_is_bound_to_the_cxx_type():
    assert issubclass(StrE, StrEnum)
    assert StrE.__tvm_ffi_type_info__.type_key == "testing.TestCxxStrEnum"


def test_int_enum_variants_are_the_cxx_singletons():
    assert IntE.low.same_as(enum_get("testing.TestCxxIntEnum", 10))
    assert IntE.high.same_as(enum_get("testing.TestCxxIntEnum", "high"))
    assert (IntE.low.value, IntE.high.value) == (10, 20)


def test_str_enum_variants_are_the_cxx_singletons():
    assert StrE.add.same_as(enum_get("testing.TestCxxStrEnum", "+"))
    assert StrE.mul.same_as(enum_get("testing.TestCxxStrEnum", 1))
    assert (StrE.add.value, StrE.mul.value) == ("+", "*")


def test_enum_lookup_by_payload_returns_the_variant():
    assert IntE(20).same_as(IntE.high)
    assert StrE("*").same_as(StrE.mul)


def test_enum_lookup_of_unknown_payload_is_value_error():
    with pytest.raises(ValueError, match="11 is not a valid _TestCxxIntEnum"):
        IntE(11)


def test_enum_variants_read_from_cxx_come_back_as_the_testing_class():
    assert type(enum_get("testing.TestCxxIntEnum", 10)) is IntE
    assert repr(enum_get("testing.TestCxxStrEnum", "+")) == "_TestCxxStrEnum.+"


def test_cxx_int_enum_has_ffi_convert_attr_copied_to_the_class():
    convert = convert_attr(IntE)
    assert isinstance(convert, tvm_ffi.Function)
    assert IntE.__ffi_convert__.same_as(convert)


def test_cxx_str_enum_has_ffi_convert_attr_copied_to_the_class():
    convert = convert_attr(StrE)
    assert isinstance(convert, tvm_ffi.Function)
    assert StrE.__ffi_convert__.same_as(convert)


def test_ffi_convert_returns_a_variant_unchanged():
    assert convert_attr(IntE)(IntE.high).same_as(IntE.high)
    assert convert_attr(StrE)(StrE.add).same_as(StrE.add)


def test_ffi_convert_rejects_a_raw_payload():
    with pytest.raises(TypeError, match="Cannot cast from `int` to `testing.TestCxxIntEnum`"):
        convert_attr(IntE)(10)


def test_ffi_convert_rejects_a_variant_of_another_enum():
    with pytest.raises(
        TypeError, match="from `testing.TestCxxIntEnum` to `testing.TestCxxStrEnum`"
    ):
        convert_attr(StrE)(IntE.low)


def test_type_schema_reports_the_failing_ffi_convert():
    with pytest.raises(TypeError) as err:
        TypeSchema("testing.TestCxxStrEnum").convert(IntE.low)
    assert str(err.value) == (
        "type conversion failed for testing.TestCxxStrEnum: expected testing.TestCxxStrEnum, "
        "got testing.TestCxxIntEnum\n  __ffi_convert__ failed:\n"
        "    Cannot cast from `testing.TestCxxIntEnum` to `testing.TestCxxStrEnum`"
    )


def test_holder_is_a_c_class_with_both_enum_fields():
    assert is_dataclass(Holder)
    assert [(f.name, f.type) for f in fields(Holder)] == [("priority", IntE), ("opcode", StrE)]
    assert list(inspect.signature(Holder).parameters) == ["priority", "opcode"]


def test_holder_init_takes_variants():
    holder = Holder(IntE.high, StrE.mul)
    assert holder.priority.same_as(IntE.high)
    assert holder.opcode.same_as(StrE.mul)


def test_holder_init_maps_payloads_to_variants():
    holder = Holder(10, opcode="+")
    assert type(holder.priority) is IntE and holder.priority.same_as(IntE.low)
    assert type(holder.opcode) is StrE and holder.opcode.same_as(StrE.add)


def test_holder_init_rejects_unknown_payload():
    with pytest.raises(TypeError, match="expected testing.TestCxxStrEnum, got str"):
        Holder(10, "-")


@pytest.mark.parametrize("payload", [0, 11, -1, 30])
def test_holder_init_out_of_range_int_payload_reports_the_ffi_convert_cause(payload):
    with pytest.raises(TypeError) as err:
        Holder(payload, "+")
    assert str(err.value) == (
        "type conversion failed for testing.TestCxxIntEnum: expected testing.TestCxxIntEnum, "
        "got int\n  __ffi_convert__ failed:\n"
        "    Cannot cast from `int` to `testing.TestCxxIntEnum`"
    )


def test_holder_field_assignment_of_out_of_range_payload_reports_the_ffi_convert_cause():
    holder = Holder(10, "+")
    with pytest.raises(
        TypeError, match="\n    Cannot cast from `int` to `testing.TestCxxIntEnum`$"
    ):
        holder.priority = 99
    with pytest.raises(
        TypeError, match="\n    Cannot cast from `ffi.SmallStr` to `testing.TestCxxStrEnum`$"
    ):
        holder.opcode = "-"
    assert holder.priority.same_as(IntE.low) and holder.opcode.same_as(StrE.add)


def test_enum_class_call_with_out_of_range_value_is_value_error():
    with pytest.raises(ValueError, match="^99 is not a valid _TestCxxIntEnum$"):
        IntE(99)
    with pytest.raises(ValueError, match="^'-' is not a valid _TestCxxStrEnum$"):
        StrE("-")


def test_holder_init_rejects_missing_field():
    with pytest.raises(TypeError):
        Holder(10)


def test_holder_fields_are_writable_with_variants_and_payloads():
    holder = Holder(10, "+")
    holder.priority = IntE.high
    holder.opcode = "*"
    assert holder.priority.same_as(IntE.high)
    assert holder.opcode.same_as(StrE.mul)


def test_holder_field_rejects_a_variant_of_the_other_enum_and_keeps_its_value():
    holder = Holder(10, "+")
    with pytest.raises(
        TypeError, match="expected testing.TestCxxIntEnum, got testing.TestCxxStrEnum"
    ):
        holder.priority = StrE.add
    assert holder.priority.same_as(IntE.low)


def test_holder_repr_names_the_variants():
    assert repr(Holder(20, "*")) == (
        "testing.TestCxxEnumHolder(priority=testing.TestCxxIntEnum.high, "
        "opcode=testing.TestCxxStrEnum.*)"
    )
