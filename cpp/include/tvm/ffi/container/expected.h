/*
 * Expected<T> under the container include path; the type lives in
 * <tvm/ffi/expected.h>, so code written for either path compiles.
 */
#ifndef TVM_FFI_CONTAINER_EXPECTED_H_
#define TVM_FFI_CONTAINER_EXPECTED_H_
#include <tvm/ffi/expected.h>
#endif  // TVM_FFI_CONTAINER_EXPECTED_H_
