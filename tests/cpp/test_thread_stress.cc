// Short multi-threaded stress tests of the runtime's shared state: the type
// table and its reflection tables read while other threads register, global
// functions set and called at once, reference counts of shared objects, the
// thread-local raised error and stream table, and lazy globals. They pass in
// the normal build and are meant to run clean under ThreadSanitizer
// (-DTVM_FFI_USE_TSAN=ON). Readers load counters with acquire semantics, the
// way the runtime publishes them; each test stays well under a second.
#include <gtest/gtest.h>
#include <tvm/ffi/any.h>
#include <tvm/ffi/c_api.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/memory.h>
#include <tvm/ffi/object.h>
#include <tvm/ffi/string.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace {
namespace ffi = tvm::ffi;

TVMFFIByteArray Bytes(const std::string& s) { return TVMFFIByteArray{s.data(), s.size()}; }
TVMFFIByteArray Bytes(const char* s) { return TVMFFIByteArray{s, std::strlen(s)}; }

int32_t NewType(const std::string& key) {
  TVMFFIByteArray k = Bytes(key);
  int32_t index = TVMFFITypeGetOrAllocIndex(&k, -1, 1, 0, 1, kTVMFFIObject);
  EXPECT_GE(index, kTVMFFIDynObjectBegin) << key;
  return index;
}

std::string FieldName(int i) { return "field" + std::to_string(i); }

int GetNothing(void*, TVMFFIAny* result) {
  result->type_index = kTVMFFINone;
  result->zero_padding = 0;
  result->v_int64 = 0;
  return 0;
}

void RegisterField(int32_t type_index, const std::string& name, int64_t offset) {
  TVMFFIFieldInfo f;
  std::memset(&f, 0, sizeof(f));
  f.name = Bytes(name);
  f.doc = Bytes("");
  f.metadata = Bytes("{}");
  f.size = 8;
  f.alignment = 8;
  f.offset = offset;
  f.getter = GetNothing;
  f.default_value_or_factory.type_index = kTVMFFINone;
  f.field_static_type_index = kTVMFFIInt;
  ASSERT_EQ(TVMFFITypeRegisterField(type_index, &f), 0);
}

// A reader that reads the field array's address before its count (as code the
// compiler is free to reorder may do) must still only see valid entries: the
// array never moves once published.
TEST(ThreadStress, FieldsRegisteredWhileOtherThreadsReadThem) {
  constexpr int kFields = 2000;
  int32_t type_index = NewType("test.stress.ManyFields");
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(type_index);
  std::atomic<bool> done{false};
  std::atomic<int> bad{0};
  std::atomic<int> started{0};
  std::vector<std::thread> readers;
  for (int r = 0; r < 2; ++r) {
    readers.emplace_back([&]() {
      started.fetch_add(1);
      while (!done.load(std::memory_order_acquire)) {
        const TVMFFIFieldInfo* data = __atomic_load_n(&info->fields, __ATOMIC_ACQUIRE);
        // A reader preempted between the two loads.
        std::this_thread::yield();
        int32_t n = __atomic_load_n(&info->num_fields, __ATOMIC_ACQUIRE);
        if (n == 0) continue;
        if (data == nullptr) data = __atomic_load_n(&info->fields, __ATOMIC_ACQUIRE);
        const TVMFFIFieldInfo& last = data[n - 1];
        if (last.name.data == nullptr || last.offset != 8 * (n - 1) ||
            std::string(last.name.data, last.name.size) != FieldName(n - 1)) {
          bad.fetch_add(1);
        }
      }
    });
  }
  while (started.load() < 2) std::this_thread::yield();
  for (int i = 0; i < kFields; ++i) {
    RegisterField(type_index, FieldName(i), 8 * i);
    if (i % 8 == 0) std::this_thread::yield();
  }
  done.store(true, std::memory_order_release);
  for (auto& t : readers) t.join();
  EXPECT_EQ(bad.load(), 0);
  ASSERT_EQ(info->num_fields, kFields);
  for (int i = 0; i < kFields; ++i) {
    EXPECT_EQ(std::string(info->fields[i].name.data, info->fields[i].name.size), FieldName(i));
  }
}

TEST(ThreadStress, TypesRegisteredWhileOtherThreadsLookThemUp) {
  constexpr int kTypes = 200;
  std::vector<std::atomic<int32_t>> indices(kTypes);
  for (auto& i : indices) i.store(-1);
  std::atomic<bool> done{false};
  std::atomic<int> bad{0};
  std::thread reader([&]() {
    while (!done.load(std::memory_order_acquire)) {
      for (int i = 0; i < kTypes; ++i) {
        int32_t index = indices[i].load(std::memory_order_acquire);
        if (index < 0) continue;
        const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(index);
        std::string key = "test.stress.Type" + std::to_string(i);
        if (info == nullptr || info->type_index != index ||
            std::string(info->type_key.data, info->type_key.size) != key ||
            info->type_ancestors[0]->type_index != kTVMFFIObject) {
          bad.fetch_add(1);
        }
      }
    }
  });
  std::vector<std::thread> writers;
  for (int w = 0; w < 2; ++w) {
    writers.emplace_back([&, w]() {
      for (int i = w; i < kTypes; i += 2) {
        indices[i].store(NewType("test.stress.Type" + std::to_string(i)),
                         std::memory_order_release);
      }
    });
  }
  for (auto& t : writers) t.join();
  done.store(true, std::memory_order_release);
  reader.join();
  EXPECT_EQ(bad.load(), 0);
}

