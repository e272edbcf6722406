/*
 * The MISSING and KWARGS sentinel objects and their globals
 * ffi.GetInvalidObject / ffi.GetKwargsObject.
 */
#include "reflection_sentinels.h"

#include <tvm/ffi/function.h>
#include <tvm/ffi/memory.h>
#include <tvm/ffi/reflection/registry.h>

TVM_FFI_NAMESPACE_BEGIN
namespace detail {

const ObjectRef& InvalidObject() {
  static const ObjectRef* sentinel = new ObjectRef(make_object<Object>());
  return *sentinel;
}

const ObjectRef& KwargsObject() {
  static const ObjectRef* sentinel = new ObjectRef(make_object<Object>());
  return *sentinel;
}

}  // namespace detail

TVM_FFI_STATIC_INIT_BLOCK() {
  namespace refl = tvm::ffi::reflection;
  refl::GlobalDef()
      .def(
          "ffi.GetInvalidObject", []() { return detail::InvalidObject(); },
          "The MISSING sentinel object (always the same object).")
      .def(
          "ffi.GetKwargsObject", []() { return detail::KwargsObject(); },
          "The KWARGS sentinel object: in a call of __ffi_init__, the name/value pairs follow it.");
}

TVM_FFI_NAMESPACE_END
