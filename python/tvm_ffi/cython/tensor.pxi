# tvm_ffi.Tensor, DLPack import/export, and tensor arguments.
#
# Import (from_dlpack and arguments):
#   * numpy.ndarray takes a fast path with no capsule and no buffer export: its
#     C struct is read directly (tvm_ffi_numpy.h, checked against numpy once),
#     and the Tensor's DLPack deleter drops the reference to the array that
#     keeps its memory alive. Arrays the reader does not describe (ml_dtypes
#     bfloat16, float8 ...) are read as unsigned ints of the same width and
#     relabelled with their dtype.
#   * Any other producer goes through __dlpack__(max_version=(1, 1)) (or the
#     legacy capsule for producers that do not take max_version); the capsule
#     is renamed "used_..." and its DLManagedTensor[Versioned] is owned by the
#     Tensor, whose destruction calls the producer's deleter exactly once.
# Arguments (convert_dlpack_arg): where the function's schema declares the
# parameter `DLTensor*` (TensorView or DLTensor*), a DLTensor in the call's
# ArgStore is filled from the producer and passed as a DLTensorPtr view: numpy
# needs nothing else, other producers' capsules stay unconsumed and are dropped
# (calling their deleter) after the call. Elsewhere the argument becomes a
# Tensor object owned by the call; an existing tvm_ffi.Tensor is passed as itself.
# Export: __dlpack__ hands out TVMFFITensorToDLPack[Versioned] in a capsule
# whose destructor deletes it if nobody consumed it.

cdef extern from "dlpack/dlpack.h":
    ctypedef struct DLPackVersion:
        uint32_t major
        uint32_t minor

    ctypedef struct DLManagedTensor:
        DLTensor dl_tensor
        void* manager_ctx
        void (*deleter)(DLManagedTensor* self) noexcept

    ctypedef struct DLManagedTensorVersioned:
        DLPackVersion version
        void* manager_ctx
        void (*deleter)(DLManagedTensorVersioned* self) noexcept
        uint64_t flags
        DLTensor dl_tensor

    int DLPACK_MAJOR_VERSION
    int DLPACK_MINOR_VERSION
    uint64_t DLPACK_FLAG_BITMASK_READ_ONLY

cdef extern from "tvm/ffi/c_api.h" nogil:
    int TVMFFITensorFromDLPack(DLManagedTensor* src, int32_t require_alignment,
                               int32_t require_contiguous, TVMFFIObjectHandle* out)
    int TVMFFITensorFromDLPackVersioned(DLManagedTensorVersioned* src,
                                        int32_t require_alignment,
                                        int32_t require_contiguous, TVMFFIObjectHandle* out)
    int TVMFFITensorToDLPack(TVMFFIObjectHandle src, DLManagedTensor** out)
    int TVMFFITensorToDLPackVersioned(TVMFFIObjectHandle src, DLManagedTensorVersioned** out)
    int TVMFFITensorCreateUnsafeView(TVMFFIObjectHandle source, const DLTensor* prototype,
                                     TVMFFIObjectHandle* out)

cdef void free_borrowed_view_holder(DLManagedTensorVersioned* self) noexcept nogil:
    free(self)


cdef object borrowed_dltensor_to_py(DLTensor* src):
    """A Tensor describing a DLTensor* that C++ lends for one call (a TensorView argument of a
    Python callback). It does not own the data: the data stays valid only while the lender
    keeps it, as with the reference implementation."""
    cdef DLManagedTensorVersioned* holder
    cdef TVMFFIObjectHandle out = NULL
    cdef int rc
    if src == NULL:
        return None
    holder = <DLManagedTensorVersioned*>malloc(sizeof(DLManagedTensorVersioned))
    if holder == NULL:
        raise MemoryError()
    holder.version.major = DLPACK_MAJOR_VERSION
    holder.version.minor = DLPACK_MINOR_VERSION
    holder.manager_ctx = NULL
    holder.deleter = free_borrowed_view_holder
    holder.flags = 0
    holder.dl_tensor = src[0]
    rc = TVMFFITensorFromDLPackVersioned(holder, 0, 0, &out)
    if rc != 0:
        # A failed import takes nothing over.
        free(holder)
        check_call(rc)
    return owned_object_to_py(out)


cdef extern from "tvm_ffi_numpy.h":
    enum:
        kTVMFFIPyNumpyGeneral
        kTVMFFIPyNumpyObject
        kTVMFFIPyNumpyByteSwapped
        kTVMFFIPyNumpyBadStride
    int TVMFFIPyNumpyFill(object arr, DLTensor* out, int64_t* strides_buf, int max_dims,
                          int* readonly, int* bad_dim) noexcept
    int64_t TVMFFIPyNumpyStrideBytes(object arr, int dim) noexcept

