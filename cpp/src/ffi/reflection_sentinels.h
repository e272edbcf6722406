/*
 * The two sentinel objects of reflection (internal): MISSING (ffi.GetInvalidObject,
 * "no value given") and KWARGS (ffi.GetKwargsObject, "keyword arguments follow"
 * in a call of a generated __ffi_init__). Both are plain ffi.Object instances
 * that are never freed, so they are compared by identity.
 */
#ifndef TVM_FFI_SRC_FFI_REFLECTION_SENTINELS_H_
#define TVM_FFI_SRC_FFI_REFLECTION_SENTINELS_H_

#include <tvm/ffi/base.h>
#include <tvm/ffi/object.h>

TVM_FFI_NAMESPACE_BEGIN
namespace detail {

/*! \brief The MISSING sentinel. */
const ObjectRef& InvalidObject();
/*! \brief The KWARGS sentinel. */
const ObjectRef& KwargsObject();

}  // namespace detail
TVM_FFI_NAMESPACE_END

#endif  // TVM_FFI_SRC_FFI_REFLECTION_SENTINELS_H_
