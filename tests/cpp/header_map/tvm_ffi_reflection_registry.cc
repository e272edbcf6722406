// tvm/ffi/reflection/registry.h alone gives the names of the header map.
#include <tvm/ffi/reflection/registry.h>

void HeaderMap_tvm_ffi_reflection_registry() { (void)sizeof(tvm::ffi::Function); }
