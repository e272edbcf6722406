/*
 * ffi::Module: a named collection of functions, such as a shared library
 * built against these headers (abi.md §4) or the process' system library.
 *
 *   Module mod = Module::LoadFromFile("build/libexport.so");
 *   Function f = mod->GetFunction("add_one").value();   // symbol __tvm_ffi_add_one
 *   Optional<String> schema = mod->GetFunctionMetadata("add_one");
 *   Optional<String> doc = mod->GetFunctionDoc("add_one");
 *   Module sys = Module::SystemLib();   // symbols registered with
 *                                       // TVMFFIEnvModRegisterSystemLibSymbol
 *
 * A loaded library stays loaded for the rest of the process, so its
 * functions - and any object its code made - may outlive the Module handle.
 * ModuleObj is subclassable: a subclass implements LookupFunction (and
 * optionally the metadata queries) and inherits the per-name function cache
 * and imports.
 */
#ifndef TVM_FFI_EXTRA_MODULE_H_
#define TVM_FFI_EXTRA_MODULE_H_

#include <tvm/ffi/any.h>
#include <tvm/ffi/base.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/object.h>
#include <tvm/ffi/optional.h>
#include <tvm/ffi/string.h>

#include <mutex>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

TVM_FFI_NAMESPACE_BEGIN

class Module;

/*! \brief The module object (static type "ffi.Module", index 73); subclassable. */
class ModuleObj : public Object {
 public:
  ModuleObj() = default;
  ModuleObj(const ModuleObj&) = delete;
  ModuleObj& operator=(const ModuleObj&) = delete;
  virtual ~ModuleObj() = default;

  /*! \return A short name of the module kind, e.g. "library" or "system_lib". */
  virtual const char* kind() const = 0;

  /*! \return The function name implemented by this module itself (no cache, no imports). */
  virtual Optional<Function> LookupFunction(const String& name) const = 0;
  /*! \return The metadata JSON of function name ({"type_schema": ...}), if exported. */
  virtual Optional<String> GetFunctionMetadata(const String&) const { return std::nullopt; }
  /*! \return The doc string of function name, if exported. */
  virtual Optional<String> GetFunctionDoc(const String&) const { return std::nullopt; }
  /*! \return Whether this module implements function name. */
  virtual bool ImplementsFunction(const String& name) const {
    return LookupFunction(name).has_value();
  }

  /*!
   * \brief The function name, looked up once and cached; with query_imports
   *  the imported modules are searched when this one lacks it.
   */
  Optional<Function> GetFunction(const String& name, bool query_imports = false) const;

  /*! \brief Add a module whose functions GetFunction(name, true) also finds. */
  void ImportModule(const Module& other);
  /*! \return The imported modules. */
  std::vector<Module> imports() const;

  static constexpr const char* _type_key = "ffi.Module";
  static constexpr int32_t _type_index = kTVMFFIModule;
  static constexpr int32_t _type_depth = 1;
  static constexpr bool _type_final = false;
  static constexpr int32_t _type_child_slots = 0;
  static constexpr bool _type_child_slots_can_overflow = true;
  using _type_parent = Object;
  static int32_t _GetOrAllocRuntimeTypeIndex() { return kTVMFFIModule; }
  static int32_t RuntimeTypeIndex() { return kTVMFFIModule; }

 private:
  mutable std::mutex mutex_;
  mutable std::unordered_map<std::string, Function> cache_;
  std::vector<Module> imports_;
};

/*! \brief A reference to a ModuleObj (nullable). */
class Module : public ObjectRef {
 public:
  TVM_FFI_DEFINE_OBJECT_REF_METHODS_NULLABLE(Module, ObjectRef, ModuleObj);

  /*!
   * \brief Load a shared library (dlopen). A missing file or a library that
   *  fails to load raises RuntimeError naming the path and the loader's message.
   */
  static Module LoadFromFile(const String& path) {
    return Function::GetGlobalRequired("ffi.ModuleLoadFromFile")(path).cast<Module>();
  }
  /*!
   * \brief The system library: functions linked into the process and
   *  registered as "__tvm_ffi_<prefix><name>" with TVMFFIEnvModRegisterSystemLibSymbol.
   */
  static Module SystemLib(const String& prefix = String()) {
    return Function::GetGlobalRequired("ffi.SystemLib")(prefix).cast<Module>();
  }
};

inline Optional<Function> ModuleObj::GetFunction(const String& name, bool query_imports) const {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = cache_.find(std::string(name));
    if (it != cache_.end()) return it->second;
  }
  // Looked up outside the lock: a lookup may call into the library.
  Optional<Function> found = LookupFunction(name);
  if (found.has_value()) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = cache_.emplace(std::string(name), found.value()).first;
    return it->second;
  }
  if (query_imports) {
    for (const Module& m : imports()) {
      Optional<Function> f = m->GetFunction(name, true);
      if (f.has_value()) return f;
    }
  }
  return std::nullopt;
}

inline void ModuleObj::ImportModule(const Module& other) {
  if (!other.defined()) {
    TVM_FFI_THROW(ValueError) << "Cannot import a None module";
  }
  if (other.get() == this) {
    TVM_FFI_THROW(ValueError) << "A module cannot import itself";
  }
  std::lock_guard<std::mutex> lock(mutex_);
  imports_.push_back(other);
}

inline std::vector<Module> ModuleObj::imports() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return imports_;
}

TVM_FFI_NAMESPACE_END

#endif  // TVM_FFI_EXTRA_MODULE_H_
