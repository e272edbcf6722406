/*
 * Private helper of the runtime's C functions: run a body that may throw and
 * turn any exception into a raised error and -1 (see TVM_FFI_SAFE_CALL_END).
 * Bodies report bad input with `TVM_FFI_THROW(Kind) << message`.
 */
#ifndef TVM_FFI_SRC_FFI_SAFE_INVOKE_H_
#define TVM_FFI_SRC_FFI_SAFE_INVOKE_H_

#include <tvm/ffi/error.h>

TVM_FFI_NAMESPACE_BEGIN
namespace detail {
template <typename F>
int SafeInvoke(F&& body) {
  TVM_FFI_SAFE_CALL_BEGIN();
  return body();
  TVM_FFI_SAFE_CALL_END();
}
}  // namespace detail
TVM_FFI_NAMESPACE_END

#endif  // TVM_FFI_SRC_FFI_SAFE_INVOKE_H_
