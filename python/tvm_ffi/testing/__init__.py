"""Test support: the "testing.*" functions and test types of libtvm_ffi_testing.

``import tvm_ffi`` already loads ``libtvm_ffi_testing`` (installed next to libtvm_ffi; a tree
without it may name a test build's library directory in ``TVM_FFI_TEST_LIB_DIR``). This package
adds the Python classes of its test types (``tvm_ffi.testing.testing``), ``create_object``,
``run_with_gpu_lock``, the pytest markers ``requires_py310`` / ``requires_py312`` /
``requires_py313``, and every global ``testing.xyz`` as the function ``tvm_ffi.testing.xyz``
(also in ``tvm_ffi.testing._ffi_api``). Importing it without the library raises
RuntimeError naming the places searched.
"""

import os

from .. import _testing_library, registry
from .._testing_library import ENV_VAR, LIBRARY_NAME


def load_testing_library():
    """The ctypes handle of libtvm_ffi_testing, loading it if ``import tvm_ffi`` did not.

    Raises RuntimeError naming the places searched when it cannot be found or loaded.
    """
    from .. import LIB

    handle = _testing_library.load(getattr(LIB, "_name", None))
    if handle is None:
        where = ", ".join(_testing_library.searched) or "nowhere"
        hint = "" if os.environ.get(ENV_VAR) else " (%s is not set)" % ENV_VAR
        raise RuntimeError(
            "tvm_ffi.testing: cannot load %s; searched: %s%s. It is installed with the package "
            "(CMake option TVM_FFI_BUILD_TESTING_LIBRARY); in a source tree, build the CMake "
            "target tvm_ffi_testing and set %s to its directory"
            % (LIBRARY_NAME, where, hint, ENV_VAR)
        )
    return handle


load_testing_library()

from . import _ffi_api, testing
from ._locking import run_with_gpu_lock
from .testing import (
    TestCompare,
    TestCustomCompare,
    TestCustomHash,
    TestEnumVariant,
    TestEqWithoutHash,
    TestFrozenCxx,
    TestHash,
    TestIntPair,
    TestNonCopyable,
    TestObjectBase,
    TestObjectDerived,
    TestObjectPtrHolder,
    _SchemaAllTypes,
    _TestCxxAutoInit,
    _TestCxxAutoInitAllInitOff,
    _TestCxxAutoInitChild,
    _TestCxxAutoInitKwOnlyDefaults,
    _TestCxxAutoInitParent,
    _TestCxxAutoInitSimple,
    _TestCxxClassBase,
    _TestCxxClassDerived,
    _TestCxxClassDerivedDerived,
    _TestCxxEnumHolder,
    _TestCxxInitSubset,
    _TestCxxIntEnum,
    _TestCxxKwOnly,
    _TestCxxNoAutoInit,
    _TestCxxStrEnum,
    create_object,
    requires_py310,
    requires_py312,
    requires_py313,
)


def __getattr__(name):
    # Globals registered after this import (or under names shadowed above) stay reachable.
    func = registry.get_global_func("testing." + name, allow_missing=True)
    if func is None:
        raise AttributeError("module 'tvm_ffi.testing' has no attribute %r" % name)
    return func


def _bind_testing_globals():
    """Each global ``testing.xyz`` (no further dot) as the attribute xyz, unless taken."""
    module_globals = globals()
    for full_name in registry.list_global_func_names():
        if not full_name.startswith("testing."):
            continue
        short = full_name[len("testing.") :]
        if "." in short or short in module_globals:
            continue
        module_globals[short] = registry.get_global_func(full_name)


_bind_testing_globals()
