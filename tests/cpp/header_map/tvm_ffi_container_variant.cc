// tvm/ffi/container/variant.h alone gives the names of the header map.
#include <tvm/ffi/container/variant.h>

void HeaderMap_tvm_ffi_container_variant() {
  (void)sizeof(tvm::ffi::Variant<int, tvm::ffi::String>);
}
