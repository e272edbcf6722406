/*
 * Runtime functions of Shape: the global "ffi.Shape" (ints... -> Shape) that
 * language bindings call to build shapes.
 */
#include <tvm/ffi/any.h>
#include <tvm/ffi/container/shape.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/reflection/registry.h>

#include <cstdint>
#include <vector>

TVM_FFI_NAMESPACE_BEGIN
namespace {

void MakeShape(const AnyView* args, int32_t num_args, Any* rv) {
  std::vector<int64_t> extents(static_cast<size_t>(num_args));
  for (int32_t i = 0; i < num_args; ++i) {
    std::optional<int64_t> v = args[i].as<int64_t>();
    if (!v.has_value()) {
      TVM_FFI_THROW(TypeError) << "ffi.Shape: argument #" << i << " must be an `int`, got `"
                               << detail::AnyTypeStr(detail::AnyUnsafe::GetTVMFFIAny(args[i]))
                               << "`";
    }
    extents[i] = *v;
  }
  *rv = Shape(extents);
}

TVM_FFI_STATIC_INIT_BLOCK() {
  reflection::GlobalDef().def_packed("ffi.Shape", MakeShape,
                                     "Build a Shape from its int extents: ffi.Shape(2, 3).");
}

}  // namespace
TVM_FFI_NAMESPACE_END
