/*
 * Optional<T>: a value that may be absent; None in Any.
 *
 * The storage is chosen per kind of T so that Optional is never larger than
 * the value's own cell:
 *   - reference classes (ObjectRef subclasses): one pointer, null = empty;
 *     Optional<Ref> is not itself an ObjectRef (value() gives the Ref);
 *   - ObjectPtr<T> / Arc<T>: an ObjectPtr<T>, null = empty;
 *   - every other type that can be stored in Any (int, double, bool, String,
 *     DLDevice, Optional<X>...): one Any (16 bytes), None = empty;
 *   - types that cannot be stored (std::string, TensorView...): std::optional.
 *
 *   Optional<int> a = 100;         a.value() == 100
 *   Optional<String> b;            b.value_or("default") == "default"
 *   if (b == std::nullopt) ...
 *   b.value();                     // throws RuntimeError "Back optional access"
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

/*! \brief Whether T is an Optional<X>. */
template <typename T>
inline constexpr bool is_optional_type_v = false;
template <typename T>
inline constexpr bool is_optional_type_v<Optional<T>> = true;

/*! \brief Whether T is an ObjectPtr<X>. */
template <typename T>
inline constexpr bool is_object_ptr_type_v = false;
template <typename T>
inline constexpr bool is_object_ptr_type_v<ObjectPtr<T>> = true;

/*! \brief Whether T is an Arc<X>. */
template <typename T>
inline constexpr bool is_arc_type_v = false;
template <typename T>
inline constexpr bool is_arc_type_v<Arc<T>> = true;

/*! \brief Whether Optional<T> is a nullable reference (T a reference class). */
template <typename T>
inline constexpr bool use_object_ref_optional_v =
    std::is_base_of_v<ObjectRef, T> && !is_optional_type_v<T>;

/*! \brief Whether Optional<T> is a nullable ObjectPtr (T an ObjectPtr or Arc). */
template <typename T>
inline constexpr bool use_object_ptr_optional_v = is_object_ptr_type_v<T> || is_arc_type_v<T>;

template <typename T>
inline constexpr bool use_default_type_traits_v<Optional<T>> = false;

namespace detail {

template <typename T, typename = void>
struct StorageEnabled : std::false_type {};
template <typename T>
struct StorageEnabled<T, std::enable_if_t<TypeTraits<T>::storage_enabled>> : std::true_type {};

/*! \brief Whether Optional<T> keeps its value in one Any. */
template <typename T>
inline constexpr bool kOptionalUsesAny =
    !use_object_ref_optional_v<T> && !use_object_ptr_optional_v<T> && StorageEnabled<T>::value;

[[noreturn]] TVM_FFI_COLD_CODE inline void ThrowBadOptionalAccess(const char* text) {
  TVM_FFI_THROW(RuntimeError) << text;
  TVM_FFI_UNREACHABLE();
}

/*! \brief TypeError "Cannot treat type `X` as type `U`" unless cell strictly holds a U. */
template <typename U>
inline void CheckStrictlyAs(const TVMFFIAny* cell) {
  if (!TypeTraits<U>::CheckAnyStrict(cell)) {
    ThrowCannotTreatAs(TypeTraits<U>::GetMismatchTypeInfo(cell), TypeTraits<U>::TypeStr());
  }
}

// A U that a generic comparison or conversion may accept (not the empty markers).
template <typename U, typename Self>
inline constexpr bool kOptionalOperand =
    !std::is_same_v<std::decay_t<U>, Self> && !std::is_same_v<std::decay_t<U>, std::nullopt_t> &&
    !std::is_same_v<std::decay_t<U>, std::nullptr_t> && !is_optional_type_v<std::decay_t<U>>;

// conjunction: T's constructors are only asked about once U is known to be a foreign operand
// (asking about the Optional itself could recurse into this very check).
template <typename T, typename Self, typename U>
inline constexpr bool kOptionalConvertible = std::conjunction_v<
    std::bool_constant<kOptionalOperand<U, Self> && !std::is_same_v<std::decay_t<U>, T> &&
                       !std::is_same_v<std::decay_t<U>, std::optional<T>>>,
    std::is_constructible<T, U&&>>;
}  // namespace detail

