// tvm/ffi/error.h alone gives the names of the header map.
#include <tvm/ffi/error.h>

void HeaderMap_tvm_ffi_error() {
  (void)sizeof(tvm::ffi::Error);
  (void)&tvm::ffi::make_object<tvm::ffi::Object>;
}
