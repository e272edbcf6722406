/*
 * Variant<Ts...> under the container include path; the type lives in
 * <tvm/ffi/variant.h>, so code written for either path compiles.
 */
#ifndef TVM_FFI_CONTAINER_VARIANT_H_
#define TVM_FFI_CONTAINER_VARIANT_H_
#include <tvm/ffi/variant.h>
#endif  // TVM_FFI_CONTAINER_VARIANT_H_
