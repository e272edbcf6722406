// tvm/ffi/container/map_base.h alone gives the names of the header map.
#include <tvm/ffi/container/map_base.h>

void HeaderMap_tvm_ffi_container_map_base() { (void)sizeof(tvm::ffi::Any); }
