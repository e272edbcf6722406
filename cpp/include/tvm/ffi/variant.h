/*
 * Variant<Ts...>: a value that is exactly one of the listed types.
 *
 * Stored as an Any restricted to the alternatives; converting from Any tries
 * the alternatives in order (exact matches first, then the documented
 * conversions), so Variant<int, String> accepts 1 and "x" but not 2.5.
 *
 *   Variant<int, String> v = 100;
 *   v.get<int>() == 100;
 *   v = String("hello");
 *   v.as<String>().value() == "hello";  v.as<int>() == std::nullopt
 *   v.index() == 1;
 */
#ifndef TVM_FFI_VARIANT_H_
#define TVM_FFI_VARIANT_H_

#include <tvm/ffi/any.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/type_traits.h>

#include <optional>
#include <string>
#include <type_traits>
#include <utility>

TVM_FFI_NAMESPACE_BEGIN

namespace detail {
template <typename T, typename... Ts>
constexpr bool kIsOneOf = (std::is_same_v<T, Ts> || ...);

template <typename T, typename... Ts>
struct IndexOf;
template <typename T, typename... Rest>
struct IndexOf<T, T, Rest...> : std::integral_constant<int, 0> {};
template <typename T, typename First, typename... Rest>
struct IndexOf<T, First, Rest...> : std::integral_constant<int, 1 + IndexOf<T, Rest...>::value> {};
/*! \brief Whether some alternative subsumes T (its storage holds a T as is: a subclass reference
 * of an alternative, or any value when an alternative is Any). */
template <typename T, typename... Ts>
constexpr bool kVariantContains = (type_subsumes_v<Ts, T> || ...);
template <typename T, typename... Ts>
constexpr bool kVariantAccepts =
    kVariantContains<std::decay_t<T>, Ts...> ||
    (!std::is_arithmetic_v<std::decay_t<T>> && (std::is_constructible_v<Ts, T&&> || ...));
}  // namespace detail

/*! \brief A type-safe union over Ts... (each convertible to Any). */
template <typename... Ts>
class Variant {
  static_assert(sizeof...(Ts) > 0, "Variant needs at least one alternative");

 public:
  /*! \brief A Variant is no reference class with one container type. */
  static constexpr bool _type_container_is_exact = false;
  /*!
   * \brief Construct from a value of one of the alternatives, or from a
   *  non-arithmetic value the first accepting alternative is constructible
   *  from (a const char* for String). Arithmetic values must match exactly,
   *  so 2.5 never silently becomes the int 2.
   */
  template <typename T, typename = std::enable_if_t<detail::kVariantAccepts<T, Ts...>>>
  Variant(T&& value) : data_(Normalize(std::forward<T>(value))) {}  // NOLINT(runtime/explicit)
  Variant(const Variant&) = default;
  Variant(Variant&&) = default;
  Variant& operator=(const Variant&) = default;
  Variant& operator=(Variant&&) = default;
  template <typename T, typename = std::enable_if_t<detail::kVariantAccepts<T, Ts...>>>
  Variant& operator=(T&& value) {
    data_ = Normalize(std::forward<T>(value));
    return *this;
  }

  /*!
   * \brief The value converted to T (Any's cast rules: an int held in Variant<int, String>
   *  reads as double); TypeError "Cannot convert from type ..." when it does not convert.
   */
  template <typename T>
  T get() const& {
    return data_.template cast<T>();
  }
  /*! \brief As get() const&, moving the value out when it already is a T. */
  template <typename T>
  T get() && {
    return std::move(data_).template cast<T>();
  }
  /*!
   * \brief The value as T when it strictly is one (no conversion), else std::nullopt; T may be
   *  any type an alternative subsumes (a subclass reference), or an Object subclass O, which
   *  yields `const O*` (nullptr on mismatch).
   */
  template <typename T>
  auto as() const {
    return data_.template as<T>();
  }
  /*! \return The type key of the held value ("int", "ffi.String", "test.Int", ...). */
  std::string GetTypeKey() const { return data_.GetTypeKey(); }
  /*! \return Whether both hold the same value bit for bit (the same object for references). */
  bool same_as(const Variant& other) const { return data_.same_as(other.data_); }
  /*! \return Whether the value holds alternative T. */
  template <typename T>
  bool holds() const {
    return index() == detail::IndexOf<T, Ts...>::value;
  }
  /*! \return The position of the held alternative in Ts... */
  int index() const { return IndexOfCell(Raw()); }
  /*! \return The user-facing name of the held alternative. */
  std::string type_str() const { return detail::AnyTypeStr(Raw()); }
  /*! \return The value as Any. */
  const Any& as_any() const { return data_; }

