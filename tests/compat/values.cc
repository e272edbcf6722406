// Source compatibility: values, Optional, custom TypeTraits and the detail
// helpers, written the way library code uses them against the tvm-ffi 0.1.x
// headers. Compiling this file is the test.
#include <tvm/ffi/any.h>
#include <tvm/ffi/base_details.h>
#include <tvm/ffi/endian.h>
#include <tvm/ffi/extra/base64.h>
#include <tvm/ffi/extra/dtype.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/optional.h>
#include <tvm/ffi/rvalue_ref.h>
#include <tvm/ffi/type_traits.h>

#include <cstdint>
#include <optional>
#include <string>
#include <utility>

namespace compat_values {

namespace ffi = tvm::ffi;

// tvm::Any and tvm::AnyView are usable unqualified in namespace tvm.
tvm::Any Wrap(int64_t v) { return tvm::Any(v); }
int64_t Unwrap(const tvm::AnyView& v) { return v.cast<int64_t>(); }

// An integral enum converts like an integer.
enum class Mode : int32_t { kFast = 1, kSafe = 2 };
ffi::Any ModeToAny(Mode m) { return m; }
Mode ModeFromAny(const ffi::Any& a) { return a.cast<Mode>(); }

// A user value type with its own traits, converted from an int or a bool.
struct Celsius {
  double degrees;
};

}  // namespace compat_values

namespace tvm {
namespace ffi {
template <>
struct TypeTraits<compat_values::Celsius>
    : public FallbackOnlyTraitsBase<compat_values::Celsius, double, StrictBool> {
  static compat_values::Celsius ConvertFallbackValue(double v) { return {v}; }
  static compat_values::Celsius ConvertFallbackValue(StrictBool b) { return {b ? 100.0 : 0.0}; }
  static void CopyToAnyView(const compat_values::Celsius& src, TVMFFIAny* result) {
    TypeTraits<double>::CopyToAnyView(src.degrees, result);
  }
  static void MoveToAny(compat_values::Celsius src, TVMFFIAny* result) {
    TypeTraits<double>::MoveToAny(src.degrees, result);
  }
  static std::string TypeStr() { return "Celsius"; }
  static std::string TypeSchema() { return R"({"type":"float"})"; }
};
}  // namespace ffi
}  // namespace tvm

namespace compat_values {

double Degrees(const ffi::AnyView& v) { return v.cast<Celsius>().degrees; }

// Optional of a POD is one Any; nested Optional works.
static_assert(sizeof(ffi::Optional<int>) == 16);
static_assert(sizeof(ffi::Optional<double>) == sizeof(ffi::Any));
static_assert(sizeof(ffi::Optional<ffi::Optional<int>>) == 16);

int OptionalSum(ffi::Optional<int> a, ffi::Optional<ffi::Optional<int>> b) {
  int sum = a.value_or(0);
  if (b.has_value() && b.value().has_value()) sum += *b.value();
  if (a == 3 || a == std::nullopt || a != ffi::Optional<int>(4)) sum += 1;
  return sum;
}

ffi::Optional<ffi::String> Name(bool present) {
  ffi::Optional<ffi::String> name;
  if (present) name = "hello";
  return name;
}

// A typed function taking ownership through RValueRef.
ffi::Function MakeTaker() {
  return ffi::Function::FromTyped([](ffi::RValueRef<ffi::ObjectRef> ref) {
    ffi::ObjectRef owned = *std::move(ref);
    return owned.unique();
  });
}

bool GiveAway(const ffi::Function& taker, ffi::ObjectRef obj) {
  return taker(ffi::RValueRef<ffi::ObjectRef>(std::move(obj))).cast<bool>();
}

// detail:: and details:: name the same helpers.
uint64_t HashAll(const std::string& a, const std::string& b) {
  uint64_t h = 0;
  ffi::details::for_each(
      [&h](size_t, const std::string& s) {
        h = ffi::detail::StableHashCombine(h, ffi::detail::StableHashBytes(s.data(), s.size()));
      },
      a, b);
  return h;
}

std::string SchemaOfInt() { return ffi::detail::TypeSchema<int>::v(); }

// Byte order and base64 helpers.
uint32_t ToWire(uint32_t v) {
  if (!TVM_FFI_IO_NO_ENDIAN_SWAP) ffi::ByteSwap(&v, sizeof(v), 1);
  return v;
}
ffi::String Encode(const ffi::Bytes& b) { return ffi::Base64Encode(b); }

template <typename T>
bool MatchesDType(DLDataType dtype) {
  DLDataType expected = ffi::dtype_trait<T>::value;
  return dtype.code == expected.code && dtype.bits == expected.bits &&
         dtype.lanes == expected.lanes;
}
bool IsFloat32(DLDataType dtype) { return MatchesDType<float>(dtype); }

// Type vocabulary of type_traits.h.
static_assert(ffi::TypeIndex::kTVMFFIInt == kTVMFFIInt);
static_assert(!ffi::TypeTraits<std::string>::storage_enabled);
static_assert(ffi::type_subsumes_v<ffi::Any, int>);
static_assert(ffi::type_subsumes_v<ffi::ObjectRef, ffi::Function>);
static_assert(ffi::TypeToFieldStaticTypeIndex<int64_t>::value == ffi::TypeIndex::kTVMFFIInt);
const char* StrKey() { return ffi::StaticTypeKey::kTVMFFIStr; }

TVM_FFI_NO_INLINE TVM_FFI_COLD_CODE int Slow(int x) { return TVM_FFI_PREDICT_FALSE(x < 0) ? 0 : x; }

}  // namespace compat_values
