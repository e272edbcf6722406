# tvm_ffi.Object, the type-index -> Python class registry, and reflection.

# Python class registered for each type index (None when unregistered).
cdef list _REGISTERED_CLS = []
# Resolved class for each type index: the registered class of the nearest
# registered ancestor. Cleared whenever a registration changes.
cdef list _RESOLVED_CLS = []


# Wrappers of the exact built-in types (Tensor, Object, ...) are recycled: from_dlpack and
# calls returning objects make and drop one per call.
@cython.freelist(16)
cdef class CObject:
    """Base of every FFI object seen from Python (Object, Function, Tensor, Error,
    OpaquePyObject): holds one strong reference. No __weakref__: FFI objects take no
    weak references (python_api.md §4.1)."""
    cdef TVMFFIObjectHandle chandle

    def __dealloc__(self):
        if self.chandle != NULL:
            TVMFFIPyDecRefWithGIL(self.chandle)
            self.chandle = NULL

    def __init__(self, *args, **kwargs):
        # Object() is an empty wrapper (handle NULL), as in the reference package.
        if args or kwargs:
            raise TypeError("%s has no constructor registered from C++ (no __ffi_init__)"
                            % type(self).__name__)

    def __init_handle_by_constructor__(self, fconstructor, *args):
        """Call a constructor Function and take the object it returns as self's handle."""
        cdef TVMFFIAny result
        if not isinstance(fconstructor, Function):
            raise TypeError("constructor must be a tvm_ffi.Function")
        check_not_initialized(self)
        function_call_raw(<Function>fconstructor, args, &result)
        if result.type_index < kTVMFFIStaticObjectBegin:
            release_any(&result)
            raise TypeError("constructor of %s did not return an object" % type(self).__name__)
        if self.chandle != NULL:
            # The constructor initialized self on its own (re-entrantly); the
            # result it returned is not adopted, so release it before raising.
            release_any(&result)
            check_not_initialized(self)
        self.chandle = result.v_obj

    @property
    def type_index(self):
        """Runtime type index of the object."""
        self._check_handle()
        return (<TVMFFIObject*>self.chandle).type_index

    @property
    def type_key(self):
        """Registered type key of the object's runtime type, e.g. "ffi.Array"."""
        self._check_handle()
        return type_key_of_index((<TVMFFIObject*>self.chandle).type_index)

    cdef int _check_handle(self) except -1:
        if self.chandle == NULL:
            raise ValueError("%s object has no underlying FFI object (handle is NULL)"
                             % type(self).__name__)
        return 0

    def __chandle__(self):
        """Address of the underlying object header, as an int (0 when empty)."""
        return <uintptr_t>self.chandle

    @property
    def id_(self):
        """Same as ``__chandle__()``."""
        return <uintptr_t>self.chandle

    def __ctypes_handle__(self):
        """The handle as a ctypes.c_void_p (value None when empty)."""
        import ctypes
        return ctypes.c_void_p(<uintptr_t>self.chandle if self.chandle != NULL else None)

    def __move_handle_from__(self, other):
        """Take other's handle (other becomes empty); self must be empty."""
        if not isinstance(other, CObject):
            raise TypeError("__move_handle_from__ expects a tvm_ffi CObject, got %s"
                            % type(other).__name__)
        check_not_initialized(self)
        self.chandle = (<CObject>other).chandle
        (<CObject>other).chandle = NULL

    def _move(self):
        """An ObjectRValueRef of self: passed to a function, the callee may take the handle."""
        return ObjectRValueRef(self)

    def same_as(self, other):
        """Whether other refers to the same underlying object."""
        return isinstance(other, CObject) and (<CObject>other).chandle == self.chandle

    def is_(self, other):
        """Alias of same_as."""
        return isinstance(other, CObject) and (<CObject>other).chandle == self.chandle

    def __eq__(self, other):
        return isinstance(other, CObject) and (<CObject>other).chandle == self.chandle

    def __ne__(self, other):
        return not (isinstance(other, CObject) and (<CObject>other).chandle == self.chandle)

    def __hash__(self):
        return hash(<uintptr_t>self.chandle)

    def __repr__(self):
        return object_repr(self)

    def __reduce__(self):
        # Pickle, copy.copy and copy.deepcopy all go through the JSON object graph: the
        # copy is a new object of the same class (types without a reflection creator,
        # e.g. functions, raise the serializer's TypeError).
        if self.chandle == NULL:
            return (_new_object, (type(self),), {"handle": None})
        text = rt_func("ffi.ToJSONGraphString")(self, None)
        return (_new_object, (type(self),), {"handle": text})

    def __setstate__(self, state):
        handle = state["handle"]
        if handle is None:
            return
        obj = rt_func("ffi.FromJSONGraphString")(handle)
        if not isinstance(obj, CObject):
            raise TypeError("JSON graph of %s holds a %s, not an object"
                            % (type(self).__name__, type(obj).__name__))
        check_not_initialized(self)
        self.chandle = (<CObject>obj).chandle
        (<CObject>obj).chandle = NULL


cdef class Object(CObject):
    """Base of the registered object types, the containers and Module. Function, Tensor,
    Error and OpaquePyObject derive from CObject only, as in the reference package."""


def _new_object(cls):
    """An empty instance of cls (handle NULL), filled in by __setstate__ when unpickling."""
    return cls.__new__(cls)


def _another_wrapper(CObject obj):
    """A new wrapper of obj's object, of obj's class, holding its own reference.

    Lets a holder keep the object alive without keeping obj itself (and what obj's
    ``__dict__`` holds): Module.get_function gives each Function such a wrapper of its module,
    so the module's cache of Functions forms no reference cycle.
    """
    cdef CObject out = <CObject>type(obj).__new__(type(obj))
    if obj.chandle != NULL:
        TVMFFIObjectIncRef(obj.chandle)
        out.chandle = obj.chandle
    return out


