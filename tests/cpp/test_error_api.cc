// Tests of the Error members and error macros of the 0.1.x C++ API: cause
// chain and extra context, FullMessage, the byte-array backtrace constructor,
// what(), the CHECK_xx macros with an optional kind, CHECK_NOTNULL as an
// expression, DCHECK, LOG_AND_THROW and the safe-call helpers.
#include <gtest/gtest.h>
#include <tvm/ffi/any.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/string.h>

#include <string>

#include "testing_helpers.h"

namespace {

namespace ffi = tvm::ffi;
using ffi::Error;
using tvm_ffi_testing::CatchError;

TEST(ErrorApi, WhatIsTheMessageOnly) {
  Error e("ValueError", "bad value", "");
  EXPECT_STREQ(e.what(), "bad value");
}

TEST(ErrorApi, FullMessageHasTracebackThenKindAndMessage) {
  Error e("RuntimeError", "test0",
          "  File \"b.cc\", line 2, in g\n  File \"a.cc\", line 1, in f\n");
  EXPECT_EQ(e.FullMessage(),
            "Traceback (most recent call last):\n"
            "  File \"a.cc\", line 1, in f\n"
            "  File \"b.cc\", line 2, in g\n"
            "RuntimeError: test0\n");
}

TEST(ErrorApi, FullMessageOfAThrownErrorNamesTheThrowingFunction) {
  Error e = CatchError([] { TVM_FFI_THROW(RuntimeError) << "test0"; });
  std::string full = e.FullMessage();
  EXPECT_EQ(full.rfind("Traceback (most recent call last):\n", 0), 0u) << full;
  EXPECT_NE(full.find("line"), std::string::npos) << full;
  EXPECT_NE(full.find("TestBody"), std::string::npos) << full;
  EXPECT_NE(full.find("RuntimeError: test0\n"), std::string::npos) << full;
}

TEST(ErrorApi, TracebackMostRecentCallLastKeepsOnlyTerminatedNonEmptyLines) {
  Error e("RuntimeError", "m", "test0\ntest1\n\ntest2\ntrailing");
  EXPECT_EQ(e.TracebackMostRecentCallLast(), "test2\ntest1\ntest0\n");
}

TEST(ErrorApi, ByteArrayBacktraceConstructor) {
  std::string bt = "  File \"x.cc\", line 3, in h\n";
  TVMFFIByteArray bytes{bt.data(), bt.size()};
  Error e("TypeError", "msg", &bytes);
  EXPECT_EQ(e.kind(), "TypeError");
  EXPECT_EQ(e.message(), "msg");
  EXPECT_EQ(e.backtrace(), bt);
  Error none("TypeError", "msg", static_cast<const TVMFFIByteArray*>(nullptr));
  EXPECT_EQ(none.backtrace(), "");
}

TEST(ErrorApi, CauseChainAndExtraContextAreKeptByTheError) {
  Error cause("KeyError", "inner", "");
  ffi::ObjectRef extra = Error("ValueError", "context object", "");
  Error outer("RuntimeError", "outer", "", cause, extra);
  ASSERT_TRUE(outer.cause_chain().has_value());
  EXPECT_TRUE(outer.cause_chain()->same_as(cause));
  EXPECT_EQ(outer.cause_chain()->message(), "inner");
  ASSERT_TRUE(outer.extra_context().has_value());
  EXPECT_TRUE(outer.extra_context()->same_as(extra));
}

TEST(ErrorApi, NoCauseOrContextByDefault) {
  Error e("RuntimeError", "m", "");
  EXPECT_FALSE(e.cause_chain().has_value());
  EXPECT_FALSE(e.extra_context().has_value());
  Error explicit_none("RuntimeError", "m", "", std::nullopt, std::nullopt);
  EXPECT_FALSE(explicit_none.cause_chain().has_value());
}

TEST(ErrorApi, CauseSurvivesItsLastOutsideHandle) {
  Error outer("RuntimeError", "outer", "", Error("KeyError", "inner", ""), std::nullopt);
  ASSERT_TRUE(outer.cause_chain().has_value());
  EXPECT_EQ(outer.cause_chain()->kind(), "KeyError");
}

TEST(ErrorApi, UpdateBacktraceReplacesOrAppends) {
  Error e("RuntimeError", "m", "a\n");
  std::string more = "b\n";
  TVMFFIByteArray bytes{more.data(), more.size()};
  e.UpdateBacktrace(&bytes, kTVMFFIBacktraceUpdateModeAppend);
  EXPECT_EQ(e.backtrace(), "a\nb\n");
  e.UpdateBacktrace(&bytes, kTVMFFIBacktraceUpdateModeReplace);
  EXPECT_EQ(e.backtrace(), "b\n");
}

TEST(ErrorApi, EnvErrorAlreadySetHasItsKindAndNoMessage) {
  Error e = ffi::EnvErrorAlreadySet();
  EXPECT_EQ(e.kind(), "EnvErrorAlreadySet");
  EXPECT_EQ(e.message(), "");
}

TEST(ErrorApi, SetSafeCallRaisedAndMoveFromSafeCallRaisedRoundTrip) {
  Error e("IndexError", "raised", "bt\n");
  ffi::detail::SetSafeCallRaised(e);
  Error back = ffi::detail::MoveFromSafeCallRaised();
  EXPECT_TRUE(back.same_as(e));
  EXPECT_EQ(back.backtrace(), "bt\n");
}

TEST(ErrorApi, RaisedFromCStrPartsConcatenatesAndSkipsNull) {
  const char* parts[] = {"a", nullptr, "b", "c"};
  TVMFFIErrorSetRaisedFromCStrParts("ValueError", parts, 4);
  Error e = ffi::detail::MoveFromSafeCallRaised();
  EXPECT_EQ(e.kind(), "ValueError");
  EXPECT_EQ(e.message(), "abc");
}

// ---- check macros --------------------------------------------------------

TEST(ErrorCheckMacros, CheckWithKindUsesTheKind) {
  int x = 1;
  Error e = CatchError([&] { TVM_FFI_CHECK(x == 2, TypeError) << "why"; });
  EXPECT_EQ(e.kind(), "TypeError");
  EXPECT_EQ(e.message(), "Check failed: (x == 2) is false: why");
}

TEST(ErrorCheckMacros, CheckWithoutKindIsInternalError) {
  int x = 1;
  Error e = CatchError([&] { TVM_FFI_CHECK(x == 2) << "why"; });
  EXPECT_EQ(e.kind(), "InternalError");
  EXPECT_EQ(e.message(), "Check failed: (x == 2) is false: why");
}

TEST(ErrorCheckMacros, BinaryChecksHaveTheBlankBeforeTheColon) {
  int a = 2, b = 3;
  Error e = CatchError([&] { TVM_FFI_CHECK_GT(a, b, ValueError) << "extra"; });
  EXPECT_EQ(e.kind(), "ValueError");
  EXPECT_EQ(e.message(), "Check failed: a > b (2 vs. 3) : extra");
}

TEST(ErrorCheckMacros, EveryBinaryCheckFailsOnlyWhenItShould) {
  int one = 1, two = 2;
  EXPECT_NO_THROW({
    TVM_FFI_CHECK_EQ(one, 1, ValueError);
    TVM_FFI_CHECK_NE(one, two, ValueError);
    TVM_FFI_CHECK_LT(one, two, ValueError);
    TVM_FFI_CHECK_LE(two, two, ValueError);
    TVM_FFI_CHECK_GT(two, one, ValueError);
    TVM_FFI_CHECK_GE(two, two, ValueError);
  });
  EXPECT_EQ(CatchError([&] { TVM_FFI_CHECK_EQ(one, two, KeyError); }).message(),
            "Check failed: one == two (1 vs. 2) : ");
  EXPECT_EQ(CatchError([&] { TVM_FFI_CHECK_NE(one, one, KeyError); }).message(),
            "Check failed: one != one (1 vs. 1) : ");
  EXPECT_EQ(CatchError([&] { TVM_FFI_CHECK_LT(two, one, KeyError); }).message(),
            "Check failed: two < one (2 vs. 1) : ");
  EXPECT_EQ(CatchError([&] { TVM_FFI_CHECK_LE(two, one, KeyError); }).message(),
            "Check failed: two <= one (2 vs. 1) : ");
  EXPECT_EQ(CatchError([&] { TVM_FFI_CHECK_GE(one, two, KeyError); }).message(),
            "Check failed: one >= two (1 vs. 2) : ");
  EXPECT_EQ(CatchError([&] { TVM_FFI_CHECK_GE(one, two, KeyError); }).kind(), "KeyError");
}

TEST(ErrorCheckMacros, BinaryCheckWithoutKindIsInternalError) {
  Error e = CatchError([] { TVM_FFI_CHECK_EQ(1 + 1, 3) << "sum"; });
  EXPECT_EQ(e.kind(), "InternalError");
  EXPECT_EQ(e.message(), "Check failed: 1 + 1 == 3 (2 vs. 3) : sum");
}

TEST(ErrorCheckMacros, BinaryCheckEvaluatesEachOperandOnce) {
  int calls = 0;
  auto next = [&] { return ++calls; };
  EXPECT_NO_THROW(TVM_FFI_CHECK_EQ(next(), 1, ValueError));
  EXPECT_EQ(calls, 1);
  Error e = CatchError([&] { TVM_FFI_CHECK_EQ(next(), 5, ValueError); });
  EXPECT_EQ(calls, 2);
  EXPECT_EQ(e.message(), "Check failed: next() == 5 (2 vs. 5) : ");
}

TEST(ErrorCheckMacros, ChecksAreSafeInsideIfElse) {
  int branch = 0;
  bool flag = false;
  if (flag)
    TVM_FFI_CHECK_EQ(1, 1, ValueError);
  else
    branch = 2;
  EXPECT_EQ(branch, 2);
}

TEST(ErrorCheckMacros, CheckNotNullYieldsThePointer) {
  int value = 7;
  int* p = &value;
  int* q = TVM_FFI_CHECK_NOTNULL(p, ValueError);
  EXPECT_EQ(q, p);
  EXPECT_EQ(*TVM_FFI_ICHECK_NOTNULL(p), 7);
}

TEST(ErrorCheckMacros, CheckNotNullThrowsTheKindNamingTheExpression) {
  int* p = nullptr;
  Error e = CatchError([&] { (void)TVM_FFI_CHECK_NOTNULL(p, ValueError); });
  EXPECT_EQ(e.kind(), "ValueError");
  EXPECT_EQ(e.message(), "Check not null: p ");
  Error i = CatchError([&] { (void)TVM_FFI_ICHECK_NOTNULL(p); });
  EXPECT_EQ(i.kind(), "InternalError");
  EXPECT_EQ(i.message(), "Check not null: p ");
}

TEST(ErrorCheckMacros, IcheckBinaryFormsAreInternalError) {
  Error e = CatchError([] { TVM_FFI_ICHECK_LT(3, 2); });
  EXPECT_EQ(e.kind(), "InternalError");
  EXPECT_EQ(e.message(), "Check failed: 3 < 2 (3 vs. 2) : ");
}

#ifdef NDEBUG
TEST(ErrorCheckMacros, DcheckDoesNotEvaluateInReleaseBuilds) {
  int calls = 0;
  auto next = [&] { return ++calls; };
  TVM_FFI_DCHECK(next() == 100);
  TVM_FFI_DCHECK_EQ(next(), 100);
  EXPECT_EQ(calls, 0);
  int* p = nullptr;
  EXPECT_EQ(TVM_FFI_DCHECK_NOTNULL(p), nullptr);
}
#else
TEST(ErrorCheckMacros, DcheckIsIcheckInDebugBuilds) {
  EXPECT_EQ(CatchError([] { TVM_FFI_DCHECK(1 == 2); }).kind(), "InternalError");
  EXPECT_EQ(CatchError([] { TVM_FFI_DCHECK_GE(1, 2); }).message(),
            "Check failed: 1 >= 2 (1 vs. 2) : ");
  int* p = nullptr;
  EXPECT_EQ(CatchError([&] { (void)TVM_FFI_DCHECK_NOTNULL(p); }).kind(), "InternalError");
}
#endif

TEST(ErrorCheckMacros, DcheckPassesSilentlyWhenTrue) {
  int value = 1;
  int* p = &value;
  EXPECT_NO_THROW({
    TVM_FFI_DCHECK(value == 1);
    TVM_FFI_DCHECK_EQ(value, 1);
    TVM_FFI_DCHECK_NE(value, 2);
    TVM_FFI_DCHECK_LT(value, 2);
    TVM_FFI_DCHECK_LE(value, 1);
    TVM_FFI_DCHECK_GT(value, 0);
    TVM_FFI_DCHECK_GE(value, 1);
    EXPECT_EQ(TVM_FFI_DCHECK_NOTNULL(p), p);
  });
}

TEST(ErrorCheckMacros, LogAndThrowPrintsTheFullMessageToStderr) {
  testing::internal::CaptureStderr();
  Error e = CatchError([] { TVM_FFI_LOG_AND_THROW(ValueError) << "logged " << 3; });
  std::string err = testing::internal::GetCapturedStderr();
  EXPECT_EQ(e.kind(), "ValueError");
  EXPECT_EQ(e.message(), "logged 3");
  EXPECT_NE(err.find("Traceback (most recent call last):"), std::string::npos) << err;
  EXPECT_NE(err.find("ValueError: logged 3"), std::string::npos) << err;
}

}  // namespace
