# Reflection access: field getters/setters, type attributes, and the raw type table entries
# that tvm_ffi/_type_info.py turns into TypeInfo/TypeField/TypeMethod records.

cdef int check_field_owner(TVMFFIObject* header, int32_t type_index, int32_t type_depth,
                           object name) except -1:
    """Raise TypeError unless the object is an instance of the type declaring the field."""
    cdef const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(header.type_index)
    if (info != NULL and info.type_depth > type_depth and
            info.type_ancestors[type_depth].type_index == type_index):
        return 0
    raise TypeError("field %r belongs to %s, but the object is a %s"
                    % (name, type_key_of_index(type_index),
                       type_key_of_index(header.type_index)))


cdef extern from *:
    """
    /* Vectorcall entry points of FieldGetter/FieldSetter: a property calls its fget/fset
       through vectorcall, which skips the argument tuple of tp_call. The work is done by
       the Cython functions installed by tvm_ffi_py_enable_field_vectorcall. */
    typedef PyObject* (*tvm_ffi_py_field_get_impl)(PyObject* self, PyObject* obj);
    typedef PyObject* (*tvm_ffi_py_field_set_impl)(PyObject* self, PyObject* obj,
                                                  PyObject* value);
    static tvm_ffi_py_field_get_impl tvm_ffi_py_field_get = NULL;
    static tvm_ffi_py_field_set_impl tvm_ffi_py_field_set = NULL;

    static PyObject* tvm_ffi_py_field_get_vectorcall(PyObject* self, PyObject* const* args,
                                                     size_t nargsf, PyObject* kwnames) {
      if (PyVectorcall_NARGS(nargsf) != 1 || (kwnames != NULL && PyTuple_GET_SIZE(kwnames))) {
        PyErr_SetString(PyExc_TypeError, "a field getter takes one argument (the object)");
        return NULL;
      }
      return tvm_ffi_py_field_get(self, args[0]);
    }

    static PyObject* tvm_ffi_py_field_set_vectorcall(PyObject* self, PyObject* const* args,
                                                     size_t nargsf, PyObject* kwnames) {
      if (PyVectorcall_NARGS(nargsf) != 2 || (kwnames != NULL && PyTuple_GET_SIZE(kwnames))) {
        PyErr_SetString(PyExc_TypeError,
                        "a field setter takes two arguments (the object and the value)");
        return NULL;
      }
      return tvm_ffi_py_field_set(self, args[0], args[1]);
    }

    static void* tvm_ffi_py_field_get_entry(void) {
      return (void*)tvm_ffi_py_field_get_vectorcall;
    }
    static void* tvm_ffi_py_field_set_entry(void) {
      return (void*)tvm_ffi_py_field_set_vectorcall;
    }

    static void tvm_ffi_py_enable_field_vectorcall(PyObject* type_obj, Py_ssize_t offset,
                                                   void* get_impl, void* set_impl) {
    #if !defined(Py_LIMITED_API)
      PyTypeObject* type = (PyTypeObject*)type_obj;
      if (get_impl != NULL) tvm_ffi_py_field_get = (tvm_ffi_py_field_get_impl)get_impl;
      if (set_impl != NULL) tvm_ffi_py_field_set = (tvm_ffi_py_field_set_impl)set_impl;
      type->tp_vectorcall_offset = offset;
      type->tp_flags |= Py_TPFLAGS_HAVE_VECTORCALL;
      PyType_Modified(type);
    #else
      (void)type_obj; (void)offset; (void)get_impl; (void)set_impl;
    #endif
    }
    """
    void* tvm_ffi_py_field_get_entry() noexcept
    void* tvm_ffi_py_field_set_entry() noexcept
    void tvm_ffi_py_enable_field_vectorcall(object type_obj, Py_ssize_t offset, void* get_impl,
                                            void* set_impl) noexcept


cdef extern from "tvm_ffi_field_property.h":
    int32_t TVMFFIPyFieldReadKind(int32_t static_type_index, int64_t size) noexcept


