"""@py_class types deriving from C++ types whose fields are not plain data (strings, object
references): fresh objects hold valid empty values, and the C++ fields are released and
copied with the object."""

import copy
import types

import tvm_ffi
import tvm_ffi.testing
from tvm_ffi.dataclasses import py_class
from tvm_ffi.dataclasses.py_class import _native_field_ok


@py_class("test_cxx_parent.Sub")
class Sub(tvm_ffi.testing.TestObjectBase):
    extra: str = "x"


def _new(cls):
    ffi_new = tvm_ffi.core._lookup_type_attr(cls.__tvm_ffi_type_info__.type_index, "__ffi_new__")
    return ffi_new()


def test_subclass_of_cxx_type_with_string_field_constructs_with_defaults():
    s = Sub()
    assert (s.v_i64, s.v_f64, s.v_str, s.extra) == (10, 10.0, "hello", "x")


def test_subclass_takes_cxx_fields_as_keywords():
    s = Sub(v_str="abc", extra="q")
    assert (s.v_str, s.extra) == ("abc", "q")


def test_fresh_object_holds_an_empty_cxx_string():
    obj = _new(Sub)
    assert obj.v_str == ""


def test_cxx_string_field_is_assignable():
    s = Sub()
    s.v_str = "a much longer string than fits inline"
    assert s.v_str == "a much longer string than fits inline"


def test_shallow_copy_duplicates_cxx_fields():
    s = Sub(v_str="a much longer string than fits inline")
    c = copy.copy(s)
    del s
    assert c.v_str == "a much longer string than fits inline"


def test_deepcopy_keeps_cxx_fields():
    c = copy.deepcopy(Sub(v_str="abc"))
    assert c.v_str == "abc"


def test_cxx_object_reference_field_is_released_with_the_object():
    @py_class("test_cxx_parent.Holder")
    class Holder(tvm_ffi.testing.TestObjectPtrHolder):
        tag: int = 0

    base = tvm_ffi.testing.TestObjectBase()
    count = tvm_ffi.get_global_func("testing.object_use_count")
    before = count(base)
    h = Holder(base)
    assert h.value.same_as(base)
    assert count(base) == before + 1
    del h
    assert count(base) == before


def test_cpp_constructs_py_class_object_with_cxx_field():
    s = Sub(v_str="seen")
    make = tvm_ffi.get_global_func("ffi.MakeObjectFromPackedArgs")
    made = make("test_cxx_parent.Sub", "v_str", "from C++")
    assert made.v_str == "from C++"
    assert s.v_str == "seen"


def _field(size, static_index, schema):
    return types.SimpleNamespace(
        size=size, field_static_type_index=static_index, metadata={"type_schema": schema}
    )


def test_native_layouts_that_py_class_can_hold():
    assert _native_field_ok(_field(8, 1, '{"type":"int"}'))
    assert _native_field_ok(_field(8, 64, '{"type":"testing.TestObjectBase"}'))
    assert _native_field_ok(_field(8, -1, '{"type":"Optional"}'))
    assert _native_field_ok(_field(16, -1, '{"type":"ffi.String"}'))
    assert _native_field_ok(_field(16, -1, '{"type":"Any"}'))


def test_native_layouts_that_py_class_cannot_hold():
    assert not _native_field_ok(_field(32, -1, '{"type":"std::string"}'))
    assert not _native_field_ok(_field(24, 71, '{"type":"std::vector"}'))
    assert not _native_field_ok(_field(16, -1, '{"type":"std::optional"}'))
