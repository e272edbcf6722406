/*
 * The DLPack C exchange API (__dlpack_c_exchange_api__) on the Python side of
 * tvm_ffi, in C so that the call path reaches a framework's tensors with
 * plain C calls: no capsule, no Python call per tensor.
 *
 * Consumer: the table of a producer type is looked up once per type
 * (TVMFFIPyExchangeLookup; types are kept alive forever so a cached address
 * is never reused by another type). A tensor argument becomes a DLTensor view
 * (DLTensor* parameters, when the producer offers a non-owning fill) or a
 * Tensor object owned by the call; either way the call records the table as
 * its result API and, for the first non-CPU tensor, the producer's current
 * stream (TVMFFIPyCallEnv). Around the native call that stream and the
 * producer's allocator are installed and then restored; Tensor results come
 * back through the table as the caller's framework tensors.
 *
 * Producer: the table of tvm_ffi.Tensor itself (TVMFFIPyTensorExchangeCapsule).
 */
#ifndef TVM_FFI_PYTHON_DLPACK_EXCHANGE_H_
#define TVM_FFI_PYTHON_DLPACK_EXCHANGE_H_

#include <Python.h>
#include <dlpack/dlpack.h>
#include <tvm/ffi/c_api.h>
#include <tvm/ffi/container/release_scope.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tvm_ffi_layout.h"
#include "tvm_ffi_limited_api.h"
#include "tvm_ffi_python_helpers.h"

#define TVMFFI_PY_EXCHANGE_ATTR "__dlpack_c_exchange_api__"
#define TVMFFI_PY_EXCHANGE_ATTR_V12 "__c_dlpack_exchange_api__"
#define TVMFFI_PY_EXCHANGE_CAPSULE "dlpack_exchange_api"

/* ------------------------------------------------------------------------
 * Lookup, cached per type
 * ------------------------------------------------------------------------ */

enum { kTVMFFIPyExchangeCacheSize = 64 };

typedef struct TVMFFIPyExchangeCacheEntry {
  PyTypeObject* type;           /* a strong reference, never dropped */
  const DLPackExchangeAPI* api; /* NULL: the type publishes none */
  /* api when type is no tvm_ffi.Object (whose instances pass as themselves):
   * the call fast path takes such arguments on this entry alone. */
  const DLPackExchangeAPI* foreign_api;
} TVMFFIPyExchangeCacheEntry;

/* tvm_ffi.Object, set at import (TVMFFIPyEnableVectorcall). */
static PyTypeObject* tvm_ffi_py_exchange_object_type = NULL;

static TVMFFIPyExchangeCacheEntry tvm_ffi_py_exchange_cache[kTVMFFIPyExchangeCacheSize];
/* 1: TVM_FFI_SKIP_DLPACK_C_EXCHANGE_API=1 (no type has a table); -1: not set; 0: not read. */
static int tvm_ffi_py_exchange_skip = 0;

/* Called with a type that publishes no table, the first time one is looked up,
 * until it reports itself settled: tvm_ffi._optional_torch_c_dlpack installs
 * torch's table then (not at import, which must not import torch). It returns
 * True when it installed a table (look again), False when it never will
 * (dropped), anything else to be asked again for the next such type. */
static PyObject* tvm_ffi_py_exchange_missing_hook = NULL;

static void TVMFFIPySetExchangeMissingHook(PyObject* hook) {
  PyObject* old = tvm_ffi_py_exchange_missing_hook;
  if (hook == Py_None) hook = NULL;
  Py_XINCREF(hook);
  tvm_ffi_py_exchange_missing_hook = hook;
  Py_XDECREF(old);
}

/* Asks the hook about type; 1 when the attribute should be looked up again. A
 * failing hook is reported as unraisable and dropped: the type then simply
 * has no table. */
static int TVMFFIPyExchangeAskHook(PyTypeObject* type) {
  PyObject* hook = tvm_ffi_py_exchange_missing_hook;
  if (hook == NULL) return 0;
  Py_INCREF(hook);
  PyObject* answer = PyObject_CallFunctionObjArgs(hook, (PyObject*)type, NULL);
  int again = 0;
  if (answer == NULL) {
    PyErr_WriteUnraisable(hook);
    TVMFFIPySetExchangeMissingHook(NULL);
  } else {
    again = answer == Py_True;
    if (answer == Py_False) TVMFFIPySetExchangeMissingHook(NULL);
    Py_DECREF(answer);
  }
  Py_DECREF(hook);
  return again;
}

/* attr = the table attribute of type (DLPack 1.3 name, else the 1.2 one), NULL
 * when it has neither (no error set); -1 with a Python error. */
static int TVMFFIPyExchangeGetAttr(PyTypeObject* type, PyObject** attr) {
  *attr = PyObject_GetAttrString((PyObject*)type, TVMFFI_PY_EXCHANGE_ATTR);
  if (*attr == NULL && PyErr_ExceptionMatches(PyExc_AttributeError)) {
    /* DLPack 1.2 frameworks published the table under this name (an int address). */
    PyErr_Clear();
    *attr = PyObject_GetAttrString((PyObject*)type, TVMFFI_PY_EXCHANGE_ATTR_V12);
  }
  if (*attr == NULL) {
    if (!PyErr_ExceptionMatches(PyExc_AttributeError)) return -1;
    PyErr_Clear();
  }
  return 0;
}

static inline size_t TVMFFIPyExchangeSlot(PyTypeObject* type) {
  return ((uintptr_t)type >> 4) % kTVMFFIPyExchangeCacheSize;
}

/* The table of the major version this code knows (1), following prev_api;
 * NULL with a Python error naming the type when there is none or it lacks a
 * function every table must have. */
