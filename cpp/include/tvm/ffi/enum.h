/*
 * Enums: singleton objects with an integer and a string index.
 *
 *   class ColorObj : public StrEnumObj {
 *    public:
 *     TVM_FFI_DECLARE_OBJECT_INFO_FINAL("my.Color", ColorObj, StrEnumObj);
 *   };
 *   TVM_FFI_STATIC_INIT_BLOCK() {
 *     reflection::EnumDef<ColorObj>("red");       // <reflection/enum_def.h>
 *     reflection::EnumDef<ColorObj>("green");
 *   }
 *   Enum red = EnumObj::_GetByStrIndex<ColorObj>("red");   // my.Color.red
 *
 * Every enum type keeps one EnumState in its `__ffi_enum__` type attribute:
 * the singletons in registration order, an index from both the int and the
 * str index to the singleton, and per-name attribute tables. Compiled code of
 * every implementation reads that column inline, so the object layouts here
 * are ABI (docs/abi.md).
 */
#ifndef TVM_FFI_ENUM_H_
#define TVM_FFI_ENUM_H_

#include <tvm/ffi/any.h>
#include <tvm/ffi/c_api.h>
#include <tvm/ffi/container/dict.h>
#include <tvm/ffi/container/list.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/memory.h>
#include <tvm/ffi/object.h>
#include <tvm/ffi/string.h>

#include <cstdint>
#include <optional>
#include <string>
#include <utility>

TVM_FFI_NAMESPACE_BEGIN

/*! \brief The per-type state of an enum (type attribute `__ffi_enum__`). */
class EnumStateObj : public Object {
 public:
  /*! \brief The singletons in registration order. */
  List<ObjectRef> entries;
  /*! \brief Int index and str index -> singleton. */
  Dict<Any, ObjectRef> indexes;
  /*! \brief Attribute name -> (singleton -> value). */
  Dict<String, Dict<ObjectRef, Any>> attrs;

  static constexpr bool _type_mutable = true;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("ffi.EnumState", EnumStateObj, Object);
};

/*! \brief Reference to an EnumStateObj (never null; default-constructs an empty state). */
class EnumState : public ObjectRef {
 public:
  EnumState() : ObjectRef(make_object<EnumStateObj>()) {}
  explicit EnumState(ObjectPtr<EnumStateObj> n) : ObjectRef(std::move(n)) {}
  TVM_FFI_DEFINE_OBJECT_REF_METHODS_NOTNULLABLE(EnumState, ObjectRef, EnumStateObj);
};

class Enum;

/*!
 * \brief Base of every enum singleton. Enums compare by identity
 *  (structural kind UniqueInstance for the whole hierarchy).
 */
class EnumObj : public Object {
 public:
  /*! \brief The integer index (IntEnum: the value; others: the ordinal). */
  int64_t _int_index{0};
  /*! \brief The string index (the entry's name; StrEnum: the value). */
  String _str_index;

  EnumObj(int64_t int_index, String str_index)
      : _int_index(int_index), _str_index(std::move(str_index)) {}
  /*! \brief Uninitialised indices, filled in by reflection. */
  explicit EnumObj(UnsafeInit) {}

  /*! \return The singleton of enum type `type_index` with int index `index`; ValueError if none. */
  static Enum _GetByIntIndex(int32_t type_index, int64_t index);
  /*! \return The singleton of enum type `type_index` named `index`; ValueError if none. */
  static Enum _GetByStrIndex(int32_t type_index, const String& index);
  template <typename EnumClsObj>
  static Enum _GetByIntIndex(int64_t index);
  template <typename EnumClsObj>
  static Enum _GetByStrIndex(const String& index);

  static constexpr TVMFFISEqHashKind _type_s_eq_hash_kind = kTVMFFISEqHashKindUniqueInstance;
  static constexpr bool _type_s_eq_hash_subclass_kind_fixed = true;
  TVM_FFI_DECLARE_OBJECT_INFO("ffi.Enum", EnumObj, Object);
};

/*! \brief An enum whose public value is the int index (field `value` at offset 24). */
class IntEnumObj : public EnumObj {
 public:
  using EnumObj::EnumObj;
  /*! \return The value (the int index). */
  int64_t value() const { return _int_index; }
  TVM_FFI_DECLARE_OBJECT_INFO("ffi.IntEnum", IntEnumObj, EnumObj);
};

/*! \brief An enum whose public value is the str index (field `value` at offset 32). */
class StrEnumObj : public EnumObj {
 public:
  using EnumObj::EnumObj;
  /*! \return The value (the str index). */
  const String& value() const { return _str_index; }
  TVM_FFI_DECLARE_OBJECT_INFO("ffi.StrEnum", StrEnumObj, EnumObj);
};