/*!
 * \brief Optional of a type stored in Any: exactly one Any (16 bytes), None
 *  marks empty. An engaged Optional<Optional<X>> holding an empty inner value
 *  is empty (both are None).
 */
template <typename T>
class Optional<T, std::enable_if_t<detail::kOptionalUsesAny<T>>> {
 public:
  using value_type = T;

  Optional() = default;
  Optional(std::nullopt_t) {}                       // NOLINT(runtime/explicit)
  Optional(std::nullptr_t) {}                       // NOLINT(runtime/explicit)
  Optional(const T& value) : data_(value) {}        // NOLINT(runtime/explicit)
  Optional(T&& value) : data_(std::move(value)) {}  // NOLINT(runtime/explicit)
  template <typename U, typename = std::enable_if_t<detail::kOptionalConvertible<T, Optional, U>>>
  Optional(U&& value) : data_(T(std::forward<U>(value))) {}  // NOLINT(runtime/explicit)
  Optional(std::optional<T> value) {                         // NOLINT(runtime/explicit)
    if (value.has_value()) data_ = Any(std::move(*value));
  }
  template <typename U, typename = std::enable_if_t<detail::kOptionalConvertible<T, Optional, U>>>
  Optional& operator=(U&& value) {
    data_ = Any(T(std::forward<U>(value)));
    return *this;
  }

  Optional& operator=(T value) {
    data_ = Any(std::move(value));
    return *this;
  }
  Optional& operator=(std::nullopt_t) {
    data_.reset();
    return *this;
  }
  Optional& operator=(std::nullptr_t) {
    data_.reset();
    return *this;
  }

  bool has_value() const { return data_.type_index() != kTVMFFINone; }
  explicit operator bool() const { return has_value(); }
  /*! \return The value; throws RuntimeError "Back optional access" when empty. */
  T value() const& {
    if (!has_value()) detail::ThrowBadOptionalAccess("Back optional access");
    return TypeTraits<T>::CopyFromAnyViewAfterCheck(Cell());
  }
  /*! \return The value, moved out (this becomes empty). */
  T value() && {
    if (!has_value()) detail::ThrowBadOptionalAccess("Back optional access");
    return TypeTraits<T>::MoveFromAnyAfterCheck(detail::AnyUnsafe::GetTVMFFIAny(&data_));
  }
  template <typename U = T>
  T value_or(U&& default_value) const {
    return has_value() ? TypeTraits<T>::CopyFromAnyViewAfterCheck(Cell())
                       : T(std::forward<U>(default_value));
  }
  /*! \return The value without an emptiness check. */
  T operator*() const& { return TypeTraits<T>::CopyFromAnyViewAfterCheck(Cell()); }
  T operator*() && {
    return TypeTraits<T>::MoveFromAnyAfterCheck(detail::AnyUnsafe::GetTVMFFIAny(&data_));
  }
  void reset() { data_.reset(); }

  /*! \return Whether both hold the same bits (same object for objects; both empty counts). */
  bool same_as(const Optional& other) const {
    const TVMFFIAny* a = Cell();
    const TVMFFIAny* b = other.Cell();
    return a->type_index == b->type_index && a->zero_padding == b->zero_padding &&
           a->v_int64 == b->v_int64;
  }
  /*! \return The stored value strictly viewed as U (nullopt when empty or not a U). */
  template <typename U>
  auto as() const {
    return data_.template as<U>();
  }
  /*! \return As as<U>(), but TypeError "Cannot treat type `X` as type `U`" on mismatch. */
  template <typename U>
  U as_or_throw() const& {
    detail::CheckStrictlyAs<U>(Cell());
    return TypeTraits<U>::CopyFromAnyViewAfterCheck(Cell());
  }
  /*! \brief As the const& form, but the value is moved out (this becomes empty). */
  template <typename U>
  U as_or_throw() && {
    detail::CheckStrictlyAs<U>(Cell());
    return TypeTraits<U>::MoveFromAnyAfterCheck(detail::AnyUnsafe::GetTVMFFIAny(&data_));
  }

