// Tests of Expected<T> (expected.h): the value and error paths, value()
// rethrowing the held error with its kind, error() on a value, and the Any
// round trip (the value itself, or the Error object).
#include <gtest/gtest.h>

#include <tvm/ffi/any.h>
#include <tvm/ffi/container/expected.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/expected.h>
#include <tvm/ffi/memory.h>
#include <tvm/ffi/object.h>
#include <tvm/ffi/string.h>
#include "testing_helpers.h"

#include <functional>
#include <string>
#include <type_traits>
#include <utility>

namespace {

namespace ffi = tvm::ffi;
using ffi::Any;
using ffi::Error;
using ffi::Expected;
using ffi::String;

class ResultObj : public ffi::Object {
 public:
  explicit ResultObj(int64_t v) : value(v) {}
  int64_t value;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("test.expected.Result", ResultObj, ffi::Object);
};

class Result : public ffi::ObjectRef {
 public:
  explicit Result(int64_t v) : ffi::ObjectRef(ffi::make_object<ResultObj>(v)) {}
  TVM_FFI_DEFINE_OBJECT_REF_METHODS_NOTNULLABLE(Result, ffi::ObjectRef, ResultObj);
};

Expected<int> Parse(const String& s) {
  if (s.empty()) return Error("ValueError", "empty input");
  return static_cast<int>(s.size());
}

using tvm_ffi_testing::ErrorMessage;

// ---------------------------------------------------------------------------
// Value and error paths
// ---------------------------------------------------------------------------

TEST(Expected, HoldsAValue) {
  Expected<int> r = Parse("abc");
  EXPECT_TRUE(r.is_ok());
  EXPECT_TRUE(r.has_value());
  EXPECT_FALSE(r.is_err());
  EXPECT_TRUE(static_cast<bool>(r));
  EXPECT_EQ(r.value(), 3);
  EXPECT_EQ(r.value_or(-1), 3);
}

TEST(Expected, HoldsAnError) {
  Expected<int> r = Parse("");
  EXPECT_FALSE(r.is_ok());
  EXPECT_FALSE(r.has_value());
  EXPECT_TRUE(r.is_err());
  EXPECT_FALSE(static_cast<bool>(r));
  EXPECT_EQ(r.value_or(-1), -1);
  Error err = r.error();
  EXPECT_EQ(err.kind(), "ValueError");
  EXPECT_EQ(err.message(), "empty input");
}

TEST(Expected, ValueRethrowsTheHeldErrorWithItsKind) {
  Error original("KeyError", "no such key", "  File \"k.cc\", line 1, in lookup\n");
  Expected<int> r = original;
  try {
    r.value();
    FAIL() << "expected the held error to be thrown";
  } catch (const Error& e) {
    EXPECT_TRUE(e.same_as(original));
    EXPECT_EQ(e.kind(), "KeyError");
    EXPECT_EQ(e.message(), "no such key");
    EXPECT_EQ(e.backtrace(), "  File \"k.cc\", line 1, in lookup\n");
    EXPECT_STREQ(e.what(), "no such key");
  }
}

TEST(Expected, ErrorOnAValueThrowsRuntimeError) {
  Expected<int> r = 1;
  EXPECT_EQ(ErrorMessage([&] { r.error(); }, "RuntimeError"),
            "Bad expected access: contains value, not error");
}

TEST(Expected, HoldsStringsAndObjects) {
  Expected<String> s = String("a string on the heap");
  EXPECT_EQ(s.value(), "a string on the heap");
  Result obj(5);
  {
    Expected<Result> r = obj;
    EXPECT_EQ(obj.use_count(), 2);
    EXPECT_TRUE(r.value().same_as(obj));
  }
  EXPECT_EQ(obj.use_count(), 1);
}

TEST(Expected, HoldsOneReferenceToTheError) {
  Error err("ValueError", "counted");
  {
    Expected<int> r = err;
    EXPECT_EQ(err.use_count(), 2);
    Expected<int> copy = r;
    EXPECT_EQ(err.use_count(), 3);
  }
  EXPECT_EQ(err.use_count(), 1);
}

// ---------------------------------------------------------------------------
// Any round trip
// ---------------------------------------------------------------------------

TEST(ExpectedAny, ValueIsStoredAsItself) {
  Any a = Expected<int>(42);
  EXPECT_EQ(a.type_index(), kTVMFFIInt);
  EXPECT_EQ(a.cast<int>(), 42);
  Expected<int> back = a.cast<Expected<int>>();
  EXPECT_TRUE(back.is_ok());
  EXPECT_EQ(back.value(), 42);
}

TEST(ExpectedAny, ErrorIsStoredAsTheErrorObject) {
  Error err("IndexError", "stored error");
  Any a = Expected<int>(err);
  EXPECT_EQ(a.type_index(), kTVMFFIError);
  EXPECT_TRUE(a.cast<Error>().same_as(err));
  Expected<int> back = a.cast<Expected<int>>();
  EXPECT_TRUE(back.is_err());
  EXPECT_TRUE(back.error().same_as(err));
  EXPECT_EQ(ErrorMessage([&] { back.value(); }, "IndexError"), "stored error");
}

TEST(ExpectedAny, ErrorFromAnyKeepsItsWhat) {
  Any a = Error("IndexError", "stored error");
  Expected<int> back = a.cast<Expected<int>>();
  try {
    back.value();
    FAIL() << "expected the held error to be thrown";
  } catch (const std::exception& e) {
    EXPECT_STREQ(e.what(), "stored error");
  }
}

TEST(ExpectedAny, ConvertibleValuesAreAccepted) {
  Expected<double> d = Any(3).cast<Expected<double>>();
  EXPECT_TRUE(d.is_ok());
  EXPECT_EQ(d.value(), 3.0);
  Expected<String> s = ffi::AnyView("a raw view").cast<Expected<String>>();
  EXPECT_EQ(s.value(), "a raw view");
}

TEST(ExpectedAny, MismatchNamesTheExpectedType) {
  EXPECT_EQ(ErrorMessage([] { Any(String("x")).cast<Expected<int>>(); }, "TypeError"),
            "Cannot convert from type `ffi.SmallStr` to `Expected<int>`");
  EXPECT_EQ(ErrorMessage([] { Any().cast<Expected<Result>>(); }, "TypeError"),
            "Cannot convert from type `None` to `Expected<test.expected.Result>`");
}

TEST(ExpectedAny, ObjectValueRoundTripKeepsCounts) {
  Result obj(7);
  Any a = Expected<Result>(obj);
  EXPECT_EQ(a.type_index(), ResultObj::RuntimeTypeIndex());
  EXPECT_EQ(obj.use_count(), 2);
  Expected<Result> back = a.cast<Expected<Result>>();
  EXPECT_EQ(obj.use_count(), 3);
  EXPECT_EQ(back.value()->value, 7);
}

TEST(ExpectedSchema, TypeStrAndSchema) {
  EXPECT_EQ(ffi::TypeTraits<Expected<int>>::TypeStr(), "Expected<int>");
  EXPECT_EQ(ffi::TypeTraits<Expected<int>>::TypeSchema(),
            R"({"type":"Expected","args":[{"type":"int"}]})");
}

TEST(Expected, VoidResultDoesNotBecomeAnAnyResult) {
  // An Expected<void> has no value to hand on, so it converts to no Expected<T>.
  static_assert(!std::is_convertible_v<Expected<void>, Expected<Any>>);
  static_assert(std::is_convertible_v<Expected<String>, Expected<Any>>);
  static_assert(ffi::type_subsumes_v<Expected<Any>, Expected<void>>);
}

}  // namespace
