"""tvm_ffi.Shape, and the tensor names re-exported at the top level."""

import numbers as _numbers

from . import _type_info, core
from .core import Device, DLDeviceType, Tensor, device, from_dlpack

__all__ = ["Shape", "Tensor", "Device", "DLDeviceType", "device", "from_dlpack"]


def _rt(name):
    return core._get_global_func(name, False)


class Shape(tuple, core.PyNativeObject):
    """A tuple of ints backed by an ``ffi.Shape`` object (kept in ``_tvm_ffi_cached_object``).

    Passing a Shape to the FFI passes that object; a Shape returned by the FFI keeps the
    returned object. repr, ``==`` and ``hash`` are the tuple's.
    """

    def __new__(cls, content=()):
        values = tuple(content)
        if not all(isinstance(v, _numbers.Integral) for v in values):
            raise ValueError("Shape must be a tuple of integers")
        obj = _rt("ffi.Shape")(*[int(v) for v in values]).__tvm_ffi_object__
        self = tuple.__new__(cls, values)
        self.__tvm_ffi_object__ = obj
        return self

    @classmethod
    def _from_object(cls, obj):
        self = tuple.__new__(cls, core._shape_values(obj))
        self.__tvm_ffi_object__ = obj
        return self

    @property
    def _tvm_ffi_cached_object(self):
        """The ``ffi.Shape`` object behind this tuple."""
        return self.__tvm_ffi_object__

    def __reduce__(self):
        return (Shape, (tuple(self),))


core._set_shape_factory(Shape._from_object)
_type_info._bind_type_cls(_type_info._type_index_to_type_info(69), Shape)
