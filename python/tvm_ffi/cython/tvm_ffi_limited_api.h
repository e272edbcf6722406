/*
 * What the tvm_ffi.core extension needs from CPython beyond the stable ABI,
 * with a stable-ABI fallback for each. The extension is normally built against
 * the full C API of one Python version; built with Py_LIMITED_API (CMake option
 * TVM_FFI_PYTHON_LIMITED_API, the abi3 wheel) one binary serves CPython 3.12
 * and every later version. Every name here maps to the direct macro or slot
 * read under the full API and to a function call of the stable ABI otherwise,
 * so the rest of the helpers and the .pxi code are written once for both.
 *
 * The limited build gives up two fast paths (see docs/python_abi3.md):
 * tvm_ffi.Function is called through tp_call (the interpreter makes an
 * argument tuple) because a type's vectorcall offset cannot be set from the
 * stable ABI, and tuple arguments are copied to an array before conversion.
 */
#ifndef TVM_FFI_PYTHON_LIMITED_API_H_
#define TVM_FFI_PYTHON_LIMITED_API_H_

#include <Python.h>
#include <stdio.h>
#include <string.h>

#ifdef Py_LIMITED_API
#if Py_LIMITED_API + 0 < 0x030C0000
#error "the stable-ABI build of tvm_ffi.core needs Py_LIMITED_API >= 0x030C0000 (3.12)"
#endif
#include <dlfcn.h>
#define TVMFFI_PY_LIMITED_API 1
#else
#define TVMFFI_PY_LIMITED_API 0
#endif

#if TVMFFI_PY_LIMITED_API
/* Macros of the full API the .pxi code calls: their checked function forms. */
#define PyFloat_AS_DOUBLE(x) PyFloat_AsDouble(x)
#define PyTuple_GET_SIZE(t) PyTuple_Size(t)
#define PyTuple_GET_ITEM(t, i) PyTuple_GetItem(t, i)
#define PyList_GET_SIZE(l) PyList_Size(l)
#define PyList_GET_ITEM(l, i) PyList_GetItem(l, i)
#define PyTuple_SET_ITEM(t, i, v) ((void)PyTuple_SetItem(t, i, v))
#define PyBytes_AS_STRING(b) PyBytes_AsString(b)
#define PyBytes_GET_SIZE(b) PyBytes_Size(b)
#define PyByteArray_AS_STRING(b) PyByteArray_AsString(b)
#define PyByteArray_GET_SIZE(b) PyByteArray_Size(b)
#define PyMemoryView_GET_BUFFER(m) TVMFFIPyMemoryViewBuffer(m)

/* The buffer a memoryview holds. The stable ABI has no accessor, but a
 * memoryview exports its own buffer (the same pointers, owned by the view), so
 * the export is released at once and the fields stay valid while the
 * memoryview lives. Per thread; read before the next call in that thread. */
static Py_buffer* TVMFFIPyMemoryViewBuffer(PyObject* mview) {
  static __thread Py_buffer buf;
  if (PyObject_GetBuffer(mview, &buf, PyBUF_RECORDS_RO) != 0) {
    /* Not a memoryview of records: report no dimensions and no format. */
    PyErr_Clear();
    memset(&buf, 0, sizeof(buf));
    buf.format = (char*)"";
    buf.itemsize = 1;
    return &buf;
  }
  PyBuffer_Release(&buf);
  return &buf;
}
#endif

/* The tp_new slot of an extension type. */
static inline newfunc TVMFFIPyTypeNewSlot(PyTypeObject* type) {
#if TVMFFI_PY_LIMITED_API
  return (newfunc)PyType_GetSlot(type, Py_tp_new);
#else
  return type->tp_new;
#endif
}

/* The name of a type as error messages print it (tp_name). Under the limited
 * API it is rebuilt from __module__ and __qualname__ in one of a few per-thread
 * buffers, enough for the names of one message. */
static const char* TVMFFIPyTypeName(PyTypeObject* type) {
#if TVMFFI_PY_LIMITED_API
  enum { kSlots = 4, kSize = 256 };
  static __thread char names[kSlots][kSize];
  static __thread int next;
  char* out = names[next];
  next = (next + 1) % kSlots;
  snprintf(out, kSize, "?");
  PyObject* exc = PyErr_GetRaisedException();
  /* Classes of Python code keep the bare name (tp_name is __name__ for them). */
  int heap = (PyType_GetFlags(type) & Py_TPFLAGS_HEAPTYPE) != 0;
  PyObject* name = heap ? PyType_GetName(type) : PyType_GetQualName(type);
  PyObject* module = heap ? NULL : PyObject_GetAttrString((PyObject*)type, "__module__");
  const char* name_c = name == NULL ? NULL : PyUnicode_AsUTF8AndSize(name, NULL);
  const char* module_c =
      module == NULL || !PyUnicode_Check(module) ? NULL : PyUnicode_AsUTF8AndSize(module, NULL);
  if (name_c != NULL && module_c != NULL && strcmp(module_c, "builtins") != 0) {
    snprintf(out, kSize, "%s.%s", module_c, name_c);
  } else if (name_c != NULL) {
    snprintf(out, kSize, "%s", name_c);
  }
  Py_XDECREF(name);
  Py_XDECREF(module);
  PyErr_Clear();
  PyErr_SetRaisedException(exc);
  return out;
#else
  return type->tp_name;
#endif
}

