# The conversion callback of py_class field setters (ffi.MakeFieldSetter): the runtime calls it
# with the field's converter (a _PyClassFieldConverter kept alive by the class) before it stores
# a value, whoever assigns the field (Python, C++ or the generated __ffi_init__).

cdef extern from "tvm_ffi_py_class_convert.h" nogil:
    enum:
        kTVMFFIPyClassFastNone
        kTVMFFIPyClassFastInt
        kTVMFFIPyClassFastFloat
        kTVMFFIPyClassFastBool
        kTVMFFIPyClassFastStr
        kTVMFFIPyClassFastObject

    ctypedef struct TVMFFIPyClassFieldPlan:
        int32_t fast
        int32_t optional
        int32_t obj_index
        int32_t obj_depth
        void* owner

    int TVMFFIPyClassFastConvert(const TVMFFIPyClassFieldPlan* plan, const TVMFFIAny* value,
                                 TVMFFIAny* result) noexcept


cdef class _PyClassFieldConverter:
    """The converter of one py_class field, built once per field: a native plan that settles
    the common values in C, and the field's TypeSchema converter for everything else.
    ``fast`` names the plan (``"int"``, ``"float"``, ``"bool"``, ``"str"``, ``"object"`` or
    None); ``optional`` says whether None is accepted natively."""
    cdef TVMFFIPyClassFieldPlan plan
    cdef readonly object slow

    def __init__(self, slow, fast, bint optional, int32_t obj_index=-1):
        cdef const TVMFFITypeInfo* info
        codes = {None: kTVMFFIPyClassFastNone, "int": kTVMFFIPyClassFastInt,
                 "float": kTVMFFIPyClassFastFloat, "bool": kTVMFFIPyClassFastBool,
                 "str": kTVMFFIPyClassFastStr, "object": kTVMFFIPyClassFastObject}
        if fast not in codes:
            raise ValueError("unknown fast conversion %r" % (fast,))
        self.plan.fast = codes[fast]
        self.plan.optional = optional
        self.plan.obj_index = obj_index
        self.plan.obj_depth = 0
        self.plan.owner = <void*>self
        if fast == "object":
            info = TVMFFIGetTypeInfo(obj_index) if obj_index >= kTVMFFIStaticObjectBegin else NULL
            if info == NULL:
                raise ValueError("type index %d is not a registered object type" % obj_index)
            self.plan.obj_depth = info.type_depth
        self.slow = slow

    @property
    def fast(self):
        return {kTVMFFIPyClassFastInt: "int", kTVMFFIPyClassFastFloat: "float",
                kTVMFFIPyClassFastBool: "bool", kTVMFFIPyClassFastStr: "str",
                kTVMFFIPyClassFastObject: "object"}.get(self.plan.fast)

    @property
    def optional(self):
        return self.plan.optional != 0

    @property
    def address(self):
        """The address passed to ffi.MakeFieldSetter as the converter."""
        return <int64_t><void*>&self.plan

    def __call__(self, value):
        """The converted value of ``value`` (as the setter would store it), as a CAny."""
        cdef TVMFFIAny view
        cdef CAny out = CAny.__new__(CAny)
        cdef ArgStore store
        args_store_init(&store, 1)
        try:
            convert_arg(value, &view, &store)
            check_call(py_class_field_convert(&self.plan, &view, &out.value))
        finally:
            args_store_release(&store)
        return out


cdef int py_class_field_convert_slow(void* converter, const TVMFFIAny* value,
                                     TVMFFIAny* result) noexcept with gil:
    try:
        owner = <_PyClassFieldConverter>((<TVMFFIPyClassFieldPlan*>converter).owner)
        converted = owner.slow(any_view_to_py(value))
        if type(converted) is CAny:
            # The converter's own result (TypeSchema.convert): share it, no second conversion.
            check_call(TVMFFIAnyViewToOwnedAny(&(<CAny>converted).value, result))
        else:
            py_to_owned_any(converted, result)
        return 0
    except BaseException as exc:  # reported to the runtime as the raised error
        set_raised_from_py_exception(exc)
        return -1


cdef int py_class_field_convert(void* converter, const TVMFFIAny* value,
                                TVMFFIAny* result) noexcept nogil:
    cdef int rc = TVMFFIPyClassFastConvert(<TVMFFIPyClassFieldPlan*>converter, value, result)
    if rc > 0:
        return 0
    if rc < 0:
        return -1
    return py_class_field_convert_slow(converter, value, result)


def _py_class_field_convert_addr():
    """Address of the conversion callback passed to ffi.MakeFieldSetter."""
    return <int64_t><void*>py_class_field_convert


