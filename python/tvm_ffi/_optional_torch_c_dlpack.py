"""Makes sure ``torch.Tensor`` publishes the DLPack C exchange API.

torch releases with DLPack 1.3 (2.13 and later) set ``torch.Tensor.__dlpack_c_exchange_api__``
themselves; then this module does nothing. Older ones either published the 1.2-style
``__c_dlpack_exchange_api__`` (an int address, wrapped here into the 1.3 capsule) or nothing, in
which case the ``torch_c_dlpack_ext`` package is imported when installed. Without a table, torch
tensors still work, through ``__dlpack__`` (slower, and calls get no framework allocator).
When CUDA is available, ``torch.cuda.Stream`` also gets ``__cuda_stream__`` if it lacks one.

``import tvm_ffi`` never imports torch: when torch is already imported this runs then, else it
runs the first time a torch tensor reaches tvm_ffi (the core asks ``_on_type_without_table``
about each type that publishes no table). ``TVM_FFI_DISABLE_TORCH_C_DLPACK=1`` turns it off.
"""

import ctypes
import os
import sys
import threading

from . import core

_ATTR = "__dlpack_c_exchange_api__"
_ATTR_V12 = "__c_dlpack_exchange_api__"
# Capsule names must outlive their capsules: this bytes object lives as long as the module.
_CAPSULE_NAME = b"dlpack_exchange_api"

_lock = threading.Lock()
# None until ensure_torch_c_dlpack() ran with torch imported; then whether torch.Tensor
# publishes a table.
_result = None


def disabled():
    """Whether TVM_FFI_DISABLE_TORCH_C_DLPACK=1 turns this module off."""
    return os.environ.get("TVM_FFI_DISABLE_TORCH_C_DLPACK") == "1"


def _capsule_of_address(address):
    new = ctypes.pythonapi.PyCapsule_New
    new.restype = ctypes.py_object
    new.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]
    return new(address, _CAPSULE_NAME, None)


def _is_capsule(value):
    return type(value).__name__ == "PyCapsule"


def _adopt_v12_table(tensor_cls):
    """Publishes a 1.2-style table (int address or capsule) under the 1.3 name."""
    value = getattr(tensor_cls, _ATTR_V12, None)
    if value is None:
        return False
    if _is_capsule(value):
        capsule = value
    elif isinstance(value, int) and not isinstance(value, bool) and value != 0:
        capsule = _capsule_of_address(value)
    else:
        return False
    setattr(tensor_cls, _ATTR, capsule)
    return True


def _publish(torch):
    """Steps of tensor_exchange.md 2.4 in order; True when torch.Tensor ends up with a table."""
    tensor_cls = torch.Tensor
    if hasattr(tensor_cls, _ATTR):
        return True
    if _adopt_v12_table(tensor_cls):
        return True
    try:
        import torch_c_dlpack_ext  # noqa: F401  (installs the attribute on import)
    except ImportError:
        return False
    return hasattr(tensor_cls, _ATTR) or _adopt_v12_table(tensor_cls)


def _patch_cuda_stream(torch):
    """torch.cuda.Stream objects passed as arguments become their raw handle."""
    cuda = getattr(torch, "cuda", None)
    if cuda is None or not cuda.is_available():
        return
    stream_cls = cuda.Stream
    if not hasattr(stream_cls, "__cuda_stream__"):

        def __cuda_stream__(self):
            return (0, self.cuda_stream)

        stream_cls.__cuda_stream__ = __cuda_stream__


def ensure_torch_c_dlpack():
    """Runs the steps once torch is imported (never imports it): True when torch.Tensor
    publishes a table, False when it does not, None when torch is not imported yet or
    the module is disabled. Later calls return the first answer."""
    global _result
    if disabled():
        return None
    torch = sys.modules.get("torch")
    # A torch still being imported has no Tensor yet: try again later.
    if torch is None or getattr(torch, "Tensor", None) is None:
        return None
    with _lock:
        if _result is None:
            _result = _publish(torch)
            _patch_cuda_stream(torch)
        return _result


def _on_type_without_table(cls):
    """The core's question about a type with no table (see the module doc): True when
    a table was just installed for it, False once nothing can change any more."""
    if _result is not None or disabled():
        return False
    torch = sys.modules.get("torch")
    tensor_cls = getattr(torch, "Tensor", None) if torch is not None else None
    if tensor_cls is None or not isinstance(cls, type) or not issubclass(cls, tensor_cls):
        return None
    return bool(ensure_torch_c_dlpack())


def _install():
    if disabled():
        return
    if "torch" in sys.modules and ensure_torch_c_dlpack() is not None:
        return
    core._set_exchange_missing_hook(_on_type_without_table)


_install()
