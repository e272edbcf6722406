/*
 * The C entry point of tvm_ffi.Function calls (vectorcall), its fast path, and
 * the native call itself (TVMFFIPyCallWithEnv), which both the fast path and
 * the general path (function_call_items in function.pxi) end in.
 */
#ifndef TVM_FFI_PYTHON_VECTORCALL_H_
#define TVM_FFI_PYTHON_VECTORCALL_H_

#include <Python.h>
#include <tvm/ffi/c_api.h>

#include <string.h>

#include "tvm_ffi_array_builder.h"
#include "tvm_ffi_dlpack_exchange.h"
#include "tvm_ffi_layout.h"
#include "tvm_ffi_limited_api.h"
#include "tvm_ffi_plain_values.h"

/* Vectorcall for tvm_ffi.Function. Cython (3.x) generates vectorcall only for
 * constructors, so the entry point lives here, and so does the fast path of a
 * call: when every argument is an exact int, float, bool, None, str, bytes, a
 * list or tuple of such scalars and strs, a plain function or method (a
 * callback), a tvm_ffi.Object or a tensor of a framework publishing the DLPack
 * C exchange API (torch), the arguments are packed right here, the function is
 * called (installing the framework's stream and allocator, releasing the GIL
 * as the Function says) and a POD, string or tensor result is converted, with
 * no Python object made on the way. Any other argument hands the whole call to
 * the general path in function.pxi, which starts over: the fast path releases
 * what it made first. */
typedef PyObject* (*TVMFFIPyCallImpl)(PyObject* self, PyObject** args, Py_ssize_t nargs);
typedef PyObject* (*TVMFFIPyResultImpl)(TVMFFIAny* result, const DLPackExchangeAPI* api);
typedef PyObject* (*TVMFFIPyRaiseImpl)(TVMFFIObjectHandle error);

enum { kTVMFFIPyFastArgs = 8 };

/* Set once at module init by TVMFFIPyEnableVectorcall. */
static struct {
  TVMFFIPyCallImpl call;     /* the general path */
  TVMFFIPyResultImpl result; /* any owned result -> Python value (tagging containers with api) */
  TVMFFIPyRaiseImpl raise;   /* raises an FFI error (taken over); returns NULL */
  PyTypeObject* object_type; /* tvm_ffi.core.CObject */
  /* A Python callable as a Function (TVMFFIPyCallbackSafeCall): the general safe_call, the
   * owned cell of a result (-1 with the FFI error raised), and the FFI error of the pending
   * exception (-1). */
  TVMFFISafeCallType callback_call;
  int (*callback_result)(PyObject* value, TVMFFIAny* result);
  int (*callback_error)(void);
} tvm_ffi_py_call;

/* Packs x into *out when its type is one the fast path handles: 0 if packed,
 * 1 when x needs more (which also reports any error of x's value, such as an
 * int beyond int64), -1 with a Python error set. The general path's
 * convert_arg (convert.pxi) starts with it too: these types convert here only. */
static inline int TVMFFIPyFastArg(PyObject* x, TVMFFIAny* out) {
  if (TVMFFIPyScalarArg(x, out) == 0) return 0;
  PyTypeObject* t = Py_TYPE(x);
  if (t == &PyLong_Type) return 1;
  if (t == &PyUnicode_Type) {
    Py_ssize_t size;
    const char* data = PyUnicode_AsUTF8AndSize(x, &size);
    if (data == NULL) return -1;
    if (size <= 7) {
      /* A SmallStr, as the spec passes a str (python_api.md §3.1 row 20): no
       * allocation, and a callee's type check names it `ffi.SmallStr`. */
      TVMFFIPySmallArg(kTVMFFISmallStr, data, size, out);
      return 0;
    }
    /* Longer text is lent as a RawStr view of the str's UTF-8 buffer rather
     * than copied into a Str object (a large JSON document is not duplicated);
     * a callee's mismatch message still names it `ffi.String`
     * (TVMFFIPyNameStrArgs). RawStr ends at the first NUL: strings holding one
     * take the general path, which makes a String. */
    if (memchr(data, 0, (size_t)size) != NULL) return 1;
    out->type_index = kTVMFFIRawStr;
    out->v_c_str = data;
    return 0;
  }
  /* bytes may need a TVMFFIByteArray to point at, which the caller keeps: TVMFFIPyBytesArg. */
  if (t == &PyBytes_Type) return 1;
  if (PyObject_TypeCheck(x, tvm_ffi_py_call.object_type)) {
    TVMFFIObject* obj = (TVMFFIObject*)TVMFFIPyObjectHandle(x);
    out->type_index = obj == NULL ? kTVMFFINone : obj->type_index;
    out->v_int64 = 0;
    out->v_obj = obj;
    return 0;
  }
  return 1;
}

