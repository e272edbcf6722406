// Tests of ffi::Error and the error macros (error.h): kinds and messages of
// TVM_FFI_THROW and the check macros, the backtrace text (throw site, native
// frames, order), the safe-call boundary in both directions, errors stored in
// Any, and the per-thread raised-error slot.
#include <gtest/gtest.h>
#include <tvm/ffi/any.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/string.h>

#include <atomic>
#include <cstdlib>
#include <exception>
#include <functional>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace error_test_helpers {

// Writes after each call keep the calls from becoming tail calls, so every
// helper keeps its own frame.
volatile int g_sink = 0;
int g_throw_line = 0;

TVM_FFI_NOINLINE void ThrowInner(int value) {
  // clang-format off
  g_throw_line = __LINE__; if (value >= 0) TVM_FFI_THROW(ValueError) << "inner failure " << value;
  // clang-format on
  g_sink = 1;
}

TVM_FFI_NOINLINE void ThrowMiddle(int value) {
  ThrowInner(value);
  g_sink = 2;
}

TVM_FFI_NOINLINE void ThrowOuter(int value) {
  ThrowMiddle(value);
  g_sink = 3;
}

}  // namespace error_test_helpers

namespace {

namespace ffi = tvm::ffi;
using ffi::Any;
using ffi::Error;

/*! \brief Runs fn and returns the ffi::Error it throws (fails the test if none). */
Error Catch(const std::function<void()>& fn) {
  try {
    fn();
  } catch (const Error& e) {
    return e;
  }
  ADD_FAILURE() << "expected an ffi::Error";
  return Error("NoError", "nothing was thrown");
}

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t nl = text.find('\n', pos);
    if (nl == std::string::npos) nl = text.size();
    lines.push_back(text.substr(pos, nl - pos));
    pos = nl + 1;
  }
  return lines;
}

bool EndsWith(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() &&
         s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

/*! \brief `test_error.cc", line N, in ` -- the tail of a frame line for this file. */
std::string SiteMarker(int line) {
  return "test_error.cc\", line " + std::to_string(line) + ", in ";
}

/*! \brief Empties this thread's raised-error slot. */
void ClearRaised() { TVMFFIErrorMoveFromRaised(nullptr); }

/*! \brief Whether this thread's slot holds an error (taking and releasing it). */
bool TakeRaisedIfAny(std::string* kind = nullptr, std::string* message = nullptr) {
  TVMFFIObjectHandle handle = nullptr;
  TVMFFIErrorMoveFromRaised(&handle);
  if (handle == nullptr) return false;
  Error err(ffi::detail::ObjectUnsafe::ObjectPtrFromOwned<ffi::Object>(
      static_cast<TVMFFIObject*>(handle)));
  if (kind) *kind = err.kind();
  if (message) *message = err.message();
  return true;
}

// ---------------------------------------------------------------------------
// TVM_FFI_THROW
// ---------------------------------------------------------------------------

TEST(ErrorThrow, KindAndStreamedMessage) {
  Error e = Catch([] { TVM_FFI_THROW(ValueError) << "bad size " << 3 << ", expected " << 4.5; });
  EXPECT_EQ(e.kind(), "ValueError");
  EXPECT_EQ(e.message(), "bad size 3, expected 4.5");
}

TEST(ErrorThrow, WhatIsKindColonMessage) {
  Error e = Catch([] { TVM_FFI_THROW(IndexError) << "index 5 out of range"; });
  EXPECT_STREQ(e.what(), "index 5 out of range");
}

TEST(ErrorThrow, EveryKindNameIsKeptVerbatim) {
  EXPECT_EQ(Catch([] { TVM_FFI_THROW(TypeError) << "m"; }).kind(), "TypeError");
  EXPECT_EQ(Catch([] { TVM_FFI_THROW(KeyError) << "m"; }).kind(), "KeyError");
  EXPECT_EQ(Catch([] { TVM_FFI_THROW(AttributeError) << "m"; }).kind(), "AttributeError");
  EXPECT_EQ(Catch([] { TVM_FFI_THROW(RuntimeError) << "m"; }).kind(), "RuntimeError");
  EXPECT_EQ(Catch([] { TVM_FFI_THROW(NotImplementedError) << "m"; }).kind(), "NotImplementedError");
  EXPECT_EQ(Catch([] { TVM_FFI_THROW(InternalError) << "m"; }).kind(), "InternalError");
  EXPECT_EQ(Catch([] { TVM_FFI_THROW(MyCustomError) << "m"; }).kind(), "MyCustomError");
}

TEST(ErrorThrow, EmptyMessage) {
  Error e = Catch([] { TVM_FFI_THROW(RuntimeError); });
  EXPECT_EQ(e.message(), "");
  EXPECT_STREQ(e.what(), "");
}

TEST(ErrorThrow, IsCatchableAsStdException) {
  try {
    TVM_FFI_THROW(ValueError) << "as std::exception";
    FAIL() << "expected a throw";
  } catch (const std::exception& e) {
    EXPECT_STREQ(e.what(), "as std::exception");
  }
}

TEST(ErrorWhat, FormattedOnceWhenManyThreadsAskAtOnce) {
  // An Error read back from an Any has no text yet: the first what() formats it.
  Any stored = Error("ValueError", "shared by threads");
  for (int round = 0; round < 100; ++round) {
    Error err = stored.cast<Error>();
    std::atomic<int> ready{0};
    std::vector<const char*> seen(4, nullptr);
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t) {
      threads.emplace_back([&, t] {
        ready.fetch_add(1);
        while (ready.load() < 4) {
        }
        seen[t] = err.what();
      });
    }
    for (std::thread& th : threads) th.join();
    for (const char* text : seen) {
      // Every thread gets the one published text, which lives as long as err.
      EXPECT_EQ(text, seen[0]);
      EXPECT_STREQ(text, "shared by threads");
    }
  }
}

