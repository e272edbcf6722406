// tvm/ffi/container/map.h alone gives the names of the header map.
#include <tvm/ffi/container/map.h>

void HeaderMap_tvm_ffi_container_map() {
  tvm::ffi::Map<int, int> m;
  (void)m;
}
