// tvm/ffi/string.h alone gives the names of the header map.
#include <tvm/ffi/string.h>

void HeaderMap_tvm_ffi_string() {
  tvm::ffi::String s = "x";
  tvm::ffi::Bytes b;
  (void)s;
  (void)b;
  (void)sizeof(tvm::ffi::Error);
}
