/*
 * A user library for the environment-module tests (env_module_lib.so):
 * it exports a context symbol the loader fills in
 * (TVMFFIEnvModRegisterContextSymbol) and a function that finds another
 * function through its module's imports (TVMFFIEnvModLookupFromImports).
 */
#include <tvm/ffi/any.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/extra/c_env_api.h>
#include <tvm/ffi/function.h>

#include <cstdint>
#include <string>

extern "C" {
/*! \brief Set by the loader to the module of this library. */
TVM_FFI_DLL_EXPORT void* __tvm_ffi__library_ctx = nullptr;
/*! \brief A context symbol the host registers before loading this library. */
TVM_FFI_DLL_EXPORT void* __tvm_ffi_test_env_context = nullptr;
}

namespace env_module_lib {
namespace ffi = tvm::ffi;

/*! \return The value the loader wrote into the context symbol, as an integer. */
int64_t ContextSymbolValue() { return reinterpret_cast<intptr_t>(__tvm_ffi_test_env_context); }

/*! \return f(x) where f is found in this library's imports, or else in the global registry. */
int64_t CallImported(const std::string& name, int64_t x) {
  TVMFFIObjectHandle f = nullptr;
  TVM_FFI_CHECK_SAFE_CALL(TVMFFIEnvModLookupFromImports(__tvm_ffi__library_ctx, name.c_str(), &f));
  // The handle is borrowed: the runtime's cache keeps the function alive.
  TVMFFIAny arg;
  arg.type_index = kTVMFFIInt;
  arg.zero_padding = 0;
  arg.v_int64 = x;
  TVMFFIAny result;
  result.type_index = kTVMFFINone;
  result.zero_padding = 0;
  result.v_int64 = 0;
  TVM_FFI_CHECK_SAFE_CALL(TVMFFIFunctionCall(f, &arg, 1, &result));
  if (result.type_index != kTVMFFIInt) {
    TVM_FFI_THROW(TypeError) << "the imported function did not return an int";
  }
  return result.v_int64;
}

}  // namespace env_module_lib

TVM_FFI_DLL_EXPORT_TYPED_FUNC(context_symbol_value, env_module_lib::ContextSymbolValue);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(call_imported, env_module_lib::CallImported);
