"""The reflected fixtures of tvm_ffi.testing through register_object: generated constructors,
field defaults, __ffi_convert__ in TypeSchema, fallback classes."""

import inspect

import pytest
import tvm_ffi
import tvm_ffi.testing as t
from tvm_ffi.core import KWARGS, MISSING, TypeSchema


def test_object_base_defaults_and_signature():
    obj = t.TestObjectBase()
    assert (obj.v_i64, obj.v_f64, obj.v_str) == (10, 10.0, "hello")
    assert str(inspect.signature(t.TestObjectBase.__init__)) == (
        "(self, v_i64=%r, v_f64=%r, v_str=%r)" % (MISSING, MISSING, MISSING)
    )


def test_object_base_method_and_keyword_construction():
    obj = t.TestObjectBase(v_i64=5, v_str="x")
    assert obj.add_i64(2) == 7 and obj.v_str == "x" and obj.v_f64 == 10.0


def test_derived_inherits_fields_and_methods():
    obj = t.TestObjectDerived(v_map={"a": 1}, v_array=[1, 2])
    assert obj.v_i64 == 10 and obj.add_i64(1) == 11
    assert list(obj.v_array) == [1, 2] and dict(obj.v_map) == {"a": 1}
    assert isinstance(obj, t.TestObjectBase)


def test_int_pair_explicit_constructor_and_frozen_fields():
    pair = t.TestIntPair(1, 2)
    assert pair.sum() == 3
    with pytest.raises(AttributeError):
        pair.a = 5
    assert t.TestIntPair.__dict__["a"].__doc__ == "Field `a`"


def test_auto_init_example_of_spec():
    obj = t._TestCxxAutoInit(1, c=5)
    assert (obj.a, obj.b, obj.c, obj.d) == (1, 42, 5, 99)
    index = t._TestCxxAutoInit.__tvm_ffi_type_info__.type_index
    ffi_init = tvm_ffi.core._lookup_type_attr(index, "__ffi_init__")
    raw = t._TestCxxAutoInit.__new__(t._TestCxxAutoInit)
    raw.__init_handle_by_constructor__(ffi_init, 1, KWARGS, "c", 5)
    assert (raw.a, raw.b, raw.c, raw.d) == (1, 42, 5, 99)


def test_kw_only_defaults_signature():
    assert str(inspect.signature(t._TestCxxAutoInitKwOnlyDefaults.__init__)) == (
        "(self, p_required, p_default=%r, *, k_required, k_default=%r)" % (MISSING, MISSING)
    )
    obj = t._TestCxxAutoInitKwOnlyDefaults(1, k_required=2)
    assert (obj.p_default, obj.k_default, obj.hidden) == (11, 22, 33)


def test_child_signature_lists_parent_fields_first():
    assert str(inspect.signature(t._TestCxxAutoInitChild.__init__)) == (
        "(self, parent_required, child_required, parent_default=%r, *, child_kw_only)" % MISSING
    )


def test_all_init_off_takes_no_arguments():
    obj = t._TestCxxAutoInitAllInitOff()
    assert (obj.x, obj.y) == (7, 9)
    with pytest.raises(TypeError, match="takes at most 0 positional argument"):
        t._TestCxxAutoInitAllInitOff(1)


def test_too_many_positional_arguments_error_comes_from_runtime():
    with pytest.raises(
        TypeError,
        match=r"testing.TestCxxAutoInitSimple.__ffi_init__\(\) takes at most 2 positional "
        r"argument\(s\), but 3 were given",
    ):
        t._TestCxxAutoInitSimple(1, 2, 3)


def test_no_auto_init_cannot_be_constructed():
    with pytest.raises(TypeError, match="`_TestCxxNoAutoInit` cannot be constructed directly"):
        t._TestCxxNoAutoInit()


def test_field_schema_of_optional_object_field():
    info = t.TestObjectPtrHolder.__tvm_ffi_type_info__
    optional = next(f for f in info.fields if f.name == "optional_value")
    assert repr(optional.ty) == "testing.TestObjectBase | None"
    assert optional.c_has_default and optional.c_default is None


def test_type_schema_accepts_instance_of_registered_class():
    pair = t.TestIntPair(1, 2)
    assert tvm_ffi.core._to_py_class_value(TypeSchema("testing.TestIntPair").convert(pair)).same_as(
        pair
    )


def test_type_schema_reports_failed_ffi_convert():
    with pytest.raises(TypeError) as err:
        TypeSchema("testing.TestIntPair").convert("x")
    text = str(err.value)
    assert text.startswith(
        "type conversion failed for testing.TestIntPair: expected testing.TestIntPair, got str"
    )
    assert "\n  __ffi_convert__ failed:\n    " in text


def test_unregistered_type_fallback_class_has_fields_and_methods():
    obj = t.make_unregistered_object()
    cls = type(obj)
    assert cls.__qualname__ == "testing.TestUnregisteredObject"
    assert cls.__mro__[1].__qualname__ == "testing.TestUnregisteredBaseObject"
    assert (obj.v1, obj.v2) == (41, 42)
    assert obj.get_v1_plus_one() == 42
    assert obj.get_v2_plus_two() == 44
    assert "Get (v2 + 2)" in cls.get_v2_plus_two.__doc__