static const DLPackExchangeAPI* TVMFFIPyExchangeValidate(PyTypeObject* type,
                                                         const DLPackExchangeAPI* api) {
  const DLPackExchangeAPIHeader* header = api == NULL ? NULL : &api->header;
  uint32_t major = header == NULL ? 0 : header->version.major;
  uint32_t minor = header == NULL ? 0 : header->version.minor;
  while (header != NULL && header->version.major != 1) header = header->prev_api;
  if (header == NULL) {
    PyErr_Format(PyExc_TypeError,
                 "%s.__dlpack_c_exchange_api__: unsupported DLPack exchange API version "
                 "%u.%u (this tvm_ffi reads major version 1)",
                 TVMFFIPyTypeName(type), (unsigned)major, (unsigned)minor);
    return NULL;
  }
  api = (const DLPackExchangeAPI*)header;
  const char* missing = NULL;
  if (api->managed_tensor_from_py_object_no_sync == NULL) {
    missing = "managed_tensor_from_py_object_no_sync";
  } else if (api->managed_tensor_to_py_object_no_sync == NULL) {
    missing = "managed_tensor_to_py_object_no_sync";
  } else if (api->current_work_stream == NULL) {
    missing = "current_work_stream";
  }
  if (missing != NULL) {
    PyErr_Format(PyExc_TypeError,
                 "%s.__dlpack_c_exchange_api__: the table's %s is NULL (DLPack requires it)",
                 TVMFFIPyTypeName(type), missing);
    return NULL;
  }
  return api;
}

/* The address held by an attribute value: a "dlpack_exchange_api" capsule or an
 * int. NULL with a Python error for anything else. */
static const DLPackExchangeAPI* TVMFFIPyExchangeFromAttr(PyTypeObject* type, PyObject* attr) {
  if (PyCapsule_CheckExact(attr)) {
    const char* name = PyCapsule_GetName(attr);
    if (name == NULL || strcmp(name, TVMFFI_PY_EXCHANGE_CAPSULE) != 0) {
      PyErr_Clear();
      PyErr_Format(
          PyExc_TypeError, "%s.__dlpack_c_exchange_api__ is a capsule named '%s', expected '%s'",
          TVMFFIPyTypeName(type), name == NULL ? "(null)" : name, TVMFFI_PY_EXCHANGE_CAPSULE);
      return NULL;
    }
    return (const DLPackExchangeAPI*)PyCapsule_GetPointer(attr, TVMFFI_PY_EXCHANGE_CAPSULE);
  }
  if (PyLong_Check(attr)) {
    void* address = PyLong_AsVoidPtr(attr);
    if (address == NULL && PyErr_Occurred() != NULL) return NULL;
    return (const DLPackExchangeAPI*)address;
  }
  PyErr_Format(PyExc_ValueError,
               "%s.__dlpack_c_exchange_api__: expect a dlpack_exchange_api field (a capsule "
               "named '%s' or an int address), got %s",
               TVMFFIPyTypeName(type), TVMFFI_PY_EXCHANGE_CAPSULE, TVMFFIPyTypeName(Py_TYPE(attr)));
  return NULL;
}

/* TVMFFIPyExchangeLookup for a type not in the cache. */
static int TVMFFIPyExchangeLookupSlow(PyTypeObject* type, const DLPackExchangeAPI** out) {
  TVMFFIPyExchangeCacheEntry* entry = &tvm_ffi_py_exchange_cache[TVMFFIPyExchangeSlot(type)];
  if (tvm_ffi_py_exchange_skip == 0) {
    const char* skip = getenv("TVM_FFI_SKIP_DLPACK_C_EXCHANGE_API");
    tvm_ffi_py_exchange_skip = (skip != NULL && strcmp(skip, "1") == 0) ? 1 : -1;
  }
  const DLPackExchangeAPI* api = NULL;
  if (tvm_ffi_py_exchange_skip < 0) {
    PyObject* attr;
    if (TVMFFIPyExchangeGetAttr(type, &attr) != 0) return -1;
    if (attr == NULL && TVMFFIPyExchangeAskHook(type)) {
      if (TVMFFIPyExchangeGetAttr(type, &attr) != 0) return -1;
    }
    if (attr != NULL) {
      api = TVMFFIPyExchangeFromAttr(type, attr);
      Py_DECREF(attr);
      if (api == NULL && PyErr_Occurred() != NULL) return -1;
      if (api == NULL) {
        PyErr_Format(PyExc_TypeError, "%s.__dlpack_c_exchange_api__ holds a NULL table",
                     TVMFFIPyTypeName(type));
        return -1;
      }
      api = TVMFFIPyExchangeValidate(type, api);
      if (api == NULL) return -1;
    }
  }
  Py_INCREF((PyObject*)type);
  entry->type = type;
  entry->api = api;
  entry->foreign_api = (api != NULL && tvm_ffi_py_exchange_object_type != NULL &&
                        !PyType_IsSubtype(type, tvm_ffi_py_exchange_object_type))
                           ? api
                           : NULL;
  *out = api;
  return 0;
}

/* *out = the exchange table of `type` (NULL when it publishes none): 0, or -1
 * with a Python error when the published table is unusable. Tables that work
 * are cached per type (the probe is inlined); a bad one is reported on every use. */
static inline int TVMFFIPyExchangeLookup(PyTypeObject* type, const DLPackExchangeAPI** out) {
  const TVMFFIPyExchangeCacheEntry* entry = &tvm_ffi_py_exchange_cache[TVMFFIPyExchangeSlot(type)];
  if (entry->type == type) {
    *out = entry->api;
    return 0;
  }
  return TVMFFIPyExchangeLookupSlow(type, out);
}

/* ------------------------------------------------------------------------
 * The call's environment: result API, device and stream
 * ------------------------------------------------------------------------ */

typedef struct TVMFFIPyCallEnv {
  /* Table of the last framework tensor argument: installs its allocator and
   * converts tensor results back. NULL: none. */
  const DLPackExchangeAPI* result_api;
  /* The first non-CPU tensor's device and its producer's current stream. */
  int has_device;
  int32_t device_type;
  int32_t device_id;
  void* stream;
  /* What enter replaced, restored by exit. */
  int stream_set;
  void* prev_stream;
  int allocator_set;
  DLPackManagedTensorAllocator allocator;
  DLPackManagedTensorAllocator prev_allocator;
} TVMFFIPyCallEnv;

