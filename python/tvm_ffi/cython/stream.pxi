# The per-thread FFI stream table (TVMFFIEnvSetStream / TVMFFIEnvGetStream) as
# seen from Python; the context managers over it live in tvm_ffi/stream.py.

cdef extern from "tvm/ffi/c_api.h" nogil:
    int TVMFFIEnvSetStream(int32_t device_type, int32_t device_id, void* stream,
                           void** out_original_stream)
    void* TVMFFIEnvGetStream(int32_t device_type, int32_t device_id)


def _env_set_stream(int32_t device_type, int32_t device_id, stream):
    """Set this thread's stream of (device_type, device_id) to the int stream; returns
    the previous one (0 when none was set)."""
    cdef void* prev = NULL
    if not isinstance(stream, int):
        raise TypeError("stream must be an int (a raw stream handle), got %s"
                        % type(stream).__name__)
    check_call(TVMFFIEnvSetStream(device_type, device_id, <void*><uintptr_t>stream, &prev))
    return <uintptr_t>prev


def _env_get_stream(int32_t device_type, int32_t device_id):
    """This thread's stream of (device_type, device_id) as an int (0 when none is set)."""
    return <uintptr_t>TVMFFIEnvGetStream(device_type, device_id)


# The reference package's names of the two functions above.
_env_set_current_stream = _env_set_stream
_env_get_current_stream = _env_get_stream
