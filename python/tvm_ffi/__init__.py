"""tvm_ffi: Python binding of the tvm-ffi open ABI.

Importing loads libtvm_ffi with RTLD_GLOBAL (so libraries built against the
headers resolve their TVMFFI* symbols from it; the handle is ``tvm_ffi.LIB``),
then the Cython core and the submodules (``tvm_ffi.cpp`` included). numpy and
torch are imported only when a value needs them.
"""

import ctypes as _ctypes

from . import libinfo

# The upstream apache-tvm-ffi release whose Python API this package reproduces.
__version__ = "0.1.15.post2"
__version_tuple__ = (0, 1, 15, "post2")

LIB = _ctypes.CDLL(libinfo.find_libtvm_ffi(), mode=_ctypes.RTLD_GLOBAL)
_LIB = LIB

from . import core  # noqa: E402  (needs the library loaded first)
from .core import (  # noqa: E402
    Object,
    ObjectConvertible,
    CAny,
    Function,
    Tensor,
    from_dlpack,
    Device,
    DLDeviceType,
    device,
    register_error,
)
from . import error  # noqa: E402
from ._dtype import (  # noqa: E402
    dtype,
    bool,  # noqa: A004
    int8,
    int16,
    int32,
    int64,
    uint8,
    uint16,
    uint32,
    uint64,
    float16,
    float32,
    float64,
    bfloat16,
    float8_e3m4,
    float8_e4m3,
    float8_e4m3b11fnuz,
    float8_e4m3fn,
    float8_e4m3fnuz,
    float8_e5m2,
    float8_e5m2fnuz,
    float8_e8m0fnu,
    float6_e2m3fn,
    float6_e3m2fn,
    float4_e2m1fn,
    float4_e2m1fnx2,
)
from . import _dtype  # noqa: E402
from .registry import (  # noqa: E402
    register_object,
    register_global_func,
    get_global_func,
    get_global_func_metadata,
    remove_global_func,
    init_ffi_api,
)
from . import registry  # noqa: E402
from ._tensor import Shape  # noqa: E402
from . import _tensor  # noqa: E402
from .container import Array, List, Map, Dict  # noqa: E402
from . import container  # noqa: E402
from .container import CContainerBase  # noqa: E402
from .module import Module, load_module, system_lib  # noqa: E402
from . import module  # noqa: E402
from .stream import StreamContext, use_raw_stream, use_torch_stream, get_raw_stream  # noqa: E402
from ._convert import convert, convert_func  # noqa: E402
from . import _convert  # noqa: E402
from . import utils  # noqa: E402
from . import cpp  # noqa: E402

__all__ = [
    "LIB", "__version__", "__version_tuple__",
    "Object", "ObjectConvertible", "Function", "Tensor", "Shape", "from_dlpack",
    "Device", "device", "DLDeviceType", "dtype",
    "Array", "List", "Map", "Dict",
    "Module", "load_module", "system_lib",
    "convert", "convert_func", "register_error",
    "register_object", "register_global_func", "get_global_func", "get_global_func_metadata",
    "remove_global_func", "init_ffi_api",
    "StreamContext", "use_raw_stream", "use_torch_stream", "get_raw_stream",
    "cpp", "registry", "libinfo", "core",
]