static inline void TVMFFIPyCallEnvInit(TVMFFIPyCallEnv* env) {
  env->result_api = NULL;
  env->has_device = 0;
  env->stream_set = 0;
  env->allocator_set = 0;
}

/* Records the device of a tensor argument (and its producer's stream): only
 * the first non-CPU tensor of a call counts. 0, or -1 with a Python error. */
static inline int TVMFFIPyCallEnvRecord(TVMFFIPyCallEnv* env, const DLPackExchangeAPI* api,
                                        DLDevice device) {
  env->result_api = api;
  if (device.device_type == kDLCPU || env->has_device) return 0;
  void* stream = NULL;
  if (api->current_work_stream(device.device_type, device.device_id, &stream) != 0) {
    if (PyErr_Occurred() == NULL) {
      PyErr_SetString(PyExc_RuntimeError,
                      "__dlpack_c_exchange_api__: current_work_stream failed without an error");
    }
    return -1;
  }
  env->has_device = 1;
  env->device_type = device.device_type;
  env->device_id = device.device_id;
  env->stream = stream;
  return 0;
}

/* Detections of a nested conversion (a list of tensors) reported to the
 * enclosing call: the table and device only where the outer call has none. */
static inline void TVMFFIPyCallEnvMerge(TVMFFIPyCallEnv* outer, const TVMFFIPyCallEnv* inner) {
  if (outer->result_api == NULL) outer->result_api = inner->result_api;
  if (!outer->has_device && inner->has_device) {
    outer->has_device = 1;
    outer->device_type = inner->device_type;
    outer->device_id = inner->device_id;
    outer->stream = inner->stream;
  }
}

/* Before the native call: installs the recorded stream and the result API's
 * allocator on this thread. 0, or -1 with an FFI error raised (nothing left
 * installed). */
static inline int TVMFFIPyCallEnvEnter(TVMFFIPyCallEnv* env) {
  if (env->has_device) {
    if (TVMFFIEnvSetStream(env->device_type, env->device_id, env->stream, &env->prev_stream) != 0) {
      return -1;
    }
    env->stream_set = 1;
  }
  if (env->result_api != NULL && env->result_api->managed_tensor_allocator != NULL) {
    env->allocator = env->result_api->managed_tensor_allocator;
    if (TVMFFIEnvSetDLPackManagedTensorAllocator(env->allocator, 0, &env->prev_allocator) != 0) {
      if (env->stream_set) {
        TVMFFIEnvSetStream(env->device_type, env->device_id, env->prev_stream, NULL);
        env->stream_set = 0;
      }
      return -1;
    }
    env->allocator_set = 1;
  }
  return 0;
}

/* After the native call (also when it failed): puts back what enter replaced.
 * 0, or -1 with a Python RuntimeError. Callers move the call's own FFI error
 * out first, so a failure here never overwrites it. */
static inline int TVMFFIPyCallEnvExit(TVMFFIPyCallEnv* env) {
  int ok = 1;
  if (env->stream_set) {
    env->stream_set = 0;
    if (env->prev_stream != env->stream &&
        TVMFFIEnvSetStream(env->device_type, env->device_id, env->prev_stream, NULL) != 0) {
      ok = 0;
    }
  }
  if (env->allocator_set) {
    env->allocator_set = 0;
    if (env->prev_allocator != env->allocator &&
        TVMFFIEnvSetDLPackManagedTensorAllocator(env->prev_allocator, 0, NULL) != 0) {
      if (ok) ok = -1;
    }
  }
  if (ok == 1) return 0;
  TVMFFIObjectHandle err = NULL;
  TVMFFIErrorMoveFromRaised(&err);
  if (err != NULL) TVMFFIObjectDecRef(err);
  PyErr_SetString(PyExc_RuntimeError, ok == 0 ? "Failed to recover stream"
                                              : "Failed to recover DLPack managed tensor "
                                                "allocator");
  return -1;
}

/* ------------------------------------------------------------------------
 * Arguments and results
 * ------------------------------------------------------------------------ */

/* The message of the pending FFI error (dropped), for Python errors that wrap it. */
static inline void TVMFFIPyRaiseBufferErrorFromFFI(const char* what) {
  TVMFFIObjectHandle err = NULL;
  TVMFFIErrorMoveFromRaised(&err);
  if (err == NULL) {
    PyErr_SetString(PyExc_BufferError, what);
    return;
  }
  const TVMFFIErrorCell* cell = (const TVMFFIErrorCell*)((char*)err + sizeof(TVMFFIObject));
  PyErr_Format(PyExc_BufferError, "%s: %.*s: %.*s", what, (int)cell->kind.size, cell->kind.data,
               (int)cell->message.size, cell->message.data);
  TVMFFIObjectDecRef(err);
}

/* Whether x.<method>() is true: 1, 0 (also when x has no such method), or -1
 * with a Python error. */
static int TVMFFIPyCallFlagMethod(PyObject* x, const char* method) {
  PyObject* bound = PyObject_GetAttrString(x, method);
  if (bound == NULL) {
    if (!PyErr_ExceptionMatches(PyExc_AttributeError)) return -1;
    PyErr_Clear();
    return 0;
  }
  PyObject* r = PyObject_CallObject(bound, NULL);
  Py_DECREF(bound);
  if (r == NULL) return -1;
  int truth = PyObject_IsTrue(r);
  Py_DECREF(r);
  return truth;
}

