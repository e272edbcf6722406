"""Cross-stream ordering for Tensor.__dlpack__(stream=...) on GPU tensors.

DLPack's consumer passes the stream it will use; when that is not the stream the
tensor's work was queued on (the FFI stream of its device on this thread), the
consumer's stream must wait for the work queued so far: an event is recorded on
the producer's stream and the consumer's stream waits on it. The GPU runtime
(CUDA's libcudart or ROCm's libamdhip64) is loaded on first use only, so this
module costs nothing on machines without a GPU.
"""

import ctypes

_KDL_CUDA = 2
_KDL_ROCM = 10
# cudaEventDisableTiming / hipEventDisableTiming
_EVENT_DISABLE_TIMING = 0x02
_RUNTIMES = {
    _KDL_CUDA: (
        "cuda",
        ("libcudart.so", "libcudart.so.13", "libcudart.so.12", "libcudart.so.11.0"),
    ),
    _KDL_ROCM: ("hip", ("libamdhip64.so", "libamdhip64.so.6", "libamdhip64.so.5")),
}
_LOADED = {}


def _runtime(device_type):
    if device_type in _LOADED:
        return _LOADED[device_type]
    prefix, names = _RUNTIMES[device_type]
    lib = None
    for name in names:
        try:
            lib = ctypes.CDLL(name)
            break
        except OSError:
            continue
    if lib is None:
        raise BufferError(
            "tvm_ffi.Tensor.__dlpack__: cannot order streams: none of %s "
            "could be loaded" % ", ".join(names)
        )
    fns = {}
    for what in (
        "EventCreateWithFlags",
        "EventRecord",
        "StreamWaitEvent",
        "EventDestroy",
        "SetDevice",
        "GetDevice",
    ):
        fn = getattr(lib, prefix + what)
        fn.restype = ctypes.c_int
        fns[what] = fn
    _LOADED[device_type] = (prefix, fns)
    return _LOADED[device_type]


def _check(prefix, what, rc):
    if rc != 0:
        raise BufferError(
            "tvm_ffi.Tensor.__dlpack__: %s%s failed with error %d" % (prefix, what, rc)
        )


def stream_wait(device_type, device_id, producer_stream, consumer_stream):
    """Make consumer_stream wait for the work queued on producer_stream (raw handles)."""
    if device_type not in _RUNTIMES:
        raise BufferError(
            "tvm_ffi.Tensor.__dlpack__: stream ordering is not supported for "
            "device type %d" % device_type
        )
    prefix, fns = _runtime(device_type)
    current = ctypes.c_int(0)
    _check(prefix, "GetDevice", fns["GetDevice"](ctypes.byref(current)))
    if current.value != device_id:
        _check(prefix, "SetDevice", fns["SetDevice"](ctypes.c_int(device_id)))
    event = ctypes.c_void_p()
    try:
        _check(
            prefix,
            "EventCreateWithFlags",
            fns["EventCreateWithFlags"](ctypes.byref(event), ctypes.c_uint(_EVENT_DISABLE_TIMING)),
        )
        try:
            _check(
                prefix, "EventRecord", fns["EventRecord"](event, ctypes.c_void_p(producer_stream))
            )
            _check(
                prefix,
                "StreamWaitEvent",
                fns["StreamWaitEvent"](ctypes.c_void_p(consumer_stream), event, ctypes.c_uint(0)),
            )
        finally:
            fns["EventDestroy"](event)
    finally:
        if current.value != device_id:
            fns["SetDevice"](current)
