/*
 * Global functions over the reflection records: ffi.MakeObjectFromPackedArgs
 * (create an object from name/value pairs) and ffi.GetRegisteredTypeKeys.
 */
#include "type_table.h"

#include <tvm/ffi/any.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/reflection/accessor.h>
#include <tvm/ffi/reflection/creator.h>
#include <tvm/ffi/reflection/registry.h>
#include <tvm/ffi/string.h>

#include <string>
#include <vector>

TVM_FFI_NAMESPACE_BEGIN
namespace detail {
namespace {

/*! \brief The type named by a key (str) or a type index (int). */
const TVMFFITypeInfo* TypeInfoFromKeyOrIndex(AnyView type) {
  if (type.type_index() == kTVMFFIInt) {
    int64_t index = type.cast<int64_t>();
    const TVMFFITypeInfo* info =
        (index >= 0 && index < TypeTable::kMaxTypeIndex) ? TVMFFIGetTypeInfo(index) : nullptr;
    if (info == nullptr) {
      TVM_FFI_THROW(ValueError) << "ffi.MakeObjectFromPackedArgs: type index " << index
                                << " is not registered";
    }
    return info;
  }
  String key = type.cast<String>();
  return GetTypeInfoByKey(std::string_view(key.data(), key.size()));
}

/*!
 * \brief (type_key_or_index, name0, value0, ...): like reflection::ObjectCreator,
 *  every field (ancestors first) takes its given value, else its default,
 *  else TypeError; a name matching no field is a TypeError.
 */
void MakeObjectFromPackedArgs(const AnyView* args, int32_t num_args, Any* rv) {
  if (num_args < 1 || (num_args - 1) % 2 != 0) {
    TVM_FFI_THROW(TypeError) << "ffi.MakeObjectFromPackedArgs expects a type key or index "
                                "followed by name, value pairs, got "
                             << num_args << " arguments";
  }
  const TVMFFITypeInfo* type_info = TypeInfoFromKeyOrIndex(args[0]);
  std::string_view type_key = ToStringView(type_info->type_key);
  if (!reflection::HasCreator(type_info)) {
    TVM_FFI_THROW(RuntimeError) << "Type `" << type_key
                                << "` does not support default constructor, as a result cannot "
                                   "be created via reflection";
  }
  int32_t num_pairs = (num_args - 1) / 2;
  std::vector<String> names;
  names.reserve(num_pairs);
  for (int32_t i = 0; i < num_pairs; ++i) names.push_back(args[1 + 2 * i].cast<String>());
  std::vector<bool> used(num_pairs, false);
  ObjectPtr<Object> obj = reflection::CreateEmptyObject(type_info);
  reflection::ForEachFieldInfo(type_info, [&](const TVMFFIFieldInfo* field_info) {
    std::string_view name = ToStringView(field_info->name);
    void* addr = reinterpret_cast<char*>(obj.get()) + field_info->offset;
    for (int32_t i = 0; i < num_pairs; ++i) {
      if (!used[i] && std::string_view(names[i].data(), names[i].size()) == name) {
        used[i] = true;
        TVM_FFI_CHECK_SAFE_CALL(reflection::CallFieldSetter(field_info, addr, args[2 + 2 * i]));
        return;
      }
    }
    if (field_info->flags & kTVMFFIFieldFlagBitMaskHasDefault) {
      reflection::SetFieldToDefault(field_info, addr);
      return;
    }
    TVM_FFI_THROW(TypeError) << "Required field `" << name << "` not set in type `" << type_key
                             << "`";
  });
  for (int32_t i = 0; i < num_pairs; ++i) {
    if (!used[i]) {
      TVM_FFI_THROW(TypeError) << "Type `" << type_key << "` does not have field `"
                               << std::string_view(names[i].data(), names[i].size()) << "`";
    }
  }
  *rv = ObjectRef(std::move(obj));
}

Array<String> GetRegisteredTypeKeys() {
  Array<String> keys;
  for (const std::string& key : TypeTable::Global().Keys()) keys.push_back(String(key));
  return keys;
}

TVM_FFI_STATIC_INIT_BLOCK() {
  namespace refl = tvm::ffi::reflection;
  refl::GlobalDef()
      .def_packed("ffi.MakeObjectFromPackedArgs", MakeObjectFromPackedArgs,
                  "Create an object from (type key or index, name0, value0, name1, value1, ...).")
      .def("ffi.GetRegisteredTypeKeys", GetRegisteredTypeKeys,
           "The keys of every registered type, by type index.");
}

}  // namespace
}  // namespace detail
TVM_FFI_NAMESPACE_END