  friend bool operator==(const Optional& a, std::nullopt_t) { return !a.has_value(); }
  friend bool operator!=(const Optional& a, std::nullopt_t) { return a.has_value(); }
  friend bool operator==(std::nullopt_t, const Optional& a) { return !a.has_value(); }
  friend bool operator!=(std::nullopt_t, const Optional& a) { return a.has_value(); }
  friend bool operator==(const Optional& a, std::nullptr_t) { return !a.has_value(); }
  friend bool operator!=(const Optional& a, std::nullptr_t) { return a.has_value(); }
  friend bool operator==(const Optional& a, const Optional& b) {
    if (a.has_value() != b.has_value()) return false;
    return !a.has_value() || *a == *b;
  }
  friend bool operator!=(const Optional& a, const Optional& b) { return !(a == b); }
  friend bool operator==(const Optional& a, const std::optional<T>& b) {
    if (a.has_value() != b.has_value()) return false;
    return !a.has_value() || *a == *b;
  }
  friend bool operator!=(const Optional& a, const std::optional<T>& b) { return !(a == b); }
  /*! \brief Compare with a value: an empty Optional equals no value. */
  template <typename U, typename = std::enable_if_t<detail::kOptionalOperand<U, Optional> &&
                                                    !std::is_same_v<U, std::optional<T>>>>
  friend bool operator==(const Optional& a, const U& b) {
    return a.has_value() && *a == b;
  }
  template <typename U, typename = std::enable_if_t<detail::kOptionalOperand<U, Optional> &&
                                                    !std::is_same_v<U, std::optional<T>>>>
  friend bool operator!=(const Optional& a, const U& b) {
    return !(a == b);
  }

 private:
  const TVMFFIAny* Cell() const { return detail::AnyUnsafe::GetTVMFFIAny(data_); }
  Any data_;
};

/*!
 * \brief Optional of a reference class: one object pointer, null = empty. It is
 *  not itself an ObjectRef (a nullable reference is not a T); value() or * gives
 *  the T.
 */
template <typename T>
class Optional<T, std::enable_if_t<use_object_ref_optional_v<T>>> {
 public:
  using value_type = T;
  using ContainerType = typename T::ContainerType;
  static constexpr bool _type_container_is_exact = T::_type_container_is_exact;
  static constexpr bool _type_is_nullable = true;

  Optional() = default;
  Optional(std::nullopt_t) {}                            // NOLINT(runtime/explicit)
  Optional(std::nullptr_t) {}                            // NOLINT(runtime/explicit)
  Optional(const T& value) : data_(Ptr(value)) {}        // NOLINT(runtime/explicit)
  Optional(T&& value) : data_(Ptr(std::move(value))) {}  // NOLINT(runtime/explicit)
  /*! \brief Share the reference of an Optional of a subclass (Optional<Var> as Optional<Expr>). */
  template <typename U, typename = std::enable_if_t<use_object_ref_optional_v<U> &&
                                                    !std::is_same_v<U, T> && type_subsumes_v<T, U>>>
  Optional(const Optional<U>& other) : data_(other.data_) {}  // NOLINT(runtime/explicit)
  template <typename U, typename = std::enable_if_t<use_object_ref_optional_v<U> &&
                                                    !std::is_same_v<U, T> && type_subsumes_v<T, U>>>
  Optional(Optional<U>&& other) : data_(std::move(other.data_)) {}  // NOLINT(runtime/explicit)
  template <typename U, typename = std::enable_if_t<detail::kOptionalConvertible<T, Optional, U>>>
  Optional(U&& value) : data_(Ptr(T(std::forward<U>(value)))) {}  // NOLINT(runtime/explicit)
  template <typename U, typename = std::enable_if_t<detail::kOptionalConvertible<T, Optional, U>>>
  Optional& operator=(U&& value) {
    data_ = Ptr(T(std::forward<U>(value)));
    return *this;
  }
  Optional(std::optional<T> value) {  // NOLINT(runtime/explicit)
    if (value.has_value()) data_ = Ptr(std::move(*value));
  }
  explicit Optional(UnsafeInit) {}
  Optional(const Optional&) = default;
  Optional(Optional&&) noexcept = default;
  Optional& operator=(const Optional&) = default;
  Optional& operator=(Optional&&) noexcept = default;

