/*
 * What the dataclass utilities (repr_print.cc, deep_copy.cc,
 * recursive_compare.cc, recursive_hash.cc) share: hooks from type-attribute
 * columns, type keys, reading and writing a field, string contents, enum
 * singletons, and the common limit on traversal depth.
 *
 * Types registered by libraries built against other headers land in the same
 * registry, so everything here goes through the C structs of docs/abi.md.
 */
#ifndef TVM_FFI_EXTRA_DATACLASS_SUPPORT_H_
#define TVM_FFI_EXTRA_DATACLASS_SUPPORT_H_

#include <tvm/ffi/any.h>
#include <tvm/ffi/c_api.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/map_base.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/object.h>
#include <tvm/ffi/reflection/accessor.h>
#include <tvm/ffi/reflection/type_attr.h>
#include <tvm/ffi/string.h>

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

TVM_FFI_NAMESPACE_BEGIN
namespace detail {
namespace dataclass {

/*! \brief Frames an explicit traversal stack may hold before giving up. */
constexpr size_t kMaxStackDepth = size_t{1} << 20;

/*! \brief ValueError "<what>: maximum stack depth (1048576) exceeded". */
[[noreturn]] inline void ThrowStackDepthExceeded(const char* what) {
  TVM_FFI_THROW(ValueError) << what << ": maximum stack depth (" << kMaxStackDepth << ") exceeded";
  TVM_FFI_UNREACHABLE();
}

/*! \return The registered key of a type index ("int", "ffi.SmallStr", "ffi.Array", ...). */
inline std::string_view TypeKeyOf(int32_t type_index) {
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(type_index);
  if (info == nullptr) return std::string_view("<unknown>");
  return std::string_view(info->type_key.data, info->type_key.size);
}

/*! \return The type_key_hash of the registry entry of a type index. */
inline uint64_t TypeKeyHashOf(int32_t type_index) {
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(type_index);
  return info == nullptr ? 0 : info->type_key_hash;
}

/*! \brief The __ffi_hash__ column (looked up once). */
inline const reflection::TypeAttrColumn& HashHooks() {
  static const reflection::TypeAttrColumn column(reflection::type_attr::kHash);
  return column;
}

/*! \brief The __ffi_eq__ column (looked up once). */
inline const reflection::TypeAttrColumn& EqHooks() {
  static const reflection::TypeAttrColumn column(reflection::type_attr::kEq);
  return column;
}

/*! \brief The __ffi_compare__ column (looked up once). */
inline const reflection::TypeAttrColumn& CompareHooks() {
  static const reflection::TypeAttrColumn column(reflection::type_attr::kCompare);
  return column;
}

/*!
 * \brief Room for n more items, growing geometrically: items is usually the stack
 *  every frame shares, where reserving the exact size would copy it all per frame.
 */
template <typename T>
inline void ReserveMore(std::vector<T>* items, size_t n) {
  size_t need = items->size() + n;
  if (need > items->capacity()) items->reserve(std::max(need, 2 * items->capacity()));
}

/*!
 * \brief Appends owning references to a container's children: the elements of an
 *  Array/List, or key, value, key, value... of a Map/Dict. Other objects add nothing.
 * \return Whether obj was one of those containers.
 */
inline bool AppendContainerItems(const Object* obj, int32_t type_index, std::vector<Any>* items) {
  if (type_index == kTVMFFIArray || type_index == kTVMFFIList) {
    const SeqBaseObj* seq = static_cast<const SeqBaseObj*>(obj);
    ReserveMore(items, static_cast<size_t>(seq->SeqCell()->size));
    for (int64_t i = 0; i < seq->SeqCell()->size; ++i) {
      items->push_back(Any(AnyView::CopyFromTVMFFIAny(seq->slots()[i])));
    }
    return true;
  }
  if (type_index == kTVMFFIMap || type_index == kTVMFFIDict) {
    const MapBaseObj* map = static_cast<const MapBaseObj*>(obj);
    ReserveMore(items, map->size() * 2);
    for (const auto& kv : *map) {
      items->push_back(kv.first);
      items->push_back(kv.second);
    }
    return true;
  }
  return false;
}

/*! \return The Function a hook column holds for the type, or nullopt when none. */
inline std::optional<Function> HookOf(const reflection::TypeAttrColumn& column,
                                      int32_t type_index) {
  AnyView hook = column[type_index];
  if (hook.type_index() != kTVMFFIFunction) return std::nullopt;
  return hook.cast<Function>();
}

/*! \return The value of a field of obj (an owning Any). */
inline Any ReadField(const Object* obj, const TVMFFIFieldInfo* field) {
  reflection::FieldGetter getter(field);
  return getter(obj);
}

/*! \brief Store value into a field of obj through its setter (throws when rejected). */
inline void WriteField(Object* obj, const TVMFFIFieldInfo* field, const AnyView& value) {
  reflection::FieldSetter setter(field);
  setter(obj, value);
}

/*! \return The content of a string or bytes value: small, heap or borrowed (docs/abi.md). */
inline std::string_view BytesOf(const TVMFFIAny* cell) {
  if (cell->type_index == kTVMFFISmallStr || cell->type_index == kTVMFFISmallBytes) {
    return std::string_view(cell->v_bytes, cell->small_str_len);
  }
  if (cell->type_index == kTVMFFIRawStr) return std::string_view(cell->v_c_str);
  if (cell->type_index == kTVMFFIByteArrayPtr) {
    const TVMFFIByteArray* bytes = static_cast<const TVMFFIByteArray*>(cell->v_ptr);
    return std::string_view(bytes->data, bytes->size);
  }
  // Str and Bytes objects: the header, then a TVMFFIByteArray.
  const TVMFFIByteArray* bytes = reinterpret_cast<const TVMFFIByteArray*>(
      reinterpret_cast<const char*>(cell->v_obj) + sizeof(TVMFFIObject));
  return std::string_view(bytes->data, bytes->size);
}

/*! \return The index of a registered type key, or -1 when no type has that key. */
inline int32_t FindTypeIndex(const char* key) {
  TVMFFIByteArray name{key, std::char_traits<char>::length(key)};
  int32_t index = -1;
  if (TVMFFITypeKeyToIndex(&name, &index) != 0) {
    TVMFFIObjectHandle err = nullptr;
    TVMFFIErrorMoveFromRaised(&err);
    if (err != nullptr) TVMFFIObjectDecRef(err);
    return -1;
  }
  return index;
}

/*! \return Whether obj is an instance of the type target_index (-1: of no type). */
inline bool IsInstanceOfIndex(const Object* obj, int32_t target_index) {
  if (target_index < 0) return false;
  int32_t type_index = obj->type_index();
  if (type_index == target_index) return true;
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(type_index);
  const TVMFFITypeInfo* target = TVMFFIGetTypeInfo(target_index);
  if (info == nullptr || target == nullptr || target->type_depth >= info->type_depth) return false;
  const TVMFFITypeInfo* ancestor = info->type_ancestors[target->type_depth];
  return ancestor != nullptr && ancestor->type_index == target_index;
}

/*! \return The index of "ffi.Enum", or -1 while no such type is registered. */
inline int32_t EnumTypeIndex() {
  // A type keeps its index for the life of the process.
  static std::atomic<int32_t> cached{-1};
  int32_t index = cached.load(std::memory_order_relaxed);
  if (index >= 0) return index;
  index = FindTypeIndex("ffi.Enum");
  if (index >= 0) cached.store(index, std::memory_order_relaxed);
  return index;
}

/*!
 * \return The string index (name) of an enum singleton: ffi.Enum objects keep it,
 *  a String, at offset 32 after the int index.
 */
inline const String& EnumName(const Object* obj) {
  constexpr size_t kEnumStrIndexOffset = 32;
  const char* base = reinterpret_cast<const char*>(ObjectUnsafe::GetHeader(obj));
  return *reinterpret_cast<const String*>(base + kEnumStrIndexOffset);
}

}  // namespace dataclass
}  // namespace detail
TVM_FFI_NAMESPACE_END

#endif  // TVM_FFI_EXTRA_DATACLASS_SUPPORT_H_
