/*
 * Any and AnyView: the 16-byte values of every argument and result.
 *
 * AnyView borrows (it holds no reference, like a string_view); Any owns one
 * strong reference when it holds an object. Both store PODs inline and read
 * them back through TypeTraits (type_traits.h):
 *
 *   Any a = 42;                      // int stored inline
 *   Any s = "hello";                 // a string (small ones need no allocation)
 *   int x = a.cast<int>();           // throws TypeError when not convertible
 *   std::optional<int> y = a.as<int>();        // exact type only
 *   std::optional<double> z = a.try_cast<double>();  // int -> float allowed
 *   const MyObj* p = a.as<MyObj>();  // object types: pointer or nullptr
 */
#ifndef TVM_FFI_ANY_H_
#define TVM_FFI_ANY_H_

#include <tvm/ffi/base_detail.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/object.h>
#include <tvm/ffi/type_traits.h>

#include <cstring>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

TVM_FFI_NAMESPACE_BEGIN

class Any;
class AnyView;

namespace detail {
struct AnyUnsafe;

template <typename T>
struct IsAnyLike : std::bool_constant<std::is_same_v<std::decay_t<T>, Any> ||
                                      std::is_same_v<std::decay_t<T>, AnyView>> {};
template <typename T>
struct ConvertEnabled : std::bool_constant<TypeTraitsNoCR<T>::convert_enabled> {};

// Any and AnyView are excluded first, so their own traits are not instantiated early.
template <typename T>
constexpr bool kCanStoreInAny = std::conjunction_v<std::negation<IsAnyLike<T>>, ConvertEnabled<T>>;

// String/bytes content of a cell, whichever of the three forms holds it.
inline bool AnyStringView(const TVMFFIAny* src, std::string_view* out, bool* is_bytes) {
  switch (src->type_index) {
    case kTVMFFISmallStr:
    case kTVMFFISmallBytes:
      *out = std::string_view(src->v_bytes, src->small_str_len);
      *is_bytes = src->type_index == kTVMFFISmallBytes;
      return true;
    case kTVMFFIStr:
    case kTVMFFIBytes: {
      const TVMFFIByteArray* cell = reinterpret_cast<const TVMFFIByteArray*>(
          reinterpret_cast<const char*>(src->v_obj) + sizeof(TVMFFIObject));
      *out = std::string_view(cell->data, cell->size);
      *is_bytes = src->type_index == kTVMFFIBytes;
      return true;
    }
    case kTVMFFIRawStr:
      *out = std::string_view(src->v_c_str);
      *is_bytes = false;
      return true;
    case kTVMFFIByteArrayPtr: {
      const TVMFFIByteArray* b = static_cast<const TVMFFIByteArray*>(src->v_ptr);
      *out = std::string_view(b->data, b->size);
      *is_bytes = true;
      return true;
    }
    default:
      return false;
  }
}

[[noreturn]] inline void ThrowCastError(const std::string& found, const std::string& expected) {
  TVM_FFI_THROW(TypeError) << "Cannot convert from type `" << found << "` to `" << expected << "`";
  TVM_FFI_UNREACHABLE();  // the builder above throws
}

// The common implementation of as/try_cast/cast over a raw cell.
template <typename T>
inline auto AnyAs(const TVMFFIAny* data) {
  if constexpr (std::is_base_of_v<Object, T>) {
    TVMFFIObject* obj = data->type_index >= kTVMFFIStaticObjectBegin ? data->v_obj : nullptr;
    const T* result = nullptr;
    if (obj != nullptr && reinterpret_cast<const Object*>(obj)->IsInstance<T>()) {
      result = static_cast<const T*>(reinterpret_cast<const Object*>(obj));
    }
    return result;
  } else {
    using Traits = TypeTraitsNoCR<T>;
    static_assert(Traits::convert_enabled, "as<T>: T has no conversion to/from Any");
    if (Traits::CheckAnyStrict(data)) {
      return std::optional<T>(Traits::CopyFromAnyViewAfterCheck(data));
    }
    return std::optional<T>(std::nullopt);
  }
}

template <typename T>
inline T AnyAsOrThrow(const TVMFFIAny* data) {
  using Traits = TypeTraitsNoCR<T>;
  static_assert(Traits::convert_enabled, "as_or_throw<T>: T has no conversion from Any");
  if (!Traits::CheckAnyStrict(data)) {
    TVM_FFI_THROW(TypeError) << "Cannot treat type `" << Traits::GetMismatchTypeInfo(data)
                             << "` as type `" << Traits::TypeStr() << "`";
  }
  return Traits::CopyFromAnyViewAfterCheck(data);
}

template <typename T>
inline T AnyCast(const TVMFFIAny* data) {
  using Traits = TypeTraitsNoCR<T>;
  static_assert(Traits::convert_enabled, "cast<T>: T has no conversion from Any");
  if (Traits::CheckAnyStrict(data)) return Traits::CopyFromAnyViewAfterCheck(data);
  std::optional<T> v = Traits::TryCastFromAnyView(data);
  if (!v.has_value()) ThrowCastError(Traits::GetMismatchTypeInfo(data), Traits::TypeStr());
  return std::move(*v);
}
}  // namespace detail

