"""tvm_ffi: Python binding of the tvm-ffi open ABI.

Importing loads libtvm_ffi with RTLD_GLOBAL (so libraries built against the
headers resolve their TVMFFI* symbols from it) and then the Cython core.
"""

import ctypes as _ctypes
import os as _os

from . import libinfo

__version__ = "0.1.0"

_LIB = _ctypes.CDLL(libinfo.find_libtvm_ffi(), mode=_ctypes.RTLD_GLOBAL)

from . import core  # noqa: E402  (needs the library loaded first)
from .core import (  # noqa: E402
    Object,
    Function,
    Tensor,
    from_dlpack,
    Device,
    DLDeviceType,
    dtype,
    device,
    convert,
    register_error,
)
from .registry import (  # noqa: E402
    register_object,
    register_global_func,
    get_global_func,
    get_global_func_metadata,
    remove_global_func,
    init_ffi_api,
)
from . import registry  # noqa: E402
from .container import Array, List, Map, Dict, Shape  # noqa: E402
from .module import Module, load_module, system_lib  # noqa: E402
from .stream import StreamContext, use_raw_stream, use_torch_stream, get_raw_stream  # noqa: E402

# dtype literals.
int8 = dtype("int8")
int16 = dtype("int16")
int32 = dtype("int32")
int64 = dtype("int64")
uint8 = dtype("uint8")
uint16 = dtype("uint16")
uint32 = dtype("uint32")
uint64 = dtype("uint64")
float16 = dtype("float16")
float32 = dtype("float32")
float64 = dtype("float64")
bfloat16 = dtype("bfloat16")
float8_e3m4 = dtype("float8_e3m4")
float8_e4m3 = dtype("float8_e4m3")
float8_e4m3b11fnuz = dtype("float8_e4m3b11fnuz")
float8_e4m3fn = dtype("float8_e4m3fn")
float8_e4m3fnuz = dtype("float8_e4m3fnuz")
float8_e5m2 = dtype("float8_e5m2")
float8_e5m2fnuz = dtype("float8_e5m2fnuz")
float8_e8m0fnu = dtype("float8_e8m0fnu")
float6_e2m3fn = dtype("float6_e2m3fn")
float6_e3m2fn = dtype("float6_e3m2fn")
float4_e2m1fn = dtype("float4_e2m1fn")

__all__ = [
    "Object", "Function", "Tensor", "from_dlpack", "Device", "DLDeviceType", "dtype", "device", "convert",
    "register_error", "register_object", "register_global_func", "get_global_func",
    "get_global_func_metadata", "remove_global_func", "init_ffi_api", "registry",
    "Array", "List", "Map", "Dict", "Shape", "Module", "load_module", "system_lib",
    "libinfo", "core", "StreamContext", "use_raw_stream", "use_torch_stream", "get_raw_stream",
]