def object_repr(obj):
    """The ffi.ReprPrint text of an Object; never raises (falls back to the address)."""
    cdef uintptr_t handle = <uintptr_t>(<CObject>obj).chandle
    if handle == 0:
        return "%s(chandle=None)" % type(obj).__name__
    try:
        return rt_func("ffi.ReprPrint")(obj)
    except Exception:
        return "%s(0x%x)" % (type(obj).__name__, handle)


cdef object type_key_of_index(int32_t type_index):
    cdef const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(type_index)
    if info == NULL:
        return "<unknown type %d>" % type_index
    return bytearray_to_str(&info.type_key)


cdef int check_not_initialized(CObject obj) except -1:
    # A handle is set once: a call in progress may be using the current one.
    if obj.chandle != NULL:
        raise TypeError("this %s already holds an object; make a new one instead of "
                        "calling __init__ again" % type(obj).__name__)
    return 0


# registry.py installs the maker of the auto-generated classes of unregistered types:
# factory(type_index, type_key, parent_class) -> class. Made classes are kept per type index.
cdef object _FALLBACK_FACTORY = None
cdef dict _FALLBACK_CLS = {}


def _set_fallback_class_factory(factory):
    global _FALLBACK_FACTORY
    _FALLBACK_FACTORY = factory
    del _RESOLVED_CLS[:]


cdef object lookup_class(int32_t type_index):
    """Python class for objects of type_index: its registered class, else an auto-generated
    class deriving from its parent type's class (nearest registered ancestor without the
    factory; Object at the root)."""
    cdef const TVMFFITypeInfo* info
    cdef int32_t depth
    if type_index < len(_RESOLVED_CLS):
        cls = _RESOLVED_CLS[type_index]
        if cls is not None:
            return cls
    cls = None
    if type_index < len(_REGISTERED_CLS):
        cls = _REGISTERED_CLS[type_index]
    if cls is None and _FALLBACK_FACTORY is not None and type_index >= kTVMFFIDynObjectBegin:
        cls = _FALLBACK_CLS.get(type_index)
        if cls is None:
            info = TVMFFIGetTypeInfo(type_index)
            if info != NULL:
                parent = Object
                if info.type_depth > 0:
                    parent = lookup_class(info.type_ancestors[info.type_depth - 1].type_index)
                cls = _FALLBACK_FACTORY(type_index, bytearray_to_str(&info.type_key), parent)
                _FALLBACK_CLS[type_index] = cls
    if cls is None:
        info = TVMFFIGetTypeInfo(type_index)
        if info != NULL:
            depth = info.type_depth - 1
            while depth >= 0 and cls is None:
                anc = info.type_ancestors[depth].type_index
                if anc < len(_REGISTERED_CLS):
                    cls = _REGISTERED_CLS[anc]
                depth -= 1
    if cls is None:
        cls = Object
    if type_index >= len(_RESOLVED_CLS):
        _RESOLVED_CLS.extend([None] * (type_index + 1 - len(_RESOLVED_CLS)))
    _RESOLVED_CLS[type_index] = cls
    return cls


cdef object wrap_object(TVMFFIObjectHandle handle):
    """The Python object of an FFI object; steals the reference to handle."""
    cdef int32_t tindex = (<TVMFFIObject*>handle).type_index
    # The resolved class is read here (lookup_class only on a miss): every object result and
    # from_dlpack come this way.
    cls = _RESOLVED_CLS[tindex] if tindex < len(_RESOLVED_CLS) else None
    if cls is None:
        cls = lookup_class_or_release(tindex, handle)
    # Tensor is an extension type with its own tp_new, which its subclasses need.
    return TVMFFIPyWrapHandle(Tensor if tindex == kTVMFFITensor else CObject, cls, handle)


cdef object lookup_class_or_release(int32_t type_index, TVMFFIObjectHandle handle):
    """lookup_class, dropping the reference to handle if it fails (a class factory may raise)."""
    try:
        return lookup_class(type_index)
    except BaseException:
        TVMFFIObjectDecRef(handle)
        raise


def _type_key_to_index(str type_key):
    cdef TVMFFIByteArray key = str_to_bytearray(type_key)
    cdef int32_t tindex = -1
    if TVMFFITypeKeyToIndex(&key, &tindex) != 0:
        # The lookup raises for unknown keys; the caller wants a clear ValueError.
        clear_raised_error()
        return None
    return tindex


cdef void clear_raised_error() noexcept:
    cdef TVMFFIObjectHandle err = NULL
    TVMFFIErrorMoveFromRaised(&err)
    if err != NULL:
        TVMFFIObjectDecRef(err)


def _register_object_class(int32_t type_index, cls):
    """Bind cls to type_index so values of that type come back as cls."""
    if not (isinstance(cls, type) and issubclass(cls, CObject)):
        raise TypeError("register_object expects a subclass of tvm_ffi.core.CObject, got %r" % (cls,))
    if type_index >= len(_REGISTERED_CLS):
        _REGISTERED_CLS.extend([None] * (type_index + 1 - len(_REGISTERED_CLS)))
    _REGISTERED_CLS[type_index] = cls
    del _RESOLVED_CLS[:]


cdef int call_setter_function(TVMFFIObjectHandle f, TVMFFIAny* addr, TVMFFIAny* value) except -1:
    cdef TVMFFIAny args[2]
    cdef TVMFFIAny result
    args[0] = addr[0]
    args[1] = value[0]
    result.type_index = kTVMFFINone
    result.zero_padding = 0
    result.v_int64 = 0
    check_call(TVMFFIFunctionCall(f, args, 2, &result))
    release_any(&result)
    return 0
