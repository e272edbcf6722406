"""FFI streams: the per-thread stream a callee reads with TVMFFIEnvGetStream.

A call made with framework tensors (torch) on a GPU already installs that
framework's current stream for the callee and restores it afterwards; these
context managers matter for calls that receive no such tensor (raw pointers,
or producers without the DLPack C exchange API).
"""

from . import core

__all__ = [
    "StreamContext",
    "use_raw_stream",
    "use_torch_stream",
    "get_raw_stream",
    "TorchStreamContext",
]


class StreamContext:
    """``with StreamContext(device, stream):`` sets this thread's FFI stream of
    ``device`` to the int ``stream`` and restores the previous one on exit
    (contexts nest; one context may be entered again after it exited)."""

    def __init__(self, device, stream):
        self.device_type = int(device.dlpack_device_type())
        self.device_id = int(device.index)
        self.stream = stream
        self._saved = []

    def __enter__(self):
        prev = core._env_set_stream(self.device_type, self.device_id, self.stream)
        self._saved.append(prev)
        return self

    def __exit__(self, exc_type, exc, tb):
        core._env_set_stream(self.device_type, self.device_id, self._saved.pop())
        return False


def use_raw_stream(device, stream):
    """A StreamContext for a raw stream handle (an int)."""
    import ctypes

    if not isinstance(stream, (int, ctypes.c_void_p)):
        raise ValueError(
            "use_raw_stream expects a raw stream handle (int), got %s; for torch streams "
            "use tvm_ffi.use_torch_stream" % type(stream).__name__
        )
    return StreamContext(device, stream)


def get_raw_stream(device):
    """This thread's FFI stream of ``device`` as an int (0 when none is set)."""
    return core._env_get_stream(int(device.dlpack_device_type()), int(device.index))


class TorchStreamContext:
    """Enters a torch stream context (``torch.cuda.stream(s)``, ``torch.cuda.graph(...)``)
    if given, then installs torch's current CUDA stream as the FFI stream of its
    device; exit leaves the torch context first, then restores the FFI stream."""

    def __init__(self, context=None):
        self.torch_context = context
        self._ffi_context = None

    def __enter__(self):
        try:
            import torch
        except ImportError as err:
            raise ImportError("Cannot import torch") from err
        from . import device as _device

        if self.torch_context is not None:
            self.torch_context.__enter__()
        try:
            stream = torch.cuda.current_stream()
            ctx = StreamContext(_device(str(stream.device)), stream.cuda_stream)
            ctx.__enter__()
        except BaseException:
            if self.torch_context is not None:
                self.torch_context.__exit__(None, None, None)
            raise
        self._ffi_context = ctx
        return self

    def __exit__(self, exc_type, exc, tb):
        try:
            if self.torch_context is not None:
                self.torch_context.__exit__(exc_type, exc, tb)
        finally:
            ctx, self._ffi_context = self._ffi_context, None
            ctx.__exit__(None, None, None)
        return False


def use_torch_stream(context=None):
    """A TorchStreamContext (needs torch with CUDA when entered)."""
    try:
        import torch  # noqa: F401
    except ImportError as err:
        raise ImportError("Cannot import torch") from err
    return TorchStreamContext(context)
