/*
 * Functions from C callbacks, the call entry of the C ABI, and the global
 * function registry (docs/abi.md §3) with its runtime globals
 * (docs/runtime_globals.md: ffi.FunctionListGlobalNames[Functor],
 * ffi.FunctionRemoveGlobal, ffi.GetGlobalFuncMetadata, ffi.FunctionFromExternC).
 *
 * The registry is a process-wide map guarded by a shared mutex: lookups
 * (the common case, from any thread) take it shared, registrations take it
 * exclusively. It is never destroyed, so functions registered by a language
 * binding are not released after that binding has shut down at exit.
 */
#include <tvm/ffi/any.h>
#include <tvm/ffi/c_api.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/reflection/registry.h>
#include <tvm/ffi/string.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

TVM_FFI_NAMESPACE_BEGIN
namespace {

/*! \brief A function over a C callback; the callback receives self as its handle. */
class ExternCFunctionObj : public FunctionObj {
 public:
  ExternCFunctionObj(void* self, TVMFFISafeCallType call, void (*deleter)(void*))
      : self_(self), call_(call), deleter_(deleter) {
    safe_call = Trampoline;
  }
  ~ExternCFunctionObj() {
    if (deleter_ != nullptr) deleter_(self_);
  }

 private:
  static int Trampoline(void* handle, const TVMFFIAny* args, int32_t num_args, TVMFFIAny* result) {
    const auto* f = static_cast<const ExternCFunctionObj*>(static_cast<Object*>(handle));
    return f->call_(f->self_, args, num_args, result);
  }
  void* self_;
  TVMFFISafeCallType call_;
  void (*deleter_)(void*);
};

/*! \brief One registered global function. */
struct GlobalEntry {
  Function func;
  std::string doc;
  std::string metadata;
};

/*! \brief An entry with the name it is registered under (the table's key views the name). */
struct NamedGlobalEntry {
  std::string name;
  GlobalEntry entry;
};

class GlobalRegistry {
 public:
  static GlobalRegistry& Global() {
    static GlobalRegistry* inst = new GlobalRegistry();
    return *inst;
  }

  void Set(std::string name, Function func, std::string doc, std::string metadata,
           bool allow_override) {
    if (name.empty()) {
      TVM_FFI_THROW(ValueError) << "Cannot register a global function with an empty name";
    }
    if (!func.defined()) {
      TVM_FFI_THROW(ValueError) << "Cannot register global function \"" << name
                                << "\": the function is None";
    }
    GlobalEntry replaced;
    {
      std::unique_lock<std::shared_mutex> lock(mutex_);
      auto it = table_.find(name);
      if (it != table_.end()) {
        if (!allow_override) {
          lock.unlock();
          TVM_FFI_THROW(ValueError) << "Global function \"" << name
                                    << "\" is already registered (pass override=true to "
                                       "replace it)";
        }
        replaced = std::move(it->second->entry);
        it->second->entry = GlobalEntry{std::move(func), std::move(doc), std::move(metadata)};
      } else {
        auto named = std::make_unique<NamedGlobalEntry>(NamedGlobalEntry{
            std::move(name), GlobalEntry{std::move(func), std::move(doc), std::move(metadata)}});
        std::string_view key = named->name;
        table_.emplace(key, std::move(named));
        generation_.fetch_add(1, std::memory_order_release);
      }
    }
    // `replaced` is released here, outside the lock: its destructor may run
    // foreign code that calls back into the registry.
  }

  /*! \brief The function registered as name (the lookup allocates nothing). */
  Optional<Function> Get(std::string_view name) const {
    std::shared_lock<std::shared_mutex> lock(mutex_);
    auto it = table_.find(name);
    if (it == table_.end()) return std::nullopt;
    return it->second->entry.func;
  }

