/*
 * Small C helpers of the tvm_ffi.core extension that are easier to write in C
 * than in Cython: code that must run without the GIL held on entry.
 */
#ifndef TVM_FFI_PYTHON_HELPERS_H_
#define TVM_FFI_PYTHON_HELPERS_H_

#include <Python.h>
#include <tvm/ffi/c_api.h>

/* Safe to call from any thread, with or without the GIL. During interpreter
 * shutdown the reference is leaked on purpose: touching a finalized
 * interpreter would crash, and the process is exiting anyway. */
static void TVMFFIPyDecRefDeleter(void* handle) {
  if (!Py_IsInitialized() || _Py_IsFinalizing()) return;
  PyGILState_STATE state = PyGILState_Ensure();
  Py_DECREF((PyObject*)handle);
  PyGILState_Release(state);
}

/* Registered as "PyErr_CheckSignals": native loops call it without the GIL.
 * On a pending signal the Python exception stays set in this thread's state,
 * and the binding re-raises it when the native call returns. */
static int TVMFFIPyCheckSignals(void) {
  if (!Py_IsInitialized() || _Py_IsFinalizing()) return 0;
  PyGILState_STATE state = PyGILState_Ensure();
  int ret = PyErr_CheckSignals();
  PyGILState_Release(state);
  return ret;
}

static void* TVMFFIPyObjectCell(void* obj) { return (char*)obj + sizeof(TVMFFIObject); }

/* An instance of cls (a subclass of the extension type base) made by base's
 * tp_new, without __init__: how FFI objects get their Python wrapper. A direct
 * slot call; `base.__new__(cls)` in Cython is a method lookup and call. */
static PyObject* TVMFFIPyNewInstance(PyObject* base, PyObject* cls) {
  PyObject* no_args = PyTuple_New(0); /* the interpreter's shared empty tuple */
  if (no_args == NULL) return NULL;
  PyObject* out = ((PyTypeObject*)base)->tp_new((PyTypeObject*)cls, no_args, NULL);
  Py_DECREF(no_args);
  return out;
}

/* The items of a tuple as an array, so tuple calls share the vectorcall path. */
static PyObject** TVMFFIPyTupleItems(PyObject* tuple) {
  return ((PyTupleObject*)tuple)->ob_item;
}

/* Vectorcall for tvm_ffi.Function. Cython (3.3) generates vectorcall only for
 * constructors, so the entry point lives here: it rejects keywords and hands
 * the argument array to the Cython implementation (set once at module init),
 * which converts the items in place — no argument tuple is built per call. */
typedef PyObject* (*TVMFFIPyCallImpl)(PyObject* self, PyObject** args, Py_ssize_t nargs);
static TVMFFIPyCallImpl tvm_ffi_py_call_impl = NULL;

static PyObject* TVMFFIPyFunctionVectorcall(PyObject* self, PyObject* const* args, size_t nargsf,
                                            PyObject* kwnames) {
  if (kwnames != NULL && PyTuple_GET_SIZE(kwnames) != 0) {
    PyErr_Format(PyExc_TypeError,
                 "tvm_ffi.Function takes positional arguments only, got keyword argument '%U'",
                 PyTuple_GET_ITEM(kwnames, 0));
    return NULL;
  }
  return tvm_ffi_py_call_impl(self, (PyObject**)args, PyVectorcall_NARGS(nargsf));
}

static void* TVMFFIPyFunctionVectorcallPtr(void) { return (void*)TVMFFIPyFunctionVectorcall; }

/* Turns vectorcall on for `type`, whose instances keep the entry point at
 * `offset` (each instance stores TVMFFIPyFunctionVectorcallPtr() there).
 * Done once at import, before any instance or subclass exists. */
static void TVMFFIPyEnableVectorcall(PyObject* type_obj, Py_ssize_t offset, void* impl) {
  PyTypeObject* type = (PyTypeObject*)type_obj;
  tvm_ffi_py_call_impl = (TVMFFIPyCallImpl)impl;
  type->tp_vectorcall_offset = offset;
  type->tp_flags |= Py_TPFLAGS_HAVE_VECTORCALL;
  PyType_Modified(type);
}

#endif  // TVM_FFI_PYTHON_HELPERS_H_
