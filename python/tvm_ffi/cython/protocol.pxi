# Value protocols of argument conversion that user classes opt into, and the small
# value classes around them (ObjectConvertible, CAny, String, Bytes).
#
# convert_arg_slow asks convert_protocol_pre before turning a callable into a
# Function, and convert_protocol_post before wrapping anything else as an opaque
# Python object; common argument types never reach either.

import numbers as _numbers_mod

# Exact class -> callable returning an address: such values pass as OpaquePtr.
_OPAQUE_PTR_HANDLERS = {}


class PyNativeObject:
    """Mixin of the Python-native values (String, Bytes, Shape) that carry an FFI object."""

    __slots__ = ()


class ObjectRValueRef:
    """``obj._move()``: passes obj so that the callee may take its handle over (obj is then
    empty when it did)."""

    __slots__ = ["obj"]

    def __init__(self, obj):
        self.obj = obj


# The reference package's root handle class; here every handle class derives from Object.


class ObjectConvertible:
    """Base of user classes that pass to the FFI as the Object ``asobject()`` returns."""

    def asobject(self):
        """The Object standing for self; subclasses implement it."""
        raise NotImplementedError()


class String(str, PyNativeObject):
    """A str that may hold the FFI string object it came from (``_tvm_ffi_cached_object``)."""

    __slots__ = ["_tvm_ffi_cached_object"]

    def __new__(cls, value=""):
        self = str.__new__(cls, value)
        self._tvm_ffi_cached_object = None
        return self

    def __reduce__(self):
        return (str, (str(self),))


class Bytes(bytes, PyNativeObject):
    """A bytes that may hold the FFI bytes object it came from (``_tvm_ffi_cached_object``)."""

    def __new__(cls, value=b""):
        self = bytes.__new__(cls, value)
        self._tvm_ffi_cached_object = None
        return self

    def __reduce__(self):
        return (bytes, (bytes(self),))


cdef int convert_owned_value(object value, TVMFFIAny* out, ArgStore* store) except -1:
    """Convert value into an owned FFI value the store releases after the call
    (value itself may be a temporary that dies before the call)."""
    cdef TVMFFIAny owned
    owned.type_index = kTVMFFINone
    owned.zero_padding = 0
    owned.v_int64 = 0
    if TVMFFIPyEnterNested(" while converting a __tvm_ffi_value__ result") != 0:
        raise_pending_py_error()
    try:
        py_to_owned_any(value, &owned)
    finally:
        TVMFFIPyLeaveNested()
    if owned.type_index >= kTVMFFIStaticObjectBegin:
        set_owned_object(out, owned.v_obj, store)
    else:
        out[0] = owned
    return 0


cdef int set_opaque_ptr(object address, TVMFFIAny* out) except -1:
    out.type_index = kTVMFFIOpaquePtr
    out.zero_padding = 0
    out.v_ptr = <void*><uintptr_t>int(address or 0)
    return 0


cdef int set_dlpack_dtype(object triple, TVMFFIAny* out) except -1:
    code, bits, lanes = triple
    out.type_index = kTVMFFIDataType
    out.zero_padding = 0
    out.v_uint64 = 0
    out.v_dtype.code = code
    out.v_dtype.bits = bits
    out.v_dtype.lanes = <uint16_t><int16_t>lanes
    return 0


# What each protocol hook does for a type, decided once per exact type (the first value of
# a type decides, as in the reference package; the dicts keep the types alive).
cdef dict _PRE_KIND = {}
cdef dict _POST_KIND = {}

cdef enum:
    kPreNone = 0
    kPreRValueRef = 1
    kPreObject = 2
    kPreCudaStream = 3
    kPreOpaquePtr = 4

cdef enum:
    kPostNone = 0
    kPostFrameworkDType = 1
    kPostDataType = 2
    kPostDLPackDType = 3
    kPostDLPackDevice = 4
    kPostInt = 5
    kPostFloat = 6
    kPostValue = 7
    kPostConvertible = 8
    kPostReal = 9


cdef int pre_kind(type t) except -1:
    kind = _PRE_KIND.get(t)
    if kind is None:
        if t is ObjectRValueRef:
            kind = kPreRValueRef
        elif getattr(t, "__tvm_ffi_object__", None) is not None:
            kind = kPreObject
        elif getattr(t, "__cuda_stream__", None) is not None:
            kind = kPreCudaStream
        elif getattr(t, "__tvm_ffi_opaque_ptr__", None) is not None:
            kind = kPreOpaquePtr
        else:
            kind = kPreNone
        _PRE_KIND[t] = kind
    return kind


cdef bint is_framework_dtype_type(type t):
    if t.__module__ == "torch" and t.__name__ == "dtype":
        return True
    np = _sys.modules.get("numpy")
    return np is not None and issubclass(t, np.dtype)


