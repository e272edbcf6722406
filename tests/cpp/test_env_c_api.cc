// Tests of the environment hooks of the C API: signal checker, per-thread
// streams, the DLPack allocator hook and the system-library symbol table.
#include <gtest/gtest.h>
#include <tvm/ffi/c_api.h>
#include <tvm/ffi/extra/c_env_api.h>

#include <cstring>
#include <string>
#include <thread>
#include <utility>

namespace {

/*! \brief Take the raised error; return its (kind, message) and release it. */
std::pair<std::string, std::string> TakeEnvError() {
  TVMFFIObjectHandle err = nullptr;
  TVMFFIErrorMoveFromRaised(&err);
  if (err == nullptr) return {"<none>", "<none>"};
  const TVMFFIErrorCell* cell = reinterpret_cast<const TVMFFIErrorCell*>(
      static_cast<const char*>(err) + sizeof(TVMFFIObject));
  std::pair<std::string, std::string> out(std::string(cell->kind.data, cell->kind.size),
                                          std::string(cell->message.data, cell->message.size));
  TVMFFIObjectDecRef(err);
  return out;
}

int g_signal_result = 0;
int g_signal_calls = 0;
int FakeCheckSignals() {
  ++g_signal_calls;
  return g_signal_result;
}

TEST(CAPIEnv, SignalChecker) {
  EXPECT_EQ(TVMFFIEnvCheckSignals(), 0);  // nothing registered yet
  ASSERT_EQ(TVMFFIEnvRegisterCAPI("PyErr_CheckSignals", reinterpret_cast<void*>(&FakeCheckSignals)),
            0);
  g_signal_result = 0;
  EXPECT_EQ(TVMFFIEnvCheckSignals(), 0);
  EXPECT_EQ(g_signal_calls, 1);
  g_signal_result = -1;
  EXPECT_EQ(TVMFFIEnvCheckSignals(), -1);
  EXPECT_EQ(g_signal_calls, 2);
  auto err = TakeEnvError();
  EXPECT_EQ(err.first, "EnvErrorAlreadySet");
  EXPECT_EQ(err.second, "signal raised in the environment");
  // Registering NULL removes the checker.
  ASSERT_EQ(TVMFFIEnvRegisterCAPI("PyErr_CheckSignals", nullptr), 0);
  EXPECT_EQ(TVMFFIEnvCheckSignals(), 0);
  EXPECT_EQ(g_signal_calls, 2);
}

std::string g_gil_log;
int FakeGILEnsure() {
  g_gil_log += "ensure;";
  return 7;
}
void FakeGILRelease(int state) { g_gil_log += "release(" + std::to_string(state) + ");"; }
int LoggingCheckSignals() {
  g_gil_log += "check;";
  return 0;
}

TEST(CAPIEnv, SignalCheckerRunsInsideTheRegisteredGILHooks) {
  ASSERT_EQ(TVMFFIEnvRegisterCAPI("PyGILState_Ensure", reinterpret_cast<void*>(&FakeGILEnsure)), 0);
  ASSERT_EQ(TVMFFIEnvRegisterCAPI("PyGILState_Release", reinterpret_cast<void*>(&FakeGILRelease)),
            0);
  ASSERT_EQ(
      TVMFFIEnvRegisterCAPI("PyErr_CheckSignals", reinterpret_cast<void*>(&LoggingCheckSignals)),
      0);
  g_gil_log.clear();
  EXPECT_EQ(TVMFFIEnvCheckSignals(), 0);
  EXPECT_EQ(g_gil_log, "ensure;check;release(7);");
  ASSERT_EQ(TVMFFIEnvRegisterCAPI("PyErr_CheckSignals", nullptr), 0);
  ASSERT_EQ(TVMFFIEnvRegisterCAPI("PyGILState_Ensure", nullptr), 0);
  ASSERT_EQ(TVMFFIEnvRegisterCAPI("PyGILState_Release", nullptr), 0);
  g_gil_log.clear();
  EXPECT_EQ(TVMFFIEnvCheckSignals(), 0);
  EXPECT_EQ(g_gil_log, "");
}

TEST(CAPIEnv, RegisterCAPIRejectsUnknownNames) {
  EXPECT_EQ(
      TVMFFIEnvRegisterCAPI("test.env.SomeSymbol", reinterpret_cast<void*>(&FakeCheckSignals)), -1);
  auto err = TakeEnvError();
  EXPECT_EQ(err.first, "ValueError");
  EXPECT_EQ(err.second, "Unknown env API test.env.SomeSymbol");
  EXPECT_EQ(TVMFFIEnvRegisterCAPI("", nullptr), -1);
  EXPECT_EQ(TakeEnvError(),
            std::make_pair(std::string("ValueError"), std::string("Unknown env API ")));
  // The unknown name left the signal checker alone.
  int before = g_signal_calls;
  EXPECT_EQ(TVMFFIEnvCheckSignals(), 0);
  EXPECT_EQ(g_signal_calls, before);
}

TEST(CAPIEnv, StreamsPerDeviceAndThread) {
  int s1 = 0, s2 = 0, s3 = 0;
  EXPECT_EQ(TVMFFIEnvGetStream(kDLCUDA, 0), nullptr);
  void* original = &s3;
  ASSERT_EQ(TVMFFIEnvSetStream(kDLCUDA, 0, &s1, &original), 0);
  EXPECT_EQ(original, nullptr);
  ASSERT_EQ(TVMFFIEnvSetStream(kDLCUDA, 1, &s2, nullptr), 0);
  EXPECT_EQ(TVMFFIEnvGetStream(kDLCUDA, 0), &s1);
  EXPECT_EQ(TVMFFIEnvGetStream(kDLCUDA, 1), &s2);
  EXPECT_EQ(TVMFFIEnvGetStream(kDLROCM, 0), nullptr);

  std::thread other([&]() {
    EXPECT_EQ(TVMFFIEnvGetStream(kDLCUDA, 0), nullptr);
    EXPECT_EQ(TVMFFIEnvSetStream(kDLCUDA, 0, &s3, nullptr), 0);
    EXPECT_EQ(TVMFFIEnvGetStream(kDLCUDA, 0), &s3);
  });
  other.join();
  EXPECT_EQ(TVMFFIEnvGetStream(kDLCUDA, 0), &s1);

  ASSERT_EQ(TVMFFIEnvSetStream(kDLCUDA, 0, nullptr, &original), 0);
  EXPECT_EQ(original, &s1);
  EXPECT_EQ(TVMFFIEnvGetStream(kDLCUDA, 0), nullptr);
  ASSERT_EQ(TVMFFIEnvSetStream(kDLCUDA, 1, nullptr, nullptr), 0);
}

int AllocatorA(DLTensor*, DLManagedTensorVersioned**, void*,
               void (*)(void*, const char*, const char*)) {
  return 0;
}
int AllocatorB(DLTensor*, DLManagedTensorVersioned**, void*,
               void (*)(void*, const char*, const char*)) {
  return 0;
}

TEST(CAPIEnv, DLPackAllocatorThreadLocalWithGlobalFallback) {
  EXPECT_EQ(TVMFFIEnvGetDLPackManagedTensorAllocator(), nullptr);
  DLPackManagedTensorAllocator prev = AllocatorB;
  // Thread-local only.
  ASSERT_EQ(TVMFFIEnvSetDLPackManagedTensorAllocator(AllocatorA, 0, &prev), 0);
  EXPECT_EQ(prev, nullptr);
  EXPECT_EQ(TVMFFIEnvGetDLPackManagedTensorAllocator(), AllocatorA);
  std::thread([]() { EXPECT_EQ(TVMFFIEnvGetDLPackManagedTensorAllocator(), nullptr); }).join();

  // Global too: other threads fall back to it, this thread keeps its own.
  ASSERT_EQ(TVMFFIEnvSetDLPackManagedTensorAllocator(AllocatorB, 1, &prev), 0);
  EXPECT_EQ(prev, AllocatorA);
  std::thread([]() {
    EXPECT_EQ(TVMFFIEnvGetDLPackManagedTensorAllocator(), AllocatorB);
    DLPackManagedTensorAllocator p = AllocatorA;
    EXPECT_EQ(TVMFFIEnvSetDLPackManagedTensorAllocator(AllocatorA, 0, &p), 0);
    // The original is what the getter returned: the global fallback.
    EXPECT_EQ(p, AllocatorB);
    EXPECT_EQ(TVMFFIEnvGetDLPackManagedTensorAllocator(), AllocatorA);
  }).join();
  EXPECT_EQ(TVMFFIEnvGetDLPackManagedTensorAllocator(), AllocatorB);

  // Clearing the thread-local value falls back to the global one; then reset everything.
  ASSERT_EQ(TVMFFIEnvSetDLPackManagedTensorAllocator(nullptr, 0, nullptr), 0);
  EXPECT_EQ(TVMFFIEnvGetDLPackManagedTensorAllocator(), AllocatorB);
  ASSERT_EQ(TVMFFIEnvSetDLPackManagedTensorAllocator(nullptr, 1, nullptr), 0);
  EXPECT_EQ(TVMFFIEnvGetDLPackManagedTensorAllocator(), nullptr);
}

int g_symbol_a = 1;
int g_symbol_b = 2;

TEST(CAPIEnv, SystemLibSymbols) {
  void* out = &g_symbol_b;
  ASSERT_EQ(TVMFFIEnvModLookupSystemLibSymbol("test.env.missing", &out), 0);
  EXPECT_EQ(out, nullptr);
  ASSERT_EQ(TVMFFIEnvModRegisterSystemLibSymbol("__tvm_ffi_test_env_sym", &g_symbol_a), 0);
  ASSERT_EQ(TVMFFIEnvModLookupSystemLibSymbol("__tvm_ffi_test_env_sym", &out), 0);
  EXPECT_EQ(out, &g_symbol_a);
  // Same pointer again is fine; a different one is a conflict.
  EXPECT_EQ(TVMFFIEnvModRegisterSystemLibSymbol("__tvm_ffi_test_env_sym", &g_symbol_a), 0);
  EXPECT_EQ(TVMFFIEnvModRegisterSystemLibSymbol("__tvm_ffi_test_env_sym", &g_symbol_b), -1);
  auto err = TakeEnvError();
  EXPECT_EQ(err.first, "ValueError");
  EXPECT_NE(err.second.find("__tvm_ffi_test_env_sym"), std::string::npos) << err.second;
  ASSERT_EQ(TVMFFIEnvModLookupSystemLibSymbol("__tvm_ffi_test_env_sym", &out), 0);
  EXPECT_EQ(out, &g_symbol_a);

  EXPECT_EQ(TVMFFIEnvModRegisterSystemLibSymbol(nullptr, &g_symbol_a), -1);
  EXPECT_EQ(TakeEnvError().first, "ValueError");
  EXPECT_EQ(TVMFFIEnvModLookupSystemLibSymbol("x", nullptr), -1);
  EXPECT_EQ(TakeEnvError().first, "ValueError");
}

TEST(CAPIEnv, SystemLibConcurrentRegistration) {
  static int slots[64];
  std::thread threads[4];
  for (int t = 0; t < 4; ++t) {
    threads[t] = std::thread([t]() {
      for (int i = t * 16; i < (t + 1) * 16; ++i) {
        std::string name = "test.env.concurrent." + std::to_string(i);
        EXPECT_EQ(TVMFFIEnvModRegisterSystemLibSymbol(name.c_str(), &slots[i]), 0);
      }
    });
  }
  for (auto& th : threads) th.join();
  for (int i = 0; i < 64; ++i) {
    std::string name = "test.env.concurrent." + std::to_string(i);
    void* out = nullptr;
    ASSERT_EQ(TVMFFIEnvModLookupSystemLibSymbol(name.c_str(), &out), 0);
    EXPECT_EQ(out, &slots[i]);
  }
}

}  // namespace
