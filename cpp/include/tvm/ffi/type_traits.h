/*
 * TypeTraits<T>: how a C++ type is stored in, and read back from, a TVMFFIAny.
 *
 * This is where every value conversion of the C++ API lives. Each enabled
 * TypeTraits<T> provides:
 *   CopyToAnyView(const T&, TVMFFIAny*)   borrow into a view (no new reference)
 *   MoveToAny(T, TVMFFIAny*)              move into an owning cell
 *   CheckAnyStrict(const TVMFFIAny*)      the cell holds exactly a T (used by as<T>)
 *   CopyFromAnyViewAfterCheck(cell)       read a T after CheckAnyStrict
 *   MoveFromAnyAfterCheck(cell)           steal a T out of an owning cell
 *   TryCastFromAnyView(cell)              read with the documented conversions
 *                                         (int -> float, bool <-> int, str -> dtype ...)
 *   TypeStr()                             the name in signatures ("int", "Array<str>",
 *                                         "ffi.Function": object types print their key)
 *   TypeSchema()                          the JSON schema ({"type":"int"})
 *   GetMismatchTypeInfo(cell)             what was found instead, for errors (the type
 *                                         key of the cell, "Array[index 1: float]")
 * Other headers (string.h, containers, tensor) add specializations.
 */
#ifndef TVM_FFI_TYPE_TRAITS_H_
#define TVM_FFI_TYPE_TRAITS_H_

#include <tvm/ffi/base_detail.h>
#include <tvm/ffi/c_api.h>
#include <tvm/ffi/device_string.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/object.h>

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>

TVM_FFI_NAMESPACE_BEGIN

/*! \brief Lets users write TypeIndex::kTVMFFIInt. */
using TypeIndex = TVMFFITypeIndex;
/*! \brief The runtime's description of a type. */
using TypeInfo = TVMFFITypeInfo;

/*! \brief The type keys the runtime registers for the built-in type indices. */
struct StaticTypeKey {
  static constexpr const char* kTVMFFIAny = "Any";
  static constexpr const char* kTVMFFINone = "None";
  static constexpr const char* kTVMFFIBool = "bool";
  static constexpr const char* kTVMFFIInt = "int";
  static constexpr const char* kTVMFFIFloat = "float";
  static constexpr const char* kTVMFFIOpaquePtr = "void*";
  static constexpr const char* kTVMFFIDataType = "DataType";
  static constexpr const char* kTVMFFIDevice = "Device";
  static constexpr const char* kTVMFFIDLTensorPtr = "DLTensor*";
  static constexpr const char* kTVMFFIRawStr = "const char*";
  static constexpr const char* kTVMFFIByteArrayPtr = "TVMFFIByteArray*";
  static constexpr const char* kTVMFFIObjectRValueRef = "ObjectRValueRef";
  static constexpr const char* kTVMFFISmallStr = "ffi.SmallStr";
  static constexpr const char* kTVMFFISmallBytes = "ffi.SmallBytes";
  static constexpr const char* kTVMFFIUnchanged = "ffi.Unchanged";
  static constexpr const char* kTVMFFIError = "ffi.Error";
  static constexpr const char* kTVMFFIBytes = "ffi.Bytes";
  static constexpr const char* kTVMFFIStr = "ffi.String";
  static constexpr const char* kTVMFFIBigInt = "ffi.BigInt";
  static constexpr const char* kTVMFFIShape = "ffi.Shape";
  static constexpr const char* kTVMFFITensor = "ffi.Tensor";
  static constexpr const char* kTVMFFIObject = "ffi.Object";
  static constexpr const char* kTVMFFIFunction = "ffi.Function";
  static constexpr const char* kTVMFFIArray = "ffi.Array";
  static constexpr const char* kTVMFFIList = "ffi.List";
  static constexpr const char* kTVMFFIMap = "ffi.Map";
  static constexpr const char* kTVMFFIModule = "ffi.Module";
  static constexpr const char* kTVMFFIDict = "ffi.Dict";
  static constexpr const char* kTVMFFIVisitInterrupt = "ffi.VisitInterrupt";
  static constexpr const char* kTVMFFIOpaquePyObject = "ffi.OpaquePyObject";
};

/*! \return The key of the runtime type table entry of a type index. */
inline std::string TypeIndexToTypeKey(int32_t type_index) {
  return Object::TypeIndex2Key(type_index);
}

/*!
 * \brief Conversion rules of T; disabled unless specialized. convert_enabled:
 *  T may be a function argument; storage_enabled: T may be stored in Any,
 *  containers and Optional.
 */
