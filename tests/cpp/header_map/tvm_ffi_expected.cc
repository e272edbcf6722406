// tvm/ffi/expected.h alone gives the names of the header map.
#include <tvm/ffi/expected.h>

void HeaderMap_tvm_ffi_expected() {
  (void)sizeof(tvm::ffi::Expected<int>);
  (void)sizeof(tvm::ffi::Error);
}
