/* The 0.1.16 spelling of function_details.h (typed-function internals). */
#ifndef TVM_FFI_FUNCTION_DETAIL_H_
#define TVM_FFI_FUNCTION_DETAIL_H_
#include <tvm/ffi/function_details.h>
#endif  // TVM_FFI_FUNCTION_DETAIL_H_
