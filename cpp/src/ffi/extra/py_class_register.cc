/*
 * Type-table registration of object types defined in Python (py_class), as
 * globals the Python layer calls with ordinary FFI values:
 *
 *   ffi._PyClassAllocTypeIndex(type_key, parent_type_index) -> int
 *   ffi._PyClassRegisterField(type_index, name, doc, metadata, flags, size,
 *                             alignment, offset, static_type_index, getter,
 *                             setter, default)
 *   ffi._PyClassRegisterMetadata(type_index, total_size, structural_kind)
 *   ffi._PyClassRegisterMethod(type_index, name, doc, metadata, is_static,
 *                              func)
 *
 * The getter is the address from ffi.MakeFieldGetter and the setter the
 * Function from ffi.MakeFieldSetter (the setter-is-Function flag is added);
 * `default` is the field's default value or factory, as the flags say.
 */
#include <tvm/ffi/any.h>
#include <tvm/ffi/c_api.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/reflection/registry.h>
#include <tvm/ffi/string.h>

#include <cstdint>
#include <string>

TVM_FFI_NAMESPACE_BEGIN
namespace detail {
namespace {

constexpr int64_t kFieldFlagSetterIsFunction = 2048;

TVMFFIByteArray ByteArrayOf(const String& s) { return TVMFFIByteArray{s.data(), s.size()}; }

const TVMFFITypeInfo* RequireObjectType(int32_t type_index, const char* who) {
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(type_index);
  if (info == nullptr || type_index < kTVMFFIStaticObjectBegin) {
    TVM_FFI_THROW(ValueError) << who << ": type index " << type_index
                              << " is not a registered object type";
  }
  return info;
}

int64_t AllocTypeIndex(const String& type_key, int32_t parent_index) {
  const TVMFFITypeInfo* parent = RequireObjectType(parent_index, "ffi._PyClassAllocTypeIndex");
  TVMFFIByteArray key = ByteArrayOf(type_key);
  int32_t index = TVMFFITypeGetOrAllocIndex(&key, -1, parent->type_depth + 1, 0, 1, parent_index);
  if (index < 0) throw MoveFromRaised();
  return index;
}

void RegisterField(int32_t type_index, const String& name, const String& doc,
                   const String& metadata, int64_t flags, int64_t size, int64_t alignment,
                   int64_t offset, int32_t static_type_index, int64_t getter,
                   const Function& setter, const Any& default_value) {
  RequireObjectType(type_index, "ffi._PyClassRegisterField");
  if (getter == 0) {
    TVM_FFI_THROW(ValueError) << "ffi._PyClassRegisterField: field '" << name << "' has no getter";
  }
  TVMFFIFieldInfo info;
  info.name = ByteArrayOf(name);
  info.doc = ByteArrayOf(doc);
  info.metadata = ByteArrayOf(metadata);
  info.flags = flags | kFieldFlagSetterIsFunction;
  info.size = size;
  info.alignment = alignment;
  info.offset = offset;
  info.getter = reinterpret_cast<TVMFFIFieldGetter>(getter);
  info.setter = const_cast<TVMFFIObject*>(
      reinterpret_cast<const TVMFFIObject*>(ObjectUnsafe::GetHeader(setter.get())));
  info.default_value_or_factory = AnyView(default_value).CopyToTVMFFIAny();
  info.field_static_type_index = static_type_index;
  if (TVMFFITypeRegisterField(type_index, &info) != 0) throw MoveFromRaised();
}

void RegisterMetadata(int32_t type_index, int64_t total_size, int64_t structural_kind) {
  RequireObjectType(type_index, "ffi._PyClassRegisterMetadata");
  TVMFFITypeMetadata meta;
  meta.doc = TVMFFIByteArray{nullptr, 0};
  meta.creator = nullptr;
  meta.total_size = static_cast<int32_t>(total_size);
  meta.structural_eq_hash_kind = static_cast<TVMFFISEqHashKind>(structural_kind);
  if (TVMFFITypeRegisterMetadata(type_index, &meta) != 0) throw MoveFromRaised();
}

void RegisterMethod(int32_t type_index, const String& name, const String& doc,
                    const String& metadata, bool is_static, const Function& func) {
  RequireObjectType(type_index, "ffi._PyClassRegisterMethod");
  TVMFFIMethodInfo info;
  info.name = ByteArrayOf(name);
  info.doc = ByteArrayOf(doc);
  info.metadata = ByteArrayOf(metadata);
  info.flags = is_static ? kTVMFFIFieldFlagBitMaskIsStaticMethod : 0;
  info.method = AnyView(func).CopyToTVMFFIAny();
  if (TVMFFITypeRegisterMethod(type_index, &info) != 0) throw MoveFromRaised();
}

}  // namespace
}  // namespace detail

TVM_FFI_STATIC_INIT_BLOCK() {
  namespace refl = tvm::ffi::reflection;
  refl::GlobalDef()
      .def("ffi._PyClassAllocTypeIndex", detail::AllocTypeIndex,
           "Allocate the type index of a py_class type under its parent.")
      .def("ffi._PyClassRegisterField", detail::RegisterField,
           "Register one natively stored field of a py_class type.")
      .def("ffi._PyClassRegisterMetadata", detail::RegisterMetadata,
           "Record the total size and structural kind of a py_class type.")
      .def("ffi._PyClassRegisterMethod", detail::RegisterMethod,
           "Register a method (or static function) of a py_class type.");
}
TVM_FFI_NAMESPACE_END
