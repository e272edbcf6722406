// Tests of ffi::Module: loading tests/cpp/testlib/export_lib.cc (built by CMake
// as TVM_FFI_TEST_LIB_DIR/export_lib.so), calling, describing (metadata, doc)
// and outliving its functions, load failures, the system library, module
// subclasses with imports, and the module globals used by language bindings.
#include <gtest/gtest.h>

#include "testing_helpers.h"
#include <tvm/ffi/any.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/extra/module.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/string.h>

#include <dlfcn.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#ifndef TVM_FFI_TEST_LIB_DIR
#error "TVM_FFI_TEST_LIB_DIR must name the directory of the test libraries"
#endif

namespace {
namespace ffi = tvm::ffi;
using ffi::Any;
using ffi::Function;
using ffi::Module;
using ffi::String;

const std::string kExportLib = std::string(TVM_FFI_TEST_LIB_DIR) + "/export_lib.so";

using tvm_ffi_testing::CatchError;

int CountLines(const std::string& s) {
  int n = 0;
  for (char c : s) n += c == '\n';
  return n;
}

bool LibraryIsLoaded(const std::string& path) {
  void* h = dlopen(path.c_str(), RTLD_LAZY | RTLD_NOLOAD);
  if (h == nullptr) return false;
  dlclose(h);
  return true;
}

TEST(Module, GuideExample) {
  Module mod = Module::LoadFromFile(kExportLib);
  Function func = mod->GetFunction("add_one").value();
  EXPECT_EQ(func(41).cast<int>(), 42);
  ffi::Optional<String> metadata = mod->GetFunctionMetadata("add_one");
  ASSERT_TRUE(metadata.has_value());
  EXPECT_EQ(metadata.value(),
            R"({"type_schema": "{\"type\":\"ffi.Function\",\"args\":[{\"type\":\"int\"},)"
            R"({\"type\":\"int\"}]}"})");
  ffi::Optional<String> doc = mod->GetFunctionDoc("process_batch");
  ASSERT_TRUE(doc.has_value());
  EXPECT_EQ(doc.value(),
            "Process a batch of inputs and write results to output tensor.\n\n"
            "Parameters\n----------\ninput : TensorView\n    Input tensor to process\n"
            "output : TensorView\n    Output tensor for results");
  EXPECT_EQ(mod->GetFunctionDoc("add_one").value(), "Add one to x.");
  EXPECT_EQ(mod->GetFunctionMetadata("process_batch").value(),
            R"({"type_schema": "{\"type\":\"ffi.Function\",\"args\":[{\"type\":\"None\"},)"
            R"({\"type\":\"DLTensor*\"},{\"type\":\"DLTensor*\"}]}"})");
}

TEST(Module, LookupsAndCache) {
  Module mod = Module::LoadFromFile(kExportLib);
  EXPECT_EQ(mod.GetTypeKey(), "ffi.Module");
  EXPECT_EQ(mod->type_index(), kTVMFFIModule);
  EXPECT_STREQ(mod->kind(), "library");
  EXPECT_TRUE(mod->ImplementsFunction("add_one"));
  EXPECT_TRUE(mod->ImplementsFunction("sub_one"));
  EXPECT_FALSE(mod->ImplementsFunction("no_such_function"));
  EXPECT_FALSE(mod->GetFunction("no_such_function").has_value());
  EXPECT_FALSE(mod->GetFunctionMetadata("no_such_function").has_value());
  EXPECT_FALSE(mod->GetFunctionDoc("no_such_function").has_value());
  // Exported before the metadata flag was set: callable, but undescribed.
  EXPECT_EQ(mod->GetFunction("sub_one").value()(10).cast<int>(), 9);
  EXPECT_FALSE(mod->GetFunctionMetadata("sub_one").has_value());
  EXPECT_FALSE(mod->GetFunctionDoc("sub_one").has_value());
  // Functions are cached per name.
  Function a = mod->GetFunction("add_one").value();
  Function b = mod->GetFunction("add_one").value();
  EXPECT_TRUE(a.same_as(b));
  EXPECT_EQ(a->cpp_call, nullptr);
  EXPECT_EQ(mod->GetFunction("concat").value()("ab", String("cd")).cast<String>(), "abcd");
}

TEST(Module, TensorArguments) {
  Module mod = Module::LoadFromFile(kExportLib);
  Function process = mod->GetFunction("process_batch").value();
  float in_data[4] = {1, 2, 3, 4};
  float out_data[4] = {0, 0, 0, 0};
  int64_t shape[2] = {2, 2};
  DLTensor in{};
  in.data = in_data;
  in.device = DLDevice{kDLCPU, 0};
  in.ndim = 2;
  in.dtype = DLDataType{kDLFloat, 32, 1};
  in.shape = shape;
  DLTensor out = in;
  out.data = out_data;
  process(&in, &out);
  EXPECT_FLOAT_EQ(out_data[3], 8.0f);
  out.dtype = DLDataType{kDLInt, 32, 1};
  ffi::Error e = CatchError([&] { process(&in, &out); });
  EXPECT_EQ(e.kind(), "TypeError");
  EXPECT_EQ(e.message(), "process_batch expects float32 tensors");
}

TEST(Module, LibraryContextIsSet) {
  Module mod = Module::LoadFromFile(kExportLib);
  void* ctx = mod->GetFunction("get_library_ctx").value()().cast<void*>();
  EXPECT_EQ(ctx, ffi::details::ObjectUnsafe::GetHeader(mod.get()));
}

TEST(Module, FunctionsOutliveTheModule) {
  Function add_one, make_adder;
  {
    Module mod = Module::LoadFromFile(kExportLib);
    add_one = mod->GetFunction("add_one").value();
    make_adder = mod->GetFunction("make_adder").value();
    EXPECT_EQ(mod.use_count(), 1);
  }
  ASSERT_TRUE(LibraryIsLoaded(kExportLib));
  EXPECT_EQ(add_one(1).cast<int>(), 2);
  {
    // A closure made by the library's code, used while the library is held.
    Function adder = make_adder(100).cast<Function>();
    EXPECT_EQ(adder(5).cast<int>(), 105);
    ffi::Error e = CatchError([&] { adder("x"); });
    EXPECT_EQ(e.message(),
              "Mismatched type on argument #0 when calling: `adder(0: int) -> int`. "
              "Expected `int` but got `str`");
  }
  // Objects made by the library's code outlive its Module and functions too.
  Function kept_adder = make_adder(7).cast<Function>();
  make_adder = Function();
  EXPECT_EQ(add_one(2).cast<int>(), 3);
  add_one = Function();
  EXPECT_EQ(kept_adder(1).cast<int>(), 8);
  kept_adder = Function();
  ASSERT_TRUE(LibraryIsLoaded(kExportLib));
  // Loading again after everything was released works.
  Module again = Module::LoadFromFile(kExportLib);
  EXPECT_EQ(again->GetFunction("add_one").value()(0).cast<int>(), 1);
}

TEST(Module, ErrorsFromTheLibrary) {
  Module mod = Module::LoadFromFile(kExportLib);
  Function add_one = mod->GetFunction("add_one").value();
  ffi::Error e = CatchError([&] { add_one("one"); });
  EXPECT_EQ(e.kind(), "TypeError");
  EXPECT_EQ(e.message(),
            "Mismatched type on argument #0 when calling: `add_one(0: int) -> int`. "
            "Expected `int` but got `str`");
  e = CatchError([&] { add_one(); });
  EXPECT_EQ(e.message(),
            "Mismatched number of arguments when calling: `add_one(0: int) -> int`. "
            "Expected 1 but got 0 arguments");
  Function raise = mod->GetFunction("raise_error").value();
  e = CatchError([&] { raise("ValueError", "bad value"); });
  EXPECT_EQ(e.kind(), "ValueError");
  EXPECT_EQ(e.message(), "bad value");
  e = CatchError([&] { raise("IndexError", "bad index"); });
  EXPECT_EQ(e.kind(), "IndexError");
  e = CatchError([&] { raise("std", "std exception text"); });
  EXPECT_EQ(e.kind(), "InternalError");
  EXPECT_EQ(e.message(), "std exception text");
}

TEST(Module, ErrorsCrossSeveralBoundaries) {
  setenv("TVM_FFI_BACKTRACE", "0", 1);
  Module mod = Module::LoadFromFile(kExportLib);
  Function call_back = mod->GetFunction("call_back").value();
  Function good = Function::FromTyped([](int64_t x) { return x * 10; });
  EXPECT_EQ(call_back(good, 4).cast<int>(), 41);
  // test -> library -> test: the error passes two boundaries on its way back.
  Function bad = Function::FromTyped([](int64_t x) -> int64_t {
    if (x > 0) TVM_FFI_THROW(ValueError) << "callback refused " << x;
    return x;
  });
  ffi::Error e = CatchError([&] { call_back(bad, 4); });
  unsetenv("TVM_FFI_BACKTRACE");
  EXPECT_EQ(e.kind(), "ValueError");
  EXPECT_EQ(e.message(), "callback refused 4");
  // The throw site, then one frame for each boundary crossed.
  EXPECT_EQ(CountLines(e.backtrace()), 3) << e.backtrace();
  std::string first_line = e.backtrace().substr(0, e.backtrace().find('\n'));
  EXPECT_NE(first_line.find("test_module.cc"), std::string::npos) << e.backtrace();
}

TEST(Module, LoadMissingFile) {
  std::string path = "/nonexistent/dir/libmissing_module.so";
  ffi::Error e = CatchError([&] { Module::LoadFromFile(path); });
  EXPECT_EQ(e.kind(), "RuntimeError");
  EXPECT_EQ(e.message().rfind("Failed to load module \"" + path + "\": ", 0), 0) << e.message();
  EXPECT_NE(e.message().find("No such file or directory"), std::string::npos) << e.message();
  ffi::Error empty = CatchError([] { Module::LoadFromFile(""); });
  EXPECT_EQ(empty.kind(), "ValueError");
}

TEST(Module, LoadNonLibraryFile) {
  char dir_template[] = "/tmp/tvm_ffi_test_module_XXXXXX";
  char* dir = mkdtemp(dir_template);
  ASSERT_NE(dir, nullptr);
  std::string path = std::string(dir) + "/not_a_library.so";
  {
    std::ofstream out(path);
    out << "this is a text file, not a shared library\n";
  }
  ffi::Error e = CatchError([&] { Module::LoadFromFile(path); });
  EXPECT_EQ(e.kind(), "RuntimeError");
  EXPECT_EQ(e.message().rfind("Failed to load module \"" + path + "\": ", 0), 0) << e.message();
  // dlerror() names the file and says why (e.g. "invalid ELF header").
  std::string loader_text = e.message().substr(e.message().find("\": ") + 3);
  EXPECT_NE(loader_text.find(path), std::string::npos) << e.message();
  EXPECT_GT(loader_text.size(), path.size());
  std::remove(path.c_str());
  rmdir(dir);
}

TEST(Module, RuntimeGlobals) {
  Module mod = Function::GetGlobalRequired("ffi.ModuleLoadFromFile")(kExportLib).cast<Module>();
  Function get = Function::GetGlobalRequired("ffi.ModuleGetFunction");
  EXPECT_EQ(get(mod, "add_one", false).cast<Function>()(1).cast<int>(), 2);
  EXPECT_TRUE(get(mod, "missing", true).is_none());
  Function implements = Function::GetGlobalRequired("ffi.ModuleImplementsFunction");
  EXPECT_TRUE(implements(mod, "add_one").cast<bool>());
  EXPECT_FALSE(implements(mod, "missing").cast<bool>());
  Function meta = Function::GetGlobalRequired("ffi.ModuleGetFunctionMetadata");
  EXPECT_EQ(meta(mod, "add_one").cast<String>(), mod->GetFunctionMetadata("add_one").value());
  EXPECT_TRUE(meta(mod, "sub_one").is_none());
  Function doc = Function::GetGlobalRequired("ffi.ModuleGetFunctionDoc");
  EXPECT_EQ(doc(mod, "add_one").cast<String>(), "Add one to x.");
  EXPECT_TRUE(doc(mod, "missing").is_none());
  ffi::Error e = CatchError([&] { get(Module(), "add_one", false); });
  EXPECT_EQ(e.kind(), "ValueError");
  EXPECT_EQ(e.message(), "ffi.ModuleGetFunction: the module is None");
  e = CatchError([&] { get(1, "add_one", false); });
  EXPECT_EQ(e.message(),
            "Mismatched type on argument #0 when calling: `ffi.ModuleGetFunction(0: Module, 1: "
            "str, 2: bool) -> Optional<Function>`. Expected `Module` but got `int`");
}

TEST(Module, ConcurrentGetFunction) {
  Module mod = Module::LoadFromFile(kExportLib);
  std::vector<std::thread> threads;
  std::vector<int64_t> sums(8, 0);
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&mod, &sums, t] {
      for (int i = 0; i < 200; ++i) {
        sums[t] += mod->GetFunction(i % 2 ? "add_one" : "sub_one").value()(i).cast<int64_t>();
      }
    });
  }
  for (auto& th : threads) th.join();
  for (int64_t s : sums) EXPECT_EQ(s, 199 * 200 / 2);
}

