// tvm/ffi/reflection/type_attr.h alone gives the names of the header map.
#include <tvm/ffi/reflection/type_attr.h>

void HeaderMap_tvm_ffi_reflection_type_attr() {
  namespace refl = tvm::ffi::reflection;
  refl::AttrKey<tvm::ffi::Function> key = refl::type_attr::kInit;
  (void)key;
  (void)sizeof(refl::TypeAttrColumn);
  void (*ensure)(std::string_view) = &refl::EnsureTypeAttrColumn;
  (void)ensure;
}
