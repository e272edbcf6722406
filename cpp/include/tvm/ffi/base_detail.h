/*
 * Build and attribute macros of the C++ headers, plus small internal helpers
 * every other header uses (hashing of bytes, iteration over argument packs,
 * type schemas).
 *
 *   TVM_FFI_PREDICT_FALSE(rare_condition)      branch hints
 *   TVM_FFI_NO_INLINE / TVM_FFI_COLD_CODE      keep slow paths out of hot code
 *   TVM_FFI_STATIC_INIT_BLOCK() { ... }        run once when the library loads
 *   detail::for_each([](size_t i, auto&& v) { ... }, a, b, c);
 */
#ifndef TVM_FFI_BASE_DETAIL_H_
#define TVM_FFI_BASE_DETAIL_H_

#include <tvm/ffi/base.h>
#include <tvm/ffi/c_api.h>
#include <tvm/ffi/endian.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <iostream>
#include <string>
#include <type_traits>
#include <utility>

#ifndef TVM_FFI_WEAK
#if defined(_MSC_VER)
#define TVM_FFI_WEAK __declspec(selectany)
#else
#define TVM_FFI_WEAK __attribute__((weak))
#endif
#endif

#ifndef TVM_FFI_ATTRIBUTE_PURE
#if defined(__GNUC__) || defined(__clang__)
#define TVM_FFI_ATTRIBUTE_PURE __attribute__((__pure__))
#else
#define TVM_FFI_ATTRIBUTE_PURE
#endif
#endif

#if defined(_MSC_VER)
#define TVM_FFI_NO_INLINE __declspec(noinline)
#define TVM_FFI_COLD_CODE
#define TVM_FFI_PREDICT_FALSE(cond) (cond)
#define TVM_FFI_PREDICT_TRUE(cond) (cond)
#define TVM_FFI_UNSAFE_ASSUME(cond) __assume(cond)
#else
#define TVM_FFI_NO_INLINE [[gnu::noinline]]
#define TVM_FFI_COLD_CODE [[gnu::cold]]
#define TVM_FFI_PREDICT_FALSE(cond) __builtin_expect(static_cast<bool>(cond), 0)
#define TVM_FFI_PREDICT_TRUE(cond) __builtin_expect(static_cast<bool>(cond), 1)
#if defined(__clang__)
#define TVM_FFI_UNSAFE_ASSUME(cond) __builtin_assume(cond)
#else
#define TVM_FFI_UNSAFE_ASSUME(cond)       \
  do {                                    \
    if (!(cond)) __builtin_unreachable(); \
  } while (0)
#endif
#endif

#define TVM_FFI_SNPRINTF snprintf

/*!
 * \brief Zero the payload before a pointer is stored in a TVMFFIAny, so that
 *  the bytes beyond a 32-bit pointer are defined (a no-op on 64-bit targets).
 */
#if UINTPTR_MAX == UINT64_MAX
#define TVM_FFI_CLEAR_PTR_PADDING_IN_FFI_ANY(any_ptr) (void)0
#else
#define TVM_FFI_CLEAR_PTR_PADDING_IN_FFI_ANY(any_ptr) (any_ptr)->v_int64 = 0
#endif

/*!
 * \brief Run a block of code when the library is loaded (static initialisation):
 *   TVM_FFI_STATIC_INIT_BLOCK() { refl::GlobalDef().def("my.f", F); }
 */
#define TVM_FFI_STATIC_INIT_BLOCK() \
  TVM_FFI_STATIC_INIT_BLOCK_IMPL_(TVM_FFI_STR_CONCAT(_tvm_ffi_static_init_, __COUNTER__))
#define TVM_FFI_STATIC_INIT_BLOCK_IMPL_(FnName)                                        \
  static void FnName();                                                                \
  [[maybe_unused]] static const int TVM_FFI_STR_CONCAT(FnName, _done) = (FnName(), 0); \
  static void FnName()

/*!
 * \brief Guard a call that must not let exceptions escape (destructors, C
 *  callbacks): an escaping std::exception is printed and the process exits.
 *   TVM_FFI_LOG_EXCEPTION_CALL_BEGIN(); body(); TVM_FFI_LOG_EXCEPTION_CALL_END(MyDeleter);
 */
