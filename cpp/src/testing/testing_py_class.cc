/*
 * Globals that read objects of py_class types from C++ through reflection only:
 *   testing.py_class_field(obj, name) -> value of the named field (own or inherited)
 *   testing.py_class_field_names(obj) -> Array of field names, parent first
 */
#include <tvm/ffi/any.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/object.h>
#include <tvm/ffi/reflection/accessor.h>
#include <tvm/ffi/reflection/registry.h>
#include <tvm/ffi/string.h>

#include <string>
#include <string_view>

namespace {
using namespace tvm::ffi;  // NOLINT(build/namespaces)

Any PyClassField(const ObjectRef& obj, const String& name) {
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(obj->type_index());
  const TVMFFIFieldInfo* found = nullptr;
  reflection::ForEachFieldInfo(info, [&](const TVMFFIFieldInfo* f) {
    if (std::string_view(f->name.data, f->name.size) == std::string_view(name)) found = f;
  });
  if (found == nullptr) {
    TVM_FFI_THROW(AttributeError) << obj->GetTypeKey() << " has no field `" << name << "`";
  }
  return reflection::FieldGetter(found)(obj);
}

Array<String> PyClassFieldNames(const ObjectRef& obj) {
  Array<String> names;
  reflection::ForEachFieldInfo(TVMFFIGetTypeInfo(obj->type_index()), [&](const TVMFFIFieldInfo* f) {
    names.push_back(String(std::string(f->name.data, f->name.size)));
  });
  return names;
}
}  // namespace

TVM_FFI_STATIC_INIT_BLOCK() {
  tvm::ffi::reflection::GlobalDef()
      .def("testing.py_class_field", PyClassField)
      .def("testing.py_class_field_names", PyClassFieldNames);
}