/*! \brief Reference to an enum singleton. */
class Enum : public ObjectRef {
 public:
  explicit Enum(ObjectPtr<EnumObj> n) : ObjectRef(std::move(n)) {}
  TVM_FFI_DEFINE_OBJECT_REF_METHODS_NOTNULLABLE(Enum, ObjectRef, EnumObj);
};

/*! \brief Reference to an IntEnum singleton. */
class IntEnum : public Enum {
 public:
  explicit IntEnum(ObjectPtr<IntEnumObj> n) : Enum(ObjectPtr<EnumObj>(std::move(n))) {}
  TVM_FFI_DEFINE_OBJECT_REF_METHODS_NOTNULLABLE(IntEnum, Enum, IntEnumObj);
};

/*! \brief Reference to a StrEnum singleton. */
class StrEnum : public Enum {
 public:
  explicit StrEnum(ObjectPtr<StrEnumObj> n) : Enum(ObjectPtr<EnumObj>(std::move(n))) {}
  TVM_FFI_DEFINE_OBJECT_REF_METHODS_NOTNULLABLE(StrEnum, Enum, StrEnumObj);
};

namespace detail {

/*! \brief Name of the type-attribute column holding each enum type's EnumState. */
inline constexpr const char* kEnumStateAttrName = "__ffi_enum__";

/*!
 * \return The `__ffi_enum__` entry of a type (None when absent). The column
 *  pointer is stable once created; its data is re-read on every call because
 *  the column may grow.
 */
inline AnyView GetEnumStateCell(int32_t type_index) {
  static const TVMFFITypeAttrColumn* column = nullptr;
  const TVMFFITypeAttrColumn* col = __atomic_load_n(&column, __ATOMIC_ACQUIRE);
  if (col == nullptr) {
    TVMFFIByteArray name{kEnumStateAttrName, std::char_traits<char>::length(kEnumStateAttrName)};
    col = TVMFFIGetTypeAttrColumn(&name);
    if (col == nullptr) return AnyView();
    __atomic_store_n(&column, col, __ATOMIC_RELEASE);
  }
  // The column may grow concurrently: read its extent before its data.
  int64_t slot = static_cast<int64_t>(type_index) - col->begin_index;
  int32_t size = __atomic_load_n(&col->size, __ATOMIC_ACQUIRE);
  if (slot < 0 || slot >= size) return AnyView();
  const TVMFFIAny* data = __atomic_load_n(&col->data, __ATOMIC_ACQUIRE);
  return AnyView::CopyFromTVMFFIAny(data[slot]);
}

/*!
 * \return The EnumState of a type, std::nullopt when none is registered;
 *  TypeError when the entry holds something else.
 */
inline std::optional<EnumState> GetEnumState(int32_t type_index) {
  AnyView cell = GetEnumStateCell(type_index);
  if (cell.type_index() == kTVMFFINone) return std::nullopt;
  if (std::optional<EnumState> state = cell.as<EnumState>()) return state;
  TVM_FFI_THROW(TypeError) << "Type attribute `" << kEnumStateAttrName << "` of `"
                           << Object::TypeIndex2Key(type_index) << "` is not an EnumState but `"
                           << cell.GetTypeKey() << "`";
  TVM_FFI_UNREACHABLE();
}

/*! \brief Look key up in the enum's indexes; ValueError naming the type and index on a miss. */
template <typename Key>
inline Enum EnumLookup(int32_t type_index, const Key& key) {
  if (std::optional<EnumState> state = GetEnumState(type_index)) {
    if (std::optional<ObjectRef> found = (*state)->indexes.Get(Any(key))) {
      if (std::optional<Enum> e = Any(*found).as<Enum>()) return *e;
    }
  }
  TVM_FFI_THROW(ValueError) << "Enum `" << Object::TypeIndex2Key(type_index)
                            << "` has no instance with index " << key;
  TVM_FFI_UNREACHABLE();
}

}  // namespace detail

inline Enum EnumObj::_GetByIntIndex(int32_t type_index, int64_t index) {
  return detail::EnumLookup(type_index, index);
}

inline Enum EnumObj::_GetByStrIndex(int32_t type_index, const String& index) {
  return detail::EnumLookup(type_index, index);
}

template <typename EnumClsObj>
inline Enum EnumObj::_GetByIntIndex(int64_t index) {
  static_assert(std::is_base_of_v<EnumObj, EnumClsObj>, "EnumClsObj must derive from EnumObj");
  return _GetByIntIndex(EnumClsObj::RuntimeTypeIndex(), index);
}

template <typename EnumClsObj>
inline Enum EnumObj::_GetByStrIndex(const String& index) {
  static_assert(std::is_base_of_v<EnumObj, EnumClsObj>, "EnumClsObj must derive from EnumObj");
  return _GetByStrIndex(EnumClsObj::RuntimeTypeIndex(), index);
}

TVM_FFI_NAMESPACE_END

#endif  // TVM_FFI_ENUM_H_