/*! \brief A borrowed value: no reference is held. */
class AnyView {
 public:
  AnyView() { detail::SetNone(&data_); }
  // Trivially copyable (passed in registers); a move leaves the source as it was.
  AnyView(const AnyView&) = default;
  AnyView& operator=(const AnyView&) = default;
  AnyView(AnyView&&) = default;
  AnyView& operator=(AnyView&&) = default;
  /*! \brief Borrow the value of an Any. */
  AnyView(const Any& other);  // NOLINT(runtime/explicit)
  template <typename T, typename = std::enable_if_t<detail::kCanStoreInAny<T>>>
  AnyView(const T& other) {  // NOLINT(runtime/explicit)
    TypeTraitsNoCR<T>::CopyToAnyView(other, &data_);
  }

  int32_t type_index() const { return data_.type_index; }
  /*! \return The registered type key of the stored type. */
  std::string GetTypeKey() const {
    const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(data_.type_index);
    return info ? std::string(info->type_key.data, info->type_key.size) : std::string();
  }
  /*! \return Whether the view holds None. */
  bool is_none() const { return data_.type_index == kTVMFFINone; }
  bool operator==(std::nullptr_t) const { return data_.type_index == kTVMFFINone; }
  bool operator!=(std::nullptr_t) const { return data_.type_index != kTVMFFINone; }
  /*! \brief Become None. */
  void reset() { detail::SetNone(&data_); }
  void swap(AnyView& other) noexcept { std::swap(data_, other.data_); }
  /*! \return Whether both hold the same bits (type index and payload). */
  bool same_as(const AnyView& other) const {
    return data_.type_index == other.data_.type_index &&
           data_.zero_padding == other.data_.zero_padding && data_.v_int64 == other.data_.v_int64;
  }
  /*! \brief Exact-type read: std::optional<T>, or const T* for Object types. */
  template <typename T>
  auto as() const {
    return detail::AnyAs<T>(&data_);
  }
  /*! \brief Exact-type read; TypeError "Cannot treat type `X` as type `T`" otherwise. */
  template <typename T>
  T as_or_throw() const {
    return detail::AnyAsOrThrow<T>(&data_);
  }
  /*! \brief Read with the documented conversions; std::nullopt when impossible. */
  template <typename T>
  std::optional<T> try_cast() const {
    return TypeTraitsNoCR<T>::TryCastFromAnyView(&data_);
  }
  /*! \brief Read as T, or throw TypeError naming both types. */
  template <typename T>
  T cast() const {
    return detail::AnyCast<T>(&data_);
  }

  /*! \brief Wrap a raw cell (no reference taken). */
  static AnyView CopyFromTVMFFIAny(TVMFFIAny data) {
    AnyView v;
    v.data_ = data;
    return v;
  }
  TVMFFIAny CopyToTVMFFIAny() const { return data_; }

 protected:
  TVMFFIAny data_;
  friend class Any;
  friend struct detail::AnyUnsafe;
};

