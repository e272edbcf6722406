/*
 * The C layout of the tvm_ffi.core.CObject and tvm_ffi.Function instances, declared
 * once here and shared by the C call path (tvm_ffi_vectorcall.h, the exchange
 * API in tvm_ffi_dlpack_exchange.h) and the Cython classes: Function keeps its
 * call state in one TVMFFIPyFunctionState field, and function.pxi checks at
 * import that Cython laid both classes out as declared here (so the C code
 * reads fields through these structs, never through offsets found at run time).
 */
#ifndef TVM_FFI_PYTHON_LAYOUT_H_
#define TVM_FFI_PYTHON_LAYOUT_H_

#include <Python.h>
#include <stddef.h>
#include <stdint.h>

/* tvm_ffi.core.CObject (the base of Object, Function and Tensor): Cython puts its
 * method table first (CObject has cdef methods), then the declared fields in order. */
typedef struct TVMFFIPyObjectLayout {
  PyObject_HEAD void* vtab;
  void* chandle;
} TVMFFIPyObjectLayout;

/* What a call of a tvm_ffi.Function needs besides the handle. */
typedef struct TVMFFIPyFunctionState {
  /* The vectorcall entry point; the type's tp_vectorcall_offset points here. */
  vectorcallfunc vectorcall;
  /* Release the GIL around the native call. */
  int release_gil;
  /* Whether view_mask has been read from the function's type schema. */
  int view_known;
  /* Bit i: argument i is declared DLTensor* (TensorView), so tensors go as views. */
  uint64_t view_mask;
} TVMFFIPyFunctionState;

/* tvm_ffi.Function (a subclass of Object without methods of its own in C). */
typedef struct TVMFFIPyFunctionLayout {
  TVMFFIPyObjectLayout base;
  TVMFFIPyFunctionState state;
} TVMFFIPyFunctionLayout;

static inline void* TVMFFIPyObjectHandle(PyObject* obj) {
  return ((TVMFFIPyObjectLayout*)obj)->chandle;
}

static inline TVMFFIPyFunctionState* TVMFFIPyFunctionStateOf(PyObject* func) {
  return &((TVMFFIPyFunctionLayout*)func)->state;
}

/* Defaults of a new Function: release the GIL, schema not read yet. */
static inline void TVMFFIPyFunctionStateInit(TVMFFIPyFunctionState* state, void* vectorcall) {
  state->vectorcall = (vectorcallfunc)vectorcall;
  state->release_gil = 1;
  state->view_known = 0;
  state->view_mask = 0;
}

static inline Py_ssize_t TVMFFIPyObjectHandleOffset(void) {
  return (Py_ssize_t)offsetof(TVMFFIPyObjectLayout, chandle);
}

static inline Py_ssize_t TVMFFIPyFunctionStateOffset(void) {
  return (Py_ssize_t)offsetof(TVMFFIPyFunctionLayout, state);
}

#endif  // TVM_FFI_PYTHON_LAYOUT_H_
