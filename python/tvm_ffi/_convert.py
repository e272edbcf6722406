"""tvm_ffi.convert and tvm_ffi.convert_func."""

import ctypes
import numbers

from . import core
from .core import Function

_UNCHANGED = (bool, numbers.Number, ctypes.c_void_p, core.dtype, core.String, core.Bytes)
_PASS_THROUGH_PROTOCOLS = (
    "__cuda_stream__",
    "__tvm_ffi_opaque_ptr__",
    "__dlpack_device__",
    "__tvm_ffi_int__",
    "__tvm_ffi_float__",
)


def convert(value):
    """The FFI-side form of a Python value, as a Python object.

    Objects, numbers, dtypes, ``c_void_p`` and String/Bytes come back unchanged; str and
    bytes become ``core.String`` / ``core.Bytes``; lists/tuples an Array, dicts a Map,
    callables a Function, exceptions an Error, DLPack producers a Tensor, framework dtypes
    a ``tvm_ffi.dtype``; ``__tvm_ffi_object__()`` is called.
    """
    if isinstance(value, core.CObject) and not isinstance(value, (Function, core.Tensor)):
        return value
    if isinstance(value, core.Tensor):
        # As the reference does: a new Tensor (new handle) on the same memory.
        return core.from_dlpack(value)
    if isinstance(value, _UNCHANGED) or value is None:
        return value
    if isinstance(value, tuple) and hasattr(value, "__tvm_ffi_object__"):
        return value  # Shape
    if isinstance(value, str):
        return core.String(value)
    if isinstance(value, (bytes, bytearray)):
        return core.Bytes(value)
    cls = type(value)
    if hasattr(cls, "__tvm_ffi_object__"):
        return value.__tvm_ffi_object__()
    if any(hasattr(cls, name) for name in _PASS_THROUGH_PROTOCOLS) and not hasattr(
        cls, "__dlpack__"
    ):
        return value
    result = core.convert(value)
    if result is value:
        # Values with no FFI form come back as themselves: wrap them like the reference does.
        return core._convert_to_opaque_object(value)
    return result


__all__ = ["convert", "convert_func"]


def convert_func(pyfunc, tensor_cls=None):
    """A tvm_ffi.Function wrapping the Python callable pyfunc.

    tensor_cls names the framework tensor class the callback wants its tensor arguments as
    (e.g. ``torch.Tensor``); it must expose ``__dlpack_c_exchange_api__`` (TypeError
    otherwise). Containers passed to the callback then yield tensor_cls elements too.
    """
    if not callable(pyfunc):
        raise TypeError("convert_func expects a callable, got %s" % type(pyfunc).__name__)
    return core._convert_to_ffi_func(pyfunc, tensor_cls)
