/* The 0.1.14 spelling of base_detail.h. */
#ifndef TVM_FFI_BASE_DETAILS_H_
#define TVM_FFI_BASE_DETAILS_H_
#include <tvm/ffi/base_detail.h>
#endif  // TVM_FFI_BASE_DETAILS_H_
