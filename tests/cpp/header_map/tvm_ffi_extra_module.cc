// tvm/ffi/extra/module.h alone gives the names of the header map.
#include <tvm/ffi/extra/module.h>

void HeaderMap_tvm_ffi_extra_module() {
  (void)sizeof(tvm::ffi::Module);
  (void)sizeof(tvm::ffi::ModuleObj);
}
