// tvm/ffi/container/list.h alone gives the names of the header map.
#include <tvm/ffi/container/list.h>

void HeaderMap_tvm_ffi_container_list() {
  tvm::ffi::List<int> l;
  (void)l;
}
