"""Loads the test library (the "testing.*" functions and types) before any test
module looks those functions up: it is not part of libtvm_ffi."""

import tvm_ffi.testing  # noqa: F401
