/*
 * Thread-safe lazy globals: TVMFFIHandleInitOnce / TVMFFIHandleDeinitOnce.
 *
 * Each handle address has its own "busy" state: one thread runs the user's
 * init (or deinit) with no lock held, other threads asking for the same
 * handle wait for it, and threads working on other handles never wait. User
 * callbacks may call into Python (taking the GIL) or initialise other
 * handles; holding one process-wide lock around them would serialise
 * unrelated inits and invert the lock order with the GIL. An init that asks
 * for its own handle again on the same thread gets a RuntimeError instead of
 * a deadlock.
 */
#include "safe_invoke.h"

#include <tvm/ffi/c_api.h>
#include <tvm/ffi/error.h>

#include <condition_variable>
#include <cstdio>
#include <mutex>
#include <string>
#include <thread>
#include <unordered_map>

TVM_FFI_NAMESPACE_BEGIN
namespace detail {
namespace {

/*! \brief A handle whose init or deinit is running, and who waits for it. */
struct BusyHandle {
  std::thread::id owner;
  std::condition_variable done;
  int waiters = 0;
};

class InitOnceTable {
 public:
  static InitOnceTable& Global() {
    // Leaked: lazy globals may be released from static destructors.
    static InitOnceTable* inst = new InitOnceTable();
    return *inst;
  }

  /*!
   * \brief Run action(value) for handle_addr as its only runner. `needed`
   *  says, given the current value, whether the action still has to run.
   */
  template <typename Needed, typename Action>
  int RunExclusive(void** handle_addr, const char* what, Needed needed, Action action) {
    std::unique_lock<std::mutex> lock(mutex_);
    const std::thread::id me = std::this_thread::get_id();
    while (true) {
      if (!needed(__atomic_load_n(handle_addr, __ATOMIC_ACQUIRE))) {
        ReleaseIfIdle(handle_addr);
        return 0;
      }
      BusyHandle& busy = busy_[handle_addr];
      if (busy.owner == std::thread::id()) {
        busy.owner = me;
        break;
      }
      if (busy.owner == me) {
        char addr[32];
        std::snprintf(addr, sizeof(addr), "%p", static_cast<void*>(handle_addr));
        TVM_FFI_THROW(RuntimeError) << std::string(what) + ": the init/deinit of handle " + addr +
                                           " re-entered itself on the same thread";
      }
      ++busy.waiters;
      busy.done.wait(lock);
      --busy.waiters;
    }
    lock.unlock();
    int rc;
    try {
      rc = action(__atomic_load_n(handle_addr, __ATOMIC_ACQUIRE));
    } catch (...) {
      Finish(handle_addr);
      throw;
    }
    Finish(handle_addr);
    return rc;
  }

 private:
  void Finish(void** handle_addr) {
    std::lock_guard<std::mutex> lock(mutex_);
    BusyHandle& busy = busy_[handle_addr];
    busy.owner = std::thread::id();
    if (busy.waiters == 0) {
      busy_.erase(handle_addr);
    } else {
      busy.done.notify_all();
    }
  }

  /*! \brief Drop the record of a handle nobody runs or waits for; call with mutex_ held. */
  void ReleaseIfIdle(void** handle_addr) {
    auto it = busy_.find(handle_addr);
    if (it != busy_.end() && it->second.owner == std::thread::id() && it->second.waiters == 0) {
      busy_.erase(it);
    }
  }

  std::mutex mutex_;
  std::unordered_map<void**, BusyHandle> busy_;
};

}  // namespace
}  // namespace detail
TVM_FFI_NAMESPACE_END

using tvm::ffi::Error;
using tvm::ffi::detail::InitOnceTable;
using tvm::ffi::detail::SafeInvoke;

extern "C" {

TVM_FFI_DLL int TVMFFIHandleInitOnce(void** handle_addr, int (*init)(void** out)) {
  return SafeInvoke([&]() -> int {
    if (handle_addr == nullptr || init == nullptr) {
      TVM_FFI_THROW(ValueError) << "TVMFFIHandleInitOnce: arguments must not be NULL";
    }
    if (__atomic_load_n(handle_addr, __ATOMIC_ACQUIRE) != nullptr) return 0;
    return InitOnceTable::Global().RunExclusive(
        handle_addr, "TVMFFIHandleInitOnce", [](void* value) { return value == nullptr; },
        [&](void*) -> int {
          void* value = nullptr;
          if (init(&value) != 0) return -1;  // init raised the error already
          if (value == nullptr) {
            // A NULL handle would read as "not initialised yet" and rerun init on every call.
            TVM_FFI_THROW(RuntimeError)
                << "TVMFFIHandleInitOnce: init_func must return a non-NULL handle";
          }
          __atomic_store_n(handle_addr, value, __ATOMIC_RELEASE);
          return 0;
        });
  });
}

TVM_FFI_DLL int TVMFFIHandleDeinitOnce(void** handle_addr, int (*deinit)(void* handle)) {
  return SafeInvoke([&]() -> int {
    if (handle_addr == nullptr || deinit == nullptr) {
      TVM_FFI_THROW(ValueError) << "TVMFFIHandleDeinitOnce: arguments must not be NULL";
    }
    return InitOnceTable::Global().RunExclusive(
        handle_addr, "TVMFFIHandleDeinitOnce", [](void* value) { return value != nullptr; },
        [&](void* value) -> int {
          // The handle is cleared even when deinit fails (its error is returned): a failed
          // deinit must not leave a handle that later calls would treat as live.
          int rc = deinit(value);
          __atomic_store_n(handle_addr, static_cast<void*>(nullptr), __ATOMIC_RELEASE);
          return rc == 0 ? 0 : -1;
        });
  });
}

}  // extern "C"
