# The C paths of reflected members: FFIProperty's field reads (tvm_ffi_field_property.h)
# and calls of reflected methods without a bound method (tvm_ffi_method_descr.h).

cdef extern from "tvm_ffi_field_property.h":
    void TVMFFIPyFieldPropertyBind(object prop, TVMFFIFieldGetter getter, int64_t offset,
                                   int32_t type_index, int32_t type_depth,
                                   int32_t kind) noexcept
    void TVMFFIPyFieldPropertyBindSetter(object prop, TVMFFIFieldSetter setter) noexcept
    void TVMFFIPyFieldPropertySetOwner(object prop, object owner) noexcept
    bint TVMFFIPyFieldPropertyIsBound(object prop) noexcept
    object TVMFFIPyFieldPropertyTypeCreate()


cdef extern from "tvm_ffi_method_descr.h":
    Py_ssize_t TVMFFIPyMethodDescrVectorcallOffset() noexcept
    Py_ssize_t TVMFFIPyMethodDescrFuncOffset() noexcept
    void TVMFFIPyEnableMethodDescr(object type_obj, object function_type) noexcept


# The base of FFIProperty (a subclass of property).
_FieldProperty = TVMFFIPyFieldPropertyTypeCreate()


def _bind_field_property(prop, fget, fset=None):
    """Make reads of prop (a _FieldProperty) take the C path when fget is a FieldGetter;
    returns whether it did. Other fget keep property's own path (a call of fget). Writes
    take the C path too when fset is a FieldSetter calling a C setter (not a Function);
    pass None for a frozen field, whose assignment must keep failing."""
    cdef FieldGetter getter
    cdef FieldSetter setter
    if not isinstance(prop, _FieldProperty):
        raise TypeError("_bind_field_property expects a _FieldProperty, got %s"
                        % type(prop).__name__)
    if type(fget) is not FieldGetter:
        return False
    getter = <FieldGetter>fget
    TVMFFIPyFieldPropertyBind(prop, getter.c_getter, getter.offset, getter.type_index,
                              getter.type_depth, getter.read_kind)
    if type(fset) is FieldSetter:
        setter = <FieldSetter>fset
        # The C path checks the object against the getter's declaring type.
        if (setter.c_setter != NULL and not setter.setter_is_function
                and setter.type_index == getter.type_index and setter.offset == getter.offset):
            TVMFFIPyFieldPropertyBindSetter(prop, <TVMFFIFieldSetter>setter.c_setter)
    return True


def _set_field_property_owner(prop, owner):
    """Tell prop (a bound _FieldProperty) the class it is installed on, owner (a subclass
    of tvm_ffi.Object): reads and writes of instances of exactly that class then skip the
    check that the object is a tvm_ffi.Object. Returns whether it did; an unbound property
    keeps reading through its fget and ignores owner."""
    if not isinstance(prop, _FieldProperty):
        raise TypeError("_set_field_property_owner expects a _FieldProperty, got %s"
                        % type(prop).__name__)
    if not isinstance(owner, type) or not issubclass(owner, CObject):
        raise TypeError("_set_field_property_owner expects a subclass of tvm_ffi.Object, got %r"
                        % (owner,))
    if not TVMFFIPyFieldPropertyIsBound(prop):
        return False
    TVMFFIPyFieldPropertySetOwner(prop, owner)
    return True


cdef int enable_method_descr() except -1:
    # The C path reads _MethodDescriptor through its struct in tvm_ffi_method_descr.h:
    # check that Cython laid the class out that way.
    cdef _MethodDescriptor probe = _MethodDescriptor.__new__(_MethodDescriptor)
    cdef char* base = <char*><PyObject*>probe
    marker = object()
    probe.func = marker
    if (<char*>&probe.vectorcall - base != TVMFFIPyMethodDescrVectorcallOffset()
            or (<PyObject**>(base + TVMFFIPyMethodDescrFuncOffset()))[0]
            != <PyObject*>marker):
        raise ImportError("tvm_ffi.core: the layout of _MethodDescriptor differs from "
                          "tvm_ffi_method_descr.h")
    TVMFFIPyEnableMethodDescr(_MethodDescriptor, Function)
    return 0


enable_method_descr()
