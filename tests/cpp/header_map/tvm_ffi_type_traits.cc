// tvm/ffi/type_traits.h alone gives the names of the header map.
#include <tvm/ffi/type_traits.h>

void HeaderMap_tvm_ffi_type_traits() {
  tvm::ffi::TypeIndex idx = tvm::ffi::TypeIndex::kTVMFFIInt;
  (void)idx;
  const char* key = tvm::ffi::StaticTypeKey::kTVMFFIStr;
  (void)key;
  static_assert(tvm::ffi::TypeTraits<int>::storage_enabled);
  static_assert(tvm::ffi::use_default_type_traits_v<tvm::ffi::ObjectRef>);
  static_assert(tvm::ffi::type_subsumes_v<tvm::ffi::ObjectRef, tvm::ffi::ObjectRef>);
  static_assert(tvm::ffi::is_integeral_enum_v<tvm::ffi::TypeIndex>);
  tvm::ffi::StrictBool sb = true;
  (void)sb;
  (void)sizeof(tvm::ffi::TypeTraitsBase);
  (void)sizeof(tvm::ffi::ObjectRefTypeTraitsBase<tvm::ffi::ObjectRef>);
  (void)sizeof(tvm::ffi::TypeTraitsIntBase<int>);
  static_assert(tvm::ffi::TypeToFieldStaticTypeIndex<int>::value == kTVMFFIInt);
  (void)&tvm::ffi::TypeToRuntimeTypeIndex<int>::v;
  (void)&tvm::ffi::TypeIndexToTypeKey;
  (void)sizeof(tvm::ffi::TypeTraitsNoCR<const int&>);
}
