/*
 * Private interface of the runtime: the context symbols registered with
 * TVMFFIEnvModRegisterContextSymbol, for the module loader (which writes
 * each one into a newly loaded library that exports a `void*` variable of
 * that name) and for Module::VisitContextSymbols.
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

}  // namespace details
TVM_FFI_NAMESPACE_END

#endif  // TVM_FFI_SRC_FFI_ENV_CONTEXT_SYMBOLS_H_
