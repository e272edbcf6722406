// tvm/ffi/device.h alone gives the names of the header map.
#include <tvm/ffi/device.h>

void HeaderMap_tvm_ffi_device() { static_assert(tvm::ffi::TypeTraits<DLDevice>::convert_enabled); }
