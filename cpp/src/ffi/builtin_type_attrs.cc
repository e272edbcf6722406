/*
 * Type attributes of built-in object types: __ffi_convert__ of ffi.Shape,
 * which the Python type converter runs (and reports when it fails) before
 * rejecting a value for a Shape field or parameter.
 */
#include <tvm/ffi/container/shape.h>
#include <tvm/ffi/reflection/registry.h>

TVM_FFI_NAMESPACE_BEGIN

TVM_FFI_STATIC_INIT_BLOCK() {
  namespace refl = tvm::ffi::reflection;
  refl::TypeAttrDef<ShapeObj>().def_convert<Shape>();
}

TVM_FFI_NAMESPACE_END
