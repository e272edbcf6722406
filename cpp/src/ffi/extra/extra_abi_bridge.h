/*
 * The one bridge extra_abi.cc (stand-ins named like the other implementation's functions, which
 * cannot see our C++ types) needs: raising the thread's pending FFI error as our Error.
 */
#ifndef TVM_FFI_EXTRA_EXTRA_ABI_BRIDGE_H_
#define TVM_FFI_EXTRA_EXTRA_ABI_BRIDGE_H_

#include <tvm/ffi/base.h>

TVM_FFI_NAMESPACE_BEGIN
namespace detail {

/*! \brief Throw the error raised by the last failed C call (TVMFFIErrorMoveFromRaised) as Error. */
[[noreturn]] void ExtraAbiThrowRaised();

}  // namespace detail
TVM_FFI_NAMESPACE_END

#endif  // TVM_FFI_EXTRA_EXTRA_ABI_BRIDGE_H_
