/*
 * Modules of the runtime: shared libraries loaded with dlopen and the system
 * library (symbols registered with TVMFFIEnvModRegisterSystemLibSymbol), plus
 * the module globals of docs/runtime_globals.md (ffi.ModuleLoadFromFile,
 * ffi.ModuleGetFunction, ffi.ModuleImplementsFunction,
 * ffi.ModuleGetFunctionMetadata, ffi.ModuleGetFunctionDoc, ffi.SystemLib).
 *
 * Lifetime: a loaded library is never unloaded (no dlclose). Its Functions
 * therefore outlive the Module handle (abi.md §4), and so does every other
 * object its code allocated - strings, arrays, closures and errors returned
 * from it carry deleters that point into the library, and unmapping the code
 * while one of them is still alive would crash when it is released. (glibc
 * would keep most C++ libraries mapped anyway: their unique inline statics
 * mark them NODELETE.) Loading the same path again reuses the mapping.
 */
#include "env_context_symbols.h"
#include <tvm/ffi/any.h>
#include <tvm/ffi/c_api.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/extra/module.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/memory.h>
#include <tvm/ffi/reflection/registry.h>
#include <tvm/ffi/string.h>

#include <dlfcn.h>

#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <utility>

TVM_FFI_NAMESPACE_BEGIN
namespace {

constexpr const char* kFuncPrefix = "__tvm_ffi_";
constexpr const char* kMetadataPrefix = "__tvm_ffi__metadata_";
constexpr const char* kDocPrefix = "__tvm_ffi__doc_";
constexpr const char* kLibraryCtxSymbol = "__tvm_ffi__library_ctx";

/*! \brief A dlopen handle and the path it was loaded from (kept open, see above). */
class Library {
 public:
  Library(void* handle, std::string path) : handle_(handle), path_(std::move(path)) {}
  Library(const Library&) = delete;
  Library& operator=(const Library&) = delete;

  void* Symbol(const std::string& name) const { return dlsym(handle_, name.c_str()); }
  const std::string& path() const { return path_; }

 private:
  void* handle_;
  std::string path_;
};

/*! \brief A Function over an exported safe-call symbol. */
class SymbolFunctionObj : public FunctionObj {
 public:
  explicit SymbolFunctionObj(TVMFFISafeCallType symbol) : symbol_(symbol) {
    safe_call = Trampoline;
  }

 private:
  // Exported symbols receive NULL as their handle (abi.md §2.5).
  static int Trampoline(void* handle, const TVMFFIAny* args, int32_t num_args, TVMFFIAny* result) {
    const auto* f = static_cast<const SymbolFunctionObj*>(static_cast<Object*>(handle));
    return f->symbol_(nullptr, args, num_args, result);
  }
  TVMFFISafeCallType symbol_;
};

/*!
 * \brief Call an exported string-returning symbol (metadata/doc) and copy the
 *  result into a String owned by this runtime: the library's own object could
 *  outlive the library's code, which holds its deleter.
 */
Optional<String> CallStringSymbol(void* symbol, const std::string& what) {
  if (symbol == nullptr) return std::nullopt;
  auto fn = reinterpret_cast<TVMFFISafeCallType>(symbol);
  TVMFFIAny result;
  details::SetNone(&result);
  if (fn(nullptr, nullptr, 0, &result) != 0) {
    throw details::MoveFromRaised(__FILE__, __LINE__, TVM_FFI_FUNC_SIG);
  }
  Any owned = details::AnyUnsafe::MoveTVMFFIAnyToAny(&result);
  if (owned.is_none()) return std::nullopt;
  std::optional<std::string> text = owned.try_cast<std::string>();
  if (!text.has_value()) {
    TVM_FFI_THROW(TypeError) << what << " returned `"
                             << details::AnyTypeStr(details::AnyUnsafe::GetTVMFFIAny(owned))
                             << "`, expected `str`";
  }
  return String(*text);
}

/*! \brief A module over a shared library loaded with dlopen. */
class LibraryModuleObj : public ModuleObj {
 public:
  explicit LibraryModuleObj(std::shared_ptr<Library> lib) : lib_(std::move(lib)) {}
  ~LibraryModuleObj() {
    details::ForgetImportLookups(static_cast<const Object*>(this));
    // The library outlives this module: it must not keep a pointer to a
    // destroyed one.
    if (void** ctx = static_cast<void**>(lib_->Symbol(kLibraryCtxSymbol))) {
      if (*ctx == details::ObjectUnsafe::GetHeader(this)) *ctx = nullptr;
    }
  }