TEST(ErrorWhat, SurvivesCopyMoveAndAssignment) {
  Error err("TypeError", "original");
  EXPECT_STREQ(err.what(), "original");
  Error copy = err;
  EXPECT_STREQ(copy.what(), "original");
  Error moved = std::move(copy);
  EXPECT_STREQ(moved.what(), "original");
  Error other("KeyError", "other");
  EXPECT_STREQ(other.what(), "other");
  other = err;  // the old text must not be reported for the new error
  EXPECT_STREQ(other.what(), "original");
  other = Error("IndexError", "moved in");
  EXPECT_STREQ(other.what(), "moved in");
}

// ---------------------------------------------------------------------------
// Backtraces
// ---------------------------------------------------------------------------

TEST(ErrorBacktrace, FirstFrameIsTheThrowSite) {
  int line = 0;
  Error e = Catch([&] {
    // clang-format off
    line = __LINE__; TVM_FFI_THROW(ValueError) << "site";
    // clang-format on
  });
  std::vector<std::string> lines = Lines(e.backtrace());
  ASSERT_FALSE(lines.empty());
  const std::string& first = lines[0];
  EXPECT_EQ(first.rfind("  File \"", 0), 0u) << first;
  EXPECT_NE(first.find(SiteMarker(line)), std::string::npos) << first;
  // The file path ends with this file's name.
  size_t quote = first.find("\", line ");
  ASSERT_NE(quote, std::string::npos);
  EXPECT_TRUE(EndsWith(first.substr(0, quote), "test_error.cc")) << first;
}

TEST(ErrorBacktrace, EveryLineIsAFrameInPythonFormat) {
  Error e = Catch([] { error_test_helpers::ThrowOuter(1); });
  std::string bt = e.backtrace();
  ASSERT_FALSE(bt.empty());
  EXPECT_EQ(bt.back(), '\n');
  for (const std::string& line : Lines(bt)) {
    EXPECT_EQ(line.rfind("  File \"", 0), 0u) << line;
    EXPECT_NE(line.find("\", line "), std::string::npos) << line;
    EXPECT_NE(line.find(", in "), std::string::npos) << line;
  }
}