  /*! \return Whether the name was registered, and its metadata (empty when none). */
  bool GetMetadata(std::string_view name, std::string* metadata) const {
    std::shared_lock<std::shared_mutex> lock(mutex_);
    auto it = table_.find(name);
    if (it == table_.end()) return false;
    *metadata = it->second->entry.metadata;
    return true;
  }

  bool Remove(std::string_view name) {
    std::unique_ptr<NamedGlobalEntry> removed;
    std::unique_lock<std::shared_mutex> lock(mutex_);
    auto it = table_.find(name);
    if (it == table_.end()) return false;
    removed = std::move(it->second);
    table_.erase(it);
    generation_.fetch_add(1, std::memory_order_release);
    lock.unlock();
    return true;
  }

  /*!
   * \return The sorted names. A snapshot shared until the set of names changes: clients list
   *  the names on hot paths (TVM does during its builds), and the strings are made once.
   */
  std::shared_ptr<const std::vector<String>> ListNames() const {
    std::lock_guard<std::mutex> names_lock(names_mutex_);
    RefreshNamesLocked();
    return names_;
  }

  /*! \return ListNames() as an Array of str, shared like the snapshot. */
  Array<String> ListNamesArray() const {
    std::lock_guard<std::mutex> names_lock(names_mutex_);
    RefreshNamesLocked();
    return names_array_;
  }

 private:
  // Remakes the snapshot when the names changed; names_mutex_ is held. names_mutex_ is taken
  // before mutex_ here and never while mutex_ is held elsewhere.
  void RefreshNamesLocked() const {
    if (names_ != nullptr && names_generation_ == generation_.load(std::memory_order_acquire)) {
      return;
    }
    std::vector<std::string_view> views;
    uint64_t generation;
    auto names = std::make_shared<std::vector<String>>();
    {
      std::shared_lock<std::shared_mutex> lock(mutex_);
      generation = generation_.load(std::memory_order_acquire);
      views.reserve(table_.size());
      for (const auto& kv : table_) views.push_back(kv.first);
      std::sort(views.begin(), views.end());
      names->reserve(views.size());
      for (std::string_view name : views) names->emplace_back(name);
    }
    names_ = std::move(names);
    names_array_ = Array<String>(*names_);
    names_generation_ = generation;
  }

  mutable std::shared_mutex mutex_;
  std::unordered_map<std::string_view, std::unique_ptr<NamedGlobalEntry>> table_;
  // Bumped (under mutex_) when a name is added or removed.
  std::atomic<uint64_t> generation_{0};
  mutable std::mutex names_mutex_;
  mutable std::shared_ptr<const std::vector<String>> names_;
  mutable Array<String> names_array_;
  mutable uint64_t names_generation_ = 0;
};

/*! \brief The bytes of b, checked (a view: nothing is copied). */
std::string_view ByteArrayToView(const TVMFFIByteArray* b, const char* what) {
  if (b == nullptr) {
    TVM_FFI_THROW(ValueError) << what << " must not be NULL";
  }
  if (b->size != 0 && b->data == nullptr) {
    TVM_FFI_THROW(ValueError) << what << " has a NULL data pointer and size " << b->size;
  }
  return std::string_view(b->data ? b->data : "", b->size);
}

std::string ByteArrayToString(const TVMFFIByteArray* b, const char* what) {
  return std::string(ByteArrayToView(b, what));
}

Function FunctionFromHandle(TVMFFIObjectHandle f, const std::string& name) {
  if (f == nullptr) {
    TVM_FFI_THROW(ValueError) << "Cannot register global function \"" << name
                              << "\": the function is NULL";
  }
  TVMFFIObject* obj = static_cast<TVMFFIObject*>(f);
  if (obj->type_index != kTVMFFIFunction) {
    TVM_FFI_THROW(TypeError) << "Cannot register global function \"" << name
                             << "\": expected a Function but got `"
                             << TypeIndexToTypeKey(obj->type_index) << "`";
  }
  return Function(detail::ObjectUnsafe::ObjectPtrFromUnowned<FunctionObj>(obj));
}

}  // namespace
TVM_FFI_NAMESPACE_END