/* Refuses a lazy torch view whose memory does not hold its values: a conjugate
 * view (conj() of a complex tensor) or a negative one (conj().imag), whose bit
 * the DLPack exchange drops, so that a kernel would read (and write) other
 * values than the tensor's. 0 when t may be shared as is; -1 with a BufferError
 * naming the fix, or another Python error.
 *
 * Asking the tensor costs a Python method call, so only tensors that can carry
 * such a bit are asked: complex ones (conj), and float ones laid out as the
 * imaginary half of a complex tensor (an odd element address and even strides,
 * which every view of conj().imag keeps); other tensors pay a few compares. */
static int TVMFFIPyAskLazyViewBits(PyObject* x, int complex_type);

/* Whether a float tensor is laid out as the imaginary half of a complex one:
 * one lane of a power-of-two size, an odd element address (the bit of the
 * item size set in it), and even strides wherever they matter. */
static inline int TVMFFIPyLaidOutAsImaginary(const DLTensor* t) {
  uintptr_t item = (uintptr_t)(t->dtype.bits / 8);
  uintptr_t address = (uintptr_t)t->data + (uintptr_t)t->byte_offset;
  if ((address & item) == 0) return 0; /* the common case: one bit test */
  if (t->dtype.lanes != 1 || item < 2 || (item & (item - 1)) != 0) return 0;
  if (t->strides != NULL) {
    for (int32_t i = 0; i < t->ndim; ++i) {
      if (t->strides[i] % 2 != 0 && t->shape[i] != 1) return 0;
    }
  }
  return 1;
}

static inline int TVMFFIPyRefuseUnresolvedView(PyObject* x, const DLTensor* t) {
  if (t->dtype.code == kDLComplex) return TVMFFIPyAskLazyViewBits(x, 1);
  if (t->dtype.code == kDLFloat && TVMFFIPyLaidOutAsImaginary(t)) {
    return TVMFFIPyAskLazyViewBits(x, 0);
  }
  return 0;
}

/* The asking part of TVMFFIPyRefuseUnresolvedView: is_conj() (complex
 * tensors only) and is_neg() of x. */
static int TVMFFIPyAskLazyViewBits(PyObject* x, int complex_type) {
  const char* bit = NULL;
  const char* fix = NULL;
  int set = complex_type ? TVMFFIPyCallFlagMethod(x, "is_conj") : 0;
  if (set < 0) return -1;
  if (set) {
    bit = "conjugate";
    fix = "resolve_conj()";
  } else {
    set = TVMFFIPyCallFlagMethod(x, "is_neg");
    if (set < 0) return -1;
    if (set) {
      bit = "negative";
      fix = "resolve_neg()";
    }
  }
  if (bit == NULL) return 0;
  PyErr_Format(PyExc_BufferError,
               "tvm_ffi: cannot share a %s with its %s bit set: it is a lazy view whose memory "
               "does not hold its values, and DLPack cannot say so; pass x.%s (a resolved "
               "copy) instead",
               TVMFFIPyTypeName(Py_TYPE(x)), bit, fix);
  return -1;
}

/* The header of an object the binding lays out itself (a Tensor over a
 * framework tensor, a Function over a Python callable), with the caller's one
 * reference: one strong count and the weak count that goes with it. */
static inline void TVMFFIPyInitHeader(TVMFFIObject* header, int32_t type_index,
                                      void (*deleter)(void* self, int flags)) {
  header->combined_ref_count = ((uint64_t)1 << 32) | 1;
  header->type_index = type_index;
  header->__padding = 0;
  header->deleter = deleter;
}

/* Whether the caller's reference is the only one (no other strong or weak
 * holder): then no other thread can reach the object. */
static inline int TVMFFIPyHoldsOnlyReference(TVMFFIObject* obj) {
  return __atomic_load_n(&obj->combined_ref_count, __ATOMIC_ACQUIRE) == (((uint64_t)1 << 32) | 1);
}

/* A Tensor object over a framework tensor that holds a reference to the
 * framework's Python tensor instead of a managed export: the producer only
 * fills a DLTensor (dltensor_from_py_object_no_sync), whose shape and strides
 * are copied into the object. For torch this skips the export's at::Tensor
 * copy and the deleter's GIL round trip (torch releases its Python object
 * under pybind11's GIL guard), about half of what a Tensor argument costs.
 * The object carries no DLPack flags (a DLTensor has none), as torch's
 * exports carry none either. */
typedef struct TVMFFIPyBorrowedTensor {
  TVMFFIObject header;
  DLTensor tensor;
  /* Strong reference released by the deleter. NULL only while a call's fast
   * path holds the object's one reference and its argument keeps the framework
   * tensor alive (TVMFFIPyReleaseCallTensor). */
  PyObject* owner;
  int64_t dims[1]; /* shape, then strides: 2 * max(ndim, 1) values */
} TVMFFIPyBorrowedTensor;

static void TVMFFIPyBorrowedTensorDelete(void* self, int flags) {
  TVMFFIPyBorrowedTensor* t = (TVMFFIPyBorrowedTensor*)self;
  if ((flags & kTVMFFIObjectDeleterFlagBitMaskStrong) && t->owner != NULL) {
    PyObject* owner = t->owner;
    t->owner = NULL;
    TVMFFIPyDecRefDeleter(owner);
  }
  if (flags & kTVMFFIObjectDeleterFlagBitMaskWeak) free(t);
}

/* Dimensions up to which the borrowed form is used (beyond: the managed export). */
enum { kTVMFFIPyBorrowedMaxDims = 64 };

/* Objects of the call fast path have room for this many dimensions, so that
 * one whose call is over can serve the next call: the fast path keeps one
 * such spare block (creation and release both run with the GIL held there). */
enum { kTVMFFIPyBorrowedSpareDims = 8 };
#ifndef Py_GIL_DISABLED
static TVMFFIPyBorrowedTensor* tvm_ffi_py_borrowed_spare = NULL;
#endif

static inline size_t TVMFFIPyBorrowedSize(int32_t ndim) {
  return offsetof(TVMFFIPyBorrowedTensor, dims) +
         2 * (size_t)(ndim > 0 ? ndim : 1) * sizeof(int64_t);
}

