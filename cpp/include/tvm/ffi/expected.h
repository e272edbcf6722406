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
#include <sstream>
#include <string>
#include <type_traits>
#include <utility>

TVM_FFI_NAMESPACE_BEGIN

template <typename T>
class Expected;

/*!
 * \brief An error to be returned as an Expected: `return Unexpected(err);`.
 *  E is Error or a class derived from it.
 */
template <typename E = Error>
class Unexpected {
  static_assert(std::is_base_of_v<Error, std::decay_t<E>>,
                "Unexpected<E>: E must be Error or derive from it");

 public:
  explicit Unexpected(E error) : error_(std::move(error)) {}
  const E& error() const& noexcept { return error_; }
  E& error() & noexcept { return error_; }
  const E&& error() const&& noexcept { return std::move(error_); }
  E&& error() && noexcept { return std::move(error_); }

 private:
  E error_;
};

template <typename E>
Unexpected(E) -> Unexpected<E>;

namespace detail {
struct ExpectedUnsafe;

template <typename T>
constexpr bool kIsExpected = false;
template <typename T>
constexpr bool kIsExpected<Expected<T>> = true;
template <typename T>
constexpr bool kIsUnexpected = false;
template <typename E>
constexpr bool kIsUnexpected<Unexpected<E>> = true;

[[noreturn]] inline void ThrowBadExpectedAccess() {
  TVM_FFI_THROW(RuntimeError) << "Bad expected access: contains value, not error";
  TVM_FFI_UNREACHABLE();
}
}  // namespace detail

/*! \brief A value of type T, or the Error that prevented it. */
template <typename T>
class Expected {
  static_assert(!std::is_same_v<T, Error>, "Expected<Error> is ambiguous");
  static_assert(!std::is_void_v<T> || std::is_same_v<T, void>,
                "Expected of a cv-qualified void is not allowed");

 public:
  Expected(T value) : data_(std::move(value)) {}  // NOLINT(runtime/explicit)
  /*! \brief A value of another type that converts to T. */
  template <typename U,
            typename = std::enable_if_t<
                std::is_convertible_v<U&&, T> && !std::is_same_v<std::decay_t<U>, T> &&
                !detail::kIsExpected<std::decay_t<U>> && !detail::kIsUnexpected<std::decay_t<U>> &&
                !std::is_base_of_v<Error, std::decay_t<U>>>>
  Expected(U&& value) : data_(T(std::forward<U>(value))) {}  // NOLINT(runtime/explicit)
  /*!
   * \brief An Expected of another value type: its error, or its value as T (the stored value
   *  as is when T subsumes U, else converted).
   */
  template <typename U,
            typename = std::enable_if_t<!std::is_same_v<U, T> && !std::is_void_v<U> &&
                                        (type_subsumes_v<T, U> || std::is_convertible_v<U, T>)>>
  Expected(const Expected<U>& other)  // NOLINT(runtime/explicit)
      : data_(FromOther(other)) {}
  Expected(Error error) : data_(std::move(error)) {}  // NOLINT(runtime/explicit)
  template <typename E>
  Expected(Unexpected<E> unexpected)  // NOLINT(runtime/explicit)
      : data_(Error(std::move(unexpected).error())) {}

  /*! \return The type index of what is held (kTVMFFIError for an error). */
  int32_t type_index() const noexcept { return data_.type_index(); }
  /*! \return Whether a value is held. */
  bool is_ok() const noexcept { return data_.type_index() != kTVMFFIError; }
  bool has_value() const noexcept { return is_ok(); }
  /*! \return Whether an error is held. */
  bool is_err() const noexcept { return !is_ok(); }
  explicit operator bool() const noexcept { return is_ok(); }

  /*! \return The value; throws the held Error otherwise. */
  T value() const& {
    if (is_err()) throw error();
    if constexpr (std::is_same_v<T, Any>) {
      return data_;
    } else {
      return detail::AnyUnsafe::CopyFromAnyViewAfterCheck<T>(data_);
    }
  }
  T value() && {
    if (is_err()) throw error();
    if constexpr (std::is_same_v<T, Any>) {
      return std::move(data_);
    } else {
      return std::move(data_).template cast<T>();
    }
  }
  template <typename U = T>
  T value_or(U&& default_value) const& {
    return is_ok() ? value() : T(std::forward<U>(default_value));
  }
  template <typename U = T>
  T value_or(U&& default_value) && {
    return is_ok() ? std::move(*this).value() : T(std::forward<U>(default_value));
  }
  /*! \return The held error; RuntimeError when a value is held. */
  Error error() const& {
    if (is_ok()) detail::ThrowBadExpectedAccess();
    return detail::AnyUnsafe::CopyFromAnyViewAfterCheck<Error>(data_);
  }
  Error error() && {
    if (is_ok()) detail::ThrowBadExpectedAccess();
    return std::move(data_).template cast<Error>();
  }

