"""Helpers used by tvm_ffi.cpp and available to users: FileLock, kwargs_wrapper, embed_cubin."""

from . import embed_cubin, kwargs_wrapper
from ._filelock import FileLock

__all__ = ["FileLock", "embed_cubin", "kwargs_wrapper"]