TEST(ErrorBacktrace, SiteLineOfAHelperIsRecorded) {
  Error e = Catch([] { error_test_helpers::ThrowOuter(2); });
  EXPECT_EQ(e.message(), "inner failure 2");
  std::vector<std::string> lines = Lines(e.backtrace());
  ASSERT_FALSE(lines.empty());
  EXPECT_NE(lines[0].find(SiteMarker(error_test_helpers::g_throw_line)), std::string::npos)
      << lines[0];
  EXPECT_NE(lines[0].find("ThrowInner"), std::string::npos) << lines[0];
}

TEST(ErrorBacktrace, CallerFramesAppearWithFunctionNamesInCallOrder) {
  Error e = Catch([] { error_test_helpers::ThrowOuter(3); });
  std::string bt = e.backtrace();
  size_t inner = bt.find("ThrowInner");
  size_t middle = bt.find("ThrowMiddle");
  size_t outer = bt.find("ThrowOuter");
  ASSERT_NE(outer, std::string::npos) << bt;
  ASSERT_NE(middle, std::string::npos) << bt;
  ASSERT_NE(inner, std::string::npos) << bt;
  // Most recent call first.
  EXPECT_LT(inner, middle) << bt;
  EXPECT_LT(middle, outer) << bt;
  EXPECT_NE(bt.find("error_test_helpers::ThrowOuter"), std::string::npos) << bt;
}

TEST(ErrorBacktrace, MachineryFramesAreNotReported) {
  Error e = Catch([] { error_test_helpers::ThrowOuter(4); });
  std::string bt = e.backtrace();
  EXPECT_EQ(bt.find("ErrorBuilder"), std::string::npos) << bt;
  EXPECT_EQ(bt.find("TVMFFIBacktrace"), std::string::npos) << bt;
}

TEST(ErrorBacktrace, TracebackMostRecentCallLastReversesTheFrames) {
  Error e = Catch([] { error_test_helpers::ThrowOuter(5); });
  std::vector<std::string> forward = Lines(e.backtrace());
  std::vector<std::string> reversed = Lines(e.TracebackMostRecentCallLast());
  ASSERT_EQ(forward.size(), reversed.size());
  for (size_t i = 0; i < forward.size(); ++i) {
    EXPECT_EQ(forward[i], reversed[reversed.size() - 1 - i]);
  }
  // The throw site comes last, like a Python traceback.
  EXPECT_NE(reversed.back().find(SiteMarker(error_test_helpers::g_throw_line)), std::string::npos);
}

TEST(ErrorBacktrace, TracebackOfAnExplicitBacktrace) {
  Error e("ValueError", "m", "  File \"a.cc\", line 1, in f\n  File \"b.cc\", line 2, in g\n");
  EXPECT_EQ(e.backtrace(), "  File \"a.cc\", line 1, in f\n  File \"b.cc\", line 2, in g\n");
  EXPECT_EQ(e.TracebackMostRecentCallLast(),
            "  File \"b.cc\", line 2, in g\n  File \"a.cc\", line 1, in f\n");
  Error empty("ValueError", "m");
  EXPECT_EQ(empty.backtrace(), "");
  EXPECT_EQ(empty.TracebackMostRecentCallLast(), "");
}

TEST(ErrorBacktrace, DisabledByEnvironmentLeavesOnlyTheSite) {
  const char* old = std::getenv("TVM_FFI_BACKTRACE");
  std::string saved = old ? old : "";
  setenv("TVM_FFI_BACKTRACE", "0", 1);
  Error e = Catch([] { error_test_helpers::ThrowOuter(6); });
  if (old) {
    setenv("TVM_FFI_BACKTRACE", saved.c_str(), 1);
  } else {
    unsetenv("TVM_FFI_BACKTRACE");
  }
  std::vector<std::string> lines = Lines(e.backtrace());
  ASSERT_EQ(lines.size(), 1u) << e.backtrace();
  EXPECT_NE(lines[0].find(SiteMarker(error_test_helpers::g_throw_line)), std::string::npos);
}

TEST(ErrorBacktrace, AppendBacktraceAddsOuterFrames) {
  Error e("ValueError", "m", "  File \"a.cc\", line 1, in f\n");
  e.AppendBacktrace("  File \"b.cc\", line 2, in g\n");
  EXPECT_EQ(e.backtrace(), "  File \"a.cc\", line 1, in f\n  File \"b.cc\", line 2, in g\n");
}

