// tvm/ffi/c_api.h alone gives the names of the header map.
#include <tvm/ffi/c_api.h>

void HeaderMap_tvm_ffi_c_api() {
  TVMFFIAny cell{};
  TVMFFIObject* obj = nullptr;
  (void)cell;
  (void)obj;
  static_assert(kTVMFFIObjectRValueRef == 10);
}
