// tvm/ffi/reflection/native_function.h alone gives the names of the header map.
#include <tvm/ffi/reflection/native_function.h>

void HeaderMap_tvm_ffi_reflection_native_function() {
  namespace refl = tvm::ffi::reflection;
  (void)sizeof(refl::NativeFunctionView<int64_t(const tvm::ffi::Any&)>);
  (void)sizeof(refl::NativeFunction<bool(tvm::ffi::AnyView, tvm::ffi::AnyView)>);
}