template <typename, typename>
struct TypeTraits {
  static constexpr bool convert_enabled = false;
  static constexpr bool storage_enabled = false;
};

/*!
 * \brief Set to false (explicit specialisation) for an ObjectRef subclass that
 *  brings its own TypeTraits instead of the default reference rules.
 */
template <typename T>
inline constexpr bool use_default_type_traits_v = true;

/*!
 * \brief Whether every Source value can reuse the storage of a Target as is
 *  (same type, or Source derives from Target). Containers specialise it
 *  element-wise; users may specialise it for their own types.
 */
template <typename Target, typename Source, typename = void>
inline constexpr bool type_subsumes_v =
    std::is_same_v<Target, Source> || std::is_base_of_v<Target, Source>;
template <typename Source>
inline constexpr bool type_subsumes_v<Any, Source, void> = true;
template <typename Base, typename Derived>
inline constexpr bool type_subsumes_v<ObjectPtr<Base>, ObjectPtr<Derived>,
                                      std::enable_if_t<std::is_base_of_v<Base, Derived>>> = true;
template <typename Base, typename Derived>
inline constexpr bool
    type_subsumes_v<Arc<Base>, Arc<Derived>, std::enable_if_t<std::is_base_of_v<Base, Derived>>> =
        true;
template <typename Base, typename Derived>
inline constexpr bool type_subsumes_v<ObjectPtr<Base>, Arc<Derived>,
                                      std::enable_if_t<std::is_base_of_v<Base, Derived>>> = true;

/*! \brief Whether T is an enum whose underlying type is integral (sic: upstream spelling). */
template <typename T, typename = void>
inline constexpr bool is_integeral_enum_v = false;
template <typename T>
inline constexpr bool is_integeral_enum_v<T, std::enable_if_t<std::is_enum_v<T>>> =
    std::is_integral_v<std::underlying_type_t<T>>;

/*!
 * \brief A bool that, unlike bool, does not accept an int in conversions
 *  (function arguments, fallback traits).
 */
class StrictBool {
 public:
  StrictBool(bool value) : value_(value) {}  // NOLINT(runtime/explicit)
  operator bool() const { return value_; }   // NOLINT(runtime/explicit)

 private:
  bool value_;
};

/*! \brief TypeTraits of T with const and reference removed. */
template <typename T>
using TypeTraitsNoCR = TypeTraits<std::remove_const_t<std::remove_reference_t<T>>>;

namespace detail {

/*!
 * \brief The type key of the value in a cell, which is what mismatch messages print as the
 *  type found: "int", "None", "const char*", "ffi.SmallStr", "ffi.Array", "test.Int".
 */
inline std::string AnyTypeStr(const TVMFFIAny* src) { return TypeIndexToTypeKey(src->type_index); }

/*!
 * \brief The object held by a cell, or nullptr. An ObjectRValueRef is not looked through: as in
 *  the reference, only RValueRef<R> parameters (and Any) take one (cpp_api.md §2.11).
 */
inline TVMFFIObject* AnyObjectOrNull(const TVMFFIAny* src) {
  return src->type_index >= kTVMFFIStaticObjectBegin ? src->v_obj : nullptr;
}

/*! \brief {"type":"<key>"} */
inline std::string SchemaOf(std::string_view key) {
  std::string s = "{\"type\":\"";
  s += key;
  s += "\"}";
  return s;
}

/*! \brief A type key as a JSON schema with type arguments. */
inline std::string SchemaWithArgs(std::string_view key, std::initializer_list<std::string> args) {
  std::string s = "{\"type\":\"";
  s += key;
  s += "\",\"args\":[";
  bool first = true;
  for (const std::string& a : args) {
    if (!first) s += ',';
    s += a;
    first = false;
  }
  s += "]}";
  return s;
}

inline void SetNone(TVMFFIAny* r) {
  r->type_index = kTVMFFINone;
  r->zero_padding = 0;
  r->v_int64 = 0;
}

/*! \brief Whether T provides its own TypeTraits instead of the ObjectRef default. */
template <typename T, typename = void>
struct HasCustomAnyTraits : std::false_type {};
template <typename T>
struct HasCustomAnyTraits<T, std::void_t<decltype(T::_type_custom_any_traits)>>
    : std::bool_constant<T::_type_custom_any_traits> {};

}  // namespace detail

/*! \brief Shared defaults of the traits below. */
struct TypeTraitsBase {
  static constexpr bool convert_enabled = true;
  static constexpr bool storage_enabled = true;
  static constexpr int32_t field_static_type_index = kTVMFFIAny;
  static std::string GetMismatchTypeInfo(const TVMFFIAny* src) { return detail::AnyTypeStr(src); }
};

