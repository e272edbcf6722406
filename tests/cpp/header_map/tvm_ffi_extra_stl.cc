// tvm/ffi/extra/stl.h alone gives the names of the header map.
#include <tvm/ffi/extra/stl.h>
#include <vector>

void HeaderMap_tvm_ffi_extra_stl() {
  static_assert(tvm::ffi::TypeTraits<std::vector<int>>::convert_enabled);
}
