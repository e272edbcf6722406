# Declarations of the C ABI (tvm/ffi/c_api.h) and of the few CPython entry
# points Cython does not declare, plus the helpers every other part uses.

cimport cython
from libc.stdint cimport int16_t, int32_t, int64_t, uint64_t, uint32_t, uint8_t, uint16_t, uintptr_t
from libc.string cimport memchr, strlen
from libc.stdlib cimport malloc, free
from cpython.ref cimport PyObject, PyTypeObject, Py_INCREF, Py_XDECREF
from cpython.exc cimport PyErr_Occurred

cdef extern from "Python.h":
    const char* PyUnicode_AsUTF8AndSize(object s, Py_ssize_t* size) except NULL
    object PyUnicode_DecodeUTF8(const char* s, Py_ssize_t size, const char* errors)
    object PyBytes_FromStringAndSize(const char* s, Py_ssize_t size)
    char* PyBytes_AS_STRING(object b)
    Py_ssize_t PyBytes_GET_SIZE(object b)
    char* PyByteArray_AS_STRING(object b)
    Py_ssize_t PyByteArray_GET_SIZE(object b)
    long long PyLong_AsLongLongAndOverflow(object x, int* overflow) except? -1
    object PyTuple_New(Py_ssize_t n)
    void PyTuple_SET_ITEM(object t, Py_ssize_t i, object v)

cdef extern from "dlpack/dlpack.h":
    ctypedef enum CDLDeviceType "DLDeviceType":
        kDLCPU
    ctypedef struct DLDataType:
        uint8_t code
        uint8_t bits
        uint16_t lanes
    ctypedef struct DLDevice:
        CDLDeviceType device_type
        int32_t device_id
    ctypedef struct DLTensor:
        void* data
        DLDevice device
        int32_t ndim
        DLDataType dtype
        int64_t* shape
        int64_t* strides
        uint64_t byte_offset