cdef class FieldGetter:
    """Reads one reflected field: ``getter(obj)`` calls the field's C getter.

    The fget of the field's FFIProperty; named after the field (``__name__``,
    ``__qualname__``, ``__module__`` and ``__doc__`` are writable)."""
    # First field: the vectorcall entry (its offset is the type's tp_vectorcall_offset).
    cdef void* vectorcall
    cdef TVMFFIFieldGetter c_getter
    cdef int64_t offset
    cdef int32_t type_index
    cdef int32_t type_depth
    # How FFIProperty reads the member in C (tvm_ffi_field_property.h).
    cdef int32_t read_kind
    cdef dict __dict__

    def __cinit__(self):
        self.vectorcall = tvm_ffi_py_field_get_entry()

    def __call__(self, obj):
        return field_get_impl(self, obj)


cdef object field_get_impl(object self_obj, object obj):
    cdef FieldGetter self = <FieldGetter>self_obj
    cdef TVMFFIAny result
    cdef TVMFFIObject* header
    if not isinstance(obj, CObject):
        raise TypeError("field %r is read from a tvm_ffi.Object, got %s"
                        % (getattr(self, "__name__", None), type(obj).__name__))
    header = <TVMFFIObject*>(<CObject>obj).chandle
    if header == NULL:
        (<CObject>obj)._check_handle()
    if header.type_index != self.type_index:
        check_field_owner(header, self.type_index, self.type_depth,
                          getattr(self, "__name__", None))
    result.type_index = kTVMFFINone
    result.zero_padding = 0
    result.v_int64 = 0
    check_call(self.c_getter(<char*>header + self.offset, &result))
    return any_to_py_owned(&result)


cdef class FieldSetter:
    """Writes one reflected field: ``setter(obj, value)`` converts value and calls the field's
    C setter (or its setter Function); the setter's TypeError reports a wrong value."""
    cdef void* vectorcall
    cdef void* c_setter
    cdef bint setter_is_function
    cdef int64_t offset
    cdef int32_t type_index
    cdef int32_t type_depth
    cdef object owner_key
    cdef dict __dict__

    def __cinit__(self):
        self.vectorcall = tvm_ffi_py_field_set_entry()

    def __call__(self, obj, value):
        field_set_impl(self, obj, value)


cdef object field_set_impl(object self_obj, object obj, object value):
    cdef FieldSetter self = <FieldSetter>self_obj
    cdef TVMFFIAny view
    cdef TVMFFIAny addr
    cdef ArgStore store
    cdef TVMFFIObject* header
    if not isinstance(obj, CObject):
        raise TypeError("field %r is written on a tvm_ffi.Object, got %s"
                        % (getattr(self, "__name__", None), type(obj).__name__))
    header = <TVMFFIObject*>(<CObject>obj).chandle
    if header == NULL:
        (<CObject>obj)._check_handle()
    if header.type_index != self.type_index:
        check_field_owner(header, self.type_index, self.type_depth,
                          getattr(self, "__name__", None))
    if self.c_setter == NULL:
        raise AttributeError("field %r of %s has no setter"
                             % (getattr(self, "__name__", None), self.owner_key))
    args_store_init(&store, 1)
    try:
        convert_arg(value, &view, &store)
        if self.setter_is_function:
            # A Function setter receives the field address and the new value.
            addr.type_index = kTVMFFIOpaquePtr
            addr.zero_padding = 0
            addr.v_ptr = <char*>header + self.offset
            call_setter_function(<TVMFFIObjectHandle>self.c_setter, &addr, &view)
        else:
            check_call((<TVMFFIFieldSetter>self.c_setter)(<char*>header + self.offset, &view))
    finally:
        args_store_release(&store)
    return None


cdef int enable_field_vectorcall() except -1:
    cdef FieldGetter getter = FieldGetter.__new__(FieldGetter)
    cdef FieldSetter setter = FieldSetter.__new__(FieldSetter)
    tvm_ffi_py_enable_field_vectorcall(
        FieldGetter, <char*>&getter.vectorcall - <char*><PyObject*>getter,
        <void*>field_get_impl, NULL)
    tvm_ffi_py_enable_field_vectorcall(
        FieldSetter, <char*>&setter.vectorcall - <char*><PyObject*>setter,
        NULL, <void*>field_set_impl)
    return 0


