/*
 * Private interface of the runtime between the environment functions of
 * modules (env_module.cc) and the module loader: the context symbols
 * registered with TVMFFIEnvModRegisterContextSymbol (the loader writes each
 * one into a newly loaded library that exports a `void*` variable of that
 * name; Module::VisitContextSymbols lists them), and the per-module cache of
 * TVMFFIEnvModLookupFromImports, which a module must drop when it dies.
 */
#ifndef TVM_FFI_SRC_FFI_ENV_CONTEXT_SYMBOLS_H_
#define TVM_FFI_SRC_FFI_ENV_CONTEXT_SYMBOLS_H_

#include <tvm/ffi/base.h>

#include <string>
#include <utility>
#include <vector>

TVM_FFI_NAMESPACE_BEGIN
namespace details {

/*!
 * \return A snapshot of the registered (name, symbol) pairs in registration
 *  order; a name registered again keeps its place with the newer symbol.
 */
std::vector<std::pair<std::string, void*>> ListEnvContextSymbols();

/*!
 * \brief Drop the TVMFFIEnvModLookupFromImports cache of a module. Every module
 *  that can be a library context calls it from its destructor, so that a
 *  later module at the same address never sees stale entries.
 */
void ForgetImportLookups(const void* module);

}  // namespace details
TVM_FFI_NAMESPACE_END

#endif  // TVM_FFI_SRC_FFI_ENV_CONTEXT_SYMBOLS_H_
