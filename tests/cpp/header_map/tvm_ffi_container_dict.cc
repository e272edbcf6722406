// tvm/ffi/container/dict.h alone gives the names of the header map.
#include <tvm/ffi/container/dict.h>

void HeaderMap_tvm_ffi_container_dict() {
  tvm::ffi::Dict<int, int> d;
  (void)d;
}
