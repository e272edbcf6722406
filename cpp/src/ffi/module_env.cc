/*
 * The module entry points of the environment C API: context symbols written
 * into every library the loader opens, and the function lookup that code in
 * a loaded library runs through its library context. The work is done in
 * module.cc (module_internal.h); these only turn errors into return codes.
 */
#include "module_internal.h"
#include "safe_invoke.h"

#include <tvm/ffi/c_api.h>
#include <tvm/ffi/error.h>

extern "C" {

TVM_FFI_DLL int TVMFFIEnvModRegisterContextSymbol(const char* name, void* symbol) {
  return tvm::ffi::detail::SafeInvoke([&]() -> int {
    tvm::ffi::detail::ModuleRegisterContextSymbol(name, symbol);
    return 0;
  });
}

TVM_FFI_DLL int TVMFFIEnvModLookupFromImports(TVMFFIObjectHandle library_ctx, const char* func_name,
                                              TVMFFIObjectHandle* out) {
  return tvm::ffi::detail::SafeInvoke([&]() -> int {
    if (out == nullptr) {
      TVM_FFI_THROW(ValueError) << "TVMFFIEnvModLookupFromImports: out is NULL";
    }
    *out = tvm::ffi::detail::ModuleLookupFromImports(library_ctx, func_name);
    return 0;
  });
}

}  // extern "C"
