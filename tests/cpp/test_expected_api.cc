// Tests of Expected<void>, Unexpected, the Expected conversions and accessors,
// the TVM_FFI_UNEXPECTED / TVM_FFI_RET_CHECK* macros and Function::CallExpected.
#include <gtest/gtest.h>
#include <tvm/ffi/any.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/expected.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/string.h>

#include <string>

#include "testing_helpers.h"

namespace {

namespace ffi = tvm::ffi;
using ffi::Any;
using ffi::Error;
using ffi::Expected;
using ffi::Function;
using ffi::String;
using ffi::Unexpected;
using tvm_ffi_testing::CatchError;

TEST(ExpectedApi, UnexpectedHoldsTheError) {
  Unexpected u(Error("KeyError", "k", ""));
  EXPECT_EQ(u.error().kind(), "KeyError");
  Expected<int> e = u;
  EXPECT_TRUE(e.is_err());
  EXPECT_EQ(e.error().message(), "k");
}

TEST(ExpectedApi, ErrorOnAValueIsRuntimeError) {
  Expected<int> e = 3;
  Error err = CatchError([&] { (void)e.error(); });
  EXPECT_EQ(err.kind(), "RuntimeError");
  EXPECT_EQ(err.message(), "Bad expected access: contains value, not error");
}

TEST(ExpectedApi, ValueOfAnErrorThrowsThatError) {
  Error stored("IndexError", "stored", "");
  Expected<int> e = stored;
  Error thrown = CatchError([&] { (void)e.value(); });
  EXPECT_TRUE(thrown.same_as(stored));
}

TEST(ExpectedApi, TypeIndexIsTheStoredIndex) {
  EXPECT_EQ(Expected<int>(1).type_index(), kTVMFFIInt);
  EXPECT_EQ(Expected<int>(Error("E", "m", "")).type_index(), kTVMFFIError);
}

TEST(ExpectedApi, ConvertsFromAConvertibleValue) {
  Expected<int64_t> e = 5;  // int -> int64_t
  EXPECT_EQ(e.value(), 5);
  Expected<String> s = "text";
  EXPECT_EQ(s.value(), "text");
}

TEST(ExpectedApi, ConvertsFromAnotherExpected) {
  Expected<int> i = 4;
  Expected<double> d = i;
  EXPECT_DOUBLE_EQ(d.value(), 4.0);
  Expected<int> bad = Error("ValueError", "no", "");
  Expected<double> still_bad = bad;
  EXPECT_EQ(still_bad.error().message(), "no");
}

TEST(ExpectedApi, ValueOrOnErrorAndOnValue) {
  Expected<int> ok = 2;
  Expected<int> err = Error("E", "m", "");
  EXPECT_EQ(ok.value_or(9), 2);
  EXPECT_EQ(err.value_or(9), 9);
  EXPECT_EQ(Expected<int>(Error("E", "m", "")).value_or(7), 7);
}

TEST(ExpectedApi, AsOrErrorIsStrict) {
  Expected<Any> holds_int = Any(1);
  Expected<int> as_int = holds_int.as_or_error<int>();
  EXPECT_EQ(as_int.value(), 1);
  Expected<double> as_double = holds_int.as_or_error<double>();
  ASSERT_TRUE(as_double.is_err());
  EXPECT_EQ(as_double.error().kind(), "TypeError");
  EXPECT_EQ(as_double.error().message(), "Cannot treat type `int` as type `float`");
}

TEST(ExpectedApi, AsOrErrorPassesAnErrorOn) {
  Expected<Any> err = Error("KeyError", "gone", "");
  Expected<int> as_int = std::move(err).as_or_error<int>();
  EXPECT_EQ(as_int.error().kind(), "KeyError");
}

TEST(ExpectedVoid, DefaultIsSuccess) {
  Expected<void> ok;
  EXPECT_TRUE(ok.is_ok());
  EXPECT_TRUE(ok.has_value());
  EXPECT_FALSE(ok.is_err());
  EXPECT_EQ(ok.type_index(), kTVMFFINone);
  EXPECT_NO_THROW(ok.value());
  EXPECT_EQ(CatchError([&] { (void)ok.error(); }).kind(), "RuntimeError");
}

TEST(ExpectedVoid, HoldsAnErrorAndThrowsIt) {
  Expected<void> err = Error("ValueError", "failed", "");
  EXPECT_TRUE(err.is_err());
  EXPECT_EQ(err.error().message(), "failed");
  EXPECT_EQ(CatchError([&] { err.value(); }).message(), "failed");
  Expected<void> from_unexpected = Unexpected(Error("KeyError", "k", ""));
  EXPECT_EQ(from_unexpected.error().kind(), "KeyError");
}

TEST(ExpectedVoid, RoundTripsThroughAny) {
  Any ok = Expected<void>();
  EXPECT_EQ(ok.type_index(), kTVMFFINone);
  Expected<void> back = ok.cast<Expected<void>>();
  EXPECT_TRUE(back.is_ok());
  Any err = Expected<void>(Error("E", "m", ""));
  EXPECT_TRUE(err.cast<Expected<void>>().is_err());
  EXPECT_FALSE(Any(1).try_cast<Expected<void>>().has_value());
}

Expected<int> Positive(int x) {
  TVM_FFI_RET_CHECK_GT(x, 0, ValueError) << "x must be positive";
  if (x == 13) return TVM_FFI_UNEXPECTED(KeyError) << "unlucky " << x;
  return x * 2;
}

Expected<void> NonZero(int x) {
  TVM_FFI_RET_CHECK(x != 0, ValueError) << "zero";
  return {};
}

TEST(ExpectedMacros, RetCheckReturnsTheError) {
  Expected<int> e = Positive(-1);
  ASSERT_TRUE(e.is_err());
  EXPECT_EQ(e.error().kind(), "ValueError");
  EXPECT_EQ(e.error().message(), "Check failed: x > 0 (-1 vs. 0) : x must be positive");
  EXPECT_EQ(Positive(3).value(), 6);
}

TEST(ExpectedMacros, RetCheckOnExpectedVoid) {
  EXPECT_TRUE(NonZero(1).is_ok());
  Expected<void> e = NonZero(0);
  EXPECT_EQ(e.error().message(), "Check failed: (x != 0) is false: zero");
}

TEST(ExpectedMacros, UnexpectedHasTheSiteAsItsOnlyFrame) {
  Expected<int> e = Positive(13);
  Error err = e.error();
  EXPECT_EQ(err.kind(), "KeyError");
  EXPECT_EQ(err.message(), "unlucky 13");
  std::string bt = err.backtrace();
  EXPECT_EQ(bt.rfind("  File \"", 0), 0u) << bt;
  EXPECT_NE(bt.find("test_expected_api.cc"), std::string::npos) << bt;
  EXPECT_EQ(bt.find('\n'), bt.size() - 1) << bt;
}

TEST(ExpectedMacros, UnexpectedConvertsToUnexpected) {
  Unexpected<Error> u = TVM_FFI_UNEXPECTED(TypeError) << "direct";
  EXPECT_EQ(u.error().kind(), "TypeError");
}

TEST(ExpectedMacros, UnexpectedMessageTakesStreamManipulators) {
  Unexpected<Error> u = TVM_FFI_UNEXPECTED(ValueError) << std::hex << 31 << std::endl;
  EXPECT_EQ(u.error().message(), "1f\n");
}

TEST(ExpectedMacros, RetCheckEvaluatesOperandsOnce) {
  int calls = 0;
  auto body = [&]() -> Expected<int> {
    TVM_FFI_RET_CHECK_EQ(++calls, 1, ValueError);
    TVM_FFI_RET_ICHECK_LT(++calls, 0);
    return 0;
  };
  Expected<int> e = body();
  EXPECT_EQ(calls, 2);
  EXPECT_EQ(e.error().kind(), "InternalError");
  EXPECT_EQ(e.error().message(), "Check failed: ++calls < 0 (2 vs. 0) : ");
}

TEST(CallExpected, SuccessReturnsTheValue) {
  Function add = Function::FromTyped([](int a, int b) { return a + b; });
  Expected<int> r = add.CallExpected<int>(1, 2);
  EXPECT_EQ(r.value(), 3);
  Expected<Any> any = add.CallExpected(2, 2);
  EXPECT_EQ(any.value().cast<int>(), 4);
}

TEST(CallExpected, RaisedErrorBecomesTheError) {
  Function fail = Function::FromTyped([]() -> int { TVM_FFI_THROW(IndexError) << "oops"; });
  Expected<int> r = fail.CallExpected<int>();
  ASSERT_TRUE(r.is_err());
  EXPECT_EQ(r.error().kind(), "IndexError");
  EXPECT_EQ(r.error().message(), "oops");
}

TEST(CallExpected, ReturnedErrorValueBecomesTheError) {
  Function returns_error = Function::FromTyped([]() { return Error("ValueError", "value", ""); });
  EXPECT_EQ(returns_error.CallExpected<int>().error().message(), "value");
  EXPECT_EQ(returns_error.CallExpected<void>().error().message(), "value");
}

TEST(CallExpected, VoidAcceptsNoneOnly) {
  Function nothing = Function::FromTyped([]() {});
  EXPECT_TRUE(nothing.CallExpected<void>().is_ok());
  Function one = Function::FromTyped([]() { return 1; });
  Expected<void> r = one.CallExpected<void>();
  ASSERT_TRUE(r.is_err());
  EXPECT_EQ(r.error().kind(), "TypeError");
  EXPECT_EQ(r.error().message(), "CallExpected: result type mismatch, expected void, but got int");
}

TEST(CallExpected, MismatchedResultTypeIsTypeError) {
  Function text = Function::FromTyped([]() { return String("not a number"); });
  Expected<int> r = text.CallExpected<int>();
  ASSERT_TRUE(r.is_err());
  EXPECT_EQ(r.error().kind(), "TypeError");
  EXPECT_EQ(
      r.error().message().rfind("CallExpected: result type mismatch, expected int, but got ", 0),
      0u)
      << r.error().message();
}

}  // namespace
