"""Test support (import explicitly: ``import tvm_ffi.testing``).

Importing loads ``libtvm_ffi_testing.so``, the library of "testing.*" global
functions and test object types that the test suites call. It is built with
the C++ tests (CMake target ``tvm_ffi_testlibs``) and is never installed, so
it is looked up in the directory named by the environment variable
``TVM_FFI_TEST_LIB_DIR``. Every "testing.*" global is then reachable as a
function of this module: ``tvm_ffi.testing.echo(1)`` calls ``testing.echo``.
"""

import ctypes
import os

from . import registry

ENV_VAR = "TVM_FFI_TEST_LIB_DIR"
LIBRARY_NAME = "libtvm_ffi_testing.so"

_library = None


def load_testing_library():
    """Load libtvm_ffi_testing.so from $TVM_FFI_TEST_LIB_DIR once; returns the ctypes handle.

    Raises RuntimeError naming the variable when it is unset or the library is not there.
    """
    global _library
    if _library is not None:
        return _library
    directory = os.environ.get(ENV_VAR)
    if not directory:
        raise RuntimeError(
            "tvm_ffi.testing: environment variable %s is not set; it must name the directory "
            "holding %s (build it with the CMake target tvm_ffi_testlibs, e.g. "
            "build/tests/tests/testlib)" % (ENV_VAR, LIBRARY_NAME)
        )
    path = os.path.join(directory, LIBRARY_NAME)
    if not os.path.isfile(path):
        raise RuntimeError(
            "tvm_ffi.testing: %s not found in %s=%s (build the CMake target tvm_ffi_testlibs)"
            % (LIBRARY_NAME, ENV_VAR, directory)
        )
    # The library registers its functions and types when loaded; it stays loaded
    # for the life of the process because the registry keeps its code.
    _library = ctypes.CDLL(path, mode=ctypes.RTLD_GLOBAL)
    return _library


load_testing_library()


def __getattr__(name):
    func = registry.get_global_func("testing." + name, allow_missing=True)
    if func is None:
        raise AttributeError("module 'tvm_ffi.testing' has no attribute %r" % name)
    return func
