/*
 * Plain Python values as TVMFFIAny cells and back, in C: an exact int within
 * int64, float, bool, None, and strings or bytes short enough to live in the
 * cell (SmallStr, SmallBytes). Shared by the call fast path
 * (tvm_ffi_vectorcall.h), the Array builder of lists (tvm_ffi_array_builder.h),
 * callbacks and field writes, which must convert these alike.
 */
#ifndef TVM_FFI_PYTHON_PLAIN_VALUES_H_
#define TVM_FFI_PYTHON_PLAIN_VALUES_H_

#include <Python.h>
#include <tvm/ffi/c_api.h>

#include <string.h>

#include "tvm_ffi_limited_api.h"

/* Packs an exact int (within int64), float, bool or None into *out: 0 if
 * packed, 1 for any other value (an int beyond int64 included). Shared by the
 * call path and the field write path, which must convert these alike. */
static inline int TVMFFIPyScalarArg(PyObject* x, TVMFFIAny* out) {
  PyTypeObject* t = Py_TYPE(x);
  out->zero_padding = 0;
  if (t == &PyLong_Type) {
    int overflow = 0;
    long long v = PyLong_AsLongLongAndOverflow(x, &overflow);
    if (overflow != 0) return 1;
    out->type_index = kTVMFFIInt;
    out->v_int64 = v;
    return 0;
  }
  if (t == &PyFloat_Type) {
    out->type_index = kTVMFFIFloat;
    out->v_float64 = PyFloat_AS_DOUBLE(x);
    return 0;
  }
  if (x == Py_None || t == &PyBool_Type) {
    out->type_index = x == Py_None ? kTVMFFINone : kTVMFFIBool;
    out->v_int64 = x == Py_True;
    return 0;
  }
  return 1;
}

/* A SmallStr or SmallBytes (index) holding its size <= 7 bytes inline: no
 * allocation, and a callee's type check names it `ffi.SmallStr` / `ffi.SmallBytes`. */
static inline void TVMFFIPySmallArg(int32_t index, const char* data, Py_ssize_t size,
                                    TVMFFIAny* out) {
  out->type_index = index;
  out->small_str_len = (uint32_t)size;
  out->v_int64 = 0;
  memcpy(out->v_bytes, data, (size_t)size);
}

/* Whether a cell holds a value TVMFFIPyPlainToPy converts. */
static inline int TVMFFIPyIsPlainCell(int32_t type_index) {
  return type_index == kTVMFFINone || type_index == kTVMFFIInt || type_index == kTVMFFIBool ||
         type_index == kTVMFFIFloat || type_index == kTVMFFISmallStr;
}

/* The Python value of a plain cell (TVMFFIPyIsPlainCell): a new reference, or
 * NULL with a Python error. */
static inline PyObject* TVMFFIPyPlainToPy(const TVMFFIAny* value) {
  switch (value->type_index) {
    case kTVMFFINone:
      Py_RETURN_NONE;
    case kTVMFFIInt:
      return PyLong_FromLongLong(value->v_int64);
    case kTVMFFIBool:
      return PyBool_FromLong(value->v_int64 != 0);
    case kTVMFFIFloat:
      return PyFloat_FromDouble(value->v_float64);
    case kTVMFFISmallStr:
      return PyUnicode_DecodeUTF8(value->v_bytes, (Py_ssize_t)value->small_str_len, "replace");
    default:
      PyErr_Format(PyExc_SystemError, "tvm_ffi: type index %d is not a plain value",
                   (int)value->type_index);
      return NULL;
  }
}

#endif  // TVM_FFI_PYTHON_PLAIN_VALUES_H_
