/*
 * The C entry point of tvm_ffi.Function calls (vectorcall) and its fast path.
 * This is where a Python call becomes a TVMFFIFunctionCall: arguments of the
 * simplest types are packed here, the GIL is released around the native call
 * when the Function says so, and POD and string results are converted back; anything else
 * goes to the general path, function_call_items in function.pxi.
 */
#ifndef TVM_FFI_PYTHON_VECTORCALL_H_
#define TVM_FFI_PYTHON_VECTORCALL_H_

#include <Python.h>
#include <tvm/ffi/c_api.h>

#include <string.h>

/* Vectorcall for tvm_ffi.Function. Cython (3.x) generates vectorcall only for
 * constructors, so the entry point lives here, and so does the fast path of a
 * call: when every argument is an exact int, float, bool, None, str or a
 * tvm_ffi.Object, the arguments are packed right here, the function is called
 * (releasing the GIL as the Function says) and a POD or string result is
 * converted, with no Python object made on the way. Any other argument hands the whole call to
 * the general path in function.pxi, which starts over: the fast path owns
 * nothing it would have to undo. */
typedef PyObject* (*TVMFFIPyCallImpl)(PyObject* self, PyObject** args, Py_ssize_t nargs);
typedef PyObject* (*TVMFFIPyResultImpl)(TVMFFIAny* result);
typedef PyObject* (*TVMFFIPyRaiseImpl)(void);

enum { kTVMFFIPyFastArgs = 8 };

/* Set once at module init by TVMFFIPyEnableVectorcall. */
static struct {
  TVMFFIPyCallImpl call;          /* the general path */
  TVMFFIPyResultImpl result;      /* any owned result -> Python value */
  TVMFFIPyRaiseImpl raise;        /* raises the pending FFI error; returns NULL */
  PyTypeObject* object_type;      /* tvm_ffi.Object */
  Py_ssize_t handle_offset;       /* Object.chandle */
  Py_ssize_t release_gil_offset;  /* Function.c_release_gil (a C int) */
} tvm_ffi_py_call;

static inline void* TVMFFIPyHandleOf(PyObject* obj) {
  return *(void**)((char*)obj + tvm_ffi_py_call.handle_offset);
}

/* Packs x into *out when its type is one the fast path handles: 0 if packed,
 * 1 when x needs the general path (which also reports any error of x's value,
 * such as an int beyond int64), -1 with a Python error set. The general path's
 * convert_arg (convert.pxi) starts with it too: these types convert here only. */
static inline int TVMFFIPyFastArg(PyObject* x, TVMFFIAny* out) {
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
  if (t == &PyUnicode_Type) {
    Py_ssize_t size;
    const char* data = PyUnicode_AsUTF8AndSize(x, &size);
    if (data == NULL) return -1;
    /* RawStr ends at the first NUL: strings holding one take the general path. */
    if (memchr(data, 0, (size_t)size) != NULL) return 1;
    out->type_index = kTVMFFIRawStr;
    out->v_c_str = data;
    return 0;
  }
  if (PyObject_TypeCheck(x, tvm_ffi_py_call.object_type)) {
    TVMFFIObject* obj = (TVMFFIObject*)TVMFFIPyHandleOf(x);
    out->type_index = obj == NULL ? kTVMFFINone : obj->type_index;
    out->v_int64 = 0;
    out->v_obj = obj;
    return 0;
  }
  return 1;
}