/* Python bytes as the spec passes them (python_api.md §3.1 row 21): up to 7
 * bytes a SmallBytes; longer ones are lent as a ByteArrayPtr view of the
 * buffer (no copy into a Bytes object), *view being the struct it points at,
 * which must outlive the call. A callee's mismatch message still names such a
 * view `ffi.Bytes` (TVMFFIPyNameStrArgs). */
static inline void TVMFFIPyBytesArg(const char* data, Py_ssize_t size, TVMFFIByteArray* view,
                                    TVMFFIAny* out) {
  if (size <= 7) {
    TVMFFIPySmallArg(kTVMFFISmallBytes, data, size, out);
    return;
  }
  view->data = data;
  view->size = (size_t)size;
  out->type_index = kTVMFFIByteArrayPtr;
  out->zero_padding = 0;
  out->v_int64 = 0;
  out->v_ptr = view;
}

/* A typed callee reports a RawStr argument that fails its type check as
 * "... Expected `T` but got `const char*`", and a ByteArrayPtr one as "... but
 * got `TVMFFIByteArray*`". In this call every RawStr is a Python str of more
 * than 7 bytes lent without a copy, and every ByteArrayPtr a Python bytes,
 * which the spec passes as a Str / Bytes object: so the message says
 * `ffi.String` / `ffi.Bytes`, as it would then. Returns the error to raise
 * (err itself, or a renamed copy taking over its backtrace, cause and
 * context). */
static TVMFFIObjectHandle TVMFFIPyNameStrArgs(TVMFFIObjectHandle err, const TVMFFIAny* packed,
                                              int32_t n) {
  static const char kHead[] = "Mismatched type on argument #";
  /* What a callee calls each kind of view, and what the spec's object is called. */
  static const struct {
    int32_t index;
    const char* got;
    const char* named;
  } kViews[] = {
      {kTVMFFIRawStr, " but got `const char*`", " but got `ffi.String`"},
      {kTVMFFIByteArrayPtr, " but got `TVMFFIByteArray*`", " but got `ffi.Bytes`"},
  };
  const size_t head = sizeof(kHead) - 1;
  const TVMFFIErrorCell* cell = TVMFFIErrorGetCellPtr(err);
  const char* msg = cell->message.data;
  size_t size = cell->message.size;
  if (cell->kind.size != 9 || memcmp(cell->kind.data, "TypeError", 9) != 0) return err;
  if (size <= head || memcmp(msg, kHead, head) != 0) return err;
  int32_t view_index = -1;
  size_t tail = 0;
  const char* named = NULL;
  for (size_t v = 0; v < sizeof(kViews) / sizeof(kViews[0]); ++v) {
    size_t got = strlen(kViews[v].got);
    if (size > head + got && memcmp(msg + size - got, kViews[v].got, got) == 0) {
      view_index = kViews[v].index;
      tail = got;
      named = kViews[v].named;
      break;
    }
  }
  if (named == NULL) return err;
  long index = 0;
  size_t p = head;
  for (; p < size && msg[p] >= '0' && msg[p] <= '9' && index < n; ++p) {
    index = index * 10 + (msg[p] - '0');
  }
  if (p == head || msg[p] != ' ' || index >= n || packed[index].type_index != view_index) {
    return err;
  }
  size_t named_size = strlen(named);
  size_t keep = size - tail;
  char* text = (char*)PyMem_Malloc(keep + named_size);
  if (text == NULL) return err;
  memcpy(text, msg, keep);
  memcpy(text + keep, named, named_size);
  TVMFFIByteArray message = {text, keep + named_size};
  TVMFFIObjectHandle renamed = NULL;
  int rc = TVMFFIErrorCreateWithCauseAndExtraContext(
      &cell->kind, &message, &cell->backtrace, cell->cause_chain, cell->extra_context, &renamed);
  PyMem_Free(text);
  if (rc != 0) {
    TVMFFIObjectHandle ignored = NULL;
    TVMFFIErrorMoveFromRaised(&ignored);
    if (ignored != NULL) TVMFFIObjectDecRef(ignored);
    return err;
  }
  TVMFFIObjectDecRef(err);
  return renamed;
}