namespace detail {
[[noreturn]] inline void ThrowCannotTreatAs(const std::string& got, const std::string& expected) {
  TVM_FFI_THROW(TypeError) << "Cannot treat type `" << got << "` as type `" << expected << "`";
  TVM_FFI_UNREACHABLE();
}
}  // namespace detail

namespace detail {
template <typename T, bool = std::is_enum_v<T>>
struct IntegerOf {
  using type = T;
};
template <typename T>
struct IntegerOf<T, true> {
  using type = std::underlying_type_t<T>;
};
}  // namespace detail

/*!
 * \brief Shared rules of integers and integral enums, stored as Int. Reading
 *  into a narrower type is a plain static_cast, as cpp_api.md §2.1 fixes (an
 *  Int 300 read as int8_t is 44); only storing a uint64 above INT64_MAX fails.
 */
template <typename Int>
struct TypeTraitsIntBase : TypeTraitsBase {
  using Raw = typename detail::IntegerOf<Int>::type;
  static constexpr int32_t field_static_type_index = kTVMFFIInt;

  /*! \brief Store an int64 value (after the range check of CopyToAnyView). */
  static void CopyInt64ToAnyView(int64_t value, TVMFFIAny* r) {
    r->type_index = kTVMFFIInt;
    r->zero_padding = 0;
    r->v_int64 = value;
  }
  static void CopyToAnyView(const Int& value, TVMFFIAny* r) {
    Raw src = static_cast<Raw>(value);
    if constexpr (std::is_unsigned_v<Raw> && sizeof(Raw) >= sizeof(int64_t)) {
      if (src > static_cast<Raw>(std::numeric_limits<int64_t>::max())) {
        TVM_FFI_THROW(OverflowError)
            << "Integer value " << src
            << " is too large to fit in int64_t. Consider explicitly casting to int64_t first if "
               "this is intentional.";
      }
    }
    CopyInt64ToAnyView(static_cast<int64_t>(src), r);
  }
  static void MoveToAny(Int src, TVMFFIAny* r) { CopyToAnyView(src, r); }
  static bool CheckAnyStrict(const TVMFFIAny* src) { return src->type_index == kTVMFFIInt; }
  static Int CopyFromAnyViewAfterCheck(const TVMFFIAny* src) {
    return static_cast<Int>(src->v_int64);
  }
  static Int MoveFromAnyAfterCheck(TVMFFIAny* src) { return CopyFromAnyViewAfterCheck(src); }
  static std::optional<Int> TryCastFromAnyView(const TVMFFIAny* src) {
    if (src->type_index == kTVMFFIInt || src->type_index == kTVMFFIBool) {
      return static_cast<Int>(src->v_int64);
    }
    return std::nullopt;
  }
  static std::string TypeStr() { return "int"; }
  static std::string TypeSchema() { return detail::SchemaOf("int"); }
};

/*! \brief Integers other than bool. */
template <typename Int>
struct TypeTraits<Int, std::enable_if_t<std::is_integral_v<Int> && !std::is_same_v<Int, bool>>>
    : TypeTraitsIntBase<Int> {};

/*! \brief Enums with an integral underlying type, stored as Int. */
template <typename Enum>
struct TypeTraits<Enum, std::enable_if_t<is_integeral_enum_v<Enum>>> : TypeTraitsIntBase<Enum> {};

/*! \brief bool, stored as Bool; try_cast accepts ints. */
template <>
struct TypeTraits<bool> : TypeTraitsBase {
  static constexpr int32_t field_static_type_index = kTVMFFIBool;
  static void CopyToAnyView(const bool& src, TVMFFIAny* r) {
    r->type_index = kTVMFFIBool;
    r->zero_padding = 0;
    r->v_int64 = src ? 1 : 0;
  }
  static void MoveToAny(bool src, TVMFFIAny* r) { CopyToAnyView(src, r); }
  static bool CheckAnyStrict(const TVMFFIAny* src) { return src->type_index == kTVMFFIBool; }
  static bool CopyFromAnyViewAfterCheck(const TVMFFIAny* src) { return src->v_int64 != 0; }
  static bool MoveFromAnyAfterCheck(TVMFFIAny* src) { return src->v_int64 != 0; }
  static std::optional<bool> TryCastFromAnyView(const TVMFFIAny* src) {
    if (src->type_index == kTVMFFIBool || src->type_index == kTVMFFIInt) {
      return src->v_int64 != 0;
    }
    return std::nullopt;
  }
  static std::string TypeStr() { return "bool"; }
  static std::string TypeSchema() { return detail::SchemaOf("bool"); }
};

