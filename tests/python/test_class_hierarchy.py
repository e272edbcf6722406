"""The class hierarchy of python_api.md §4.1: CObject is the root of every FFI handle class;
Object (registered types, containers, Module) derives from it, while Function, Tensor, Error
and OpaquePyObject derive from CObject only."""

import numpy as np
import pytest
import tvm_ffi
import tvm_ffi.testing
from tvm_ffi import core
from tvm_ffi.core import TypeSchema


def _function():
    return tvm_ffi.get_global_func("testing.echo")


def _error():
    return core.Error("ValueError", "boom", "")


def test_cobject_is_the_root_of_the_handle_classes():
    assert core.CObject.__bases__ == (object,)
    assert issubclass(tvm_ffi.Object, core.CObject)


@pytest.mark.parametrize(
    "cls",
    [tvm_ffi.Function, tvm_ffi.Tensor, core.Error, core.OpaquePyObject],
    ids=lambda cls: cls.__name__,
)
def test_non_object_handle_class_derives_from_cobject_only(cls):
    assert issubclass(cls, core.CObject)
    assert not issubclass(cls, tvm_ffi.Object)


def test_function_instance_is_not_an_object():
    f = _function()
    assert isinstance(f, core.CObject) and not isinstance(f, tvm_ffi.Object)


def test_tensor_instance_is_not_an_object():
    t = tvm_ffi.from_dlpack(np.zeros(2, dtype="float32"))
    assert isinstance(t, core.CObject) and not isinstance(t, tvm_ffi.Object)


def test_error_instance_is_not_an_object():
    err = _error()
    assert isinstance(err, core.CObject) and not isinstance(err, tvm_ffi.Object)


def test_opaque_py_object_instance_is_not_an_object():
    wrapped = tvm_ffi.convert({1, 2})
    assert isinstance(wrapped, core.OpaquePyObject)
    assert isinstance(wrapped, core.CObject) and not isinstance(wrapped, tvm_ffi.Object)


def test_containers_are_objects_with_the_container_base_before_object():
    mro = tvm_ffi.Array.__mro__
    assert mro.index(tvm_ffi.container.CContainerBase) < mro.index(tvm_ffi.Object)
    assert mro.index(tvm_ffi.Object) < mro.index(core.CObject)
    assert isinstance(tvm_ffi.Map({"a": 1}), tvm_ffi.Object)


def test_registered_types_and_modules_are_objects():
    assert isinstance(tvm_ffi.testing.TestIntPair(1, 2), tvm_ffi.Object)
    assert issubclass(tvm_ffi.Module, tvm_ffi.Object)


def test_handle_methods_work_on_a_function():
    f = _function()
    assert f.same_as(f) and f.is_(f)
    assert f.__chandle__() == f.id_ != 0
    assert hash(f) == hash(f.__chandle__())
    assert not f.same_as(tvm_ffi.Array([1]))


def test_function_passed_through_a_call_keeps_its_handle():
    f = _function()
    assert tvm_ffi.testing.echo(f).same_as(f)


def test_error_passes_through_convert_unchanged():
    err = _error()
    assert tvm_ffi.convert(err) is err


def test_container_holding_a_function_compares_by_handle():
    f = _function()
    assert tvm_ffi.Array([f]) == [f]
    assert tvm_ffi.Array([f]) != [_error()]


def test_function_annotation_is_a_callable_schema():
    assert TypeSchema.from_annotation(tvm_ffi.Function).origin == "Callable"


def test_tensor_annotation_is_a_tensor_schema():
    assert TypeSchema.from_annotation(tvm_ffi.Tensor).origin == "Tensor"


def test_function_converts_to_an_object_field_of_type_any_object():
    f = _function()
    assert core._to_py_class_value(TypeSchema("Object").convert(f)).same_as(f)


def test_registering_a_class_outside_the_hierarchy_is_type_error():
    with pytest.raises(TypeError, match="expects a subclass of tvm_ffi.core.CObject, got"):
        core._register_object_class(64, int)
