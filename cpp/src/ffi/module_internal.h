/*
 * The module side of the environment C API (TVMFFIEnvModRegisterContextSymbol,
 * TVMFFIEnvModLookupFromImports): implemented in module.cc, called by the C
 * entry points, which only add the error-to-return-code wrapping. Both throw
 * Error on bad input.
 */
#ifndef TVM_FFI_SRC_FFI_MODULE_INTERNAL_H_
#define TVM_FFI_SRC_FFI_MODULE_INTERNAL_H_

#include <tvm/ffi/base.h>
#include <tvm/ffi/c_api.h>

#include <string>

TVM_FFI_NAMESPACE_BEGIN
namespace detail {

/*!
 * \brief Record that every library loaded from now on gets symbol written into
 *  its exported void* variable name (when it has one). Registering a name
 *  again replaces its value; ValueError when name is NULL or empty.
 */
void ModuleRegisterContextSymbol(const char* name, void* symbol);

/*!
 * \brief The function func_name as seen by the library whose context is
 *  library_ctx (the ModuleObj* the loader wrote into __tvm_ffi__library_ctx):
 *  the module's imports recursively, then the global registry. The result is
 *  cached in the module and borrowed: the cache keeps it alive.
 *  RuntimeError "Cannot find function <name> in the imported modules or
 *  global registry." when neither has it; ValueError on NULL arguments.
 */
TVMFFIObjectHandle ModuleLookupFromImports(void* library_ctx, const char* func_name);

/*!
 * \brief Refuse, with a RuntimeError naming path, a 64-bit ELF file whose header,
 *  program header table or loadable segments run past its end (a truncated
 *  library, which dlopen would map and then fault on with SIGBUS). Other files
 *  pass unchecked, for dlopen to judge (library_file_check.cc).
 */
void CheckSharedLibraryFile(const std::string& path);

/*
 * Bridges for module_abi.cc, which defines the C++ entry points of the other
 * tvm-ffi implementation under their own mangled names and cannot include
 * our C++ headers (its class names would clash with ours). Arguments are raw:
 * self is a ModuleObj* (vptr address), a String/Module/TypedFunction
 * reference points at a value of that class (the layouts are identical);
 * results are owned handles (NULL = none) or owned TVMFFIAny cells.
 */
void ModuleAbiImportModule(void* self, const void* other_module);
void ModuleAbiClearImports(void* self);
TVMFFIObjectHandle ModuleAbiGetFunction(void* self, const void* name, bool query_imports);
bool ModuleAbiImplementsFunction(void* self, const void* name, bool query_imports);
void ModuleAbiGetFunctionDoc(void* self, const void* name, bool query_imports, TVMFFIAny* out);
void ModuleAbiGetFunctionMetadata(void* self, const void* name, bool query_imports, TVMFFIAny* out);
TVMFFIObjectHandle ModuleAbiLoadFromFile(const void* file_name);
void ModuleAbiVisitContextSymbols(const void* callback);
/*! \brief An empty Array (GetWriteFormats' default). */
TVMFFIObjectHandle ModuleAbiEmptyArray();
/*! \brief Throw RuntimeError "Module[<kind>] does not support <what>". */
[[noreturn]] void ModuleAbiThrowUnsupported(const void* self, const char* what);

}  // namespace detail
TVM_FFI_NAMESPACE_END

#endif  // TVM_FFI_SRC_FFI_MODULE_INTERNAL_H_
