/*
 * Reading and writing reflected fields, and looking up reflected fields and
 * methods (the records of TVMFFITypeInfo, docs/abi.md §2.6).
 *
 *   reflection::FieldGetter get_x("my.Point", "x");
 *   int64_t x = get_x(point).cast<int64_t>();
 *   reflection::FieldSetter("my.Point", "x")(point, 3);
 *   reflection::ForEachFieldInfo(TVMFFIGetTypeInfo(idx), [](const TVMFFIFieldInfo* f) { ... });
 *
 * Field offsets are measured from the Object sub-object (the handle).
 */
#ifndef TVM_FFI_REFLECTION_ACCESSOR_H_
#define TVM_FFI_REFLECTION_ACCESSOR_H_

#include <tvm/ffi/any.h>
#include <tvm/ffi/base.h>
#include <tvm/ffi/c_api.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/object.h>
#include <tvm/ffi/string.h>

#include <cstdint>
#include <string>
#include <string_view>

TVM_FFI_NAMESPACE_BEGIN
namespace detail {
/*!
 * \brief The fields / methods of a type as published so far: the runtime
 *  appends concurrently, publishing the count (release) after the entry.
 */
inline int32_t LoadNumFields(const TVMFFITypeInfo* info) {
  return __atomic_load_n(&info->num_fields, __ATOMIC_ACQUIRE);
}
inline int32_t LoadNumMethods(const TVMFFITypeInfo* info) {
  return __atomic_load_n(&info->num_methods, __ATOMIC_ACQUIRE);
}
inline const TVMFFIFieldInfo* LoadFields(const TVMFFITypeInfo* info) {
  return __atomic_load_n(&info->fields, __ATOMIC_ACQUIRE);
}
inline const TVMFFIMethodInfo* LoadMethods(const TVMFFITypeInfo* info) {
  return __atomic_load_n(&info->methods, __ATOMIC_ACQUIRE);
}

/*! \brief The type info of a key; throws the runtime's KeyError for unknown keys. */
inline const TVMFFITypeInfo* GetTypeInfoByKey(std::string_view type_key) {
  TVMFFIByteArray key{type_key.data(), type_key.size()};
  int32_t type_index = 0;
  TVM_FFI_CHECK_SAFE_CALL(TVMFFITypeKeyToIndex(&key, &type_index));
  return TVMFFIGetTypeInfo(type_index);
}
}  // namespace detail

