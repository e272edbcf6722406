// tvm/ffi/function_details.h alone gives the names of the header map.
#include <tvm/ffi/function_details.h>

void HeaderMap_tvm_ffi_function_details() { (void)sizeof(tvm::ffi::Any); }
