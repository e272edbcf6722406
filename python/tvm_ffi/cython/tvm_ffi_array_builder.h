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

#include <cstdint>
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

#endif  // TVM_FFI_PYTHON_ARRAY_BUILDER_H_