/*! \brief float and double, stored as Float; try_cast accepts ints and bools. */
template <typename Float>
struct TypeTraits<Float, std::enable_if_t<std::is_floating_point_v<Float>>> : TypeTraitsBase {
  static constexpr int32_t field_static_type_index = kTVMFFIFloat;
  static void CopyToAnyView(const Float& src, TVMFFIAny* r) {
    r->type_index = kTVMFFIFloat;
    r->zero_padding = 0;
    r->v_float64 = static_cast<double>(src);
  }
  static void MoveToAny(Float src, TVMFFIAny* r) { CopyToAnyView(src, r); }
  static bool CheckAnyStrict(const TVMFFIAny* src) { return src->type_index == kTVMFFIFloat; }
  static Float CopyFromAnyViewAfterCheck(const TVMFFIAny* src) {
    return static_cast<Float>(src->v_float64);
  }
  static Float MoveFromAnyAfterCheck(TVMFFIAny* src) { return CopyFromAnyViewAfterCheck(src); }
  static std::optional<Float> TryCastFromAnyView(const TVMFFIAny* src) {
    if (src->type_index == kTVMFFIFloat) return static_cast<Float>(src->v_float64);
    if (src->type_index == kTVMFFIInt || src->type_index == kTVMFFIBool) {
      return static_cast<Float>(src->v_int64);
    }
    return std::nullopt;
  }
  static std::string TypeStr() { return "float"; }
  static std::string TypeSchema() { return detail::SchemaOf("float"); }
};

/*! \brief nullptr, stored as None. */
template <>
struct TypeTraits<std::nullptr_t> : TypeTraitsBase {
  static constexpr int32_t field_static_type_index = kTVMFFINone;
  static void CopyToAnyView(const std::nullptr_t&, TVMFFIAny* r) { detail::SetNone(r); }
  static void MoveToAny(std::nullptr_t, TVMFFIAny* r) { detail::SetNone(r); }
  static bool CheckAnyStrict(const TVMFFIAny* src) { return src->type_index == kTVMFFINone; }
  static std::nullptr_t CopyFromAnyViewAfterCheck(const TVMFFIAny*) { return nullptr; }
  static std::nullptr_t MoveFromAnyAfterCheck(TVMFFIAny*) { return nullptr; }
  static std::optional<std::nullptr_t> TryCastFromAnyView(const TVMFFIAny* src) {
    if (src->type_index == kTVMFFINone) return nullptr;
    return std::nullopt;
  }
  static std::string TypeStr() { return "None"; }
  static std::string TypeSchema() { return detail::SchemaOf("None"); }
};

/*! \brief void*, stored as OpaquePtr (None reads back as nullptr). */
template <>
struct TypeTraits<void*> : TypeTraitsBase {
  static constexpr int32_t field_static_type_index = kTVMFFIOpaquePtr;
  static void CopyToAnyView(void* const& src, TVMFFIAny* r) {
    r->type_index = kTVMFFIOpaquePtr;
    r->zero_padding = 0;
    r->v_int64 = 0;
    r->v_ptr = src;
  }
  static void MoveToAny(void* src, TVMFFIAny* r) { CopyToAnyView(src, r); }
  static bool CheckAnyStrict(const TVMFFIAny* src) { return src->type_index == kTVMFFIOpaquePtr; }
  static void* CopyFromAnyViewAfterCheck(const TVMFFIAny* src) { return src->v_ptr; }
  static void* MoveFromAnyAfterCheck(TVMFFIAny* src) { return src->v_ptr; }
  static std::optional<void*> TryCastFromAnyView(const TVMFFIAny* src) {
    if (src->type_index == kTVMFFIOpaquePtr) return src->v_ptr;
    if (src->type_index == kTVMFFINone) return static_cast<void*>(nullptr);
    return std::nullopt;
  }
  static std::string TypeStr() { return "void*"; }
  static std::string TypeSchema() { return detail::SchemaOf("void*"); }
};