namespace detail {
/*!
 * \brief The owned form of a borrowed string view (a new String or Bytes) or of an
 *  ObjectRValueRef (its object, stolen: the referenced slot becomes null). Out of line so that
 *  Any(const AnyView&) stays small enough to inline on call paths.
 */
TVM_FFI_NOINLINE inline void OwnBorrowedView(const TVMFFIAny& view, TVMFFIAny* out) {
  if (view.type_index == kTVMFFIObjectRValueRef) {
    TVMFFIObject** slot = static_cast<TVMFFIObject**>(view.v_ptr);
    if (*slot == nullptr) TVM_FFI_THROW(InternalError) << "RValueRef already moved";
    out->type_index = (*slot)->type_index;
    out->zero_padding = 0;
    out->v_obj = *slot;
    *slot = nullptr;
    return;
  }
  TVM_FFI_CHECK_SAFE_CALL(TVMFFIAnyViewToOwnedAny(&view, out));
}
}  // namespace detail

/*! \brief An owned value: holds one strong reference to a stored object. */
class Any {
 public:
  Any() { detail::SetNone(&data_); }
  ~Any() { reset(); }
  Any(const Any& other) : data_(other.data_) {
    if (data_.type_index >= kTVMFFIStaticObjectBegin) {
      detail::ObjectUnsafe::IncRef(data_.v_obj);
    }
  }
  Any(Any&& other) noexcept : data_(other.data_) { detail::SetNone(&other.data_); }
  Any& operator=(const Any& other) {
    Any(other).swap(*this);
    return *this;
  }
  Any& operator=(Any&& other) noexcept {
    Any(std::move(other)).swap(*this);
    return *this;
  }
  /*!
   * \brief Take ownership of a view's value: objects get a reference, borrowed strings become
   *  owned ones, and an ObjectRValueRef gives up its object (the referenced slot becomes null,
   *  so the new Any may be its only owner; InternalError "RValueRef already moved" when the
   *  slot is already null).
   */
  Any(const AnyView& other) {  // NOLINT(runtime/explicit)
    if (other.data_.type_index >= kTVMFFIStaticObjectBegin) {
      data_ = other.data_;
      detail::ObjectUnsafe::IncRef(data_.v_obj);
    } else if (other.data_.type_index == kTVMFFIRawStr ||
               other.data_.type_index == kTVMFFIByteArrayPtr ||
               other.data_.type_index == kTVMFFIObjectRValueRef) {
      detail::OwnBorrowedView(other.data_, &data_);
    } else {
      data_ = other.data_;
    }
  }
  template <typename T, typename = std::enable_if_t<detail::kCanStoreInAny<T>>>
  Any(T other) {  // NOLINT(runtime/explicit)
    TypeTraitsNoCR<T>::MoveToAny(std::move(other), &data_);
  }
  template <typename T, typename = std::enable_if_t<detail::kCanStoreInAny<T>>>
  Any& operator=(T other) {
    Any(std::move(other)).swap(*this);
    return *this;
  }

  void swap(Any& other) noexcept { std::swap(data_, other.data_); }
  /*! \brief Release the value; becomes None. */
  void reset() {
    if (data_.type_index >= kTVMFFIStaticObjectBegin) {
      detail::ObjectUnsafe::DecRef(data_.v_obj);
    }
    detail::SetNone(&data_);
  }