  /*! \brief Index of the first alternative that holds the cell exactly, or -1. */
  static int IndexOfCell(const TVMFFIAny* cell) {
    int result = -1;
    int i = 0;
    ((result < 0 && TypeTraits<Ts>::CheckAnyStrict(cell) ? (result = i) : 0, ++i), ...);
    return result;
  }
  /*! \brief The first alternative reachable from the cell, tried in order. */
  static std::optional<Variant> TryFrom(const TVMFFIAny* cell) {
    if (IndexOfCell(cell) >= 0) return Variant(Any(AnyView::CopyFromTVMFFIAny(*cell)), 0);
    std::optional<Variant> result;
    ((result.has_value() ? void() : [&] {
       if (auto v = TypeTraits<Ts>::TryCastFromAnyView(cell)) result = Variant(Any(std::move(*v)), 0);
     }()), ...);
    return result;
  }

 private:
  Variant(Any data, int) : data_(std::move(data)) {}
  const TVMFFIAny* Raw() const { return detail::AnyUnsafe::GetTVMFFIAny(data_); }
  template <typename T>
  static Any Normalize(T&& value) {
    if constexpr (detail::kVariantContains<std::decay_t<T>, Ts...>) {
      return Any(std::forward<T>(value));
    } else {
      // The first alternative constructible from the value takes it.
      std::optional<Any> out;
      ((!out.has_value() && std::is_constructible_v<Ts, T&&> ? (void)(out = MakeIf<Ts>(value))
                                                             : void()),
       ...);
      return std::move(*out);
    }
  }
  template <typename Alt, typename T>
  static Any MakeIf(T& value) {
    if constexpr (std::is_constructible_v<Alt, T&>) {
      return Any(Alt(value));
    } else {
      return Any();
    }
  }

  Any data_;
  template <typename, typename>
  friend struct TypeTraits;
};

/*! \brief Variant<Ts...> holds a T as is when some alternative subsumes T. */
template <typename... Ts, typename T>
inline constexpr bool type_subsumes_v<Variant<Ts...>, T, void> =
    std::is_same_v<Variant<Ts...>, T> || detail::kVariantContains<T, Ts...>;

template <typename... Ts>
struct TypeTraits<Variant<Ts...>> : TypeTraitsBase {
  static void CopyToAnyView(const Variant<Ts...>& src, TVMFFIAny* r) {
    *r = *detail::AnyUnsafe::GetTVMFFIAny(src.as_any());
  }
  static void MoveToAny(Variant<Ts...> src, TVMFFIAny* r) {
    *r = detail::AnyUnsafe::MoveAnyToTVMFFIAny(std::move(src.data_));
  }
  static bool CheckAnyStrict(const TVMFFIAny* src) { return Variant<Ts...>::IndexOfCell(src) >= 0; }
  static Variant<Ts...> CopyFromAnyViewAfterCheck(const TVMFFIAny* src) {
    return *Variant<Ts...>::TryFrom(src);
  }
  static Variant<Ts...> MoveFromAnyAfterCheck(TVMFFIAny* src) {
    return Variant<Ts...>(detail::AnyUnsafe::MoveTVMFFIAnyToAny(src), 0);
  }
  static std::optional<Variant<Ts...>> TryCastFromAnyView(const TVMFFIAny* src) {
    return Variant<Ts...>::TryFrom(src);
  }
  static std::string TypeStr() {
    std::string s = "Variant<";
    bool first = true;
    ((s += (first ? "" : ", ") + TypeTraits<Ts>::TypeStr(), first = false), ...);
    return s + ">";
  }
  static std::string TypeSchema() {
    return detail::SchemaWithArgs("Variant", {TypeTraits<Ts>::TypeSchema()...});
  }
};

TVM_FFI_NAMESPACE_END
#endif  // TVM_FFI_VARIANT_H_