  /*!
   * \brief The held value read strictly as U (no conversion); a held error is
   *  passed on, a mismatch becomes a TypeError.
   */
  template <typename U>
  Expected<U> as_or_error() const& {
    if (is_err()) return error();
    if constexpr (std::is_same_v<U, Any>) {
      return Expected<U>(data_);
    } else {
      if (std::optional<U> v = data_.as<U>()) return Expected<U>(std::move(*v));
      return MismatchError(TypeTraitsNoCR<U>::TypeStr());
    }
  }
  template <typename U>
  Expected<U> as_or_error() && {
    if (is_err()) return std::move(*this).error();
    if constexpr (std::is_same_v<U, Any>) {
      return Expected<U>(std::move(data_));
    } else {
      if (TypeTraitsNoCR<U>::CheckAnyStrict(detail::AnyUnsafe::GetTVMFFIAny(data_))) {
        return Expected<U>(std::move(data_).template cast<U>());
      }
      return MismatchError(TypeTraitsNoCR<U>::TypeStr());
    }
  }

 private:
  Expected() = default;
  explicit Expected(Any data, int) : data_(std::move(data)) {}
  template <typename U>
  static Any FromOther(const Expected<U>& other) {
    if constexpr (type_subsumes_v<T, U>) {
      return other.data_;
    } else {
      return other.is_ok() ? Any(T(other.value())) : Any(other.error());
    }
  }
  Error MismatchError(const std::string& target) const {
    return Error("TypeError",
                 "Cannot treat type `" + data_.GetTypeKey() + "` as type `" + target + "`");
  }
  Any data_;
  template <typename, typename>
  friend struct TypeTraits;
  template <typename>
  friend class Expected;
  friend struct detail::ExpectedUnsafe;
};

/*! \brief Success without a value, or the Error of a failure. */
template <>
class Expected<void> {
 public:
  /*! \brief Success. */
  Expected() = default;
  Expected(Error error) : data_(std::move(error)) {}  // NOLINT(runtime/explicit)
  template <typename E>
  Expected(Unexpected<E> unexpected)  // NOLINT(runtime/explicit)
      : data_(Error(std::move(unexpected).error())) {}

  int32_t type_index() const noexcept { return data_.type_index(); }
  bool is_ok() const noexcept { return data_.type_index() != kTVMFFIError; }
  bool has_value() const noexcept { return is_ok(); }
  bool is_err() const noexcept { return !is_ok(); }
  explicit operator bool() const noexcept { return is_ok(); }

  /*! \brief Nothing on success; throws the held Error otherwise. */
  void value() const {
    if (is_err()) throw error();
  }
  /*! \return The held error; RuntimeError on success. */
  Error error() const& {
    if (is_ok()) detail::ThrowBadExpectedAccess();
    return detail::AnyUnsafe::CopyFromAnyViewAfterCheck<Error>(data_);
  }
  Error error() && {
    if (is_ok()) detail::ThrowBadExpectedAccess();
    return std::move(data_).template cast<Error>();
  }

 private:
  explicit Expected(Any data, int) : data_(std::move(data)) {}
  Any data_;
  template <typename, typename>
  friend struct TypeTraits;
  friend struct detail::ExpectedUnsafe;
};

