// Tests of the global function registry: GlobalDef, Get/Set/Remove/List,
// metadata, duplicate registration, the C entry points, static init blocks,
// and concurrent lookups and registrations from several threads.
#include <gtest/gtest.h>

#include <tvm/ffi/any.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/reflection/registry.h>
#include <tvm/ffi/string.h>
#include "testing_helpers.h"

#include <algorithm>
#include <atomic>
#include <string>
#include <thread>
#include <vector>

namespace {
namespace ffi = tvm::ffi;
namespace refl = tvm::ffi::reflection;
using ffi::Any;
using ffi::AnyView;
using ffi::Function;
using ffi::String;

using tvm_ffi_testing::CatchError;

std::string Metadata(const std::string& name) {
  Any m = Function::GetGlobalRequired("ffi.GetGlobalFuncMetadata")(name);
  return m.is_none() ? std::string("<none>") : m.cast<std::string>();
}

int g_static_init_runs = 0;

TVM_FFI_STATIC_INIT_BLOCK() {
  ++g_static_init_runs;
  refl::GlobalDef().def("testing.registry.static_add", [](int64_t a, int64_t b) { return a + b; });
}

// A second block in the same file gets its own name.
TVM_FFI_STATIC_INIT_BLOCK() {
  ++g_static_init_runs;
  refl::GlobalDef().def_packed("testing.registry.static_count",
                               [](const AnyView*, int32_t n, Any* rv) { *rv = n; });
}

TEST(Registry, StaticInitBlocksRanAtLoad) {
  EXPECT_EQ(g_static_init_runs, 2);
  EXPECT_EQ(Function::GetGlobalRequired("testing.registry.static_add")(2, 3).cast<int>(), 5);
  EXPECT_EQ(Function::GetGlobalRequired("testing.registry.static_count")(1, 2, 3).cast<int>(), 3);
}

TEST(Registry, GuideStyleRegistration) {
  // The guide's own "xyz.add1" lives in test_example.cc; a name of our own here.
  refl::GlobalDef().def("testing.registry.add1", [](const int a) -> int { return a + 1; });
  Function fadd1 = Function::GetGlobalRequired("testing.registry.add1");
  int b = fadd1(1).cast<int>();
  EXPECT_EQ(b, 2);
  EXPECT_TRUE(Function::RemoveGlobal("testing.registry.add1"));
}

TEST(Registry, ChainedDefsWithDocAndMetadata) {
  refl::GlobalDef()
      .def(
          "testing.registry.mul", [](int64_t a, int64_t b) { return a * b; }, "Multiply.")
      .def("testing.registry.name", [](const String& s) { return s; })
      .def_packed("testing.registry.packed",
                  [](const AnyView* args, int32_t n, Any* rv) { *rv = args[0]; });
  EXPECT_EQ(Function::GetGlobalRequired("testing.registry.mul")(6, 7).cast<int>(), 42);
  EXPECT_EQ(Function::GetGlobalRequired("testing.registry.packed")("x").cast<String>(), "x");
  // The doc string goes to the doc record, never into the metadata.
  EXPECT_EQ(Metadata("testing.registry.mul"),
            R"({"type_schema":"{\"type\":\"ffi.Function\",\"named_args\":{\"return\":)"
            R"([{\"type\":\"int\"}],\"params\":[{\"type\":\"int\"},{\"type\":\"int\"}]}}"})");
  EXPECT_EQ(Metadata("testing.registry.name"),
            R"({"type_schema":"{\"type\":\"ffi.Function\",\"named_args\":{\"return\":)"
            R"([{\"type\":\"ffi.String\"}],\"params\":[{\"type\":\"ffi.String\"}]}}"})");
  EXPECT_EQ(Metadata("testing.registry.packed"),
            R"({"type_schema":"{\"type\":\"ffi.Function\"}"})");
  // The registered name appears in argument errors.
  ffi::Error e = CatchError([] { Function::GetGlobalRequired("testing.registry.mul")(1); });
  EXPECT_EQ(e.message(),
            "Mismatched number of arguments when calling: "
            "`testing.registry.mul(0: int, 1: int) -> int`. Expected 2 but got 1 arguments");
  for (const char* name :
       {"testing.registry.mul", "testing.registry.name", "testing.registry.packed"}) {
    EXPECT_TRUE(Function::RemoveGlobal(name));
  }
}

TEST(Registry, MissingFunctions) {
  EXPECT_FALSE(Function::GetGlobal("testing.registry.missing").has_value());
  ffi::Error e = CatchError([] { Function::GetGlobalRequired("testing.registry.missing"); });
  EXPECT_EQ(e.kind(), "ValueError");
  EXPECT_EQ(e.message(), "Function testing.registry.missing not found");
  EXPECT_FALSE(Function::RemoveGlobal("testing.registry.missing"));
  ffi::Error m = CatchError([] { Metadata("testing.registry.missing"); });
  EXPECT_EQ(m.kind(), "RuntimeError");
  EXPECT_EQ(m.message(), "Global Function is not found: testing.registry.missing");
}

TEST(Registry, DuplicateRegistrationIsAnError) {
  refl::GlobalDef().def("testing.registry.dup", []() { return 1; });
  ffi::Error e =
      CatchError([] { refl::GlobalDef().def("testing.registry.dup", []() { return 2; }); });
  EXPECT_EQ(e.kind(), "ValueError");
  EXPECT_EQ(e.message(),
            "Global function \"testing.registry.dup\" is already registered (pass "
            "override=true to replace it)");
  EXPECT_EQ(Function::GetGlobalRequired("testing.registry.dup")().cast<int>(), 1);
  ffi::Error e2 = CatchError(
      [] { Function::SetGlobal("testing.registry.dup", Function::FromTyped([]() { return 3; })); });
  EXPECT_EQ(e2.message(), e.message());
  // Override replaces it; an old handle keeps working.
  Function old = Function::GetGlobalRequired("testing.registry.dup");
  refl::GlobalDef(/*allow_override=*/true).def("testing.registry.dup", []() { return 2; });
  EXPECT_EQ(Function::GetGlobalRequired("testing.registry.dup")().cast<int>(), 2);
  Function::SetGlobal("testing.registry.dup", Function::FromTyped([]() { return 3; }), true);
  EXPECT_EQ(Function::GetGlobalRequired("testing.registry.dup")().cast<int>(), 3);
  EXPECT_EQ(old().cast<int>(), 1);
  // SetGlobal registers no metadata.
  EXPECT_EQ(Metadata("testing.registry.dup"), "<none>");
  EXPECT_TRUE(Function::RemoveGlobal("testing.registry.dup"));
}

TEST(Registry, SetListRemove) {
  Function f = Function::FromTyped([](int x) { return -x; });
  Function::SetGlobal("testing.registry.neg", f);
  Function got = Function::GetGlobal("testing.registry.neg").value();
  EXPECT_TRUE(got.same_as(f));
  std::vector<String> names = Function::ListGlobalNames();
  EXPECT_NE(std::find(names.begin(), names.end(), String("testing.registry.neg")), names.end());
  EXPECT_NE(std::find(names.begin(), names.end(), String("ffi.FunctionListGlobalNames")),
            names.end());
  EXPECT_TRUE(std::is_sorted(names.begin(), names.end()));
  // The runtime global returns an Array of str.
  Any listed = Function::GetGlobalRequired("ffi.FunctionListGlobalNames")();
  ffi::Array<String> arr = listed.cast<ffi::Array<String>>();
  EXPECT_EQ(arr.size(), names.size());
  EXPECT_TRUE(Function::RemoveGlobal("testing.registry.neg"));
  EXPECT_FALSE(Function::GetGlobal("testing.registry.neg").has_value());
  // The registry held one reference, released by the removal.
  EXPECT_EQ(f.use_count(), 2);
  got = Function();
  EXPECT_EQ(f.use_count(), 1);
}

TEST(Registry, BadRegistrations) {
  ffi::Error e = CatchError([] { Function::SetGlobal("testing.registry.null", Function()); });
  EXPECT_EQ(e.kind(), "ValueError");
  EXPECT_EQ(e.message(),
            "Cannot register global function \"testing.registry.null\": the function is NULL");
  e = CatchError([] { Function::SetGlobal("", Function::FromTyped([]() {})); });
  EXPECT_EQ(e.message(), "Cannot register a global function with an empty name");

  // A method info whose method is not a Function.
  String not_fn("this string is not a function at all");
  TVMFFIMethodInfo info{};
  info.name = TVMFFIByteArray{"testing.registry.bad", 20};
  ffi::TypeTraits<String>::CopyToAnyView(not_fn, &info.method);
  ASSERT_EQ(TVMFFIFunctionSetGlobalFromMethodInfo(&info, 0), -1);
  ffi::Error bad = ffi::detail::MoveFromRaised();
  EXPECT_EQ(bad.kind(), "TypeError");
  EXPECT_EQ(bad.message(),
            "Cannot register global function \"testing.registry.bad\": expected a Function but "
            "got `ffi.String`");
  info.method.type_index = kTVMFFIInt;
  info.method.v_int64 = 1;
  ASSERT_EQ(TVMFFIFunctionSetGlobalFromMethodInfo(&info, 0), -1);
  EXPECT_EQ(ffi::detail::MoveFromRaised().message(),
            "Cannot register global function \"testing.registry.bad\": expected a Function but "
            "got `int`");
  ASSERT_EQ(TVMFFIFunctionSetGlobalFromMethodInfo(nullptr, 0), -1);
  EXPECT_EQ(ffi::detail::MoveFromRaised().kind(), "ValueError");
}

TEST(Registry, CApi) {
  Function f = Function::FromTyped([](int64_t x) { return x + 100; });
  TVMFFIByteArray name{"testing.registry.capi", 21};
  ASSERT_EQ(TVMFFIFunctionSetGlobal(&name, ffi::detail::ObjectUnsafe::GetHeader(f.get()), 0), 0);
  TVMFFIObjectHandle out = nullptr;
  ASSERT_EQ(TVMFFIFunctionGetGlobal(&name, &out), 0);
  ASSERT_EQ(out, ffi::detail::ObjectUnsafe::GetHeader(f.get()));
  // A new reference was returned.
  EXPECT_EQ(f.use_count(), 3);
  TVMFFIObjectDecRef(out);
  EXPECT_EQ(TVMFFIFunctionSetGlobal(&name, ffi::detail::ObjectUnsafe::GetHeader(f.get()), 0), -1);
  EXPECT_EQ(ffi::detail::MoveFromRaised().kind(), "ValueError");
  EXPECT_EQ(TVMFFIFunctionSetGlobal(&name, ffi::detail::ObjectUnsafe::GetHeader(f.get()), 1), 0);
  TVMFFIByteArray missing{"testing.registry.capi_missing", 29};
  out = reinterpret_cast<TVMFFIObjectHandle>(0x1);
  ASSERT_EQ(TVMFFIFunctionGetGlobal(&missing, &out), 0);
  EXPECT_EQ(out, nullptr);
  EXPECT_EQ(TVMFFIFunctionGetGlobal(nullptr, &out), -1);
  EXPECT_EQ(ffi::detail::MoveFromRaised().kind(), "ValueError");

  // SetGlobalFromMethodInfo stores doc and metadata.
  TVMFFIMethodInfo info{};
  std::string meta = R"({"type_schema": "{\"type\":\"ffi.Function\"}", "custom": 1})";
  info.name = TVMFFIByteArray{"testing.registry.capi_info", 26};
  info.doc = TVMFFIByteArray{"docs", 4};
  info.metadata = TVMFFIByteArray{meta.data(), meta.size()};
  ffi::TypeTraits<Function>::CopyToAnyView(f, &info.method);
  ASSERT_EQ(TVMFFIFunctionSetGlobalFromMethodInfo(&info, 0), 0);
  EXPECT_EQ(Metadata("testing.registry.capi_info"), meta);
  EXPECT_EQ(Function::GetGlobalRequired("testing.registry.capi_info")(1).cast<int>(), 101);
  EXPECT_TRUE(Function::RemoveGlobal("testing.registry.capi"));
  EXPECT_TRUE(Function::RemoveGlobal("testing.registry.capi_info"));
  EXPECT_EQ(f.use_count(), 1);
}

