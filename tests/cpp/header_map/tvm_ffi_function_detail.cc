// tvm/ffi/function_detail.h alone gives the names of the header map.
#include <tvm/ffi/function_detail.h>

void HeaderMap_tvm_ffi_function_detail() {
  (void)sizeof(tvm::ffi::Any);
  (void)sizeof(tvm::ffi::Error);
}
