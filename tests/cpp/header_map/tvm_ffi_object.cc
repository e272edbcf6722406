// tvm/ffi/object.h alone gives the names of the header map.
#include <tvm/ffi/object.h>

void HeaderMap_tvm_ffi_object() {
  tvm::ffi::ObjectRef ref;
  tvm::ffi::ObjectPtr<tvm::ffi::Object> p;
  tvm::ffi::WeakObjectPtr<tvm::ffi::Object> w;
  (void)sizeof(tvm::ffi::Arc<tvm::ffi::Object>);
  (void)tvm::ffi::UnsafeInit{};
  (void)ref;
  (void)p;
  (void)w;
  static_assert(tvm::ffi::is_object_subclass_v<tvm::ffi::Object>);
  static_assert(tvm::ffi::object_ref_contains_v<tvm::ffi::ObjectRef, tvm::ffi::Object>);
  static_assert(tvm::ffi::Object::_type_s_eq_hash_kind == kTVMFFISEqHashKindUnsupported);
  (void)tvm::ffi::ObjectPtrHash()(ref);
  (void)tvm::ffi::ObjectPtrEqual()(ref, ref);
  (void)&tvm::ffi::detail::RuntimeTypeIndexMatch;
  (void)&tvm::ffi::detail::IsObjectInstance<tvm::ffi::Object>;
}
