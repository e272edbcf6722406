// tvm/ffi/reflection/registry.h alone gives the names of the header map.
#include <tvm/ffi/reflection/registry.h>

void HeaderMap_tvm_ffi_reflection_registry() {
  namespace refl = tvm::ffi::reflection;
  (void)sizeof(tvm::ffi::Function);
  (void)sizeof(refl::GlobalDef);
  (void)sizeof(refl::ObjectDef<tvm::ffi::Object>);
  (void)sizeof(refl::TypeAttrDef<tvm::ffi::Object>);
  (void)sizeof(refl::Metadata);
  (void)sizeof(refl::DefaultValue);
  (void)sizeof(refl::default_value);
  (void)sizeof(refl::DefaultFactory);
  (void)sizeof(refl::default_factory);
  (void)sizeof(refl::AttachFieldFlag);
  (void)sizeof(refl::repr);
  (void)sizeof(refl::compare);
  (void)sizeof(refl::hash);
  (void)sizeof(refl::kw_only);
  (void)sizeof(refl::init<>);
  (void)sizeof(refl::init<int, int>);
  (void)sizeof(refl::FieldInfoBuilder);
  (void)sizeof(refl::MethodInfoBuilder);
  (void)sizeof(refl::InfoTrait);
  // The names of accessor.h, creator.h and type_attr.h come with it.
  (void)sizeof(refl::FieldGetter);
  (void)sizeof(refl::ObjectCreator);
  (void)sizeof(refl::TypeAttrColumn);
}