TEST(Registry, ConcurrentLookupsAndRegistrations) {
  constexpr int kThreads = 8;
  constexpr int kPerThread = 200;
  refl::GlobalDef().def("testing.registry.shared", [](int64_t x) { return x * 2; });
  std::atomic<int> failures{0};
  std::atomic<int64_t> total{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([t, &failures, &total] {
      try {
        for (int i = 0; i < kPerThread; ++i) {
          std::string name =
              "testing.registry.concurrent." + std::to_string(t) + "." + std::to_string(i);
          refl::GlobalDef().def(name, [t, i]() { return t * 1000 + i; });
          // Lookups of our own, another thread's (maybe not there yet) and a shared function.
          Function mine = Function::GetGlobalRequired(name);
          if (mine().cast<int>() != t * 1000 + i) ++failures;
          Function::GetGlobal("testing.registry.concurrent." + std::to_string((t + 1) % kThreads) +
                              "." + std::to_string(i));
          total += Function::GetGlobalRequired("testing.registry.shared")(i).cast<int64_t>();
          if (i % 3 == 0) {
            if (!Function::RemoveGlobal(name)) ++failures;
          }
          if (i % 50 == 0) Function::ListGlobalNames();
        }
      } catch (const std::exception& e) {
        ++failures;
        ADD_FAILURE() << e.what();
      }
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(failures.load(), 0);
  EXPECT_EQ(total.load(), int64_t{kThreads} * (kPerThread - 1) * kPerThread);
  std::vector<String> names = Function::ListGlobalNames();
  int remaining = 0;
  for (const String& n : names) {
    if (n.view().rfind("testing.registry.concurrent.", 0) == 0) {
      ++remaining;
      EXPECT_TRUE(Function::RemoveGlobal(n.view()));
    }
  }
  EXPECT_EQ(remaining, kThreads * (kPerThread - (kPerThread + 2) / 3));
  EXPECT_TRUE(Function::RemoveGlobal("testing.registry.shared"));
}

TEST(Registry, ListedNamesFollowRegistrationsAndRemovals) {
  Function list = Function::GetGlobalRequired("ffi.FunctionListGlobalNames");
  auto listed = [&](const char* name) {
    ffi::Array<String> names = list().cast<ffi::Array<String>>();
    return std::find(names.begin(), names.end(), String(name)) != names.end();
  };
  EXPECT_FALSE(listed("testing.registry.listed"));
  Function::SetGlobal("testing.registry.listed", Function::FromTyped([]() { return 1; }));
  EXPECT_TRUE(listed("testing.registry.listed"));
  EXPECT_TRUE(Function::RemoveGlobal("testing.registry.listed"));
  EXPECT_FALSE(listed("testing.registry.listed"));
}

TEST(Registry, ListedArrayIsNotChangedByLaterRegistrations) {
  Function list = Function::GetGlobalRequired("ffi.FunctionListGlobalNames");
  ffi::Array<String> before = list().cast<ffi::Array<String>>();
  size_t size = before.size();
  Function::SetGlobal("testing.registry.later", Function::FromTyped([]() { return 1; }));
  EXPECT_EQ(before.size(), size);
  EXPECT_EQ(list().cast<ffi::Array<String>>().size(), size + 1);
  Function::RemoveGlobal("testing.registry.later");
}

}  // namespace