// ---------------------------------------------------------------------------
// Check macros
// ---------------------------------------------------------------------------

TEST(ErrorCheck, ICheckRaisesInternalErrorWithTheCondition) {
  int x = 1;
  Error e = Catch([&] { TVM_FFI_ICHECK(x == 2); });
  EXPECT_EQ(e.kind(), "InternalError");
  EXPECT_EQ(e.message(), "Check failed: (x == 2) is false: ");
}

TEST(ErrorCheck, ICheckAppendsTheStreamedMessage) {
  int x = 1;
  Error e = Catch([&] { TVM_FFI_ICHECK(x == 2) << "x is " << x; });
  EXPECT_EQ(e.message(), "Check failed: (x == 2) is false: x is 1");
}

TEST(ErrorCheck, PassingChecksDoNotEvaluateTheMessage) {
  int evaluated = 0;
  auto message = [&] {
    ++evaluated;
    return "msg";
  };
  TVM_FFI_ICHECK(true) << message();
  TVM_FFI_ICHECK_EQ(1, 1) << message();
  TVM_FFI_CHECK(true, ValueError) << message();
  EXPECT_EQ(evaluated, 0);
}

TEST(ErrorCheck, BinaryChecksPrintBothValues) {
  int a = 1, b = 2;
  EXPECT_EQ(Catch([&] { TVM_FFI_ICHECK_EQ(a, b); }).message(), "Check failed: a == b (1 vs. 2) : ");
  EXPECT_EQ(Catch([&] { TVM_FFI_ICHECK_NE(a, a); }).message(), "Check failed: a != a (1 vs. 1) : ");
  EXPECT_EQ(Catch([&] { TVM_FFI_ICHECK_LT(b, a); }).message(), "Check failed: b < a (2 vs. 1) : ");
  EXPECT_EQ(Catch([&] { TVM_FFI_ICHECK_LE(b, a); }).message(), "Check failed: b <= a (2 vs. 1) : ");
  EXPECT_EQ(Catch([&] { TVM_FFI_ICHECK_GT(a, b); }).message(), "Check failed: a > b (1 vs. 2) : ");
  EXPECT_EQ(Catch([&] { TVM_FFI_ICHECK_GE(a, b); }).message(), "Check failed: a >= b (1 vs. 2) : ");
  EXPECT_EQ(Catch([&] { TVM_FFI_ICHECK_EQ(a, b); }).kind(), "InternalError");
}

TEST(ErrorCheck, BinaryCheckAppendsTheStreamedMessage) {
  int a = 1, b = 2;
  Error e = Catch([&] { TVM_FFI_ICHECK_EQ(a, b) << "shapes differ"; });
  EXPECT_EQ(e.message(), "Check failed: a == b (1 vs. 2) : shapes differ");
  EXPECT_EQ(e.message().rfind("Check failed: a == b (1 vs. 2)", 0), 0u);
}

TEST(ErrorCheck, BinaryChecksPassSilently) {
  EXPECT_NO_THROW({
    TVM_FFI_ICHECK_EQ(2, 2);
    TVM_FFI_ICHECK_NE(1, 2);
    TVM_FFI_ICHECK_LT(1, 2);
    TVM_FFI_ICHECK_LE(2, 2);
    TVM_FFI_ICHECK_GT(3, 2);
    TVM_FFI_ICHECK_GE(2, 2);
  });
}

TEST(ErrorCheck, BinaryChecksEvaluateEachOperandOnce) {
  int calls = 0;
  auto next = [&] { return ++calls; };
  TVM_FFI_ICHECK_EQ(next(), 1);
  EXPECT_EQ(calls, 1);
  calls = 0;
  Error e = Catch([&] { TVM_FFI_ICHECK_EQ(next(), 5); });
  EXPECT_EQ(calls, 1) << "a failing check evaluated its operand " << calls << " times";
  EXPECT_EQ(e.message(), "Check failed: next() == 5 (1 vs. 5) : ");
}

