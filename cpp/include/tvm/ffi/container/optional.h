/*
 * Optional<T> under the container include path; the type lives in
 * <tvm/ffi/optional.h>, so code written for either path compiles.
 */
#ifndef TVM_FFI_CONTAINER_OPTIONAL_H_
#define TVM_FFI_CONTAINER_OPTIONAL_H_
#include <tvm/ffi/optional.h>
#endif  // TVM_FFI_CONTAINER_OPTIONAL_H_
