// Threaded registration through reflection::ObjectDef: several threads each
// register their own reflected types (metadata, fields, methods, the standard
// type attributes and the generated __ffi_init__) while reader threads look
// the attribute columns and field lists up and construct objects of the types
// already published. Part of tvm_ffi_stress_tests, which CI runs under
// ThreadSanitizer (tests/ci/tsan.sh).
#include <gtest/gtest.h>
#include <tvm/ffi/any.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/memory.h>
#include <tvm/ffi/object.h>
#include <tvm/ffi/reflection/accessor.h>
#include <tvm/ffi/reflection/registry.h>
#include <tvm/ffi/reflection/type_attr.h>

#include <atomic>
#include <thread>
#include <utility>
#include <vector>

namespace {

namespace ffi = tvm::ffi;
namespace refl = tvm::ffi::reflection;

template <int N>
struct StressKey {
  static constexpr char value[] = {'t',
                                   'e',
                                   's',
                                   't',
                                   '.',
                                   's',
                                   't',
                                   'r',
                                   'e',
                                   's',
                                   's',
                                   '.',
                                   'R',
                                   static_cast<char>('a' + N / 26),
                                   static_cast<char>('a' + N % 26),
                                   '\0'};
};

template <int N>
class StressObj : public ffi::Object {
 public:
  int64_t a = 0;
  int64_t b = 0;
  int64_t Sum() const { return a + b; }
  static constexpr bool _type_mutable = true;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL(StressKey<N>::value, StressObj<N>, ffi::Object);
};

template <int N>
void RegisterStressType() {
  refl::ObjectDef<StressObj<N>>()
      .def_rw("a", &StressObj<N>::a)
      .def_rw("b", &StressObj<N>::b, refl::DefaultValue(N))
      .def("sum", &StressObj<N>::Sum);
}

constexpr int kThreads = 6;
constexpr int kTypesPerThread = 5;
constexpr int kTypes = kThreads * kTypesPerThread;

template <int... I>
std::vector<std::pair<void (*)(), int32_t (*)()>> StressTypes(std::integer_sequence<int, I...>) {
  return {{&RegisterStressType<I>, &StressObj<I>::RuntimeTypeIndex}...};
}

TEST(ReflectionStress, ObjectDefRegistrationsRaceWithReaders) {
  auto types = StressTypes(std::make_integer_sequence<int, kTypes>());
  // Allocate the indices up front so that readers know where to look.
  std::vector<int32_t> indices;
  for (auto& t : types) indices.push_back(t.second());
  refl::TypeAttrColumn init_column(refl::type_attr::kInit);
  ffi::Any kwargs = ffi::Function::GetGlobalRequired("ffi.GetKwargsObject")();
  std::vector<std::atomic<bool>> published(kTypes);
  for (auto& p : published) p.store(false);
  std::atomic<bool> done{false};
  std::atomic<int> bad{0};
  std::atomic<int> constructed{0};

  auto reader = [&]() {
    while (!done.load(std::memory_order_acquire)) {
      for (int i = 0; i < kTypes; ++i) {
        const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(indices[i]);
        int num_fields = 0;
        refl::ForEachFieldInfo(info, [&](const TVMFFIFieldInfo* f) {
          if (f->getter == nullptr || f->setter == nullptr) bad.fetch_add(1);
          ++num_fields;
        });
        if (num_fields > 2) bad.fetch_add(1);
        if (!published[i].load(std::memory_order_acquire)) continue;
        ffi::AnyView init = init_column[indices[i]];
        if (init.type_index() != kTVMFFIFunction) {
          bad.fetch_add(1);
          continue;
        }
        ffi::ObjectRef obj = init.cast<ffi::Function>()(3, kwargs, "b", 4).cast<ffi::ObjectRef>();
        ffi::Function sum =
            ffi::AnyView::CopyFromTVMFFIAny(info->methods[0].method).cast<ffi::Function>();
        if (sum(obj).cast<int64_t>() != 7) bad.fetch_add(1);
        constructed.fetch_add(1);
      }
    }
  };

  std::vector<std::thread> readers;
  for (int r = 0; r < 2; ++r) readers.emplace_back(reader);
  std::vector<std::thread> writers;
  for (int t = 0; t < kThreads; ++t) {
    writers.emplace_back([&, t]() {
      for (int k = 0; k < kTypesPerThread; ++k) {
        int i = t * kTypesPerThread + k;
        types[i].first();
        published[i].store(true, std::memory_order_release);
      }
    });
  }
  for (auto& w : writers) w.join();
  done.store(true, std::memory_order_release);
  for (auto& r : readers) r.join();
  EXPECT_EQ(bad.load(), 0);
  for (int i = 0; i < kTypes; ++i) {
    const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(indices[i]);
    ASSERT_EQ(info->num_fields, 2);
    ASSERT_NE(info->metadata, nullptr);
    ffi::ObjectRef obj = init_column[indices[i]].cast<ffi::Function>()(1).cast<ffi::ObjectRef>();
    EXPECT_EQ(refl::FieldGetter(info->fields + 1)(obj).cast<int64_t>(), i);
  }
}

}  // namespace