using tvm::ffi::Any;
using tvm::ffi::AnyView;
using tvm::ffi::Function;
using tvm::ffi::GlobalRegistry;
using tvm::ffi::String;

extern "C" {

TVM_FFI_DLL int TVMFFIFunctionCreate(void* self, TVMFFISafeCallType safe_call,
                                     void (*deleter)(void* self), TVMFFIObjectHandle* out) {
  TVM_FFI_SAFE_CALL_BEGIN();
  if (out == nullptr) {
    TVM_FFI_THROW(ValueError) << "TVMFFIFunctionCreate: out must not be NULL";
  }
  *out = nullptr;
  if (safe_call == nullptr) {
    TVM_FFI_THROW(ValueError) << "TVMFFIFunctionCreate: safe_call must not be NULL";
  }
  auto obj = tvm::ffi::make_object<tvm::ffi::ExternCFunctionObj>(self, safe_call, deleter);
  *out = tvm::ffi::detail::ObjectUnsafe::MoveObjectPtrToHandle(std::move(obj));
  TVM_FFI_SAFE_CALL_END();
}

TVM_FFI_DLL int TVMFFIFunctionCall(TVMFFIObjectHandle func, TVMFFIAny* args, int32_t num_args,
                                   TVMFFIAny* result) {
  TVMFFIObject* obj = static_cast<TVMFFIObject*>(func);
  if (TVM_FFI_UNLIKELY(obj == nullptr || obj->type_index != kTVMFFIFunction)) {
    TVMFFIErrorSetRaisedFromCStr(
        "TypeError", obj == nullptr ? "TVMFFIFunctionCall: the function handle is NULL"
                                    : "TVMFFIFunctionCall: the handle is not a Function");
    return -1;
  }
  // The cell follows the 24-byte header (docs/abi.md §2.4).
  const TVMFFIFunctionCell* cell = reinterpret_cast<const TVMFFIFunctionCell*>(
      reinterpret_cast<const char*>(obj) + sizeof(TVMFFIObject));
  return cell->safe_call(func, args, num_args, result);
}

TVM_FFI_DLL int TVMFFIFunctionSetGlobal(const TVMFFIByteArray* name, TVMFFIObjectHandle f,
                                        int allow_override) {
  TVM_FFI_SAFE_CALL_BEGIN();
  std::string key = tvm::ffi::ByteArrayToString(name, "TVMFFIFunctionSetGlobal: name");
  Function func = tvm::ffi::FunctionFromHandle(f, key);
  GlobalRegistry::Global().Set(std::move(key), std::move(func), std::string(), std::string(),
                               allow_override != 0);
  TVM_FFI_SAFE_CALL_END();
}

TVM_FFI_DLL int TVMFFIFunctionSetGlobalFromMethodInfo(const TVMFFIMethodInfo* method_info,
                                                      int allow_override) {
  TVM_FFI_SAFE_CALL_BEGIN();
  if (method_info == nullptr) {
    TVM_FFI_THROW(ValueError) << "TVMFFIFunctionSetGlobalFromMethodInfo: method_info is NULL";
  }
  std::string key = tvm::ffi::ByteArrayToString(&method_info->name,
                                                "TVMFFIFunctionSetGlobalFromMethodInfo: name");
  const TVMFFIAny& method = method_info->method;
  if (method.type_index < kTVMFFIStaticObjectBegin) {
    TVM_FFI_THROW(TypeError) << "Cannot register global function \"" << key
                             << "\": expected a Function but got `"
                             << tvm::ffi::detail::AnyTypeStr(&method) << "`";
  }
  Function func = tvm::ffi::FunctionFromHandle(method.v_obj, key);
  std::string doc =
      method_info->doc.size ? tvm::ffi::ByteArrayToString(&method_info->doc, "doc") : std::string();
  std::string metadata = method_info->metadata.size
                             ? tvm::ffi::ByteArrayToString(&method_info->metadata, "metadata")
                             : std::string();
  GlobalRegistry::Global().Set(std::move(key), std::move(func), std::move(doc), std::move(metadata),
                               allow_override != 0);
  TVM_FFI_SAFE_CALL_END();
}

TVM_FFI_DLL int TVMFFIFunctionGetGlobal(const TVMFFIByteArray* name, TVMFFIObjectHandle* out) {
  TVM_FFI_SAFE_CALL_BEGIN();
  if (out == nullptr) {
    TVM_FFI_THROW(ValueError) << "TVMFFIFunctionGetGlobal: out must not be NULL";
  }
  *out = nullptr;
  std::string_view key = tvm::ffi::ByteArrayToView(name, "TVMFFIFunctionGetGlobal: name");
  tvm::ffi::Optional<Function> f = GlobalRegistry::Global().Get(key);
  if (f.has_value()) {
    Function func = std::move(f).value();
    *out = tvm::ffi::detail::ObjectUnsafe::MoveObjectRefToHandle(std::move(func));
  }
  TVM_FFI_SAFE_CALL_END();
}

}  // extern "C"