  int32_t type_index() const { return data_.type_index; }
  std::string GetTypeKey() const { return AnyView(*this).GetTypeKey(); }
  bool is_none() const { return data_.type_index == kTVMFFINone; }
  bool operator==(std::nullptr_t) const { return data_.type_index == kTVMFFINone; }
  bool operator!=(std::nullptr_t) const { return data_.type_index != kTVMFFINone; }
  /*! \return Whether both hold the same bits (type index and payload: objects by identity). */
  bool same_as(const Any& other) const { return AnyView(*this).same_as(AnyView(other)); }
  /*! \return Whether this holds the object of ref (None for a null ref). */
  bool same_as(const ObjectRef& ref) const {
    if (!ref.defined()) return data_.type_index == kTVMFFINone;
    return data_.type_index >= kTVMFFIStaticObjectBegin &&
           data_.v_obj == detail::ObjectUnsafe::GetHeader(ref.get());
  }
  template <typename T>
  auto as() const& {
    return detail::AnyAs<T>(&data_);
  }
  /*!
   * \brief Exact-type read out of a temporary: on success the value is moved
   *  out (this becomes None).
   */
  template <typename T>
  auto as() && {
    if constexpr (std::is_base_of_v<Object, T> || std::is_pointer_v<T>) {
      return detail::AnyAs<T>(&data_);
    } else if constexpr (std::is_same_v<T, Any>) {
      return std::optional<Any>(std::move(*this));
    } else {
      using Traits = TypeTraitsNoCR<T>;
      if (!Traits::CheckAnyStrict(&data_)) return std::optional<T>(std::nullopt);
      return std::optional<T>(Traits::MoveFromAnyAfterCheck(&data_));
    }
  }
  /*! \brief Exact-type read; TypeError "Cannot treat type `X` as type `T`" otherwise. */
  template <typename T>
  T as_or_throw() const& {
    return detail::AnyAsOrThrow<T>(&data_);
  }
  template <typename T>
  T as_or_throw() && {
    T value = detail::AnyAsOrThrow<T>(&data_);
    reset();
    return value;
  }
  template <typename T>
  std::optional<T> try_cast() const {
    return TypeTraitsNoCR<T>::TryCastFromAnyView(&data_);
  }
  template <typename T>
  T cast() const& {
    return detail::AnyCast<T>(&data_);
  }
  /*! \brief Cast out of a temporary: moves the reference when the type matches exactly. */
  template <typename T>
  T cast() && {
    using Traits = TypeTraitsNoCR<T>;
    if (Traits::CheckAnyStrict(&data_)) return Traits::MoveFromAnyAfterCheck(&data_);
    return detail::AnyCast<T>(&data_);
  }

  /*! \brief Value equality for PODs and strings, identity for other objects. */
  friend bool operator==(const Any& a, const Any& b);
  friend bool operator!=(const Any& a, const Any& b) { return !(a == b); }

 private:
  TVMFFIAny data_;
  friend class AnyView;
  friend struct detail::AnyUnsafe;
};

inline AnyView::AnyView(const Any& other) : data_(other.data_) {}

template <>
struct TypeTraits<Any> : TypeTraitsBase {
  static void CopyToAnyView(const Any& src, TVMFFIAny* r) { *r = AnyView(src).CopyToTVMFFIAny(); }
  static void MoveToAny(Any src, TVMFFIAny* r);
  static bool CheckAnyStrict(const TVMFFIAny*) { return true; }
  static Any CopyFromAnyViewAfterCheck(const TVMFFIAny* src) {
    return Any(AnyView::CopyFromTVMFFIAny(*src));
  }
  static Any MoveFromAnyAfterCheck(TVMFFIAny* src);
  static std::optional<Any> TryCastFromAnyView(const TVMFFIAny* src) {
    return CopyFromAnyViewAfterCheck(src);
  }
  static std::string TypeStr() { return "Any"; }
  static std::string TypeSchema() { return detail::SchemaOf("Any"); }
};

template <>
struct TypeTraits<AnyView> : TypeTraitsBase {
  static void CopyToAnyView(const AnyView& src, TVMFFIAny* r) { *r = src.CopyToTVMFFIAny(); }
  static bool CheckAnyStrict(const TVMFFIAny*) { return true; }
  static AnyView CopyFromAnyViewAfterCheck(const TVMFFIAny* src) {
    return AnyView::CopyFromTVMFFIAny(*src);
  }
  static std::optional<AnyView> TryCastFromAnyView(const TVMFFIAny* src) {
    return AnyView::CopyFromTVMFFIAny(*src);
  }
  static std::string TypeStr() { return "AnyView"; }
  static std::string TypeSchema() { return detail::SchemaOf("Any"); }
};

