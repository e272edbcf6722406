/*
 * Modules of the runtime: the out-of-line members of ModuleObj and Module,
 * shared libraries loaded with dlopen (the builtin loader
 * "ffi.Module.load_from_file.so", which also unpacks the modules a library
 * embeds in __tvm_ffi__library_bin), the system library (symbols registered
 * with TVMFFIEnvModRegisterSystemLibSymbol), context symbols, the lookup of
 * functions from a library's imports, and the module globals of
 * docs/runtime_globals.md.
 *
 * Lifetime: a loaded library is never unloaded (no dlclose). Its Functions
 * therefore outlive the Module handle, and so does every other object its
 * code allocated - strings, arrays, closures and errors returned from it carry
 * deleters that point into the library, and unmapping the code while one of
 * them is still alive would crash when it is released. Loading the same path
 * again reuses the mapping.
 */
#include "module_internal.h"

#include <tvm/ffi/any.h>
#include <tvm/ffi/c_api.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/extra/module.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/memory.h>
#include <tvm/ffi/reflection/registry.h>
#include <tvm/ffi/string.h>

#include <dlfcn.h>

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

TVM_FFI_NAMESPACE_BEGIN

// ---------------------------------------------------------------------------
// The lookup from a library's imports and the context symbols
// ---------------------------------------------------------------------------

namespace {
/*! \brief Guards every module's import_lookup_cache_ (lookups are rare). */
std::mutex& ImportCacheMutex() {
  static std::mutex* mutex = new std::mutex();
  return *mutex;
}
}  // namespace

/*! \brief Runtime-internal access to the import lookup cache. */
struct ModuleObj::InternalUnsafe {
  static TVMFFIObjectHandle GetFunctionFromImports(ModuleObj* mod, const char* func_name) {
    String name(func_name);
    {
      std::lock_guard<std::mutex> lock(ImportCacheMutex());
      Optional<Function> cached = mod->import_lookup_cache_.Get(name);
      if (cached.has_value()) return detail::ObjectUnsafe::GetHeader(cached.value().get());
    }
    // Looked up outside the lock: a lookup may call into library code.
    Optional<Function> found;
    for (const Module& m : detail::ModuleImportList(mod)) {
      found = m->GetFunction(name, true);
      if (found.has_value()) break;
    }
    if (!found.has_value()) found = Function::GetGlobal(std::string_view(func_name));
    if (!found.has_value()) {
      TVM_FFI_THROW(RuntimeError) << "Cannot find function " << func_name
                                  << " in the imported modules or global registry.";
    }
    std::lock_guard<std::mutex> lock(ImportCacheMutex());
    // A concurrent lookup may have cached one first: hand out that one.
    Optional<Function> cached = mod->import_lookup_cache_.Get(name);
    if (!cached.has_value()) {
      mod->import_lookup_cache_.Set(name, found.value());
      cached = found;
    }
    return detail::ObjectUnsafe::GetHeader(cached.value().get());
  }
};

namespace {
/*! \brief Symbols handed to every library loaded from now on, in registration order. */
struct ContextSymbolTable {
  std::mutex mutex;
  std::vector<std::pair<std::string, void*>> entries;

  static ContextSymbolTable& Global() {
    static ContextSymbolTable* inst = new ContextSymbolTable();
    return *inst;
  }
  std::vector<std::pair<std::string, void*>> Snapshot() {
    std::lock_guard<std::mutex> lock(mutex);
    return entries;
  }
};

/*! \brief Call callback(name, symbol) for each registered context symbol, in order. */
void VisitContextSymbolTable(const Function& callback) {
  for (const auto& [name, symbol] : ContextSymbolTable::Global().Snapshot()) {
    callback(String(name), symbol);
  }
}
}  // namespace