namespace detail {
/*! \brief Raw access to the storage of an Expected (one Any: the value or the Error). */
struct ExpectedUnsafe {
  template <typename T>
  static Expected<T> MoveFromTVMFFIAny(TVMFFIAny data) {
    return Expected<T>(AnyUnsafe::MoveTVMFFIAnyToAny(&data), 0);
  }
  template <typename T>
  static TVMFFIAny MoveToTVMFFIAny(Expected<T>&& expected) {
    return AnyUnsafe::MoveAnyToTVMFFIAny(std::move(expected.data_));
  }
  template <typename T>
  static Any&& GetData(Expected<T>& expected) {
    return std::move(expected.data_);
  }
  template <typename T>
  static const Any& GetData(const Expected<T>& expected) {
    return expected.data_;
  }
  /*! \brief The held value read as T, unchecked beyond T's own conversion. */
  template <typename T, typename U>
  static T ValueAs(const Expected<U>& expected) {
    return expected.data_.template cast<T>();
  }
};

/*!
 * \brief What TVM_FFI_UNEXPECTED makes: collects a message, then converts to
 *  Unexpected<Error> or any Expected<T>. The backtrace is the one line of the
 *  site (no stack walk).
 */
class UnexpectedBuilder {
 public:
  UnexpectedBuilder(const char* kind, const char* file, int line, const char* func)
      : kind_(kind), file_(file), line_(line), func_(func) {}
  template <typename V>
  UnexpectedBuilder&& operator<<(const V& value) && {
    stream_ << value;
    return std::move(*this);
  }
  /*! \brief Stream manipulators (std::hex, std::endl, ...), as on an std::ostream. */
  UnexpectedBuilder&& operator<<(std::ostream& (*manipulator)(std::ostream&)) && {
    stream_ << manipulator;
    return std::move(*this);
  }
  UnexpectedBuilder&& operator<<(std::ios_base& (*manipulator)(std::ios_base&)) && {
    stream_ << manipulator;
    return std::move(*this);
  }
  operator Unexpected<Error>() && {  // NOLINT(runtime/explicit)
    return Unexpected<Error>(Make());
  }
  template <typename T>
  operator Expected<T>() && {  // NOLINT(runtime/explicit)
    return Expected<T>(Make());
  }

 private:
  Error Make() const { return Error(kind_, stream_.str(), FormatFrame(file_, line_, func_)); }
  const char* kind_;
  const char* file_;
  int line_;
  const char* func_;
  std::ostringstream stream_;
};
}  // namespace detail

/*! \brief Expected<T> holds an Expected<U> as is when T subsumes U. */
template <typename T, typename U>
inline constexpr bool type_subsumes_v<Expected<T>, Expected<U>, void> = type_subsumes_v<T, U>;

template <typename T>
struct TypeTraits<Expected<T>> : TypeTraitsBase {
  using Inner = TypeTraits<T>;
  static void CopyToAnyView(const Expected<T>& src, TVMFFIAny* r) {
    *r = *detail::AnyUnsafe::GetTVMFFIAny(src.data_);
  }
  static void MoveToAny(Expected<T> src, TVMFFIAny* r) {
    *r = detail::AnyUnsafe::MoveAnyToTVMFFIAny(std::move(src.data_));
  }
  static bool CheckAnyStrict(const TVMFFIAny* src) {
    return src->type_index == kTVMFFIError || Inner::CheckAnyStrict(src);
  }
  static Expected<T> CopyFromAnyViewAfterCheck(const TVMFFIAny* src) {
    return Expected<T>(Any(AnyView::CopyFromTVMFFIAny(*src)), 0);
  }
  static Expected<T> MoveFromAnyAfterCheck(TVMFFIAny* src) {
    return Expected<T>(detail::AnyUnsafe::MoveTVMFFIAnyToAny(src), 0);
  }
  static std::optional<Expected<T>> TryCastFromAnyView(const TVMFFIAny* src) {
    if (CheckAnyStrict(src)) return CopyFromAnyViewAfterCheck(src);
    if (std::optional<T> v = Inner::TryCastFromAnyView(src)) return Expected<T>(std::move(*v));
    return std::nullopt;
  }
  static std::string TypeStr() { return "Expected<" + Inner::TypeStr() + ">"; }
  static std::string TypeSchema() {
    return detail::SchemaWithArgs("Expected", {Inner::TypeSchema()});
  }
};