namespace reflection {

/*! \brief A byte array over a NUL-terminated string (usable in constant expressions). */
constexpr TVMFFIByteArray AsByteArray(const char* str) {
  return TVMFFIByteArray{str, std::char_traits<char>::length(str)};
}

/*! \brief Byte offset of a member of Class from the Object sub-object of Class. */
template <typename Class, typename T>
inline int64_t GetFieldByteOffsetToObject(T Class::* field_ptr) {
  // A fake non-null object address: member and base offsets without an object.
  Class* probe = reinterpret_cast<Class*>(0x1000);
  int64_t field_offset = reinterpret_cast<int64_t>(&(probe->*field_ptr)) - 0x1000;
  return field_offset - ffi::detail::ObjectUnsafe::GetObjectOffsetToSubclass<Class>();
}

/*!
 * \brief The field field_name registered by type_key itself (not its ancestors).
 *  RuntimeError "Cannot find field  `<f>` in <key>" when it has none.
 */
inline const TVMFFIFieldInfo* GetFieldInfo(std::string_view type_key, std::string_view field_name) {
  const TVMFFITypeInfo* info = ffi::detail::GetTypeInfoByKey(type_key);
  int32_t num_fields = ffi::detail::LoadNumFields(info);
  const TVMFFIFieldInfo* fields = ffi::detail::LoadFields(info);
  for (int32_t i = 0; i < num_fields; ++i) {
    if (ffi::ToStringView(fields[i].name) == field_name) return &fields[i];
  }
  TVM_FFI_THROW(RuntimeError) << "Cannot find field  `" << field_name << "` in " << type_key;
  TVM_FFI_UNREACHABLE();
}

/*!
 * \brief The first method named method_name registered by type_key.
 *  RuntimeError "Cannot find method <m> in <key>" when it has none.
 */
inline const TVMFFIMethodInfo* GetMethodInfo(std::string_view type_key,
                                             std::string_view method_name) {
  const TVMFFITypeInfo* info = ffi::detail::GetTypeInfoByKey(type_key);
  int32_t num_methods = ffi::detail::LoadNumMethods(info);
  const TVMFFIMethodInfo* methods = ffi::detail::LoadMethods(info);
  for (int32_t i = 0; i < num_methods; ++i) {
    if (ffi::ToStringView(methods[i].name) == method_name) return &methods[i];
  }
  TVM_FFI_THROW(RuntimeError) << "Cannot find method " << method_name << " in " << type_key;
  TVM_FFI_UNREACHABLE();
}

/*! \brief The Function of GetMethodInfo(type_key, method_name). */
inline Function GetMethod(std::string_view type_key, std::string_view method_name) {
  const TVMFFIMethodInfo* info = GetMethodInfo(type_key, method_name);
  return AnyView::CopyFromTVMFFIAny(info->method).cast<Function>();
}

/*!
 * \brief Store value into the field at field_addr through the field's setter:
 *  the C setter, or (flag kTVMFFIFieldFlagBitSetterIsFunctionObj) the setter
 *  Function called with (field_addr as an opaque pointer, value).
 * \return 0 on success, -1 with the error raised (TVMFFIErrorMoveFromRaised).
 */
inline int CallFieldSetter(const TVMFFIFieldInfo* field_info, void* field_addr,
                           const TVMFFIAny* value) {
  if (field_info->flags & kTVMFFIFieldFlagBitSetterIsFunctionObj) {
    TVMFFIAny args[2];
    args[0].type_index = kTVMFFIOpaquePtr;
    args[0].zero_padding = 0;
    args[0].v_ptr = field_addr;
    args[1] = *value;
    TVMFFIAny result;
    result.type_index = kTVMFFINone;
    result.zero_padding = 0;
    result.v_int64 = 0;
    int rc = TVMFFIFunctionCall(field_info->setter, args, 2, &result);
    if (rc == 0) {
      // Drop whatever the setter returned.
      Any dropped = ffi::detail::AnyUnsafe::MoveTVMFFIAnyToAny(&result);
    }
    return rc;
  }
  return reinterpret_cast<TVMFFIFieldSetter>(field_info->setter)(field_addr, value);
}

/*! \brief CallFieldSetter with a C++ value. */
inline int CallFieldSetter(const TVMFFIFieldInfo* field_info, void* field_addr, AnyView value) {
  return CallFieldSetter(field_info, field_addr, ffi::detail::AnyUnsafe::GetTVMFFIAny(value));
}

/*!
 * \brief Set the field at field_addr to its default: the factory's result
 *  (factory flag) or the stored default, through the setter. A default of the
 *  wrong type fails like an explicit value would.
 * \return 0 on success, -1 with the error raised.
 */
inline int CallFieldSetterToDefault(const TVMFFIFieldInfo* field_info, void* field_addr) {
  if (field_info->flags & kTVMFFIFieldFlagBitMaskDefaultFromFactory) {
    TVMFFIAny made;
    made.type_index = kTVMFFINone;
    made.zero_padding = 0;
    made.v_int64 = 0;
    const TVMFFIAny& factory = field_info->default_value_or_factory;
    if (factory.type_index != kTVMFFIFunction) {
      TVMFFIErrorSetRaisedFromCStr("TypeError", "default factory of a field is not a Function");
      return -1;
    }
    if (TVMFFIFunctionCall(factory.v_obj, nullptr, 0, &made) != 0) return -1;
    Any value = ffi::detail::AnyUnsafe::MoveTVMFFIAnyToAny(&made);
    return CallFieldSetter(field_info, field_addr, ffi::detail::AnyUnsafe::GetTVMFFIAny(value));
  }
  return CallFieldSetter(field_info, field_addr, &field_info->default_value_or_factory);
}

/*! \brief CallFieldSetterToDefault that throws on failure. */
inline void SetFieldToDefault(const TVMFFIFieldInfo* field_info, void* field_addr) {
  TVM_FFI_CHECK_SAFE_CALL(CallFieldSetterToDefault(field_info, field_addr));
}

/*! \brief Reads one reflected field of objects. */
class FieldGetter {
 public:
  explicit FieldGetter(const TVMFFIFieldInfo* field_info) : field_info_(field_info) {}
  FieldGetter(std::string_view type_key, std::string_view field_name)
      : FieldGetter(GetFieldInfo(type_key, field_name)) {}