namespace detail {

void ModuleRegisterContextSymbol(const char* name, void* symbol) {
  if (name == nullptr || name[0] == '\0') {
    TVM_FFI_THROW(ValueError) << "TVMFFIEnvModRegisterContextSymbol: name must not be empty";
  }
  ContextSymbolTable& table = ContextSymbolTable::Global();
  std::lock_guard<std::mutex> lock(table.mutex);
  for (auto& entry : table.entries) {
    if (entry.first == name) {
      entry.second = symbol;
      return;
    }
  }
  table.entries.emplace_back(name, symbol);
}

TVMFFIObjectHandle ModuleLookupFromImports(void* library_ctx, const char* func_name) {
  if (library_ctx == nullptr) {
    TVM_FFI_THROW(ValueError) << "TVMFFIEnvModLookupFromImports: library_ctx is NULL (the "
                                 "library was not loaded as a module)";
  }
  if (func_name == nullptr) {
    TVM_FFI_THROW(ValueError) << "TVMFFIEnvModLookupFromImports: func_name is NULL";
  }
  return ModuleObj::InternalUnsafe::GetFunctionFromImports(static_cast<ModuleObj*>(library_ctx),
                                                           func_name);
}

namespace {
ModuleObj* AsModule(void* self) { return static_cast<ModuleObj*>(self); }
const String& AsString(const void* ref) { return *static_cast<const String*>(ref); }
void MoveOptionalString(Optional<String> value, TVMFFIAny* out) {
  Any any = value.has_value() ? Any(std::move(value.value())) : Any();
  *out = detail::AnyUnsafe::MoveAnyToTVMFFIAny(std::move(any));
}
}  // namespace

// Qualified calls (ModuleObj::X) below: the caller is the other
// implementation's out-of-line member, reached from a subclass's vtable or a
// non-virtual call; a virtual call would come straight back.
void ModuleAbiImportModule(void* self, const void* other_module) {
  AsModule(self)->ModuleObj::ImportModule(*static_cast<const Module*>(other_module));
}
void ModuleAbiClearImports(void* self) { AsModule(self)->ModuleObj::ClearImports(); }
TVMFFIObjectHandle ModuleAbiGetFunction(void* self, const void* name, bool query_imports) {
  Optional<Function> f = AsModule(self)->GetFunction(AsString(name), query_imports);
  if (!f.has_value()) return nullptr;
  Function value = f.value();
  return ObjectUnsafe::MoveObjectRefToHandle(std::move(value));
}
bool ModuleAbiImplementsFunction(void* self, const void* name, bool query_imports) {
  return AsModule(self)->ImplementsFunction(AsString(name), query_imports);
}
void ModuleAbiGetFunctionDoc(void* self, const void* name, bool query_imports, TVMFFIAny* out) {
  MoveOptionalString(AsModule(self)->GetFunctionDoc(AsString(name), query_imports), out);
}
void ModuleAbiGetFunctionMetadata(void* self, const void* name, bool query_imports,
                                  TVMFFIAny* out) {
  MoveOptionalString(AsModule(self)->GetFunctionMetadata(AsString(name), query_imports), out);
}
TVMFFIObjectHandle ModuleAbiLoadFromFile(const void* file_name) {
  return ObjectUnsafe::MoveObjectRefToHandle(Module::LoadFromFile(AsString(file_name)));
}
void ModuleAbiVisitContextSymbols(const void* callback) {
  // A TypedFunction is one Function handle.
  VisitContextSymbolTable(*static_cast<const Function*>(callback));
}
TVMFFIObjectHandle ModuleAbiEmptyArray() {
  return ObjectUnsafe::MoveObjectRefToHandle(Array<String>());
}
void ModuleAbiThrowUnsupported(const void* self, const char* what) {
  TVM_FFI_THROW(RuntimeError) << "Module[" << static_cast<const ModuleObj*>(self)->kind()
                              << "] does not support " << what;
}

}  // namespace detail

// ---------------------------------------------------------------------------
// Library and system-library modules
// ---------------------------------------------------------------------------

namespace {

/*! \brief A Function over an exported safe-call symbol. */
class SymbolFunctionObj : public FunctionObj {
 public:
  explicit SymbolFunctionObj(TVMFFISafeCallType symbol) : symbol_(symbol) {
    safe_call = Trampoline;
  }

