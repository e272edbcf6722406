// Tests of the Function members of the 0.1.x C++ API: PackedArgs and the
// (PackedArgs, Any*) packed form, the explicit callable constructor,
// FromPackedInplace, InvokeExternC, GetGlobal as std::optional, the
// GetGlobalRequired message, ListGlobalNames and TypedFunction assignment.
#include <gtest/gtest.h>
#include <tvm/ffi/any.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/string.h>

#include <algorithm>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "testing_helpers.h"

namespace {

namespace ffi = tvm::ffi;
using ffi::Any;
using ffi::AnyView;
using ffi::Function;
using ffi::PackedArgs;
using ffi::String;
using ffi::TypedFunction;
using tvm_ffi_testing::CatchError;

TEST(PackedArgsApi, SizeIndexAndSlice) {
  AnyView views[3];
  int a = 1;
  String b = "two";
  double c = 3.5;
  PackedArgs::Fill(views, a, b, c);
  PackedArgs args(views, 3);
  EXPECT_EQ(args.size(), 3);
  EXPECT_EQ(args.data(), views);
  EXPECT_EQ(args[0].cast<int>(), 1);
  EXPECT_EQ(args[1].cast<String>(), "two");
  PackedArgs tail = args.Slice(1);
  EXPECT_EQ(tail.size(), 2);
  EXPECT_DOUBLE_EQ(tail[1].cast<double>(), 3.5);
  PackedArgs middle = args.Slice(1, 2);
  EXPECT_EQ(middle.size(), 1);
  EXPECT_EQ(middle[0].cast<String>(), "two");
}

TEST(FunctionApi, FromPackedAcceptsThePackedArgsForm) {
  Function f = Function::FromPacked([](PackedArgs args, Any* rv) {
    int sum = 0;
    for (int i = 0; i < args.size(); ++i) sum += args[i].cast<int>();
    *rv = sum;
  });
  EXPECT_EQ(f(1, 2, 3).cast<int>(), 6);
}

TEST(FunctionApi, ExplicitConstructorFromAPackedCallable) {
  Function f([](const AnyView* args, int32_t num_args, Any* rv) { *rv = num_args; });
  EXPECT_EQ(f(1, "x").cast<int>(), 2);
  Function g([](PackedArgs args, Any* rv) { *rv = args.size() * 10; });
  EXPECT_EQ(g(1).cast<int>(), 10);
}

TEST(FunctionApi, CallPackedWithPackedArgs) {
  Function f = Function::FromTyped([](int x, int y) { return x - y; });
  AnyView views[2];
  PackedArgs::Fill(views, 10, 4);
  Any rv;
  f.CallPacked(PackedArgs(views, 2), &rv);
  EXPECT_EQ(rv.cast<int>(), 6);
}

struct Counter {
  explicit Counter(int start) : value(start) {}
  void operator()(PackedArgs args, Any* rv) { *rv = ++value; }
  int value;
};

TEST(FunctionApi, FromPackedInplaceExposesTheCallable) {
  auto [f, counter] = Function::FromPackedInplace<Counter>(10);
  EXPECT_EQ(counter->value, 10);
  EXPECT_EQ(f().cast<int>(), 11);
  EXPECT_EQ(f().cast<int>(), 12);
  EXPECT_EQ(counter->value, 12);
}

int AddOneSafeCall(void* handle, const TVMFFIAny* args, int32_t num_args, TVMFFIAny* result) {
  TVM_FFI_SAFE_CALL_BEGIN();
  int* offset = static_cast<int*>(handle);
  TVM_FFI_CHECK_EQ(num_args, 1, TypeError) << "one argument";
  Any out = ffi::AnyView::CopyFromTVMFFIAny(args[0]).cast<int>() + *offset;
  *result = ffi::detail::AnyUnsafe::MoveAnyToTVMFFIAny(std::move(out));
  TVM_FFI_SAFE_CALL_END();
}

TEST(FunctionApi, InvokeExternCCallsAndRethrows) {
  int offset = 100;
  EXPECT_EQ(Function::InvokeExternC(&offset, AddOneSafeCall, 5).cast<int>(), 105);
  ffi::Error e = CatchError([&] { Function::InvokeExternC(&offset, AddOneSafeCall, 1, 2); });
  EXPECT_EQ(e.kind(), "TypeError");
  EXPECT_EQ(e.message(), "Check failed: num_args == 1 (2 vs. 1) : one argument");
}

TEST(FunctionApi, GetGlobalReturnsStdOptional) {
  std::optional<Function> missing = Function::GetGlobal("testing.cppapi.missing");
  EXPECT_FALSE(missing.has_value());
  Function::SetGlobal("testing.cppapi.present", Function::FromTyped([]() { return 1; }), true);
  std::optional<Function> present = Function::GetGlobal(std::string("testing.cppapi.present"));
  ASSERT_TRUE(present.has_value());
  EXPECT_EQ((*present)().cast<int>(), 1);
  EXPECT_TRUE(Function::GetGlobal(String("testing.cppapi.present")).has_value());
  Function::RemoveGlobal("testing.cppapi.present");
}

TEST(FunctionApi, GetGlobalRequiredNamesTheMissingFunction) {
  ffi::Error e = CatchError([] { Function::GetGlobalRequired("testing.cppapi.nowhere"); });
  EXPECT_EQ(e.kind(), "ValueError");
  EXPECT_EQ(e.message(), "Function testing.cppapi.nowhere not found");
}

TEST(FunctionApi, ListGlobalNamesIncludesARegisteredName) {
  Function::SetGlobal("testing.cppapi.listed", Function::FromTyped([]() {}), true);
  std::vector<String> names = Function::ListGlobalNames();
  EXPECT_NE(std::find(names.begin(), names.end(), String("testing.cppapi.listed")), names.end());
  Function::RemoveGlobal("testing.cppapi.listed");
}

TEST(FunctionApi, UnnamedTypedFunctionMessagesHaveNoName) {
  Function f = Function::FromTyped([](int x) { return x; });
  ffi::Error e = CatchError([&] { f(); });
  EXPECT_EQ(e.kind(), "TypeError");
  EXPECT_EQ(e.message(),
            "Mismatched number of arguments when calling: `(0: int) -> int`. Expected 1 but got 0 "
            "arguments");
}

TEST(TypedFunctionApi, AssignALambdaOrAFunction) {
  TypedFunction<int(int)> f;
  f = [](int x) { return x + 1; };
  EXPECT_EQ(f(1), 2);
  f = Function::FromTyped([](int x) { return x * 3; });
  EXPECT_EQ(f(2), 6);
}

TEST(TypedFunctionApi, TypeStrIsTheSignature) {
  using F = TypedFunction<int(int, String)>;
  EXPECT_EQ(ffi::TypeTraits<F>::TypeStr(), "(0: int, 1: str) -> int");
  EXPECT_EQ(F::TypeSchema(), F::Schema());
  Function apply = Function::FromTyped([](F f) { return f(1, "x"); }, "apply");
  ffi::Error e = CatchError([&] { apply(3); });
  EXPECT_EQ(e.message(),
            "Mismatched type on argument #0 when calling: `apply(0: (0: int, 1: str) -> int) -> "
            "int`. Expected `(0: int, 1: str) -> int` but got `int`");
}

}  // namespace