cdef extern from "Python.h":
    ctypedef struct Py_buffer:
        void* buf
        Py_ssize_t len
        int readonly
        Py_ssize_t itemsize
        char* format
        int ndim
        Py_ssize_t* shape
        Py_ssize_t* strides
    object PyCapsule_New(void* pointer, const char* name, void (*destructor)(object) noexcept)
    bint PyCapsule_IsValid(object capsule, const char* name)
    void* PyCapsule_GetPointer(object capsule, const char* name) except? NULL
    int PyCapsule_SetName(object capsule, const char* name) except -1
    object PyMemoryView_FromObject(object obj)
    bint PyErr_ExceptionMatches(object exc)
    void PyErr_Clear()
    Py_buffer* PyMemoryView_GET_BUFFER(object mview)

cdef enum:
    kDLCUDAHost = 3
    kDLROCMHost = 11
    kDLInt = 0
    kDLUInt = 1
    kDLFloat = 2
    kDLComplex = 5
    kDLBool = 6
    kMaxTensorDims = 64

cdef const char* kCapsuleVersioned = "dltensor_versioned"
cdef const char* kCapsuleLegacy = "dltensor"
cdef const char* kCapsuleVersionedUsed = "used_dltensor_versioned"
cdef const char* kCapsuleLegacyUsed = "used_dltensor"


cdef inline DLTensor* tensor_cell(TVMFFIObjectHandle handle) noexcept:
    # The DLTensor follows the object header (docs/abi.md 2.4).
    return <DLTensor*>TVMFFIPyObjectCell(handle)


cdef int check_legacy_export(TVMFFIObjectHandle handle) except -1:
    """BufferError when the tensor is read-only: a legacy DLPack tensor cannot say so (numpy
    refuses the same way). Costs a versioned export, on the legacy path only."""
    cdef DLManagedTensorVersioned* versioned = NULL
    check_call(TVMFFITensorToDLPackVersioned(handle, &versioned))
    cdef bint read_only = (versioned.flags & DLPACK_FLAG_BITMASK_READ_ONLY) != 0
    if versioned.deleter != NULL:
        versioned.deleter(versioned)
    if read_only:
        raise BufferError("Cannot export a read-only tensor through legacy DLPack, which "
                          "cannot signal read-only; ask for a versioned capsule "
                          "(max_version=(1, 0)) instead")
    return 0


cdef DLTensor* tensor_dl(CObject self) except NULL:
    # A module function, not a cdef method: Tensor must add no vtable, so that
    # wrap_object's Object.__new__(Tensor) stays valid.
    self._check_handle()
    return tensor_cell(self.chandle)