enable_field_vectorcall()


cdef object make_field_getter(const TVMFFITypeInfo* info, const TVMFFIFieldInfo* field):
    cdef FieldGetter getter = FieldGetter.__new__(FieldGetter)
    getter.c_getter = field.getter
    getter.offset = field.offset
    getter.type_index = info.type_index
    getter.type_depth = info.type_depth
    getter.read_kind = TVMFFIPyFieldReadKind(field.field_static_type_index, field.size)
    setattr(getter, "__name__", bytearray_to_str(&field.name))
    return getter


cdef object make_field_setter(const TVMFFITypeInfo* info, const TVMFFIFieldInfo* field):
    cdef FieldSetter setter = FieldSetter.__new__(FieldSetter)
    setter.c_setter = field.setter
    setter.setter_is_function = (field.flags & kTVMFFIFieldFlagBitSetterIsFunctionObj) != 0
    setter.offset = field.offset
    setter.type_index = info.type_index
    setter.type_depth = info.type_depth
    setter.owner_key = bytearray_to_str(&info.type_key)
    setattr(setter, "__name__", bytearray_to_str(&field.name))
    return setter


cdef object optional_text(const TVMFFIByteArray* arr):
    if arr.size == 0:
        return None
    return bytearray_to_str(arr)


def _type_table_entry(int32_t type_index):
    """The runtime's record of a type, or None when the index is not registered:
    (type_key, ancestors root first, fields, methods, total_size or None). Fields are
    (name, doc, size, alignment, offset, static_type_index, flags, metadata_json,
    default_value, getter, setter); methods (name, doc, func, metadata_json, flags)."""
    cdef const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(type_index) if type_index >= 0 else NULL
    cdef const TVMFFIFieldInfo* field
    cdef const TVMFFIMethodInfo* method
    cdef int i
    if info == NULL:
        return None
    ancestors = [info.type_ancestors[i].type_index for i in range(info.type_depth)]
    fields = []
    for i in range(info.num_fields):
        field = &info.fields[i]
        fields.append((bytearray_to_str(&field.name), optional_text(&field.doc), field.size,
                       field.alignment, field.offset, field.field_static_type_index,
                       field.flags, optional_text(&field.metadata),
                       any_view_to_py(&field.default_value_or_factory),
                       make_field_getter(info, field), make_field_setter(info, field)))
    methods = []
    for i in range(info.num_methods):
        method = &info.methods[i]
        methods.append((bytearray_to_str(&method.name), optional_text(&method.doc),
                        any_view_to_py(&method.method), optional_text(&method.metadata),
                        method.flags))
    total_size = info.metadata.total_size if info.metadata != NULL else None
    return bytearray_to_str(&info.type_key), ancestors, fields, methods, total_size


def _type_index_to_key(int32_t type_index):
    """Type key of a registered type index, or None."""
    cdef const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(type_index) if type_index >= 0 else NULL
    if info == NULL:
        return None
    return bytearray_to_str(&info.type_key)


def _type_ancestor_indices(int32_t type_index):
    """Type indices of the ancestors of a type, root first (empty for unknown types)."""
    cdef const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(type_index) if type_index >= 0 else NULL
    cdef int i
    if info == NULL:
        return []
    return [info.type_ancestors[i].type_index for i in range(info.type_depth)]


def _object_type_key_to_index(str type_key):
    """Type index of a registered type key, or None."""
    return _type_key_to_index(type_key)


cdef object column_value(const TVMFFITypeAttrColumn* column, int32_t type_index):
    cdef int32_t slot
    if column == NULL or type_index < column.begin_index:
        return None
    slot = type_index - column.begin_index
    if slot >= column.size or column.data[slot].type_index == kTVMFFINone:
        return None
    return any_view_to_py(&column.data[slot])


