// tvm/ffi/optional.h alone gives the names of the header map.
#include <tvm/ffi/optional.h>

void HeaderMap_tvm_ffi_optional() {
  tvm::ffi::Optional<int> o = 1;
  (void)o;
  static_assert(sizeof(tvm::ffi::Optional<int>) == 16);
  static_assert(tvm::ffi::is_optional_type_v<tvm::ffi::Optional<int>>);
}
