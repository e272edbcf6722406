// tvm/ffi/cast.h alone gives the names of the header map.
#include <tvm/ffi/cast.h>

void HeaderMap_tvm_ffi_cast() {
  (void)&tvm::ffi::GetRef<tvm::ffi::ObjectRef, tvm::ffi::Object>;
  (void)&tvm::ffi::GetObjectPtr<tvm::ffi::Object, tvm::ffi::Object>;
  tvm::ffi::Optional<int> o;
  (void)o;
}