cdef int post_kind(type t) except -1:
    kind = _POST_KIND.get(t)
    if kind is None:
        if is_framework_dtype_type(t):
            kind = kPostFrameworkDType
        elif issubclass(t, DataType):
            kind = kPostDataType
        elif getattr(t, "__dlpack_data_type__", None) is not None:
            kind = kPostDLPackDType
        elif (getattr(t, "__dlpack_device__", None) is not None
              and getattr(t, "__dlpack__", None) is None):
            kind = kPostDLPackDevice
        elif getattr(t, "__tvm_ffi_int__", None) is not None:
            kind = kPostInt
        elif getattr(t, "__tvm_ffi_float__", None) is not None:
            kind = kPostFloat
        elif getattr(t, "__tvm_ffi_value__", None) is not None:
            kind = kPostValue
        elif issubclass(t, ObjectConvertible):
            kind = kPostConvertible
        elif issubclass(t, _numbers_mod.Real) and not issubclass(t, _numbers_mod.Integral):
            kind = kPostReal
        else:
            kind = kPostNone
        _POST_KIND[t] = kind
    return kind


cdef int convert_protocol_pre(object x, TVMFFIAny* out, ArgStore* store) except -1:
    """Protocols checked before callables: 1 when x was converted, else 0."""
    cdef type t = type(x)
    cdef CObject moved
    cdef int kind = pre_kind(t)
    if kind == kPreRValueRef:
        if not isinstance(x.obj, CObject):
            raise TypeError("ObjectRValueRef must hold a tvm_ffi Object, got %s"
                            % type(x.obj).__name__)
        moved = <CObject>x.obj
        moved._check_handle()
        # The callee reads (and may take over) the handle slot of the Object itself.
        out.type_index = kTVMFFIObjectRValueRef
        out.zero_padding = 0
        out.v_ptr = <void*>&moved.chandle
        return 1
    if kind == kPreObject:
        obj = x.__tvm_ffi_object__()
        if not isinstance(obj, CObject):
            raise TypeError("%s.__tvm_ffi_object__() must return a tvm_ffi Object, got %s"
                            % (t.__name__, type(obj).__name__))
        convert_owned_value(obj, out, store)
        return 1
    if kind == kPreCudaStream:
        set_opaque_ptr(x.__cuda_stream__()[1], out)
        return 1
    if kind == kPreOpaquePtr:
        set_opaque_ptr(x.__tvm_ffi_opaque_ptr__(), out)
        return 1
    if _OPAQUE_PTR_HANDLERS:
        handler = _OPAQUE_PTR_HANDLERS.get(t)
        if handler is not None:
            set_opaque_ptr(handler(x), out)
            return 1
    return 0


cdef int convert_protocol_post(object x, TVMFFIAny* out, ArgStore* store) except -1:
    """Protocols checked after callables: 1 when x was converted, else 0."""
    cdef int kind = post_kind(type(x))
    if kind == kPostNone:
        return 0
    if kind == kPostFrameworkDType:
        try:
            name = framework_dtype_name(x)
        except KeyError:
            raise ValueError("unsupported dtype %r: tvm_ffi has no equivalent" % (x,)) from None
        out.type_index = kTVMFFIDataType
        out.zero_padding = 0
        out.v_uint64 = 0
        out.v_dtype = dtype_to_dl(dtype(name))
        return 1
    if kind == kPostDataType:
        out.type_index = kTVMFFIDataType
        out.zero_padding = 0
        out.v_uint64 = 0
        out.v_dtype = (<DataType>x).cdtype
        return 1
    if kind == kPostDLPackDType:
        set_dlpack_dtype(x.__dlpack_data_type__(), out)
        return 1
    if kind == kPostDLPackDevice:
        dev_type, dev_id = x.__dlpack_device__()
        out.type_index = kTVMFFIDevice
        out.zero_padding = 0
        out.v_device.device_type = <CDLDeviceType><int>dev_type
        out.v_device.device_id = dev_id
        return 1
    if kind == kPostInt:
        convert_owned_value(int(x.__tvm_ffi_int__()), out, store)
        return 1
    if kind == kPostFloat:
        out.type_index = kTVMFFIFloat
        out.zero_padding = 0
        out.v_float64 = float(x.__tvm_ffi_float__())
        return 1
    if kind == kPostValue:
        convert_owned_value(x.__tvm_ffi_value__(), out, store)
        return 1
    if kind == kPostConvertible:
        convert_owned_value(x.asobject(), out, store)
        return 1
    out.type_index = kTVMFFIFloat
    out.zero_padding = 0
    out.v_float64 = float(x)
    return 1


