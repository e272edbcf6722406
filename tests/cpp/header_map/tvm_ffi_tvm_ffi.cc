// tvm/ffi/tvm_ffi.h alone gives the names of the header map.
#include <tvm/ffi/tvm_ffi.h>

void HeaderMap_tvm_ffi_tvm_ffi() {
  tvm::ffi::Array<tvm::ffi::Optional<int>> a;
  (void)a;
  (void)sizeof(tvm::ffi::RValueRef<tvm::ffi::ObjectRef>);
  (void)&tvm::ffi::GetRef<tvm::ffi::ObjectRef, tvm::ffi::Object>;
  tvm::ffi::ByteSwap(nullptr, 1, 0);
}