cdef class Tensor(CObject):
    """An FFI tensor (``ffi.Tensor``): a DLTensor shared with C++ and DLPack peers.

    Made by ``tvm_ffi.from_dlpack`` or returned from C++; numpy, torch and other
    DLPack consumers read it without a copy (``numpy.from_dlpack(t)``).
    """

    # The DLPack C exchange table of tvm_ffi.Tensor (tvm_ffi_dlpack_exchange.h).
    __dlpack_c_exchange_api__ = TVMFFIPyTensorExchangeCapsule()

    @property
    def ndim(self):
        """Number of dimensions."""
        return tensor_dl(self).ndim

    @property
    def shape(self):
        """The extents, a tuple of ints."""
        cdef DLTensor* t = tensor_dl(self)
        return tuple([t.shape[i] for i in range(t.ndim)])

    @property
    def strides(self):
        """Strides in elements (compact strides when the tensor has none), a tuple."""
        cdef DLTensor* t = tensor_dl(self)
        cdef int64_t expected = 1
        cdef int i
        if t.strides != NULL:
            return tuple([t.strides[i] for i in range(t.ndim)])
        out = [0] * t.ndim
        for i in range(t.ndim - 1, -1, -1):
            out[i] = expected
            expected *= t.shape[i]
        return tuple(out)

    @property
    def dtype(self):
        """Element type, a tvm_ffi.dtype."""
        return dl_to_dtype(tensor_dl(self).dtype)

    @property
    def device(self):
        """Device holding the data, a tvm_ffi.Device."""
        return make_device(tensor_dl(self).device)

    def data_ptr(self):
        """Address of the first element (data + byte_offset), an int."""
        cdef DLTensor* t = tensor_dl(self)
        return <uintptr_t>t.data + t.byte_offset

    def numel(self):
        """Number of elements: the product of the shape (1 for a 0-d tensor)."""
        cdef DLTensor* t = tensor_dl(self)
        cdef int64_t n = 1
        cdef int i
        for i in range(t.ndim):
            n *= t.shape[i]
        return n

    def size(self, idx):
        """Extent of dimension idx (negative counts from the end)."""
        cdef DLTensor* t = tensor_dl(self)
        cdef Py_ssize_t i = idx
        if i < 0:
            i += t.ndim
        if i < 0 or i >= t.ndim:
            raise IndexError("Dimension %d out of range for tensor with %d dimensions"
                             % (idx, t.ndim))
        return t.shape[i]

    def is_contiguous(self):
        """Whether the layout is compact row-major (size-1 dimensions' strides ignored)."""
        return dl_is_contiguous(tensor_dl(self))

    @property
    def byte_offset(self):
        """Byte offset of the first element from the DLTensor's data pointer."""
        return tensor_dl(self).byte_offset

    def __dlpack_device__(self):
        cdef DLTensor* t = tensor_dl(self)
        return (<int>t.device.device_type, t.device.device_id)

    def _to_dlpack(self):
        """A legacy "dltensor" capsule of this tensor."""
        cdef DLManagedTensor* legacy = NULL
        tensor_dl(self)
        check_legacy_export(self.chandle)
        check_call(TVMFFITensorToDLPack(self.chandle, &legacy))
        return PyCapsule_New(legacy, kCapsuleLegacy, capsule_delete_legacy)

    def _to_dlpack_versioned(self):
        """A "dltensor_versioned" capsule of this tensor."""
        cdef DLManagedTensorVersioned* versioned = NULL
        tensor_dl(self)
        check_call(TVMFFITensorToDLPackVersioned(self.chandle, &versioned))
        return PyCapsule_New(versioned, kCapsuleVersioned, capsule_delete_versioned)

    def __dlpack__(self, stream=None, *, max_version=None, dl_device=None, copy=None):
        """A DLPack capsule sharing this tensor's memory (versioned when max_version >= (1, 0)).

        stream: the consumer's stream (DLPack convention). CPU tensors take None (or -1).
        For GPU tensors, unless it is -1 or the stream the tensor's work is queued on
        (the FFI stream of its device on this thread, see tvm_ffi.StreamContext), the
        consumer's stream is made to wait for that work first. None means the legacy
        default stream (1 on CUDA); 0 is ambiguous and rejected.
        """
        cdef DLTensor* t = tensor_dl(self)
        cdef DLManagedTensor* legacy = NULL
        cdef DLManagedTensorVersioned* versioned = NULL
        if dl_device is not None:
            if (int(dl_device[0]) != <int>t.device.device_type
                    or int(dl_device[1]) != t.device.device_id):
                raise BufferError("dl_device of different type not supported")
        if copy:
            raise BufferError("copy not yet supported")
        dlpack_order_streams(t, stream)
        if max_version is not None and int(max_version[0]) >= 1:
            check_call(TVMFFITensorToDLPackVersioned(self.chandle, &versioned))
            return PyCapsule_New(versioned, kCapsuleVersioned, capsule_delete_versioned)
        check_legacy_export(self.chandle)
        check_call(TVMFFITensorToDLPack(self.chandle, &legacy))
        return PyCapsule_New(legacy, kCapsuleLegacy, capsule_delete_legacy)

    def numpy(self):
        """A numpy array sharing this tensor's memory (ml_dtypes types included)."""
        import numpy
        np_dtype = self.dtype.to_numpy()
        if np_dtype.type.__module__.startswith("ml_dtypes"):
            # numpy's DLPack import rejects these types: import the bits, then view.
            raw = Tensor_relabel(self, "uint%d" % (np_dtype.itemsize * 8))
            return numpy.from_dlpack(raw).view(np_dtype)
        return numpy.from_dlpack(self)

    def __repr__(self):
        if self.chandle == NULL:
            return "%s(chandle=None)" % type(self).__name__
        return "%s[%s]@%s" % (str(self.dtype), ", ".join(str(d) for d in self.shape),
                              str(self.device))


cdef int dlpack_order_streams(DLTensor* t, object stream) except -1:
    """The stream argument of __dlpack__: checked, and honoured for GPU tensors."""
    cdef int device_type = <int>t.device.device_type
    if stream is None:
        if device_type == kDLCPU:
            return 0
        stream = 1
    elif not isinstance(stream, int):
        raise TypeError("tvm_ffi.Tensor.__dlpack__: stream must be an int or None, got %s"
                        % type(stream).__name__)
    if stream == -1:
        return 0
    if device_type == kDLCPU or device_type == kDLCUDAHost or device_type == kDLROCMHost:
        raise BufferError("tvm_ffi.Tensor.__dlpack__: a host tensor takes stream=None, "
                          "got stream=%d" % stream)
    if stream == 0:
        raise BufferError("tvm_ffi.Tensor.__dlpack__: stream=0 is ambiguous; pass 1 (legacy "
                          "default stream), 2 (per-thread default stream) or a stream handle")
    producer = <uintptr_t>TVMFFIEnvGetStream(device_type, t.device.device_id)
    # A NULL FFI stream is the device's legacy default stream (handle 1 in DLPack terms).
    if producer == (0 if stream == 1 else <uintptr_t>stream):
        return 0
    from tvm_ffi import _stream_sync
    _stream_sync.stream_wait(device_type, t.device.device_id, producer,
                             0 if stream == 1 else stream)
    return 0


cdef void capsule_delete_versioned(object capsule) noexcept:
    # Only a capsule nobody consumed still carries its original name.
    cdef DLManagedTensorVersioned* m
    if PyCapsule_IsValid(capsule, kCapsuleVersioned):
        m = <DLManagedTensorVersioned*>PyCapsule_GetPointer(capsule, kCapsuleVersioned)
        if m != NULL and m.deleter != NULL:
            m.deleter(m)