  Optional& operator=(T value) {
    data_ = Ptr(std::move(value));
    return *this;
  }
  Optional& operator=(std::nullopt_t) {
    data_.reset();
    return *this;
  }
  Optional& operator=(std::nullptr_t) {
    data_.reset();
    return *this;
  }

  bool has_value() const { return data_ != nullptr; }
  explicit operator bool() const { return has_value(); }
  /*! \brief Same as has_value() (the spelling of a nullable reference). */
  bool defined() const { return has_value(); }
  /*! \return The reference; throws RuntimeError "Back optional access" when empty. */
  T value() const& {
    if (!has_value()) detail::ThrowBadOptionalAccess("Back optional access");
    return detail::ObjectUnsafe::ObjectRefFromObjectPtr<T>(data_);
  }
  T value() && {
    if (!has_value()) detail::ThrowBadOptionalAccess("Back optional access");
    return detail::ObjectUnsafe::ObjectRefFromObjectPtr<T>(std::move(data_));
  }
  template <typename U = T>
  T value_or(U&& default_value) const {
    return has_value() ? detail::ObjectUnsafe::ObjectRefFromObjectPtr<T>(data_)
                       : T(std::forward<U>(default_value));
  }
  /*! \return The reference without an emptiness check. */
  T operator*() const& { return detail::ObjectUnsafe::ObjectRefFromObjectPtr<T>(data_); }
  T operator*() && { return detail::ObjectUnsafe::ObjectRefFromObjectPtr<T>(std::move(data_)); }
  const ContainerType* get() const { return static_cast<const ContainerType*>(data_.get()); }
  const ContainerType* operator->() const { return get(); }
  void reset() { data_.reset(); }
  /*! \return The number of strong references to the object (0 when empty). */
  int use_count() const { return data_.use_count(); }

  /*! \return Whether both refer to the same object (both empty counts). */
  bool same_as(const Optional& other) const { return data_ == other.data_; }
  bool same_as(const ObjectRef& other) const { return data_.get() == other.get(); }
  /*! \return The object viewed as U (an object class or a reference class), as ObjectRef::as. */
  template <typename U>
  auto as() const {
    return AsRef().template as<U>();
  }
  /*! \return The object as the reference class U; TypeError on mismatch. */
  template <typename U>
  U as_or_throw() const& {
    return AsRef().template as_or_throw<U>();
  }
  /*! \brief As the const& form, but this becomes empty; a refused cast leaves it as it was. */
  template <typename U>
  U as_or_throw() && {
    U out = AsRef().template as_or_throw<U>();
    data_.reset();
    return out;
  }

  friend bool operator==(const Optional& a, std::nullopt_t) { return !a.has_value(); }
  friend bool operator!=(const Optional& a, std::nullopt_t) { return a.has_value(); }
  friend bool operator==(std::nullopt_t, const Optional& a) { return !a.has_value(); }
  friend bool operator!=(std::nullopt_t, const Optional& a) { return a.has_value(); }
  friend bool operator==(const Optional& a, std::nullptr_t) { return !a.has_value(); }
  friend bool operator!=(const Optional& a, std::nullptr_t) { return a.has_value(); }
  friend bool operator==(const Optional& a, const Optional& b) {
    if (a.same_as(b)) return true;
    if (a.has_value() != b.has_value()) return false;
    return static_cast<bool>(*a == *b);
  }
  friend bool operator!=(const Optional& a, const Optional& b) { return !(a == b); }
  friend bool operator==(const Optional& a, const T& b) {
    return a.has_value() && (a.same_as(b) || static_cast<bool>(*a == b));
  }
  friend bool operator!=(const Optional& a, const T& b) { return !(a == b); }

