/*
 * Optional<T>: a value that may be absent; None in Any.
 *
 * Storage is chosen per kind of T so that no flag is stored next to the value
 * when the value has a natural empty state:
 *   - reference classes (ObjectRef subclasses): one pointer, null = empty;
 *   - String and Bytes: their own 16-byte cell, None = empty;
 *   - everything else (PODs, Arc<T>, containers of PODs...): like std::optional.
 *
 *   Optional<int> a = 100;         a.value() == 100
 *   Optional<String> b;            b.value_or("default") == "default"
 *   if (b == std::nullopt) ...
 */
#ifndef TVM_FFI_OPTIONAL_H_
#define TVM_FFI_OPTIONAL_H_

#include <tvm/ffi/any.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/object.h>
#include <tvm/ffi/string.h>
#include <tvm/ffi/type_traits.h>

#include <optional>
#include <string>
#include <type_traits>
#include <utility>

TVM_FFI_NAMESPACE_BEGIN

template <typename T, typename = void>
class Optional;

namespace details {

template <typename T>
struct IsOptional : std::false_type {};
template <typename T>
struct IsOptional<Optional<T>> : std::true_type {};

[[noreturn]] inline void ThrowEmptyOptional() {
  TVM_FFI_THROW(ValueError) << "Accessed the value of an empty Optional";
  TVM_FFI_UNREACHABLE();  // the builder above throws
}

// Storage that uses std::optional (PODs, Arc<T>, other value types).
template <typename T>
struct OptionalStdStorage {
  std::optional<T> data;
  bool has() const { return data.has_value(); }
  const T& ref() const { return *data; }
  T& mut() { return *data; }
  void set(T v) { data = std::move(v); }
  void clear() { data.reset(); }
};

// Storage of reference classes: the reference itself, null = empty.
template <typename T>
struct OptionalRefStorage {
  T data{UnsafeInit{}};
  bool has() const { return data.defined(); }
  const T& ref() const { return data; }
  T& mut() { return data; }
  void set(T v) { data = std::move(v); }
  void clear() { data = T(UnsafeInit{}); }
};

template <typename T>
using OptionalStorage = std::conditional_t<
    std::is_base_of_v<ObjectRef, T>, OptionalRefStorage<T>, OptionalStdStorage<T>>;
}  // namespace details

/*! \brief An optional value. */
template <typename T, typename>
class Optional {
  static_assert(!details::IsOptional<T>::value, "Optional<Optional<T>> is not supported");

 public:
  using value_type = T;

  Optional() = default;
  Optional(std::nullopt_t) {}  // NOLINT(runtime/explicit)
  Optional(std::nullptr_t) {}  // NOLINT(runtime/explicit)
  Optional(T value) { storage_.set(std::move(value)); }  // NOLINT(runtime/explicit)
  template <typename U,
            typename = std::enable_if_t<std::is_constructible_v<T, U&&> &&
                                        !std::is_same_v<std::decay_t<U>, T> &&
                                        !std::is_same_v<std::decay_t<U>, Optional> &&
                                        !std::is_same_v<std::decay_t<U>, std::nullopt_t> &&
                                        !std::is_same_v<std::decay_t<U>, std::nullptr_t>>>
  Optional(U&& value) {  // NOLINT(runtime/explicit)
    storage_.set(T(std::forward<U>(value)));
  }
  Optional(std::optional<T> value) {  // NOLINT(runtime/explicit)
    if (value.has_value()) storage_.set(std::move(*value));
  }

  Optional& operator=(std::nullopt_t) {
    storage_.clear();
    return *this;
  }
  Optional& operator=(T value) {
    storage_.set(std::move(value));
    return *this;
  }

  bool has_value() const { return storage_.has(); }
  explicit operator bool() const { return has_value(); }
  /*! \return The value; throws ValueError when empty. */
  const T& value() const& {
    if (!has_value()) details::ThrowEmptyOptional();
    return storage_.ref();
  }
  T value() && {
    if (!has_value()) details::ThrowEmptyOptional();
    return std::move(storage_.mut());
  }
  T value_or(T default_value) const { return has_value() ? storage_.ref() : default_value; }
  const T& operator*() const { return value(); }
  const T* operator->() const { return &value(); }
  void reset() { storage_.clear(); }

  friend bool operator==(const Optional& a, std::nullopt_t) { return !a.has_value(); }
  friend bool operator!=(const Optional& a, std::nullopt_t) { return a.has_value(); }
  friend bool operator==(std::nullopt_t, const Optional& a) { return !a.has_value(); }
  friend bool operator!=(std::nullopt_t, const Optional& a) { return a.has_value(); }
  friend bool operator==(const Optional& a, std::nullptr_t) { return !a.has_value(); }
  friend bool operator!=(const Optional& a, std::nullptr_t) { return a.has_value(); }
  friend bool operator==(const Optional& a, const Optional& b) {
    if (a.has_value() != b.has_value()) return false;
    return !a.has_value() || a.storage_.ref() == b.storage_.ref();
  }
  friend bool operator!=(const Optional& a, const Optional& b) { return !(a == b); }