cdef extern from "tvm/ffi/c_api.h" nogil:
    enum:
        kTVMFFIAny
        kTVMFFINone
        kTVMFFIInt
        kTVMFFIBool
        kTVMFFIFloat
        kTVMFFIOpaquePtr
        kTVMFFIDataType
        kTVMFFIDevice
        kTVMFFIDLTensorPtr
        kTVMFFIRawStr
        kTVMFFIByteArrayPtr
        kTVMFFIObjectRValueRef
        kTVMFFISmallStr
        kTVMFFISmallBytes
        kTVMFFIStaticObjectBegin
        kTVMFFIObject
        kTVMFFIStr
        kTVMFFIBytes
        kTVMFFIError
        kTVMFFIFunction
        kTVMFFIShape
        kTVMFFITensor
        kTVMFFIArray
        kTVMFFIMap
        kTVMFFIModule
        kTVMFFIOpaquePyObject
        kTVMFFIList
        kTVMFFIDict
        kTVMFFIBigInt
        kTVMFFIDynObjectBegin

    enum:
        kTVMFFIFieldFlagBitMaskWritable
        kTVMFFIFieldFlagBitMaskIsStaticMethod
        kTVMFFIFieldFlagBitSetterIsFunctionObj

    ctypedef void* TVMFFIObjectHandle

    ctypedef struct TVMFFIObject:
        uint64_t combined_ref_count
        int32_t type_index

    ctypedef struct TVMFFIAny:
        int32_t type_index
        uint32_t zero_padding
        uint32_t small_str_len
        int64_t v_int64
        double v_float64
        void* v_ptr
        const char* v_c_str
        TVMFFIObject* v_obj
        DLDataType v_dtype
        DLDevice v_device
        char v_bytes[8]
        uint64_t v_uint64

    ctypedef struct TVMFFIByteArray:
        const char* data
        size_t size

    ctypedef struct TVMFFIShapeCell:
        const int64_t* data
        size_t size

    ctypedef struct TVMFFISeqCell:
        void* data
        int64_t size
        int64_t capacity

    ctypedef struct TVMFFIErrorCell:
        TVMFFIByteArray kind
        TVMFFIByteArray message
        TVMFFIByteArray backtrace
        void (*update_backtrace)(TVMFFIObjectHandle self, const TVMFFIByteArray* backtrace,
                                 int32_t update_mode) noexcept
        TVMFFIObjectHandle cause_chain
        TVMFFIObjectHandle extra_context

    ctypedef int (*TVMFFISafeCallType)(void* handle, const TVMFFIAny* args, int32_t num_args,
                                       TVMFFIAny* result) noexcept

    ctypedef struct TVMFFIFunctionCell:
        TVMFFISafeCallType safe_call
        void* cpp_call

    ctypedef struct TVMFFIOpaqueObjectCell:
        void* handle

    ctypedef int (*TVMFFIFieldGetter)(void* field, TVMFFIAny* result) noexcept
    ctypedef int (*TVMFFIFieldSetter)(void* field, const TVMFFIAny* value) noexcept

    ctypedef struct TVMFFIFieldInfo:
        TVMFFIByteArray name
        TVMFFIByteArray doc
        TVMFFIByteArray metadata
        int64_t flags
        int64_t size
        int64_t alignment
        int64_t offset
        TVMFFIFieldGetter getter
        void* setter
        TVMFFIAny default_value_or_factory
        int32_t field_static_type_index

    ctypedef struct TVMFFIMethodInfo:
        TVMFFIByteArray name
        TVMFFIByteArray doc
        TVMFFIByteArray metadata
        int64_t flags
        TVMFFIAny method

    ctypedef struct TVMFFITypeMetadata:
        TVMFFIByteArray doc
        int32_t total_size

    ctypedef struct TVMFFITypeAttrColumn:
        const TVMFFIAny* data
        int32_t size
        int32_t begin_index

    ctypedef struct TVMFFITypeInfo:
        int32_t type_index
        int32_t type_depth
        TVMFFIByteArray type_key
        const TVMFFITypeInfo** type_ancestors
        uint64_t type_key_hash
        int32_t num_fields
        int32_t num_methods
        const TVMFFIFieldInfo* fields
        const TVMFFIMethodInfo* methods
        const TVMFFITypeMetadata* metadata

    int TVMFFIObjectIncRef(TVMFFIObjectHandle obj)
    int TVMFFIObjectDecRef(TVMFFIObjectHandle obj)
    int TVMFFIObjectCreateOpaque(void* handle, int32_t type_index, void (*deleter)(void*) noexcept,
                                 TVMFFIObjectHandle* out)
    int TVMFFITypeKeyToIndex(const TVMFFIByteArray* type_key, int32_t* out_tindex)
    const TVMFFITypeInfo* TVMFFIGetTypeInfo(int32_t type_index)
    int TVMFFITypeRegisterAttr(int32_t type_index, const TVMFFIByteArray* attr_name,
                               const TVMFFIAny* attr_value)
    const TVMFFITypeAttrColumn* TVMFFIGetTypeAttrColumn(const TVMFFIByteArray* attr_name)
    int TVMFFIFunctionCreate(void* self, TVMFFISafeCallType safe_call,
                             void (*deleter)(void*) noexcept, TVMFFIObjectHandle* out)
    int TVMFFIFunctionCall(TVMFFIObjectHandle func, TVMFFIAny* args, int32_t num_args,
                           TVMFFIAny* result)
    int TVMFFIFunctionSetGlobal(const TVMFFIByteArray* name, TVMFFIObjectHandle f,
                                int allow_override)
    int TVMFFIFunctionGetGlobal(const TVMFFIByteArray* name, TVMFFIObjectHandle* out)
    int TVMFFIAnyViewToOwnedAny(const TVMFFIAny* any_view, TVMFFIAny* out)
    void TVMFFIErrorSetRaised(TVMFFIObjectHandle error)
    void TVMFFIErrorSetRaisedFromCStr(const char* kind, const char* message)
    void TVMFFIErrorMoveFromRaised(TVMFFIObjectHandle* result)
    int TVMFFIErrorCreateWithCauseAndExtraContext(
        const TVMFFIByteArray* kind, const TVMFFIByteArray* message,
        const TVMFFIByteArray* backtrace, TVMFFIObjectHandle cause_chain,
        TVMFFIObjectHandle extra_context, TVMFFIObjectHandle* out)
    int TVMFFIStringFromByteArray(const TVMFFIByteArray* input, TVMFFIAny* out)
    int TVMFFIBytesFromByteArray(const TVMFFIByteArray* input, TVMFFIAny* out)
    int TVMFFIDataTypeFromString(const TVMFFIByteArray* str, DLDataType* out)
    int TVMFFIDataTypeToString(const DLDataType* dtype, TVMFFIAny* out)
    int TVMFFIEnvRegisterCAPI(const char* name, void* symbol)
    int TVMFFIBigIntFromByteArray(const TVMFFIByteArray* input, TVMFFIAny* out)
    TVMFFIByteArray TVMFFIBigIntGetContentByteArray(const TVMFFIAny* value)

cdef extern from "tvm_ffi_python_helpers.h" nogil:
    # Deleter of objects that own a PyObject* reference; takes the GIL, and does
    # nothing once the interpreter is finalizing.
    void TVMFFIPyDecRefDeleter(void* handle) noexcept
    # PyErr_CheckSignals behind a GIL acquire, so native code without the GIL may call it.
    int TVMFFIPyCheckSignals() noexcept
    # Address of the object header's cell (the struct that follows the 24-byte header).
    void* TVMFFIPyObjectCell(void* obj) noexcept