 private:
  static ObjectPtr<Object> Ptr(const T& ref) {
    return detail::ObjectUnsafe::ObjectPtrFromObjectRef<Object>(ref);
  }
  static ObjectPtr<Object> Ptr(T&& ref) {
    return detail::ObjectUnsafe::ObjectPtrFromObjectRef<Object>(std::move(ref));
  }
  ObjectRef AsRef() const { return detail::ObjectUnsafe::ObjectRefFromObjectPtr<ObjectRef>(data_); }

  ObjectPtr<Object> data_;
  template <typename, typename>
  friend class Optional;
};

/*! \brief Optional of ObjectPtr<T> / Arc<T>: an ObjectPtr, null = empty. */
template <typename P>
class Optional<P, std::enable_if_t<use_object_ptr_optional_v<P>>>
    : public ObjectPtr<typename P::element_type> {
  using Base = ObjectPtr<typename P::element_type>;

 public:
  using value_type = P;

  Optional() = default;
  Optional(std::nullopt_t) {}                    // NOLINT(runtime/explicit)
  Optional(std::nullptr_t) {}                    // NOLINT(runtime/explicit)
  Optional(P value) : Base(std::move(value)) {}  // NOLINT(runtime/explicit)
  Optional(std::optional<P> value) {             // NOLINT(runtime/explicit)
    if (value.has_value()) static_cast<Base&>(*this) = std::move(*value);
  }
  Optional& operator=(P value) {
    static_cast<Base&>(*this) = std::move(value);
    return *this;
  }
  Optional& operator=(std::nullopt_t) {
    Base::reset();
    return *this;
  }
  Optional& operator=(std::nullptr_t) {
    Base::reset();
    return *this;
  }

  bool has_value() const { return Base::get() != nullptr; }
  explicit operator bool() const { return has_value(); }
  /*! \return The pointer; throws RuntimeError "Bad optional access" when empty. */
  P value() const& {
    if (!has_value()) detail::ThrowBadOptionalAccess("Bad optional access");
    return FromBase(Base(*this));
  }
  P value() && {
    if (!has_value()) detail::ThrowBadOptionalAccess("Bad optional access");
    return FromBase(std::move(static_cast<Base&>(*this)));
  }
  P value_or(P default_value) const { return has_value() ? value() : default_value; }
  bool same_as(const Optional& other) const { return Base::get() == other.get(); }
  /*! \return The pointer as U (e.g. ObjectPtr<Sub>); TypeError when the object is not a U. */
  template <typename U>
  U as_or_throw() const& {
    TVMFFIAny cell = CheckedCell<U>();
    return TypeTraits<U>::CopyFromAnyViewAfterCheck(&cell);
  }
  /*! \brief As the const& form, but the pointer is moved out (this becomes empty). */
  template <typename U>
  U as_or_throw() && {
    static_assert(use_object_ptr_optional_v<U>, "as_or_throw moves the pointer into an owner");
    CheckedCell<U>();
    TVMFFIAny cell;
    TypeTraits<Base>::MoveToAny(std::move(static_cast<Base&>(*this)), &cell);
    return TypeTraits<U>::MoveFromAnyAfterCheck(&cell);
  }

  friend bool operator==(const Optional& a, std::nullopt_t) { return !a.has_value(); }
  friend bool operator!=(const Optional& a, std::nullopt_t) { return a.has_value(); }

 private:
  template <typename U>
  TVMFFIAny CheckedCell() const {
    TVMFFIAny cell;
    TypeTraits<Base>::CopyToAnyView(*this, &cell);
    detail::CheckStrictlyAs<U>(&cell);
    return cell;
  }
  static P FromBase(Base ptr) {
    if constexpr (is_arc_type_v<P>) {
      return detail::ObjectUnsafe::ArcFromObjectPtr(std::move(ptr));
    } else {
      return ptr;
    }
  }
};

