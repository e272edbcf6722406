"""tvm_ffi.dataclasses enums: Enum / IntEnum / StrEnum defined in Python (py_class types
deriving from ffi.Enum) and bound to C++-registered enums, entry/auto, lookup and the
extensible attribute maps."""

import copy
import typing
from typing import ClassVar

import pytest
import tvm_ffi
import tvm_ffi.testing
from tvm_ffi.dataclasses import (
    Enum,
    EnumAttrMap,
    EnumState,
    IntEnum,
    StrEnum,
    auto,
    entry,
    fields,
    is_dataclass,
    py_class,
)
from tvm_ffi.dataclasses.enum import ENUM_STATE_ATTR, _EnumEntry


class Color(Enum, type_key="test_enum.Color"):
    code: int = 0
    RED = entry(code=3)
    GREEN = auto()


class Level(IntEnum, type_key="test_enum.Level"):
    low = 1
    high = entry(value=5)


class Op(StrEnum, type_key="test_enum.Op"):
    add = "+"
    mul = entry(value="*")


def _state(cls):
    return tvm_ffi.core._lookup_type_attr(cls.__tvm_ffi_type_info__.type_index, ENUM_STATE_ATTR)


def test_enum_bases_are_bound_to_the_runtime_enum_types():
    assert Enum.__tvm_ffi_type_info__.type_key == "ffi.Enum"
    assert IntEnum.__tvm_ffi_type_info__.type_key == "ffi.IntEnum"
    assert StrEnum.__tvm_ffi_type_info__.type_key == "ffi.StrEnum"
    assert EnumState.__tvm_ffi_type_info__.type_key == "ffi.EnumState"


def test_enum_metaclass_derives_from_the_object_metaclass():
    assert issubclass(type(Enum), type(tvm_ffi.Object))


def test_entry_keeps_its_arguments_and_reprs_as_a_call():
    e = entry(1, code=2)
    assert isinstance(e, _EnumEntry)
    assert (e.args, e.kwargs) == ((1,), {"code": 2})
    assert repr(e) == "entry(1, code=2)"


def test_auto_returns_a_new_empty_entry_each_call():
    a, b = auto(), auto()
    assert a is not b
    assert repr(a) == "entry()"


def test_plain_enum_variants_take_ordinal_and_name():
    assert [(v._int_index, v._str_index) for v in Color] == [(0, "RED"), (1, "GREEN")]


def test_enum_declared_fields_take_entry_values_and_defaults():
    assert (Color.RED.code, Color.GREEN.code) == (3, 0)


def test_enum_is_a_py_class_with_singleton_structural_kind():
    assert is_dataclass(Color)
    assert Color.__tvm_ffi_type_info__.parent_type_info.type_key == "ffi.Enum"
    assert [f.name for f in fields(Color)] == ["_int_index", "_str_index", "code"]


def test_enum_len_and_iteration_follow_registration_order():
    assert len(Color) == 2
    assert [v.same_as(w) for v, w in zip(list(Color), [Color.RED, Color.GREEN])] == [True, True]
    assert [v._str_index for v in Color.all_entries()] == ["RED", "GREEN"]


def test_enum_base_without_variants_is_empty_but_truthy():
    assert len(Enum) == 0
    assert list(Enum) == []
    assert bool(Enum)


def test_plain_enum_repr_is_key_dot_name():
    assert repr(Color.RED) == "test_enum.Color.RED"


def test_enum_state_holds_entries_and_both_indexes():
    state = _state(Color)
    assert isinstance(state, EnumState)
    assert len(state.entries) == 2
    assert state.indexes[0].same_as(Color.RED)
    assert state.indexes["GREEN"].same_as(Color.GREEN)


def test_enum_get_by_int_and_str_index():
    assert Color.get(1).same_as(Color.GREEN)
    assert Color.get("RED").same_as(Color.RED)


def test_enum_get_maps_bool_to_int():
    assert Color.get(True).same_as(Color.GREEN)


def test_enum_get_of_absent_index_is_key_error():
    with pytest.raises(KeyError):
        Color.get(5)


def test_enum_get_of_wrong_index_type_is_type_error():
    with pytest.raises(TypeError, match="enum index must be int or str, got float"):
        Color.get(1.0)


def test_enum_get_beyond_int64_is_overflow_error():
    with pytest.raises(OverflowError, match="enum integer index 18446744073709551616 is outside"):
        Color.get(2**64)


def test_enum_call_with_member_returns_it():
    assert Color(Color.RED).same_as(Color.RED)


def test_enum_call_with_index_looks_it_up():
    assert Color(0).same_as(Color.RED)
    assert Color("GREEN").same_as(Color.GREEN)


def test_enum_call_with_unknown_index_is_value_error():
    with pytest.raises(ValueError, match="5 is not a valid Color"):
        Color(5)
    with pytest.raises(ValueError, match="'zz' is not a valid Color"):
        Color("zz")