cdef void capsule_delete_legacy(object capsule) noexcept:
    cdef DLManagedTensor* m
    if PyCapsule_IsValid(capsule, kCapsuleLegacy):
        m = <DLManagedTensor*>PyCapsule_GetPointer(capsule, kCapsuleLegacy)
        if m != NULL and m.deleter != NULL:
            m.deleter(m)


cdef object function_call_owned(Function f, tuple args):
    cdef TVMFFIAny result
    function_call_raw(f, args, &result)
    return any_to_py_owned(&result)


cdef object Tensor_relabel(Tensor src, str new_dtype):
    """A view of src with the same layout but another dtype of the same width."""
    cdef DLTensor proto = tensor_cell(src.chandle)[0]
    cdef TVMFFIObjectHandle out = NULL
    proto.dtype = dtype_to_dl(dtype(new_dtype))
    check_call(TVMFFITensorCreateUnsafeView(src.chandle, &proto, &out))
    return wrap_object(out)


# ---------------------------------------------------------------------------
# numpy fast path (no capsule)
# ---------------------------------------------------------------------------

cdef object _NUMPY_NDARRAY = None
# 1: the direct struct reader agrees with numpy (checked on first use); -1: it
# does not, and arrays go through the buffer protocol instead; 0: not checked.
cdef int _numpy_direct = 0


cdef inline bint is_numpy_array(object x):
    global _NUMPY_NDARRAY
    cdef type t = type(x)
    if _NUMPY_NDARRAY is None:
        if t.__name__ != "ndarray" or t.__module__ != "numpy":
            return False
        import numpy
        _NUMPY_NDARRAY = numpy.ndarray
    return t is _NUMPY_NDARRAY


cdef inline bint numpy_direct_ok():
    global _numpy_direct
    if _numpy_direct == 0:
        _numpy_direct = 1 if numpy_reader_agrees() else -1
    return _numpy_direct == 1


cdef bint numpy_reader_agrees():
    """Whether TVMFFIPyNumpyFill reads probe arrays as numpy itself describes them."""
    cdef DLTensor t
    cdef int64_t strides[4]
    cdef int readonly = 0
    cdef int bad = 0
    cdef int i
    try:
        import numpy
        strided = numpy.zeros((2, 3, 4), dtype=numpy.int16)[:, ::2, 1:]
        strided.flags.writeable = False
        probes = ((strided, kDLInt, 16, 1), (numpy.zeros(5, dtype=numpy.float64), kDLFloat, 64, 0))
        for arr, code, bits, ro in probes:
            if TVMFFIPyNumpyFill(arr, &t, strides, 4, &readonly, &bad) != 0:
                return False
            if (<uintptr_t>t.data != arr.__array_interface__["data"][0] or t.ndim != arr.ndim
                    or t.dtype.code != code or t.dtype.bits != bits or t.dtype.lanes != 1
                    or readonly != ro):
                return False
            for i in range(t.ndim):
                if t.shape[i] != arr.shape[i] or strides[i] * arr.itemsize != arr.strides[i]:
                    return False
        return True
    except Exception:
        return False


cdef int raise_numpy_fill_error(object arr, int rc, int bad_dim) except -1:
    """The error of a TVMFFIPyNumpyFill outcome that no path can share."""
    if rc == kTVMFFIPyNumpyObject:
        raise TypeError("tvm_ffi: arrays of Python objects (dtype=object) cannot be shared "
                        "as tensors")
    if rc == kTVMFFIPyNumpyByteSwapped:
        raise TypeError("tvm_ffi: byte-swapped (big-endian, dtype %r) arrays cannot be shared "
                        "as tensors; convert with arr.astype(arr.dtype.newbyteorder('='))"
                        % arr.dtype.str)
    if rc == kTVMFFIPyNumpyBadStride:
        raise BufferError("tvm_ffi: stride %d bytes of dimension #%d is not a multiple of "
                          "the item size %d" % (TVMFFIPyNumpyStrideBytes(arr, bad_dim), bad_dim,
                                                arr.itemsize))
    return 0


cdef void numpy_tensor_deleter(DLManagedTensorVersioned* self) noexcept nogil:
    # manager_ctx holds the reference (to the array, or to the memoryview of
    # the buffer path) that keeps the memory alive.
    TVMFFIPyDecRefDeleter(self.manager_ctx)
    free(self)


cdef bint dl_is_contiguous(const DLTensor* t) noexcept:
    """Compact row-major layout: NULL strides, an empty tensor, or strides equal to the
    compact ones (those of size-1 dimensions ignored)."""
    cdef int64_t expected = 1
    cdef int i
    if t.strides == NULL:
        return True
    for i in range(t.ndim):
        if t.shape[i] == 0:
            return True
    for i in range(t.ndim - 1, -1, -1):
        if t.shape[i] != 1 and t.strides[i] != expected:
            return False
        expected *= t.shape[i]
    return True


# writable_arg of the import paths: keep a read-only producer's tensor read-only (from_dlpack);
# -1 and argument indices (>= 0) refuse read-only producers.
cdef enum:
    kKeepReadOnly = -2