TVM_FFI_NAMESPACE_BEGIN
namespace {

/*!
 * \brief The functor behind ffi.FunctionListGlobalNamesFunctor: over a sorted
 *  snapshot of the names, f(-1) is their count and f(i) the name #i.
 */
Function MakeGlobalNamesFunctor() {
  std::shared_ptr<const std::vector<String>> names = GlobalRegistry::Global().ListNames();
  return Function::FromTyped([names](int64_t i) -> Any {
    if (i == -1) return static_cast<int64_t>(names->size());
    if (i < 0 || i >= static_cast<int64_t>(names->size())) {
      TVM_FFI_THROW(IndexError) << "ffi.FunctionListGlobalNamesFunctor: index " << i
                                << " out of range [0, " << names->size() << ")";
    }
    return (*names)[static_cast<size_t>(i)];
  });
}

TVM_FFI_STATIC_INIT_BLOCK() {
  namespace refl = tvm::ffi::reflection;
  refl::GlobalDef()
      .def(
          "ffi.FunctionListGlobalNames", []() { return GlobalRegistry::Global().ListNamesArray(); },
          "Names of all global functions (an Array of str, sorted).")
      .def("ffi.FunctionListGlobalNamesFunctor", MakeGlobalNamesFunctor,
           "A function f over a snapshot of the global names: f(-1) is their count, f(i) the "
           "name #i (sorted).")
      .def(
          "ffi.FunctionRemoveGlobal",
          [](const String& name) { return GlobalRegistry::Global().Remove(name.view()); },
          "Remove a global function; returns whether it existed.")
      .def(
          "ffi.GetGlobalFuncMetadata",
          [](const String& name) -> Optional<String> {
            std::string metadata;
            if (!GlobalRegistry::Global().GetMetadata(name.view(), &metadata)) {
              TVM_FFI_THROW(RuntimeError) << "Global Function is not found: " << name;
            }
            if (metadata.empty()) return std::nullopt;
            return String(metadata);
          },
          "The metadata JSON of a global function, None when it has none.")
      .def(
          "ffi.FunctionFromExternC",
          [](void* self, void* safe_call, void* deleter) {
            if (safe_call == nullptr) {
              TVM_FFI_THROW(ValueError) << "ffi.FunctionFromExternC: safe_call must not be NULL";
            }
            return Function::FromExternC(self, reinterpret_cast<TVMFFISafeCallType>(safe_call),
                                         reinterpret_cast<void (*)(void*)>(deleter));
          },
          "A Function over a C callback: safe_call(self, args, num_args, result); "
          "deleter(self) (may be NULL) runs when the Function is destroyed.");
}

}  // namespace
TVM_FFI_NAMESPACE_END