#if defined(__GNUC__) || defined(__clang__)
#define TVMFFI_PY_ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define TVMFFI_PY_ALWAYS_INLINE inline
#endif

/* Calls handle with the packed arguments under env (the stream and allocator
 * its tensor arguments recorded are installed on this thread for the call and
 * restored after it, also when it fails). 0 with the owned result in *result,
 * or -1 with the Python exception of the failure set. Inlined into the fast
 * path; the general path calls TVMFFIPyCallWithEnv. */
static TVMFFI_PY_ALWAYS_INLINE int TVMFFIPyCallWithEnvInline(void* handle, int release_gil,
                                                             TVMFFIAny* packed, int32_t n,
                                                             TVMFFIPyCallEnv* env,
                                                             TVMFFIAny* result) {
  result->type_index = kTVMFFINone;
  result->zero_padding = 0;
  result->v_int64 = 0;
  TVMFFIObjectHandle err = NULL;
  if (TVMFFIPyCallEnvEnter(env) != 0) {
    TVMFFIErrorMoveFromRaised(&err);
    tvm_ffi_py_call.raise(err);
    return -1;
  }
  int ret;
  if (release_gil) {
    Py_BEGIN_ALLOW_THREADS ret = TVMFFIFunctionCall(handle, packed, n, result);
    Py_END_ALLOW_THREADS
  } else {
    ret = TVMFFIFunctionCall(handle, packed, n, result);
  }
  if (ret != 0) {
    TVMFFIErrorMoveFromRaised(&err);
    if (err != NULL) err = TVMFFIPyNameStrArgs(err, packed, n);
  }
  int exit_failed = TVMFFIPyCallEnvExit(env) != 0;
  if (ret != 0) {
    /* The call's own error wins over a failure to restore. */
    if (exit_failed) PyErr_Clear();
    tvm_ffi_py_call.raise(err);
    return -1;
  }
  if (exit_failed || PyErr_Occurred() != NULL) {
    /* A failed restore, or a signal check in native code that set a Python
     * error the native code swallowed. */
    if (result->type_index >= kTVMFFIStaticObjectBegin) TVMFFIObjectDecRef(result->v_obj);
    result->type_index = kTVMFFINone;
    return -1;
  }
  return 0;
}

static int TVMFFIPyCallWithEnv(void* handle, int release_gil, TVMFFIAny* packed, int32_t n,
                               TVMFFIPyCallEnv* env, TVMFFIAny* result) {
  return TVMFFIPyCallWithEnvInline(handle, release_gil, packed, n, env, result);
}

/* The Python value of an owned result: PODs, strings and (when the call had
 * a framework's exchange API) tensors here, the rest through convert.pxi,
 * which tags containers with api. */
