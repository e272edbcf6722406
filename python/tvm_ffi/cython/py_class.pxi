# The conversion callback of py_class field setters (ffi.MakeFieldSetter): the runtime calls it
# with the field's converter (a Python callable kept alive by the class) before it stores a
# value, whoever assigns the field (Python, C++ or the generated __ffi_init__).

cdef int py_class_field_convert(void* converter, const TVMFFIAny* value,
                                TVMFFIAny* result) noexcept with gil:
    try:
        converted = (<object>converter)(any_view_to_py(value))
        if type(converted) is CAny:
            # The converter's own result (TypeSchema.convert): share it, no second conversion.
            check_call(TVMFFIAnyViewToOwnedAny(&(<CAny>converted).value, result))
        else:
            py_to_owned_any(converted, result)
        return 0
    except BaseException as exc:  # reported to the runtime as the raised error
        set_raised_from_py_exception(exc)
        return -1


def _py_class_field_convert_addr():
    """Address of the conversion callback passed to ffi.MakeFieldSetter."""
    return <int64_t><void*>py_class_field_convert