/* Whether the interpreter is shutting down (objects must not be touched).
 * CPython 3.13 made Py_IsFinalizing public and removed _Py_IsFinalizing; the
 * limited build finds whichever the running interpreter exports. */
#if TVMFFI_PY_LIMITED_API
typedef int (*TVMFFIPyIsFinalizingFn)(void);

static int TVMFFIPyNeverFinalizing(void) { return 0; }

static int TVMFFIPyIsFinalizing(void) {
  static TVMFFIPyIsFinalizingFn fn = NULL;
  TVMFFIPyIsFinalizingFn f = __atomic_load_n(&fn, __ATOMIC_ACQUIRE);
  if (f == NULL) {
    f = (TVMFFIPyIsFinalizingFn)dlsym(RTLD_DEFAULT, "Py_IsFinalizing");
    if (f == NULL) f = (TVMFFIPyIsFinalizingFn)dlsym(RTLD_DEFAULT, "_Py_IsFinalizing");
    if (f == NULL) f = TVMFFIPyNeverFinalizing;
    __atomic_store_n(&fn, f, __ATOMIC_RELEASE);
  }
  return f();
}
#elif PY_VERSION_HEX >= 0x030D0000
#define TVMFFIPyIsFinalizing() Py_IsFinalizing()
#else
#define TVMFFIPyIsFinalizing() _Py_IsFinalizing()
#endif

/* The items of a tuple as an array of borrowed references: the tuple's own
 * storage under the full API, a copy (on the stack up to kTVMFFIPyTupleInline
 * items) under the limited API. Release after the last use of data. */
enum { kTVMFFIPyTupleInline = 8 };

typedef struct TVMFFIPyTupleItemsView {
  PyObject** data;
  Py_ssize_t size;
  PyObject* inline_items[kTVMFFIPyTupleInline];
} TVMFFIPyTupleItemsView;

/* 0, or -1 with a Python error (out of memory). */
static inline int TVMFFIPyTupleItemsAcquire(TVMFFIPyTupleItemsView* view, PyObject* tuple) {
#if TVMFFI_PY_LIMITED_API
  Py_ssize_t n = PyTuple_Size(tuple);
  if (n < 0) return -1;
  view->size = n;
  view->data = view->inline_items;
  if (n > kTVMFFIPyTupleInline) {
    view->data = (PyObject**)PyMem_Malloc((size_t)n * sizeof(PyObject*));
    if (view->data == NULL) {
      PyErr_NoMemory();
      return -1;
    }
  }
  for (Py_ssize_t i = 0; i < n; ++i) view->data[i] = PyTuple_GetItem(tuple, i);
#else
  view->size = PyTuple_GET_SIZE(tuple);
  view->data = ((PyTupleObject*)tuple)->ob_item;
#endif
  return 0;
}

static inline void TVMFFIPyTupleItemsRelease(TVMFFIPyTupleItemsView* view) {
#if TVMFFI_PY_LIMITED_API
  if (view->data != view->inline_items) PyMem_Free(view->data);
#endif
  view->data = NULL;
}

/*! \brief A bound method of func on self; the limited API has no PyMethod_New, so it calls
 *  types.MethodType (looked up once) there. Returns a new reference or NULL with an error set. */
static inline PyObject* TVMFFIPyBoundMethod(PyObject* func, PyObject* self) {
#if TVMFFI_PY_LIMITED_API
  static PyObject* method_type = NULL;
  if (method_type == NULL) {
    PyObject* types = PyImport_ImportModule("types");
    if (types == NULL) return NULL;
    method_type = PyObject_GetAttrString(types, "MethodType");
    Py_DECREF(types);
    if (method_type == NULL) return NULL;
  }
  return PyObject_CallFunctionObjArgs(method_type, func, self, NULL);
#else
  return PyMethod_New(func, self);
#endif
}

#endif  // TVM_FFI_PYTHON_LIMITED_API_H_
