/*
 * The floor of the torch rows of bench_calls.py: what any binding must do to call a kernel with
 * torch CPU tensors as tensor_exchange.md asks, written as plainly as C allows, with no checks
 * and nothing else around it. Not a binding; a lower bound for one.
 *
 *   floor_call(h, x, ...)  for each tensor, torch's dltensor_from_py_object_no_sync into a
 *                          DLTensor on the stack, passed as a DLTensorPtr; torch's allocator
 *                          installed for the callee (TVMFFIEnvSetDLPackManagedTensorAllocator)
 *                          and restored after; TVMFFIFunctionCall of the Function handle h with
 *                          the GIL released, as a Function does by default. Returns None.
 *   floor_call_tensor(h, x) as floor_call with one tensor, passed as a Tensor object instead
 *                          (a kernel taking ffi::Tensor needs one): the fill goes into a
 *                          block kept from call to call (header, DLTensor, its shape and
 *                          strides copied), given as kTVMFFITensor; after the call the block
 *                          must be back to one reference (a kernel keeping it is an error).
 *                          One thread at a time: the block is shared.
 *   floor_fill(x)          the fill alone, with the GIL held (what from_dlpack must at least do).
 *
 * The exchange table is read from the first tensor's type once; another type raises TypeError.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <dlpack/dlpack.h>
#include <tvm/ffi/c_api.h>

#define FLOOR_MAX_TENSORS 8

static PyTypeObject* cached_type;
static const DLPackExchangeAPI* cached_api;

static const DLPackExchangeAPI* api_of(PyObject* obj) {
  if (Py_TYPE(obj) == cached_type) return cached_api;
  if (cached_type != NULL) {
    PyErr_SetString(PyExc_TypeError, "torch_floor: one tensor type per process");
    return NULL;
  }
  PyObject* cap = PyObject_GetAttrString((PyObject*)Py_TYPE(obj), "__dlpack_c_exchange_api__");
  if (cap == NULL) return NULL;
  const DLPackExchangeAPI* api = PyCapsule_GetPointer(cap, "dlpack_exchange_api");
  Py_DECREF(cap);
  if (api == NULL) return NULL;
  if (api->dltensor_from_py_object_no_sync == NULL || api->managed_tensor_allocator == NULL) {
    PyErr_SetString(PyExc_TypeError, "torch_floor: the table lacks the fill or the allocator");
    return NULL;
  }
  Py_INCREF(Py_TYPE(obj));
  cached_type = Py_TYPE(obj);
  cached_api = api;
  return api;
}

/* The call with api's allocator installed and the GIL released: 0, or -1 with an error set. */
static int floor_invoke(void* handle, const DLPackExchangeAPI* api, TVMFFIAny* packed, int32_t n) {
  TVMFFIAny result;
  DLPackManagedTensorAllocator prev;
  int rc;
  result.type_index = kTVMFFINone;
  result.zero_padding = 0;
  result.v_int64 = 0;
  if (TVMFFIEnvSetDLPackManagedTensorAllocator(api->managed_tensor_allocator, 0, &prev) != 0) {
    PyErr_SetString(PyExc_RuntimeError, "torch_floor: installing the allocator failed");
    return -1;
  }
  Py_BEGIN_ALLOW_THREADS rc = TVMFFIFunctionCall(handle, packed, n, &result);
  Py_END_ALLOW_THREADS TVMFFIEnvSetDLPackManagedTensorAllocator(prev, 0, NULL);
  if (rc != 0 || result.type_index != kTVMFFINone) {
    PyErr_SetString(PyExc_RuntimeError, "torch_floor: the kernel failed or returned a value");
    return -1;
  }
  return 0;
}

