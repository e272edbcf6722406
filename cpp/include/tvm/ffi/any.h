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

namespace details {
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
  TVM_FFI_THROW(TypeError) << "Cannot convert from type `" << found << "` to `" << expected
                           << "`";
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
inline T AnyCast(const TVMFFIAny* data) {
  using Traits = TypeTraitsNoCR<T>;
  static_assert(Traits::convert_enabled, "cast<T>: T has no conversion from Any");
  if (Traits::CheckAnyStrict(data)) return Traits::CopyFromAnyViewAfterCheck(data);
  std::optional<T> v = Traits::TryCastFromAnyView(data);
  if (!v.has_value()) ThrowCastError(Traits::GetMismatchTypeInfo(data), Traits::TypeStr());
  return std::move(*v);
}
}  // namespace details

/*! \brief A borrowed value: no reference is held. */
class AnyView {
 public:
  AnyView() { details::SetNone(&data_); }
  AnyView(const AnyView&) = default;
  AnyView& operator=(const AnyView&) = default;
  AnyView(AnyView&& other) : data_(other.data_) { details::SetNone(&other.data_); }
  AnyView& operator=(AnyView&& other) {
    data_ = other.data_;
    details::SetNone(&other.data_);
    return *this;
  }
  /*! \brief Borrow the value of an Any. */
  AnyView(const Any& other);  // NOLINT(runtime/explicit)
  template <typename T, typename = std::enable_if_t<details::kCanStoreInAny<T>>>
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
  /*! \brief Exact-type read: std::optional<T>, or const T* for Object types. */
  template <typename T>
  auto as() const {
    return details::AnyAs<T>(&data_);
  }
  /*! \brief Read with the documented conversions; std::nullopt when impossible. */
  template <typename T>
  std::optional<T> try_cast() const {
    return TypeTraitsNoCR<T>::TryCastFromAnyView(&data_);
  }
  /*! \brief Read as T, or throw TypeError naming both types. */
  template <typename T>
  T cast() const {
    return details::AnyCast<T>(&data_);
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
  friend struct details::AnyUnsafe;
};

/*! \brief An owned value: holds one strong reference to a stored object. */
class Any {
 public:
  Any() { details::SetNone(&data_); }
  ~Any() { reset(); }
  Any(const Any& other) : data_(other.data_) {
    if (data_.type_index >= kTVMFFIStaticObjectBegin) {
      details::ObjectUnsafe::IncRef(data_.v_obj);
    }
  }
  Any(Any&& other) noexcept : data_(other.data_) { details::SetNone(&other.data_); }
  Any& operator=(const Any& other) {
    Any(other).swap(*this);
    return *this;
  }
  Any& operator=(Any&& other) noexcept {
    Any(std::move(other)).swap(*this);
    return *this;
  }
  /*! \brief Take ownership of a view's value (borrowed strings become owned ones). */
  Any(const AnyView& other) {  // NOLINT(runtime/explicit)
    if (other.data_.type_index >= kTVMFFIStaticObjectBegin) {
      data_ = other.data_;
      details::ObjectUnsafe::IncRef(data_.v_obj);
    } else if (other.data_.type_index == kTVMFFIRawStr ||
               other.data_.type_index == kTVMFFIByteArrayPtr ||
               other.data_.type_index == kTVMFFIObjectRValueRef) {
      TVM_FFI_CHECK_SAFE_CALL(TVMFFIAnyViewToOwnedAny(&other.data_, &data_));
    } else {
      data_ = other.data_;
    }
  }
  template <typename T, typename = std::enable_if_t<details::kCanStoreInAny<T>>>
  Any(T other) {  // NOLINT(runtime/explicit)
    TypeTraitsNoCR<T>::MoveToAny(std::move(other), &data_);
  }
  template <typename T, typename = std::enable_if_t<details::kCanStoreInAny<T>>>
  Any& operator=(T other) {
    Any(std::move(other)).swap(*this);
    return *this;
  }

  void swap(Any& other) noexcept { std::swap(data_, other.data_); }
  /*! \brief Release the value; becomes None. */
  void reset() {
    if (data_.type_index >= kTVMFFIStaticObjectBegin) {
      details::ObjectUnsafe::DecRef(data_.v_obj);
    }
    details::SetNone(&data_);
  }

  int32_t type_index() const { return data_.type_index; }
  std::string GetTypeKey() const { return AnyView(*this).GetTypeKey(); }
  bool is_none() const { return data_.type_index == kTVMFFINone; }
  template <typename T>
  auto as() const {
    return details::AnyAs<T>(&data_);
  }
  template <typename T>
  std::optional<T> try_cast() const {
    return TypeTraitsNoCR<T>::TryCastFromAnyView(&data_);
  }
  template <typename T>
  T cast() const& {
    return details::AnyCast<T>(&data_);
  }
  /*! \brief Cast out of a temporary: moves the reference when the type matches exactly. */
  template <typename T>
  T cast() && {
    using Traits = TypeTraitsNoCR<T>;
    if (Traits::CheckAnyStrict(&data_)) return Traits::MoveFromAnyAfterCheck(&data_);
    return details::AnyCast<T>(&data_);
  }

  /*! \brief Value equality for PODs and strings, identity for other objects. */
  friend bool operator==(const Any& a, const Any& b);
  friend bool operator!=(const Any& a, const Any& b) { return !(a == b); }