 private:
  // Exported symbols receive NULL as their handle.
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
  detail::SetNone(&result);
  if (fn(nullptr, nullptr, 0, &result) != 0) {
    throw detail::MoveFromRaised(__FILE__, __LINE__, TVM_FFI_FUNC_SIG);
  }
  Any owned = detail::AnyUnsafe::MoveTVMFFIAnyToAny(&result);
  if (owned.is_none()) return std::nullopt;
  std::optional<std::string> text = owned.try_cast<std::string>();
  if (!text.has_value()) {
    TVM_FFI_THROW(TypeError) << what << " returned `"
                             << detail::AnyTypeStr(detail::AnyUnsafe::GetTVMFFIAny(owned))
                             << "`, expected `str`";
  }
  return String(*text);
}

/*!
 * \brief The functions of one symbol source, made once per name: repeated
 *  lookups return the same Function.
 */
class FunctionCache {
 public:
  template <typename FLookup>
  Optional<Function> Get(const String& name, FLookup lookup) {
    std::string key(name);
    {
      std::lock_guard<std::mutex> lock(mutex_);
      auto it = cache_.find(key);
      if (it != cache_.end()) return it->second;
    }
    void* symbol = lookup(key);
    if (symbol == nullptr) return std::nullopt;
    Function made(make_object<SymbolFunctionObj>(reinterpret_cast<TVMFFISafeCallType>(symbol)));
    std::lock_guard<std::mutex> lock(mutex_);
    return cache_.emplace(std::move(key), std::move(made)).first->second;
  }

 private:
  std::mutex mutex_;
  std::unordered_map<std::string, Function> cache_;
};

/*! \brief A module over a shared library loaded with dlopen (kept loaded, see above). */
class LibraryModuleObj : public ModuleObj {
 public:
  LibraryModuleObj(void* handle, std::string path) : handle_(handle), path_(std::move(path)) {}
  ~LibraryModuleObj() {
    // The library outlives this module: it must not keep a pointer to a
    // destroyed one.
    if (void** ctx = static_cast<void**>(Symbol(symbol::tvm_ffi_library_ctx))) {
      if (*ctx == static_cast<ModuleObj*>(this)) *ctx = nullptr;
    }
  }

  const char* kind() const final { return "library"; }
  int GetPropertyMask() const final { return Module::kBinarySerializable | Module::kRunnable; }

  Optional<Function> GetFunction(const String& name) final {
    return functions_.Get(
        name, [this](const std::string& n) { return Symbol(symbol::tvm_ffi_symbol_prefix + n); });
  }
  bool ImplementsFunction(const String& name) final {
    return Symbol(symbol::tvm_ffi_symbol_prefix + std::string(name)) != nullptr;
  }
  Optional<String> GetFunctionMetadata(const String& name) final {
    std::string sym = symbol::tvm_ffi_metadata_prefix + std::string(name);
    return CallStringSymbol(Symbol(sym), sym + " of \"" + path_ + "\"");
  }
  Optional<String> GetFunctionDoc(const String& name) final {
    std::string sym = symbol::tvm_ffi_doc_prefix + std::string(name);
    return CallStringSymbol(Symbol(sym), sym + " of \"" + path_ + "\"");
  }

  /*!
   * \brief Write the context symbols into the library's same-named void*
   *  variables, and this module into its library context variable.
   */
  /*! \brief The library's embedded module blob (__tvm_ffi__library_bin), or NULL. */
  const char* EmbeddedBlob() const {
    return static_cast<const char*>(Symbol(symbol::tvm_ffi_library_bin));
  }
  const std::string& path() const { return path_; }

  void InitContext() {
    for (const auto& [name, value] : ContextSymbolTable::Global().Snapshot()) {
      if (void** slot = static_cast<void**>(Symbol(name))) *slot = value;
    }
    if (void** ctx = static_cast<void**>(Symbol(symbol::tvm_ffi_library_ctx))) {
      *ctx = static_cast<ModuleObj*>(this);
    }
  }

 private:
  void* Symbol(const std::string& name) const { return dlsym(handle_, name.c_str()); }

  void* handle_;
  std::string path_;
  FunctionCache functions_;
};

/*! \brief The system library: symbols registered at startup, looked up by prefix. */
class SystemLibModuleObj : public ModuleObj {
 public:
  explicit SystemLibModuleObj(std::string prefix) : prefix_(std::move(prefix)) {}