static PyObject* TVMFFIPyFunctionVectorcall(PyObject* self, PyObject* const* args, size_t nargsf,
                                            PyObject* kwnames) {
  if (kwnames != NULL && PyTuple_GET_SIZE(kwnames) != 0) {
    PyErr_Format(PyExc_TypeError,
                 "tvm_ffi.Function takes positional arguments only, got keyword argument '%U'",
                 PyTuple_GET_ITEM(kwnames, 0));
    return NULL;
  }
  Py_ssize_t n = PyVectorcall_NARGS(nargsf);
  void* handle = TVMFFIPyHandleOf(self);
  if (n <= kTVMFFIPyFastArgs && handle != NULL) {
    TVMFFIAny packed[kTVMFFIPyFastArgs];
    Py_ssize_t i = 0;
    for (; i < n; ++i) {
      int rc = TVMFFIPyFastArg(args[i], &packed[i]);
      if (rc < 0) return NULL;
      if (rc > 0) break;
    }
    if (i == n) {
      /* The caller's references keep every borrowed argument alive during the call. */
      TVMFFIAny result;
      result.type_index = kTVMFFINone;
      result.zero_padding = 0;
      result.v_int64 = 0;
      int ret;
      if (*(int*)((char*)self + tvm_ffi_py_call.release_gil_offset)) {
        Py_BEGIN_ALLOW_THREADS
        ret = TVMFFIFunctionCall(handle, packed, (int32_t)n, &result);
        Py_END_ALLOW_THREADS
      } else {
        ret = TVMFFIFunctionCall(handle, packed, (int32_t)n, &result);
      }
      if (ret != 0) return tvm_ffi_py_call.raise();
      if (PyErr_Occurred() != NULL) {
        /* A signal check in native code set a Python error the native code swallowed. */
        if (result.type_index >= kTVMFFIStaticObjectBegin) TVMFFIObjectDecRef(result.v_obj);
        return NULL;
      }
      switch (result.type_index) {
        case kTVMFFINone:
          Py_RETURN_NONE;
        case kTVMFFIInt:
          return PyLong_FromLongLong(result.v_int64);
        case kTVMFFIBool:
          return PyBool_FromLong(result.v_int64 != 0);
        case kTVMFFIFloat:
          return PyFloat_FromDouble(result.v_float64);
        case kTVMFFISmallStr:
          return PyUnicode_DecodeUTF8(result.v_bytes, (Py_ssize_t)result.small_str_len,
                                      "replace");
        case kTVMFFIStr: {
          const TVMFFIByteArray* str =
              (const TVMFFIByteArray*)((char*)result.v_obj + sizeof(TVMFFIObject));
          PyObject* out = PyUnicode_DecodeUTF8(str->data, (Py_ssize_t)str->size, "replace");
          TVMFFIObjectDecRef(result.v_obj);
          return out;
        }
        default:
          return tvm_ffi_py_call.result(&result);
      }
    }
  }
  return tvm_ffi_py_call.call(self, (PyObject**)args, n);
}

static void* TVMFFIPyFunctionVectorcallPtr(void) { return (void*)TVMFFIPyFunctionVectorcall; }

/* Turns vectorcall on for `type` (tvm_ffi.Function), whose instances keep the
 * entry point at vectorcall_offset, and records what the fast path needs.
 * Done once at import, before any instance or subclass exists. */
static void TVMFFIPyEnableVectorcall(PyObject* type_obj, Py_ssize_t vectorcall_offset,
                                     PyObject* object_type, Py_ssize_t handle_offset,
                                     Py_ssize_t release_gil_offset, void* call, void* result,
                                     void* raise) {
  PyTypeObject* type = (PyTypeObject*)type_obj;
  tvm_ffi_py_call.call = (TVMFFIPyCallImpl)call;
  tvm_ffi_py_call.result = (TVMFFIPyResultImpl)result;
  tvm_ffi_py_call.raise = (TVMFFIPyRaiseImpl)raise;
  tvm_ffi_py_call.object_type = (PyTypeObject*)object_type;
  tvm_ffi_py_call.handle_offset = handle_offset;
  tvm_ffi_py_call.release_gil_offset = release_gil_offset;
  type->tp_vectorcall_offset = vectorcall_offset;
  type->tp_flags |= Py_TPFLAGS_HAVE_VECTORCALL;
  PyType_Modified(type);
}

#endif  // TVM_FFI_PYTHON_VECTORCALL_H_