/* Frees a TVMFFIPyBorrowedTensor nothing refers to any more, with the GIL held:
 * a block of the standard size becomes the spare if there is none. */
static inline void TVMFFIPyBorrowedTensorRecycle(TVMFFIPyBorrowedTensor* t) {
#ifndef Py_GIL_DISABLED
  if (tvm_ffi_py_borrowed_spare == NULL && t->tensor.ndim <= kTVMFFIPyBorrowedSpareDims) {
    tvm_ffi_py_borrowed_spare = t;
    return;
  }
#endif
  free(t);
}

/* *out = a TVMFFIPyBorrowedTensor over x when the producer fills DLTensors and
 * the description is one the runtime would import as is (holding a reference
 * to x when take_owner is set): 0 with *out set; 1
 * when x should take the managed export instead (*out NULL, no error; the
 * producer's own error, if its fill failed, is dropped, as the export reports
 * it again); -1 with a Python error, -2 with the BufferError of a view it
 * refuses (TVMFFIPyRefuseUnresolvedView). */
static int TVMFFIPyBorrowedTensorNew(PyObject* x, const DLPackExchangeAPI* api, int take_owner,
                                     TVMFFIObjectHandle* out) {
  *out = NULL;
  if (api->dltensor_from_py_object_no_sync == NULL) return 1;
  /* The fill goes straight into a block of the standard size (the spare when there is one),
   * so that the block can serve again once released with the GIL held
   * (TVMFFIPyReleaseCallTensor, TVMFFIPyDecRefWithGIL). */
  TVMFFIPyBorrowedTensor* t = NULL;
#ifndef Py_GIL_DISABLED
  t = tvm_ffi_py_borrowed_spare;
  tvm_ffi_py_borrowed_spare = NULL;
#endif
  if (t == NULL) {
    t = (TVMFFIPyBorrowedTensor*)malloc(TVMFFIPyBorrowedSize(kTVMFFIPyBorrowedSpareDims));
    if (t == NULL) {
      PyErr_NoMemory();
      return -1;
    }
  }
  if (api->dltensor_from_py_object_no_sync(x, &t->tensor) != 0) {
    PyErr_Clear();
    t->tensor.ndim = 0;
    TVMFFIPyBorrowedTensorRecycle(t);
    return 1;
  }
  const DLTensor view = t->tensor;
  int32_t n = view.ndim;
  if (n < 0 || n > kTVMFFIPyBorrowedMaxDims || (n > 0 && view.shape == NULL)) {
    t->tensor.ndim = 0;
    TVMFFIPyBorrowedTensorRecycle(t);
    return 1;
  }
  if (n > kTVMFFIPyBorrowedSpareDims) {
    TVMFFIPyBorrowedTensor* big = (TVMFFIPyBorrowedTensor*)malloc(TVMFFIPyBorrowedSize(n));
    t->tensor.ndim = 0;
    TVMFFIPyBorrowedTensorRecycle(t);
    if (big == NULL) {
      PyErr_NoMemory();
      return -1;
    }
    t = big;
    t->tensor = view;
  }
  int64_t* shape = t->dims;
  int64_t* strides = t->dims + n;
  for (int32_t i = 0; i < n; ++i) {
    if (view.shape[i] < 0) {
      TVMFFIPyBorrowedTensorRecycle(t);
      return 1;
    }
    shape[i] = view.shape[i];
  }
  if (view.strides != NULL) {
    for (int32_t i = 0; i < n; ++i) strides[i] = view.strides[i];
  } else {
    /* Old producers may leave compact tensors' strides NULL (DLPack < 1.2). */
    int64_t step = 1;
    for (int32_t i = n - 1; i >= 0; --i) {
      strides[i] = step;
      step *= shape[i];
    }
  }
  TVMFFIPyInitHeader(&t->header, kTVMFFITensor, TVMFFIPyBorrowedTensorDelete);
  t->tensor.shape = shape;
  t->tensor.strides = strides;
  /* Checked on the copy: asking the tensor may run Python code that changes it. */
  if (TVMFFIPyRefuseUnresolvedView(x, &t->tensor) != 0) {
    TVMFFIPyBorrowedTensorRecycle(t);
    return -2;
  }
  if (take_owner) Py_INCREF(x);
  t->owner = take_owner ? x : NULL;
  *out = (TVMFFIObjectHandle)t;
  return 0;
}

/* Whether obj is a TVMFFIPyBorrowedTensor whose one strong reference (and the
 * weak one that goes with it) the caller holds: then no other thread can reach
 * it, and the caller may tear it down itself. */
static inline int TVMFFIPyBorrowedTensorIsSole(TVMFFIObject* obj) {
  return obj->deleter == TVMFFIPyBorrowedTensorDelete && TVMFFIPyHoldsOnlyReference(obj);
}

/* TVMFFIObjectDecRef for a caller holding the GIL (a Python wrapper's
 * dealloc, a call releasing its temporaries): the last reference to a Tensor
 * object over a framework tensor drops the framework tensor right here and
 * keeps the block for the next such object, without the deleter's check for
 * the GIL (PyGILState_Check) and the allocator round trip. */
static inline void TVMFFIPyDecRefWithGIL(TVMFFIObjectHandle handle) {
  TVMFFIObject* obj = (TVMFFIObject*)handle;
  if (TVMFFIPyBorrowedTensorIsSole(obj)) {
    TVMFFIPyBorrowedTensor* t = (TVMFFIPyBorrowedTensor*)obj;
    PyObject* owner = t->owner;
    /* The block is recycled before the owner goes: dropping it may run code that
     * makes another such object. */
    TVMFFIPyBorrowedTensorRecycle(t);
    Py_XDECREF(owner);
    return;
  }
  TVMFFIObjectDecRef(handle);
}

