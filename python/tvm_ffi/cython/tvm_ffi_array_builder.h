/*
 * Builds the ffi.Array of a Python list or tuple argument inside the extension,
 * from the items' converted views: one allocation, no call through the
 * "ffi.Array" global and no per-item argument packing. Inline code of the
 * public headers; only the C ABI crosses into libtvm_ffi.
 */
#ifndef TVM_FFI_PYTHON_ARRAY_BUILDER_H_
#define TVM_FFI_PYTHON_ARRAY_BUILDER_H_

#include <tvm/ffi/any.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/error.h>

#include <Python.h>

#include "tvm_ffi_limited_api.h"
#include "tvm_ffi_plain_values.h"

#include <cstdint>
#include <cstring>
#include <new>
#include <utility>

static_assert(sizeof(tvm::ffi::AnyView) == sizeof(TVMFFIAny),
              "an array of TVMFFIAny must read as an array of AnyView");

/* *out: a new Array owning copies of items[0..n) (views become owned values:
 * a RawStr a String, ...). 0 on success, else -1 with the error raised. */
static int TVMFFIPyArrayFromViews(const TVMFFIAny* items, int64_t n, TVMFFIObjectHandle* out) {
  TVM_FFI_SAFE_CALL_BEGIN();
  const auto* views = reinterpret_cast<const tvm::ffi::AnyView*>(items);
  tvm::ffi::Array<tvm::ffi::Any> array(views, views + n);
  *out = tvm::ffi::detail::ObjectUnsafe::MoveObjectRefToHandle(std::move(array));
  TVM_FFI_SAFE_CALL_END();
}

/* The cell of one item of a list or tuple of plain values: an exact int within
 * int64, float, bool, None, or an exact str (up to 7 bytes a SmallStr, longer a
 * new String). 0 with *cell owned by the caller; 1 for any other item (no error
 * set). No Python code runs, so the sequence cannot change meanwhile. */
static inline int TVMFFIPyPlainItemCell(PyObject* item, TVMFFIAny* cell) {
  if (TVMFFIPyScalarArg(item, cell) == 0) return 0;
  PyTypeObject* t = Py_TYPE(item);
  if (t == &PyUnicode_Type) {
    Py_ssize_t size;
    const char* data = PyUnicode_AsUTF8AndSize(item, &size);
    if (data == NULL) {
      PyErr_Clear(); /* lone surrogates: the general path reports them */
      return 1;
    }
    if (size <= 7) {
      TVMFFIPySmallArg(kTVMFFISmallStr, data, size, cell);
      return 0;
    }
    tvm::ffi::Any value(tvm::ffi::String(data, static_cast<size_t>(size)));
    *cell = tvm::ffi::detail::AnyUnsafe::MoveAnyToTVMFFIAny(std::move(value));
    return 0;
  }
  return 1;
}

/* *out: a new Array of the items of seq (an exact list or tuple) when every
 * item is a plain value (TVMFFIPyPlainItemCell), built in place: one
 * allocation, no views, no held items. 0 with *out set; 1 when some item needs
 * the general conversion (nothing made, no error); -1 with a Python error. The
 * common argument `[1, 2, 3]` (an Array<int64_t> parameter) takes this path. */
static int TVMFFIPyArrayFromPlainItems(PyObject* seq, TVMFFIObjectHandle* out) {
#ifdef Py_GIL_DISABLED
  /* Another thread may change a list under a free-threaded build: the general path holds its
   * items. */
  (void)seq;
  (void)out;
  return 1;
#else
  const int is_list = PyList_Check(seq);
  const Py_ssize_t n = is_list ? PyList_GET_SIZE(seq) : PyTuple_GET_SIZE(seq);
  auto item = [&](Py_ssize_t i) {
    return is_list ? PyList_GET_ITEM(seq, i) : PyTuple_GET_ITEM(seq, i);
  };
  TVMFFIAny first;
  first.type_index = kTVMFFINone;
  /* Cells are written in place and counted once at the end, or when bailing out, so that
   * the array releases the strings made so far. */
  tvm::ffi::ObjectPtr<tvm::ffi::ArrayObj> array;
  Py_ssize_t done = 0;
  try {
    /* Most sequences that are not plain fail on their first item: no allocation then. */
    if (n > 0 && TVMFFIPyPlainItemCell(item(0), &first) != 0) return 1;
    array = tvm::ffi::detail::SeqAllocInplace<tvm::ffi::ArrayObj>(n);
    TVMFFIAny* slots = array->slots();
    if (n > 0) slots[done++] = first;
    for (; done < n; ++done) {
      if (TVMFFIPyPlainItemCell(item(done), &slots[done]) != 0) {
        array->SeqCell()->size = done;
        return 1;
      }
    }
    array->SeqCell()->size = n;
    *out = tvm::ffi::detail::ObjectUnsafe::MoveObjectPtrToTVMFFIObjectPtr(std::move(array));
    return 0;
  } catch (const std::bad_alloc&) {
    PyErr_NoMemory();
  } catch (const std::exception& e) {
    PyErr_SetString(PyExc_RuntimeError, e.what());
  }
  if (array != nullptr) {
    array->SeqCell()->size = done;
  } else if (first.type_index >= kTVMFFIStaticObjectBegin) {
    TVMFFIObjectDecRef(first.v_obj); /* the array was never made */
  }
  return -1;
#endif
}

#endif  // TVM_FFI_PYTHON_ARRAY_BUILDER_H_