 private:
  TVMFFIAny data_;
  friend class AnyView;
  friend struct details::AnyUnsafe;
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
  static std::string TypeSchema() { return details::SchemaOf("Any"); }
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
  static std::string TypeStr() { return "Any"; }
  static std::string TypeSchema() { return details::SchemaOf("Any"); }
};

namespace details {
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
};

inline uint64_t HashBytes(std::string_view s) { return std::hash<std::string_view>()(s); }
}  // namespace details

inline void TypeTraits<Any>::MoveToAny(Any src, TVMFFIAny* r) {
  *r = details::AnyUnsafe::MoveAnyToTVMFFIAny(std::move(src));
}
inline Any TypeTraits<Any>::MoveFromAnyAfterCheck(TVMFFIAny* src) {
  return details::AnyUnsafe::MoveTVMFFIAnyToAny(src);
}

/*!
 * \brief Hash for map keys: strings and bytes by content (whatever their
 *  storage), ints, floats and other PODs by value, objects by identity.
 */
struct AnyHash {
  uint64_t operator()(const Any& a) const { return Hash(details::AnyUnsafe::GetTVMFFIAny(a)); }
  uint64_t operator()(const AnyView& a) const {
    return Hash(details::AnyUnsafe::GetTVMFFIAny(a));
  }
  static uint64_t Hash(const TVMFFIAny* a) {
    std::string_view s;
    bool is_bytes;
    if (details::AnyStringView(a, &s, &is_bytes)) {
      return details::HashBytes(s) ^ (is_bytes ? 0x9e3779b97f4a7c15ULL : 0);
    }
    if (a->type_index == kTVMFFIBigInt) {
      // By value: BigInt objects are normalised, so equal values have equal words.
      std::string_view words = BigIntWords(a);
      return details::HashBytes(words) ^ static_cast<uint64_t>(kTVMFFIBigInt);
    }
    if (a->type_index == kTVMFFIFloat) {
      double v = a->v_float64;
      if (v == 0.0) v = 0.0;  // -0.0 and 0.0 are equal keys
      uint64_t bits;
      std::memcpy(&bits, &v, sizeof(bits));
      return std::hash<uint64_t>()(bits) ^ 0x3;
    }
    uint64_t bits = a->v_uint64;
    // Hash only the fields AnyEqual compares, so padding bytes never matter.
    if (a->type_index == kTVMFFIDataType) {
      bits = (uint64_t{a->v_dtype.code} << 32) | (uint64_t{a->v_dtype.bits} << 16) |
             a->v_dtype.lanes;
    } else if (a->type_index == kTVMFFIDevice) {
      bits = (static_cast<uint64_t>(a->v_device.device_type) << 32) |
             static_cast<uint32_t>(a->v_device.device_id);
    }
    return std::hash<uint64_t>()(bits) ^ static_cast<uint64_t>(a->type_index);
  }
  /*! \brief The words of a BigInt object (header, size_t count, words), as bytes. */
  static std::string_view BigIntWords(const TVMFFIAny* a) {
    const char* body = reinterpret_cast<const char*>(a->v_obj) + sizeof(TVMFFIObject);
    size_t count;
    std::memcpy(&count, body, sizeof(count));
    return std::string_view(body + sizeof(size_t), count * sizeof(int64_t));
  }
};

/*! \brief Equality matching AnyHash. */
struct AnyEqual {
  bool operator()(const Any& a, const Any& b) const {
    return Equal(details::AnyUnsafe::GetTVMFFIAny(a), details::AnyUnsafe::GetTVMFFIAny(b));
  }
  bool operator()(const AnyView& a, const AnyView& b) const {
    return Equal(details::AnyUnsafe::GetTVMFFIAny(a), details::AnyUnsafe::GetTVMFFIAny(b));
  }
  static bool Equal(const TVMFFIAny* a, const TVMFFIAny* b) {
    std::string_view sa, sb;
    bool ba, bb;
    if (details::AnyStringView(a, &sa, &ba)) {
      return details::AnyStringView(b, &sb, &bb) && ba == bb && sa == sb;
    }
    if (a->type_index != b->type_index) return false;
    if (a->type_index == kTVMFFIFloat) return a->v_float64 == b->v_float64;
    if (a->type_index == kTVMFFIBigInt) {
      return AnyHash::BigIntWords(a) == AnyHash::BigIntWords(b);
    }
    if (a->type_index == kTVMFFIDataType) {
      return a->v_dtype.code == b->v_dtype.code && a->v_dtype.bits == b->v_dtype.bits &&
             a->v_dtype.lanes == b->v_dtype.lanes;
    }
    if (a->type_index == kTVMFFIDevice) {
      return a->v_device.device_type == b->v_device.device_type &&
             a->v_device.device_id == b->v_device.device_id;
    }
    return a->v_uint64 == b->v_uint64;
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
  const TVMFFIAny* cell = details::AnyUnsafe::GetTVMFFIAny(view);
  if (!Traits::CheckAnyStrict(cell)) {
    details::ThrowCastError(Traits::GetMismatchTypeInfo(cell), Traits::TypeStr());
  }
  return details::ObjectUnsafe::ObjectRefFromObjectPtr<SubRef>(
      std::move(details::ObjectUnsafe::GetObjectPtrMutable(ref)));
}

/*! \brief Downcast the value of an Any. */
template <typename SubRef>
inline SubRef Downcast(const Any& value) {
  return value.cast<SubRef>();
}

TVM_FFI_NAMESPACE_END

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