namespace detail {
/*! \brief Raw access to the cells of Any and AnyView (for the call machinery). */
struct AnyUnsafe {
  static TVMFFIAny* GetTVMFFIAny(Any* a) { return &a->data_; }
  static const TVMFFIAny* GetTVMFFIAny(const Any& a) { return &a.data_; }
  static const TVMFFIAny* GetTVMFFIAny(const AnyView& a) { return &a.data_; }
  static TVMFFIAny* GetTVMFFIAny(AnyView* a) { return &a->data_; }
  /*! \brief Adopt an owned cell. */
  static Any MoveTVMFFIAnyToAny(TVMFFIAny* data) {
    Any a;
    a.data_ = *data;
    SetNone(data);
    return a;
  }
  /*! \brief Release ownership of the value to a raw cell. */
  static TVMFFIAny MoveAnyToTVMFFIAny(Any&& a) {
    TVMFFIAny r = a.data_;
    SetNone(&a.data_);
    return r;
  }
  template <typename T>
  static T CopyFromAnyViewAfterCheck(const Any& a) {
    return TypeTraitsNoCR<T>::CopyFromAnyViewAfterCheck(&a.data_);
  }
  /*! \brief Same as MoveTVMFFIAnyToAny, from a cell passed by value. */
  static Any MoveTVMFFIAnyRawToAny(TVMFFIAny data) { return MoveTVMFFIAnyToAny(&data); }
  static const TVMFFIAny* TVMFFIAnyPtrFromAny(const Any& a) { return &a.data_; }
  template <typename T>
  static bool CheckAnyStrict(const Any& a) {
    return TypeTraitsNoCR<T>::CheckAnyStrict(&a.data_);
  }
  template <typename T>
  static bool CheckAnyViewStrict(const AnyView& a) {
    return TypeTraitsNoCR<T>::CheckAnyStrict(&a.data_);
  }
  template <typename T>
  static T MoveFromAnyAfterCheck(Any&& a) {
    return TypeTraitsNoCR<T>::MoveFromAnyAfterCheck(&a.data_);
  }
  template <typename T = Object>
  static const T* RawObjectPtrFromAnyAfterCheck(const Any& a) {
    // Through Object: T may have bases laid out before its Object part.
    return static_cast<const T*>(reinterpret_cast<const Object*>(a.data_.v_obj));
  }
  template <typename T = Object>
  static const T* RawObjectPtrFromAnyViewAfterCheck(const AnyView& a) {
    return static_cast<const T*>(reinterpret_cast<const Object*>(a.data_.v_obj));
  }
  template <typename T>
  static std::string GetMismatchTypeInfo(const Any& a) {
    return TypeTraitsNoCR<T>::GetMismatchTypeInfo(&a.data_);
  }
};

/*!
 * \brief The name of a parameter or result type in signatures: TypeStr() of
 *  its traits, "Any" / "AnyView" for those, "void" for void.
 */
template <typename T>
struct Type2Str {
  static std::string v() {
    using U = std::remove_cv_t<std::remove_reference_t<T>>;
    if constexpr (std::is_void_v<U>) {
      return "void";
    } else if constexpr (std::is_same_v<U, Any>) {
      return "Any";
    } else if constexpr (std::is_same_v<U, AnyView>) {
      return "AnyView";
    } else {
      return TypeTraitsNoCR<U>::TypeStr();
    }
  }
};

/*!
 * \brief Turn a view cell into an owned one in place (borrowed strings and
 *  byte arrays become String/Bytes, objects gain a reference).
 */
inline void InplaceConvertAnyViewToAny(TVMFFIAny* data, size_t extra_any_bytes = 0) {
  (void)extra_any_bytes;
  Any owned{AnyView::CopyFromTVMFFIAny(*data)};
  *data = AnyUnsafe::MoveAnyToTVMFFIAny(std::move(owned));
}

inline uint64_t HashBytes(std::string_view s) { return std::hash<std::string_view>()(s); }

}  // namespace detail

inline void TypeTraits<Any>::MoveToAny(Any src, TVMFFIAny* r) {
  *r = detail::AnyUnsafe::MoveAnyToTVMFFIAny(std::move(src));
}
inline Any TypeTraits<Any>::MoveFromAnyAfterCheck(TVMFFIAny* src) {
  return detail::AnyUnsafe::MoveTVMFFIAnyToAny(src);
}