/*! \brief DLDevice, stored as Device. */
template <>
struct TypeTraits<DLDevice> : TypeTraitsBase {
  static constexpr int32_t field_static_type_index = kTVMFFIDevice;
  static void CopyToAnyView(const DLDevice& src, TVMFFIAny* r) {
    r->type_index = kTVMFFIDevice;
    r->zero_padding = 0;
    r->v_int64 = 0;
    r->v_device = src;
  }
  static void MoveToAny(DLDevice src, TVMFFIAny* r) { CopyToAnyView(src, r); }
  static bool CheckAnyStrict(const TVMFFIAny* src) { return src->type_index == kTVMFFIDevice; }
  static DLDevice CopyFromAnyViewAfterCheck(const TVMFFIAny* src) { return src->v_device; }
  static DLDevice MoveFromAnyAfterCheck(TVMFFIAny* src) { return src->v_device; }
  // Also reads a device string ("cuda:1") of any of the three text forms.
  static std::optional<DLDevice> TryCastFromAnyView(const TVMFFIAny* src) {
    switch (src->type_index) {
      case kTVMFFIDevice:
        return src->v_device;
      case kTVMFFIRawStr:
        if (src->v_c_str == nullptr) return std::nullopt;
        return detail::TryStringViewToDLDevice(std::string_view(src->v_c_str));
      case kTVMFFISmallStr:
        return detail::TryStringViewToDLDevice(
            std::string_view(src->v_bytes, static_cast<size_t>(src->small_str_len)));
      case kTVMFFIStr: {
        const TVMFFIByteArray* bytes = TVMFFIBytesGetByteArrayPtr(src->v_obj);
        return detail::TryStringViewToDLDevice(std::string_view(bytes->data, bytes->size));
      }
      default:
        return std::nullopt;
    }
  }
  static std::string TypeStr() { return "Device"; }
  static std::string TypeSchema() { return detail::SchemaOf("Device"); }
};

/*! \brief DLTensor*, a borrowed pointer; also reads the DLTensor inside a Tensor object. */
template <>
struct TypeTraits<DLTensor*> : TypeTraitsBase {
  // A borrowed pointer: never stored in containers or Optional.
  static constexpr bool storage_enabled = false;
  static constexpr int32_t field_static_type_index = kTVMFFIDLTensorPtr;
  static void CopyToAnyView(DLTensor* const& src, TVMFFIAny* r) {
    if (src == nullptr) {
      TVM_FFI_THROW(InternalError) << "Check not null: src DLTensor* passed as an argument is null";
    }
    r->type_index = kTVMFFIDLTensorPtr;
    r->zero_padding = 0;
    r->v_int64 = 0;
    r->v_ptr = src;
  }
  // An owning Any cannot keep the tensor alive through a raw pointer (cpp_api.md §2.1).
  static void MoveToAny(DLTensor*, TVMFFIAny*) {
    TVM_FFI_THROW(RuntimeError)
        << "DLTensor* cannot be held in Any as it does not retain ownership, use Tensor instead";
  }
  static bool CheckAnyStrict(const TVMFFIAny* src) { return src->type_index == kTVMFFIDLTensorPtr; }
  static DLTensor* CopyFromAnyViewAfterCheck(const TVMFFIAny* src) {
    return static_cast<DLTensor*>(src->v_ptr);
  }
  static DLTensor* MoveFromAnyAfterCheck(TVMFFIAny* src) { return CopyFromAnyViewAfterCheck(src); }
  static std::optional<DLTensor*> TryCastFromAnyView(const TVMFFIAny* src) {
    if (src->type_index == kTVMFFIDLTensorPtr) return static_cast<DLTensor*>(src->v_ptr);
    TVMFFIObject* obj = detail::AnyObjectOrNull(src);
    if (obj != nullptr && obj->type_index == kTVMFFITensor) {
      // The DLTensor follows the object header (docs/abi.md §2.4).
      return reinterpret_cast<DLTensor*>(reinterpret_cast<char*>(obj) + sizeof(TVMFFIObject));
    }
    return std::nullopt;
  }
  static std::string TypeStr() { return "DLTensor*"; }
  static std::string TypeSchema() { return detail::SchemaOf("DLTensor*"); }
};

/*! \brief StrictBool: stored as Bool; only a Bool converts back (no int). */
template <>
struct TypeTraits<StrictBool> : TypeTraitsBase {
  static constexpr int32_t field_static_type_index = kTVMFFIBool;
  static void CopyToAnyView(const StrictBool& src, TVMFFIAny* r) {
    TypeTraits<bool>::CopyToAnyView(static_cast<bool>(src), r);
  }
  static void MoveToAny(StrictBool src, TVMFFIAny* r) { CopyToAnyView(src, r); }
  static bool CheckAnyStrict(const TVMFFIAny* src) { return src->type_index == kTVMFFIBool; }
  static StrictBool CopyFromAnyViewAfterCheck(const TVMFFIAny* src) { return src->v_int64 != 0; }
  static StrictBool MoveFromAnyAfterCheck(TVMFFIAny* src) { return src->v_int64 != 0; }
  static std::optional<StrictBool> TryCastFromAnyView(const TVMFFIAny* src) {
    if (src->type_index == kTVMFFIBool) return StrictBool(src->v_int64 != 0);
    return std::nullopt;
  }
  static std::string TypeStr() { return "bool"; }
  static std::string TypeSchema() { return detail::SchemaOf("bool"); }
};

