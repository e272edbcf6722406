// Every example of the C++ API guide, as written there, run as a test.
// (The guide's DLPack example names its tensor `nd` in one line, a typo for
// `tensor`; that one identifier is the only change.)
#include <gtest/gtest.h>
#include <tvm/ffi/any.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/dict.h>
#include <tvm/ffi/container/list.h>
#include <tvm/ffi/container/map.h>
#include <tvm/ffi/container/optional.h>
#include <tvm/ffi/container/shape.h>
#include <tvm/ffi/container/tensor.h>
#include <tvm/ffi/container/tuple.h>
#include <tvm/ffi/container/variant.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/extra/module.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/memory.h>
#include <tvm/ffi/object.h>
#include <tvm/ffi/reflection/registry.h>
#include <tvm/ffi/string.h>

#include <cstdlib>
#include <iostream>
#include <string>

namespace {

void ExampleAny() {
  namespace ffi = tvm::ffi;
  // Create an Any from various types
  // EXPECT_EQ is used here for demonstration purposes (testing framework)
  ffi::Any int_value = 42;
  ffi::Any float_value = 3.14;
  ffi::Any string_value = "hello world";
  // AnyView provides a lightweight view without ownership
  ffi::AnyView view = int_value;
  // we can cast Any/AnyView to a specific type
  int extracted = view.cast<int>();
  EXPECT_EQ(extracted, 42);
  // If we are not sure about the type
  // we can use as to get an optional value
  std::optional<int> maybe_int = view.as<int>();
  if (maybe_int.has_value()) {
    EXPECT_EQ(maybe_int.value(), 42);
  }
  // Try cast is another version that will try to run the type
  // conversion even if the type does not exactly match
  std::optional<int> maybe_int_try = view.try_cast<int>();
  if (maybe_int_try.has_value()) {
    EXPECT_EQ(maybe_int_try.value(), 42);
  }
}

TEST(Example, Any) {
  ExampleAny();
  // The branches above must have been taken.
  tvm::ffi::Any v = 42;
  EXPECT_TRUE(v.as<int>().has_value());
  EXPECT_TRUE(v.try_cast<int>().has_value());
}

}  // namespace

class MyIntPairObj : public tvm::ffi::Object {
 public:
  int64_t a;
  int64_t b;
  MyIntPairObj() = default;
  MyIntPairObj(int64_t a, int64_t b) : a(a), b(b) {}
  // Required: declare type information
  // to register a dynamic type index through the system
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("example.MyIntPair", MyIntPairObj, tvm::ffi::Object);
};

void ExampleObjectPtr() {
  namespace ffi = tvm::ffi;
  // make_arc allocates, initializes, and sets up reference counting and the deleter.
  ffi::Arc<MyIntPairObj> required = ffi::make_arc<MyIntPairObj>(100, 200);
  // ObjectPtr is the nullable one-pointer carrier.
  ffi::ObjectPtr<MyIntPairObj> optional = required;
  // EXPECT_EQ is used here for demonstration purposes (testing framework)
  EXPECT_EQ(required->a, 100);
  EXPECT_EQ(required->b, 200);
  optional = nullptr;
}

TEST(Example, ObjectPtr) { ExampleObjectPtr(); }

class MyIntPair : public tvm::ffi::ObjectRef {
 public:
  // Constructor
  explicit MyIntPair(int64_t a, int64_t b) { data_ = tvm::ffi::make_object<MyIntPairObj>(a, b); }
  // Required: define object reference methods
  // This macro provides the necessary methods for ObjectRef functionality
  TVM_FFI_DEFINE_OBJECT_REF_METHODS_NULLABLE(MyIntPair, tvm::ffi::ObjectRef, MyIntPairObj);
};

void ExampleObjectRef() {
  namespace ffi = tvm::ffi;
  MyIntPair pair(100, 200);
  // EXPECT_EQ is used here for demonstration purposes (testing framework)
  EXPECT_EQ(pair->a, 100);
  EXPECT_EQ(pair->b, 200);
}

TEST(Example, ObjectRef) { ExampleObjectRef(); }

