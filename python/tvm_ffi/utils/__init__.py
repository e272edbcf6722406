"""Helpers used by tvm_ffi.cpp and available to users: FileLock."""

from ._filelock import FileLock

__all__ = ["FileLock"]
