/*
 * Expected<T>: either a value or an Error, for APIs that report failure
 * without throwing.
 *
 *   Expected<int> Parse(const String& s) {
 *     if (s.empty()) return Error("ValueError", "empty input");
 *     return 42;
 *   }
 *   Expected<int> r = Parse("x");
 *   if (r.is_ok()) use(r.value()); else log(r.error().message());
 *   int v = r.value();   // throws the Error when it holds one
 *
 * In Any it is stored as the value or as the Error object.
 */
#ifndef TVM_FFI_EXPECTED_H_
#define TVM_FFI_EXPECTED_H_

#include <tvm/ffi/any.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/type_traits.h>

#include <optional>
#include <string>
#include <utility>

TVM_FFI_NAMESPACE_BEGIN

/*! \brief A value of type T, or the Error that prevented it. */
template <typename T>
class Expected {
  static_assert(!std::is_same_v<T, Error>, "Expected<Error> is ambiguous");

 public:
  Expected(T value) : data_(std::move(value)) {}        // NOLINT(runtime/explicit)
  Expected(Error error) : data_(std::move(error)) {}    // NOLINT(runtime/explicit)

  /*! \return Whether a value is held. */
  bool is_ok() const { return data_.as<ErrorObj>() == nullptr; }
  bool has_value() const { return is_ok(); }
  /*! \return Whether an error is held. */
  bool is_err() const { return !is_ok(); }
  explicit operator bool() const { return is_ok(); }

  /*! \return The value; throws the held Error otherwise. */
  T value() const {
    if (is_err()) throw error();
    return details::AnyUnsafe::CopyFromAnyViewAfterCheck<T>(data_);
  }
  T value_or(T default_value) const { return is_ok() ? value() : std::move(default_value); }
  /*! \return The held error; ValueError when a value is held. */
  Error error() const {
    if (is_ok()) TVM_FFI_THROW(ValueError) << "Expected holds a value, not an error";
    return data_.cast<Error>();
  }

 private:
  explicit Expected(Any data, int) : data_(std::move(data)) {}
  Any data_;
  template <typename, typename>
  friend struct TypeTraits;
};

template <typename T>
struct TypeTraits<Expected<T>> : TypeTraitsBase {
  using Inner = TypeTraits<T>;
  static void CopyToAnyView(const Expected<T>& src, TVMFFIAny* r) {
    *r = *details::AnyUnsafe::GetTVMFFIAny(src.data_);
  }
  static void MoveToAny(Expected<T> src, TVMFFIAny* r) {
    *r = details::AnyUnsafe::MoveAnyToTVMFFIAny(std::move(src.data_));
  }
  static bool CheckAnyStrict(const TVMFFIAny* src) {
    return src->type_index == kTVMFFIError || Inner::CheckAnyStrict(src);
  }
  static Expected<T> CopyFromAnyViewAfterCheck(const TVMFFIAny* src) {
    return Expected<T>(Any(AnyView::CopyFromTVMFFIAny(*src)), 0);
  }
  static Expected<T> MoveFromAnyAfterCheck(TVMFFIAny* src) {
    return Expected<T>(details::AnyUnsafe::MoveTVMFFIAnyToAny(src), 0);
  }
  static std::optional<Expected<T>> TryCastFromAnyView(const TVMFFIAny* src) {
    if (CheckAnyStrict(src)) return CopyFromAnyViewAfterCheck(src);
    if (std::optional<T> v = Inner::TryCastFromAnyView(src)) return Expected<T>(std::move(*v));
    return std::nullopt;
  }
  static std::string TypeStr() { return "Expected<" + Inner::TypeStr() + ">"; }
  static std::string TypeSchema() {
    return details::SchemaWithArgs("Expected", {Inner::TypeSchema()});
  }
};

TVM_FFI_NAMESPACE_END
#endif  // TVM_FFI_EXPECTED_H_
