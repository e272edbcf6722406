// Tests of runtime globals that bindings and wheel-built code call by name:
// ffi.FunctionListGlobalNamesFunctor, ffi.GetGlobalFuncMetadata,
// ffi.FunctionFromExternC, ffi.GetInvalidObject, ffi.ArrayContains, the
// in-place List edits (Contains, Pop, EraseRange, ReplaceSlice, Reverse,
// Reserve) and ffi.ContainerFindFirstNonCPUDevice.
#include <gtest/gtest.h>

#include <tvm/ffi/any.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/dict.h>
#include <tvm/ffi/container/list.h>
#include <tvm/ffi/container/map.h>
#include <tvm/ffi/container/tensor.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/reflection/registry.h>
#include <tvm/ffi/string.h>
#include "testing_helpers.h"

#include <cstdlib>
#include <string>
#include <vector>

namespace {
namespace ffi = tvm::ffi;
using ffi::Any;
using ffi::Array;
using ffi::Function;
using ffi::List;
using ffi::String;
using tvm_ffi_testing::CatchError;

Function Global(const char* name) { return Function::GetGlobalRequired(name); }

std::vector<int64_t> Ints(const List<Any>& l) {
  std::vector<int64_t> out;
  for (size_t i = 0; i < l.size(); ++i) out.push_back(l[i].cast<int64_t>());
  return out;
}

List<Any> MakeList(std::initializer_list<int64_t> values) {
  List<Any> l;
  for (int64_t v : values) l.push_back(v);
  return l;
}

// ---------------------------------------------------------------------------
// Functions
// ---------------------------------------------------------------------------

TEST(RuntimeGlobals, ListGlobalNamesFunctorCountsAndNamesEveryGlobal) {
  Function functor = Global("ffi.FunctionListGlobalNamesFunctor")().cast<Function>();
  int64_t count = functor(-1).cast<int64_t>();
  std::vector<String> names = Function::ListGlobalNames();
  ASSERT_EQ(count, static_cast<int64_t>(names.size()));
  std::vector<std::string> listed;
  for (int64_t i = 0; i < count; ++i) listed.push_back(functor(i).cast<std::string>());
  for (size_t i = 0; i < names.size(); ++i) EXPECT_EQ(listed[i], std::string(names[i]));
}

TEST(RuntimeGlobals, ListGlobalNamesFunctorOutOfRangeRaisesIndexError) {
  Function functor = Global("ffi.FunctionListGlobalNamesFunctor")().cast<Function>();
  int64_t count = functor(-1).cast<int64_t>();
  ffi::Error e = CatchError([&] { functor(count); });
  EXPECT_EQ(e.kind(), "IndexError");
  EXPECT_NE(e.message().find("index " + std::to_string(count)), std::string::npos) << e.message();
}

TEST(RuntimeGlobals, StringReturnsItsArgumentAsAString) {
  std::string long_text(100, 'a');
  EXPECT_EQ(Global("ffi.String")("abc").cast<String>(), "abc");
  EXPECT_EQ(Global("ffi.String")(String(long_text)).cast<String>(), long_text);
}

TEST(RuntimeGlobals, StringRejectsANonString) {
  ffi::Error e = CatchError([] { Global("ffi.String")(1); });
  EXPECT_EQ(e.kind(), "TypeError");
  EXPECT_NE(e.message().find("argument #0"), std::string::npos) << e.message();
}

TEST(RuntimeGlobals, BytesReturnsItsArgumentAsBytes) {
  EXPECT_EQ(Global("ffi.Bytes")(ffi::Bytes("a\0b", 3)).cast<ffi::Bytes>(), ffi::Bytes("a\0b", 3));
}

TEST(RuntimeGlobals, BytesRejectsAString) {
  ffi::Error e = CatchError([] { Global("ffi.Bytes")(String("abc")); });
  EXPECT_EQ(e.kind(), "TypeError");
  EXPECT_NE(e.message().find("argument #0"), std::string::npos) << e.message();
}

TEST(RuntimeGlobals, GetGlobalFuncMetadataReturnsTheSchema) {
  ffi::reflection::GlobalDef().def("test.globals.add", [](int64_t a, int64_t b) { return a + b; });
  std::string meta = Global("ffi.GetGlobalFuncMetadata")("test.globals.add").cast<std::string>();
  EXPECT_NE(meta.find("type_schema"), std::string::npos) << meta;
  EXPECT_TRUE(Function::RemoveGlobal("test.globals.add"));
}

TEST(RuntimeGlobals, GetGlobalFuncMetadataOfUnknownNameRaises) {
  ffi::Error e = CatchError([] { Global("ffi.GetGlobalFuncMetadata")("test.globals.nothing"); });
  EXPECT_EQ(e.kind(), "RuntimeError");
  EXPECT_EQ(e.message(), "Global Function is not found: test.globals.nothing");
}

int g_extern_deleted = 0;
int ExternAddTen(void* self, const TVMFFIAny* args, int32_t num_args, TVMFFIAny* result) {
  result->type_index = kTVMFFIInt;
  result->zero_padding = 0;
  result->v_int64 = args[0].v_int64 + *static_cast<int64_t*>(self);
  return 0;
}
void ExternDelete(void*) { ++g_extern_deleted; }

TEST(RuntimeGlobals, FunctionFromExternCWrapsACallbackAndRunsItsDeleter) {
  static int64_t ten = 10;
  {
    Function f = Global("ffi.FunctionFromExternC")(static_cast<void*>(&ten),
                                                   reinterpret_cast<void*>(&ExternAddTen),
                                                   reinterpret_cast<void*>(&ExternDelete))
                     .cast<Function>();
    EXPECT_EQ(f(5).cast<int64_t>(), 15);
    EXPECT_EQ(g_extern_deleted, 0);
  }
  EXPECT_EQ(g_extern_deleted, 1);
}

TEST(RuntimeGlobals, FunctionFromExternCRejectsNullCallback) {
  ffi::Error e = CatchError([] {
    Global("ffi.FunctionFromExternC")(static_cast<void*>(nullptr), static_cast<void*>(nullptr),
                                      static_cast<void*>(nullptr));
  });
  EXPECT_EQ(e.kind(), "ValueError");
  EXPECT_NE(e.message().find("safe_call"), std::string::npos) << e.message();
}

TEST(RuntimeGlobals, GetInvalidObjectIsOneFixedPlainObject) {
  ffi::ObjectRef a = Global("ffi.GetInvalidObject")().cast<ffi::ObjectRef>();
  ffi::ObjectRef b = Global("ffi.GetInvalidObject")().cast<ffi::ObjectRef>();
  ASSERT_TRUE(a.defined());
  EXPECT_TRUE(a.same_as(b));
  EXPECT_EQ(a->type_index(), kTVMFFIObject);
}

// ---------------------------------------------------------------------------
// Array / List
// ---------------------------------------------------------------------------

TEST(RuntimeGlobals, ArrayContainsUsesFfiEquality) {
  Array<Any> a{1, String("a long string"), 2.5};
  Function contains = Global("ffi.ArrayContains");
  EXPECT_TRUE(contains(a, 1).cast<bool>());
  EXPECT_TRUE(contains(a, "a long string").cast<bool>());
  EXPECT_TRUE(contains(a, 2.5).cast<bool>());
  EXPECT_FALSE(contains(a, 1.0).cast<bool>());  // int and float are different values
  EXPECT_FALSE(contains(a, true).cast<bool>());
  EXPECT_FALSE(contains(Array<Any>(), 1).cast<bool>());
}

TEST(RuntimeGlobals, ArrayContainsRejectsANonArray) {
  ffi::Error e = CatchError([] { Global("ffi.ArrayContains")(MakeList({1}), 1); });
  EXPECT_EQ(e.kind(), "TypeError");
  EXPECT_NE(e.message().find("Array"), std::string::npos) << e.message();
}

TEST(RuntimeGlobals, ListContains) {
  List<Any> l = MakeList({1, 2});
  EXPECT_TRUE(Global("ffi.ListContains")(l, 2).cast<bool>());
  EXPECT_FALSE(Global("ffi.ListContains")(l, 3).cast<bool>());
}

TEST(RuntimeGlobals, ListPopRemovesAndReturnsTheElement) {
  List<Any> l = MakeList({10, 20, 30});
  EXPECT_EQ(Global("ffi.ListPop")(l, 1).cast<int64_t>(), 20);
  EXPECT_EQ(Ints(l), (std::vector<int64_t>{10, 30}));
  EXPECT_EQ(Global("ffi.ListPop")(l, 1).cast<int64_t>(), 30);
  EXPECT_EQ(Ints(l), (std::vector<int64_t>{10}));
}

TEST(RuntimeGlobals, ListPopOutOfRangeRaisesIndexErrorNamingTheIndex) {
  List<Any> l = MakeList({10, 20});
  for (int64_t bad : {2, -1}) {
    ffi::Error e = CatchError([&] { Global("ffi.ListPop")(l, bad); });
    EXPECT_EQ(e.kind(), "IndexError");
    EXPECT_NE(e.message().find("index " + std::to_string(bad)), std::string::npos) << e.message();
  }
  ffi::Error e = CatchError([] { Global("ffi.ListPop")(List<Any>(), 0); });
  EXPECT_EQ(e.kind(), "IndexError");
  EXPECT_EQ(Ints(l), (std::vector<int64_t>{10, 20}));
}

TEST(RuntimeGlobals, ListEraseRangeRemovesAHalfOpenRange) {
  List<Any> l = MakeList({0, 1, 2, 3, 4});
  Global("ffi.ListEraseRange")(l, 1, 3);
  EXPECT_EQ(Ints(l), (std::vector<int64_t>{0, 3, 4}));
  Global("ffi.ListEraseRange")(l, 2, 2);
  EXPECT_EQ(Ints(l), (std::vector<int64_t>{0, 3, 4}));
  Global("ffi.ListEraseRange")(l, 0, 3);
  EXPECT_TRUE(l.empty());
}

TEST(RuntimeGlobals, ListEraseRangeOutOfRangeRaisesAndLeavesTheList) {
  List<Any> l = MakeList({0, 1, 2});
  ffi::Error e = CatchError([&] { Global("ffi.ListEraseRange")(l, 1, 4); });
  EXPECT_EQ(e.kind(), "IndexError");
  EXPECT_NE(e.message().find("4"), std::string::npos) << e.message();
  e = CatchError([&] { Global("ffi.ListEraseRange")(l, -1, 2); });
  EXPECT_EQ(e.kind(), "IndexError");
  EXPECT_NE(e.message().find("index -1"), std::string::npos) << e.message();
  e = CatchError([&] { Global("ffi.ListEraseRange")(l, 2, 1); });
  EXPECT_EQ(e.kind(), "IndexError");
  EXPECT_EQ(Ints(l), (std::vector<int64_t>{0, 1, 2}));
}

TEST(RuntimeGlobals, ListReplaceSliceGrowsAndShrinks) {
  List<Any> l = MakeList({0, 1, 2, 3});
  Global("ffi.ListReplaceSlice")(l, 1, 3, MakeList({7, 8, 9}));
  EXPECT_EQ(Ints(l), (std::vector<int64_t>{0, 7, 8, 9, 3}));
  Global("ffi.ListReplaceSlice")(l, 0, 4, MakeList({5}));
  EXPECT_EQ(Ints(l), (std::vector<int64_t>{5, 3}));
  Global("ffi.ListReplaceSlice")(l, 2, 2, Array<Any>{6});
  EXPECT_EQ(Ints(l), (std::vector<int64_t>{5, 3, 6}));
}

TEST(RuntimeGlobals, ListReplaceSliceWithItselfUsesASnapshot) {
  List<Any> l = MakeList({0, 1, 2, 3});
  Global("ffi.ListReplaceSlice")(l, 1, 3, l);
  EXPECT_EQ(Ints(l), (std::vector<int64_t>{0, 0, 1, 2, 3, 3}));
}

TEST(RuntimeGlobals, ListReplaceSliceBadInputRaisesAndLeavesTheList) {
  List<Any> l = MakeList({0, 1});
  ffi::Error e = CatchError([&] { Global("ffi.ListReplaceSlice")(l, 0, 3, MakeList({1})); });
  EXPECT_EQ(e.kind(), "IndexError");
  e = CatchError([&] { Global("ffi.ListReplaceSlice")(l, 0, 1, 5); });
  EXPECT_EQ(e.kind(), "TypeError");
  EXPECT_NE(e.message().find("#3"), std::string::npos) << e.message();
  EXPECT_EQ(Ints(l), (std::vector<int64_t>{0, 1}));
}

TEST(RuntimeGlobals, ListReverseInPlace) {
  List<Any> l = MakeList({1, 2, 3, 4});
  List<Any> alias = l;
  Global("ffi.ListReverse")(l);
  EXPECT_EQ(Ints(alias), (std::vector<int64_t>{4, 3, 2, 1}));
  List<Any> empty;
  Global("ffi.ListReverse")(empty);
  EXPECT_TRUE(empty.empty());
}

TEST(RuntimeGlobals, ListReserveKeepsTheObjectAndItsElements) {
  List<Any> l = MakeList({1, 2});
  const ffi::Object* before = l.get();
  Global("ffi.ListReserve")(l, 100);
  EXPECT_GE(l.capacity(), 100u);
  EXPECT_EQ(l.get(), before);
  EXPECT_EQ(Ints(l), (std::vector<int64_t>{1, 2}));
}

TEST(RuntimeGlobals, ListReserveNegativeRaisesValueError) {
  ffi::Error e = CatchError([] { Global("ffi.ListReserve")(List<Any>(), -3); });
  EXPECT_EQ(e.kind(), "ValueError");
  EXPECT_NE(e.message().find("-3"), std::string::npos) << e.message();
}

TEST(RuntimeGlobals, ListEditsRejectAnArray) {
  ffi::Error e = CatchError([] { Global("ffi.ListReverse")(Array<Any>{1}); });
  EXPECT_EQ(e.kind(), "TypeError");
  EXPECT_NE(e.message().find("List"), std::string::npos) << e.message();
}

// ---------------------------------------------------------------------------
// ffi.ContainerFindFirstNonCPUDevice
// ---------------------------------------------------------------------------

struct HostMemory {
  void AllocData(DLTensor* t) { t->data = std::malloc(16); }
  void FreeData(DLTensor* t) { std::free(t->data); }
};

ffi::Tensor TensorOn(DLDevice device) {
  return ffi::Tensor::FromNDAlloc(HostMemory(), ffi::Shape({2}), DLDataType{kDLFloat, 32, 1},
                                  device);
}

DLDevice FindDevice(const Any& container) {
  return Global("ffi.ContainerFindFirstNonCPUDevice")(container).cast<DLDevice>();
}

TEST(RuntimeGlobals, FindFirstNonCPUDeviceSearchesNestedContainers) {
  ffi::Tensor cpu = TensorOn(DLDevice{kDLCPU, 0});
  ffi::Tensor cuda1 = TensorOn(DLDevice{kDLCUDA, 1});
  ffi::Tensor cuda2 = TensorOn(DLDevice{kDLCUDA, 2});
  Array<Any> nested{cpu, List<Any>{1, ffi::Map<Any, Any>{{String("k"), cuda1}}}, cuda2};
  DLDevice d = FindDevice(nested);
  EXPECT_EQ(d.device_type, kDLCUDA);
  EXPECT_EQ(d.device_id, 1);
  ffi::Dict<Any, Any> dict{{String("x"), cpu}, {String("y"), cuda2}};
  d = FindDevice(dict);
  EXPECT_EQ(d.device_type, kDLCUDA);
  EXPECT_EQ(d.device_id, 2);
}

TEST(RuntimeGlobals, FindFirstNonCPUDeviceIsCpuWhenThereIsNone) {
  Array<Any> only_cpu{TensorOn(DLDevice{kDLCPU, 0}), 1, String("s")};
  DLDevice d = FindDevice(only_cpu);
  EXPECT_EQ(d.device_type, kDLCPU);
  EXPECT_EQ(d.device_id, 0);
  d = FindDevice(Any(5));
  EXPECT_EQ(d.device_type, kDLCPU);
}

TEST(RuntimeGlobals, FindFirstNonCPUDeviceStopsOnAListContainingItself) {
  List<Any> l{1};
  l.push_back(l);
  DLDevice d = FindDevice(l);
  EXPECT_EQ(d.device_type, kDLCPU);
  l.clear();  // break the cycle so the list is freed
}

}  // namespace