/*!
 * \brief Raw object pointers (T* and const T*, T an Object subclass): stored as
 *  the object (null as None); reading needs an instance of T and yields a
 *  borrowed pointer. A non-const T* can only be read when T::_type_mutable.
 */
template <typename TPtr>
struct TypeTraits<
    TPtr,
    std::enable_if_t<std::is_pointer_v<TPtr> &&
                     std::is_base_of_v<Object, std::remove_cv_t<std::remove_pointer_t<TPtr>>>>>
    : TypeTraitsBase {
  using ObjType = std::remove_cv_t<std::remove_pointer_t<TPtr>>;

  static void CopyToAnyView(const TPtr& src, TVMFFIAny* r) {
    if (src == nullptr) {
      detail::SetNone(r);
      return;
    }
    r->type_index = src->type_index();
    r->zero_padding = 0;
    r->v_obj = detail::ObjectUnsafe::GetHeader(src);
  }
  static void MoveToAny(TPtr src, TVMFFIAny* r) {
    CopyToAnyView(src, r);
    if (src != nullptr) detail::ObjectUnsafe::IncRefObjectHandle(r->v_obj);
  }
  static bool CheckAnyStrict(const TVMFFIAny* src) {
    return src->type_index >= kTVMFFIStaticObjectBegin &&
           detail::IsObjectInstance<ObjType>(src->type_index);
  }
  static TPtr CopyFromAnyViewAfterCheck(const TVMFFIAny* src) {
    static_assert(std::is_const_v<std::remove_pointer_t<TPtr>> || ObjType::_type_mutable,
                  "Reading a non-const pointer needs an object type with _type_mutable = true");
    return detail::ObjectUnsafe::RawObjectPtrFromUnowned<ObjType>(src->v_obj);
  }
  static std::optional<TPtr> TryCastFromAnyView(const TVMFFIAny* src) {
    if (CheckAnyStrict(src)) return CopyFromAnyViewAfterCheck(src);
    return std::nullopt;
  }
  static std::string TypeStr() { return ObjType::_type_key; }
  static std::string TypeSchema() { return detail::SchemaOf(ObjType::_type_key); }
};

/*!
 * \brief Default rules of reference classes: None is accepted only when the
 *  class is nullable, objects when they are instances of its ContainerType.
 */
template <typename TObjRef>
struct ObjectRefTypeTraitsBase : TypeTraitsBase {
  using ContainerType = typename TObjRef::ContainerType;

  static void CopyToAnyView(const TObjRef& src, TVMFFIAny* r) {
    const Object* obj = src.get();
    if (obj == nullptr) {
      detail::SetNone(r);
      return;
    }
    r->type_index = obj->type_index();
    r->zero_padding = 0;
    r->v_obj = detail::ObjectUnsafe::GetHeader(obj);
  }
  static void MoveToAny(TObjRef src, TVMFFIAny* r) {
    if (!src.defined()) {
      detail::SetNone(r);
      return;
    }
    r->type_index = src.type_index();
    r->zero_padding = 0;
    r->v_obj = detail::ObjectUnsafe::MoveObjectRefToHandle(std::move(src));
  }
  static bool CheckObject(const TVMFFIObject* obj) {
    if (obj == nullptr) return TObjRef::_type_is_nullable;
    return reinterpret_cast<const Object*>(obj)->IsInstance<ContainerType>();
  }
  static bool CheckAnyStrict(const TVMFFIAny* src) {
    if (src->type_index == kTVMFFINone) return TObjRef::_type_is_nullable;
    return src->type_index >= kTVMFFIStaticObjectBegin && CheckObject(src->v_obj);
  }
  static TObjRef CopyFromAnyViewAfterCheck(const TVMFFIAny* src) {
    TVMFFIObject* obj = src->type_index == kTVMFFINone ? nullptr : src->v_obj;
    return detail::ObjectUnsafe::ObjectRefFromObjectPtr<TObjRef>(
        detail::ObjectUnsafe::ObjectPtrFromUnowned<Object>(obj));
  }
  static TObjRef MoveFromAnyAfterCheck(TVMFFIAny* src) {
    TVMFFIObject* obj = src->type_index == kTVMFFINone ? nullptr : src->v_obj;
    detail::SetNone(src);
    return detail::ObjectUnsafe::ObjectRefFromObjectPtr<TObjRef>(
        detail::ObjectUnsafe::ObjectPtrFromOwned<Object>(obj));
  }
  // Dispatches through TypeTraits<TObjRef>, so a specialisation that only
  // overrides CheckAnyStrict changes what converts. An ObjectRValueRef fails
  // the check (mismatch "ObjectRValueRef"): only RValueRef<R> takes one.
  static std::optional<TObjRef> TryCastFromAnyView(const TVMFFIAny* src) {
    if (TypeTraits<TObjRef>::CheckAnyStrict(src)) {
      return TypeTraits<TObjRef>::CopyFromAnyViewAfterCheck(src);
    }
    return std::nullopt;
  }
  static std::string TypeStr() { return ContainerType::_type_key; }
  static std::string TypeSchema() { return detail::SchemaOf(ContainerType::_type_key); }
};