static inline PyObject* TVMFFIPyResultToPy(TVMFFIAny* result, const DLPackExchangeAPI* api) {
  if (TVMFFIPyIsPlainCell(result->type_index)) return TVMFFIPyPlainToPy(result);
  switch (result->type_index) {
    case kTVMFFIStr: {
      const TVMFFIByteArray* str =
          (const TVMFFIByteArray*)((char*)result->v_obj + sizeof(TVMFFIObject));
      PyObject* out = PyUnicode_DecodeUTF8(str->data, (Py_ssize_t)str->size, "replace");
      TVMFFIObjectDecRef(result->v_obj);
      return out;
    }
    case kTVMFFITensor:
      if (api != NULL) {
        PyObject* out = TVMFFIPyExchangeImport(result->v_obj, api);
        if (out != NULL) return out;
      }
      return tvm_ffi_py_call.result(result, NULL);
    default:
      return tvm_ffi_py_call.result(result, api);
  }
}

/* safe_call of a Function wrapping a Python callable (self): the callback path
 * of a C++ -> Python call. With the GIL taken, plain arguments (None, int,
 * bool, float, SmallStr) become Python values and an int, float, bool or None
 * result its cell right here; any other
 * argument hands the call to py_safe_call (function.pxi), any other result to
 * callback_result, and an exception to callback_error. */
static int TVMFFIPyCallbackSafeCall(void* self, const TVMFFIAny* args, int32_t num_args,
                                    TVMFFIAny* result) {
  PyObject* argv[kTVMFFIPyFastArgs];
  int32_t done = 0;
  if (num_args > kTVMFFIPyFastArgs) {
    return tvm_ffi_py_call.callback_call(self, args, num_args, result);
  }
  PyGILState_STATE state = PyGILState_Ensure();
  int rc = -2;
  if (PyErr_Occurred() == NULL) {
    for (; done < num_args && TVMFFIPyIsPlainCell(args[done].type_index); ++done) {
      argv[done] = TVMFFIPyPlainToPy(&args[done]);
      if (argv[done] == NULL) {
        rc = tvm_ffi_py_call.callback_error();
        break;
      }
    }
    if (done == num_args) {
      PyObject* rv = PyObject_Vectorcall((PyObject*)self, argv, (size_t)num_args, NULL);
      if (rv == NULL) {
        rc = tvm_ffi_py_call.callback_error();
      } else {
        if (TVMFFIPyScalarArg(rv, result) == 0) {
          rc = 0;
        } else {
          rc = tvm_ffi_py_call.callback_result(rv, result);
        }
        Py_DECREF(rv);
      }
    }
    for (int32_t i = 0; i < done; ++i) Py_DECREF(argv[i]);
  }
  if (rc == -2) rc = tvm_ffi_py_call.callback_call(self, args, num_args, result);
  PyGILState_Release(state);
  return rc;
}

/* A Function calling a Python callable: the layout every Function has (the
 * header, then safe_call and a NULL cpp_call), then the callable, so that a
 * call reaches it with no trampoline. A Function made for one call's argument
 * borrows the callable (the argument keeps it alive): if the callee kept the
 * Function, the call takes a reference to the callable before letting go
 * (TVMFFIPyReleaseCallArg); else the block is kept for the next such argument.
 * Any other such Function owns its reference from the start. */
typedef struct TVMFFIPyCallbackFunction {
  TVMFFIObject header;
  TVMFFIFunctionCell cell;
  PyObject* callable;
  int owns_callable;
} TVMFFIPyCallbackFunction;

#ifndef Py_GIL_DISABLED
/* One block kept between calls; taken and given back with the GIL held. */
static TVMFFIPyCallbackFunction* tvm_ffi_py_callback_spare = NULL;
#endif

static int TVMFFIPyCallbackFunctionCall(void* handle, const TVMFFIAny* args, int32_t num_args,
                                        TVMFFIAny* result) {
  return TVMFFIPyCallbackSafeCall(((TVMFFIPyCallbackFunction*)handle)->callable, args, num_args,
                                  result);
}

