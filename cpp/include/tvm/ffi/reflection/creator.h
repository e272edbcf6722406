/*
 * Creating reflected objects without a C++ constructor call: an empty object
 * from the type's creator (or its __ffi_new__ attribute), then every field
 * filled through its setter or default.
 *
 *   reflection::ObjectCreator make_point("my.Point");
 *   Any p = make_point(Map<String, Any>{{"x", 1}, {"y", 2}});
 *
 * A type whose only constructors take arguments can still be created this
 * way when it declares a constructor taking UnsafeInit: ObjectDef installs it
 * as the type's creator.
 */
#ifndef TVM_FFI_REFLECTION_CREATOR_H_
#define TVM_FFI_REFLECTION_CREATOR_H_

#include <tvm/ffi/any.h>
#include <tvm/ffi/base.h>
#include <tvm/ffi/c_api.h>
#include <tvm/ffi/container/map.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/object.h>
#include <tvm/ffi/reflection/accessor.h>
#include <tvm/ffi/reflection/type_attr.h>
#include <tvm/ffi/string.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>

TVM_FFI_NAMESPACE_BEGIN
namespace detail {

/*! \brief The __ffi_new__ Function of a type, or None. */
inline AnyView TypeNewAttr(int32_t type_index) {
  TVMFFIByteArray name{reflection::type_attr::kNew.name,
                       std::char_traits<char>::length(reflection::type_attr::kNew.name)};
  const TVMFFITypeAttrColumn* column = TVMFFIGetTypeAttrColumn(&name);
  if (column == nullptr) return AnyView();
  int32_t size = __atomic_load_n(&column->size, __ATOMIC_ACQUIRE);
  size_t offset = static_cast<size_t>(type_index) - static_cast<size_t>(column->begin_index);
  if (type_index < column->begin_index || offset >= static_cast<size_t>(size)) return AnyView();
  const TVMFFIAny* data = __atomic_load_n(&column->data, __ATOMIC_ACQUIRE);
  return AnyView::CopyFromTVMFFIAny(data[offset]);
}

/*!
 * \brief Strict conversion of a value to TRef, as __ffi_convert__ hooks do:
 *  TypeError "Cannot cast from `<from key>` to `<TRef>`" unless the value
 *  already is a TRef.
 */
template <typename TRef>
inline Any FFIConvertFromAnyViewToObjectRef(AnyView input) {
  const TVMFFIAny* cell = AnyUnsafe::GetTVMFFIAny(input);
  if (TypeTraits<TRef>::CheckAnyStrict(cell)) {
    return Any(TypeTraits<TRef>::CopyFromAnyViewAfterCheck(cell));
  }
  std::string target;
  if constexpr (std::is_base_of_v<ObjectRef, TRef>) {
    target = TRef::ContainerType::_type_key;
  } else {
    target = TypeTraits<TRef>::TypeStr();
  }
  TVM_FFI_THROW(TypeError) << "Cannot cast from `" << input.GetTypeKey() << "` to `" << target
                           << "`";
  TVM_FFI_UNREACHABLE();
}

}  // namespace detail

namespace reflection {

/*! \brief Whether CreateEmptyObject works for the type: a creator, or a Function in __ffi_new__. */
inline bool HasCreator(const TVMFFITypeInfo* type_info) {
  if (type_info->metadata != nullptr && type_info->metadata->creator != nullptr) return true;
  return ffi::detail::TypeNewAttr(type_info->type_index).type_index() == kTVMFFIFunction;
}

/*!
 * \brief A new object of the type with its members left as the creator made
 *  them: the metadata creator if any, else the __ffi_new__ Function.
 *  RuntimeError when the type has neither.
 */
inline ObjectPtr<Object> CreateEmptyObject(const TVMFFITypeInfo* type_info) {
  if (type_info->metadata != nullptr && type_info->metadata->creator != nullptr) {
    TVMFFIObjectHandle handle = nullptr;
    TVM_FFI_CHECK_SAFE_CALL(type_info->metadata->creator(&handle));
    return ffi::detail::ObjectUnsafe::ObjectPtrFromOwned<Object>(
        static_cast<TVMFFIObject*>(handle));
  }
  AnyView new_fn = ffi::detail::TypeNewAttr(type_info->type_index);
  if (new_fn.type_index() == kTVMFFIFunction) {
    ObjectRef made = new_fn.cast<Function>()().cast<ObjectRef>();
    return ffi::detail::ObjectUnsafe::ObjectPtrFromObjectRef<Object>(made);
  }
  TVM_FFI_THROW(RuntimeError) << "Type `" << ffi::ToStringView(type_info->type_key)
                              << "` does not support reflection creation"
                              << " (no native creator or __ffi_new__ type attr)";
  TVM_FFI_UNREACHABLE();
}

/*!
 * \brief Creates objects of one type from a map of field values: fields not
 *  in the map take their defaults; a required field missing or a key naming
 *  no field raises TypeError.
 */
class ObjectCreator {
 public:
  /*! \brief RuntimeError when the type cannot be created by reflection. */
  explicit ObjectCreator(std::string_view type_key)
      : ObjectCreator(ffi::detail::GetTypeInfoByKey(type_key)) {}
  explicit ObjectCreator(const TVMFFITypeInfo* type_info) : type_info_(type_info) {
    if (!HasCreator(type_info)) {
      TVM_FFI_THROW(RuntimeError) << "Type `" << ffi::ToStringView(type_info->type_key)
                                  << "` does not support default constructor, as a result "
                                  << "cannot be created via reflection";
    }
  }

  /*! \brief A new object with the given field values. */
  Any operator()(const Map<String, Any>& fields) const {
    ObjectPtr<Object> obj = CreateEmptyObject(type_info_);
    size_t used = 0;
    ForEachFieldInfo(type_info_, [&](const TVMFFIFieldInfo* field_info) {
      std::string_view name = ffi::ToStringView(field_info->name);
      void* addr = reinterpret_cast<char*>(obj.get()) + field_info->offset;
      std::optional<Any> given = fields.Get(String(name));
      if (given.has_value()) {
        ++used;
        TVM_FFI_CHECK_SAFE_CALL(CallFieldSetter(field_info, addr, AnyView(*given)));
      } else if (field_info->flags & kTVMFFIFieldFlagBitMaskHasDefault) {
        SetFieldToDefault(field_info, addr);
      } else {
        TVM_FFI_THROW(TypeError) << "Required field `" << name << "` not set in type `"
                                 << ffi::ToStringView(type_info_->type_key) << "`";
      }
    });
    if (used != fields.size()) {
      for (const auto& kv : fields) {
        bool known = ForEachFieldInfoWithEarlyStop(type_info_, [&](const TVMFFIFieldInfo* info) {
          return ffi::ToStringView(info->name) ==
                 std::string_view(kv.first.data(), kv.first.size());
        });
        if (!known) {
          TVM_FFI_THROW(TypeError) << "Type `" << ffi::ToStringView(type_info_->type_key)
                                   << "` does not have field `" << kv.first << "`";
        }
      }
    }
    return ObjectRef(std::move(obj));
  }

 private:
  const TVMFFITypeInfo* type_info_;
};

}  // namespace reflection
TVM_FFI_NAMESPACE_END

#endif  // TVM_FFI_REFLECTION_CREATOR_H_
