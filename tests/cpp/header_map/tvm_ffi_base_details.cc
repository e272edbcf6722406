// tvm/ffi/base_details.h alone gives the names of the header map.
#include <tvm/ffi/base_details.h>

void HeaderMap_tvm_ffi_base_details() {
  tvm::ffi::detail::for_each([](size_t, int) {}, 1);
}
