// tvm/ffi/container/array.h alone gives the names of the header map.
#include <tvm/ffi/container/array.h>

void HeaderMap_tvm_ffi_container_array() {
  tvm::ffi::Array<int> a;
  (void)a;
  tvm::ffi::Optional<int> o;
  (void)o;
}
