// tvm/ffi/container/tuple.h alone gives the names of the header map.
#include <tvm/ffi/container/tuple.h>

void HeaderMap_tvm_ffi_container_tuple() { (void)sizeof(tvm::ffi::Tuple<int, float>); }
