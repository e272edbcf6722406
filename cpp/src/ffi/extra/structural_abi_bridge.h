/*
 * Raw bridges from structural_abi.cc (stand-ins named like the other
 * implementation's classes, which cannot see our C++ types) to the
 * structural engines. Only C types cross; errors are thrown as our Error.
 */
#ifndef TVM_FFI_EXTRA_STRUCTURAL_ABI_BRIDGE_H_
#define TVM_FFI_EXTRA_STRUCTURAL_ABI_BRIDGE_H_

#include <tvm/ffi/base.h>
#include <tvm/ffi/c_api.h>

#include <cstdint>

TVM_FFI_NAMESPACE_BEGIN
namespace detail {

bool StructuralAbiEqual(const TVMFFIAny* lhs, const TVMFFIAny* rhs, bool map_free_vars,
                        bool skip_tensor_content);
/*! \return The owned Tuple<AccessPath, AccessPath> of the first mismatch, or NULL when equal. */
TVMFFIObjectHandle StructuralAbiFirstMismatch(const TVMFFIAny* lhs, const TVMFFIAny* rhs,
                                              bool map_free_vars, bool skip_tensor_content);
uint64_t StructuralAbiHash(const TVMFFIAny* value, bool map_free_vars, bool skip_tensor_content);

}  // namespace detail
TVM_FFI_NAMESPACE_END

#endif  // TVM_FFI_EXTRA_STRUCTURAL_ABI_BRIDGE_H_
