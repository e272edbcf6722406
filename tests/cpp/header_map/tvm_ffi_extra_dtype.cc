// tvm/ffi/extra/dtype.h alone gives the names of the header map.
#include <tvm/ffi/extra/dtype.h>

void HeaderMap_tvm_ffi_extra_dtype() {
  static_assert(tvm::ffi::dtype_trait<float>::value.bits == 32);
}