def test_enum_fields_are_frozen():
    with pytest.raises(AttributeError):
        Color.RED.code = 4


def test_int_enum_value_and_name():
    assert (Level.low.value, Level.high.value) == (1, 5)
    assert Level.low.name == "low"


def test_int_enum_compares_and_hashes_like_its_value():
    assert Level.low == 1
    assert Level.low != 5
    assert Level.low == Level.low
    assert Level.low != Level.high
    assert hash(Level.low) == hash(1)
    assert Level.low.__eq__("low") is NotImplemented


def test_int_enum_str_and_repr():
    assert str(Level.low) == "1"
    assert repr(Level.high) == "Level.high"


def test_int_enum_lookup_is_by_value():
    assert Level(5).same_as(Level.high)
    assert Level.get("high").same_as(Level.high)


def test_str_enum_value_is_its_str_index():
    assert (Op.add.value, Op.add._str_index, Op.add._int_index) == ("+", "+", 0)
    assert Op.mul == "*"
    assert str(Op.mul) == "*"
    assert repr(Op.add) == "Op.+"


def test_str_enum_binder_uses_its_name_as_value():
    class Tag(StrEnum, type_key="test_enum.Tag"):
        a: ClassVar["Tag"]
        b = "bb"

    assert [v.value for v in Tag] == ["a", "bb"]


def test_plain_enum_binders_come_before_declarations():
    class Mixed(Enum, type_key="test_enum.Mixed"):
        c = auto()
        a: ClassVar["Mixed"]
        b: "ClassVar[Mixed]"

    assert [v._str_index for v in Mixed] == ["a", "b", "c"]


def test_repeated_index_becomes_an_alias():
    class Dup(IntEnum, type_key="test_enum.Dup"):
        a = 1
        b = 1

    assert len(Dup) == 1
    assert Dup.b.same_as(Dup.a)


def test_enum_methods_in_body_are_not_variants():
    class WithHelper(Enum, type_key="test_enum.WithHelper"):
        a = auto()

        def helper(self):
            return 7

    assert len(WithHelper) == 1
    assert WithHelper.a.helper() == 7


def test_user_defined_payload_member_is_kept():
    class Custom(IntEnum, type_key="test_enum.Custom"):
        a = 1

        def __str__(self):
            return "custom"

    assert str(Custom.a) == "custom"


def test_intermediate_enum_base_is_not_registered():
    class Base(Enum):
        pass

    assert "__tvm_ffi_type_info__" not in Base.__dict__

    class Leaf(Base, type_key="test_enum.Leaf"):
        x = auto()

    assert Leaf.__tvm_ffi_type_info__.parent_type_info.type_key == "ffi.Enum"


def test_int_enum_reserves_value():
    with pytest.raises(TypeError, match="IntEnum reserves `value` as its canonical index alias"):

        class Bad(IntEnum, type_key="test_enum.BadValue"):
            value = 3


def test_str_enum_reserves_value_annotation():
    with pytest.raises(TypeError, match="StrEnum reserves `value`"):

        class Bad(StrEnum, type_key="test_enum.BadValueAnn"):
            value: str


def test_explicit_indices_are_rejected():
    with pytest.raises(TypeError, match="Bad.a: enum indices are inferred"):

        class Bad(IntEnum, type_key="test_enum.BadIndex"):
            a = entry(_int_index=3)


def test_int_enum_entry_without_value_is_rejected():
    with pytest.raises(TypeError, match="Bad.a requires a int value"):

        class Bad(IntEnum, type_key="test_enum.BadMissing"):
            a = entry()


def test_int_enum_value_must_be_int():
    with pytest.raises(TypeError, match="Bad.a value must be int"):

        class Bad(IntEnum, type_key="test_enum.BadIntType"):
            a = "s"


def test_str_enum_value_must_be_str():
    with pytest.raises(TypeError, match="Bad.a value must be str"):

        class Bad(StrEnum, type_key="test_enum.BadStrType"):
            a = 3


def test_python_int_enum_binder_is_rejected():
    with pytest.raises(TypeError, match="Bad.a requires an integer value"):

        class Bad(IntEnum, type_key="test_enum.BadBinder"):
            a: "ClassVar[int]"


def test_int_enum_value_beyond_int64_is_overflow_error():
    with pytest.raises(OverflowError, match="enum integer index 18446744073709551616"):

        class Bad(IntEnum, type_key="test_enum.BadRange"):
            a = 2**64


def test_failed_variant_construction_names_the_entry():
    with pytest.raises(TypeError, match="Bad.a: invalid enum entry: .*missing required argument"):

        class Bad(Enum, type_key="test_enum.BadEntry"):
            code: int
            a = entry()