TEST(ErrorCheck, NotNullCheck) {
  const int* p = nullptr;
  Error e = Catch([&] { TVM_FFI_ICHECK_NOTNULL(p); });
  EXPECT_EQ(e.kind(), "InternalError");
  EXPECT_EQ(e.message(), "Check not null: p ");
  int x = 0;
  p = &x;
  EXPECT_NO_THROW(TVM_FFI_ICHECK_NOTNULL(p));
}

TEST(ErrorCheck, CheckWithKindRaisesThatKind) {
  int n = -1;
  Error e = Catch([&] { TVM_FFI_CHECK(n > 0, ValueError) << "n must be positive, got " << n; });
  EXPECT_EQ(e.kind(), "ValueError");
  EXPECT_EQ(e.message(), "Check failed: (n > 0) is false: n must be positive, got -1");
}

TEST(ErrorCheck, ChecksNestInsideIfElseWithoutBraces) {
  int taken = 0;
  bool flag = false;
  if (flag)
    TVM_FFI_ICHECK(false);
  else
    taken = 1;
  EXPECT_EQ(taken, 1);
}

TEST(ErrorCheck, CheckFailureRecordsTheSite) {
  int line = 0;
  Error e = Catch([&] {
    // clang-format off
    line = __LINE__; TVM_FFI_ICHECK_EQ(1, 2);
    // clang-format on
  });
  EXPECT_NE(Lines(e.backtrace())[0].find(SiteMarker(line)), std::string::npos) << e.backtrace();
}

// ---------------------------------------------------------------------------
// Safe-call boundary: C++ exception -> raised error -> ffi::Error
// ---------------------------------------------------------------------------

int SafeCallThrowingFfiError() {
  TVM_FFI_SAFE_CALL_BEGIN();
  TVM_FFI_THROW(IndexError) << "ffi error inside";
  TVM_FFI_SAFE_CALL_END();
}

int SafeCallThrowingStdError() {
  TVM_FFI_SAFE_CALL_BEGIN();
  throw std::runtime_error("std error inside");
  TVM_FFI_SAFE_CALL_END();
}

int SafeCallThrowingNonStd() {
  TVM_FFI_SAFE_CALL_BEGIN();
  throw 42;
  TVM_FFI_SAFE_CALL_END();
}

int SafeCallSucceeding(int* out) {
  TVM_FFI_SAFE_CALL_BEGIN();
  *out = 7;
  TVM_FFI_SAFE_CALL_END();
}

TEST(ErrorSafeCall, SuccessReturnsZeroAndRaisesNothing) {
  ClearRaised();
  int out = 0;
  EXPECT_EQ(SafeCallSucceeding(&out), 0);
  EXPECT_EQ(out, 7);
  EXPECT_FALSE(TakeRaisedIfAny());
}

TEST(ErrorSafeCall, FfiErrorKeepsItsKindMessageAndBacktrace) {
  ClearRaised();
  ASSERT_EQ(SafeCallThrowingFfiError(), -1);
  Error err = ffi::detail::MoveFromRaised();
  EXPECT_EQ(err.kind(), "IndexError");
  EXPECT_EQ(err.message(), "ffi error inside");
  EXPECT_NE(err.backtrace().find("SafeCallThrowingFfiError"), std::string::npos) << err.backtrace();
  EXPECT_FALSE(TakeRaisedIfAny());  // the slot is emptied by the move
}

TEST(ErrorSafeCall, StdExceptionBecomesInternalErrorWithWhat) {
  ClearRaised();
  ASSERT_EQ(SafeCallThrowingStdError(), -1);
  Error err = ffi::detail::MoveFromRaised();
  EXPECT_EQ(err.kind(), "InternalError");
  EXPECT_EQ(err.message(), "std error inside");
}

TEST(ErrorSafeCall, NonStdExceptionBecomesInternalError) {
  ClearRaised();
  ASSERT_EQ(SafeCallThrowingNonStd(), -1);
  Error err = ffi::detail::MoveFromRaised();
  EXPECT_EQ(err.kind(), "InternalError");
  EXPECT_EQ(err.message(), "unknown C++ exception");
}