  // The system library is a library linked into the process: it reports the
  // same kind and properties as a loaded one.
  const char* kind() const final { return "library"; }
  int GetPropertyMask() const final { return Module::kBinarySerializable | Module::kRunnable; }

  Optional<Function> GetFunction(const String& name) final {
    return functions_.Get(
        name, [this](const std::string& n) { return Find(symbol::tvm_ffi_symbol_prefix, n); });
  }
  bool ImplementsFunction(const String& name) final {
    return Find(symbol::tvm_ffi_symbol_prefix, std::string(name)) != nullptr;
  }
  Optional<String> GetFunctionMetadata(const String& name) final {
    return CallStringSymbol(
        Find(symbol::tvm_ffi_metadata_prefix, std::string(name)),
        symbol::tvm_ffi_metadata_prefix + std::string(name) + " of the system library");
  }
  Optional<String> GetFunctionDoc(const String& name) final {
    return CallStringSymbol(
        Find(symbol::tvm_ffi_doc_prefix, std::string(name)),
        symbol::tvm_ffi_doc_prefix + std::string(name) + " of the system library");
  }

 private:
  /*! \brief <kind><prefix><name> first, then <kind><name>. */
  void* Find(const char* kind_prefix, const std::string& name) const {
    if (!prefix_.empty()) {
      if (void* s = Lookup(kind_prefix + prefix_ + name)) return s;
    }
    return Lookup(kind_prefix + name);
  }
  static void* Lookup(const std::string& symbol) {
    void* out = nullptr;
    TVM_FFI_CHECK_SAFE_CALL(TVMFFIEnvModLookupSystemLibSymbol(symbol.c_str(), &out));
    return out;
  }
  std::string prefix_;
  FunctionCache functions_;
};

/*!
 * \brief Reader of the embedded module blob of a library: little-endian
 *  uint64 counts, strings and byte strings as a uint64 length plus the bytes,
 *  uint64 vectors as a length plus the elements. Every read is bounds-checked.
 */
class BlobReader {
 public:
  BlobReader(const char* data, uint64_t size, const std::string& path)
      : data_(data), left_(size), path_(path) {}

  uint64_t U64() {
    const char* p = Take(8, "a count");
    uint64_t v = 0;
    for (int i = 0; i < 8; ++i) {
      v |= static_cast<uint64_t>(static_cast<unsigned char>(p[i])) << (8 * i);
    }
    return v;
  }
  std::string Str(const char* what) {
    uint64_t n = U64();
    return std::string(Take(n, what), n);
  }
  std::vector<uint64_t> U64Vector(const char* what) {
    uint64_t n = U64();
    if (n > left_ / 8) Fail(what);
    std::vector<uint64_t> out(n);
    for (uint64_t& v : out) v = U64();
    return out;
  }
  [[noreturn]] void Fail(const std::string& what) const {
    Malformed("truncated while reading " + what);
  }
  /*! \brief Throw the error of a blob whose content (problem) is malformed. */
  [[noreturn]] void Malformed(const std::string& problem) const {
    TVM_FFI_THROW(RuntimeError) << "Malformed " << symbol::tvm_ffi_library_bin << " in " << path_
                                << ": " << problem;
  }