/* Releases a call's reference to the Tensor object its argument x became
 * (TVMFFIPyExchangeArg), x still alive in the caller's hands, with the GIL
 * held. An object made without an owner is recycled or freed right here if
 * nothing else refers to it; if the callee kept it, it takes its reference to
 * x now, before the call lets go. Any other object (the Array of a list
 * argument) is simply released; the Function of a callback argument goes to
 * TVMFFIPyReleaseCallArg (tvm_ffi_vectorcall.h) instead. */
static inline void TVMFFIPyReleaseCallTensor(TVMFFIObjectHandle handle, PyObject* x) {
  TVMFFIPyBorrowedTensor* t = (TVMFFIPyBorrowedTensor*)handle;
  if (t->header.deleter == TVMFFIPyBorrowedTensorDelete) {
    if (TVMFFIPyHoldsOnlyReference(&t->header)) {
      PyObject* owner = t->owner;
      TVMFFIPyBorrowedTensorRecycle(t);
      Py_XDECREF(owner);
      return;
    }
    if (t->owner == NULL) {
      Py_INCREF(x);
      t->owner = x;
    }
  }
  TVMFFIObjectDecRef(handle);
}

/* An owned Tensor over x exported by its producer (no stream sync). 0 with
 * *out set, or -1 with a Python error (the producer's, or a BufferError when
 * the runtime rejects the tensor), or -2 with the BufferError of a lazy view
 * that no other export path may take either (TVMFFIPyRefuseUnresolvedView). */
static inline int TVMFFIPyExchangeToHandle(PyObject* x, const DLPackExchangeAPI* api,
                                           int32_t require_alignment, int32_t require_contiguous,
                                           TVMFFIObjectHandle* out) {
  if (require_alignment == 0 && require_contiguous == 0) {
    int rc = TVMFFIPyBorrowedTensorNew(x, api, 1, out);
    if (rc <= 0) return rc;
  }
  DLManagedTensorVersioned* managed = NULL;
  if (api->managed_tensor_from_py_object_no_sync(x, &managed) != 0 || managed == NULL) {
    if (PyErr_Occurred() == NULL) {
      PyErr_Format(PyExc_RuntimeError,
                   "%s.__dlpack_c_exchange_api__: managed_tensor_from_py_object_no_sync "
                   "failed without setting an error",
                   TVMFFIPyTypeName(Py_TYPE(x)));
    }
    return -1;
  }
  if (TVMFFIPyRefuseUnresolvedView(x, &managed->dl_tensor) != 0) {
    if (managed->deleter != NULL) managed->deleter(managed);
    return -2;
  }
  if (TVMFFITensorFromDLPackVersioned(managed, require_alignment, require_contiguous, out) != 0) {
    if (managed->deleter != NULL) managed->deleter(managed);
    TVMFFIPyRaiseBufferErrorFromFFI("Failed to convert DLManagedTensorVersioned to ffi.Tensor");
    return -1;
  }
  return 0;
}

/* from_dlpack(x) without requirements, when x's type publishes a table that
 * fills DLTensors: 0 with *out an owned Tensor over x (holding a reference to
 * it), 1 when x takes the general path (no table, no fill, or a description
 * the managed export should handle; no error set), -1 with a Python error,
 * -2 with the BufferError of a refused lazy view. The same object
 * exchange_to_handle (tensor.pxi) makes, without its
 * requirement checks, which have nothing to check here. */
static inline int TVMFFIPyExchangeFromDLPack(PyObject* x, TVMFFIObjectHandle* out) {
  const DLPackExchangeAPI* api = NULL;
  *out = NULL;
  if (TVMFFIPyExchangeLookup(Py_TYPE(x), &api) != 0) return -1;
  if (api == NULL) return 1;
  return TVMFFIPyBorrowedTensorNew(x, api, 1, out);
}

/* Dimensions of a DLTensor view whose shape and strides are copied to the call. */
enum { kTVMFFIPyViewDims = 8 };

/* A framework tensor argument x (api: its type's table). With a view slot (the
 * parameter is DLTensor*) and a producer that fills DLTensors, x is passed as a
 * DLTensorPtr to *view, whose shape and strides are copied to dims (room for
 * 2 * kTVMFFIPyViewDims values: the producer's arrays may change when another
 * thread runs while the GIL is released); else, and for tensors of more
 * dimensions, as a Tensor object written to *owned, which the caller releases
 * after the call: with TVMFFIPyReleaseCallTensor when call_release is set
 * (the object may then hold no reference to x during the call), else with
 * TVMFFIObjectDecRef. The table and the device are recorded in env. 0, or -1
 * with a Python error (nothing left to release). */
static inline int TVMFFIPyExchangeArg(PyObject* x, const DLPackExchangeAPI* api, DLTensor* view,
                                      int64_t* dims, TVMFFIAny* out, TVMFFIObjectHandle* owned,
                                      int call_release, TVMFFIPyCallEnv* env) {
  DLDevice device;
  *owned = NULL;
  out->zero_padding = 0;
  if (view != NULL && api->dltensor_from_py_object_no_sync != NULL) {
    if (api->dltensor_from_py_object_no_sync(x, view) != 0) {
      if (PyErr_Occurred() == NULL) {
        PyErr_Format(PyExc_RuntimeError,
                     "%s.__dlpack_c_exchange_api__: dltensor_from_py_object_no_sync failed "
                     "without setting an error",
                     TVMFFIPyTypeName(Py_TYPE(x)));
      }
      return -1;
    }
  }
  if (view != NULL && api->dltensor_from_py_object_no_sync != NULL && view->ndim >= 0 &&
      view->ndim <= kTVMFFIPyViewDims) {
    for (int32_t i = 0; i < view->ndim; ++i) {
      dims[i] = view->shape[i];
      if (view->strides != NULL) dims[kTVMFFIPyViewDims + i] = view->strides[i];
    }
    view->shape = dims;
    if (view->strides != NULL) view->strides = dims + kTVMFFIPyViewDims;
    /* Checked on the copy: asking the tensor may run Python code that changes it. */
    if (TVMFFIPyRefuseUnresolvedView(x, view) != 0) return -1;
    out->type_index = kTVMFFIDLTensorPtr;
    out->v_int64 = 0;
    out->v_ptr = view;
    device = view->device;
  } else {
    TVMFFIObjectHandle handle = NULL;
    int rc = TVMFFIPyBorrowedTensorNew(x, api, !call_release, &handle);
    if (rc > 0) rc = TVMFFIPyExchangeToHandle(x, api, 0, 0, &handle);
    if (rc != 0) return -1;
    out->type_index = kTVMFFITensor;
    out->v_int64 = 0;
    out->v_obj = (TVMFFIObject*)handle;
    *owned = handle;
    device = ((DLTensor*)((char*)handle + sizeof(TVMFFIObject)))->device;
  }
  if (TVMFFIPyCallEnvRecord(env, api, device) != 0) {
    if (*owned != NULL) {
      if (call_release) {
        TVMFFIPyReleaseCallTensor(*owned, x);
      } else {
        TVMFFIObjectDecRef(*owned);
      }
      *owned = NULL;
    }
    return -1;
  }
  return 0;
}