template <typename TObjRef>
struct TypeTraits<TObjRef, std::enable_if_t<std::is_base_of_v<ObjectRef, TObjRef> &&
                                            use_default_type_traits_v<TObjRef> &&
                                            !detail::HasCustomAnyTraits<TObjRef>::value>>
    : ObjectRefTypeTraitsBase<TObjRef> {};

/*!
 * \brief Traits of a reference class R that also converts from other types:
 *  the strict object check first, then each F in order through
 *  TypeTraits<R>::ConvertFallbackValue(F). Use StrictBool, not bool, as an F.
 */
template <typename TObjRef, typename... FallbackTypes>
struct ObjectRefWithFallbackTraitsBase : ObjectRefTypeTraitsBase<TObjRef> {
  static_assert(!std::disjunction_v<std::is_same<FallbackTypes, bool>...>,
                "Using bool as a fallback type accepts int too; use StrictBool instead");
  static std::optional<TObjRef> TryCastFromAnyView(const TVMFFIAny* src) {
    if (auto opt = ObjectRefTypeTraitsBase<TObjRef>::TryCastFromAnyView(src)) return opt;
    return TryFallback<FallbackTypes...>(src);
  }

 private:
  template <typename F, typename... Rest>
  static std::optional<TObjRef> TryFallback(const TVMFFIAny* src) {
    if (auto v = TypeTraits<F>::TryCastFromAnyView(src)) {
      return TypeTraits<TObjRef>::ConvertFallbackValue(*std::move(v));
    }
    if constexpr (sizeof...(Rest) > 0) {
      return TryFallback<Rest...>(src);
    } else {
      return std::nullopt;
    }
  }
};

/*!
 * \brief Traits of a type that is never stored as itself (storage_enabled =
 *  false): it converts from each F in order through
 *  TypeTraits<T>::ConvertFallbackValue(F). Use StrictBool, not bool, as an F.
 */
template <typename T, typename... FallbackTypes>
struct FallbackOnlyTraitsBase : TypeTraitsBase {
  static_assert(!std::disjunction_v<std::is_same<FallbackTypes, bool>...>,
                "Using bool as a fallback type accepts int too; use StrictBool instead");
  static constexpr bool storage_enabled = false;
  // Never stored as itself, so nothing passes the strict check.
  static bool CheckAnyStrict(const TVMFFIAny*) { return false; }
  static T CopyFromAnyViewAfterCheck(const TVMFFIAny* src) { return *TryCastFromAnyView(src); }
  static T MoveFromAnyAfterCheck(TVMFFIAny* src) { return *TryCastFromAnyView(src); }
  static std::optional<T> TryCastFromAnyView(const TVMFFIAny* src) {
    return TryFallback<FallbackTypes...>(src);
  }

 private:
  template <typename F, typename... Rest>
  static std::optional<T> TryFallback(const TVMFFIAny* src) {
    if (auto v = TypeTraits<F>::TryCastFromAnyView(src)) {
      return TypeTraits<T>::ConvertFallbackValue(*std::move(v));
    }
    if constexpr (sizeof...(Rest) > 0) {
      return TryFallback<Rest...>(src);
    } else {
      return std::nullopt;
    }
  }
};

/*!
 * \brief Rules of ObjectPtr<T> (null <-> None) and Arc<T> (None rejected). Only pointers to
 *  objects are stored in Any (storage_enabled); a pointer to another type has no Any form.
 */
