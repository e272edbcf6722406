// Tests of ffi::Module: loading tests/cpp/testlib/export_lib.cc (built by CMake
// as TVM_FFI_TEST_LIB_DIR/export_lib.so), calling, describing (metadata, doc)
// and outliving its functions, load failures, the system library, module
// subclasses with imports, and the module globals used by language bindings.
#include <gtest/gtest.h>

#include <tvm/ffi/any.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/extra/module.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/string.h>
#include "testing_helpers.h"

#include <dlfcn.h>
#include <elf.h>
#include <unistd.h>

#include <algorithm>
#include <cstddef>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>
#include <thread>
#include <vector>

// Declared by the environment API header (extra/c_env_api.h).
extern "C" {
TVM_FFI_DLL int TVMFFIEnvModRegisterContextSymbol(const char* name, void* symbol);
TVM_FFI_DLL int TVMFFIEnvModLookupFromImports(TVMFFIObjectHandle library_ctx, const char* func_name,
                                              TVMFFIObjectHandle* out);
}

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
            R"({"type_schema": "{\"type\":\"ffi.Function\",\"named_args\":{\"return\":)"
            R"([{\"type\":\"int\"}],\"params\":[{\"type\":\"int\"}]}}"})");
  ffi::Optional<String> doc = mod->GetFunctionDoc("process_batch");
  ASSERT_TRUE(doc.has_value());
  EXPECT_EQ(doc.value(),
            "Process a batch of inputs and write results to output tensor.\n\n"
            "Parameters\n----------\ninput : TensorView\n    Input tensor to process\n"
            "output : TensorView\n    Output tensor for results");
  EXPECT_EQ(mod->GetFunctionDoc("add_one").value(), "Add one to x.");
  EXPECT_EQ(mod->GetFunctionMetadata("process_batch").value(),
            R"({"type_schema": "{\"type\":\"ffi.Function\",\"named_args\":{\"return\":)"
            R"([{\"type\":\"None\"}],\"params\":[{\"type\":\"DLTensor*\"},)"
            R"({\"type\":\"DLTensor*\"}]}}"})");
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
  // The ModuleObj* itself (vptr address), not its object header.
  EXPECT_EQ(ctx, static_cast<void*>(mod.get()));
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
              "Expected `int` but got `const char*`");
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
            "Expected `int` but got `const char*`");
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
  EXPECT_EQ(e.message().rfind("Failed to load dynamic shared library " + path + " ", 0), 0)
      << e.message();
  EXPECT_NE(e.message().find("No such file or directory"), std::string::npos) << e.message();
  ffi::Error empty = CatchError([] { Module::LoadFromFile(""); });
  EXPECT_EQ(empty.kind(), "RuntimeError");
  EXPECT_EQ(empty.message(), "Failed to get file format from ");
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
  std::string prefix = "Failed to load dynamic shared library " + path + " ";
  EXPECT_EQ(e.message().rfind(prefix, 0), 0) << e.message();
  // dlerror() names the file and says why (e.g. "invalid ELF header").
  std::string loader_text = e.message().substr(prefix.size());
  EXPECT_NE(loader_text.find(path), std::string::npos) << e.message();
  EXPECT_GT(loader_text.size(), path.size());
  std::remove(path.c_str());
  rmdir(dir);
}

TEST(Module, LoadFromFileWithoutExtension) {
  ffi::Error e = CatchError([] { Module::LoadFromFile("/tmp/some.dir/libnoext"); });
  EXPECT_EQ(e.kind(), "RuntimeError");
  EXPECT_EQ(e.message(), "Failed to get file format from /tmp/some.dir/libnoext");
}

TEST(Module, LoadFromFileUnknownFormat) {
  ffi::Error e = CatchError([] { Module::LoadFromFile("/tmp/model.xyz"); });
  EXPECT_EQ(e.kind(), "RuntimeError");
  EXPECT_EQ(e.message(),
            "Loader for `.xyz` files is not registered, resolved to "
            "(ffi.Module.load_from_file.xyz) in the global registry.");
}

