// tvm/ffi/reflection/enum_def.h alone gives the names of the header map.
#include <tvm/ffi/reflection/enum_def.h>

void HeaderMap_tvm_ffi_reflection_enum_def() {
  namespace refl = tvm::ffi::reflection;
  (void)sizeof(refl::EnumDef<tvm::ffi::StrEnumObj>);
  bool (*defined)(const tvm::ffi::String&) = &refl::EnumDef<tvm::ffi::StrEnumObj>::IsDefined;
  (void)defined;
  refl::AttrKey<tvm::ffi::EnumState> key = refl::type_attr::kEnumState;
  (void)key;
}