// Each entry of an attribute column becomes visible whole: a reader that sees
// its type index set also sees its value.
TEST(ThreadStress, AttributesRegisteredWhileOtherThreadsReadThem) {
  constexpr int kTypes = 300;
  std::vector<int32_t> types;
  for (int i = 0; i < kTypes; ++i) types.push_back(NewType("test.stress.Attr" + std::to_string(i)));
  std::string attr = "test.stress.__value__";
  TVMFFIByteArray name = Bytes(attr);
  TVMFFIAny first;
  first.type_index = kTVMFFIInt;
  first.zero_padding = 0;
  first.v_int64 = -1;
  // A first registration creates the column; a far static index makes the
  // runtime cover a large index range from the start.
  ASSERT_EQ(TVMFFITypeRegisterAttr(types[0], &name, &first), 0);
  const TVMFFITypeAttrColumn* col = TVMFFIGetTypeAttrColumn(&name);
  ASSERT_NE(col, nullptr);
  std::atomic<bool> done{false};
  std::atomic<int> bad{0};
  std::thread reader([&]() {
    while (!done.load(std::memory_order_acquire)) {
      const TVMFFIAny* data = __atomic_load_n(&col->data, __ATOMIC_ACQUIRE);
      int32_t size = __atomic_load_n(&col->size, __ATOMIC_ACQUIRE);
      int32_t begin = col->begin_index;
      for (int i = 1; i < kTypes; ++i) {
        int32_t slot = types[i] - begin;
        if (slot < 0 || slot >= size) continue;
        const TVMFFIAny* cell = data + slot;
        if (__atomic_load_n(&cell->type_index, __ATOMIC_ACQUIRE) == kTVMFFIInt &&
            __atomic_load_n(&cell->v_int64, __ATOMIC_RELAXED) != types[i]) {
          bad.fetch_add(1);
        }
      }
    }
  });
  for (int i = 1; i < kTypes; ++i) {
    TVMFFIAny v;
    v.type_index = kTVMFFIInt;
    v.zero_padding = 0;
    v.v_int64 = types[i];
    ASSERT_EQ(TVMFFITypeRegisterAttr(types[i], &name, &v), 0);
  }
  done.store(true, std::memory_order_release);
  reader.join();
  EXPECT_EQ(bad.load(), 0);
  for (int i = 1; i < kTypes; ++i) {
    EXPECT_EQ(col->data[types[i] - col->begin_index].v_int64, types[i]);
  }
}