TEST(Module, LoadFromFileMapsDylibToTheSoLoader) {
  char dir_template[] = "/tmp/tvm_ffi_test_module_XXXXXX";
  char* dir = mkdtemp(dir_template);
  ASSERT_NE(dir, nullptr);
  for (const char* ext : {"dylib", "dll", "dso"}) {
    std::string link = std::string(dir) + "/export_lib." + ext;
    ASSERT_EQ(symlink(kExportLib.c_str(), link.c_str()), 0);
    Module mod = Module::LoadFromFile(link);
    EXPECT_STREQ(mod->kind(), "library");
    EXPECT_EQ(mod->GetFunction("add_one").value()(1).cast<int>(), 2);
    std::remove(link.c_str());
  }
  rmdir(dir);
}

TEST(Module, BuiltinSoLoaderIsAGlobal) {
  Function loader = Function::GetGlobalRequired("ffi.Module.load_from_file.so");
  Module mod = loader(kExportLib, "so").cast<Module>();
  EXPECT_EQ(mod->GetFunction("add_one").value()(1).cast<int>(), 2);
}

TEST(Module, RuntimeGlobals) {
  Module mod = Function::GetGlobalRequired("ffi.ModuleLoadFromFile")(kExportLib).cast<Module>();
  Function get = Function::GetGlobalRequired("ffi.ModuleGetFunction");
  EXPECT_EQ(get(mod, "add_one", false).cast<Function>()(1).cast<int>(), 2);
  EXPECT_TRUE(get(mod, "missing", true).is_none());
  Function implements = Function::GetGlobalRequired("ffi.ModuleImplementsFunction");
  EXPECT_TRUE(implements(mod, "add_one", false).cast<bool>());
  EXPECT_FALSE(implements(mod, "missing", true).cast<bool>());
  Function meta = Function::GetGlobalRequired("ffi.ModuleGetFunctionMetadata");
  EXPECT_EQ(meta(mod, "add_one", false).cast<String>(),
            mod->GetFunctionMetadata("add_one").value());
  EXPECT_TRUE(meta(mod, "sub_one", false).is_none());
  Function doc = Function::GetGlobalRequired("ffi.ModuleGetFunctionDoc");
  EXPECT_EQ(doc(mod, "add_one", false).cast<String>(), "Add one to x.");
  EXPECT_TRUE(doc(mod, "missing", false).is_none());
  EXPECT_EQ(Function::GetGlobalRequired("ffi.ModuleGetKind")(mod).cast<String>(), "library");
  EXPECT_EQ(Function::GetGlobalRequired("ffi.ModuleGetPropertyMask")(mod).cast<int>(),
            Module::kBinarySerializable | Module::kRunnable);
  EXPECT_EQ(Function::GetGlobalRequired("ffi.ModuleInspectSource")(mod, "").cast<String>(), "");
  Function write_formats = Function::GetGlobalRequired("ffi.ModuleGetWriteFormats");
  EXPECT_EQ(write_formats(mod).cast<ffi::Array<String>>().size(), 0u);
  ffi::Error e = CatchError(
      [&] { Function::GetGlobalRequired("ffi.ModuleWriteToFile")(mod, "/tmp/x.so", "so"); });
  EXPECT_EQ(e.kind(), "RuntimeError");
  EXPECT_EQ(e.message(), "Module[library] does not support WriteToFile");
}

