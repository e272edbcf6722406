/*
 * Environment hooks of libtvm_ffi: C symbols registered by the host (the
 * Python signal checker), per-thread device streams, the DLPack tensor
 * allocator of the caller's framework, and the system-library symbol table.
 *
 * Tables are leaked singletons so that they stay usable from static
 * destructors of other libraries at process exit.
 */
#include <tvm/ffi/base.h>
#include <tvm/ffi/c_api.h>
#include <tvm/ffi/extra/c_env_api.h>
#include "safe_invoke.h"

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

/*! \brief C functions of the host process (Python) the runtime calls back. */
struct CAPITable {
  std::mutex mutex;
  // Read on every TVMFFIEnvCheckSignals call, hence atomics.
  std::atomic<int (*)(void)> check_signals{nullptr};
  // PyGILState_Ensure / PyGILState_Release (the state enum passed as int).
  std::atomic<int (*)(void)> gil_ensure{nullptr};
  std::atomic<void (*)(int)> gil_release{nullptr};

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

/*! \brief The thread's allocator `local` if it has one, else the global one. */
inline DLPackManagedTensorAllocator OrGlobalAllocator(DLPackManagedTensorAllocator local) {
  return local != nullptr ? local : g_global_allocator.load(std::memory_order_acquire);
}

/*!
 * \brief The SetError callback TVMFFIEnvTensorAlloc hands to allocators: raises
 *  the error verbatim and notes that it did (error_ctx is a bool*).
 */
void SetAllocatorError(void* error_ctx, const char* kind, const char* message) {
  TVMFFIErrorSetRaisedFromCStr(kind != nullptr ? kind : "RuntimeError",
                               message != nullptr ? message : "");
  *static_cast<bool*>(error_ctx) = true;
}

}  // namespace
TVM_FFI_NAMESPACE_END

using tvm::ffi::CAPITable;
using tvm::ffi::Error;
using tvm::ffi::SystemLibTable;
using tvm::ffi::detail::SafeInvoke;

