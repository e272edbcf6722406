"""A consumer package: its library is built by scikit-build-core against the installed tvm-ffi."""

import tvm_ffi.libinfo

# Found through the files the distribution installed (its RECORD).
_LIB = tvm_ffi.libinfo.load_lib_module("skbuild-ext", "skbuild_ext")
add_ints = _LIB.add_ints
raise_error = _LIB.raise_error
