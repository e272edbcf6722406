// tvm/ffi/container/tensor.h alone gives the names of the header map.
#include <tvm/ffi/container/tensor.h>

void HeaderMap_tvm_ffi_container_tensor() {
  (void)sizeof(tvm::ffi::Tensor);
  (void)sizeof(tvm::ffi::TensorView);
  (void)sizeof(tvm::ffi::Shape);
  (void)sizeof(tvm::ffi::Array<int>);
  (void)sizeof(tvm::ffi::Function);
  (void)sizeof(tvm::ffi::Optional<int>);
}
