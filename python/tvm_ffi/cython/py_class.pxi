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