cdef int raise_read_only(object producer, Py_ssize_t writable_arg) except -1:
    """BufferError for a read-only tensor passed where a writable one is expected.

    Functions may write to their tensor arguments (nothing declares otherwise), so as
    numpy's own legacy DLPack export does, a read-only array is refused rather than handed
    out writable; tvm_ffi.from_dlpack imports one as a Tensor that stays read-only.
    """
    what = "a read-only %s" % type(producer).__name__
    if writable_arg >= 0:
        head = "argument #%d is %s, and functions may write to their tensor arguments" % (
            writable_arg, what)
    else:
        head = "%s cannot be converted to a writable tensor" % what
    raise BufferError("tvm_ffi: %s; pass a writable copy (arr.copy()), or import it with "
                      "tvm_ffi.from_dlpack, which keeps it read-only" % head)


cdef int check_dlpack_requirements(const DLTensor* t, int32_t require_alignment,
                                   int32_t require_contiguous) except -1:
    """The from_dlpack requirements, checked before the import so that a refused tensor is
    left to its producer; RuntimeError with the reference's texts."""
    if require_alignment > 0 and (
            (<uintptr_t>t.data + <uintptr_t>t.byte_offset) % <uintptr_t>require_alignment != 0):
        raise RuntimeError("FromDLPack: Data is not aligned to %d bytes." % require_alignment)
    if require_contiguous and not dl_is_contiguous(t):
        raise RuntimeError("FromDLPack: Tensor is not contiguous.")
    return 0


cdef TVMFFIObjectHandle managed_to_handle(DLManagedTensorVersioned* managed, object owner,
                                          bint readonly, int32_t require_alignment,
                                          int32_t require_contiguous,
                                          Py_ssize_t writable_arg) except NULL:
    """A Tensor adopting managed (filled dl_tensor, malloc'd); owner keeps the memory alive.
    A read-only one keeps the DLPack read-only flag, or is refused (see raise_read_only)
    unless writable_arg is kKeepReadOnly."""
    cdef TVMFFIObjectHandle out = NULL
    managed.version.major = DLPACK_MAJOR_VERSION
    managed.version.minor = DLPACK_MINOR_VERSION
    managed.flags = DLPACK_FLAG_BITMASK_READ_ONLY if readonly else 0
    Py_INCREF(owner)
    managed.manager_ctx = <void*>owner
    managed.deleter = numpy_tensor_deleter
    if readonly and writable_arg != kKeepReadOnly:
        managed.deleter(managed)
        raise_read_only(owner, writable_arg)
    try:
        check_dlpack_requirements(&managed.dl_tensor, require_alignment, require_contiguous)
    except RuntimeError:
        managed.deleter(managed)
        raise
    # The import copies shape and strides, so stack arrays for them suffice.
    if TVMFFITensorFromDLPackVersioned(managed, require_alignment, require_contiguous,
                                       &out) != 0:
        managed.deleter(managed)
        raise_last_ffi_error()
    return out


cdef TVMFFIObjectHandle numpy_to_handle(object arr, int32_t require_alignment,
                                        int32_t require_contiguous,
                                        Py_ssize_t writable_arg) except? NULL:
    """A Tensor handle over a numpy array's memory; NULL when the fast paths cannot
    describe it (then the caller uses __dlpack__)."""
    cdef DLManagedTensorVersioned* managed
    cdef int64_t strides[kMaxTensorDims]
    cdef int readonly = 0
    cdef int bad = 0
    cdef int rc
    if not numpy_direct_ok():
        return numpy_buffer_to_handle(arr, require_alignment, require_contiguous, writable_arg)
    managed = <DLManagedTensorVersioned*>malloc(sizeof(DLManagedTensorVersioned))
    if managed == NULL:
        raise MemoryError("cannot allocate a DLManagedTensorVersioned")
    rc = TVMFFIPyNumpyFill(arr, &managed.dl_tensor, strides, kMaxTensorDims, &readonly, &bad)
    if rc != 0:
        free(managed)
        if rc == kTVMFFIPyNumpyGeneral:
            return NULL
        raise_numpy_fill_error(arr, rc, bad)
    return managed_to_handle(managed, arr, readonly, require_alignment, require_contiguous,
                             writable_arg)


cdef int format_to_dl(const char* fmt, Py_ssize_t itemsize, DLDataType* out) except -1:
    """DLDataType of a struct-module format; 1 when unknown (caller falls back)."""
    cdef char order = fmt[0]
    if order == b'>' or order == b'!':
        raise TypeError("tvm_ffi: byte-swapped (big-endian, format %r) arrays cannot be "
                        "shared as tensors; convert with arr.astype(arr.dtype.newbyteorder('='))"
                        % fmt.decode("ascii", "replace"))
    if order == b'<' or order == b'=' or order == b'@':
        fmt += 1
    out.lanes = 1
    out.bits = <uint8_t>(itemsize * 8)
    if fmt[0] == b'O':
        raise TypeError("tvm_ffi: arrays of Python objects (dtype=object) cannot be shared "
                        "as tensors")
    if fmt[0] == 0 or (fmt[1] != 0 and fmt[0] != b'Z'):
        return 1
    if fmt[0] == b'?':
        out.code = kDLBool
    elif fmt[0] in b'bhilq':
        out.code = kDLInt
    elif fmt[0] in b'BHILQ':
        out.code = kDLUInt
    elif fmt[0] in b'efd':
        out.code = kDLFloat
    elif fmt[0] == b'Z' and fmt[1] in b'fd' and fmt[2] == 0:
        out.code = kDLComplex
    else:
        return 1
    return 0


