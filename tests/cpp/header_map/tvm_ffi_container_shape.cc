// tvm/ffi/container/shape.h alone gives the names of the header map.
#include <tvm/ffi/container/shape.h>

void HeaderMap_tvm_ffi_container_shape() {
  tvm::ffi::Shape s;
  (void)s;
}