cdef extern from "tvm_ffi_python_helpers.h":
    # Like Py_EnterRecursiveCall, plus a fixed nesting cap on every Python.
    int TVMFFIPyEnterNested(const char* where)
    void TVMFFIPyLeaveNested()
    int TVMFFIPyNestingDepth()
    # The wrapper of handle, taking it over: cls(...) without __init__, through the tp_new of
    # its extension base type; the handle is dropped on failure.
    object TVMFFIPyWrapHandle(object base, object cls, TVMFFIObjectHandle handle)

cdef extern from "tvm_ffi_layout.h":
    # The part of tvm_ffi.Function the C call path reads (see Function.c_state).
    ctypedef struct TVMFFIPyFunctionState:
        int release_gil
        int view_known
        uint64_t view_mask
    void TVMFFIPyFunctionStateInit(TVMFFIPyFunctionState* state, void* vectorcall) noexcept
    Py_ssize_t TVMFFIPyObjectHandleOffset() noexcept
    Py_ssize_t TVMFFIPyFunctionStateOffset() noexcept

cdef extern from "tvm_ffi_dlpack_exchange.h":
    ctypedef struct DLPackExchangeAPI:
        pass
    # What a call's framework tensor arguments recorded (see the header).
    ctypedef struct TVMFFIPyCallEnv:
        const DLPackExchangeAPI* result_api
        int has_device
        int32_t device_type
        int32_t device_id
        void* stream
    void TVMFFIPyCallEnvInit(TVMFFIPyCallEnv* env) noexcept
    # 0 with *out (NULL: the type publishes no table), -1 with a Python error.
    int TVMFFIPyExchangeLookup(PyTypeObject* t, const DLPackExchangeAPI** out) noexcept
    # 0, or -1 with a Python error; *owned: a Tensor the caller releases after the call.
    enum:
        kTVMFFIPyViewDims
    int TVMFFIPyExchangeArg(object x, const DLPackExchangeAPI* api, DLTensor* view,
                            int64_t* dims, TVMFFIAny* out, TVMFFIObjectHandle* owned,
                            int call_release, TVMFFIPyCallEnv* env) noexcept
    # TVMFFIObjectDecRef with the GIL held (framework tensor objects torn down here).
    void TVMFFIPyDecRefWithGIL(TVMFFIObjectHandle handle) noexcept
    int TVMFFIPyExchangeToHandle(object x, const DLPackExchangeAPI* api,
                                 int32_t require_alignment, int32_t require_contiguous,
                                 TVMFFIObjectHandle* out) noexcept
    # 0 with *out, 1: not a table that fills (no error), -1 with a Python error.
    int TVMFFIPyExchangeFromDLPack(object x, TVMFFIObjectHandle* out) noexcept
    object TVMFFIPyTensorExchangeCapsule()
    object TVMFFIPyTestWrapperExchangeCapsule()
    void TVMFFIPyTagCountAdd(Py_ssize_t delta) noexcept
    Py_ssize_t TVMFFIPyTagCount() noexcept
    bint TVMFFIPyIsContainerIndex(int32_t type_index) noexcept
    void TVMFFIPySetTensorType(object t) noexcept
    void TVMFFIPySetExchangeMissingHook(object hook) noexcept

cdef extern from "tvm_ffi_array_builder.h":
    int TVMFFIPyArrayFromViews(const TVMFFIAny* items, int64_t n, TVMFFIObjectHandle* out) noexcept
    int TVMFFIPyArrayFromPlainItems(object seq, TVMFFIObjectHandle* out) noexcept

cdef extern from "Python.h":
    PyObject* PyObject_Vectorcall(PyObject* callable, PyObject** args, size_t nargsf,
                                  PyObject* kwnames)


cdef int raise_pending_py_error() except -1:
    """Hand the error a raw C-API call left set to Cython's exception handling."""
    if PyErr_Occurred() == NULL:
        raise SystemError("a Python C-API call failed without setting an error")
    return -1


cdef inline object bytearray_to_str(const TVMFFIByteArray* arr):
    return PyUnicode_DecodeUTF8(arr.data, <Py_ssize_t>arr.size, "replace")


cdef inline object bytearray_to_bytes(const TVMFFIByteArray* arr):
    return PyBytes_FromStringAndSize(arr.data, <Py_ssize_t>arr.size)


cdef inline TVMFFIByteArray str_to_bytearray(str s) except *:
    """A view of s as UTF-8 (the buffer is cached inside s and lives as long as s)."""
    cdef TVMFFIByteArray out
    cdef Py_ssize_t size
    out.data = PyUnicode_AsUTF8AndSize(s, &size)
    out.size = <size_t>size
    return out


cdef int check_call(int ret) except -1:
    """Turn a -1 return of a C API function into the matching Python exception."""
    if ret == 0:
        return 0
    raise_last_ffi_error()
    return -1
