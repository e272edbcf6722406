/*
 * Small C helpers of the tvm_ffi.core extension that are easier to write in C
 * than in Cython: deleters and hooks that native code calls without the GIL,
 * and direct access to object cells and tp_new slots.
 */
#ifndef TVM_FFI_PYTHON_HELPERS_H_
#define TVM_FFI_PYTHON_HELPERS_H_

#include <Python.h>
#include <tvm/ffi/c_api.h>

#include "tvm_ffi_layout.h"
#include "tvm_ffi_limited_api.h"

/* Safe to call from any thread, with or without the GIL. During interpreter
 * shutdown the reference is leaked on purpose: touching a finalized
 * interpreter would crash, and the process is exiting anyway. */
static void TVMFFIPyDecRefDeleter(void* handle) {
  if (!Py_IsInitialized() || TVMFFIPyIsFinalizing()) return;
#if !TVMFFI_PY_LIMITED_API
  /* Most references go with the GIL held (a callback's wrapper is released by the call that
   * made it): no GIL state round trip then. */
  if (PyGILState_Check()) {
    Py_DECREF((PyObject*)handle);
    return;
  }
#endif
  PyGILState_STATE state = PyGILState_Ensure();
  Py_DECREF((PyObject*)handle);
  PyGILState_Release(state);
}

/* Registered as "PyErr_CheckSignals": native loops call it without the GIL.
 * On a pending signal the Python exception stays set in this thread's state,
 * and the binding re-raises it when the native call returns. */
static int TVMFFIPyCheckSignals(void) {
  if (!Py_IsInitialized() || TVMFFIPyIsFinalizing()) return 0;
  PyGILState_STATE state = PyGILState_Ensure();
  int ret = PyErr_CheckSignals();
  PyGILState_Release(state);
  return ret;
}

/* Nested lists, tuples and dicts are converted recursively on the C stack.
 * Before 3.12 Py_EnterRecursiveCall counts against sys.getrecursionlimit();
 * from 3.12 on it uses a separate, much larger C limit that deep nesting of
 * our conversion frames can outrun, so the depth is also capped here (per
 * thread: Python code run mid-conversion may switch threads). */
#define TVMFFI_PY_MAX_NESTING 1000
static __thread int tvm_ffi_py_nesting_depth;

static int TVMFFIPyEnterNested(const char* where) {
  if (tvm_ffi_py_nesting_depth >= TVMFFI_PY_MAX_NESTING) {
    PyErr_Format(PyExc_RecursionError, "maximum nesting depth (%d) exceeded%s",
                 TVMFFI_PY_MAX_NESTING, where);
    return -1;
  }
  if (Py_EnterRecursiveCall(where) != 0) return -1;
  ++tvm_ffi_py_nesting_depth;
  return 0;
}

static void TVMFFIPyLeaveNested(void) {
  --tvm_ffi_py_nesting_depth;
  Py_LeaveRecursiveCall();
}

/* How many nested conversions this thread is inside (see TVMFFIPyEnterNested). */
static int TVMFFIPyNestingDepth(void) { return tvm_ffi_py_nesting_depth; }

static void* TVMFFIPyObjectCell(void* obj) { return (char*)obj + sizeof(TVMFFIObject); }

/* The Python wrapper of the FFI object handle, taking over the reference: an
 * instance of cls (a subclass of the extension type base) made by base's
 * tp_new, without __init__. A direct slot call (`base.__new__(cls)` in Cython
 * is a method lookup and call) with a kept empty tuple: every object result
 * and from_dlpack come here. NULL with the Python error set when it cannot be
 * made; the reference is dropped then, never leaked. */
static PyObject* TVMFFIPyWrapHandle(PyObject* base, PyObject* cls, TVMFFIObjectHandle handle) {
  static PyObject* no_args = NULL;
  if (no_args == NULL) no_args = PyTuple_New(0);
  PyObject* out = no_args == NULL
                      ? NULL
                      : TVMFFIPyTypeNewSlot((PyTypeObject*)base)((PyTypeObject*)cls, no_args, NULL);
  if (out == NULL) {
    TVMFFIObjectDecRef(handle);
    return NULL;
  }
  ((TVMFFIPyObjectLayout*)out)->chandle = handle;
  return out;
}

#endif  // TVM_FFI_PYTHON_HELPERS_H_