cdef TVMFFIObjectHandle numpy_buffer_to_handle(object arr, int32_t require_alignment,
                                               int32_t require_contiguous,
                                               Py_ssize_t writable_arg) except? NULL:
    """numpy_to_handle through the buffer protocol (PyBUF_RECORDS_RO): the path when
    the direct reader disagrees with this numpy; a memoryview keeps the export."""
    cdef Py_buffer* view
    cdef DLManagedTensorVersioned* managed
    cdef DLDataType dt
    cdef int64_t strides[kMaxTensorDims]
    cdef int64_t shape[kMaxTensorDims]
    cdef int i
    try:
        mview = PyMemoryView_FromObject(arr)
    except (BufferError, ValueError, TypeError):
        if arr.dtype.hasobject:
            raise TypeError("tvm_ffi: arrays of Python objects (dtype=object) cannot be "
                            "shared as tensors") from None
        return NULL
    view = PyMemoryView_GET_BUFFER(mview)
    if format_to_dl(view.format, view.itemsize, &dt) != 0:
        return NULL
    for i in range(view.ndim):
        shape[i] = view.shape[i]
        if view.strides[i] % view.itemsize != 0:
            raise BufferError("tvm_ffi: stride %d bytes of dimension #%d is not a multiple of "
                              "the item size %d" % (view.strides[i], i, view.itemsize))
        strides[i] = view.strides[i] // view.itemsize
    managed = <DLManagedTensorVersioned*>malloc(sizeof(DLManagedTensorVersioned))
    if managed == NULL:
        raise MemoryError("cannot allocate a DLManagedTensorVersioned")
    managed.dl_tensor.data = view.buf
    managed.dl_tensor.device.device_type = kDLCPU
    managed.dl_tensor.device.device_id = 0
    managed.dl_tensor.ndim = view.ndim
    managed.dl_tensor.dtype = dt
    managed.dl_tensor.shape = shape
    managed.dl_tensor.strides = strides
    managed.dl_tensor.byte_offset = 0
    return managed_to_handle(managed, mview, view.readonly, require_alignment,
                             require_contiguous, writable_arg)


cdef object ml_dtypes_name(object arr):
    """The tvm_ffi dtype name of an ml_dtypes array, else None."""
    np_type = arr.dtype.type
    if not np_type.__module__.startswith("ml_dtypes"):
        return None
    name = arr.dtype.name
    if dtype(name).bits != arr.dtype.itemsize * 8:
        raise TypeError("tvm_ffi: ml_dtypes type %s (%d bits in %d-byte items) cannot be "
                        "shared as a tensor" % (name, dtype(name).bits, arr.dtype.itemsize))
    return name


# ---------------------------------------------------------------------------
# DLPack capsule path
# ---------------------------------------------------------------------------

cdef bint capsule_is_versioned(object capsule, object producer) except -1:
    """Whether capsule is an unconsumed versioned (else legacy) DLPack capsule;
    TypeError naming the producer when it is neither."""
    if PyCapsule_IsValid(capsule, kCapsuleVersioned):
        return True
    if PyCapsule_IsValid(capsule, kCapsuleLegacy):
        return False
    raise TypeError("tvm_ffi: __dlpack__ of %s returned %r, not an unconsumed "
                    "\"dltensor\" or \"dltensor_versioned\" capsule"
                    % (type(producer).__name__, capsule))


cdef TVMFFIObjectHandle capsule_to_handle(object capsule, object producer,
                                          int32_t require_alignment,
                                          int32_t require_contiguous,
                                          Py_ssize_t writable_arg) except NULL:
    cdef DLManagedTensorVersioned* versioned
    cdef DLManagedTensor* legacy
    cdef TVMFFIObjectHandle out = NULL
    if capsule_is_versioned(capsule, producer):
        versioned = <DLManagedTensorVersioned*>PyCapsule_GetPointer(capsule, kCapsuleVersioned)
        if (versioned.flags & DLPACK_FLAG_BITMASK_READ_ONLY) and writable_arg != kKeepReadOnly:
            # Left unconsumed: the capsule gives the tensor back to its producer.
            raise_read_only(producer, writable_arg)
        check_dlpack_requirements(&versioned.dl_tensor, require_alignment, require_contiguous)
        check_call(TVMFFITensorFromDLPackVersioned(versioned, require_alignment,
                                                   require_contiguous, &out))
        # From here the Tensor owns the producer's tensor: the capsule must not delete it.
        PyCapsule_SetName(capsule, kCapsuleVersionedUsed)
        return out
    legacy = <DLManagedTensor*>PyCapsule_GetPointer(capsule, kCapsuleLegacy)
    check_dlpack_requirements(&legacy.dl_tensor, require_alignment, require_contiguous)
    check_call(TVMFFITensorFromDLPack(legacy, require_alignment, require_contiguous, &out))
    PyCapsule_SetName(capsule, kCapsuleLegacyUsed)
    return out


