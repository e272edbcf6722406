// tvm/ffi/extra/base64.h alone gives the names of the header map.
#include <tvm/ffi/extra/base64.h>

void HeaderMap_tvm_ffi_extra_base64() {
  (void)tvm::ffi::Base64Decode(tvm::ffi::Base64Encode(tvm::ffi::Bytes("a", 1)));
}