  const char* kind() const final { return "library"; }

  Optional<Function> LookupFunction(const String& name) const final {
    void* symbol = lib_->Symbol(kFuncPrefix + std::string(name));
    if (symbol == nullptr) return std::nullopt;
    return Function(
        make_object<SymbolFunctionObj>(reinterpret_cast<TVMFFISafeCallType>(symbol)));
  }
  Optional<String> GetFunctionMetadata(const String& name) const final {
    std::string sym = kMetadataPrefix + std::string(name);
    return CallStringSymbol(lib_->Symbol(sym), sym + " of \"" + lib_->path() + "\"");
  }
  Optional<String> GetFunctionDoc(const String& name) const final {
    std::string sym = kDocPrefix + std::string(name);
    return CallStringSymbol(lib_->Symbol(sym), sym + " of \"" + lib_->path() + "\"");
  }
  bool ImplementsFunction(const String& name) const final {
    return lib_->Symbol(kFuncPrefix + std::string(name)) != nullptr;
  }

  /*! \brief Point the library's context symbol, if it has one, at this module. */
  void SetLibraryContext() {
    if (void** ctx = static_cast<void**>(lib_->Symbol(kLibraryCtxSymbol))) {
      *ctx = details::ObjectUnsafe::GetHeader(this);
    }
  }

 private:
  std::shared_ptr<Library> lib_;
};

/*! \brief The system library: symbols registered at startup, looked up by prefix. */
class SystemLibModuleObj : public ModuleObj {
 public:
  explicit SystemLibModuleObj(std::string prefix) : prefix_(std::move(prefix)) {}

  const char* kind() const final { return "system_lib"; }

  Optional<Function> LookupFunction(const String& name) const final {
    void* symbol = Lookup(kFuncPrefix + prefix_ + std::string(name));
    if (symbol == nullptr) return std::nullopt;
    return Function(
        make_object<SymbolFunctionObj>(reinterpret_cast<TVMFFISafeCallType>(symbol)));
  }
  Optional<String> GetFunctionMetadata(const String& name) const final {
    std::string sym = kMetadataPrefix + prefix_ + std::string(name);
    return CallStringSymbol(Lookup(sym), sym + " of the system library");
  }
  Optional<String> GetFunctionDoc(const String& name) const final {
    std::string sym = kDocPrefix + prefix_ + std::string(name);
    return CallStringSymbol(Lookup(sym), sym + " of the system library");
  }
  bool ImplementsFunction(const String& name) const final {
    return Lookup(kFuncPrefix + prefix_ + std::string(name)) != nullptr;
  }

