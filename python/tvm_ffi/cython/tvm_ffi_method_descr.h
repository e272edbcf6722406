/*
 * The call path of tvm_ffi.core._MethodDescriptor (object.pxi), the class
 * member of a reflected instance method.
 *
 * The type is flagged as a method descriptor (Py_TPFLAGS_METHOD_DESCRIPTOR),
 * so `obj.name(...)` does not make a bound method: the interpreter calls the
 * descriptor with obj prepended, and this vectorcall hands that argument
 * array unchanged to the method's Function. Reading `obj.name` without a call
 * still gives a bound method (the descriptor's __get__). The stable ABI
 * cannot set a type's flags or vectorcall offset, so a limited API (abi3)
 * build keeps the bound-method path.
 */
#ifndef TVM_FFI_PYTHON_METHOD_DESCR_H_
#define TVM_FFI_PYTHON_METHOD_DESCR_H_

#include <Python.h>
#include <stddef.h>

#include "tvm_ffi_limited_api.h"
#include "tvm_ffi_vectorcall.h"

/* _MethodDescriptor as Cython lays it out (no cdef methods, so no method
 * table); object.pxi checks this at import. */
typedef struct TVMFFIPyMethodDescrLayout {
  PyObject_HEAD vectorcallfunc vectorcall;
  PyObject* func;
} TVMFFIPyMethodDescrLayout;

/* Set once by TVMFFIPyEnableMethodDescr. */
static PyTypeObject* tvm_ffi_py_method_function_type = NULL;

static PyObject* TVMFFIPyMethodDescrVectorcall(PyObject* self, PyObject* const* args, size_t nargsf,
                                               PyObject* kwnames) {
  PyObject* func = ((TVMFFIPyMethodDescrLayout*)self)->func;
  if (PyObject_TypeCheck(func, tvm_ffi_py_method_function_type)) {
    return TVMFFIPyFunctionVectorcall(func, args, nargsf, kwnames);
  }
  return PyObject_Vectorcall(func, args, nargsf, kwnames);
}

static void* TVMFFIPyMethodDescrVectorcallPtr(void) { return (void*)TVMFFIPyMethodDescrVectorcall; }

static inline Py_ssize_t TVMFFIPyMethodDescrVectorcallOffset(void) {
  return (Py_ssize_t)offsetof(TVMFFIPyMethodDescrLayout, vectorcall);
}

static inline Py_ssize_t TVMFFIPyMethodDescrFuncOffset(void) {
  return (Py_ssize_t)offsetof(TVMFFIPyMethodDescrLayout, func);
}

/* Turns the call path on for `type_obj` (_MethodDescriptor), at import before
 * any instance exists; function_type is tvm_ffi.Function. */
static void TVMFFIPyEnableMethodDescr(PyObject* type_obj, PyObject* function_type) {
  tvm_ffi_py_method_function_type = (PyTypeObject*)function_type;
#if TVMFFI_PY_LIMITED_API
  (void)type_obj;
#else
  PyTypeObject* type = (PyTypeObject*)type_obj;
  type->tp_vectorcall_offset = TVMFFIPyMethodDescrVectorcallOffset();
  type->tp_flags |= Py_TPFLAGS_HAVE_VECTORCALL | Py_TPFLAGS_METHOD_DESCRIPTOR;
  PyType_Modified(type);
#endif
}

#endif  // TVM_FFI_PYTHON_METHOD_DESCR_H_