def test_cxx_enum_binders_bind_the_cxx_singletons():
    get = tvm_ffi.get_global_func("testing.enum_variant_get")

    class Variant(Enum, type_key="testing.TestEnumVariant"):
        Alpha: ClassVar["Variant"]
        Beta: ClassVar["Variant"]

    assert Variant.Alpha.same_as(get("Alpha"))
    assert type(get("Beta")) is Variant
    assert dict(Variant.attr_dict["code"].items())[Variant.Beta] == 20


def test_cxx_enum_binder_without_singleton_is_runtime_error():
    with pytest.raises(RuntimeError, match="'testing.TestEnumVariant' has no enum at string index"):

        class Variant(Enum, type_key="testing.TestEnumVariant"):
            Gamma: ClassVar["Variant"]


def test_cxx_int_enum_takes_new_python_declarations():
    class Prio(IntEnum, type_key="testing.TestCxxIntEnum"):
        low: ClassVar["Prio"]
        mid = 15

    assert Prio.mid.value == 15
    assert Prio.get("mid").same_as(Prio.mid)
    assert Prio.low.value == 10


def test_cxx_enum_declaration_with_positional_args_is_rejected():
    with pytest.raises(TypeError, match="invalid enum entry: C\\+\\+-backed enum entries require"):

        class Prio(IntEnum, type_key="testing.TestCxxIntEnum"):
            mid2 = entry(3, value=16)


def test_index_colliding_with_another_variant_is_value_error():
    with pytest.raises(ValueError, match="duplicate enum index in Prio.low"):

        class Prio(IntEnum, type_key="testing.TestCxxIntEnum"):
            low = 11


def test_attr_map_reads_and_writes_the_enum_state():
    codes = Color.def_attr("test_code", default=-1)
    assert isinstance(codes, EnumAttrMap)
    assert codes.name == "test_code"
    codes[Color.RED] = 5
    assert (codes[Color.RED], codes[Color.GREEN]) == (5, -1)
    assert Color.RED in codes and Color.GREEN not in codes
    assert Color.attr_dict["test_code"][Color.RED] == 5


def test_attr_map_without_default_raises_key_error():
    m = Color.def_attr("test_missing")
    with pytest.raises(KeyError, match="has no extensible attribute 'test_missing'"):
        m[Color.RED]
    assert m.get(Color.RED) is None
    assert m.get(Color.RED, 7) == 7


def test_attr_map_rejects_non_members():
    m = Color.def_attr("test_other")
    with pytest.raises(TypeError, match="expected Color, got int"):
        m[1]
    with pytest.raises(TypeError, match="expected Color, got int"):
        m[1] = 2
    assert 1 not in m


def test_enum_variants_survive_deepcopy_and_json():
    assert copy.deepcopy(Color.RED).same_as(Color.RED)
    text = tvm_ffi.serialization.to_json_graph_str(Level.high)
    assert tvm_ffi.serialization.from_json_graph_str(text).same_as(Level.high)


def test_shallow_copy_of_variant_is_a_distinct_object():
    c = copy.copy(Color.RED)
    assert not c.same_as(Color.RED)
    assert not tvm_ffi.structural_equal(c, Color.RED)


def test_py_class_field_typed_with_int_enum_accepts_payloads():
    @py_class("test_enum.Holder")
    class Holder(tvm_ffi.Object):
        level: Level
        color: typing.Optional[Color] = None

    h = Holder(5)
    assert h.level.same_as(Level.high)
    h.level = 1
    assert h.level.same_as(Level.low)
    with pytest.raises(TypeError, match="expected test_enum.Level, got int"):
        h.level = 7
    with pytest.raises(TypeError, match="expected test_enum.Color, got int"):
        h.color = 0


@py_class("test_enum.PayloadHolder")
class PayloadHolder(tvm_ffi.Object):
    level: Level
    op: Op = Op.add


_UNKNOWN_LEVEL = "type conversion failed for test_enum.Level: expected test_enum.Level, got int"


def test_py_class_init_maps_payloads_before_construction():
    h = PayloadHolder(5, op="*")
    assert h.level.same_as(Level.high) and h.op.same_as(Op.mul)


def test_py_class_init_reports_unknown_positional_payload_as_the_normalization_error():
    with pytest.raises(TypeError) as err:
        PayloadHolder(7)
    assert str(err.value) == _UNKNOWN_LEVEL


def test_py_class_init_reports_unknown_keyword_payload_as_the_normalization_error():
    with pytest.raises(TypeError) as err:
        PayloadHolder(level=7)
    assert str(err.value) == _UNKNOWN_LEVEL


def test_py_class_assignment_of_unknown_payload_reports_the_normalization_error():
    h = PayloadHolder(1)
    with pytest.raises(TypeError) as err:
        h.level = 7
    assert str(err.value) == _UNKNOWN_LEVEL
    assert h.level.same_as(Level.low)


def test_py_class_set_maps_payloads():
    h = PayloadHolder(1)
    PayloadHolder.level.set(h, 5)
    assert h.level.same_as(Level.high)