namespace detail {

/*!
 * \brief The entry of an object type in a per-type hook column (__any_hash__,
 *  __any_equal__), or NULL when the type has none. The column pointer is
 *  stable; its size is re-read on every call because it grows.
 */
TVM_FFI_INLINE const TVMFFIAny* AnyKeyHookEntry(const TVMFFITypeAttrColumn* column,
                                                int32_t type_index) {
  if (column == nullptr) return nullptr;
  int64_t i = static_cast<int64_t>(type_index) - column->begin_index;
  if (i < 0 || i >= __atomic_load_n(&column->size, __ATOMIC_ACQUIRE)) return nullptr;
  const TVMFFIAny* entry = column->data + i;
  int32_t kind = __atomic_load_n(&entry->type_index, __ATOMIC_ACQUIRE);
  return kind == kTVMFFIOpaquePtr || kind == kTVMFFIFunction ? entry : nullptr;
}

inline const TVMFFITypeAttrColumn* AnyKeyHookColumn(const char* name) {
  TVMFFIByteArray bytes{name, std::char_traits<char>::length(name)};
  return TVMFFIGetTypeAttrColumn(&bytes);
}

/*!
 * \brief Call a key hook: a native adapter TVMFFIAny(*)(const TVMFFIAny*...)
 *  noexcept returning the value or an Error object (OpaquePtr entry), or a
 *  Function called with the arguments as views. Throws the hook's error;
 *  TypeError when the result is not of type expected_index.
 */
template <typename... Cells>
inline TVMFFIAny CallAnyKeyHook(const TVMFFIAny* hook, int32_t expected_index,
                                const Cells*... cells) {
  TVMFFIAny result;
  if (hook->type_index == kTVMFFIOpaquePtr) {
    using Adapter = TVMFFIAny (*)(const Cells*...) noexcept;
    result = reinterpret_cast<Adapter>(hook->v_ptr)(cells...);
    if (result.type_index == kTVMFFIError) {
      throw Error(ObjectUnsafe::ObjectPtrFromOwned<Object>(result.v_obj));
    }
  } else {
    TVMFFIAny args[] = {*cells...};
    result.type_index = kTVMFFINone;
    result.zero_padding = 0;
    result.v_int64 = 0;
    if (TVMFFIFunctionCall(hook->v_obj, args, static_cast<int32_t>(sizeof...(Cells)), &result) !=
        0) {
      throw MoveFromRaised();
    }
  }
  if (result.type_index != expected_index) {
    if (result.type_index >= kTVMFFIStaticObjectBegin) TVMFFIObjectDecRef(result.v_obj);
    TVM_FFI_THROW(TypeError) << "Packed hook result type mismatch";
  }
  return result;
}

}  // namespace detail

/*!
 * \brief The key hash of Map and Dict, identical in every build (it decides
 *  slot positions, which other libraries read inline): strings and bytes by
 *  content whatever their storage; an object whose type registers the
 *  __any_hash__ hook (BigInt, StructuralKey) by StableHashCombine(type index,
 *  hook result); everything else by type index and the 8-byte payload
 *  (objects by identity, floats bitwise).
 */
struct AnyHash {
  uint64_t operator()(const Any& a) const { return Hash(detail::AnyUnsafe::GetTVMFFIAny(a)); }
  uint64_t operator()(const AnyView& a) const { return Hash(detail::AnyUnsafe::GetTVMFFIAny(a)); }
  /*! \brief Also accepts the borrowed string forms (RawStr, ByteArrayPtr), hashed as String/Bytes.
   */
  static uint64_t Hash(const TVMFFIAny* a) {
    switch (a->type_index) {
      case kTVMFFISmallStr:
        return detail::StableHashCombine(kTVMFFIStr, detail::StableHashSmallStrBytes(a));
      case kTVMFFISmallBytes:
        return detail::StableHashCombine(kTVMFFIBytes, detail::StableHashSmallStrBytes(a));
      case kTVMFFIStr:
      case kTVMFFIBytes:
      case kTVMFFIRawStr:
      case kTVMFFIByteArrayPtr: {
        std::string_view s;
        bool is_bytes;
        detail::AnyStringView(a, &s, &is_bytes);
        return detail::StableHashCombine(is_bytes ? kTVMFFIBytes : kTVMFFIStr,
                                         detail::StableHashBytes(s.data(), s.size()));
      }
      default:
        if (a->type_index >= kTVMFFIStaticObjectBegin) {
          static const TVMFFITypeAttrColumn* column = detail::AnyKeyHookColumn("__any_hash__");
          if (const TVMFFIAny* hook = detail::AnyKeyHookEntry(column, a->type_index)) {
            TVMFFIAny h = detail::CallAnyKeyHook(hook, kTVMFFIInt, a);
            return detail::StableHashCombine(static_cast<uint64_t>(a->type_index), h.v_uint64);
          }
        }
        return detail::StableHashCombine(static_cast<uint64_t>(a->type_index), a->v_uint64);
    }
  }
};

