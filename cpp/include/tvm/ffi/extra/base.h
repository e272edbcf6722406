/*
 * Export macro of the C++ classes whose out-of-line members live in
 * libtvm_ffi (the "extra" API: modules). Define TVM_FFI_EXTRA_CXX_API
 * before including any header to override it.
 */
#ifndef TVM_FFI_EXTRA_BASE_H_
#define TVM_FFI_EXTRA_BASE_H_

#include <tvm/ffi/c_api.h>

#ifndef TVM_FFI_EXTRA_CXX_API
#define TVM_FFI_EXTRA_CXX_API TVM_FFI_DLL
#endif

#endif  // TVM_FFI_EXTRA_BASE_H_
