// tvm/ffi/function.h alone gives the names of the header map.
#include <tvm/ffi/function.h>

void HeaderMap_tvm_ffi_function() {
  tvm::ffi::Function f;
  (void)f;
  (void)sizeof(tvm::ffi::TypedFunction<int(int)>);
  (void)sizeof(tvm::ffi::Any);
  (void)sizeof(tvm::ffi::String);
  (void)sizeof(tvm::ffi::Error);
  (void)sizeof(tvm::ffi::Expected<int>);
}
