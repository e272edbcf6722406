/*
 * ffi::Module: a named collection of functions, such as a shared library
 * built against these headers or the process' system library.
 *
 *   Module mod = Module::LoadFromFile("build/libexport.so");
 *   Function f = mod->GetFunction("add_one").value();   // symbol __tvm_ffi_add_one
 *   Optional<String> schema = mod->GetFunctionMetadata("add_one");
 *   Optional<String> doc = mod->GetFunctionDoc("add_one");
 *   mod->ImportModule(other);
 *   mod->GetFunction("f", true);   // query_imports: other is searched too
 *
 * ModuleObj is subclassable: a subclass implements kind() and
 * GetFunction(name) and may override the other virtual members. Its
 * virtual-function order and data layout are part of the binary interface
 * (a module made by a library built against other tvm-ffi headers is
 * dispatched through the same slots), so neither may change: vptr at 0,
 * object header at 8, imports_ at 32, import_lookup_cache_ at 40.
 *
 * A loaded library stays loaded for the rest of the process, so its
 * functions - and any object its code made - may outlive the Module handle.
 *
 * Every member is defined in this header (nothing links to a C++ symbol of
 * the runtime), so a library built against these headers also runs on
 * another tvm-ffi runtime; the runtime is reached through global functions.
 */
#ifndef TVM_FFI_EXTRA_MODULE_H_
#define TVM_FFI_EXTRA_MODULE_H_

#include <tvm/ffi/any.h>
#include <tvm/ffi/base.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/map.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/extra/base.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/object.h>
#include <tvm/ffi/optional.h>
#include <tvm/ffi/string.h>

#include <string>
#include <unordered_set>
#include <utility>
#include <vector>

TVM_FFI_NAMESPACE_BEGIN

class Module;

/*!
 * \brief The module object (static type "ffi.Module", index 73).
 *
 * Every module, whatever its C++ class, has the type "ffi.Module": the type
 * is final for the type registry, subclasses only override the virtuals.
 * There is no virtual destructor: objects are destroyed through the deleter
 * make_object installs for the concrete class.
 */
class TVM_FFI_EXTRA_CXX_API ModuleObj : public Object {
 public:
  /*! \return A short name of the module kind, e.g. "library" (also the system library's kind). */
  virtual const char* kind() const = 0;
  /*! \return A bit mask of Module::ModulePropertyMask values. */
  virtual int GetPropertyMask() const { return 0; }
  /*! \return The function name implemented by this module itself (imports are not searched). */
  virtual Optional<Function> GetFunction(const String& name) = 0;
  /*! \return Whether this module itself implements function name. */
  virtual bool ImplementsFunction(const String& name) { return GetFunction(name).has_value(); }
  /*! \return The doc string of function name, if the module has one. */
  virtual Optional<String> GetFunctionDoc(const String& name) { return std::nullopt; }
  /*! \return The metadata JSON of function name ({"type_schema": ...}), if the module has it. */
  virtual Optional<String> GetFunctionMetadata(const String& name) { return std::nullopt; }
  /*! \brief Write the module to file in format (one of GetWriteFormats()). */
  virtual void WriteToFile(const String& file, const String& format) const {
    TVM_FFI_THROW(RuntimeError) << "Module[" << kind() << "] does not support WriteToFile";
  }
  /*! \return The formats WriteToFile accepts. */
  virtual Array<String> GetWriteFormats() const { return Array<String>(); }
  /*! \return The module serialized to bytes. */
  virtual Bytes SaveToBytes() const {
    TVM_FFI_THROW(RuntimeError) << "Module[" << kind() << "] does not support SaveToBytes";
  }
  /*! \return The source of the module in format, or "" when it has none. */
  virtual String InspectSource(const String& format) const { return String(); }
  /*!
   * \brief Append other to the imports. RuntimeError "Cyclic dependency
   *  detected during import" when other is this module or imports it.
   */
  virtual void ImportModule(const Module& other);
  /*! \brief Remove every import (not synchronized with concurrent lookups). */
  virtual void ClearImports();

  /*! \brief GetFunction(name), then (when query_imports) each import recursively, in order. */
  Optional<Function> GetFunction(const String& name, bool query_imports);
  /*! \brief ImplementsFunction(name), then (when query_imports) the imports. */
  bool ImplementsFunction(const String& name, bool query_imports);
  /*! \brief GetFunctionDoc(name), then (when query_imports) the imports. */
  Optional<String> GetFunctionDoc(const String& name, bool query_imports);
  /*! \brief GetFunctionMetadata(name), then (when query_imports) the imports. */
  Optional<String> GetFunctionMetadata(const String& name, bool query_imports);