cdef TVMFFIObjectHandle dlpack_to_handle(object obj, int32_t require_alignment,
                                         int32_t require_contiguous,
                                         Py_ssize_t writable_arg) except NULL:
    """An owned Tensor handle sharing obj's memory (obj: a DLPack producer).

    writable_arg: kKeepReadOnly (from_dlpack) imports a read-only producer as a read-only
    Tensor; anything else refuses it (raise_read_only names the argument)."""
    cdef TVMFFIObjectHandle out = NULL
    cdef TVMFFIObjectHandle raw
    # A tvm_ffi.Tensor goes through its own __dlpack__ like any producer: a new handle.
    # Framework tensors (torch): through the class's DLPack C exchange table.
    out = exchange_to_handle(obj, require_alignment, require_contiguous)
    if out != NULL:
        return out
    if is_numpy_array(obj):
        out = numpy_to_handle(obj, require_alignment, require_contiguous, writable_arg)
        if out != NULL:
            return out
        name = ml_dtypes_name(obj)
        if name is not None:
            raw = numpy_to_handle(obj.view("uint%d" % (obj.dtype.itemsize * 8)),
                                  require_alignment, require_contiguous, writable_arg)
            if raw != NULL:
                tensor = wrap_object(raw)
                relabelled = Tensor_relabel(<Tensor>tensor, name)
                TVMFFIObjectIncRef((<Tensor>relabelled).chandle)
                return (<Tensor>relabelled).chandle
    return capsule_to_handle(dlpack_capsule(obj), obj, require_alignment, require_contiguous,
                             writable_arg)


cdef TVMFFIObjectHandle exchange_to_handle(object obj, int32_t require_alignment,
                                           int32_t require_contiguous) except? NULL:
    """A Tensor handle through the DLPack C exchange API of obj's class; NULL when the
    class publishes none, or when the export raised BufferError (then __dlpack__ decides);
    a refused lazy view (conjugate or negative bit) raises its BufferError."""
    cdef const DLPackExchangeAPI* api = NULL
    cdef TVMFFIObjectHandle out = NULL
    cdef type t = type(obj)
    if TVMFFIPyExchangeLookup(<PyTypeObject*>t, &api) != 0:
        raise_pending_py_error()
    if api == NULL:
        return NULL
    # Each export is a fresh DLPack tensor: the requirements are checked on the import.
    cdef int rc = TVMFFIPyExchangeToHandle(obj, api, 0, 0, &out)
    if rc == 0:
        try:
            check_dlpack_requirements(tensor_cell(out), require_alignment,
                                      require_contiguous)
        except RuntimeError:
            TVMFFIObjectDecRef(out)
            raise
        return out
    # A refused lazy view (rc -2) must not reach __dlpack__, which may export it as is.
    if rc == -1 and PyErr_ExceptionMatches(BufferError):
        PyErr_Clear()
        return NULL
    raise_pending_py_error()


cdef object dlpack_capsule(object obj):
    """obj.__dlpack__(), versioned when the producer supports it."""
    producer = getattr(obj, "__dlpack__", None)
    if producer is None:
        if type(obj).__name__ == "PyCapsule" and (PyCapsule_IsValid(obj, kCapsuleVersioned)
                                                 or PyCapsule_IsValid(obj, kCapsuleLegacy)):
            return obj  # a raw DLPack capsule is consumed as it is
        raise TypeError("Expect from_dlpack to take either a compatible tensor or PyCapsule "
                        "(got %s)" % type(obj).__name__)
    try:
        return producer(max_version=(DLPACK_MAJOR_VERSION, DLPACK_MINOR_VERSION))
    except TypeError as err:
        # Producers older than DLPack 1.0 take no max_version and give a legacy capsule;
        # any other TypeError is the producer's own and propagates.
        if not is_max_version_rejection(err):
            raise
    return producer()


cdef bint is_max_version_rejection(object err):
    """Whether a TypeError of __dlpack__(max_version=...) says the keyword is not accepted
    (the signature mismatch of a pre-1.0 producer), as Python and C functions word it."""
    text = str(err)
    return ("max_version" in text and ("keyword" in text or "argument" in text)) or (
        "takes no keyword arguments" in text)