void ExampleObjectRefAny() {
  namespace ffi = tvm::ffi;
  MyIntPair pair(100, 200);
  ffi::Any any = pair;
  MyIntPair pair2 = any.cast<MyIntPair>();
  // Note: EXPECT_EQ is used here for demonstration purposes (testing framework)
  EXPECT_EQ(pair2->a, 100);
  EXPECT_EQ(pair2->b, 200);
}

TEST(Example, ObjectRefAny) { ExampleObjectRefAny(); }

void ExampleFunctionFromTyped() {
  namespace ffi = tvm::ffi;
  // Create a function from a typed lambda
  ffi::Function fadd1 = ffi::Function::FromTyped([](const int a) -> int { return a + 1; });
  int b = fadd1(1).cast<int>();
  // EXPECT_EQ is used here for demonstration purposes (testing framework)
  EXPECT_EQ(b, 2);
}

TEST(Example, FunctionFromTyped) { ExampleFunctionFromTyped(); }

void ExampleFunctionFromPacked() {
  namespace ffi = tvm::ffi;
  // Create a function from a typed lambda
  ffi::Function fadd1 =
      ffi::Function::FromPacked([](const ffi::AnyView* args, int32_t num_args, ffi::Any* rv) {
        // Check that we have exactly one argument
        TVM_FFI_ICHECK_EQ(num_args, 1);
        int a = args[0].cast<int>();
        *rv = a + 1;
      });
  int b = fadd1(1).cast<int>();
  // EXPECT_EQ is used here for demonstration purposes (testing framework)
  EXPECT_EQ(b, 2);
}

TEST(Example, FunctionFromPacked) { ExampleFunctionFromPacked(); }

void ExampleFunctionPassFunction() {
  namespace ffi = tvm::ffi;
  // Create a function from a typed lambda
  ffi::Function fapply = ffi::Function::FromTyped(
      [](const ffi::Function f, ffi::Any param) { return f(param.cast<int>()); });
  ffi::Function fadd1 = ffi::Function::FromTyped(  //
      [](const int a) -> int { return a + 1; });
  int b = fapply(fadd1, 2).cast<int>();
  // EXPECT_EQ is used here for demonstration purposes (testing framework)
  EXPECT_EQ(b, 3);
}

TEST(Example, FunctionPassFunction) { ExampleFunctionPassFunction(); }

void ExampleGlobalFunctionRegistry() {
  namespace ffi = tvm::ffi;
  ffi::reflection::GlobalDef().def("xyz.add1", [](const int a) -> int { return a + 1; });
  ffi::Function fadd1 = ffi::Function::GetGlobalRequired("xyz.add1");
  int b = fadd1(1).cast<int>();
  // EXPECT_EQ is used here for demonstration purposes (testing framework)
  EXPECT_EQ(b, 2);
}

TEST(Example, GlobalFunctionRegistry) { ExampleGlobalFunctionRegistry(); }

// The export example: the library example_export_lib is built from
// tests/cpp/testlib/example_export_lib.cc (AddOne and ProcessBatch as in the guide).
std::string ExportLibPath() { return std::string(TVM_FFI_TEST_LIB_DIR) + "/example_export_lib.so"; }

TEST(Example, ModuleLoadAndMetadata) {
  namespace ffi = tvm::ffi;
  ffi::Module mod = ffi::Module::LoadFromFile(ExportLibPath());
  // Get the function
  ffi::Function func = mod->GetFunction("add_one").value();
  // Query metadata (type schema information)
  ffi::Optional<ffi::String> metadata = mod->GetFunctionMetadata("add_one");
  ASSERT_TRUE(metadata.has_value());
  EXPECT_NE(std::string(metadata.value()).find("type_schema"), std::string::npos);

  float xs[3] = {1, 2, 3};
  float ys[3] = {0, 0, 0};
  int64_t shape[1] = {3};
  DLTensor x{xs, {kDLCPU, 0}, 1, {kDLFloat, 32, 1}, shape, nullptr, 0};
  DLTensor y{ys, {kDLCPU, 0}, 1, {kDLFloat, 32, 1}, shape, nullptr, 0};
  func(&x, &y);
  EXPECT_EQ(ys[0], 2.0f);
  EXPECT_EQ(ys[2], 4.0f);

  // Query documentation
  ffi::Optional<ffi::String> doc = mod->GetFunctionDoc("process_batch");
  ASSERT_TRUE(doc.has_value());
  EXPECT_NE(std::string(doc.value()).find("Process a batch of inputs"), std::string::npos);
}