TEST(Module, RuntimeGlobalsRejectNonModules) {
  Function get = Function::GetGlobalRequired("ffi.ModuleGetFunction");
  ffi::Error e = CatchError([&] { get(nullptr, "add_one", false); });
  EXPECT_EQ(e.kind(), "TypeError");
  EXPECT_EQ(e.message(),
            "Mismatched type on argument #0 when calling: `ffi.ModuleGetFunction(0: ffi.Module, "
            "1: str, 2: bool) -> Optional<ffi.Function>`. Expected `ffi.Module` but got `None`");
  e = CatchError([&] { get(1, "add_one", false); });
  EXPECT_EQ(e.message(),
            "Mismatched type on argument #0 when calling: `ffi.ModuleGetFunction(0: ffi.Module, "
            "1: str, 2: bool) -> Optional<ffi.Function>`. Expected `ffi.Module` but got `int`");
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

TEST(Module, SystemLibReportsTheKindAndPropertiesOfALibrary) {
  Module sys = Module::SystemLib();
  EXPECT_STREQ(sys->kind(), "library");
  EXPECT_EQ(sys->GetPropertyMask(), Module::kBinarySerializable | Module::kRunnable);
}

TEST(Module, SystemLib) {
  Module sys = Module::SystemLib();
  EXPECT_TRUE(sys.same_as(Module::SystemLib()));
  EXPECT_TRUE(sys->ImplementsFunction("testing_sys_mul"));
  EXPECT_EQ(sys->GetFunction("testing_sys_mul").value()(6, 7).cast<int>(), 42);
  EXPECT_EQ(sys->GetFunctionDoc("testing_sys_mul").value(), "Multiply two ints.");
  EXPECT_EQ(sys->GetFunctionMetadata("testing_sys_mul").value(),
            R"({"type_schema": "{\"type\":\"ffi.Function\",\"named_args\":{\"return\":)"
            R"([{\"type\":\"int\"}],\"params\":[{\"type\":\"int\"},{\"type\":\"int\"}]}}"})");
  EXPECT_FALSE(sys->GetFunction("not_registered").has_value());
  // Function lookups are made once per name.
  EXPECT_TRUE(sys->GetFunction("testing_sys_mul")
                  .value()
                  .same_as(sys->GetFunction("testing_sys_mul").value()));
}

TEST(Module, SystemLibPrefixFallsBackToPlainName) {
  Module sys = Module::SystemLib();
  Module prefixed = Module::SystemLib("myprefix_");
  EXPECT_FALSE(prefixed.same_as(sys));
  EXPECT_EQ(prefixed->GetFunction("mul").value()(3, 3).cast<int>(), 9);
  EXPECT_FALSE(sys->GetFunction("mul").has_value());
  // Without <prefix><name>, <name> itself is looked up.
  EXPECT_EQ(prefixed->GetFunction("testing_sys_mul").value()(2, 3).cast<int>(), 6);
  EXPECT_EQ(prefixed->GetFunctionDoc("testing_sys_mul").value(), "Multiply two ints.");
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
  ffi::Optional<Function> GetFunction(const String& name) final {
    ++lookups;
    if (name != tag_) return std::nullopt;
    std::string tag = tag_;
    return Function::FromTyped([tag](int64_t x) { return String(tag + std::to_string(x)); });
  }
  ffi::Optional<String> GetFunctionDoc(const String& name) final {
    if (name != tag_) return std::nullopt;
    return String("doc of " + tag_);
  }
  ffi::Optional<String> GetFunctionMetadata(const String& name) final {
    if (name != tag_) return std::nullopt;
    return String("{}");
  }
  /*! \brief Address of the protected imports_ member (layout checks). */
  const void* imports_address() const { return &imports_; }
  int lookups = 0;

 private:
  std::string tag_;
};

/*! \brief A subclass that overrides only what it must: the defaults show. */
class MinimalModuleObj : public ffi::ModuleObj {
 public:
  const char* kind() const final { return "minimal"; }
  ffi::Optional<Function> GetFunction(const String& name) final {
    if (name != "f") return std::nullopt;
    return Function::FromTyped([]() { return 1; });
  }
};

Module MakeTable(const std::string& tag) { return Module(ffi::make_object<TableModuleObj>(tag)); }

TEST(Module, LayoutMatchesTheBinaryInterface) {
  static_assert(sizeof(ffi::ModuleObj) == 48, "vptr, header, imports_, import_lookup_cache_");
  auto obj = ffi::make_object<TableModuleObj>("t");
  const char* base = reinterpret_cast<const char*>(static_cast<ffi::ModuleObj*>(obj.get()));
  EXPECT_EQ(reinterpret_cast<const char*>(ffi::detail::ObjectUnsafe::GetHeader(obj.get())) - base,
            8);
  EXPECT_EQ(static_cast<const char*>(obj->imports_address()) - base, 32);
  EXPECT_EQ(Module::kBinarySerializable, 1);
  EXPECT_EQ(Module::kRunnable, 2);
  EXPECT_EQ(Module::kCompilationExportable, 4);
  EXPECT_STREQ(ffi::symbol::tvm_ffi_symbol_prefix, "__tvm_ffi_");
  EXPECT_STREQ(ffi::symbol::tvm_ffi_main, "__tvm_ffi_main");
  EXPECT_STREQ(ffi::symbol::tvm_ffi_library_ctx, "__tvm_ffi__library_ctx");
  EXPECT_STREQ(ffi::symbol::tvm_ffi_library_bin, "__tvm_ffi__library_bin");
  EXPECT_STREQ(ffi::symbol::tvm_ffi_metadata_prefix, "__tvm_ffi__metadata_");
  EXPECT_STREQ(ffi::symbol::tvm_ffi_doc_prefix, "__tvm_ffi__doc_");
}

TEST(Module, SubclassIsAnFfiModule) {
  Module root = MakeTable("root");
  EXPECT_EQ(root.GetTypeKey(), "ffi.Module");
  EXPECT_EQ(root->type_index(), kTVMFFIModule);
  Any stored = root;
  EXPECT_TRUE(stored.cast<Module>().same_as(root));
  EXPECT_NE(stored.as<ffi::ModuleObj>(), nullptr);
  EXPECT_EQ(Function::GetGlobalRequired("ffi.ModuleGetKind")(root).cast<String>(), "table");
}

TEST(Module, NullModuleIsRejected) {
  ffi::Error e = CatchError([] { Module m{ffi::ObjectPtr<ffi::ModuleObj>(nullptr)}; });
  EXPECT_EQ(e.kind(), "InternalError");
}

TEST(Module, SubclassDefaults) {
  Module mod(ffi::make_object<MinimalModuleObj>());
  EXPECT_EQ(mod->GetPropertyMask(), 0);
  EXPECT_TRUE(mod->ImplementsFunction("f"));
  EXPECT_FALSE(mod->ImplementsFunction("g"));
  EXPECT_FALSE(mod->GetFunctionDoc("f").has_value());
  EXPECT_FALSE(mod->GetFunctionMetadata("f").has_value());
  EXPECT_EQ(mod->GetWriteFormats().size(), 0u);
  EXPECT_EQ(mod->InspectSource("asm"), "");
  EXPECT_EQ(mod->imports().size(), 0u);
  ffi::Error e = CatchError([&] { mod->WriteToFile("/tmp/never", "so"); });
  EXPECT_EQ(e.kind(), "RuntimeError");
  EXPECT_EQ(e.message(), "Module[minimal] does not support WriteToFile");
  e = CatchError([&] { mod->SaveToBytes(); });
  EXPECT_EQ(e.kind(), "RuntimeError");
  EXPECT_EQ(e.message(), "Module[minimal] does not support SaveToBytes");
}

TEST(Module, ImportsAreSearchedInOrderWhenAsked) {
  Module root = MakeTable("root");
  Module a = MakeTable("a");
  Module b = MakeTable("b");
  Module a_child = MakeTable("deep");
  a->ImportModule(a_child);
  root->ImportModule(a);
  root->ImportModule(b);
  ASSERT_EQ(root->imports().size(), 2u);
  EXPECT_TRUE(root->imports()[0].cast<Module>().same_as(a));
  EXPECT_TRUE(root->imports()[1].cast<Module>().same_as(b));
  EXPECT_EQ(root->GetFunction("root", false).value()(1).cast<String>(), "root1");
  EXPECT_FALSE(root->GetFunction("b", false).has_value());
  EXPECT_EQ(root->GetFunction("b", true).value()(2).cast<String>(), "b2");
  EXPECT_EQ(root->GetFunction("deep", true).value()(3).cast<String>(), "deep3");
  EXPECT_FALSE(root->GetFunction("nowhere", true).has_value());
  EXPECT_FALSE(root->ImplementsFunction("deep", false));
  EXPECT_TRUE(root->ImplementsFunction("deep", true));
  EXPECT_FALSE(root->ImplementsFunction("nowhere", true));
  EXPECT_FALSE(root->GetFunctionDoc("b", false).has_value());
  EXPECT_EQ(root->GetFunctionDoc("b", true).value(), "doc of b");
  EXPECT_EQ(root->GetFunctionMetadata("deep", true).value(), "{}");
  EXPECT_FALSE(root->GetFunctionMetadata("nowhere", true).has_value());
  // The runtime globals pass query_imports through.
  Function get = Function::GetGlobalRequired("ffi.ModuleGetFunction");
  EXPECT_TRUE(get(root, "b", false).is_none());
  EXPECT_EQ(get(root, "b", true).cast<Function>()(4).cast<String>(), "b4");
  EXPECT_TRUE(
      Function::GetGlobalRequired("ffi.ModuleImplementsFunction")(root, "deep", true).cast<bool>());
  EXPECT_EQ(Function::GetGlobalRequired("ffi.ModuleGetFunctionDoc")(root, "a", true).cast<String>(),
            "doc of a");
}

TEST(Module, CyclicImportIsRejected) {
  Module a = MakeTable("a");
  Module b = MakeTable("b");
  Module c = MakeTable("c");
  a->ImportModule(b);
  b->ImportModule(c);
  ffi::Error e = CatchError([&] { c->ImportModule(a); });
  EXPECT_EQ(e.kind(), "RuntimeError");
  EXPECT_EQ(e.message(), "Cyclic dependency detected during import");
  e = CatchError([&] { a->ImportModule(a); });
  EXPECT_EQ(e.message(), "Cyclic dependency detected during import");
  // The failed imports left the lists as they were.
  EXPECT_EQ(c->imports().size(), 0u);
  EXPECT_EQ(a->imports().size(), 1u);
  // Importing the same module twice (no cycle) is allowed.
  a->ImportModule(c);
  EXPECT_EQ(a->imports().size(), 2u);
}

TEST(Module, ImportAndClearThroughGlobals) {
  Module root = MakeTable("root");
  Module child = MakeTable("child");
  Function import_module = Function::GetGlobalRequired("ffi.ModuleImportModule");
  import_module(root, child);
  EXPECT_EQ(root->imports().size(), 1u);
  ffi::Error e = CatchError([&] { import_module(child, root); });
  EXPECT_EQ(e.message(), "Cyclic dependency detected during import");
  Function::GetGlobalRequired("ffi.ModuleClearImports")(root);
  EXPECT_EQ(root->imports().size(), 0u);
  EXPECT_FALSE(root->GetFunction("child", true).has_value());
}

TEST(Module, ModuleGlobalsKeepAModuleAlive) {
  Function add = Function::GetGlobalRequired("ffi.ModuleGlobalsAdd");
  Function remove = Function::GetGlobalRequired("ffi.ModuleGlobalsRemove");
  Module mod = MakeTable("kept");
  add(mod);
  add(mod);
  EXPECT_EQ(mod.use_count(), 2);  // one reference however often it is added
  remove(mod);
  EXPECT_EQ(mod.use_count(), 2);
  remove(mod);
  EXPECT_EQ(mod.use_count(), 1);
  remove(mod);  // not added any more: no-op
  EXPECT_EQ(mod.use_count(), 1);
}

// ---------------------------------------------------------------------------
// Context symbols and the lookup from a library's imports
// ---------------------------------------------------------------------------
int g_context_value = 0;

TEST(Module, ContextSymbolsAreWrittenIntoLoadedLibraries) {
  ASSERT_EQ(TVMFFIEnvModRegisterContextSymbol("__tvm_ffi_test_context_symbol", &g_context_value),
            0);
  Module mod = Module::LoadFromFile(kExportLib);
  EXPECT_EQ(mod->GetFunction("get_context_symbol").value()().cast<void*>(),
            static_cast<void*>(&g_context_value));
  std::vector<std::pair<std::string, void*>> seen;
  Module::VisitContextSymbols(
      [&seen](String name, void* symbol) { seen.emplace_back(std::string(name), symbol); });
  bool found = false;
  for (const auto& [name, symbol] : seen) {
    if (name == "__tvm_ffi_test_context_symbol") {
      found = true;
      EXPECT_EQ(symbol, static_cast<void*>(&g_context_value));
    }
  }
  EXPECT_TRUE(found);
}

TEST(Module, RegisterContextSymbolRejectsEmptyName) {
  EXPECT_EQ(TVMFFIEnvModRegisterContextSymbol(nullptr, &g_context_value), -1);
  ffi::Error e = ffi::detail::MoveFromRaised();
  EXPECT_EQ(e.kind(), "ValueError");
  EXPECT_EQ(TVMFFIEnvModRegisterContextSymbol("", &g_context_value), -1);
  EXPECT_EQ(ffi::detail::MoveFromRaised().kind(), "ValueError");
}

TEST(Module, LookupFromImportsSearchesImportsThenGlobals) {
  Module root = MakeTable("root");
  root->ImportModule(MakeTable("imported"));
  TVMFFIObjectHandle handle = nullptr;
  ASSERT_EQ(TVMFFIEnvModLookupFromImports(root.get(), "imported", &handle), 0);
  Function f = ffi::detail::ObjectUnsafe::ObjectRefFromObjectPtr<Function>(
      ffi::detail::ObjectUnsafe::ObjectPtrFromUnowned<ffi::Object>(
          static_cast<TVMFFIObject*>(handle)));
  EXPECT_EQ(f(5).cast<String>(), "imported5");
  // Cached: the same borrowed handle again.
  TVMFFIObjectHandle again = nullptr;
  ASSERT_EQ(TVMFFIEnvModLookupFromImports(root.get(), "imported", &again), 0);
  EXPECT_EQ(again, handle);
  // The module itself is not searched, the global registry is.
  TVMFFIObjectHandle global = nullptr;
  ASSERT_EQ(TVMFFIEnvModLookupFromImports(root.get(), "ffi.ModuleGetKind", &global), 0);
  EXPECT_EQ(global, ffi::detail::ObjectUnsafe::GetHeader(
                        Function::GetGlobalRequired("ffi.ModuleGetKind").get()));
  EXPECT_EQ(TVMFFIEnvModLookupFromImports(root.get(), "root", &handle), -1);
  ffi::Error e = ffi::detail::MoveFromRaised();
  EXPECT_EQ(e.kind(), "RuntimeError");
  EXPECT_EQ(e.message(), "Cannot find function root in the imported modules or global registry.");
  EXPECT_EQ(TVMFFIEnvModLookupFromImports(nullptr, "imported", &handle), -1);
  EXPECT_EQ(ffi::detail::MoveFromRaised().kind(), "ValueError");
  EXPECT_EQ(TVMFFIEnvModLookupFromImports(root.get(), "imported", nullptr), -1);
  EXPECT_EQ(ffi::detail::MoveFromRaised().kind(), "ValueError");
}

TEST(Module, LibraryCodeCallsItsImports) {
  Module mod = Module::LoadFromFile(kExportLib);
  mod->ImportModule(MakeTable("helper"));
  Function call = mod->GetFunction("call_from_imports").value();
  EXPECT_EQ(call("helper", 7).cast<String>(), "helper7");
  ffi::Error e = CatchError([&] { call("no_such_helper", 1); });
  EXPECT_EQ(e.kind(), "RuntimeError");
  EXPECT_EQ(e.message(),
            "Cannot find function no_such_helper in the imported modules or global registry.");
}

// ---------------------------------------------------------------------------
// Modules embedded in a library (__tvm_ffi__library_bin)
// ---------------------------------------------------------------------------
/*! \brief Load a fresh copy of blob_lib.so whose blob is the given variant. */
Module LoadBlobVariant(const std::string& variant) {
  static bool registered = [] {
    Function::SetGlobal(
        "ffi.Module.load_from_bytes.test_blob",
        Function::FromTyped([](ffi::Bytes payload) { return MakeTable(std::string(payload)); }));
    return true;
  }();
  (void)registered;
  char dir_template[] = "/tmp/tvm_ffi_test_blob_XXXXXX";
  char* dir = mkdtemp(dir_template);
  EXPECT_NE(dir, nullptr);
  std::string copy = std::string(dir) + "/blob_" + variant + ".so";
  {
    std::ifstream src(std::string(TVM_FFI_TEST_LIB_DIR) + "/blob_lib.so", std::ios::binary);
    std::ofstream dst(copy, std::ios::binary);
    dst << src.rdbuf();
  }
  setenv("TVM_FFI_TEST_BLOB_VARIANT", variant.c_str(), 1);
  struct Cleanup {
    std::string file, dir;
    ~Cleanup() {
      unsetenv("TVM_FFI_TEST_BLOB_VARIANT");
      std::remove(file.c_str());
      rmdir(dir.c_str());
    }
  } cleanup{copy, dir};
  return Module::LoadFromFile(copy);
}

TEST(Module, EmbeddedModulesFollowTheImportTree) {
  Module mod = LoadBlobVariant("tree");
  EXPECT_STREQ(mod->kind(), "library");
  EXPECT_EQ(mod->GetFunction("from_lib").value()(1).cast<int>(), 1001);
  ASSERT_EQ(mod->imports().size(), 1u);
  EXPECT_STREQ(mod->imports()[0].cast<Module>()->kind(), "table");
  EXPECT_EQ(mod->GetFunction("child", true).value()(2).cast<String>(), "child2");
}

TEST(Module, EmbeddedModulesImportedByTheLibraryAreAllImported) {
  Module mod = LoadBlobVariant("two");
  ASSERT_EQ(mod->imports().size(), 2u);
  EXPECT_EQ(mod->GetFunction("a", true).value()(1).cast<String>(), "a1");
  EXPECT_EQ(mod->GetFunction("b", true).value()(1).cast<String>(), "b1");
}

TEST(Module, EmbeddedRootModuleIsReturned) {
  Module mod = LoadBlobVariant("root");
  EXPECT_STREQ(mod->kind(), "table");
  ASSERT_EQ(mod->imports().size(), 1u);
  Module lib = mod->imports()[0].cast<Module>();
  EXPECT_STREQ(lib->kind(), "library");
  EXPECT_EQ(mod->GetFunction("from_lib", true).value()(1).cast<int>(), 1001);
  // The library's context is the library module, not the root.
  TVMFFIObjectHandle handle = nullptr;
  EXPECT_EQ(TVMFFIEnvModLookupFromImports(lib.get(), "ffi.ModuleGetKind", &handle), 0);
}

TEST(Module, MalformedEmbeddedBlobIsReported) {
  ffi::Error e = CatchError([] { LoadBlobVariant("truncated"); });
  EXPECT_EQ(e.kind(), "RuntimeError");
  EXPECT_NE(e.message().find("Malformed __tvm_ffi__library_bin in "), std::string::npos)
      << e.message();
  EXPECT_NE(e.message().find("truncated while reading a module type key"), std::string::npos)
      << e.message();
}

TEST(Module, EmbeddedImportTreeNamingAMissingModuleIsReported) {
  ffi::Error e = CatchError([] { LoadBlobVariant("badtree"); });
  EXPECT_EQ(e.kind(), "RuntimeError");
  EXPECT_NE(e.message().find(": import of module 5 of 2"), std::string::npos) << e.message();
}

TEST(Module, EmbeddedModuleOfUnknownKindNamesItsLoader) {
  ffi::Error e = CatchError([] { LoadBlobVariant("unknown"); });
  EXPECT_EQ(e.kind(), "RuntimeError");
  EXPECT_NE(e.message().find("embeds a module of kind `nokind`, but its loader "
                             "(ffi.Module.load_from_bytes.nokind) is not registered"),
            std::string::npos)
      << e.message();
}

// ---------------------------------------------------------------------------
// Truncated library files are refused before dlopen maps them
// ---------------------------------------------------------------------------
/*! \brief The error of loading the first n bytes of export_lib.so (n < 0: all but -n bytes). */
ffi::Error LoadTruncatedCopy(long n, std::string* path_out) {
  std::ifstream src(kExportLib, std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(src)), std::istreambuf_iterator<char>());
  size_t keep = n >= 0 ? static_cast<size_t>(n) : bytes.size() - static_cast<size_t>(-n);
  char dir_template[] = "/tmp/tvm_ffi_test_trunc_XXXXXX";
  char* dir = mkdtemp(dir_template);
  EXPECT_NE(dir, nullptr);
  std::string path = std::string(dir) + "/cut.so";
  {
    std::ofstream dst(path, std::ios::binary);
    dst.write(bytes.data(), static_cast<std::streamsize>(std::min(keep, bytes.size())));
  }
  *path_out = path;
  ffi::Error e = CatchError([&] { Module::LoadFromFile(path); });
  std::remove(path.c_str());
  rmdir(dir);
  return e;
}