def from_dlpack(obj, *, int require_alignment=0, bint require_contiguous=False):
    """A tvm_ffi.Tensor sharing memory with obj (numpy, torch, jax, cupy, Tensor ...).

    require_alignment: bytes the first element's address must be a multiple of
    (0: no requirement). require_contiguous: reject non-compact layouts.
    The producer's memory stays alive as long as the Tensor (or any consumer
    it is passed on to) holds it. Raises RuntimeError when a requirement fails.
    """
    cdef TVMFFIObjectHandle handle = NULL
    cdef int rc
    if require_alignment == 0 and not require_contiguous:
        # A framework tensor (torch): its table's fill, with nothing to check.
        rc = TVMFFIPyExchangeFromDLPack(obj, &handle)
        if rc == 0:
            return wrap_object(handle)
        if rc < 0:
            raise_pending_py_error()
    if require_alignment < 0:
        raise ValueError("from_dlpack: require_alignment must not be negative (got %d)"
                         % require_alignment)
    return wrap_object(dlpack_to_handle(obj, require_alignment, 1 if require_contiguous else 0,
                                        kKeepReadOnly))


cdef int convert_dlpack_arg(object x, TVMFFIAny* out, ArgStore* store) except -1:
    """A DLPack producer as a call argument, with no copy: a DLTensor view where the
    parameter is declared DLTensor*, else an owned Tensor object."""
    cdef TVMFFIObjectHandle handle
    if store.env.has_device:
        env_stream = getattr(type(x), "__tvm_ffi_env_stream__", None)
        if env_stream is not None:
            # The producer names the stream its tensors live on: it replaces the one an
            # earlier argument recorded.
            device = x.__dlpack_device__()
            store.env.device_type = <int32_t>int(device[0])
            store.env.device_id = <int32_t>int(device[1])
            store.env.stream = <void*><uintptr_t>int(env_stream(x))
    if (store.views != NULL and store.num_tensors < kStackTensors and store.arg_index < 64
            and (function_view_mask(<Function>store.func) >> store.arg_index) & 1):
        if convert_dlpack_view(x, out, store) == 0:
            return 0
    handle = dlpack_to_handle(x, 0, 0, store.arg_index if store.func != NULL else -1)
    set_owned_object(out, handle, store)
    return 0


cdef int convert_dlpack_view(object x, TVMFFIAny* out, ArgStore* store) except -1:
    """Fill the store's next DLTensor from x and pass it as a DLTensorPtr view;
    1 when x needs the Tensor-object path instead."""
    cdef int k = store.num_tensors
    cdef int i
    cdef DLManagedTensorVersioned* versioned
    cdef DLTensor* t = &store.views.tensors[k]
    cdef int readonly = 0
    cdef int bad = 0
    cdef int rc
    if is_numpy_array(x):
        if not numpy_direct_ok():
            return 1
        rc = TVMFFIPyNumpyFill(x, t, store.views.strides[k], kStackTensorDims, &readonly, &bad)
        if rc == kTVMFFIPyNumpyGeneral:
            return 1
        if rc != 0:
            raise_numpy_fill_error(x, rc, bad)
        if readonly:
            raise_read_only(x, store.arg_index)
        # numpy frees its shape buffer when the array is reshaped (by a later argument's
        # conversion, or another thread while the GIL is released): keep a copy.
        for i in range(t.ndim):
            store.views.shapes[k][i] = t.shape[i]
        t.shape = store.views.shapes[k]
    else:
        capsule = dlpack_capsule(x)
        if capsule_is_versioned(capsule, x):
            versioned = <DLManagedTensorVersioned*>PyCapsule_GetPointer(capsule, kCapsuleVersioned)
            if versioned.flags & DLPACK_FLAG_BITMASK_READ_ONLY:
                raise_read_only(x, store.arg_index)
            t[0] = versioned.dl_tensor
        else:
            t[0] = (<DLManagedTensor*>PyCapsule_GetPointer(capsule, kCapsuleLegacy)).dl_tensor
        # Unconsumed, the capsule calls the producer's deleter when the store drops it.
        Py_INCREF(capsule)
        store.views.pyrefs[store.num_pyrefs] = <PyObject*>capsule
        store.num_pyrefs += 1
    store.num_tensors = k + 1
    out.type_index = kTVMFFIDLTensorPtr
    out.v_ptr = t
    return 0


class DLTensorTestWrapper:
    """A testing producer: wraps a tvm_ffi.Tensor and publishes a DLPack C exchange
    table of its own (no allocator; exports the wrapped tensor; imports as
    tvm_ffi.Tensor; the FFI stream of its device as the current stream)."""

    __dlpack_c_exchange_api__ = TVMFFIPyTestWrapperExchangeCapsule()

    def __init__(self, tensor):
        if not isinstance(tensor, Tensor):
            raise TypeError("DLTensorTestWrapper wraps a tvm_ffi.Tensor, got %s"
                            % type(tensor).__name__)
        self.tensor = tensor

    def __dlpack__(self, **kwargs):
        return self.tensor.__dlpack__(**kwargs)

    def __dlpack_device__(self):
        return self.tensor.__dlpack_device__()

    def __tvm_ffi_env_stream__(self):
        device_type, device_id = self.tensor.__dlpack_device__()
        return <uintptr_t>TVMFFIEnvGetStream(device_type, device_id)


TVMFFIPySetTensorType(Tensor)