cdef extern from *:
    """
    /* The __get__ slot of py_class field properties (property subclasses whose instances
       keep their _PyClassFieldReader in a __slots__ member at a fixed offset): reads the
       native slot directly instead of property.__get__ calling fget. Heap types of the
       limited API cannot take a slot this way; they keep property's own __get__. */
    #include <structmember.h>
    typedef PyObject* (*tvm_ffi_py_class_read_impl)(PyObject* reader, PyObject* obj);
    static tvm_ffi_py_class_read_impl tvm_ffi_py_class_read = NULL;
    static Py_ssize_t tvm_ffi_py_class_reader_offset = 0;

    static PyObject* tvm_ffi_py_class_descr_get(PyObject* self, PyObject* obj, PyObject* type) {
      (void)type;
      if (obj == NULL || obj == Py_None) {
        Py_INCREF(self);
        return self;
      }
      PyObject* reader = *(PyObject**)((char*)self + tvm_ffi_py_class_reader_offset);
      if (reader == NULL) {
        PyErr_SetString(PyExc_AttributeError, "py_class field property has no reader");
        return NULL;
      }
      return tvm_ffi_py_class_read(reader, obj);
    }

    static int tvm_ffi_py_class_enable_fast_get(PyObject* type_obj, PyObject* member,
                                                void* read_impl) {
    #if !defined(Py_LIMITED_API)
      PyTypeObject* type = (PyTypeObject*)type_obj;
      if (Py_TYPE(member) != &PyMemberDescr_Type) return 0;
      Py_ssize_t offset = ((PyMemberDescrObject*)member)->d_member->offset;
      /* One offset serves every such class (they all extend FFIProperty by this one slot). */
      if (tvm_ffi_py_class_reader_offset != 0 && tvm_ffi_py_class_reader_offset != offset) {
        return 0;
      }
      tvm_ffi_py_class_read = (tvm_ffi_py_class_read_impl)read_impl;
      tvm_ffi_py_class_reader_offset = offset;
      type->tp_descr_get = tvm_ffi_py_class_descr_get;
      PyType_Modified(type);
      return 1;
    #else
      (void)type_obj; (void)member; (void)read_impl;
      return 0;
    #endif
    }
    """
    int tvm_ffi_py_class_enable_fast_get(object type_obj, object member,
                                         void* read_impl) noexcept


cdef class _PyClassFieldReader:
    """Reads one py_class field from its native slot: int, float and bool storage directly,
    other storage through the field's C getter (``getter``, the property's fget), which also
    reports a wrong or empty object."""
    cdef int64_t kind
    cdef int64_t offset
    cdef int32_t type_index
    cdef int32_t type_depth
    cdef TVMFFIFieldGetter c_getter
    cdef readonly object getter

    def __init__(self, FieldGetter getter, int64_t kind):
        self.getter = getter
        self.kind = kind
        self.offset = getter.offset
        self.type_index = getter.type_index
        self.type_depth = getter.type_depth
        self.c_getter = getter.c_getter

    def __call__(self, obj):
        return py_class_read_impl(self, obj)


cdef object py_class_read_impl(object self_obj, object obj):
    cdef _PyClassFieldReader self
    cdef TVMFFIObject* header
    cdef char* addr
    cdef TVMFFIAny result
    if type(self_obj) is not _PyClassFieldReader:
        raise TypeError("a py_class field reader is a _PyClassFieldReader, got %s"
                        % type(self_obj).__name__)
    self = <_PyClassFieldReader>self_obj
    if not isinstance(obj, Object):
        return field_get_impl(self.getter, obj)
    header = <TVMFFIObject*>(<Object>obj).chandle
    if header == NULL:
        return field_get_impl(self.getter, obj)
    if header.type_index != self.type_index:
        check_field_owner(header, self.type_index, self.type_depth,
                          getattr(self.getter, "__name__", None))
    addr = <char*>header + self.offset
    if self.kind == kTVMFFIInt:
        return (<int64_t*>addr)[0]
    if self.kind == kTVMFFIFloat:
        return (<double*>addr)[0]
    if self.kind == kTVMFFIBool:
        return (<uint8_t*>addr)[0] != 0
    result.type_index = kTVMFFINone
    result.zero_padding = 0
    result.v_int64 = 0
    check_call(self.c_getter(addr, &result))
    return any_to_py_owned(&result)


def _enable_py_class_fast_get(type prop_cls):
    """Give a property subclass with a ``_reader`` slot the native __get__ (False under the
    limited API, where the class keeps property's own)."""
    return tvm_ffi_py_class_enable_fast_get(prop_cls, prop_cls.__dict__["_reader"],
                                            <void*>py_class_read_impl) != 0
