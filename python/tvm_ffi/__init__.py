"""tvm_ffi: Python binding of the tvm-ffi open ABI.

Importing loads libtvm_ffi with RTLD_GLOBAL (so libraries built against the
headers resolve their TVMFFI* symbols from it; the handle is ``tvm_ffi.LIB``),
then the Cython core and the submodules (``tvm_ffi.cpp`` included), and last
libtvm_ffi_testing (the "testing.*" functions) when it is installed next to
libtvm_ffi. numpy and torch are imported only when a value needs them. Run as
the ``tvm-ffi-config`` command (or ``python -m tvm_ffi.config``) it imports
only ``libinfo``: the command must stay fast and work where the core cannot
load.
"""

import ctypes as _ctypes
import os as _os
import sys as _sys

from . import libinfo

# The upstream apache-tvm-ffi release whose Python API this package reproduces.
__version__ = "0.1.15.post2"
__version_tuple__ = (0, 1, 15, "post2")


def _running_config_cli():
    """Whether this process is the tvm-ffi-config command (console script or ``-m``)."""
    if _sys.argv and _os.path.basename(_sys.argv[0]).endswith("tvm-ffi-config"):
        return True
    # sys.argv[0] is only "-m" while the package is being imported; the original
    # command line (3.10+) names the module. Interpreter options come first.
    orig = getattr(_sys, "orig_argv", None) or []
    i = 1
    while i < len(orig):
        arg = orig[i]
        if arg.startswith("-m"):
            module = arg[2:] or (orig[i + 1] if i + 1 < len(orig) else "")
            return module == "tvm_ffi.config"
        if arg in ("-X", "-W"):
            i += 2
            continue
        if arg == "-c" or not arg.startswith("-"):
            return False
        i += 1
    return False


if not _running_config_cli():
    LIB = _ctypes.CDLL(libinfo.find_libtvm_ffi(), mode=_ctypes.RTLD_GLOBAL)
    _LIB = LIB

    from . import (
        _convert,
        _dtype,
        _optional_torch_c_dlpack,
        _structural_visit,
        _tensor,
        access_path,
        container,
        core,
        cpp,
        error,
        module,
        registry,
        serialization,
        structural,
        utils,
    )
    from ._convert import convert, convert_func
    from ._dtype import (
        bfloat16,
        bool,
        dtype,
        float4_e2m1fn,
        float4_e2m1fnx2,
        float6_e2m3fn,
        float6_e3m2fn,
        float8_e3m4,
        float8_e4m3,
        float8_e4m3b11fnuz,
        float8_e4m3fn,
        float8_e4m3fnuz,
        float8_e5m2,
        float8_e5m2fnuz,
        float8_e8m0fnu,
        float16,
        float32,
        float64,
        int8,
        int16,
        int32,
        int64,
        uint8,
        uint16,
        uint32,
        uint64,
    )
    from ._tensor import Shape
    from .container import (
        Array,
        CContainerBase,
        Dict,
        List,
        Map,
    )
    from .core import (
        CAny,
        Device,
        DLDeviceType,
        Function,
        Object,
        ObjectConvertible,
        Tensor,
        device,
        from_dlpack,
        register_error,
    )
    from .module import Module, load_module, system_lib
    from .registry import (
        get_global_func,
        get_global_func_metadata,
        init_ffi_api,
        register_global_func,
        register_object,
        remove_global_func,
    )
    from .stream import StreamContext, get_raw_stream, use_raw_stream, use_torch_stream
    from .structural import (
        DefRegionKind,
        InplaceMode,
        StructuralKey,
        StructuralMutator,
        StructuralVisitor,
        VisitInterrupt,
        WalkOrder,
        WalkResult,
        get_first_structural_mismatch,
        structural_equal,
        structural_hash,
        structural_map,
        structural_mutate,
        structural_visit,
        structural_walk,
    )

    __all__ = [
        "LIB",
        "__version__",
        "__version_tuple__",
        "Object",
        "ObjectConvertible",
        "Function",
        "Tensor",
        "Shape",
        "from_dlpack",
        "Device",
        "device",
        "DLDeviceType",
        "dtype",
        "Array",
        "List",
        "Map",
        "Dict",
        "Module",
        "load_module",
        "method",
        "system_lib",
        "convert",
        "convert_func",
        "register_error",
        "register_object",
        "register_global_func",
        "get_global_func",
        "get_global_func_metadata",
        "remove_global_func",
        "init_ffi_api",
        "StreamContext",
        "use_raw_stream",
        "use_torch_stream",
        "get_raw_stream",
        "cpp",
        "registry",
        "libinfo",
        "core",
        "access_path",
        "structural",
        "DefRegionKind",
        "InplaceMode",
        "StructuralMutator",
        "StructuralVisitor",
        "VisitInterrupt",
        "WalkOrder",
        "WalkResult",
        "StructuralKey",
        "get_first_structural_mismatch",
        "structural_equal",
        "structural_hash",
        "structural_map",
        "structural_mutate",
        "structural_visit",
        "structural_walk",
        "dataclasses",
        "serialization",
    ]
    # The ffi.* globals as module attributes, as clients expect after a bare import; after the
    # containers, whose classes the global name list comes back as.
    from . import _ffi_api, _testing_library, dataclasses
    from .dataclasses.py_class import method

    # Last, the "testing.*" functions of libtvm_ffi_testing (installed next to libtvm_ffi);
    # a missing library is skipped silently.
    _testing_library.load(getattr(LIB, "_name", None))