def _lookup_type_attr(int32_t type_index, str name, bint ancestor=False):
    """The type attribute `name` of a type (None when absent). With `ancestor`, a type
    without it takes the value of its nearest ancestor that has one."""
    cdef TVMFFIByteArray key = str_to_bytearray(name)
    cdef const TVMFFITypeAttrColumn* column = TVMFFIGetTypeAttrColumn(&key)
    cdef const TVMFFITypeInfo* info
    cdef int32_t depth
    if column == NULL:
        return None
    value = column_value(column, type_index)
    if value is not None or not ancestor:
        return value
    info = TVMFFIGetTypeInfo(type_index) if type_index >= 0 else NULL
    if info == NULL:
        return None
    depth = info.type_depth - 1
    while depth >= 0:
        value = column_value(column, info.type_ancestors[depth].type_index)
        if value is not None:
            return value
        depth -= 1
    return None


def _register_type_attr(int32_t type_index, str name, value):
    """Set the type attribute `name` of a type (the runtime keeps its own reference)."""
    cdef TVMFFIByteArray key = str_to_bytearray(name)
    cdef TVMFFIAny view
    cdef ArgStore store
    args_store_init(&store, 1)
    try:
        convert_arg(value, &view, &store)
        check_call(TVMFFITypeRegisterAttr(type_index, &key, &view))
    finally:
        args_store_release(&store)


import abc as _abc


class _ObjectSlotsMeta(_abc.ABCMeta):
    """Metaclass of Object: a subclass that does not declare ``__slots__`` gets
    ``__slots__ = ()``, so FFI objects carry no per-instance ``__dict__``
    (declare ``__slots__ = ("__dict__",)`` to have one). Deriving from ABCMeta lets a
    class mix Object with the collections.abc bases."""

    def __new__(mcs, name, bases, namespace, **kwargs):
        if "__slots__" not in namespace:
            namespace["__slots__"] = ()
        return super().__new__(mcs, name, bases, namespace, **kwargs)


class _AbcProbe(metaclass=_abc.ABCMeta):
    pass


cdef extern from *:
    """
    /* Makes meta the metaclass of type_obj, a class of this module whose metaclass is
       `type`; install_object_metaclass checks that meta's instances have the layout of
       type's (a Python subclass of ABCMeta adds no field). The _abc_impl that ABCMeta's
       __new__ would have set goes in first.
       Full API build: Cython's types are static, so setattr refuses them and _abc_impl
       goes into tp_dict; the reference taken on meta is never returned (static types are
       never freed, and the GC does not see them).
       Limited API build: Cython's types are mutable heap types (PyType_FromSpec), laid out
       as every class a metaclass makes. Such a type owns a reference to its metaclass: the
       dealloc and traverse it now gets from meta (subtype_dealloc/subtype_traverse) drop
       and visit it, so the reference taken here is the type's, and the one to the old
       metaclass is returned when that is a heap type (`type` is not). ob_type is a field of
       the stable ABI's PyObject; CPython's own __class__ assignment swaps it the same way. */
    static int tvm_ffi_py_set_metaclass(PyObject* type_obj, PyObject* meta, PyObject* abc_impl) {
      PyTypeObject* old = Py_TYPE(type_obj);
    #if defined(Py_LIMITED_API)
      if (PyObject_SetAttrString(type_obj, "_abc_impl", abc_impl) != 0) return -1;
    #else
      if (PyDict_SetItemString(((PyTypeObject*)type_obj)->tp_dict, "_abc_impl", abc_impl) != 0)
        return -1;
    #endif
      Py_INCREF(meta);
      Py_SET_TYPE(type_obj, (PyTypeObject*)meta);
      if (PyType_GetFlags(old) & Py_TPFLAGS_HEAPTYPE) Py_DECREF((PyObject*)old);
      PyType_Modified((PyTypeObject*)type_obj);
      return 0;
    }
    """
    int tvm_ffi_py_set_metaclass(object type_obj, object meta, object abc_impl) except -1


