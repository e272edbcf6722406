// Tests of the environment functions that connect libraries to modules:
// context symbols written by the loader (TVMFFIEnvModRegisterContextSymbol)
// and the lookup of a library's imported functions
// (TVMFFIEnvModLookupFromImports), through TVM_FFI_TEST_LIB_DIR/env_module_lib.so.
#include <gtest/gtest.h>
#include <tvm/ffi/any.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/extra/c_env_api.h>
#include <tvm/ffi/extra/module.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/memory.h>
#include <tvm/ffi/string.h>

#include <cstdint>
#include <string>

#include "testing_helpers.h"

#ifndef TVM_FFI_TEST_LIB_DIR
#error "TVM_FFI_TEST_LIB_DIR must name the directory of the test libraries"
#endif

namespace {

namespace ffi = tvm::ffi;
using ffi::Any;
using ffi::Function;
using ffi::Module;
using ffi::String;
using tvm_ffi_testing::CatchError;

std::string EnvLibPath() { return std::string(TVM_FFI_TEST_LIB_DIR) + "/env_module_lib.so"; }

/*! \brief Take the raised error as an ffi::Error. */
ffi::Error TakeRaised() { return ffi::detail::MoveFromRaised(); }

/*! \brief A module with one function: name -> x * factor. */
class ScaleModuleObj : public ffi::ModuleObj {
 public:
  ScaleModuleObj(std::string name, int64_t factor) : name_(std::move(name)), factor_(factor) {}
  const char* kind() const final { return "scale"; }
  ffi::Optional<Function> GetFunction(const String& name) final {
    if (name != name_) return std::nullopt;
    int64_t factor = factor_;
    return Function::FromTyped([factor](int64_t x) { return x * factor; });
  }

