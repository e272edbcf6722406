"""tvm_ffi.convert and tvm_ffi.convert_func."""

from . import core
from .core import Function, convert

__all__ = ["convert", "convert_func"]


def convert_func(pyfunc, tensor_cls=None):
    """A tvm_ffi.Function wrapping the Python callable pyfunc.

    tensor_cls names the framework tensor class the callback wants its tensor arguments as;
    it must expose ``__dlpack_c_exchange_api__`` (TypeError otherwise).
    """
    if tensor_cls is not None:
        if getattr(tensor_cls, "__dlpack_c_exchange_api__", None) is None:
            raise TypeError("tensor_cls %r must expose __dlpack_c_exchange_api__" % (tensor_cls,))
        raise NotImplementedError("convert_func(tensor_cls=...) needs the DLPack exchange API, "
                                  "which this build of tvm_ffi does not implement")
    if not callable(pyfunc):
        raise TypeError("convert_func expects a callable, got %s" % type(pyfunc).__name__)
    return Function(pyfunc)
