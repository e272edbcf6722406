"""Conversion of tvm_ffi.dtype to the dtype objects of numpy, ml_dtypes and torch.

The other direction is tvm_ffi.dtype(x), which accepts any of those. numpy,
ml_dtypes and torch are imported only when a conversion asks for them.
"""

from .core import dtype as _dtype


def to_numpy_dtype(value):
    """The numpy dtype of a tvm_ffi dtype (or of anything tvm_ffi.dtype accepts)."""
    return _dtype(value).to_numpy()


def to_torch_dtype(value):
    """The torch.dtype of a tvm_ffi dtype; TypeError when torch has no such type."""
    import torch

    name = str(_dtype(value))
    result = getattr(torch, name, None)
    if not isinstance(result, torch.dtype):
        raise TypeError("torch has no dtype %r" % name)
    return result
