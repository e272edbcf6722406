/*
 * Common macros of the tvm-ffi C++ headers.
 *
 * Every C++ declaration of this project lives in an inline namespace of its
 * own inside tvm::ffi. Source code still says tvm::ffi::Any, but the mangled
 * names differ from those of any other tvm-ffi implementation, so inline code
 * compiled into libraries built against other headers never interposes on
 * ours (nor ours on theirs), and C++ exception types never match across them.
 * Only the C ABI of c_api.h connects the two.
 *
 * Open and close the namespace with TVM_FFI_NAMESPACE_BEGIN / _END.
 */
#ifndef TVM_FFI_BASE_H_
#define TVM_FFI_BASE_H_

#include <tvm/ffi/c_api.h>

#define TVM_FFI_INLINE_NAMESPACE own_v0

#define TVM_FFI_NAMESPACE_BEGIN \
  namespace tvm {               \
  namespace ffi {               \
  inline namespace TVM_FFI_INLINE_NAMESPACE {
#define TVM_FFI_NAMESPACE_END \
  }                           \
  }                           \
  }

#if defined(_MSC_VER)
#define TVM_FFI_INLINE __forceinline
#define TVM_FFI_NOINLINE __declspec(noinline)
#else
#define TVM_FFI_INLINE inline __attribute__((always_inline))
#define TVM_FFI_NOINLINE __attribute__((noinline))
#endif

#if defined(__GNUC__) || defined(__clang__)
#define TVM_FFI_LIKELY(x) __builtin_expect(!!(x), 1)
#define TVM_FFI_UNLIKELY(x) __builtin_expect(!!(x), 0)
#define TVM_FFI_FUNC_SIG __PRETTY_FUNCTION__
#else
#define TVM_FFI_LIKELY(x) (x)
#define TVM_FFI_UNLIKELY(x) (x)
#define TVM_FFI_FUNC_SIG __func__
#endif

#if defined(__GNUC__) || defined(__clang__)
#define TVM_FFI_UNREACHABLE() __builtin_unreachable()
#else
#define TVM_FFI_UNREACHABLE() __assume(0)
#endif

#define TVM_FFI_STR_CONCAT_(a, b) a##b
#define TVM_FFI_STR_CONCAT(a, b) TVM_FFI_STR_CONCAT_(a, b)

#endif  // TVM_FFI_BASE_H_
