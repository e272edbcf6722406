// The "testing.*" functions live in the test library libtvm_ffi_testing.so,
// not in the runtime: the runtime alone registers none of them, and loading
// the test library registers them.
#include <dlfcn.h>
#include <gtest/gtest.h>

#include <tvm/ffi/any.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/string.h>

#include <cstdlib>
#include <string>

namespace {
namespace ffi = tvm::ffi;

// Names starting with "testing." except the ones this test binary registers
// itself (test_registry.cc registers "testing.registry.*").
int CountRuntimeTestingNames() {
  int count = 0;
  for (const ffi::String& name : ffi::Function::ListGlobalNames()) {
    std::string s(name);
    if (s.rfind("testing.", 0) == 0 && s.rfind("testing.registry.", 0) != 0) ++count;
  }
  return count;
}

void LoadTestingLibrary() {
  std::string path = std::string(TVM_FFI_TEST_LIB_DIR) + "/libtvm_ffi_testing.so";
  // Never closed: the registry keeps the library's functions.
  void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_GLOBAL);
  ASSERT_NE(handle, nullptr) << dlerror();
}

TEST(TestingLibrary, RuntimeAloneRegistersNoTestingFunction) {
  // A fresh process (the threadsafe style re-executes this test alone), so no
  // other test has loaded the test library yet.
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        int n = CountRuntimeTestingNames();
        std::fprintf(stderr, "testing names: %d\n", n);
        std::exit(n == 0 ? 0 : 1);
      },
      ::testing::ExitedWithCode(0), "testing names: 0");
}

TEST(TestingLibrary, LoadingRegistersTestingFunctions) {
  LoadTestingLibrary();
  EXPECT_GT(CountRuntimeTestingNames(), 0);
  EXPECT_EQ(ffi::Function::GetGlobalRequired("testing.add_one")(41).cast<int64_t>(), 42);
  EXPECT_EQ(ffi::Function::GetGlobalRequired("testing.echo")("x").cast<std::string>(), "x");
}

TEST(TestingLibrary, NopTakesAnyArgumentsAndReturnsNone) {
  LoadTestingLibrary();
  ffi::Function nop = ffi::Function::GetGlobalRequired("testing.nop");
  EXPECT_EQ(nop().type_index(), ffi::TypeIndex::kTVMFFINone);
  EXPECT_EQ(nop(1, "x", ffi::Array<int>{2}).type_index(), ffi::TypeIndex::kTVMFFINone);
}

}  // namespace