 private:
  static void* Lookup(const std::string& symbol) {
    void* out = nullptr;
    TVM_FFI_CHECK_SAFE_CALL(TVMFFIEnvModLookupSystemLibSymbol(symbol.c_str(), &out));
    return out;
  }
  std::string prefix_;
};

Module LoadFromFile(const std::string& path) {
  if (path.empty()) {
    TVM_FFI_THROW(ValueError) << "Module::LoadFromFile: the path is empty";
  }
  // Clear any stale message so the one read below belongs to this call.
  dlerror();
  void* handle = dlopen(path.c_str(), RTLD_LAZY | RTLD_LOCAL);
  if (handle == nullptr) {
    const char* msg = dlerror();
    TVM_FFI_THROW(RuntimeError) << "Failed to load module \"" << path
                                << "\": " << (msg ? msg : "unknown dlopen error");
  }
  auto lib = std::make_shared<Library>(handle, path);
  ObjectPtr<LibraryModuleObj> mod = make_object<LibraryModuleObj>(std::move(lib));
  mod->SetLibraryContext();
  // Context symbols registered by the host (TVMFFIEnvModRegisterContextSymbol).
  for (const auto& entry : details::ListEnvContextSymbols()) {
    if (void** slot = static_cast<void**>(dlsym(handle, entry.first.c_str()))) *slot = entry.second;
  }
  return Module(ObjectPtr<ModuleObj>(std::move(mod)));
}

Module SystemLib(const std::string& prefix) {
  // One module per prefix, kept for the life of the process like the symbols.
  static std::mutex* mutex = new std::mutex();
  static auto* table = new std::unordered_map<std::string, Module>();
  std::lock_guard<std::mutex> lock(*mutex);
  auto it = table->find(prefix);
  if (it != table->end()) return it->second;
  Module mod(ObjectPtr<ModuleObj>(make_object<SystemLibModuleObj>(prefix)));
  table->emplace(prefix, mod);
  return mod;
}

Module RequireModule(const Module& mod, const char* func) {
  if (!mod.defined()) {
    TVM_FFI_THROW(ValueError) << func << ": the module is None";
  }
  return mod;
}

TVM_FFI_STATIC_INIT_BLOCK() {
  namespace refl = tvm::ffi::reflection;
  refl::GlobalDef()
      .def(
          "ffi.ModuleLoadFromFile", [](const std::string& path) { return LoadFromFile(path); },
          "Load a shared library exporting __tvm_ffi_<name> functions as a Module.")
      .def(
          "ffi.ModuleGetFunction",
          [](const Module& mod, const String& name, bool query_imports) -> Optional<Function> {
            return RequireModule(mod, "ffi.ModuleGetFunction")->GetFunction(name, query_imports);
          },
          "The function name of a module, or None.")
      .def(
          "ffi.ModuleImplementsFunction",
          [](const Module& mod, const String& name) {
            return RequireModule(mod, "ffi.ModuleImplementsFunction")->ImplementsFunction(name);
          },
          "Whether a module implements function name.")
      .def(
          "ffi.ModuleGetFunctionMetadata",
          [](const Module& mod, const String& name) {
            return RequireModule(mod, "ffi.ModuleGetFunctionMetadata")->GetFunctionMetadata(name);
          },
          "The metadata JSON of a module function, or None.")
      .def(
          "ffi.ModuleGetFunctionDoc",
          [](const Module& mod, const String& name) {
            return RequireModule(mod, "ffi.ModuleGetFunctionDoc")->GetFunctionDoc(name);
          },
          "The doc string of a module function, or None.")
      .def_packed(
          "ffi.SystemLib",
          [](const AnyView* args, int32_t num_args, Any* rv) {
            if (num_args > 1) {
              TVM_FFI_THROW(TypeError) << "ffi.SystemLib takes at most 1 argument (prefix), got "
                                       << num_args;
            }
            std::string prefix;
            if (num_args == 1 && !args[0].is_none()) {
              std::optional<std::string> p = args[0].try_cast<std::string>();
              if (!p.has_value()) {
                TVM_FFI_THROW(TypeError) << "ffi.SystemLib: prefix must be `str`, got `"
                                         << details::AnyTypeStr(
                                                details::AnyUnsafe::GetTVMFFIAny(args[0]))
                                         << "`";
              }
              prefix = *p;
            }
            *rv = SystemLib(prefix);
          },
          "The system library module (functions registered with "
          "TVMFFIEnvModRegisterSystemLibSymbol), optionally with a symbol prefix.");
}

}  // namespace
TVM_FFI_NAMESPACE_END