  Any operator()(const Object* obj_ptr) const {
    TVMFFIAny result;
    result.type_index = kTVMFFINone;
    result.zero_padding = 0;
    result.v_int64 = 0;
    void* addr = reinterpret_cast<char*>(const_cast<Object*>(obj_ptr)) + field_info_->offset;
    TVM_FFI_CHECK_SAFE_CALL(field_info_->getter(addr, &result));
    return ffi::detail::AnyUnsafe::MoveTVMFFIAnyToAny(&result);
  }
  Any operator()(const ObjectPtr<Object>& obj_ptr) const { return operator()(obj_ptr.get()); }
  Any operator()(const ObjectRef& obj) const { return operator()(obj.get()); }

 private:
  const TVMFFIFieldInfo* field_info_;
};

/*! \brief Writes one reflected field of objects (throws on a rejected value). */
class FieldSetter {
 public:
  explicit FieldSetter(const TVMFFIFieldInfo* field_info) : field_info_(field_info) {}
  FieldSetter(std::string_view type_key, std::string_view field_name)
      : FieldSetter(GetFieldInfo(type_key, field_name)) {}

  void operator()(const Object* obj_ptr, AnyView value) const {
    void* addr = reinterpret_cast<char*>(const_cast<Object*>(obj_ptr)) + field_info_->offset;
    TVM_FFI_CHECK_SAFE_CALL(CallFieldSetter(field_info_, addr, value));
  }
  void operator()(const ObjectPtr<Object>& obj_ptr, AnyView value) const {
    operator()(obj_ptr.get(), value);
  }
  void operator()(const ObjectRef& obj, AnyView value) const { operator()(obj.get(), value); }

 private:
  const TVMFFIFieldInfo* field_info_;
};

/*!
 * \brief Call callback(const TVMFFIFieldInfo*) for every field of the type:
 *  the ancestors' from depth 1 down to the parent, then its own (the root
 *  Object has none), each in registration order. Stops at the first callback
 *  returning true.
 * \return whether a callback stopped the walk.
 */
template <typename Callback>
inline bool ForEachFieldInfoWithEarlyStop(const TVMFFITypeInfo* type_info, Callback callback) {
  auto visit_own = [&](const TVMFFITypeInfo* info) {
    int32_t num_fields = ffi::detail::LoadNumFields(info);
    const TVMFFIFieldInfo* fields = ffi::detail::LoadFields(info);
    for (int32_t i = 0; i < num_fields; ++i) {
      if (callback(&fields[i])) return true;
    }
    return false;
  };
  for (int32_t depth = 1; depth < type_info->type_depth; ++depth) {
    if (visit_own(type_info->type_ancestors[depth])) return true;
  }
  return visit_own(type_info);
}

/*! \brief ForEachFieldInfoWithEarlyStop without stopping: callback returns void. */
template <typename Callback>
inline void ForEachFieldInfo(const TVMFFITypeInfo* type_info, Callback callback) {
  ForEachFieldInfoWithEarlyStop(type_info, [&](const TVMFFIFieldInfo* field_info) {
    callback(field_info);
    return false;
  });
}

}  // namespace reflection
TVM_FFI_NAMESPACE_END

#endif  // TVM_FFI_REFLECTION_ACCESSOR_H_