#define TVM_FFI_LOG_EXCEPTION_CALL_BEGIN() try {
#define TVM_FFI_LOG_EXCEPTION_CALL_END(Name)                                              \
  }                                                                                       \
  catch (const std::exception& err) {                                                     \
    std::cerr << "Exception caught during " << #Name << ":\n" << err.what() << std::endl; \
    exit(-1);                                                                             \
  }

TVM_FFI_NAMESPACE_BEGIN

// The conversion extension point (defined in type_traits.h); declared here so
// that helpers below can name it.
template <typename, typename = void>
struct TypeTraits;
class Any;
class AnyView;

namespace detail {

template <typename F, typename... Args, size_t... I>
TVM_FFI_INLINE void ForEachImpl(F&& f, std::index_sequence<I...>, Args&&... args) {
  (static_cast<void>(f(I, std::forward<Args>(args))), ...);
}

/*! \brief Call f(i, arg_i) for each argument, in order. */
template <typename F, typename... Args>
TVM_FFI_INLINE void for_each(F&& f, Args&&... args) {
  ForEachImpl(std::forward<F>(f), std::index_sequence_for<Args...>{}, std::forward<Args>(args)...);
}

/*! \brief Mix value into key (boost-style combine); stable across processes. */
TVM_FFI_INLINE uint64_t StableHashCombine(uint64_t key, uint64_t value) {
  return key ^ (value + 0x9e3779b9 + (key << 6) + (key >> 2));
}

/*!
 * \brief Hash of a byte string that does not depend on the process or the
 *  alignment of data: each 8-byte little-endian word w (a short tail is
 *  zero-padded) folds in as h = (h * 1099511628211 + w) % 2147483647, in
 *  uint64 arithmetic.
 */
inline uint64_t StableHashBytes(const void* data, size_t size) {
  constexpr uint64_t kMultiplier = 1099511628211ULL;
  constexpr uint64_t kMod = 2147483647ULL;
  const unsigned char* p = static_cast<const unsigned char*>(data);
  uint64_t h = 0;
  size_t i = 0;
  for (; i + 8 <= size; i += 8) {
    uint64_t w;
    std::memcpy(&w, p + i, 8);
#if !TVM_FFI_LITTLE_ENDIAN
    w = __builtin_bswap64(w);
#endif
    h = (h * kMultiplier + w) % kMod;
  }
  if (i < size) {
    uint64_t w = 0;
    for (size_t b = size; b > i; --b) w = (w << 8) | p[b - 1];
    h = (h * kMultiplier + w) % kMod;
  }
  return h;
}

/*!
 * \brief StableHashBytes of the content of a SmallStr/SmallBytes cell (the
 *  zero bytes after the content make this one reduction).
 */
TVM_FFI_INLINE uint64_t StableHashSmallStrBytes(const TVMFFIAny* cell) {
#if TVM_FFI_LITTLE_ENDIAN
  return cell->v_uint64 % 2147483647ULL;
#else
  return StableHashBytes(cell->v_bytes, cell->small_str_len);
#endif
}

/*! \brief The JSON type schema of T (Any, AnyView and void included). */
template <typename T>
struct TypeSchemaImpl {
  static std::string v() {
    using U = std::remove_cv_t<std::remove_reference_t<T>>;
    if constexpr (std::is_same_v<U, Any> || std::is_same_v<U, AnyView>) {
      return "{\"type\":\"Any\"}";
    } else if constexpr (std::is_void_v<U>) {
      return "{\"type\":\"None\"}";
    } else {
      return TypeTraits<U>::TypeSchema();
    }
  }
};

template <typename T>
using TypeSchema = TypeSchemaImpl<T>;

}  // namespace detail

// Both spellings name the namespace of internals (0.1.16 code writes detail::,
// 0.1.14 code details::).
namespace details = detail;

TVM_FFI_NAMESPACE_END
#endif  // TVM_FFI_BASE_DETAIL_H_