void FuncThrowError() {
  namespace ffi = tvm::ffi;
  TVM_FFI_THROW(TypeError) << "test0";
}

void ExampleErrorHandling() {
  namespace ffi = tvm::ffi;
  try {
    FuncThrowError();
  } catch (const ffi::Error& e) {
    EXPECT_EQ(e.kind(), "TypeError");
    EXPECT_EQ(e.message(), "test0");
    std::cout << e.TracebackMostRecentCallLast() << std::endl;
  }
}

TEST(Example, ErrorHandling) {
  ExampleErrorHandling();
  try {
    FuncThrowError();
    FAIL() << "FuncThrowError must throw";
  } catch (const tvm::ffi::Error& e) {
    std::string tb = e.TracebackMostRecentCallLast();
    // The throw site is the last (most recent) frame, with its function.
    EXPECT_NE(tb.find("test_example.cc\", line"), std::string::npos) << tb;
    EXPECT_NE(tb.find("FuncThrowError"), std::string::npos) << tb;
  }
}

struct CPUNDAlloc {
  void AllocData(DLTensor* tensor) { tensor->data = malloc(tvm::ffi::GetDataSize(*tensor)); }
  void FreeData(DLTensor* tensor) { free(tensor->data); }
};

void ExampleTensor() {
  namespace ffi = tvm::ffi;
  ffi::Shape shape = {1, 2, 3};
  DLDataType dtype = {kDLFloat, 32, 1};
  DLDevice device = {kDLCPU, 0};
  ffi::Tensor tensor = ffi::Tensor::FromNDAlloc(CPUNDAlloc(), shape, dtype, device);
  // now tensor is a managed tensor
  EXPECT_EQ(tensor.ndim(), 3);
  EXPECT_EQ(tensor.numel(), 6);
  EXPECT_NE(tensor.data_ptr(), nullptr);
}

TEST(Example, Tensor) { ExampleTensor(); }

void ExampleTensorDLPack() {
  namespace ffi = tvm::ffi;
  ffi::Shape shape = {1, 2, 3};
  DLDataType dtype = {kDLFloat, 32, 1};
  DLDevice device = {kDLCPU, 0};
  ffi::Tensor tensor = ffi::Tensor::FromNDAlloc(CPUNDAlloc(), shape, dtype, device);
  // convert to DLManagedTensorVersioned
  DLManagedTensorVersioned* dlpack = tensor.ToDLPackVersioned();
  // load back from DLManagedTensorVersioned
  ffi::Tensor tensor2 = ffi::Tensor::FromDLPackVersioned(dlpack);
  EXPECT_EQ(tensor2.data_ptr(), tensor.data_ptr());
}

TEST(Example, TensorDLPack) { ExampleTensorDLPack(); }

void ExampleString() {
  namespace ffi = tvm::ffi;
  ffi::String str = "hello world";
  // EXPECT_EQ is used here for demonstration purposes (testing framework)
  EXPECT_EQ(str.size(), 11);
  std::string std_str = str;
  EXPECT_EQ(std_str, "hello world");
}

TEST(Example, String) { ExampleString(); }

void ExampleArray() {
  namespace ffi = tvm::ffi;
  ffi::Array<int> numbers = {1, 2, 3};
  // EXPECT_EQ is used here for demonstration purposes (testing framework)
  EXPECT_EQ(numbers.size(), 3);
  EXPECT_EQ(numbers[0], 1);
  ffi::Function head = ffi::Function::FromTyped([](const ffi::Array<int> a) { return a[0]; });
  EXPECT_EQ(head(numbers).cast<int>(), 1);
  try {
    // throw an error because 2.2 is not int
    head(ffi::Array<ffi::Any>({1, 2.2}));
  } catch (const ffi::Error& e) {
    EXPECT_EQ(e.kind(), "TypeError");
  }
}

