"""A consumer package: its library is built by scikit-build-core against the installed tvm-ffi."""

import os

import tvm_ffi

_LIB = tvm_ffi.load_module(os.path.join(os.path.dirname(__file__), "libskbuild_ext.so"))
add_ints = _LIB.add_ints
raise_error = _LIB.raise_error