TEST(Module, LibraryCutToItsFirstPageIsRefusedNamingTheFile) {
  std::string path;
  ffi::Error e = LoadTruncatedCopy(4096, &path);
  EXPECT_EQ(e.kind(), "RuntimeError");
  EXPECT_NE(e.message().find(path), std::string::npos) << e.message();
  EXPECT_NE(e.message().find("truncated"), std::string::npos) << e.message();
}

/*! \brief Where the file contents of export_lib.so's loadable segments end. */
long EndOfLoadableSegments() {
  std::ifstream src(kExportLib, std::ios::binary);
  Elf64_Ehdr header;
  src.read(reinterpret_cast<char*>(&header), sizeof(header));
  long end = 0;
  for (int i = 0; i < header.e_phnum; ++i) {
    Elf64_Phdr seg;
    src.seekg(static_cast<std::streamoff>(header.e_phoff + i * sizeof(Elf64_Phdr)));
    src.read(reinterpret_cast<char*>(&seg), sizeof(seg));
    if (seg.p_type == PT_LOAD) end = std::max(end, static_cast<long>(seg.p_offset + seg.p_filesz));
  }
  return end;
}

TEST(Module, LibraryCutInsideItsLoadableSegmentsIsRefused) {
  std::string path;
  ffi::Error e = LoadTruncatedCopy(EndOfLoadableSegments() / 2, &path);
  EXPECT_EQ(e.kind(), "RuntimeError");
  EXPECT_NE(e.message().find("truncated"), std::string::npos) << e.message();
}

TEST(Module, LibraryCutAfterItsLoadableSegmentsStillLoads) {
  // What follows the segments (debug sections, the section table) is never mapped.
  std::ifstream src(kExportLib, std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(src)), std::istreambuf_iterator<char>());
  char dir_template[] = "/tmp/tvm_ffi_test_trunc_XXXXXX";
  char* dir = mkdtemp(dir_template);
  ASSERT_NE(dir, nullptr);
  std::string path = std::string(dir) + "/segments_only.so";
  {
    std::ofstream dst(path, std::ios::binary);
    dst.write(bytes.data(), EndOfLoadableSegments());
  }
  Module mod = Module::LoadFromFile(path);
  EXPECT_STREQ(mod->kind(), "library");
  std::remove(path.c_str());
  rmdir(dir);
}

TEST(Module, FileThatIsNotELFIsReportedByTheLoader) {
  std::string path;
  ffi::Error e = LoadTruncatedCopy(3, &path);
  EXPECT_EQ(e.kind(), "RuntimeError");
  EXPECT_NE(e.message().find("Failed to load dynamic shared library " + path), std::string::npos)
      << e.message();
}

}  // namespace