 private:
  details::OptionalStorage<T> storage_;
};

/*! \brief Optional<String> and Optional<Bytes>: 16 bytes, None marks empty. */
template <typename T>
class Optional<T, std::enable_if_t<std::is_same_v<T, String> || std::is_same_v<T, Bytes>>> {
 public:
  using value_type = T;
  Optional() = default;
  Optional(std::nullopt_t) {}  // NOLINT(runtime/explicit)
  Optional(std::nullptr_t) {}  // NOLINT(runtime/explicit)
  Optional(T value) : data_(std::move(value)) {}  // NOLINT(runtime/explicit)
  template <typename U, typename = std::enable_if_t<std::is_constructible_v<T, U&&> &&
                                                    !std::is_same_v<std::decay_t<U>, T> &&
                                                    !std::is_same_v<std::decay_t<U>, Optional> &&
                                                    !std::is_same_v<std::decay_t<U>, std::nullptr_t>>>
  Optional(U&& value) : data_(T(std::forward<U>(value))) {}  // NOLINT(runtime/explicit)
  Optional(std::optional<T> value) {  // NOLINT(runtime/explicit)
    if (value.has_value()) data_ = Any(std::move(*value));
  }
  Optional& operator=(std::nullopt_t) {
    data_.reset();
    return *this;
  }

  bool has_value() const { return !data_.is_none(); }
  explicit operator bool() const { return has_value(); }
  /*! \return A copy of the value (a String copy is a reference-count bump at most). */
  T value() const {
    if (!has_value()) details::ThrowEmptyOptional();
    return details::AnyUnsafe::CopyFromAnyViewAfterCheck<T>(data_);
  }
  T value_or(T default_value) const { return has_value() ? value() : default_value; }
  T operator*() const { return value(); }
  void reset() { data_.reset(); }

  friend bool operator==(const Optional& a, std::nullopt_t) { return !a.has_value(); }
  friend bool operator!=(const Optional& a, std::nullopt_t) { return a.has_value(); }
  friend bool operator==(const Optional& a, std::nullptr_t) { return !a.has_value(); }
  friend bool operator!=(const Optional& a, std::nullptr_t) { return a.has_value(); }
  friend bool operator==(const Optional& a, const Optional& b) {
    if (a.has_value() != b.has_value()) return false;
    return !a.has_value() || a.value() == b.value();
  }
  friend bool operator!=(const Optional& a, const Optional& b) { return !(a == b); }

 private:
  Any data_;
};

/*! \brief None <-> empty; otherwise the rules of T. Schema Optional[T]. */
template <typename T>
struct TypeTraits<Optional<T>> : TypeTraitsBase {
  using Inner = TypeTraits<T>;
  static void CopyToAnyView(const Optional<T>& src, TVMFFIAny* r) {
    if (src.has_value()) {
      Inner::CopyToAnyView(*src, r);
    } else {
      details::SetNone(r);
    }
  }
  static void MoveToAny(Optional<T> src, TVMFFIAny* r) {
    if (src.has_value()) {
      Inner::MoveToAny(std::move(src).value(), r);
    } else {
      details::SetNone(r);
    }
  }
  static bool CheckAnyStrict(const TVMFFIAny* src) {
    return src->type_index == kTVMFFINone || Inner::CheckAnyStrict(src);
  }
  static Optional<T> CopyFromAnyViewAfterCheck(const TVMFFIAny* src) {
    if (src->type_index == kTVMFFINone) return Optional<T>();
    return Optional<T>(Inner::CopyFromAnyViewAfterCheck(src));
  }
  static Optional<T> MoveFromAnyAfterCheck(TVMFFIAny* src) {
    if (src->type_index == kTVMFFINone) return Optional<T>();
    return Optional<T>(Inner::MoveFromAnyAfterCheck(src));
  }
  static std::optional<Optional<T>> TryCastFromAnyView(const TVMFFIAny* src) {
    if (src->type_index == kTVMFFINone) return Optional<T>();
    std::optional<T> v = Inner::TryCastFromAnyView(src);
    if (!v.has_value()) return std::nullopt;
    return Optional<T>(std::move(*v));
  }
  static std::string GetMismatchTypeInfo(const TVMFFIAny* src) {
    return Inner::GetMismatchTypeInfo(src);
  }
  static std::string TypeStr() { return "Optional<" + Inner::TypeStr() + ">"; }
  static std::string TypeSchema() {
    return details::SchemaWithArgs("Optional", {Inner::TypeSchema()});
  }
};

TVM_FFI_NAMESPACE_END
#endif  // TVM_FFI_OPTIONAL_H_