// ---------------------------------------------------------------------------
// System library
// ---------------------------------------------------------------------------
int64_t SysMul(int64_t a, int64_t b) { return a * b; }
}  // namespace

#define TVM_FFI_DLL_EXPORT_INCLUDE_METADATA 1
TVM_FFI_DLL_EXPORT_TYPED_FUNC(testing_sys_mul, SysMul);
TVM_FFI_DLL_EXPORT_TYPED_FUNC_DOC(testing_sys_mul, "Multiply two ints.");

namespace {
TVM_FFI_STATIC_INIT_BLOCK() {
  TVMFFIEnvModRegisterSystemLibSymbol("__tvm_ffi_testing_sys_mul",
                                      reinterpret_cast<void*>(__tvm_ffi_testing_sys_mul));
  TVMFFIEnvModRegisterSystemLibSymbol("__tvm_ffi__metadata_testing_sys_mul",
                                      reinterpret_cast<void*>(__tvm_ffi__metadata_testing_sys_mul));
  TVMFFIEnvModRegisterSystemLibSymbol("__tvm_ffi__doc_testing_sys_mul",
                                      reinterpret_cast<void*>(__tvm_ffi__doc_testing_sys_mul));
  // The same function under a prefix.
  TVMFFIEnvModRegisterSystemLibSymbol("__tvm_ffi_myprefix_mul",
                                      reinterpret_cast<void*>(__tvm_ffi_testing_sys_mul));
}

TEST(Module, SystemLib) {
  Module sys = Module::SystemLib();
  EXPECT_STREQ(sys->kind(), "system_lib");
  EXPECT_TRUE(sys.same_as(Module::SystemLib()));
  EXPECT_TRUE(sys->ImplementsFunction("testing_sys_mul"));
  EXPECT_EQ(sys->GetFunction("testing_sys_mul").value()(6, 7).cast<int>(), 42);
  EXPECT_EQ(sys->GetFunctionDoc("testing_sys_mul").value(), "Multiply two ints.");
  EXPECT_EQ(sys->GetFunctionMetadata("testing_sys_mul").value(),
            R"({"type_schema": "{\"type\":\"ffi.Function\",\"args\":[{\"type\":\"int\"},)"
            R"({\"type\":\"int\"},{\"type\":\"int\"}]}"})");
  EXPECT_FALSE(sys->GetFunction("not_registered").has_value());
  Module prefixed = Module::SystemLib("myprefix_");
  EXPECT_FALSE(prefixed.same_as(sys));
  EXPECT_EQ(prefixed->GetFunction("mul").value()(3, 3).cast<int>(), 9);
  EXPECT_FALSE(prefixed->GetFunction("testing_sys_mul").has_value());
  // Through the runtime global, with and without a prefix.
  Function sys_lib = Function::GetGlobalRequired("ffi.SystemLib");
  EXPECT_TRUE(sys_lib().cast<Module>().same_as(sys));
  EXPECT_TRUE(sys_lib("myprefix_").cast<Module>().same_as(prefixed));
  ffi::Error e = CatchError([&] { sys_lib(1); });
  EXPECT_EQ(e.kind(), "TypeError");
  EXPECT_EQ(e.message(), "ffi.SystemLib: prefix must be `str`, got `int`");
}

// ---------------------------------------------------------------------------
// A module subclass with imports
// ---------------------------------------------------------------------------
class TableModuleObj : public ffi::ModuleObj {
 public:
  explicit TableModuleObj(std::string tag) : tag_(std::move(tag)) {}
  const char* kind() const final { return "table"; }
  ffi::Optional<Function> LookupFunction(const String& name) const final {
    ++lookups;
    if (name != tag_) return std::nullopt;
    std::string tag = tag_;
    return Function::FromTyped([tag]() { return String(tag); });
  }
  mutable int lookups = 0;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("testing.TableModule", TableModuleObj, ffi::ModuleObj);

