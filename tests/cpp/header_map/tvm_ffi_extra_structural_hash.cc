// tvm/ffi/extra/structural_hash.h alone gives the names of the header map.
#include <tvm/ffi/extra/structural_hash.h>

void HeaderMap_tvm_ffi_extra_structural_hash() { (void)&tvm::ffi::StructuralHash::Hash; }