static void TVMFFIPyCallbackFunctionDelete(void* self, int flags) {
  TVMFFIPyCallbackFunction* f = (TVMFFIPyCallbackFunction*)self;
  if ((flags & kTVMFFIObjectDeleterFlagBitMaskStrong) && f->owns_callable) {
    f->owns_callable = 0;
    TVMFFIPyDecRefDeleter(f->callable);
  }
  if (flags & kTVMFFIObjectDeleterFlagBitMaskWeak) free(f);
}

/* *out: a new Function calling the Python callable f, holding a reference to
 * it unless borrow is set (then f must outlive the reference the caller gets,
 * which TVMFFIPyReleaseCallArg drops). 0, or -1 with the FFI error raised. */
static inline int TVMFFIPyCallbackFunctionNew(PyObject* f, int borrow, TVMFFIObjectHandle* out) {
  TVMFFIPyCallbackFunction* fn = NULL;
#ifndef Py_GIL_DISABLED
  if (borrow) {
    fn = tvm_ffi_py_callback_spare;
    tvm_ffi_py_callback_spare = NULL;
  }
#endif
  if (fn == NULL) fn = (TVMFFIPyCallbackFunction*)malloc(sizeof(TVMFFIPyCallbackFunction));
  if (fn == NULL) {
    TVMFFIErrorSetRaisedFromCStr("MemoryError", "out of memory making a Function of a callable");
    return -1;
  }
  TVMFFIPyInitHeader(&fn->header, kTVMFFIFunction, TVMFFIPyCallbackFunctionDelete);
  fn->cell.safe_call = TVMFFIPyCallbackFunctionCall;
  fn->cell.cpp_call = NULL;
  fn->callable = f;
  fn->owns_callable = !borrow;
  if (!borrow) Py_INCREF(f);
  *out = (TVMFFIObjectHandle)fn;
  return 0;
}

/* *out: a new Function calling the Python callable f (holding a reference to
 * it). 0, or -1 with the FFI error raised. */
static inline int TVMFFIPyCallableToFunction(PyObject* f, TVMFFIObjectHandle* out) {
  return TVMFFIPyCallbackFunctionNew(f, 0, out);
}

/* Releases a call's reference to the object its argument x became, with the
 * GIL held (x still alive in the caller's hands): a Function of x made for the
 * call is recycled if nothing else refers to it, else it takes its reference
 * to x now; tensors go to TVMFFIPyReleaseCallTensor. */
static inline void TVMFFIPyReleaseCallArg(TVMFFIObjectHandle handle, PyObject* x) {
  TVMFFIObject* obj = (TVMFFIObject*)handle;
  if (obj->deleter != TVMFFIPyCallbackFunctionDelete) {
    TVMFFIPyReleaseCallTensor(handle, x);
    return;
  }
  TVMFFIPyCallbackFunction* fn = (TVMFFIPyCallbackFunction*)obj;
  if (TVMFFIPyHoldsOnlyReference(obj)) {
    PyObject* callable = fn->owns_callable ? fn->callable : NULL;
#ifndef Py_GIL_DISABLED
    if (tvm_ffi_py_callback_spare == NULL) {
      tvm_ffi_py_callback_spare = fn;
    } else {
      free(fn);
    }
#else
    free(fn);
#endif
    Py_XDECREF(callable);
    return;
  }
  if (!fn->owns_callable) {
    Py_INCREF(fn->callable);
    fn->owns_callable = 1;
  }
  TVMFFIObjectDecRef(handle);
}

/* Whether type is a plain function or method (a callback the fast path wraps);
 * the stable ABI does not expose these types, so there callables take the
 * general path. */
static inline int TVMFFIPyIsPlainCallable(PyTypeObject* type) {
#if TVMFFI_PY_LIMITED_API
  (void)type;
  return 0;
#else
  return type == &PyFunction_Type || type == &PyMethod_Type || type == &PyCFunction_Type;
#endif
}

