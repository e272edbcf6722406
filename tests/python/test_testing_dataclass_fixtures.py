"""The c_class fixtures of tvm_ffi.testing over the testing library's C++ types:
_TestCxxClassBase/_TestCxxClassDerived/_TestCxxClassDerivedDerived, TestFrozenCxx, TestCompare,
TestHash, TestCustomHash, TestCustomCompare, TestEqWithoutHash, the enum TestEnumVariant, and the
global testing.nop."""

import inspect

import pytest
import tvm_ffi
import tvm_ffi.testing as testing
from tvm_ffi import registry
from tvm_ffi.dataclasses import fields, is_dataclass

Base = testing._TestCxxClassBase
Derived = testing._TestCxxClassDerived
DerivedDerived = testing._TestCxxClassDerivedDerived
BOUND = (
    Base,
    Derived,
    DerivedDerived,
    testing.TestFrozenCxx,
    testing.TestCompare,
    testing.TestHash,
    testing.TestCustomHash,
    testing.TestCustomCompare,
    testing.TestEqWithoutHash,
    testing.TestEnumVariant,
)


@pytest.fixture(autouse=True)
def testing_classes_bound():
    """Other test files bind their own classes to these type keys: during each test here the
    testing module's classes are bound, and the earlier bindings are put back after."""
    saved = [(cls.__tvm_ffi_type_info__, cls.__tvm_ffi_type_info__.type_cls) for cls in BOUND]
    for cls in BOUND:
        registry._bind_class(cls, cls.__tvm_ffi_type_info__)
    yield
    for info, cls in saved:
        registry._bind_class(cls, info)


@pytest.mark.parametrize("cls", BOUND, ids=lambda cls: cls.__name__)
def test_fixture_class_is_a_dataclass_bound_to_its_testing_type(cls):
    assert is_dataclass(cls)
    key = cls.__tvm_ffi_type_info__.type_key
    assert key == "testing." + cls.__name__.lstrip("_")


def test_class_base_init_runs_the_explicit_cxx_constructor():
    obj = Base(1, 2)
    assert (obj.v_i64, obj.v_i32) == (2, 4)


def test_class_base_fields_are_left_out_of_repr():
    assert repr(Base(1, 2)) == "testing.TestCxxClassBase"


def test_class_derived_init_lists_parent_fields_first_and_fills_defaults():
    assert list(inspect.signature(Derived).parameters) == ["v_i64", "v_i32", "v_f64", "v_f32"]
    obj = Derived(1, 2, 3.5)
    assert (obj.v_i64, obj.v_i32, obj.v_f64, obj.v_f32) == (1, 2, 3.5, 8.0)


def test_class_derived_compares_by_fields():
    assert Derived(1, 2, 3.5) == Derived(1, 2, 3.5)
    assert Derived(1, 2, 3.5) != Derived(1, 2, 4.5)
    assert Derived(1, 2, 3.5) < Derived(1, 2, 4.5)


def test_class_derived_hash_follows_eq():
    assert hash(Derived(1, 2, 3.5)) == hash(Derived(1, 2, 3.5))


def test_class_derived_order_with_another_type_is_type_error():
    with pytest.raises(TypeError):
        Derived(1, 2, 3.5) < 1  # noqa: B015


def test_class_derived_derived_has_every_field_and_the_string_default():
    obj = DerivedDerived(1, 2, 3.5, v_bool=True)
    assert [f.name for f in fields(DerivedDerived)] == [
        "v_i64",
        "v_i32",
        "v_f64",
        "v_f32",
        "v_str",
        "v_bool",
    ]
    assert (obj.v_str, obj.v_bool) == ("default", True)


def test_class_derived_derived_missing_field_is_type_error():
    with pytest.raises(TypeError, match="v_bool"):
        DerivedDerived(1, 2, 3.5)


def test_frozen_cxx_reflects_no_fields():
    assert fields(testing.TestFrozenCxx) == ()


def test_compare_fixture_keeps_its_three_fields():
    obj = testing.TestCompare(1, "a", 2)
    assert (obj.key, obj.name, obj.ignored_field) == (1, "a", 2)
    by_name = {f.name: f for f in fields(testing.TestCompare)}
    assert by_name["ignored_field"].compare is False
    assert by_name["key"].compare is True


def test_hash_fixture_marks_hash_ignored():
    by_name = {f.name: f for f in fields(testing.TestHash)}
    assert by_name["hash_ignored"].hash is False
    assert by_name["name"].hash is True


def test_custom_hash_fixture_exposes_its_cxx_hook():
    assert callable(testing.TestCustomHash.__ffi_hash__)
    assert testing.TestCustomHash(1, "a").label == "a"


def test_custom_compare_fixture_exposes_its_cxx_hooks():
    cls = testing.TestCustomCompare
    assert all(callable(getattr(cls, n)) for n in ("__ffi_hash__", "__ffi_eq__", "__ffi_compare__"))


def test_eq_without_hash_fixture_has_eq_hook_only():
    cls = testing.TestEqWithoutHash
    assert callable(cls.__ffi_eq__)
    assert getattr(cls, "__ffi_hash__", None) is None


def test_enum_variant_binds_the_cxx_singletons():
    get = tvm_ffi.get_global_func("testing.enum_variant_get")
    assert testing.TestEnumVariant.Alpha.same_as(get("Alpha"))
    assert type(get("Beta")) is testing.TestEnumVariant
    assert list(testing.TestEnumVariant) == [
        testing.TestEnumVariant.Alpha,
        testing.TestEnumVariant.Beta,
    ]


def test_enum_variant_code_attribute():
    code = testing.TestEnumVariant.def_attr("code")
    assert (code[testing.TestEnumVariant.Alpha], code[testing.TestEnumVariant.Beta]) == (10, 20)


def test_nop_takes_any_arguments_and_returns_none():
    assert testing.nop() is None
    assert testing.nop(1, "x", [2], testing.TestCompare(1, "a", 2)) is None