/* The framework tensor of an owned Tensor result: the new reference, with the
 * handle released; or NULL (no error set, handle untouched) when the import
 * failed and the caller should return a tvm_ffi.Tensor instead. */
static inline PyObject* TVMFFIPyExchangeImport(TVMFFIObjectHandle handle,
                                               const DLPackExchangeAPI* api) {
  DLManagedTensorVersioned* managed = NULL;
  void* py_out = NULL;
  if (api->managed_tensor_to_py_object_no_sync == NULL) return NULL;
  if (TVMFFITensorToDLPackVersioned(handle, &managed) != 0) {
    TVMFFIObjectHandle err = NULL;
    TVMFFIErrorMoveFromRaised(&err);
    if (err != NULL) TVMFFIObjectDecRef(err);
    return NULL;
  }
  if (api->managed_tensor_to_py_object_no_sync(managed, &py_out) != 0 || py_out == NULL) {
    /* The import did not take the tensor: delete it, keep the FFI one. */
    if (managed->deleter != NULL) managed->deleter(managed);
    PyErr_Clear();
    return NULL;
  }
  TVMFFIObjectDecRef(handle);
  return (PyObject*)py_out;
}

/* ------------------------------------------------------------------------
 * Containers tagged with a call's result API (exchange.pxi keeps the tags)
 * ------------------------------------------------------------------------ */

/* How many tagged container wrappers are alive: while none is, container
 * arguments need no tag lookup. */
static Py_ssize_t tvm_ffi_py_tag_count = 0;

static inline void TVMFFIPyTagCountAdd(Py_ssize_t delta) { tvm_ffi_py_tag_count += delta; }
static inline Py_ssize_t TVMFFIPyTagCount(void) { return tvm_ffi_py_tag_count; }

static inline int TVMFFIPyIsContainerIndex(int32_t type_index) {
  return tvm::ffi::detail::IsContainerTypeIndex(type_index);
}

/* ------------------------------------------------------------------------
 * tvm_ffi.Tensor as a producer
 * ------------------------------------------------------------------------ */

/* tvm_ffi.Tensor, set at import (the type whose instances the table reads). */
static PyTypeObject* tvm_ffi_py_tensor_type = NULL;

static inline int TVMFFIPyTensorHandleOf(void* py_object, TVMFFIObjectHandle* out) {
  PyObject* obj = (PyObject*)py_object;
  if (tvm_ffi_py_tensor_type == NULL || !PyObject_TypeCheck(obj, tvm_ffi_py_tensor_type)) {
    PyErr_Format(PyExc_TypeError,
                 "tvm_ffi.Tensor.__dlpack_c_exchange_api__: expected a tvm_ffi.Tensor, got %s",
                 TVMFFIPyTypeName(Py_TYPE(obj)));
    return -1;
  }
  *out = TVMFFIPyObjectHandle(obj);
  if (*out == NULL) {
    PyErr_SetString(PyExc_ValueError, "tvm_ffi.Tensor has no underlying FFI object");
    return -1;
  }
  return 0;
}

static int TVMFFIPyTensorManagedFromPy(void* py_object, DLManagedTensorVersioned** out) {
  TVMFFIObjectHandle handle;
  if (TVMFFIPyTensorHandleOf(py_object, &handle) != 0) return -1;
  if (TVMFFITensorToDLPackVersioned(handle, out) != 0) {
    TVMFFIPyRaiseBufferErrorFromFFI("tvm_ffi.Tensor: cannot export as DLPack");
    return -1;
  }
  return 0;
}

static int TVMFFIPyTensorDLTensorFromPy(void* py_object, DLTensor* out) {
  TVMFFIObjectHandle handle;
  if (TVMFFIPyTensorHandleOf(py_object, &handle) != 0) return -1;
  *out = *(const DLTensor*)((char*)handle + sizeof(TVMFFIObject));
  return 0;
}

static int TVMFFIPyTensorManagedToPy(DLManagedTensorVersioned* managed, void** out_py_object) {
  TVMFFIObjectHandle handle = NULL;
  if (TVMFFITensorFromDLPackVersioned(managed, 0, 0, &handle) != 0) {
    TVMFFIPyRaiseBufferErrorFromFFI("tvm_ffi.Tensor: cannot import a DLManagedTensorVersioned");
    return -1;
  }
  /* On failure the Tensor, which owns managed now, is dropped: this deletes it. */
  PyObject* obj = TVMFFIPyWrapHandle((PyObject*)tvm_ffi_py_tensor_type,
                                     (PyObject*)tvm_ffi_py_tensor_type, handle);
  if (obj == NULL) return -1;
  *out_py_object = obj;
  return 0;
}

static int TVMFFIPyTensorCurrentStream(DLDeviceType device_type, int32_t device_id,
                                       void** out_stream) {
  *out_stream = device_type == kDLCPU ? NULL : TVMFFIEnvGetStream(device_type, device_id);
  return 0;
}

