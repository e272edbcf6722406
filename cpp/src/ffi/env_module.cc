/*
 * Environment functions that connect loaded libraries to modules:
 * context symbols (TVMFFIEnvModRegisterContextSymbol, written by the loader
 * into every library loaded afterwards) and the lookup of a library's
 * imported functions (TVMFFIEnvModLookupFromImports).
 *
 * The lookup cache is keyed by the module object; a module that can be a
 * library context drops its entry when it dies (ForgetImportLookups).
 * Tables are leaked singletons, usable from static destructors.
 */
#include "env_context_symbols.h"
#include "safe_invoke.h"
#include <tvm/ffi/c_api.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/extra/c_env_api.h>
#include <tvm/ffi/extra/module.h>
#include <tvm/ffi/function.h>

#include <mutex>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

TVM_FFI_NAMESPACE_BEGIN
namespace {

struct ContextSymbolTable {
  std::mutex mutex;
  std::vector<std::pair<std::string, void*>> symbols;

  static ContextSymbolTable& Global() {
    static ContextSymbolTable* inst = new ContextSymbolTable();
    return *inst;
  }
};

struct ImportLookupCache {
  using Entry = std::unordered_map<std::string, Function>;
  std::mutex mutex;
  std::unordered_map<const void*, Entry> entries;

  static ImportLookupCache& Global() {
    static ImportLookupCache* inst = new ImportLookupCache();
    return *inst;
  }
};

/*! \brief The first module among the imports (recursively) that has name. */
Optional<Function> FindInImports(const ModuleObj* mod, const String& name) {
  for (const Module& imported : mod->imports()) {
    Optional<Function> f = imported->GetFunction(name, true);
    if (f.has_value()) return f;
  }
  return std::nullopt;
}

TVMFFIObject* HandleOf(const Function& f) {
  return details::ObjectUnsafe::GetHeader(details::ObjectUnsafe::GetObjectPtr(f).get());
}

}  // namespace

namespace details {
std::vector<std::pair<std::string, void*>> ListEnvContextSymbols() {
  ContextSymbolTable& table = ContextSymbolTable::Global();
  std::lock_guard<std::mutex> lock(table.mutex);
  return table.symbols;
}

void ForgetImportLookups(const void* module) {
  ImportLookupCache::Entry dropped;
  ImportLookupCache& cache = ImportLookupCache::Global();
  std::lock_guard<std::mutex> lock(cache.mutex);
  auto it = cache.entries.find(module);
  if (it == cache.entries.end()) return;
  dropped = std::move(it->second);
  cache.entries.erase(it);
  // The functions are released after the lock (dropped is declared first).
}
}  // namespace details

TVM_FFI_NAMESPACE_END

using tvm::ffi::Error;
using tvm::ffi::details::SafeInvoke;

extern "C" {

TVM_FFI_DLL int TVMFFIEnvModRegisterContextSymbol(const char* name, void* symbol) {
  return SafeInvoke([&]() -> int {
    if (name == nullptr || name[0] == '\0') {
      throw Error("ValueError", "TVMFFIEnvModRegisterContextSymbol: name must not be empty");
    }
    tvm::ffi::ContextSymbolTable& table = tvm::ffi::ContextSymbolTable::Global();
    std::lock_guard<std::mutex> lock(table.mutex);
    for (auto& entry : table.symbols) {
      if (entry.first == name) {
        entry.second = symbol;
        return 0;
      }
    }
    table.symbols.emplace_back(name, symbol);
    return 0;
  });
}

TVM_FFI_DLL int TVMFFIEnvModLookupFromImports(TVMFFIObjectHandle library_ctx, const char* func_name,
                                              TVMFFIObjectHandle* out) {
  namespace ffi = tvm::ffi;
  return SafeInvoke([&]() -> int {
    if (library_ctx == nullptr || func_name == nullptr || out == nullptr) {
      throw Error("ValueError",
                  "TVMFFIEnvModLookupFromImports: library_ctx, func_name and out must not be NULL");
    }
    // The loader stores the module's object handle in the library's context symbol.
    const ffi::Object* obj = reinterpret_cast<const ffi::Object*>(library_ctx);
    if (!obj->IsInstance<ffi::ModuleObj>()) {
      throw Error("TypeError",
                  "TVMFFIEnvModLookupFromImports: library_ctx is not a Module but `" +
                      ffi::details::TypeIndexToUserStr(
                          static_cast<const TVMFFIObject*>(library_ctx)->type_index) +
                      "`");
    }
    const ffi::ModuleObj* mod = static_cast<const ffi::ModuleObj*>(obj);
    std::string name(func_name);
    ffi::ImportLookupCache& cache = ffi::ImportLookupCache::Global();
    {
      std::lock_guard<std::mutex> lock(cache.mutex);
      auto it = cache.entries.find(obj);
      if (it != cache.entries.end()) {
        auto fit = it->second.find(name);
        if (fit != it->second.end()) {
          *out = ffi::HandleOf(fit->second);
          return 0;
        }
      }
    }
    // Searched outside the lock: a lookup may call into libraries.
    ffi::Optional<ffi::Function> found = ffi::FindInImports(mod, ffi::String(name));
    if (!found.has_value()) found = ffi::Function::GetGlobal(name);
    if (!found.has_value()) {
      throw Error("RuntimeError", "Cannot find function " + name +
                                      " in the imported modules or global registry.");
    }
    {
      std::lock_guard<std::mutex> lock(cache.mutex);
      // A concurrent lookup may have stored the name first: every caller gets that one.
      auto fit = cache.entries[obj].emplace(name, *found).first;
      *out = ffi::HandleOf(fit->second);
    }
    return 0;
  });
}

}  // extern "C"
