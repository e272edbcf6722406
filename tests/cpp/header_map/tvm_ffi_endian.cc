// tvm/ffi/endian.h alone gives the names of the header map.
#include <tvm/ffi/endian.h>

void HeaderMap_tvm_ffi_endian() {
  unsigned char b[2] = {1, 2};
  tvm::ffi::ByteSwap(b, 2, 1);
  static_assert(TVM_FFI_IO_USE_LITTLE_ENDIAN == 1);
  static_assert(TVM_FFI_IO_NO_ENDIAN_SWAP == (TVM_FFI_LITTLE_ENDIAN == 1));
}