/*! \brief Expected<void> is stored as None (success) or the Error. */
template <>
struct TypeTraits<Expected<void>> : TypeTraitsBase {
  static void CopyToAnyView(const Expected<void>& src, TVMFFIAny* r) {
    *r = *detail::AnyUnsafe::GetTVMFFIAny(src.data_);
  }
  static void MoveToAny(Expected<void> src, TVMFFIAny* r) {
    *r = detail::AnyUnsafe::MoveAnyToTVMFFIAny(std::move(src.data_));
  }
  static bool CheckAnyStrict(const TVMFFIAny* src) {
    return src->type_index == kTVMFFIError || src->type_index == kTVMFFINone;
  }
  static Expected<void> CopyFromAnyViewAfterCheck(const TVMFFIAny* src) {
    return Expected<void>(Any(AnyView::CopyFromTVMFFIAny(*src)), 0);
  }
  static Expected<void> MoveFromAnyAfterCheck(TVMFFIAny* src) {
    return Expected<void>(detail::AnyUnsafe::MoveTVMFFIAnyToAny(src), 0);
  }
  static std::optional<Expected<void>> TryCastFromAnyView(const TVMFFIAny* src) {
    if (CheckAnyStrict(src)) return CopyFromAnyViewAfterCheck(src);
    return std::nullopt;
  }
  static std::string TypeStr() { return "Expected<void>"; }
  static std::string TypeSchema() {
    return detail::SchemaWithArgs("Expected",
                                  {detail::SchemaOf("None"), detail::SchemaOf("ffi.Error")});
  }
};

TVM_FFI_NAMESPACE_END

/*!
 * \brief Return an error from a function returning Expected<T>:
 *  `return TVM_FFI_UNEXPECTED(ValueError) << "bad " << x;`
 */
#define TVM_FFI_UNEXPECTED(ErrorKind) \
  ::tvm::ffi::detail::UnexpectedBuilder(#ErrorKind, __FILE__, __LINE__, TVM_FFI_FUNC_SIG)

/*! \brief Return an ErrorKind error (message as TVM_FFI_CHECK) when cond is false. */
#define TVM_FFI_RET_CHECK(cond, ErrorKind) \
  while (!(cond)) return TVM_FFI_UNEXPECTED(ErrorKind) << "Check failed: (" #cond ") is false: "

// Each operand is evaluated once; the message matches TVM_FFI_CHECK_xx.
#define TVM_FFI_RET_CHECK_BINARY_OP_(name, op, x, y, ErrorKind)                         \
  while (auto _tvm_ffi_ret_check_msg = ::tvm::ffi::detail::BinaryCheck##name((x), (y))) \
  return TVM_FFI_UNEXPECTED(ErrorKind)                                                  \
         << "Check failed: " #x " " #op " " #y " " << *_tvm_ffi_ret_check_msg << ": "

#define TVM_FFI_RET_CHECK_EQ(x, y, ErrorKind) TVM_FFI_RET_CHECK_BINARY_OP_(EQ, ==, x, y, ErrorKind)
#define TVM_FFI_RET_CHECK_NE(x, y, ErrorKind) TVM_FFI_RET_CHECK_BINARY_OP_(NE, !=, x, y, ErrorKind)
#define TVM_FFI_RET_CHECK_LT(x, y, ErrorKind) TVM_FFI_RET_CHECK_BINARY_OP_(LT, <, x, y, ErrorKind)
#define TVM_FFI_RET_CHECK_LE(x, y, ErrorKind) TVM_FFI_RET_CHECK_BINARY_OP_(LE, <=, x, y, ErrorKind)
#define TVM_FFI_RET_CHECK_GT(x, y, ErrorKind) TVM_FFI_RET_CHECK_BINARY_OP_(GT, >, x, y, ErrorKind)
#define TVM_FFI_RET_CHECK_GE(x, y, ErrorKind) TVM_FFI_RET_CHECK_BINARY_OP_(GE, >=, x, y, ErrorKind)

/*! \brief The RET_CHECK forms with kind InternalError. */
#define TVM_FFI_RET_ICHECK(cond) TVM_FFI_RET_CHECK(cond, InternalError)
#define TVM_FFI_RET_ICHECK_EQ(x, y) TVM_FFI_RET_CHECK_EQ(x, y, InternalError)
#define TVM_FFI_RET_ICHECK_NE(x, y) TVM_FFI_RET_CHECK_NE(x, y, InternalError)
#define TVM_FFI_RET_ICHECK_LT(x, y) TVM_FFI_RET_CHECK_LT(x, y, InternalError)
#define TVM_FFI_RET_ICHECK_LE(x, y) TVM_FFI_RET_CHECK_LE(x, y, InternalError)
#define TVM_FFI_RET_ICHECK_GT(x, y) TVM_FFI_RET_CHECK_GT(x, y, InternalError)
#define TVM_FFI_RET_ICHECK_GE(x, y) TVM_FFI_RET_CHECK_GE(x, y, InternalError)

#endif  // TVM_FFI_EXPECTED_H_
