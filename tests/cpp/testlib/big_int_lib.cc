/*
 * A user library for the Python BigInt tests (big_int_lib.so): functions
 * that take and return ffi::BigInt, Any and int64_t.
 */
#include <tvm/ffi/any.h>
#include <tvm/ffi/big_int.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/function.h>

#include <cstdint>
#include <string>

namespace big_int_lib {
namespace ffi = tvm::ffi;

ffi::BigInt Square(ffi::BigInt x) { return x * x; }
ffi::Any NegateAny(ffi::Any x) { return -x.cast<ffi::BigInt>(); }
int64_t TakeInt64(int64_t x) { return x; }
ffi::BigInt Pow2(int64_t n) { return ffi::BigInt(1) << n; }
std::string ToDecimal(ffi::BigInt x) { return x.ToString(); }
ffi::BigInt Sum(ffi::Array<ffi::BigInt> values) {
  ffi::BigInt total;
  for (const ffi::BigInt& v : values) total += v;
  return total;
}
/*! \return callback(x) + 1: the callback receives x as a Python int. */
ffi::BigInt CallBack(ffi::Function callback, ffi::BigInt x) {
  return callback(x).cast<ffi::BigInt>() + 1;
}

}  // namespace big_int_lib

TVM_FFI_DLL_EXPORT_TYPED_FUNC(square, big_int_lib::Square);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(negate_any, big_int_lib::NegateAny);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(take_int64, big_int_lib::TakeInt64);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(pow2, big_int_lib::Pow2);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(to_decimal, big_int_lib::ToDecimal);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(sum, big_int_lib::Sum);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(call_back, big_int_lib::CallBack);