template <typename Ptr, typename T, bool kNullable>
struct ObjectPtrTypeTraitsBase : TypeTraitsBase {
  static constexpr bool storage_enabled = is_object_subclass_v<T>;
  static constexpr int32_t field_static_type_index = kTVMFFIObject;
  static void CopyToAnyView(const Ptr& src, TVMFFIAny* r) {
    if (src == nullptr) {
      detail::SetNone(r);
      return;
    }
    r->type_index = src->type_index();
    r->zero_padding = 0;
    r->v_obj = detail::ObjectUnsafe::GetHeader(src.get());
  }
  static void MoveToAny(Ptr src, TVMFFIAny* r) {
    if (src == nullptr) {
      detail::SetNone(r);
      return;
    }
    r->type_index = src->type_index();
    r->zero_padding = 0;
    r->v_obj = detail::ObjectUnsafe::MoveObjectPtrToHandle(static_cast<ObjectPtr<T>&&>(src));
  }
  static bool CheckObject(const TVMFFIObject* obj) {
    return reinterpret_cast<const Object*>(obj)->IsInstance<T>();
  }
  static bool CheckAnyStrict(const TVMFFIAny* src) {
    if (src->type_index == kTVMFFINone) return kNullable;
    return src->type_index >= kTVMFFIStaticObjectBegin && CheckObject(src->v_obj);
  }
  static Ptr FromRaw(TVMFFIObject* obj, bool owned) {
    ObjectPtr<T> p = owned ? detail::ObjectUnsafe::ObjectPtrFromOwned<T>(obj)
                           : detail::ObjectUnsafe::ObjectPtrFromUnowned<T>(obj);
    if constexpr (kNullable) {
      return p;
    } else {
      return Ptr::FromObjectPtrUnsafe(std::move(p));
    }
  }
  static Ptr CopyFromAnyViewAfterCheck(const TVMFFIAny* src) {
    return FromRaw(src->type_index == kTVMFFINone ? nullptr : src->v_obj, false);
  }
  static Ptr MoveFromAnyAfterCheck(TVMFFIAny* src) {
    TVMFFIObject* obj = src->type_index == kTVMFFINone ? nullptr : src->v_obj;
    detail::SetNone(src);
    return FromRaw(obj, true);
  }
  static std::optional<Ptr> TryCastFromAnyView(const TVMFFIAny* src) {
    if (CheckAnyStrict(src)) return CopyFromAnyViewAfterCheck(src);
    return std::nullopt;
  }
  static std::string TypeStr() { return T::_type_key; }
  static std::string TypeSchema() {
    return kNullable ? detail::SchemaWithArgs("Optional", {detail::SchemaOf(T::_type_key)})
                     : detail::SchemaOf(T::_type_key);
  }
};

// A pointer to a const or volatile object has no Any form (the primary traits: disabled).
template <typename T>
struct TypeTraits<ObjectPtr<T>, std::enable_if_t<detail::kIsUnqualifiedPointee<T>>>
    : ObjectPtrTypeTraitsBase<ObjectPtr<T>, T, true> {};
template <typename T>
struct TypeTraits<Arc<T>, std::enable_if_t<detail::kIsUnqualifiedPointee<T>>>
    : ObjectPtrTypeTraitsBase<Arc<T>, T, false> {};

/*!
 * \brief The type index reflection records for a field of type T: the
 *  traits' field_static_type_index when T converts, else kTVMFFIAny.
 */
template <typename T, typename = void>
struct TypeToFieldStaticTypeIndex {
  static constexpr int32_t value = kTVMFFIAny;
};
template <typename T>
struct TypeToFieldStaticTypeIndex<T, std::enable_if_t<TypeTraits<T>::convert_enabled>> {
  static constexpr int32_t value = TypeTraits<T>::field_static_type_index;
};

/*!
 * \brief The runtime type index of T: ContainerType::RuntimeTypeIndex() for
 *  reference classes, O::RuntimeTypeIndex() for ObjectPtr<O>/Arc<O>, else the
 *  field static index.
 */
template <typename T, typename = void>
struct TypeToRuntimeTypeIndex {
  static int32_t v() { return TypeToFieldStaticTypeIndex<T>::value; }
};
template <typename T>
struct TypeToRuntimeTypeIndex<T, std::enable_if_t<std::is_base_of_v<ObjectRef, T>>> {
  static int32_t v() { return T::ContainerType::RuntimeTypeIndex(); }
};
template <typename O>
struct TypeToRuntimeTypeIndex<ObjectPtr<O>> {
  static int32_t v() { return O::RuntimeTypeIndex(); }
};
template <typename O>
struct TypeToRuntimeTypeIndex<Arc<O>> {
  static int32_t v() { return O::RuntimeTypeIndex(); }
};

TVM_FFI_NAMESPACE_END
#endif  // TVM_FFI_TYPE_TRAITS_H_