extern "C" {

TVM_FFI_DLL int TVMFFIEnvRegisterCAPI(const char* name, void* symbol) {
  return SafeInvoke([&]() -> int {
    std::string key = name != nullptr ? name : "";
    CAPITable& table = CAPITable::Global();
    std::lock_guard<std::mutex> lock(table.mutex);
    // Re-registration replaces: a reloaded binding hands in fresh symbols.
    if (key == "PyErr_CheckSignals") {
      table.check_signals.store(reinterpret_cast<int (*)(void)>(symbol), std::memory_order_release);
    } else if (key == "PyGILState_Ensure") {
      table.gil_ensure.store(reinterpret_cast<int (*)(void)>(symbol), std::memory_order_release);
    } else if (key == "PyGILState_Release") {
      table.gil_release.store(reinterpret_cast<void (*)(int)>(symbol), std::memory_order_release);
    } else {
      TVM_FFI_THROW(ValueError) << "Unknown env API " + key;
    }
    return 0;
  });
}

TVM_FFI_DLL int TVMFFIEnvCheckSignals(void) {
  CAPITable& table = CAPITable::Global();
  int (*checker)(void) = table.check_signals.load(std::memory_order_acquire);
  if (checker == nullptr) return 0;
  // The checker needs the interpreter lock; take it when the host handed in the means.
  int (*ensure)(void) = table.gil_ensure.load(std::memory_order_acquire);
  void (*release)(int) = table.gil_release.load(std::memory_order_acquire);
  bool with_gil = ensure != nullptr && release != nullptr;
  int state = with_gil ? ensure() : 0;
  int ret = checker();
  if (with_gil) release(state);
  if (ret == 0) return 0;
  // The host (Python) already holds the exception; this kind tells the binding to fetch it.
  TVMFFIErrorSetRaisedFromCStr("EnvErrorAlreadySet", "signal raised in the environment");
  return -1;
}

TVM_FFI_DLL int TVMFFIEnvSetStream(int32_t device_type, int32_t device_id,
                                   TVMFFIStreamHandle stream,
                                   TVMFFIStreamHandle* out_original_stream) {
  return SafeInvoke([&]() -> int {
    void*& slot = tvm::ffi::ThreadStreams()[tvm::ffi::StreamKey(device_type, device_id)];
    if (out_original_stream != nullptr) *out_original_stream = slot;
    slot = stream;
    return 0;
  });
}

TVM_FFI_DLL TVMFFIStreamHandle TVMFFIEnvGetStream(int32_t device_type, int32_t device_id) {
  const auto& streams = tvm::ffi::ThreadStreams();
  auto it = streams.find(tvm::ffi::StreamKey(device_type, device_id));
  return it == streams.end() ? nullptr : it->second;
}

TVM_FFI_DLL int TVMFFIEnvSetDLPackManagedTensorAllocator(
    DLPackManagedTensorAllocator allocator, int write_to_global_context,
    DLPackManagedTensorAllocator* opt_out_original) {
  // The original is what the getter returned (the global fallback when the
  // thread had none of its own). Python installs an allocator around every call
  // with torch tensors and restores it after, so this path is kept short.
  // Both accesses to the thread's slot come before any branch: the compiler looks the TLS
  // block up (__tls_get_addr) once per basic block that touches it.
  DLPackManagedTensorAllocator* local_slot = &tvm::ffi::t_local_allocator;
  DLPackManagedTensorAllocator previous = *local_slot;
  *local_slot = allocator;
  if (opt_out_original != nullptr) {
    *opt_out_original = tvm::ffi::OrGlobalAllocator(previous);
  }
  if (write_to_global_context != 0) {
    tvm::ffi::g_global_allocator.store(allocator, std::memory_order_release);
  }
  return 0;
}

TVM_FFI_DLL DLPackManagedTensorAllocator TVMFFIEnvGetDLPackManagedTensorAllocator(void) {
  return tvm::ffi::OrGlobalAllocator(tvm::ffi::t_local_allocator);
}

TVM_FFI_DLL int TVMFFIEnvTensorAlloc(DLTensor* prototype, TVMFFIObjectHandle* out) {
  return SafeInvoke(
      [&]() -> int {
        if (prototype == nullptr || out == nullptr) {
          TVM_FFI_THROW(ValueError) << "TVMFFIEnvTensorAlloc: prototype and out must not be NULL";
        }
        DLPackManagedTensorAllocator allocator = TVMFFIEnvGetDLPackManagedTensorAllocator();
        if (allocator == nullptr) {
          TVM_FFI_THROW(RuntimeError)
              << "TVMFFIEnvTensorAlloc: allocator is nullptr, likely because "
                 "TVMFFIEnvSetDLPackManagedTensorAllocator has not been called.";
        }
        // Only what the allocator needs is passed on; the rest of the caller's struct is ignored.
        DLTensor request;
        request.data = nullptr;
        request.device = prototype->device;
        request.ndim = prototype->ndim;
        request.dtype = prototype->dtype;
        request.shape = prototype->shape;
        request.strides = nullptr;
        request.byte_offset = 0;
        DLManagedTensorVersioned* managed = nullptr;
        bool error_set = false;
        int rc = allocator(&request, &managed, &error_set, &tvm::ffi::SetAllocatorError);
        if (rc != 0) {
          if (!error_set) {
            TVM_FFI_THROW(RuntimeError) << "TVMFFIEnvTensorAlloc: the allocator failed (returned " +
                                               std::to_string(rc) + ") without setting an error";
          }
          // Already raised by SetAllocatorError; the allocator's code is returned as is.
          return rc;
        }
        if (managed == nullptr) {
          TVM_FFI_THROW(RuntimeError)
              << "TVMFFIEnvTensorAlloc: failed to allocate a tensor from the "
                 "allocator";
        }
        // On failure the import leaves `managed` to us: give it back to its producer.
        if (TVMFFITensorFromDLPackVersioned(managed, 0, 0, out) != 0) {
          if (managed->deleter != nullptr) managed->deleter(managed);
          return -1;
        }
        return 0;
      });
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