 private:
  const char* Take(uint64_t n, const char* what) {
    if (n > left_) Fail(what);
    const char* p = data_;
    data_ += n;
    left_ -= n;
    return p;
  }
  const char* data_;
  uint64_t left_;
  const std::string& path_;
};

/*!
 * \brief The module a library with an embedded blob stands for. After its
 *  uint64 byte count the blob holds the import tree as two uint64 vectors in
 *  CSR form (row pointers, then child indices: module i imports
 *  child[indptr[i] .. indptr[i+1])), then, for each of the len(indptr) - 1
 *  modules in index order, its type key and, unless the key is "_lib" (the
 *  library itself), a payload that the global
 *  "ffi.Module.load_from_bytes.<key>" turns into the module. Module 0 is the
 *  root that loading the library returns.
 */
Module ProcessLibraryBlob(const char* blob, const Module& lib, const std::string& path) {
  BlobReader header(blob, 8, path);
  uint64_t nbytes = header.U64();
  BlobReader in(blob + 8, nbytes, path);
  std::vector<uint64_t> row_ptr = in.U64Vector("the import tree");
  std::vector<uint64_t> child_indices = in.U64Vector("the import tree");
  if (row_ptr.empty()) in.Malformed("the import tree has no row pointers");
  uint64_t count = row_ptr.size() - 1;
  std::vector<Module> modules;
  modules.reserve(count);
  for (uint64_t i = 0; i < count; ++i) {
    std::string key = in.Str("a module type key");
    if (key == "_lib") {
      modules.push_back(lib);
      continue;
    }
    std::string payload = in.Str("a module payload");
    std::string loader_name = "ffi.Module.load_from_bytes." + key;
    Optional<Function> loader = Function::GetGlobal(loader_name);
    if (!loader.has_value()) {
      TVM_FFI_THROW(RuntimeError) << "Library " << path << " embeds a module of kind `" << key
                                  << "`, but its loader (" << loader_name
                                  << ") is not registered in the global registry.";
    }
    modules.push_back(loader.value()(Bytes(payload.data(), payload.size())).cast<Module>());
  }
  for (uint64_t i = 0; i < count; ++i) {
    if (row_ptr[i] > row_ptr[i + 1] || row_ptr[i + 1] > child_indices.size()) {
      in.Malformed("bad import tree row " + std::to_string(i));
    }
    for (uint64_t j = row_ptr[i]; j < row_ptr[i + 1]; ++j) {
      if (child_indices[j] >= count) {
        in.Malformed("import of module " + std::to_string(child_indices[j]) + " of " +
                     std::to_string(count));
      }
      modules[i]->ImportModule(modules[child_indices[j]]);
    }
  }
  return modules.empty() ? lib : modules[0];
}

Module LoadSharedLibrary(const std::string& path) {
  if (path.empty()) {
    TVM_FFI_THROW(ValueError) << "ffi.Module.load_from_file.so: the path is empty";
  }
  detail::CheckSharedLibraryFile(path);
  // Clear any stale message so the one read below belongs to this call.
  dlerror();
  void* handle = dlopen(path.c_str(), RTLD_LAZY | RTLD_LOCAL);
  if (handle == nullptr) {
    const char* msg = dlerror();
    TVM_FFI_THROW(RuntimeError) << "Failed to load dynamic shared library " << path << " "
                                << (msg ? msg : "unknown dlopen error");
  }
  ObjectPtr<LibraryModuleObj> obj = make_object<LibraryModuleObj>(handle, path);
  obj->InitContext();
  const char* blob = obj->EmbeddedBlob();
  Module lib(ObjectPtr<ModuleObj>(std::move(obj)));
  if (blob != nullptr) return ProcessLibraryBlob(blob, lib, path);
  return lib;
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

/*!
 * \brief Modules kept alive for the rest of the process (load_module's
 *  keep_module_alive), with the number of times each was added.
 */
struct ModuleGlobals {
  std::mutex mutex;
  std::unordered_map<const ModuleObj*, std::pair<Module, int64_t>> entries;

  static ModuleGlobals& Global() {
    static ModuleGlobals* inst = new ModuleGlobals();
    return *inst;
  }
};

TVM_FFI_STATIC_INIT_BLOCK() {
  namespace refl = tvm::ffi::reflection;
  // Modules are made by loaders and C++ subclasses, never derived from by reflected types.
  refl::TypeAttrDef<ModuleObj>().attr(refl::type_attr::kTypeFinal, true);
  refl::GlobalDef()
      .def(
          "ffi.Module.load_from_file.so",
          [](const String& path, const String& format) { return LoadSharedLibrary(path); },
          "Load a shared library exporting __tvm_ffi_<name> functions as a Module.")
      .def(
          "ffi.ModuleLoadFromFile", [](const String& path) { return Module::LoadFromFile(path); },
          "Load a module with the loader registered for the file's extension.")
      .def(
          "ffi.ModuleGetFunction",
          [](Module mod, const String& name, bool query_imports) {
            return mod->GetFunction(name, query_imports);
          },
          "The function name of a module, or None.")
      .def(
          "ffi.ModuleImplementsFunction",
          [](Module mod, const String& name, bool query_imports) {
            return mod->ImplementsFunction(name, query_imports);
          },
          "Whether a module (or, with query_imports, one of its imports) implements name.")
      .def(
          "ffi.ModuleGetFunctionMetadata",
          [](Module mod, const String& name, bool query_imports) {
            return mod->GetFunctionMetadata(name, query_imports);
          },
          "The metadata JSON of a module function, or None.")
      .def(
          "ffi.ModuleGetFunctionDoc",
          [](Module mod, const String& name, bool query_imports) {
            return mod->GetFunctionDoc(name, query_imports);
          },
          "The doc string of a module function, or None.")
      .def(
          "ffi.ModuleGetPropertyMask", [](Module mod) { return mod->GetPropertyMask(); },
          "The property bits of a module (Module::ModulePropertyMask).")
      .def(
          "ffi.ModuleInspectSource",
          [](Module mod, const String& format) { return mod->InspectSource(format); },
          "The source of a module in format, or \"\".")
      .def(
          "ffi.ModuleGetKind", [](Module mod) { return String(mod->kind()); },
          "The kind of a module, e.g. \"library\".")
      .def(
          "ffi.ModuleGetWriteFormats", [](Module mod) { return mod->GetWriteFormats(); },
          "The formats ffi.ModuleWriteToFile accepts for a module.")
      .def(
          "ffi.ModuleWriteToFile",
          [](Module mod, const String& file, const String& format) {
            mod->WriteToFile(file, format);
          },
          "Write a module to file in format.")
      .def(
          "ffi.ModuleImportModule", [](Module mod, Module other) { mod->ImportModule(other); },
          "Append other to the imports of mod.")
      .def(
          "ffi.ModuleVisitContextSymbols",
          [](const Function& callback) { VisitContextSymbolTable(callback); },
          "Call callback(name, symbol) for each symbol registered with "
          "TVMFFIEnvModRegisterContextSymbol (Module::VisitContextSymbols).")
      .def(
          "ffi.ModuleGetImports", [](Module mod) { return mod->imports(); },
          "The imported modules of mod (an Array of Module).")
      .def(
          "ffi.ModuleClearImports", [](Module mod) { mod->ClearImports(); },
          "Remove every import of mod.")
      .def(
          "ffi.ModuleGlobalsAdd",
          [](Module mod) {
            ModuleGlobals& g = ModuleGlobals::Global();
            std::lock_guard<std::mutex> lock(g.mutex);
            auto it = g.entries.find(mod.get());
            if (it == g.entries.end()) {
              g.entries.emplace(mod.get(), std::make_pair(mod, int64_t{1}));
            } else {
              ++it->second.second;
            }
          },
          "Keep a module alive for the rest of the process (counted).")
      .def(
          "ffi.ModuleGlobalsRemove",
          [](Module mod) {
            ModuleGlobals& g = ModuleGlobals::Global();
            std::lock_guard<std::mutex> lock(g.mutex);
            auto it = g.entries.find(mod.get());
            if (it != g.entries.end() && --it->second.second == 0) g.entries.erase(it);
          },
          "Undo one ffi.ModuleGlobalsAdd of a module (no-op when it was not added).")
      .def_packed(
          "ffi.SystemLib",
          [](const AnyView* args, int32_t num_args, Any* rv) {
            if (num_args > 1) {
              TVM_FFI_THROW(TypeError)
                  << "ffi.SystemLib takes at most 1 argument (prefix), got " << num_args;
            }
            std::string prefix;
            if (num_args == 1 && !args[0].is_none()) {
              std::optional<std::string> p = args[0].try_cast<std::string>();
              if (!p.has_value()) {
                TVM_FFI_THROW(TypeError)
                    << "ffi.SystemLib: prefix must be `str`, got `"
                    << detail::AnyTypeStr(detail::AnyUnsafe::GetTVMFFIAny(args[0])) << "`";
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