  /*! \return The imported modules (each element is a Module). */
  const Array<Any>& imports() const { return imports_; }

  /*! \brief Runtime-internal access (function lookup from the imports). */
  struct InternalUnsafe;

  static constexpr int32_t _type_index = kTVMFFIModule;
  static constexpr bool _type_mutable = true;
  TVM_FFI_DECLARE_OBJECT_INFO_STATIC("ffi.Module", ModuleObj, Object);

 protected:
  /*! \brief The imported modules. */
  Array<Any> imports_;

 private:
  /*! \brief Functions found through the imports by the library-context lookup. */
  Map<String, Function> import_lookup_cache_;
};

/*! \brief A reference to a ModuleObj (never null). */
class Module : public ObjectRef {
 public:
  /*! \brief Properties a module reports through GetPropertyMask(). */
  enum ModulePropertyMask : int {
    /*! \brief SaveToBytes works and a loader can read the bytes back. */
    kBinarySerializable = 0b001,
    /*! \brief GetFunction returns functions that can run in this process. */
    kRunnable = 0b010,
    /*! \brief WriteToFile produces something a compiler can link into a library. */
    kCompilationExportable = 0b100,
  };

  /*! \brief Wrap a module object; InternalError when ptr is null. */
  explicit Module(const ObjectPtr<ModuleObj>& ptr) : ObjectRef(ptr) {
    if (ptr == nullptr) {
      TVM_FFI_THROW(InternalError) << "Module: cannot be constructed from a null object";
    }
  }
  explicit Module(::tvm::ffi::UnsafeInit tag) : ObjectRef(tag) {}
  TVM_FFI_DEFINE_DEFAULT_COPY_MOVE_AND_ASSIGN(Module)
  /*! \brief Modules are mutable (imports, caches): access is non-const. */
  ModuleObj* operator->() const {
    return const_cast<ModuleObj*>(static_cast<const ModuleObj*>(data_.get()));
  }
  ModuleObj* get() const { return operator->(); }
  static constexpr bool _type_is_nullable = false;
  using ContainerType = ModuleObj;

  /*!
   * \brief Load a module from file with the loader registered for its
   *  extension: the global function "ffi.Module.load_from_file.<ext>" called
   *  with (file_name, ext); ".dll", ".dylib" and ".dso" use the "so" loader.
   *  RuntimeError when the name has no extension or no loader is registered.
   */
  static Module LoadFromFile(const String& file_name);
  /*!
   * \brief Call callback(name, symbol) for every symbol registered with
   *  TVMFFIEnvModRegisterContextSymbol (the values the loader writes into the
   *  same-named variables of each library it loads), in registration order.
   */
  static void VisitContextSymbols(const TypedFunction<void(String, void*)>& callback);
  /*!
   * \brief The system library: functions linked into the process and
   *  registered as "__tvm_ffi_<prefix><name>" with TVMFFIEnvModRegisterSystemLibSymbol.
   */
  static Module SystemLib(const String& prefix = String()) {
    return Function::GetGlobalRequired("ffi.SystemLib")(prefix).cast<Module>();
  }
};

/*! \brief Symbol names a library exports for the module loader. */
namespace symbol {
/*! \brief Prefix of every exported function: __tvm_ffi_<name>. */
constexpr const char* tvm_ffi_symbol_prefix = "__tvm_ffi_";
/*! \brief The default entry function of a module. */
constexpr const char* tvm_ffi_main = "__tvm_ffi_main";
/*! \brief A void* variable the loader sets to the library's ModuleObj*. */
constexpr const char* tvm_ffi_library_ctx = "__tvm_ffi__library_ctx";
/*! \brief Serialized modules embedded in the library, imported when it is loaded. */
constexpr const char* tvm_ffi_library_bin = "__tvm_ffi__library_bin";
/*! \brief Prefix of the metadata function of name: __tvm_ffi__metadata_<name>. */
constexpr const char* tvm_ffi_metadata_prefix = "__tvm_ffi__metadata_";
/*! \brief Prefix of the doc function of name: __tvm_ffi__doc_<name>. */
constexpr const char* tvm_ffi_doc_prefix = "__tvm_ffi__doc_";
}  // namespace symbol