static PyObject* floor_call(PyObject* self, PyObject* const* args, Py_ssize_t nargs) {
  DLTensor tensors[FLOOR_MAX_TENSORS];
  TVMFFIAny packed[FLOOR_MAX_TENSORS];
  const DLPackExchangeAPI* api = NULL;
  int32_t n = (int32_t)nargs - 1;
  (void)self;
  if (n < 1 || n > FLOOR_MAX_TENSORS) {
    PyErr_SetString(PyExc_TypeError, "torch_floor: a handle and 1 to 8 tensors");
    return NULL;
  }
  void* handle = PyLong_AsVoidPtr(args[0]);
  if (handle == NULL) return NULL;
  for (int32_t i = 0; i < n; ++i) {
    api = api_of(args[i + 1]);
    if (api == NULL || api->dltensor_from_py_object_no_sync(args[i + 1], &tensors[i]) != 0) {
      return NULL;
    }
    packed[i].type_index = kTVMFFIDLTensorPtr;
    packed[i].zero_padding = 0;
    packed[i].v_int64 = 0;
    packed[i].v_ptr = &tensors[i];
  }
  if (floor_invoke(handle, api, packed, n) != 0) return NULL;
  Py_RETURN_NONE;
}

#define FLOOR_MAX_DIMS 8

typedef struct FloorTensor {
  TVMFFIObject header;
  DLTensor tensor;
  int64_t dims[2 * FLOOR_MAX_DIMS];
} FloorTensor;

/* Never runs: the floor checks that the block is back to its one reference. */
static void floor_tensor_delete(void* self, int flags) {
  (void)self;
  (void)flags;
}

static FloorTensor floor_block;

static PyObject* floor_call_tensor(PyObject* self, PyObject* const* args, Py_ssize_t nargs) {
  TVMFFIAny packed;
  FloorTensor* t = &floor_block;
  (void)self;
  if (nargs != 2) {
    PyErr_SetString(PyExc_TypeError, "torch_floor: a handle and one tensor");
    return NULL;
  }
  void* handle = PyLong_AsVoidPtr(args[0]);
  if (handle == NULL) return NULL;
  const DLPackExchangeAPI* api = api_of(args[1]);
  if (api == NULL || api->dltensor_from_py_object_no_sync(args[1], &t->tensor) != 0) return NULL;
  int32_t n = t->tensor.ndim;
  if (n > FLOOR_MAX_DIMS || t->tensor.strides == NULL) {
    PyErr_SetString(PyExc_TypeError, "torch_floor: at most 8 dimensions, with strides");
    return NULL;
  }
  for (int32_t i = 0; i < n; ++i) {
    t->dims[i] = t->tensor.shape[i];
    t->dims[FLOOR_MAX_DIMS + i] = t->tensor.strides[i];
  }
  t->tensor.shape = t->dims;
  t->tensor.strides = t->dims + FLOOR_MAX_DIMS;
  t->header.combined_ref_count = ((uint64_t)1 << 32) | 1;
  t->header.type_index = kTVMFFITensor;
  t->header.__padding = 0;
  t->header.deleter = floor_tensor_delete;
  packed.type_index = kTVMFFITensor;
  packed.zero_padding = 0;
  packed.v_int64 = 0;
  packed.v_obj = &t->header;
  if (floor_invoke(handle, api, &packed, 1) != 0) return NULL;
  if (t->header.combined_ref_count != (((uint64_t)1 << 32) | 1)) {
    PyErr_SetString(PyExc_RuntimeError, "torch_floor: the kernel kept the tensor");
    return NULL;
  }
  Py_RETURN_NONE;
}

static PyObject* floor_fill(PyObject* self, PyObject* x) {
  DLTensor tensor;
  const DLPackExchangeAPI* api = api_of(x);
  (void)self;
  if (api == NULL || api->dltensor_from_py_object_no_sync(x, &tensor) != 0) return NULL;
  Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"floor_call", (PyCFunction)(void (*)(void))floor_call, METH_FASTCALL, NULL},
    {"floor_call_tensor", (PyCFunction)(void (*)(void))floor_call_tensor, METH_FASTCALL, NULL},
    {"floor_fill", floor_fill, METH_O, NULL},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "torch_floor", NULL, -1, methods};

PyMODINIT_FUNC PyInit_torch_floor(void) { return PyModule_Create(&module); }
