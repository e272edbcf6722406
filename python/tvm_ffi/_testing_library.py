"""Loading of libtvm_ffi_testing, the library of "testing.*" global functions and test types.

The wheel installs it next to libtvm_ffi (``tvm_ffi/lib``) and ``import tvm_ffi`` loads it, so
the "testing.*" functions exist after a plain import, as downstream test suites expect. A tree
whose library directory lacks it (a build without ``TVM_FFI_BUILD_TESTING_LIBRARY``) may name
the directory of a test build in ``TVM_FFI_TEST_LIB_DIR``. Not finding it anywhere is silent:
``import tvm_ffi`` works without it; ``import tvm_ffi.testing`` reports what was searched.
"""

import ctypes
import os
import sys

ENV_VAR = "TVM_FFI_TEST_LIB_DIR"

if sys.platform.startswith("win32"):
    LIBRARY_NAME = "tvm_ffi_testing.dll"
elif sys.platform.startswith("darwin"):
    LIBRARY_NAME = "libtvm_ffi_testing.dylib"
else:
    LIBRARY_NAME = "libtvm_ffi_testing.so"

# The ctypes handle once loaded (kept for the life of the process: the registry holds
# the library's code), and the places searched or the load errors met so far.
handle = None
path = None
searched = []


def _candidates(libtvm_ffi_path):
    if libtvm_ffi_path:
        yield os.path.join(os.path.dirname(os.path.abspath(libtvm_ffi_path)), LIBRARY_NAME)
    directory = os.environ.get(ENV_VAR)
    if directory:
        yield os.path.join(directory, LIBRARY_NAME)


def load(libtvm_ffi_path):
    """Load the testing library once (next to libtvm_ffi_path, else in $TVM_FFI_TEST_LIB_DIR).

    Returns the ctypes handle, or None when no candidate exists or loads; never raises.
    """
    global handle, path
    if handle is not None:
        return handle
    del searched[:]
    for candidate in _candidates(libtvm_ffi_path):
        if not os.path.isfile(candidate):
            searched.append(candidate)
            continue
        try:
            handle = ctypes.CDLL(candidate, mode=ctypes.RTLD_GLOBAL)
        except OSError as err:
            searched.append("%s (%s)" % (candidate, err))
            continue
        path = candidate
        return handle
    return None
