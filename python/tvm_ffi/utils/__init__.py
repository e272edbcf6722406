"""Helpers used by tvm_ffi.cpp and available to users: FileLock and kwargs_wrapper."""

from . import kwargs_wrapper
from .lockfile import FileLock

__all__ = ["FileLock", "kwargs_wrapper"]
