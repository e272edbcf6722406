/*
 * The floor of the list and callback rows of bench_calls.py: what any binding must do for them,
 * written as plainly as the C ABI and the public headers allow, with no checks and nothing else
 * around it. Not a binding; a lower bound for one (a Python extension module, `call_floor`).
 *
 *   floor_sum_list(h, xs)  one allocation of an Array object with a slot per item of the list
 *                          xs (exact ints, read with PyLong_AsLongLong), passed to the Function
 * handle h called through TVMFFIFunctionCall with the GIL released (a Function's default), then
 * released. Returns the int result. floor_callback(h, f)   the Python callable f wrapped as a
 * Function laid out in a block kept from call to call (the ABI's header and Function cell, then f,
 * borrowed: the argument keeps it alive), passed to h called with the GIL released; the wrapper
 * re-takes the GIL (PyGILState_Ensure), converts its int argument to a Python int, calls f
 * (vectorcall) and converts the int result back. Returns the int result; a kernel keeping the
 * wrapper is an error. One thread at a time: the block is shared.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <tvm/ffi/c_api.h>
#include <tvm/ffi/container/array.h>

#include <cstdint>
#include <utility>

namespace {

PyObject* CallInt(void* handle, TVMFFIAny* packed, int32_t n) {
  TVMFFIAny result;
  result.type_index = kTVMFFINone;
  result.zero_padding = 0;
  result.v_int64 = 0;
  int rc;
  Py_BEGIN_ALLOW_THREADS rc = TVMFFIFunctionCall(handle, packed, n, &result);
  Py_END_ALLOW_THREADS if (rc != 0) {
    PyErr_SetString(PyExc_RuntimeError, "call_floor: the call failed");
    return nullptr;
  }
  return PyLong_FromLongLong(result.v_int64);
}

PyObject* FloorSumList(PyObject*, PyObject* const* args, Py_ssize_t nargs) {
  if (nargs != 2 || !PyList_CheckExact(args[1])) {
    PyErr_SetString(PyExc_TypeError, "call_floor.floor_sum_list(handle, list)");
    return nullptr;
  }
  void* handle = PyLong_AsVoidPtr(args[0]);
  if (handle == nullptr) return nullptr;
  Py_ssize_t n = PyList_GET_SIZE(args[1]);
  // The array object with its n slots in one allocation, each slot written directly.
  tvm::ffi::ObjectPtr<tvm::ffi::ArrayObj> array =
      tvm::ffi::details::SeqAllocInplace<tvm::ffi::ArrayObj>(n);
  for (Py_ssize_t i = 0; i < n; ++i) {
    TVMFFIAny cell;
    cell.type_index = kTVMFFIInt;
    cell.zero_padding = 0;
    cell.v_int64 = PyLong_AsLongLong(PyList_GET_ITEM(args[1], i));
    array->AppendCellUnchecked(cell);
  }
  TVMFFIAny packed;
  packed.type_index = kTVMFFIArray;
  packed.zero_padding = 0;
  // The object starts with its TVMFFIObject header; the call borrows it.
  packed.v_obj = reinterpret_cast<TVMFFIObject*>(array.get());
  return CallInt(handle, &packed, 1);
}

int CallbackSafeCall(void* self, const TVMFFIAny* args, int32_t, TVMFFIAny* result) {
  PyGILState_STATE state = PyGILState_Ensure();
  PyObject* arg = PyLong_FromLongLong(args[0].v_int64);
  PyObject* out = PyObject_Vectorcall(static_cast<PyObject*>(self), &arg, 1, nullptr);
  Py_DECREF(arg);
  result->type_index = kTVMFFIInt;
  result->zero_padding = 0;
  result->v_int64 = PyLong_AsLongLong(out);
  Py_DECREF(out);
  PyGILState_Release(state);
  return 0;
}

struct CallbackFunction {
  TVMFFIObject header;
  TVMFFIFunctionCell cell;
  PyObject* callable;
};

CallbackFunction callback_block;

int CallbackFunctionCall(void* handle, const TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  return CallbackSafeCall(static_cast<CallbackFunction*>(handle)->callable, args, n, result);
}

// Never runs: the floor checks that the block is back to its one reference.
void CallbackFunctionDelete(void*, int) {}

constexpr uint64_t kOneStrongOneWeak = (uint64_t{1} << 32) | 1;

PyObject* FloorCallback(PyObject*, PyObject* const* args, Py_ssize_t nargs) {
  if (nargs != 2) {
    PyErr_SetString(PyExc_TypeError, "call_floor.floor_callback(handle, callable)");
    return nullptr;
  }
  void* handle = PyLong_AsVoidPtr(args[0]);
  if (handle == nullptr) return nullptr;
  CallbackFunction* fn = &callback_block;
  fn->header.combined_ref_count = kOneStrongOneWeak;
  fn->header.type_index = kTVMFFIFunction;
  fn->header.__padding = 0;
  fn->header.deleter = CallbackFunctionDelete;
  fn->cell.safe_call = CallbackFunctionCall;
  fn->cell.cpp_call = nullptr;
  fn->callable = args[1];
  TVMFFIAny packed;
  packed.type_index = kTVMFFIFunction;
  packed.zero_padding = 0;
  packed.v_obj = &fn->header;
  PyObject* out = CallInt(handle, &packed, 1);
  if (fn->header.combined_ref_count != kOneStrongOneWeak) {
    Py_XDECREF(out);
    PyErr_SetString(PyExc_RuntimeError, "call_floor: the kernel kept the callback");
    return nullptr;
  }
  return out;
}

PyMethodDef kMethods[] = {
    {"floor_sum_list", reinterpret_cast<PyCFunction>(reinterpret_cast<void*>(FloorSumList)),
     METH_FASTCALL, nullptr},
    {"floor_callback", reinterpret_cast<PyCFunction>(reinterpret_cast<void*>(FloorCallback)),
     METH_FASTCALL, nullptr},
    {nullptr, nullptr, 0, nullptr},
};

PyModuleDef kModule = {PyModuleDef_HEAD_INIT, "call_floor", nullptr, -1, kMethods};

}  // namespace

PyMODINIT_FUNC PyInit_call_floor() { return PyModule_Create(&kModule); }