TEST(ErrorSafeCall, MoveFromRaisedWithNothingRaisedReportsThat) {
  ClearRaised();
  Error err = ffi::detail::MoveFromRaised();
  EXPECT_EQ(err.kind(), "RuntimeError");
  EXPECT_EQ(err.message(), "an FFI call failed without raising an error");
}

int g_check_safe_call_line = 0;

void RethrowFromSafeCall() {
  // clang-format off
  g_check_safe_call_line = __LINE__; TVM_FFI_CHECK_SAFE_CALL(SafeCallThrowingFfiError());
  // clang-format on
}

TEST(ErrorSafeCall, CheckSafeCallRethrowsTheRaisedError) {
  ClearRaised();
  Error e = Catch(RethrowFromSafeCall);
  EXPECT_EQ(e.kind(), "IndexError");
  EXPECT_EQ(e.message(), "ffi error inside");
  EXPECT_STREQ(e.what(), "ffi error inside");
  EXPECT_FALSE(TakeRaisedIfAny());
}

TEST(ErrorSafeCall, CheckSafeCallAppendsTheReentryFrame) {
  ClearRaised();
  Error e = Catch(RethrowFromSafeCall);
  std::vector<std::string> lines = Lines(e.backtrace());
  ASSERT_GE(lines.size(), 2u);
  // The original throw site stays first, the re-entry point is appended last.
  EXPECT_NE(lines.front().find("SafeCallThrowingFfiError"), std::string::npos) << e.backtrace();
  EXPECT_NE(lines.back().find(SiteMarker(g_check_safe_call_line)), std::string::npos)
      << e.backtrace();
  EXPECT_NE(lines.back().find("RethrowFromSafeCall"), std::string::npos) << e.backtrace();
}

int ReturnFailureWithoutRaising() { return -1; }

TEST(ErrorSafeCall, CheckSafeCallGrowsTheBacktraceByOneFrame) {
  ClearRaised();
  const std::string original = "  File \"origin.cc\", line 10, in origin\n";
  Error raised("KeyError", "missing", original);
  ffi::detail::SetRaisedFromError(raised);
  int line = 0;
  Error e = Catch([&] {
    // clang-format off
    line = __LINE__; TVM_FFI_CHECK_SAFE_CALL(ReturnFailureWithoutRaising());
    // clang-format on
  });
  EXPECT_TRUE(e.same_as(raised));  // the very object that was raised
  EXPECT_EQ(e.kind(), "KeyError");
  std::vector<std::string> lines = Lines(e.backtrace());
  ASSERT_EQ(lines.size(), 2u) << e.backtrace();
  EXPECT_EQ(lines[0] + "\n", original);
  EXPECT_NE(lines[1].find(SiteMarker(line)), std::string::npos) << lines[1];
}

TEST(ErrorSafeCall, CheckSafeCallPassesOnSuccess) {
  ClearRaised();
  int out = 0;
  EXPECT_NO_THROW(TVM_FFI_CHECK_SAFE_CALL(SafeCallSucceeding(&out)));
  EXPECT_EQ(out, 7);
}

TEST(ErrorSafeCall, RaisedErrorIsHeldByTheSlotUntilTaken) {
  ClearRaised();
  Error e("ValueError", "held");
  ffi::detail::SetRaisedFromError(e);
  EXPECT_EQ(e.use_count(), 2);
  Error taken = ffi::detail::MoveFromRaised();
  EXPECT_TRUE(taken.same_as(e));
  EXPECT_EQ(e.use_count(), 2);  // e and taken; the slot let go
}

// ---------------------------------------------------------------------------
// Error as a value
// ---------------------------------------------------------------------------

TEST(ErrorValue, ConstructedErrorHoldsItsParts) {
  Error e("ValueError", "message text", "  File \"x.cc\", line 3, in f\n");
  EXPECT_EQ(e.kind(), "ValueError");
  EXPECT_EQ(e.message(), "message text");
  EXPECT_EQ(e.backtrace(), "  File \"x.cc\", line 3, in f\n");
  EXPECT_STREQ(e.what(), "message text");
  EXPECT_EQ(e->type_index(), kTVMFFIError);
  EXPECT_EQ(e.GetTypeKey(), "ffi.Error");
}