/* The object a fast-path argument x of the given type becomes, packed into
 * *out, with the new reference in *made (released after the call): a plain
 * function or method (a callback) becomes a Function calling it, a list or
 * tuple of plain values its Array. 0 when made; 1 when x is neither kind; 2
 * when x is a list or tuple the general path must convert; -1 with a Python
 * error. */
static inline int TVMFFIPyMadeArg(PyObject* x, PyTypeObject* type, TVMFFIAny* out,
                                  TVMFFIObjectHandle* made) {
  int32_t index = kTVMFFIArray;
  if (type == &PyList_Type || type == &PyTuple_Type) {
    int built = TVMFFIPyArrayFromPlainItems(x, made);
    if (built != 0) return built < 0 ? -1 : 2;
  } else if (TVMFFIPyIsPlainCallable(type)) {
    index = kTVMFFIFunction;
    if (TVMFFIPyCallbackFunctionNew(x, 1, made) != 0) {
      TVMFFIObjectHandle err = NULL;
      TVMFFIErrorMoveFromRaised(&err);
      tvm_ffi_py_call.raise(err);
      return -1;
    }
  } else {
    return 1;
  }
  out->type_index = index;
  out->zero_padding = 0;
  out->v_int64 = 0;
  out->v_obj = (TVMFFIObject*)*made;
  return 0;
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
  void* handle = TVMFFIPyObjectHandle(self);
  TVMFFIPyFunctionState* state = TVMFFIPyFunctionStateOf(self);
  if (n <= kTVMFFIPyFastArgs && handle != NULL) {
    TVMFFIAny packed[kTVMFFIPyFastArgs];
    DLTensor views[kTVMFFIPyFastArgs];
    int64_t view_dims[kTVMFFIPyFastArgs][2 * kTVMFFIPyViewDims];
    TVMFFIObjectHandle owned[kTVMFFIPyFastArgs];
    PyObject* owned_args[kTVMFFIPyFastArgs];
    TVMFFIByteArray byte_views[kTVMFFIPyFastArgs];
    int num_owned = 0;
    TVMFFIPyCallEnv env;
    TVMFFIPyCallEnvInit(&env);
    Py_ssize_t i = 0;
    for (; i < n; ++i) {
      /* A framework tensor (exchange API) whose type was seen before skips the
       * scalar and Object checks. */
      PyTypeObject* type = Py_TYPE(args[i]);
      const TVMFFIPyExchangeCacheEntry* seen =
          &tvm_ffi_py_exchange_cache[TVMFFIPyExchangeSlot(type)];
      const DLPackExchangeAPI* api = seen->type == type ? seen->foreign_api : NULL;
      if (api == NULL) {
        TVMFFIObjectHandle made = NULL;
        int made_rc = TVMFFIPyMadeArg(args[i], type, &packed[i], &made);
        if (made_rc < 0) goto fail;
        if (made_rc == 2) break;
        if (made_rc == 0) {
          owned[num_owned] = made;
          owned_args[num_owned++] = args[i];
          continue;
        }
        int rc = TVMFFIPyFastArg(args[i], &packed[i]);
        if (rc == 0) {
          /* A container may carry a framework's tag: the general path reads it. */
          if (tvm_ffi_py_tag_count > 0 && TVMFFIPyIsContainerIndex(packed[i].type_index)) break;
          continue;
        }
        if (rc < 0) goto fail;
        if (type == &PyBytes_Type) {
          char* data;
          Py_ssize_t size;
          if (PyBytes_AsStringAndSize(args[i], &data, &size) != 0) goto fail;
          TVMFFIPyBytesArg(data, size, &byte_views[i], &packed[i]);
          continue;
        }
        if (TVMFFIPyExchangeLookup(type, &api) != 0) goto fail;
      }
      /* A framework tensor: a view where the schema says DLTensor*. */
      if (api == NULL || !state->view_known) break;
      DLTensor* view = ((state->view_mask >> i) & 1) ? &views[i] : NULL;
      if (TVMFFIPyExchangeArg(args[i], api, view, view_dims[i], &packed[i], &owned[num_owned], 1,
                              &env) != 0) {
        goto fail;
      }
      if (owned[num_owned] != NULL) owned_args[num_owned++] = args[i];
    }
    if (i == n) {
      /* The caller's references keep every borrowed argument alive during the call. */
      TVMFFIAny result;
      int rc =
          TVMFFIPyCallWithEnvInline(handle, state->release_gil, packed, (int32_t)n, &env, &result);
      for (int k = 0; k < num_owned; ++k) TVMFFIPyReleaseCallArg(owned[k], owned_args[k]);
      if (rc != 0) return NULL;
      return TVMFFIPyResultToPy(&result, env.result_api);
    }
    for (int k = 0; k < num_owned; ++k) TVMFFIPyReleaseCallArg(owned[k], owned_args[k]);
    goto general;
  fail:
    for (int k = 0; k < num_owned; ++k) TVMFFIPyReleaseCallArg(owned[k], owned_args[k]);
    return NULL;
  }
general:
  return tvm_ffi_py_call.call(self, (PyObject**)args, n);
}

