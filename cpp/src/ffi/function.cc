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
#include <tvm/ffi/error.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/reflection/registry.h>
#include <tvm/ffi/string.h>

#include <algorithm>
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
        replaced = std::move(it->second);
        it->second = GlobalEntry{std::move(func), std::move(doc), std::move(metadata)};
      } else {
        table_.emplace(std::move(name),
                       GlobalEntry{std::move(func), std::move(doc), std::move(metadata)});
      }
    }
    // `replaced` is released here, outside the lock: its destructor may run
    // foreign code that calls back into the registry.
  }

  Optional<Function> Get(std::string_view name) const {
    std::shared_lock<std::shared_mutex> lock(mutex_);
    auto it = table_.find(std::string(name));
    if (it == table_.end()) return std::nullopt;
    return it->second.func;
  }

  /*! \return Whether the name was registered, and its metadata (empty when none). */
  bool GetMetadata(std::string_view name, std::string* metadata) const {
    std::shared_lock<std::shared_mutex> lock(mutex_);
    auto it = table_.find(std::string(name));
    if (it == table_.end()) return false;
    *metadata = it->second.metadata;
    return true;
  }

  bool Remove(std::string_view name) {
    GlobalEntry removed;
    std::unique_lock<std::shared_mutex> lock(mutex_);
    auto it = table_.find(std::string(name));
    if (it == table_.end()) return false;
    removed = std::move(it->second);
    table_.erase(it);
    lock.unlock();
    return true;
  }

  std::vector<std::string> ListNames() const {
    std::vector<std::string> names;
    {
      std::shared_lock<std::shared_mutex> lock(mutex_);
      names.reserve(table_.size());
      for (const auto& kv : table_) names.push_back(kv.first);
    }
    std::sort(names.begin(), names.end());
    return names;
  }

 private:
  mutable std::shared_mutex mutex_;
  std::unordered_map<std::string, GlobalEntry> table_;
};

std::string ByteArrayToString(const TVMFFIByteArray* b, const char* what) {
  if (b == nullptr) {
    TVM_FFI_THROW(ValueError) << what << " must not be NULL";
  }
  if (b->size != 0 && b->data == nullptr) {
    TVM_FFI_THROW(ValueError) << what << " has a NULL data pointer and size " << b->size;
  }
  return std::string(b->data ? b->data : "", b->size);
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
  std::string key = tvm::ffi::ByteArrayToString(name, "TVMFFIFunctionGetGlobal: name");
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

/*! \brief An Array of str, built through the container runtime's "ffi.Array". */
Any MakeStringArray(const std::vector<std::string>& items) {
  Function make_array = Function::GetGlobalRequired("ffi.Array");
  std::vector<Any> owned;
  owned.reserve(items.size());
  for (const std::string& s : items) owned.emplace_back(String(s));
  std::vector<AnyView> views(owned.begin(), owned.end());
  Any result;
  make_array.CallPacked(views.data(), static_cast<int32_t>(views.size()), &result);
  return result;
}

/*!
 * \brief The functor behind ffi.FunctionListGlobalNamesFunctor: over a sorted
 *  snapshot of the names, f(-1) is their count and f(i) the name #i.
 */
Function MakeGlobalNamesFunctor() {
  auto names = std::make_shared<std::vector<std::string>>(GlobalRegistry::Global().ListNames());
  return Function::FromTyped([names](int64_t i) -> Any {
    if (i == -1) return static_cast<int64_t>(names->size());
    if (i < 0 || i >= static_cast<int64_t>(names->size())) {
      TVM_FFI_THROW(IndexError) << "ffi.FunctionListGlobalNamesFunctor: index " << i
                                << " out of range [0, " << names->size() << ")";
    }
    return String((*names)[static_cast<size_t>(i)]);
  });
}

TVM_FFI_STATIC_INIT_BLOCK() {
  namespace refl = tvm::ffi::reflection;
  refl::GlobalDef()
      .def(
          "ffi.FunctionListGlobalNames",
          []() { return MakeStringArray(GlobalRegistry::Global().ListNames()); },
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