cdef class CAny:
    """One owned FFI value converted from a Python value (``CAny(5)``)."""
    cdef TVMFFIAny value

    def __cinit__(self):
        self.value.type_index = kTVMFFINone
        self.value.zero_padding = 0
        self.value.v_int64 = 0

    def __init__(self, value=None):
        release_any(&self.value)
        py_to_owned_any(value, &self.value)

    def __dealloc__(self):
        release_any(&self.value)

    @property
    def type_index(self):
        return self.value.type_index

    def __repr__(self):
        cdef int32_t tindex = self.value.type_index
        if tindex == kTVMFFINone:
            return "CAny(None)"
        if tindex == kTVMFFIInt:
            return "CAny(int=%d)" % self.value.v_int64
        if tindex == kTVMFFIFloat:
            return "CAny(float=%r)" % self.value.v_float64
        if tindex == kTVMFFIBool:
            return "CAny(bool=%r)" % bool(self.value.v_int64)
        if tindex >= kTVMFFIStaticObjectBegin:
            return "CAny(object, type_index=%d)" % tindex
        return "CAny(type_index=%d)" % tindex


cdef inline bint cany_view(object x, TVMFFIAny* out) noexcept:
    """Pass a CAny as the value it holds (a view; the caller keeps x alive): a value
    converted once is passed as that same value to every call it goes to."""
    if type(x) is not CAny:
        return False
    out[0] = (<CAny>x).value
    return True


def _seq_getitem_any(CObject obj, int64_t index):
    """Element `index` (0 <= index < size) of an Array or List as a CAny: passed on to a
    call, it is that same element (an opaque Python object keeps its FFI identity)."""
    cdef TVMFFISeqCell* cell
    cdef CAny out = CAny.__new__(CAny)
    _seq_check(obj)
    cell = <TVMFFISeqCell*>TVMFFIPyObjectCell(obj.chandle)
    if index < 0 or index >= cell.size:
        raise IndexError("index %d out of range for %s of size %d"
                         % (index, obj.type_key, cell.size))
    check_call(TVMFFIAnyViewToOwnedAny(&(<TVMFFIAny*>cell.data)[index], &out.value))
    return out


def _to_py_class_value(CAny value):
    """The Python value held by a CAny (strings as String, bytes as Bytes)."""
    result = any_view_to_py(&value.value)
    if type(result) is str:
        return String(result)
    if type(result) is bytes:
        return Bytes(result)
    return result


class Error(CObject):
    """An FFI error object (``ffi.Error``): kind, message and backtrace (innermost first).

    ``Error(kind, message, backtrace)`` makes one; ``py_error()`` gives the Python exception
    a native call raising it would raise. Pickles by value (extra_context is dropped).
    """

    __slots__ = ()

    def __init__(self, kind, message, backtrace=""):
        self.__move_handle_from__(_error_new(str(kind), str(message), str(backtrace)))

    @property
    def kind(self):
        return _error_fields(self)[0]

    @property
    def message(self):
        return _error_fields(self)[1]

    @property
    def backtrace(self):
        return _error_fields(self)[2]

    @property
    def extra_context(self):
        return _error_fields(self)[3]

    def update_backtrace(self, backtrace):
        """Replace the stored backtrace with the text backtrace."""
        _error_update_backtrace(self, str(backtrace))

    def py_error(self):
        """The Python exception of this error (class from the registered kind)."""
        return _error_py_exception(self)

    def __reduce__(self):
        if self.__chandle__() == 0:
            # An Error made with __new__ alone comes back as one: empty, not dereferenced.
            return (_new_object, (Error,), {"handle": None})
        kind, message, backtrace, _ = _error_fields(self)
        return (Error, (kind, message, backtrace))

    def __reduce_ex__(self, protocol):
        return self.__reduce__()

    def __repr__(self):
        if self.__chandle__() == 0:
            return "Error(chandle=None)"
        return "ffi.Error"


cdef TVMFFIErrorCell* error_cell(CObject err) except NULL:
    err._check_handle()
    if (<TVMFFIObject*>err.chandle).type_index != kTVMFFIError:
        raise TypeError("expected an ffi.Error, got %s" % err.type_key)
    return <TVMFFIErrorCell*>TVMFFIPyObjectCell(err.chandle)


def _error_new(str kind, str message, str backtrace):
    cdef TVMFFIByteArray c_kind = str_to_bytearray(kind)
    cdef TVMFFIByteArray c_msg = str_to_bytearray(message)
    cdef TVMFFIByteArray c_bt = str_to_bytearray(backtrace)
    cdef TVMFFIObjectHandle out = NULL
    check_call(TVMFFIErrorCreateWithCauseAndExtraContext(&c_kind, &c_msg, &c_bt, NULL, NULL,
                                                         &out))
    return wrap_object(out)


def _error_fields(CObject err):
    cdef TVMFFIErrorCell* cell = error_cell(err)
    extra = None
    if cell.extra_context != NULL:
        TVMFFIObjectIncRef(cell.extra_context)
        extra = owned_object_to_py(cell.extra_context)
    return (bytearray_to_str(&cell.kind), bytearray_to_str(&cell.message),
            bytearray_to_str(&cell.backtrace), extra)