 private:
  std::string tag_;
};

TEST(Module, SubclassAndImports) {
  Module root(ffi::make_object<TableModuleObj>("root"));
  Module child(ffi::make_object<TableModuleObj>("child"));
  EXPECT_EQ(root.GetTypeKey(), "testing.TableModule");
  EXPECT_TRUE(root->IsInstance<ffi::ModuleObj>());
  // Stored in Any and read back as a Module.
  Any stored = root;
  EXPECT_TRUE(stored.cast<Module>().same_as(root));
  EXPECT_NE(stored.as<ffi::ModuleObj>(), nullptr);
  const_cast<ffi::ModuleObj*>(root.get())->ImportModule(child);
  EXPECT_EQ(root->imports().size(), 1u);
  EXPECT_EQ(root->GetFunction("root").value()().cast<String>(), "root");
  EXPECT_FALSE(root->GetFunction("child").has_value());
  EXPECT_EQ(root->GetFunction("child", true).value()().cast<String>(), "child");
  EXPECT_TRUE(root->ImplementsFunction("root"));
  EXPECT_FALSE(root->GetFunctionMetadata("root").has_value());
  // Found functions are cached; lookups of missing ones are repeated.
  const auto* impl = static_cast<const TableModuleObj*>(root.get());
  int before = impl->lookups;
  root->GetFunction("root");
  EXPECT_EQ(impl->lookups, before);
  ffi::Error e = CatchError([&] { const_cast<ffi::ModuleObj*>(root.get())->ImportModule(root); });
  EXPECT_EQ(e.message(), "A module cannot import itself");
}

}  // namespace
