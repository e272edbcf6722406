/*
 * Macros of the extra (non-core) C++ API of libtvm_ffi.
 */
#ifndef TVM_FFI_EXTRA_BASE_H_
#define TVM_FFI_EXTRA_BASE_H_

#include <tvm/ffi/c_api.h>

/*! \brief Marks the C++ functions of the extra API that libtvm_ffi defines. */
#ifndef TVM_FFI_EXTRA_CXX_API
#define TVM_FFI_EXTRA_CXX_API TVM_FFI_DLL
#endif

#endif  // TVM_FFI_EXTRA_BASE_H_
