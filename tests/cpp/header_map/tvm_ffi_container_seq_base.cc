// tvm/ffi/container/seq_base.h alone gives the names of the header map.
#include <tvm/ffi/container/seq_base.h>

void HeaderMap_tvm_ffi_container_seq_base() { (void)sizeof(tvm::ffi::Any); }