TEST(Example, Array) {
  ExampleArray();
  namespace ffi = tvm::ffi;
  ffi::Function head = ffi::Function::FromTyped([](const ffi::Array<int> a) { return a[0]; });
  EXPECT_THROW(head(ffi::Array<ffi::Any>({1, 2.2})), ffi::Error);
}

void ExampleList() {
  namespace ffi = tvm::ffi;
  ffi::List<int> numbers = {1, 2, 3};
  // EXPECT_EQ is used here for demonstration purposes (testing framework)
  EXPECT_EQ(numbers.size(), 3);
  EXPECT_EQ(numbers[0], 1);
  // Mutate in-place
  numbers.push_back(4);
  EXPECT_EQ(numbers.size(), 4);
  numbers.Set(0, 10);
  EXPECT_EQ(numbers[0], 10);
  // Shared reference semantics: both handles see the mutation
  ffi::List<int> alias = numbers;
  alias.push_back(5);
  EXPECT_EQ(numbers.size(), 5);
}

TEST(Example, List) { ExampleList(); }

void ExampleTuple() {
  namespace ffi = tvm::ffi;
  ffi::Tuple<int, ffi::String, bool> tup(42, "hello", true);
  // EXPECT_EQ is used here for demonstration purposes (testing framework)
  EXPECT_EQ(tup.get<0>(), 42);
  EXPECT_EQ(tup.get<1>(), "hello");
  EXPECT_EQ(tup.get<2>(), true);
}

TEST(Example, Tuple) { ExampleTuple(); }

void ExampleMap() {
  namespace ffi = tvm::ffi;
  ffi::Map<ffi::String, int> map0 = {{"Alice", 100}, {"Bob", 95}};
  // EXPECT_EQ is used here for demonstration purposes (testing framework)
  EXPECT_EQ(map0.size(), 2);
  EXPECT_EQ(map0.at("Alice"), 100);
  EXPECT_EQ(map0.count("Alice"), 1);
}

TEST(Example, Map) { ExampleMap(); }

void ExampleDict() {
  namespace ffi = tvm::ffi;
  ffi::Dict<ffi::String, int> scores = {{"Alice", 100}, {"Bob", 95}};
  // EXPECT_EQ is used here for demonstration purposes (testing framework)
  EXPECT_EQ(scores.size(), 2);
  EXPECT_EQ(scores.at("Alice"), 100);
  // Mutate in-place
  scores.Set("Charlie", 88);
  EXPECT_EQ(scores.size(), 3);
  // Shared reference semantics: both handles see the mutation
  ffi::Dict<ffi::String, int> alias = scores;
  alias.Set("Dave", 92);
  EXPECT_EQ(scores.size(), 4);
  // Erase
  scores.erase("Bob");
  EXPECT_EQ(scores.size(), 3);
}

TEST(Example, Dict) { ExampleDict(); }

void ExampleOptional() {
  namespace ffi = tvm::ffi;
  ffi::Optional<int> opt0 = 100;
  // EXPECT_EQ is used here for demonstration purposes (testing framework)
  EXPECT_EQ(opt0.has_value(), true);
  EXPECT_EQ(opt0.value(), 100);
  ffi::Optional<ffi::String> opt1;
  EXPECT_EQ(opt1.has_value(), false);
  EXPECT_EQ(opt1.value_or("default"), "default");
}

TEST(Example, Optional) { ExampleOptional(); }

void ExampleVariant() {
  namespace ffi = tvm::ffi;
  ffi::Variant<int, ffi::String> var0 = 100;
  // EXPECT_EQ is used here for demonstration purposes (testing framework)
  EXPECT_EQ(var0.get<int>(), 100);
  var0 = ffi::String("hello");
  std::optional<ffi::String> maybe_str = var0.as<ffi::String>();
  EXPECT_EQ(maybe_str.value(), "hello");
  std::optional<int> maybe_int2 = var0.as<int>();
  EXPECT_EQ(maybe_int2.has_value(), false);
}

TEST(Example, Variant) { ExampleVariant(); }
