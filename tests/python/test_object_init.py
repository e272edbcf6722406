"""Object.__init_handle_by_constructor__: how a wrapper adopts a constructor's result."""

import sys

import pytest
import tvm_ffi


def test_constructor_result_is_adopted_as_handle():
    arr = tvm_ffi.Array([1, 2])
    obj = tvm_ffi.Object.__new__(tvm_ffi.Object)
    obj.__init_handle_by_constructor__(tvm_ffi.convert(lambda: arr))
    assert obj.same_as(arr)


def test_constructor_must_be_a_function():
    obj = tvm_ffi.Object.__new__(tvm_ffi.Object)
    with pytest.raises(TypeError, match="constructor must be a tvm_ffi.Function"):
        obj.__init_handle_by_constructor__(lambda: None)


def test_constructor_returning_a_non_object_is_rejected():
    obj = tvm_ffi.Object.__new__(tvm_ffi.Object)
    with pytest.raises(TypeError, match="did not return an object"):
        obj.__init_handle_by_constructor__(tvm_ffi.convert(lambda: 1))


def test_result_is_released_when_self_was_initialized_during_the_call():
    payload = object()  # returned by the constructor as an opaque object
    other = tvm_ffi.Array([3])
    target = tvm_ffi.Object.__new__(tvm_ffi.Object)

    def constructor():
        # Initializes target re-entrantly, so the outer call must not adopt
        # (and must not leak) what this returns.
        target.__init_handle_by_constructor__(tvm_ffi.convert(lambda: other))
        return payload

    before = sys.getrefcount(payload)
    with pytest.raises(TypeError, match="already holds an object"):
        target.__init_handle_by_constructor__(tvm_ffi.convert(constructor))
    assert target.same_as(other)
    assert sys.getrefcount(payload) == before
