// tvm/ffi/dtype.h alone gives the names of the header map.
#include <tvm/ffi/dtype.h>

void HeaderMap_tvm_ffi_dtype() {
  static_assert(tvm::ffi::TypeTraits<DLDataType>::convert_enabled);
  (void)&tvm::ffi::DLDataTypeToString;
}
