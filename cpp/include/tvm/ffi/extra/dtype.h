/*
 * dtype_trait<T>::value: the DLDataType of a C++ element type, for kernels
 * that check a tensor's dtype against their template parameter.
 *
 *   template <typename T>
 *   void Fill(TensorView t) { if (t.dtype() != dtype_trait<T>::value) ...; }
 *
 * Covers the standard integer, floating-point and bool types, and (by name,
 * without including their headers) the CUDA and HIP low-precision types.
 */
#ifndef TVM_FFI_EXTRA_DTYPE_H_
#define TVM_FFI_EXTRA_DTYPE_H_

#include <dlpack/dlpack.h>
#include <tvm/ffi/base_detail.h>

#include <cstdint>
#include <type_traits>

// CUDA and HIP element types, declared so that kernels can name them
// whether or not the vendor headers are included.
struct __half;
struct __nv_bfloat16;
struct __nv_fp8_e4m3;
struct __nv_fp8_e5m2;
struct __nv_fp8_e8m0;
struct __nv_fp4_e2m1;
struct __nv_fp4x2_e2m1;
struct __hip_bfloat16;
struct hip_bfloat16;
struct __hip_fp8_e4m3;
struct __hip_fp8_e4m3_fnuz;
struct __hip_fp8_e5m2;
struct __hip_fp8_e5m2_fnuz;
struct __hip_fp4_e2m1;
struct __hip_fp4x2_e2m1;

TVM_FFI_NAMESPACE_BEGIN

/*! \brief The DLDataType of T (no value member for unknown types). */
template <typename T>
struct dtype_trait {};

namespace detail {
template <uint8_t kCode, uint8_t kBits, uint16_t kLanes = 1>
struct DTypeTraitValue {
  static constexpr DLDataType value = {kCode, kBits, kLanes};
};
template <typename T>
using IntDTypeTrait = DTypeTraitValue<std::is_signed_v<T> ? static_cast<uint8_t>(kDLInt)
                                                          : static_cast<uint8_t>(kDLUInt),
                                      static_cast<uint8_t>(8 * sizeof(T))>;
}  // namespace detail

template <>
struct dtype_trait<signed char> : detail::IntDTypeTrait<signed char> {};
template <>
struct dtype_trait<unsigned char> : detail::IntDTypeTrait<unsigned char> {};
template <>
struct dtype_trait<short> : detail::IntDTypeTrait<short> {};  // NOLINT(runtime/int)
template <>
struct dtype_trait<unsigned short> : detail::IntDTypeTrait<unsigned short> {};  // NOLINT
template <>
struct dtype_trait<int> : detail::IntDTypeTrait<int> {};
template <>
struct dtype_trait<unsigned int> : detail::IntDTypeTrait<unsigned int> {};
template <>
struct dtype_trait<long> : detail::IntDTypeTrait<long> {};  // NOLINT(runtime/int)
template <>
struct dtype_trait<unsigned long> : detail::IntDTypeTrait<unsigned long> {};  // NOLINT
template <>
struct dtype_trait<long long> : detail::IntDTypeTrait<long long> {};  // NOLINT(runtime/int)
template <>
struct dtype_trait<unsigned long long>               // NOLINT(runtime/int)
    : detail::IntDTypeTrait<unsigned long long> {};  // NOLINT(runtime/int)
template <>
struct dtype_trait<float> : detail::DTypeTraitValue<kDLFloat, 32> {};
template <>
struct dtype_trait<double> : detail::DTypeTraitValue<kDLFloat, 64> {};
template <>
struct dtype_trait<bool> : detail::DTypeTraitValue<kDLBool, 8> {};

template <>
struct dtype_trait<__half> : detail::DTypeTraitValue<kDLFloat, 16> {};
template <>
struct dtype_trait<__nv_bfloat16> : detail::DTypeTraitValue<kDLBfloat, 16> {};
template <>
struct dtype_trait<__nv_fp8_e4m3> : detail::DTypeTraitValue<kDLFloat8_e4m3fn, 8> {};
template <>
struct dtype_trait<__nv_fp8_e5m2> : detail::DTypeTraitValue<kDLFloat8_e5m2, 8> {};
template <>
struct dtype_trait<__nv_fp8_e8m0> : detail::DTypeTraitValue<kDLFloat8_e8m0fnu, 8> {};
template <>
struct dtype_trait<__nv_fp4_e2m1> : detail::DTypeTraitValue<kDLFloat4_e2m1fn, 4> {};
template <>
struct dtype_trait<__nv_fp4x2_e2m1> : detail::DTypeTraitValue<kDLFloat4_e2m1fn, 4, 2> {};
template <>
struct dtype_trait<__hip_bfloat16> : detail::DTypeTraitValue<kDLBfloat, 16> {};
template <>
struct dtype_trait<hip_bfloat16> : detail::DTypeTraitValue<kDLBfloat, 16> {};
template <>
struct dtype_trait<__hip_fp8_e4m3> : detail::DTypeTraitValue<kDLFloat8_e4m3fn, 8> {};
template <>
struct dtype_trait<__hip_fp8_e4m3_fnuz> : detail::DTypeTraitValue<kDLFloat8_e4m3fnuz, 8> {};
template <>
struct dtype_trait<__hip_fp8_e5m2> : detail::DTypeTraitValue<kDLFloat8_e5m2, 8> {};
template <>
struct dtype_trait<__hip_fp8_e5m2_fnuz> : detail::DTypeTraitValue<kDLFloat8_e5m2fnuz, 8> {};
template <>
struct dtype_trait<__hip_fp4_e2m1> : detail::DTypeTraitValue<kDLFloat4_e2m1fn, 4> {};
template <>
struct dtype_trait<__hip_fp4x2_e2m1> : detail::DTypeTraitValue<kDLFloat4_e2m1fn, 4, 2> {};

TVM_FFI_NAMESPACE_END
#endif  // TVM_FFI_EXTRA_DTYPE_H_
