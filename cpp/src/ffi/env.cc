/*
 * Environment hooks of libtvm_ffi: C symbols registered by the host (the
 * Python signal checker), per-thread device streams, the DLPack tensor
 * allocator of the caller's framework, and the system-library symbol table.
 *
 * Tables are leaked singletons so that they stay usable from static
 * destructors of other libraries at process exit.
 */
#include "safe_invoke.h"
#include <tvm/ffi/base.h>
#include <tvm/ffi/c_api.h>

#include <atomic>
#include <cstdint>
#include <mutex>
#include <new>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <utility>

TVM_FFI_NAMESPACE_BEGIN
namespace {


/*! \brief Named C symbols the host process hands to the runtime. */
struct CAPITable {
  std::mutex mutex;
  std::unordered_map<std::string, void*> symbols;
  // Read on every TVMFFIEnvCheckSignals call, hence kept outside the map.
  std::atomic<int (*)(void)> check_signals{nullptr};

  static CAPITable& Global() {
    static CAPITable* inst = new CAPITable();
    return *inst;
  }
};

/*! \brief Symbols linked statically into the executable ("system library"). */
struct SystemLibTable {
  std::mutex mutex;
  std::unordered_map<std::string, void*> symbols;

  static SystemLibTable& Global() {
    static SystemLibTable* inst = new SystemLibTable();
    return *inst;
  }
};

uint64_t StreamKey(int32_t device_type, int32_t device_id) {
  return (static_cast<uint64_t>(static_cast<uint32_t>(device_type)) << 32) |
         static_cast<uint32_t>(device_id);
}

/*! \brief Streams are per thread: each thread runs its own work queue per device. */
std::unordered_map<uint64_t, void*>& ThreadStreams() {
  thread_local std::unordered_map<uint64_t, void*> streams;
  return streams;
}

std::atomic<DLPackManagedTensorAllocator> g_global_allocator{nullptr};
thread_local DLPackManagedTensorAllocator t_local_allocator = nullptr;

}  // namespace
TVM_FFI_NAMESPACE_END

using tvm::ffi::CAPITable;
using tvm::ffi::Error;
using tvm::ffi::details::SafeInvoke;
using tvm::ffi::SystemLibTable;

extern "C" {

TVM_FFI_DLL int TVMFFIEnvRegisterCAPI(const TVMFFIByteArray* name, void* symbol) {
  return SafeInvoke([&]() -> int {
    if (name == nullptr || name->data == nullptr || name->size == 0) {
      TVM_FFI_THROW(ValueError) << "TVMFFIEnvRegisterCAPI: name must not be empty";
    }
    std::string key(name->data, name->size);
    CAPITable& table = CAPITable::Global();
    std::lock_guard<std::mutex> lock(table.mutex);
    // Re-registration replaces: a reloaded binding hands in fresh symbols.
    table.symbols[key] = symbol;
    if (key == "PyErr_CheckSignals") {
      table.check_signals.store(reinterpret_cast<int (*)(void)>(symbol), std::memory_order_release);
    }
    return 0;
  });
}

TVM_FFI_DLL int TVMFFIEnvCheckSignals(void) {
  int (*checker)(void) = CAPITable::Global().check_signals.load(std::memory_order_acquire);
  if (checker == nullptr || checker() == 0) return 0;
  // The host (Python) already holds the exception; this kind tells the binding to fetch it.
  TVMFFIErrorSetRaisedFromCStr("EnvErrorAlreadySet", "signal raised in the environment");
  return -1;
}

TVM_FFI_DLL int TVMFFIEnvSetStream(int32_t device_type, int32_t device_id, void* stream,
                                   void** out_original_stream) {
  return SafeInvoke([&]() -> int {
    void*& slot = tvm::ffi::ThreadStreams()[tvm::ffi::StreamKey(device_type, device_id)];
    if (out_original_stream != nullptr) *out_original_stream = slot;
    slot = stream;
    return 0;
  });
}

TVM_FFI_DLL void* TVMFFIEnvGetStream(int32_t device_type, int32_t device_id) {
  const auto& streams = tvm::ffi::ThreadStreams();
  auto it = streams.find(tvm::ffi::StreamKey(device_type, device_id));
  return it == streams.end() ? nullptr : it->second;
}

TVM_FFI_DLL int TVMFFIEnvSetDLPackManagedTensorAllocator(DLPackManagedTensorAllocator allocator,
                                                         int write_to_global_context,
                                                         DLPackManagedTensorAllocator* opt_out_original) {
  // The previous thread-local value (NULL when the thread used the global
  // fallback) is returned, so that setting it back restores the exact state.
  if (opt_out_original != nullptr) *opt_out_original = tvm::ffi::t_local_allocator;
  tvm::ffi::t_local_allocator = allocator;
  if (write_to_global_context != 0) {
    tvm::ffi::g_global_allocator.store(allocator, std::memory_order_release);
  }
  return 0;
}

TVM_FFI_DLL DLPackManagedTensorAllocator TVMFFIEnvGetDLPackManagedTensorAllocator(void) {
  DLPackManagedTensorAllocator local = tvm::ffi::t_local_allocator;
  if (local != nullptr) return local;
  return tvm::ffi::g_global_allocator.load(std::memory_order_acquire);
}

TVM_FFI_DLL int TVMFFIEnvModRegisterSystemLibSymbol(const char* name, void* symbol) {
  return SafeInvoke([&]() -> int {
    if (name == nullptr || name[0] == '\0') {
      TVM_FFI_THROW(ValueError) << "TVMFFIEnvModRegisterSystemLibSymbol: name must not be empty";
    }
    SystemLibTable& table = SystemLibTable::Global();
    std::lock_guard<std::mutex> lock(table.mutex);
    auto it = table.symbols.find(name);
    if (it != table.symbols.end()) {
      if (it->second == symbol) return 0;
      TVM_FFI_THROW(ValueError) << std::string("System library symbol \"") + name +
                                       "\" is already registered with a different address";
    }
    table.symbols.emplace(name, symbol);
    return 0;
  });
}

TVM_FFI_DLL int TVMFFIEnvModLookupSystemLibSymbol(const char* name, void** out) {
  return SafeInvoke([&]() -> int {
    if (name == nullptr || out == nullptr) {
      TVM_FFI_THROW(ValueError) << "TVMFFIEnvModLookupSystemLibSymbol: arguments must not be NULL";
    }
    SystemLibTable& table = SystemLibTable::Global();
    std::lock_guard<std::mutex> lock(table.mutex);
    auto it = table.symbols.find(name);
    *out = it == table.symbols.end() ? nullptr : it->second;
    return 0;
  });
}

}  // extern "C"