TEST(ErrorValue, CopiesShareTheErrorObject) {
  Error e("ValueError", "m");
  Error copy = e;
  EXPECT_TRUE(copy.same_as(e));
  EXPECT_EQ(e.use_count(), 2);
  EXPECT_STREQ(copy.what(), "m");
}

TEST(ErrorValue, RoundTripsThroughAny) {
  Error e("TypeError", "stored in any", "  File \"y.cc\", line 9, in g\n");
  Any a = e;
  EXPECT_EQ(a.type_index(), kTVMFFIError);
  EXPECT_EQ(e.use_count(), 2);
  Error back = a.cast<Error>();
  EXPECT_TRUE(back.same_as(e));
  EXPECT_EQ(back.kind(), "TypeError");
  EXPECT_EQ(back.message(), "stored in any");
  EXPECT_EQ(back.backtrace(), "  File \"y.cc\", line 9, in g\n");
  EXPECT_STREQ(back.what(), "stored in any");
  EXPECT_NE(a.as<ffi::ErrorObj>(), nullptr);
}

TEST(ErrorValue, NoneIsNotAnError) {
  Error e = Catch([] { Any().cast<Error>(); });
  EXPECT_EQ(e.kind(), "TypeError");
  EXPECT_EQ(e.message(), "Cannot convert from type `None` to `ffi.Error`");
  EXPECT_EQ(Catch([] { Any(1).cast<Error>(); }).message(),
            "Cannot convert from type `int` to `ffi.Error`");
}

TEST(ErrorValue, ThrownErrorCanBeStoredAndRethrown) {
  Error e = Catch([] { TVM_FFI_THROW(KeyError) << "k"; });
  Any a = e;
  try {
    throw a.cast<Error>();
  } catch (const Error& again) {
    EXPECT_TRUE(again.same_as(e));
    EXPECT_STREQ(again.what(), "k");
  }
}

// ---------------------------------------------------------------------------
// Threads
// ---------------------------------------------------------------------------

TEST(ErrorThread, RaisedErrorIsInvisibleToOtherThreads) {
  ClearRaised();
  std::string kind_in_thread;
  bool thread_saw_main = true;
  TVMFFIErrorSetRaisedFromCStr("ValueError", "raised in main");
  std::thread t([&] {
    thread_saw_main = TakeRaisedIfAny();
    TVMFFIErrorSetRaisedFromCStr("KeyError", "raised in thread");
    std::string message;
    TakeRaisedIfAny(&kind_in_thread, &message);
  });
  t.join();
  EXPECT_FALSE(thread_saw_main);
  EXPECT_EQ(kind_in_thread, "KeyError");
  std::string kind, message;
  ASSERT_TRUE(TakeRaisedIfAny(&kind, &message));
  EXPECT_EQ(kind, "ValueError");
  EXPECT_EQ(message, "raised in main");
}

TEST(ErrorThread, ErrorLeftInAThreadIsNotSeenByMain) {
  ClearRaised();
  std::thread t([] { TVMFFIErrorSetRaisedFromCStr("ValueError", "left behind"); });
  t.join();
  EXPECT_FALSE(TakeRaisedIfAny());
}

TEST(ErrorThread, ExitingThreadReleasesItsRaisedError) {
  Error e("ValueError", "released at thread exit");
  std::thread t([&] {
    ffi::detail::SetRaisedFromError(e);
    EXPECT_EQ(e.use_count(), 2);
  });
  t.join();
  EXPECT_EQ(e.use_count(), 1);
}

TEST(ErrorThread, ConcurrentThrowsKeepTheirOwnMessages) {
  constexpr int kThreads = 8;
  std::vector<std::string> messages(kThreads);
  std::vector<std::thread> threads;
  for (int i = 0; i < kThreads; ++i) {
    threads.emplace_back([i, &messages] {
      for (int round = 0; round < 50; ++round) {
        try {
          TVM_FFI_THROW(ValueError) << "thread " << i;
        } catch (const Error& e) {
          messages[i] = e.message();
        }
      }
    });
  }
  for (auto& t : threads) t.join();
  for (int i = 0; i < kThreads; ++i) EXPECT_EQ(messages[i], "thread " + std::to_string(i));
}

}  // namespace