/* A call through tp_call (Function.__call__): the same fast and general paths
 * over the items of the argument tuple. */
static PyObject* TVMFFIPyFunctionCallTuple(PyObject* self, PyObject* args) {
  TVMFFIPyTupleItemsView items;
  if (TVMFFIPyTupleItemsAcquire(&items, args) != 0) return NULL;
  PyObject* out = TVMFFIPyFunctionVectorcall(self, items.data, (size_t)items.size, NULL);
  TVMFFIPyTupleItemsRelease(&items);
  return out;
}

/* Turns vectorcall on for `type` (tvm_ffi.Function), whose instances keep the
 * entry point in their TVMFFIPyFunctionState, and records what the fast path
 * needs. Done once at import, before any instance or subclass exists. The
 * stable ABI cannot set a type's vectorcall offset: a limited build keeps
 * tp_call (TVMFFIPyFunctionCallTuple), which reaches the same paths. */
static void TVMFFIPyEnableVectorcall(PyObject* type_obj, PyObject* object_type, void* call,
                                     void* result, void* raise, void* callback_call,
                                     void* callback_result, void* callback_error) {
  tvm_ffi_py_call.callback_call = (TVMFFISafeCallType)callback_call;
  tvm_ffi_py_call.callback_result = (int (*)(PyObject*, TVMFFIAny*))callback_result;
  tvm_ffi_py_call.callback_error = (int (*)(void))callback_error;
  tvm_ffi_py_call.call = (TVMFFIPyCallImpl)call;
  tvm_ffi_py_call.result = (TVMFFIPyResultImpl)result;
  tvm_ffi_py_call.raise = (TVMFFIPyRaiseImpl)raise;
  tvm_ffi_py_call.object_type = (PyTypeObject*)object_type;
  tvm_ffi_py_exchange_object_type = (PyTypeObject*)object_type;
#if TVMFFI_PY_LIMITED_API
  (void)type_obj;
#else
  PyTypeObject* type = (PyTypeObject*)type_obj;
  type->tp_vectorcall_offset =
      TVMFFIPyFunctionStateOffset() + (Py_ssize_t)offsetof(TVMFFIPyFunctionState, vectorcall);
  type->tp_flags |= Py_TPFLAGS_HAVE_VECTORCALL;
  PyType_Modified(type);
#endif
}

static void* TVMFFIPyFunctionVectorcallPtr(void) { return (void*)TVMFFIPyFunctionVectorcall; }

#endif  // TVM_FFI_PYTHON_VECTORCALL_H_