 private:
  std::string name_;
  int64_t factor_;
};

Module MakeScaleModule(const std::string& name, int64_t factor) {
  return Module(ffi::make_object<ScaleModuleObj>(name, factor));
}

/*! \brief What the loader stores in a library's __tvm_ffi__library_ctx: the ModuleObj pointer. */
TVMFFIObjectHandle LibraryContext(const Module& mod) {
  return static_cast<ffi::ModuleObj*>(const_cast<ffi::ModuleObj*>(mod.get()));
}

void Import(const Module& mod, const Module& other) {
  const_cast<ffi::ModuleObj*>(mod.get())->ImportModule(other);
}

int g_context_a = 0;
int g_context_b = 0;

TEST(EnvModContextSymbol, LoaderWritesTheRegisteredSymbolIntoLaterLibraries) {
  ASSERT_EQ(TVMFFIEnvModRegisterContextSymbol("__tvm_ffi_test_env_context", &g_context_a), 0);
  Module mod = Module::LoadFromFile(EnvLibPath());
  EXPECT_EQ(mod->GetFunction("context_symbol_value").value()().cast<int64_t>(),
            reinterpret_cast<intptr_t>(&g_context_a));
}

TEST(EnvModContextSymbol, RegisteringANameAgainReplacesItsSymbol) {
  ASSERT_EQ(TVMFFIEnvModRegisterContextSymbol("__tvm_ffi_test_env_context", &g_context_a), 0);
  ASSERT_EQ(TVMFFIEnvModRegisterContextSymbol("__tvm_ffi_test_env_context", &g_context_b), 0);
  Module mod = Module::LoadFromFile(EnvLibPath());
  EXPECT_EQ(mod->GetFunction("context_symbol_value").value()().cast<int64_t>(),
            reinterpret_cast<intptr_t>(&g_context_b));
}

TEST(EnvModContextSymbol, SymbolsALibraryDoesNotExportAreSkipped) {
  ASSERT_EQ(TVMFFIEnvModRegisterContextSymbol("__tvm_ffi_test_env_absent", &g_context_a), 0);
  Module mod = Module::LoadFromFile(EnvLibPath());
  EXPECT_TRUE(mod->GetFunction("context_symbol_value").has_value());
}

TEST(EnvModContextSymbol, EmptyOrNullNameIsAValueError) {
  EXPECT_EQ(TVMFFIEnvModRegisterContextSymbol("", &g_context_a), -1);
  ffi::Error e = TakeRaised();
  EXPECT_EQ(e.kind(), "ValueError");
  EXPECT_EQ(e.message(), "TVMFFIEnvModRegisterContextSymbol: name must not be empty");
  EXPECT_EQ(TVMFFIEnvModRegisterContextSymbol(nullptr, &g_context_a), -1);
  EXPECT_EQ(TakeRaised().kind(), "ValueError");
}

TEST(EnvModLookupFromImports, FindsAFunctionOfAnImportedModule) {
  Module lib = Module::LoadFromFile(EnvLibPath());
  Import(lib, MakeScaleModule("test.env.triple", 3));
  Function call = lib->GetFunction("call_imported").value();
  EXPECT_EQ(call("test.env.triple", 14).cast<int64_t>(), 42);
  // Found again through the cache.
  EXPECT_EQ(call("test.env.triple", 5).cast<int64_t>(), 15);
}

TEST(EnvModLookupFromImports, SearchesImportsOfImportsRecursively) {
  Module lib = Module::LoadFromFile(EnvLibPath());
  Module middle = MakeScaleModule("test.env.unused", 0);
  Import(middle, MakeScaleModule("test.env.times7", 7));
  Import(lib, middle);
  EXPECT_EQ(lib->GetFunction("call_imported").value()("test.env.times7", 6).cast<int64_t>(), 42);
}

TEST(EnvModLookupFromImports, FallsBackToTheGlobalRegistry) {
  Function::SetGlobal("test.env.global_plus_one",
                      Function::FromTyped([](int64_t x) { return x + 1; }), true);
  Module lib = Module::LoadFromFile(EnvLibPath());
  EXPECT_EQ(
      lib->GetFunction("call_imported").value()("test.env.global_plus_one", 41).cast<int64_t>(),
      42);
}

TEST(EnvModLookupFromImports, MissingFunctionIsARuntimeError) {
  Module lib = Module::LoadFromFile(EnvLibPath());
  ffi::Error e =
      CatchError([&] { lib->GetFunction("call_imported").value()("test.env.nowhere", 1); });
  EXPECT_EQ(e.kind(), "RuntimeError");
  EXPECT_EQ(e.message(),
            "Cannot find function test.env.nowhere in the imported modules or global registry.");
}

TEST(EnvModLookupFromImports, ReturnsTheSameBorrowedHandleForAName) {
  Module mod = MakeScaleModule("test.env.self", 2);
  Import(mod, MakeScaleModule("test.env.double", 2));
  TVMFFIObjectHandle ctx = LibraryContext(mod);
  TVMFFIObjectHandle first = nullptr;
  TVMFFIObjectHandle second = nullptr;
  ASSERT_EQ(TVMFFIEnvModLookupFromImports(ctx, "test.env.double", &first), 0);
  ASSERT_EQ(TVMFFIEnvModLookupFromImports(ctx, "test.env.double", &second), 0);
  EXPECT_NE(first, nullptr);
  EXPECT_EQ(first, second);
  // The module's own functions are not imports.
  EXPECT_EQ(TVMFFIEnvModLookupFromImports(ctx, "test.env.self", &first), -1);
  EXPECT_EQ(TakeRaised().kind(), "RuntimeError");
}

TEST(EnvModLookupFromImports, NullArgumentsAreAValueError) {
  TVMFFIObjectHandle out = nullptr;
  EXPECT_EQ(TVMFFIEnvModLookupFromImports(nullptr, "x", &out), -1);
  EXPECT_EQ(TakeRaised().kind(), "ValueError");
  Module mod = MakeScaleModule("a", 1);
  TVMFFIObjectHandle ctx = LibraryContext(mod);
  EXPECT_EQ(TVMFFIEnvModLookupFromImports(ctx, nullptr, &out), -1);
  EXPECT_EQ(TakeRaised().kind(), "ValueError");
  EXPECT_EQ(TVMFFIEnvModLookupFromImports(ctx, "x", nullptr), -1);
  EXPECT_EQ(TakeRaised().kind(), "ValueError");
}

}  // namespace