static void TVMFFIPyCPUManagedDeleter(DLManagedTensorVersioned* self) {
  free(self->manager_ctx);
  free(self);
}

/* Compact CPU tensors (64-byte aligned); other devices are refused. */
static int TVMFFIPyTensorAllocator(DLTensor* prototype, DLManagedTensorVersioned** out,
                                   void* error_ctx,
                                   void (*set_error)(void*, const char*, const char*)) {
  if (prototype->device.device_type != kDLCPU) {
    set_error(error_ctx, "RuntimeError", "tvm_ffi.Tensor's allocator allocates CPU memory only");
    return -1;
  }
  int32_t ndim = prototype->ndim;
  if (ndim < 0 || ndim > 64) {
    set_error(error_ctx, "ValueError", "tvm_ffi.Tensor's allocator: ndim must be in [0, 64]");
    return -1;
  }
  size_t elements = 1;
  for (int32_t i = 0; i < ndim; ++i) {
    int64_t extent = prototype->shape[i];
    if (extent < 0 || (extent > 0 && elements > (SIZE_MAX >> 8) / (size_t)extent)) {
      set_error(error_ctx, "ValueError", "tvm_ffi.Tensor's allocator: negative or too large shape");
      return -1;
    }
    elements *= (size_t)extent;
  }
  size_t header = sizeof(DLManagedTensorVersioned);
  DLManagedTensorVersioned* managed = (DLManagedTensorVersioned*)malloc(
      header + 2 * sizeof(int64_t) * (size_t)(ndim > 0 ? ndim : 1));
  if (managed == NULL) {
    set_error(error_ctx, "RuntimeError", "tvm_ffi.Tensor's allocator: out of memory");
    return -1;
  }
  int64_t* shape = (int64_t*)((char*)managed + header);
  int64_t* strides = shape + ndim;
  size_t numel = 1;
  for (int32_t i = ndim - 1; i >= 0; --i) {
    shape[i] = prototype->shape[i];
    strides[i] = (int64_t)numel;
    numel *= (size_t)shape[i];
  }
  size_t bytes = (numel * prototype->dtype.bits * prototype->dtype.lanes + 7) / 8;
  void* data = aligned_alloc(64, ((bytes > 0 ? bytes : 1) + 63) / 64 * 64);
  if (data == NULL) {
    free(managed);
    set_error(error_ctx, "RuntimeError", "tvm_ffi.Tensor's allocator: out of memory");
    return -1;
  }
  managed->version.major = DLPACK_MAJOR_VERSION;
  managed->version.minor = DLPACK_MINOR_VERSION;
  managed->manager_ctx = data;
  managed->deleter = TVMFFIPyCPUManagedDeleter;
  managed->flags = 0;
  managed->dl_tensor.data = data;
  managed->dl_tensor.device = prototype->device;
  managed->dl_tensor.ndim = ndim;
  managed->dl_tensor.dtype = prototype->dtype;
  managed->dl_tensor.shape = shape;
  managed->dl_tensor.strides = strides;
  managed->dl_tensor.byte_offset = 0;
  *out = managed;
  return 0;
}

static const DLPackExchangeAPI tvm_ffi_py_tensor_exchange_api = {
    {{DLPACK_MAJOR_VERSION, DLPACK_MINOR_VERSION}, NULL},
    TVMFFIPyTensorAllocator,
    TVMFFIPyTensorManagedFromPy,
    TVMFFIPyTensorManagedToPy,
    TVMFFIPyTensorDLTensorFromPy,
    TVMFFIPyTensorCurrentStream,
};

/* The capsule published as tvm_ffi.Tensor.__dlpack_c_exchange_api__. */
static PyObject* TVMFFIPyTensorExchangeCapsule(void) {
  return PyCapsule_New((void*)&tvm_ffi_py_tensor_exchange_api, TVMFFI_PY_EXCHANGE_CAPSULE, NULL);
}

/* The table of tvm_ffi.core.DLTensorTestWrapper (a testing producer that wraps a
 * tvm_ffi.Tensor in its `tensor` attribute): no allocator and no DLTensor fill,
 * export of the wrapped tensor, import as tvm_ffi.Tensor, and the FFI stream
 * of non-CPU devices as the current stream (CPU leaves the output untouched). */
static int TVMFFIPyTestWrapperManagedFromPy(void* py_object, DLManagedTensorVersioned** out) {
  PyObject* tensor = PyObject_GetAttrString((PyObject*)py_object, "tensor");
  if (tensor == NULL) return -1;
  int rc = TVMFFIPyTensorManagedFromPy(tensor, out);
  Py_DECREF(tensor);
  return rc;
}

static int TVMFFIPyTestWrapperCurrentStream(DLDeviceType device_type, int32_t device_id,
                                            void** out_stream) {
  if (device_type != kDLCPU) *out_stream = TVMFFIEnvGetStream(device_type, device_id);
  return 0;
}

static const DLPackExchangeAPI tvm_ffi_py_test_wrapper_exchange_api = {
    {{DLPACK_MAJOR_VERSION, DLPACK_MINOR_VERSION}, NULL},
    NULL,
    TVMFFIPyTestWrapperManagedFromPy,
    TVMFFIPyTensorManagedToPy,
    NULL,
    TVMFFIPyTestWrapperCurrentStream,
};

static PyObject* TVMFFIPyTestWrapperExchangeCapsule(void) {
  return PyCapsule_New((void*)&tvm_ffi_py_test_wrapper_exchange_api, TVMFFI_PY_EXCHANGE_CAPSULE,
                       NULL);
}

static void TVMFFIPySetTensorType(PyObject* type) {
  Py_INCREF(type);
  tvm_ffi_py_tensor_type = (PyTypeObject*)type;
}

#endif  // TVM_FFI_PYTHON_DLPACK_EXCHANGE_H_
