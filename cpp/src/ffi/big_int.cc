/*
 * Integers beyond int64 (TVMFFIBigIntFromByteArray,
 * TVMFFIBigIntGetContentByteArray). BigInt objects (index 78) are made here
 * only, from the custom allocator, always normalised: at least two words and
 * no redundant sign word, so that a value has exactly one representation and
 * a value that fits int64 is always a plain Int.
 */
#include <tvm/ffi/big_int.h>
#include <tvm/ffi/c_api.h>
#include "object_alloc.h"
#include "safe_invoke.h"

#include <cstdint>
#include <cstring>

TVM_FFI_NAMESPACE_BEGIN
namespace {

int64_t ReadWord(const char* data, size_t i) {
  int64_t w;
  std::memcpy(&w, data + i * sizeof(int64_t), sizeof(int64_t));
  return w;
}

}  // namespace
TVM_FFI_NAMESPACE_END

extern "C" {

TVM_FFI_DLL int TVMFFIBigIntFromByteArray(const TVMFFIByteArray* input, TVMFFIAny* out) {
  using tvm::ffi::Error;
  return tvm::ffi::detail::SafeInvoke([&]() -> int {
    if (input == nullptr || out == nullptr) {
      TVM_FFI_THROW(ValueError) << "TVMFFIBigIntFromByteArray: input and out must not be NULL";
    }
    if (input->size % sizeof(int64_t) != 0) {
      TVM_FFI_THROW(ValueError) << "BigInt content must contain whole 64-bit words";
    }
    size_t n = input->size / sizeof(int64_t);
    if (n != 0 && input->data == nullptr) {
      TVM_FFI_THROW(ValueError) << "TVMFFIBigIntFromByteArray: input data is NULL";
    }
    // Drop sign words that repeat the sign of the word below them.
    while (n > 1) {
      int64_t top = tvm::ffi::ReadWord(input->data, n - 1);
      int64_t below = tvm::ffi::ReadWord(input->data, n - 2);
      if ((top == 0 && below >= 0) || (top == -1 && below < 0)) {
        --n;
      } else {
        break;
      }
    }
    out->zero_padding = 0;
    if (n <= 1) {
      out->type_index = kTVMFFIInt;
      out->v_int64 = n == 0 ? 0 : tvm::ffi::ReadWord(input->data, 0);
      return 0;
    }
    auto* obj = tvm::ffi::detail::MakeCustomAllocObject<tvm::ffi::detail::BigIntObj>(
        kTVMFFIBigInt, n * sizeof(int64_t), n);
    std::memcpy(const_cast<int64_t*>(obj->words()), input->data, n * sizeof(int64_t));
    out->type_index = kTVMFFIBigInt;
    out->v_obj = reinterpret_cast<TVMFFIObject*>(obj);
    return 0;
  });
}

TVM_FFI_DLL TVMFFIByteArray TVMFFIBigIntGetContentByteArray(const TVMFFIAny* value) {
  if (value == nullptr) return TVMFFIByteArray{nullptr, 0};
  if (value->type_index == kTVMFFIInt) {
    return TVMFFIByteArray{reinterpret_cast<const char*>(&value->v_int64), sizeof(int64_t)};
  }
  if (value->type_index == kTVMFFIBigInt && value->v_obj != nullptr) {
    const auto* obj = reinterpret_cast<const tvm::ffi::detail::BigIntObj*>(value->v_obj);
    return TVMFFIByteArray{reinterpret_cast<const char*>(obj->words()),
                           obj->num_words * sizeof(int64_t)};
  }
  return TVMFFIByteArray{nullptr, 0};
}

}  // extern "C"