TEST(ThreadStress, GlobalFunctionsSetAndCalledConcurrently) {
  constexpr int kThreads = 4;
  constexpr int kIters = 200;
  ffi::Function::SetGlobal("test.stress.shared",
                           ffi::Function::FromTyped([](int64_t x) { return x + 1; }), true);
  std::atomic<int> bad{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t]() {
      std::string own = "test.stress.own." + std::to_string(t);
      for (int i = 0; i < kIters; ++i) {
        ffi::Function::SetGlobal(own, ffi::Function::FromTyped([i]() { return i; }), true);
        if (ffi::Function::GetGlobalRequired(own)().cast<int>() != i) bad.fetch_add(1);
        // Everyone also replaces and calls the shared name.
        ffi::Function::SetGlobal("test.stress.shared",
                                 ffi::Function::FromTyped([](int64_t x) { return x + 1; }), true);
        if (ffi::Function::GetGlobalRequired("test.stress.shared")(i).cast<int64_t>() != i + 1) {
          bad.fetch_add(1);
        }
      }
      ffi::Function::RemoveGlobal(own);
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(bad.load(), 0);
  EXPECT_TRUE(ffi::Function::RemoveGlobal("test.stress.shared"));
}

TEST(ThreadStress, SharedObjectRefCountsStayExact) {
  constexpr int kThreads = 4;
  constexpr int kIters = 20000;
  ffi::ObjectRef shared(ffi::make_object<ffi::Object>());
  ASSERT_EQ(shared.use_count(), 1);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&shared]() {
      for (int i = 0; i < kIters; ++i) {
        ffi::ObjectRef copy = shared;
        ffi::Any held = copy;
        ffi::ObjectRef back = held.cast<ffi::ObjectRef>();
        ffi::AnyView view = back;
        (void)view;
      }
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(shared.use_count(), 1);
}

TEST(ThreadStress, RaisedErrorIsPerThread) {
  constexpr int kThreads = 4;
  constexpr int kIters = 20;
  std::atomic<int> bad{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t]() {
      std::string msg = "thread " + std::to_string(t);
      for (int i = 0; i < kIters; ++i) {
        TVMFFIErrorSetRaisedFromCStr("ValueError", msg.c_str());
        std::this_thread::yield();
        TVMFFIObjectHandle err = nullptr;
        TVMFFIErrorMoveFromRaised(&err);
        if (err == nullptr) {
          bad.fetch_add(1);
          continue;
        }
        const TVMFFIErrorCell* cell = reinterpret_cast<const TVMFFIErrorCell*>(
            static_cast<const char*>(err) + sizeof(TVMFFIObject));
        if (std::string(cell->message.data, cell->message.size) != msg) bad.fetch_add(1);
        TVMFFIObjectDecRef(err);
      }
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(bad.load(), 0);
}

TEST(ThreadStress, EnvStreamIsPerThread) {
  constexpr int kThreads = 4;
  constexpr int kIters = 2000;
  std::atomic<int> bad{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t]() {
      for (int i = 0; i < kIters; ++i) {
        void* mine = reinterpret_cast<void*>(static_cast<uintptr_t>((t + 1) * 100000 + i));
        if (TVMFFIEnvSetStream(kDLCUDA, 0, mine, nullptr) != 0) bad.fetch_add(1);
        std::this_thread::yield();
        if (TVMFFIEnvGetStream(kDLCUDA, 0) != mine) bad.fetch_add(1);
      }
      TVMFFIEnvSetStream(kDLCUDA, 0, nullptr, nullptr);
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(bad.load(), 0);
}

// Lazy globals: an init that waits for another handle's init to run. With
// one lock around every init this deadlocks (and the wait times out).
std::mutex g_rendezvous_mu;
std::condition_variable g_rendezvous_cv;
bool g_second_ran = false;
int g_first_value = 1;
int g_second_value = 2;

int FirstInitWaitsForSecond(void** out) {
  std::unique_lock<std::mutex> lock(g_rendezvous_mu);
  if (!g_rendezvous_cv.wait_for(lock, std::chrono::seconds(2), [] { return g_second_ran; })) {
    TVMFFIErrorSetRaisedFromCStr("RuntimeError", "second init never ran");
    return -1;
  }
  *out = &g_first_value;
  return 0;
}

int SecondInit(void** out) {
  {
    std::lock_guard<std::mutex> lock(g_rendezvous_mu);
    g_second_ran = true;
  }
  g_rendezvous_cv.notify_all();
  *out = &g_second_value;
  return 0;
}

TEST(ThreadStress, UnrelatedLazyGlobalsInitialiseConcurrently) {
  static void* first = nullptr;
  static void* second = nullptr;
  std::atomic<int> first_rc{-2};
  std::thread a([&]() { first_rc.store(TVMFFIHandleInitOnce(&first, FirstInitWaitsForSecond)); });
  // Give the first init time to start and hold whatever it holds.
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_EQ(TVMFFIHandleInitOnce(&second, SecondInit), 0);
  a.join();
  EXPECT_EQ(first_rc.load(), 0);
  EXPECT_EQ(first, &g_first_value);
  EXPECT_EQ(second, &g_second_value);
  if (first_rc.load() != 0) {
    TVMFFIObjectHandle err = nullptr;
    TVMFFIErrorMoveFromRaised(&err);
    if (err != nullptr) TVMFFIObjectDecRef(err);
  }
}

void* g_reentrant_handle = nullptr;
int g_reentrant_inner_rc = 0;

int ReentrantInit(void** out) {
  // Initialising the same handle from inside its own init cannot succeed.
  g_reentrant_inner_rc = TVMFFIHandleInitOnce(&g_reentrant_handle, ReentrantInit);
  *out = &g_first_value;
  return 0;
}

TEST(ThreadStress, LazyGlobalInitReenteringItselfRaises) {
  ASSERT_EQ(TVMFFIHandleInitOnce(&g_reentrant_handle, ReentrantInit), 0);
  EXPECT_EQ(g_reentrant_handle, &g_first_value);
  EXPECT_EQ(g_reentrant_inner_rc, -1);
  TVMFFIObjectHandle err = nullptr;
  TVMFFIErrorMoveFromRaised(&err);
  ASSERT_NE(err, nullptr);
  const TVMFFIErrorCell* cell = reinterpret_cast<const TVMFFIErrorCell*>(
      static_cast<const char*>(err) + sizeof(TVMFFIObject));
  EXPECT_EQ(std::string(cell->kind.data, cell->kind.size), "RuntimeError");
  EXPECT_NE(std::string(cell->message.data, cell->message.size).find("re-entered"),
            std::string::npos);
  TVMFFIObjectDecRef(err);
}

TEST(ThreadStress, ManyThreadsInitialiseOneLazyGlobalOnce) {
  static void* handle = nullptr;
  static std::atomic<int> calls{0};
  std::vector<std::thread> threads;
  std::atomic<int> bad{0};
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&]() {
      int rc = TVMFFIHandleInitOnce(&handle, [](void** out) -> int {
        calls.fetch_add(1);
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
        *out = &g_second_value;
        return 0;
      });
      if (rc != 0 || __atomic_load_n(&handle, __ATOMIC_ACQUIRE) != &g_second_value) {
        bad.fetch_add(1);
      }
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(bad.load(), 0);
  EXPECT_EQ(calls.load(), 1);
}

}  // namespace