/*! \brief Optional of a type that is converted on every crossing: a std::optional. */
template <typename T>
class Optional<T, std::enable_if_t<!detail::kOptionalUsesAny<T> && !use_object_ref_optional_v<T> &&
                                   !use_object_ptr_optional_v<T>>> {
 public:
  using value_type = T;

  Optional() = default;
  Optional(std::nullopt_t) {}                     // NOLINT(runtime/explicit)
  Optional(T value) : data_(std::move(value)) {}  // NOLINT(runtime/explicit)
  template <typename U, typename = std::enable_if_t<detail::kOptionalConvertible<T, Optional, U>>>
  Optional(U&& value) : data_(T(std::forward<U>(value))) {}      // NOLINT(runtime/explicit)
  Optional(std::optional<T> value) : data_(std::move(value)) {}  // NOLINT(runtime/explicit)
  template <typename U, typename = std::enable_if_t<detail::kOptionalConvertible<T, Optional, U>>>
  Optional& operator=(U&& value) {
    data_ = T(std::forward<U>(value));
    return *this;
  }
  Optional& operator=(T value) {
    data_ = std::move(value);
    return *this;
  }
  Optional& operator=(std::nullopt_t) {
    data_.reset();
    return *this;
  }

  bool has_value() const { return data_.has_value(); }
  explicit operator bool() const { return has_value(); }
  /*! \return The value; throws RuntimeError "Back optional access" when empty. */
  const T& value() const& {
    if (!has_value()) detail::ThrowBadOptionalAccess("Back optional access");
    return *data_;
  }
  T value() && {
    if (!has_value()) detail::ThrowBadOptionalAccess("Back optional access");
    return std::move(*data_);
  }
  template <typename U = T>
  T value_or(U&& default_value) const {
    return data_.value_or(std::forward<U>(default_value));
  }
  const T& operator*() const& { return *data_; }
  T operator*() && { return std::move(*data_); }
  const T* operator->() const { return &*data_; }
  void reset() { data_.reset(); }

  friend bool operator==(const Optional& a, std::nullopt_t) { return !a.has_value(); }
  friend bool operator!=(const Optional& a, std::nullopt_t) { return a.has_value(); }
  friend bool operator==(const Optional& a, const Optional& b) { return a.data_ == b.data_; }
  friend bool operator!=(const Optional& a, const Optional& b) { return !(a == b); }

 private:
  std::optional<T> data_;
};

/*! \brief None <-> empty; otherwise the rules of T. Schema Optional[T]. */
template <typename T>
struct TypeTraits<Optional<T>> : TypeTraitsBase {
  using Inner = TypeTraits<T>;
  static constexpr bool storage_enabled = detail::StorageEnabled<T>::value ||
                                          use_object_ref_optional_v<T> ||
                                          use_object_ptr_optional_v<T>;
  static constexpr int32_t field_static_type_index = kTVMFFIAny;
  static void CopyToAnyView(const Optional<T>& src, TVMFFIAny* r) {
    if (src.has_value()) {
      Inner::CopyToAnyView(*src, r);
    } else {
      detail::SetNone(r);
    }
  }
  static void MoveToAny(Optional<T> src, TVMFFIAny* r) {
    if (src.has_value()) {
      Inner::MoveToAny(std::move(src).value(), r);
    } else {
      detail::SetNone(r);
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
    return detail::SchemaWithArgs("Optional", {Inner::TypeSchema()});
  }
};

TVM_FFI_NAMESPACE_END

// GetRef / GetObjectPtr accept Optional results; give them to every user of Optional.
#include <tvm/ffi/cast.h>

#endif  // TVM_FFI_OPTIONAL_H_
