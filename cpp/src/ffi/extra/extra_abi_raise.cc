/*
 * Definition of the bridge of extra_abi_bridge.h (it needs our Error, which extra_abi.cc cannot
 * include).
 */
#include <tvm/ffi/error.h>

#include "extra_abi_bridge.h"

TVM_FFI_NAMESPACE_BEGIN
namespace detail {

void ExtraAbiThrowRaised() { throw MoveFromSafeCallRaised(); }

}  // namespace detail
TVM_FFI_NAMESPACE_END
