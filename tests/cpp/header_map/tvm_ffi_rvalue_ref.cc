// tvm/ffi/rvalue_ref.h alone gives the names of the header map.
#include <tvm/ffi/rvalue_ref.h>

void HeaderMap_tvm_ffi_rvalue_ref() {
  (void)sizeof(tvm::ffi::RValueRef<tvm::ffi::ObjectRef>);
  static_assert(!tvm::ffi::TypeTraits<tvm::ffi::RValueRef<tvm::ffi::ObjectRef>>::storage_enabled);
}