namespace detail {
/*! \brief Whether target is root or reachable from root through imports. */
inline bool ModuleReaches(const ModuleObj* root, const ModuleObj* target) {
  std::vector<const ModuleObj*> stack{root};
  std::unordered_set<const ModuleObj*> seen;
  while (!stack.empty()) {
    const ModuleObj* m = stack.back();
    stack.pop_back();
    if (m == target) return true;
    if (!seen.insert(m).second) continue;
    for (const Any& item : m->imports()) {
      if (const ModuleObj* child = item.as<ModuleObj>()) stack.push_back(child);
    }
  }
  return false;
}

/*! \brief The imports of mod as Modules, copied so a lookup may edit the list. */
inline std::vector<Module> ModuleImportList(const ModuleObj* mod) {
  std::vector<Module> out;
  for (const Any& item : mod->imports()) out.push_back(item.cast<Module>());
  return out;
}
}  // namespace detail

inline void ModuleObj::ImportModule(const Module& other) {
  if (detail::ModuleReaches(other.get(), this)) {
    TVM_FFI_THROW(RuntimeError) << "Cyclic dependency detected during import";
  }
  imports_.push_back(other);
}

inline void ModuleObj::ClearImports() {
  // Fresh containers instead of clearing in place: a module made by a library
  // built against other tvm-ffi headers holds containers its own code made.
  imports_ = Array<Any>();
  import_lookup_cache_ = Map<String, Function>();
}

inline Optional<Function> ModuleObj::GetFunction(const String& name, bool query_imports) {
  Optional<Function> own = GetFunction(name);
  if (own.has_value() || !query_imports) return own;
  for (const Module& m : detail::ModuleImportList(this)) {
    Optional<Function> f = m->GetFunction(name, true);
    if (f.has_value()) return f;
  }
  return std::nullopt;
}

inline bool ModuleObj::ImplementsFunction(const String& name, bool query_imports) {
  if (ImplementsFunction(name)) return true;
  if (!query_imports) return false;
  for (const Module& m : detail::ModuleImportList(this)) {
    if (m->ImplementsFunction(name, true)) return true;
  }
  return false;
}

inline Optional<String> ModuleObj::GetFunctionDoc(const String& name, bool query_imports) {
  Optional<String> own = GetFunctionDoc(name);
  if (own.has_value() || !query_imports) return own;
  for (const Module& m : detail::ModuleImportList(this)) {
    Optional<String> doc = m->GetFunctionDoc(name, true);
    if (doc.has_value()) return doc;
  }
  return std::nullopt;
}

inline Optional<String> ModuleObj::GetFunctionMetadata(const String& name, bool query_imports) {
  Optional<String> own = GetFunctionMetadata(name);
  if (own.has_value() || !query_imports) return own;
  for (const Module& m : detail::ModuleImportList(this)) {
    Optional<String> meta = m->GetFunctionMetadata(name, true);
    if (meta.has_value()) return meta;
  }
  return std::nullopt;
}

inline Module Module::LoadFromFile(const String& file_name) {
  std::string path(file_name);
  size_t dot = path.find_last_of('.');
  // A dot inside a directory name is not an extension.
  if (dot == std::string::npos || path.find('/', dot) != std::string::npos ||
      dot + 1 == path.size()) {
    TVM_FFI_THROW(RuntimeError) << "Failed to get file format from " << path;
  }
  std::string format = path.substr(dot + 1);
  if (format == "dll" || format == "dylib" || format == "dso") format = "so";
  std::string loader_name = "ffi.Module.load_from_file." + format;
  Optional<Function> loader = Function::GetGlobal(loader_name);
  if (!loader.has_value()) {
    TVM_FFI_THROW(RuntimeError) << "Loader for `." << format
                                << "` files is not registered, resolved to (" << loader_name
                                << ") in the global registry.";
  }
  return loader.value()(file_name, String(format)).cast<Module>();
}

inline void Module::VisitContextSymbols(const TypedFunction<void(String, void*)>& callback) {
  Function::GetGlobalRequired("ffi.ModuleVisitContextSymbols")(callback.packed());
}

TVM_FFI_NAMESPACE_END

#endif  // TVM_FFI_EXTRA_MODULE_H_