cdef int install_object_metaclass() except -1:
    # Object and its extension subclasses are created by Cython with metaclass `type`;
    # giving them _ObjectSlotsMeta makes every Python subclass go through it (both builds:
    # static types in the full API build, heap types in the abi3 build). The switch is only
    # sound between metaclasses whose instances have the same layout, which holds for a
    # Python subclass of ABCMeta (no __slots__) on every CPython this runs on; checked here.
    abc_data = type(_AbcProbe._abc_impl)
    for attr in ("__basicsize__", "__itemsize__", "__dictoffset__", "__weakrefoffset__"):
        if getattr(_ObjectSlotsMeta, attr) != getattr(type, attr):
            raise ImportError("tvm_ffi.core: _ObjectSlotsMeta's instances are not laid out "
                              "as those of type (%s differs)" % attr)
    for cls in (Object, CContainerBase, Function, Tensor):
        if type(cls) is not type:
            raise ImportError("tvm_ffi.core: %s already has metaclass %s"
                              % (cls.__name__, type(cls).__name__))
        tvm_ffi_py_set_metaclass(cls, _ObjectSlotsMeta, abc_data())
    return 0


cdef extern from "tvm_ffi_limited_api.h":
    object TVMFFIPyBoundMethod(object func, object self)


cdef extern from "tvm_ffi_method_descr.h":
    void* TVMFFIPyMethodDescrVectorcallPtr() noexcept


cdef class _MethodDescriptor:
    """An instance method of a reflected type: ``obj.name`` is a bound method calling the
    method's Function with obj first (no Python frame in between); read on the class it is
    this callable, taking ``(self, *args)``. Named like a function (``__name__``,
    ``__qualname__``, ``__module__``, ``__doc__`` are writable). ``obj.name(...)`` calls
    the Function without making the bound method (member_access.pxi)."""
    # First field: the vectorcall entry (tvm_ffi_method_descr.h lays the type out).
    cdef void* vectorcall
    cdef readonly object func
    cdef dict __dict__

    def __cinit__(self, *args):
        self.vectorcall = TVMFFIPyMethodDescrVectorcallPtr()

    def __init__(self, func):
        self.func = func

    def __get__(self, obj, objtype):
        if obj is None:
            return self
        return TVMFFIPyBoundMethod(self.func, obj)

    def __call__(self, *args):
        return self.func(*args)


cdef int init_handle(CObject obj, Function ffi_init, tuple args) except -1:
    """Construct obj (an empty handle) with the object ffi_init(*args) returns."""
    cdef TVMFFIAny result
    check_not_initialized(obj)
    function_call_raw(ffi_init, args, &result)
    if result.type_index < kTVMFFIStaticObjectBegin:
        release_any(&result)
        raise TypeError("constructor of %s did not return an object" % type(obj).__name__)
    if obj.chandle != NULL:
        # Constructed re-entrantly by the call itself: keep that one.
        release_any(&result)
        check_not_initialized(obj)
    obj.chandle = result.v_obj
    return 0


def _make_reflected_init(type_info, Function ffi_init, str cls_name, bint post_init):
    """The ``__init__`` that register_object installs: ``ffi_init(*args)``, or with keywords
    ``ffi_init(*args, KWARGS, name, value, ...)`` (values that are MISSING are dropped), then
    ``__post_init__()`` when post_init. Called on an instance of a class bound to another
    type (``super().__init__()`` from a registered subclass) it raises TypeError."""

    def __init__(self, *args, **kwargs):
        if type(self).__tvm_ffi_type_info__ is not type_info:
            raise TypeError(
                "Calling `super().__init__()` is not supported for @c_class `%s`. Use "
                "@py_class for inheritance with manual __init__, or define `%s` with "
                "init=True." % (cls_name, type(self).__name__))
        if not isinstance(self, CObject):
            raise TypeError("__init__ of %s expects a tvm_ffi.Object" % cls_name)
        if kwargs:
            call = list(args)
            call.append(KWARGS)
            for key, value in kwargs.items():
                if value is not MISSING:
                    call.append(key)
                    call.append(value)
            init_handle(<CObject>self, ffi_init, tuple(call))
        else:
            init_handle(<CObject>self, ffi_init, args)
        if post_init:
            self.__post_init__()

    return __init__