/*!
 * \brief Key equality matching AnyHash: String and Bytes by content (a small
 *  and a heap string of equal content are equal; a String never equals a
 *  Bytes), two objects of one type that registers __any_equal__ by that
 *  hook, everything else only when the 16 bytes of the cells are identical.
 */
struct AnyEqual {
  bool operator()(const Any& a, const Any& b) const {
    return Equal(detail::AnyUnsafe::GetTVMFFIAny(a), detail::AnyUnsafe::GetTVMFFIAny(b));
  }
  bool operator()(const AnyView& a, const AnyView& b) const {
    return Equal(detail::AnyUnsafe::GetTVMFFIAny(a), detail::AnyUnsafe::GetTVMFFIAny(b));
  }
  static bool Equal(const TVMFFIAny* a, const TVMFFIAny* b) {
    uint64_t a0, b0;
    std::memcpy(&a0, a, sizeof(a0));
    std::memcpy(&b0, b, sizeof(b0));
    if (a0 == b0 && a->v_uint64 == b->v_uint64) return true;
    std::string_view sa, sb;
    bool ba, bb;
    if (detail::AnyStringView(a, &sa, &ba)) {
      return detail::AnyStringView(b, &sb, &bb) && ba == bb && sa == sb;
    }
    if (a->type_index >= kTVMFFIStaticObjectBegin && a->type_index == b->type_index) {
      static const TVMFFITypeAttrColumn* column = detail::AnyKeyHookColumn("__any_equal__");
      if (const TVMFFIAny* hook = detail::AnyKeyHookEntry(column, a->type_index)) {
        return detail::CallAnyKeyHook(hook, kTVMFFIBool, a, b).v_int64 != 0;
      }
    }
    return false;
  }
};

inline bool operator==(const Any& a, const Any& b) { return AnyEqual()(a, b); }

/*!
 * \brief Downcast a reference to a subclass reference; TypeError when the
 *  object is not an instance (None is allowed for nullable targets).
 */
template <typename SubRef, typename BaseRef,
          typename = std::enable_if_t<std::is_base_of_v<ObjectRef, BaseRef>>>
inline SubRef Downcast(BaseRef ref) {
  using Traits = TypeTraits<SubRef>;
  AnyView view(static_cast<const ObjectRef&>(ref));
  const TVMFFIAny* cell = detail::AnyUnsafe::GetTVMFFIAny(view);
  if (!Traits::CheckAnyStrict(cell)) {
    detail::ThrowCastError(Traits::GetMismatchTypeInfo(cell), Traits::TypeStr());
  }
  return detail::ObjectUnsafe::ObjectRefFromObjectPtr<SubRef>(
      std::move(detail::ObjectUnsafe::GetObjectPtrMutable(ref)));
}

/*! \brief Downcast the value of an Any. */
template <typename SubRef>
inline SubRef Downcast(const Any& value) {
  return value.cast<SubRef>();
}

TVM_FFI_NAMESPACE_END

// The values of every call are used unqualified across tvm.
namespace tvm {
using ::tvm::ffi::Any;
using ::tvm::ffi::AnyView;
}  // namespace tvm

namespace std {
template <>
struct hash<::tvm::ffi::Any> {
  size_t operator()(const ::tvm::ffi::Any& a) const {
    return static_cast<size_t>(::tvm::ffi::AnyHash()(a));
  }
};
}  // namespace std

// String and Bytes complete the set of types every user of Any expects
// (string literals convert through them).
#include <tvm/ffi/string.h>

#endif  // TVM_FFI_ANY_H_