def _error_update_backtrace(CObject err, str backtrace):
    cdef TVMFFIErrorCell* cell = error_cell(err)
    cdef TVMFFIByteArray c_bt = str_to_bytearray(backtrace)
    cell.update_backtrace(err.chandle, &c_bt, 0)


def _error_py_exception(CObject err):
    error_cell(err)
    TVMFFIObjectIncRef(err.chandle)
    return error_to_py_exception(err.chandle)


# DLPack version of the headers this package was built with.
__dlpack_version__ = (DLPACK_MAJOR_VERSION, DLPACK_MINOR_VERSION)
_CLASS_TENSOR = Tensor
_CLASS_OBJECT = Object


def _set_class_tensor(cls):
    """Make every Tensor the FFI produces (returns, from_dlpack, callbacks) an instance of cls."""
    global _CLASS_TENSOR
    if not (isinstance(cls, type) and issubclass(cls, Tensor)):
        raise TypeError("_set_class_tensor expects a subclass of Tensor, got %r" % (cls,))
    _register_object_class(kTVMFFITensor, cls)
    _CLASS_TENSOR = cls


def _set_class_object(cls):
    """The class of FFI objects whose type has no registered class of its own."""
    global _CLASS_OBJECT
    if not (isinstance(cls, type) and issubclass(cls, Object)):
        raise TypeError("_set_class_object expects a subclass of Object, got %r" % (cls,))
    _register_object_class(kTVMFFIObject, cls)
    _CLASS_OBJECT = cls


class OpaquePyObject(CObject):
    """An FFI object holding a Python object (``ffi.OpaquePyObject``); ``pyobject()`` returns it."""

    __slots__ = ()

    def pyobject(self):
        """The wrapped Python object."""
        return _opaque_pyobject(self)


def _opaque_pyobject(CObject obj):
    obj._check_handle()
    if (<TVMFFIObject*>obj.chandle).type_index != kTVMFFIOpaquePyObject:
        raise TypeError("expected an ffi.OpaquePyObject, got %s" % obj.type_key)
    return <object>(<TVMFFIOpaqueObjectCell*>TVMFFIPyObjectCell(obj.chandle)).handle


def _convert_to_opaque_object(value):
    """An OpaquePyObject wrapper holding a strong reference to value."""
    cdef TVMFFIObjectHandle handle = NULL
    Py_INCREF(value)
    if TVMFFIObjectCreateOpaque(<void*>value, kTVMFFIOpaquePyObject, TVMFFIPyDecRefDeleter,
                                &handle) != 0:
        Py_XDECREF(<PyObject*>value)
        raise_last_ffi_error()
    return wrap_object(handle)


cdef object arg_as_tensor_cls(object arg, const DLPackExchangeAPI* api):
    """A callback argument as the framework of api wants it: Tensors become its tensors,
    containers are tagged so their tensor elements read as its tensors too."""
    cdef TVMFFIAny owned
    if isinstance(arg, Tensor):
        if (<CObject>arg).chandle == NULL:
            return arg  # a borrowed DLTensor* view: it has no object to hand over
        owned.type_index = kTVMFFITensor
        owned.zero_padding = 0
        owned.v_obj = <TVMFFIObject*>(<CObject>arg).chandle
        TVMFFIObjectIncRef(owned.v_obj)
        return TVMFFIPyResultToPy(&owned, api)
    tag_container(arg, api)
    return arg


def _convert_to_ffi_func(f, tensor_cls=None):
    """A Function wrapping the Python callable f; with tensor_cls (a framework tensor class
    exposing __dlpack_c_exchange_api__), f receives tensor arguments as tensor_cls."""
    cdef const DLPackExchangeAPI* api = NULL
    if tensor_cls is None:
        return Function(f)
    if isinstance(tensor_cls, type):
        if TVMFFIPyExchangeLookup(<PyTypeObject*>tensor_cls, &api) != 0:
            raise_pending_py_error()
    if api == NULL:
        raise TypeError("tensor_cls %r must expose __dlpack_c_exchange_api__" % (tensor_cls,))
    cdef uintptr_t api_addr = <uintptr_t>api

    def call_with_framework_tensors(*args):
        cdef const DLPackExchangeAPI* call_api = <const DLPackExchangeAPI*>api_addr
        return f(*[arg_as_tensor_cls(a, call_api) for a in args])

    return Function(call_with_framework_tensors)


def _print_debug_info():
    """Print the sizes of the per-type argument dispatch caches (a debugging aid)."""
    print("TVMFFIPyGetArgDispatchMapSize: %d" % (len(_PRE_KIND) + len(_POST_KIND)))
