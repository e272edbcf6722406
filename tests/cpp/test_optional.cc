// Tests of Optional<T> (optional.h): the guide example, storage sizes per
// kind of T, value access and its error, comparisons, and the None <-> empty
// mapping in Any for PODs, strings, references and Arc.
#include <gtest/gtest.h>

#include <tvm/ffi/any.h>
#include <tvm/ffi/container/optional.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/memory.h>
#include <tvm/ffi/object.h>
#include <tvm/ffi/optional.h>
#include <tvm/ffi/string.h>
#include "testing_helpers.h"

#include <functional>
#include <optional>
#include <string>
#include <utility>

namespace {

namespace ffi = tvm::ffi;
using ffi::Any;
using ffi::AnyView;
using ffi::Arc;
using ffi::ObjectRef;
using ffi::Optional;
using ffi::String;

class BoxObj : public ffi::Object {
 public:
  explicit BoxObj(int64_t v) : value(v) {}
  int64_t value;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("test.optional.Box", BoxObj, ffi::Object);
};

class Box : public ObjectRef {
 public:
  explicit Box(int64_t v) : ObjectRef(ffi::make_object<BoxObj>(v)) {}
  TVM_FFI_DEFINE_OBJECT_REF_METHODS_NOTNULLABLE(Box, ObjectRef, BoxObj);
};

class OtherObj : public ffi::Object {
 public:
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("test.optional.Other", OtherObj, ffi::Object);
};

using tvm_ffi_testing::ErrorMessage;

static_assert(sizeof(Optional<ObjectRef>) == sizeof(void*),
              "Optional of a reference is one pointer (null = empty)");
static_assert(sizeof(Optional<Box>) == sizeof(void*),
              "Optional of a non-nullable reference is one pointer");
static_assert(sizeof(Optional<String>) == sizeof(String),
              "Optional<String> is one 16-byte cell (None = empty)");
static_assert(sizeof(Optional<ffi::Bytes>) == sizeof(ffi::Bytes),
              "Optional<Bytes> is one 16-byte cell");

// ---------------------------------------------------------------------------
// The guide example and basic access
// ---------------------------------------------------------------------------

TEST(Optional, GuideExample) {
  Optional<int> opt0 = 100;
  EXPECT_EQ(opt0.has_value(), true);
  EXPECT_EQ(opt0.value(), 100);
  Optional<String> opt1;
  EXPECT_EQ(opt1.has_value(), false);
  EXPECT_EQ(opt1.value_or("default"), "default");
}

TEST(Optional, DefaultNulloptAndNullptrAreEmpty) {
  Optional<int> a;
  Optional<int> b = std::nullopt;
  Optional<int> c = nullptr;
  EXPECT_FALSE(a.has_value());
  EXPECT_FALSE(b.has_value());
  EXPECT_FALSE(c.has_value());
  EXPECT_FALSE(static_cast<bool>(a));
}

TEST(Optional, ValueOnEmptyThrowsRuntimeError) {
  Optional<int> empty_int;
  Optional<String> empty_str;
  Optional<Box> empty_box;
  const std::string expected = "Back optional access";
  EXPECT_EQ(ErrorMessage([&] { empty_int.value(); }, "RuntimeError"), expected);
  EXPECT_EQ(ErrorMessage([&] { empty_str.value(); }, "RuntimeError"), expected);
  EXPECT_EQ(ErrorMessage([&] { empty_box.value(); }, "RuntimeError"), expected);
  EXPECT_EQ(ErrorMessage([&] { std::move(empty_int).value(); }, "RuntimeError"), expected);
}

TEST(Optional, ValueOrReturnsTheValueWhenPresent) {
  Optional<int> a = 5;
  EXPECT_EQ(a.value_or(9), 5);
  Optional<int> empty;
  EXPECT_EQ(empty.value_or(9), 9);
  Optional<String> s = String("present");
  EXPECT_EQ(s.value_or("default"), "present");
}

TEST(Optional, RvalueAsOrThrowMovesTheValueOut) {
  Optional<String> s = String("moved out of here");
  EXPECT_EQ(std::move(s).as_or_throw<String>(), "moved out of here");
  EXPECT_FALSE(s.has_value());  // NOLINT(bugprone-use-after-move)
}

TEST(Optional, RvalueAsOrThrowOfAnotherTypeKeepsTheValue) {
  Optional<String> s = String("kept");
  EXPECT_EQ(ErrorMessage([&] { std::move(s).as_or_throw<ffi::Bytes>(); }, "TypeError"),
            "Cannot treat type `ffi.SmallStr` as type `bytes`");
  EXPECT_EQ(s.value(), "kept");  // NOLINT(bugprone-use-after-move)
}

TEST(Optional, DereferenceAndArrow) {
  Optional<int> a = 3;
  EXPECT_EQ(*a, 3);
  Optional<Box> box = Box(8);
  EXPECT_EQ((*box)->value, 8);
  EXPECT_EQ(box->value, 8);
  EXPECT_EQ(box.get()->value, 8);
  Optional<String> s = String("str");
  EXPECT_EQ(*s, "str");
}

TEST(Optional, ResetAndAssignNulloptEmpty) {
  Optional<int> a = 1;
  a.reset();
  EXPECT_FALSE(a.has_value());
  a = 2;
  EXPECT_EQ(a.value(), 2);
  a = std::nullopt;
  EXPECT_FALSE(a.has_value());
  Optional<String> s = String("a longer string value");
  s = std::nullopt;
  EXPECT_FALSE(s.has_value());
  Optional<Box> box = Box(1);
  box = std::nullopt;
  EXPECT_FALSE(box.has_value());
}

TEST(Optional, ConstructsFromStdOptional) {
  Optional<int> a = std::optional<int>(4);
  EXPECT_EQ(a.value(), 4);
  Optional<int> b = std::optional<int>();
  EXPECT_FALSE(b.has_value());
  Optional<String> s = std::optional<String>(String("from std"));
  EXPECT_EQ(s.value(), "from std");
  Optional<String> e = std::optional<String>();
  EXPECT_FALSE(e.has_value());
}

TEST(Optional, StringFromConstCharAndStdString) {
  Optional<String> a = "literal";
  EXPECT_EQ(a.value(), "literal");
  Optional<String> b = std::string("std string value");
  EXPECT_EQ(b.value(), "std string value");
  Optional<String> empty_content = String("");
  EXPECT_TRUE(empty_content.has_value());  // an empty string is still a value
  EXPECT_EQ(empty_content.value(), "");
}

// ---------------------------------------------------------------------------
// Comparisons
// ---------------------------------------------------------------------------

TEST(Optional, ComparesWithNulloptAndNullptr) {
  Optional<int> empty;
  Optional<int> full = 1;
  EXPECT_TRUE(empty == std::nullopt);
  EXPECT_TRUE(std::nullopt == empty);
  EXPECT_TRUE(full != std::nullopt);
  EXPECT_TRUE(std::nullopt != full);
  EXPECT_TRUE(empty == nullptr);
  EXPECT_TRUE(full != nullptr);
  Optional<String> s;
  EXPECT_TRUE(s == std::nullopt);
  EXPECT_TRUE(s == nullptr);
  Optional<Box> box = Box(1);
  EXPECT_TRUE(box != std::nullopt);
  EXPECT_TRUE(box != nullptr);
}

TEST(Optional, ComparesValues) {
  EXPECT_TRUE(Optional<int>(1) == Optional<int>(1));
  EXPECT_TRUE(Optional<int>(1) != Optional<int>(2));
  EXPECT_TRUE(Optional<int>() == Optional<int>());
  EXPECT_TRUE(Optional<int>(1) != Optional<int>());
  EXPECT_TRUE(Optional<String>(String("a")) == Optional<String>(String("a")));
  EXPECT_TRUE(Optional<String>(String("a")) != Optional<String>());
  Box b(1);
  EXPECT_TRUE(Optional<Box>(b) == Optional<Box>(b));       // same object
  EXPECT_TRUE(Optional<Box>(b) != Optional<Box>(Box(1)));  // references compare by identity
}

// ---------------------------------------------------------------------------
// Reference counts
// ---------------------------------------------------------------------------

TEST(Optional, HoldsOneReferenceToItsObject) {
  Box b(1);
  {
    Optional<Box> opt = b;
    EXPECT_EQ(b.use_count(), 2);
    Optional<Box> copy = opt;
    EXPECT_EQ(b.use_count(), 3);
    Optional<Box> moved = std::move(copy);
    EXPECT_EQ(b.use_count(), 3);
    moved.reset();
    EXPECT_EQ(b.use_count(), 2);
  }
  EXPECT_EQ(b.use_count(), 1);
}

TEST(Optional, ValueOfAnRvalueMovesOut) {
  Box b(1);
  Optional<Box> opt = b;
  Box out = std::move(opt).value();
  EXPECT_EQ(b.use_count(), 2);  // b and out
}

// ---------------------------------------------------------------------------
// Any conversions
// ---------------------------------------------------------------------------

TEST(OptionalAny, IntMapsEmptyToNone) {
  Any full = Optional<int>(7);
  EXPECT_EQ(full.type_index(), kTVMFFIInt);
  EXPECT_EQ(full.cast<int>(), 7);
  Any none = Optional<int>();
  EXPECT_TRUE(none.is_none());
}

TEST(OptionalAny, NoneCastsToEmpty) {
  Any none;
  EXPECT_FALSE(none.cast<Optional<int>>().has_value());
  EXPECT_FALSE(none.cast<Optional<String>>().has_value());
  EXPECT_FALSE(none.cast<Optional<Box>>().has_value());
  EXPECT_FALSE(none.cast<Optional<ObjectRef>>().has_value());
  EXPECT_FALSE(none.cast<Optional<Arc<BoxObj>>>().has_value());
  std::optional<Optional<int>> exact = none.as<Optional<int>>();
  ASSERT_TRUE(exact.has_value());
  EXPECT_FALSE(exact->has_value());
}

TEST(OptionalAny, ValueCastsToFull) {
  EXPECT_EQ(Any(3).cast<Optional<int>>().value(), 3);
  EXPECT_EQ(Any(true).cast<Optional<int>>().value(), 1);  // the int rules apply
  EXPECT_EQ(Any(3).cast<Optional<double>>().value(), 3.0);
  EXPECT_EQ(Any(String("small")).cast<Optional<String>>().value(), "small");
  EXPECT_EQ(Any(String("a string on the heap")).cast<Optional<String>>().value(),
            "a string on the heap");
  EXPECT_EQ(AnyView("a raw view").cast<Optional<String>>().value(), "a raw view");
}

TEST(OptionalAny, MismatchNamesTheOptionalType) {
  EXPECT_EQ(ErrorMessage([] { Any(String("x")).cast<Optional<int>>(); }, "TypeError"),
            "Cannot convert from type `ffi.SmallStr` to `Optional<int>`");
  EXPECT_EQ(ErrorMessage([] { Any(1).cast<Optional<String>>(); }, "TypeError"),
            "Cannot convert from type `int` to `Optional<str>`");
  EXPECT_EQ(ErrorMessage([] { Any(1.5).cast<Optional<Box>>(); }, "TypeError"),
            "Cannot convert from type `float` to `Optional<test.optional.Box>`");
  EXPECT_EQ(
      ErrorMessage([] { Any(ffi::make_object<OtherObj>()).cast<Optional<Box>>(); }, "TypeError"),
      "Cannot convert from type `test.optional.Other` to `Optional<test.optional.Box>`");
}

TEST(OptionalAny, StringRoundTrip) {
  Optional<String> s = String("a heap string for any");
  Any a = s;
  EXPECT_EQ(a.type_index(), kTVMFFIStr);
  Optional<String> back = a.cast<Optional<String>>();
  EXPECT_EQ(back.value(), "a heap string for any");
  Any none = Optional<String>();
  EXPECT_TRUE(none.is_none());
  EXPECT_EQ(Any(Optional<String>(String("ab"))).type_index(), kTVMFFISmallStr);
}

TEST(OptionalAny, ObjectRefRoundTripKeepsIdentityAndCounts) {
  Box b(5);
  Optional<Box> opt = b;
  Any a = opt;
  EXPECT_EQ(a.type_index(), BoxObj::RuntimeTypeIndex());
  EXPECT_EQ(b.use_count(), 3);
  Optional<Box> back = a.cast<Optional<Box>>();
  EXPECT_TRUE(back.value().same_as(b));
  EXPECT_EQ(b.use_count(), 4);
  Optional<Box> moved = std::move(a).cast<Optional<Box>>();
  EXPECT_TRUE(a.is_none());  // NOLINT(bugprone-use-after-move): exact cast moved out
  EXPECT_EQ(b.use_count(), 4);
  Any none = Optional<Box>();
  EXPECT_TRUE(none.is_none());
}

TEST(OptionalAny, GenericObjectRef) {
  Optional<ObjectRef> ref = ObjectRef(ffi::make_object<BoxObj>(2));
  Any a = ref;
  EXPECT_EQ(a.cast<Optional<ObjectRef>>().value().as<BoxObj>()->value, 2);
  EXPECT_EQ(ErrorMessage([] { Any(1).cast<Optional<ObjectRef>>(); }, "TypeError"),
            "Cannot convert from type `int` to `Optional<ffi.Object>`");
}

TEST(OptionalAny, ArcRoundTrip) {
  Arc<BoxObj> arc = ffi::make_arc<BoxObj>(9);
  Optional<Arc<BoxObj>> opt = arc;
  Any a = opt;
  EXPECT_EQ(a.type_index(), BoxObj::RuntimeTypeIndex());
  Optional<Arc<BoxObj>> back = a.cast<Optional<Arc<BoxObj>>>();
  ASSERT_TRUE(back.has_value());
  EXPECT_EQ(back.value().get(), arc.get());
  EXPECT_EQ(back.value()->value, 9);
  EXPECT_EQ(arc.use_count(), 4);  // arc, opt, a, back
  Any none = Optional<Arc<BoxObj>>();
  EXPECT_TRUE(none.is_none());
}

TEST(OptionalAny, TryCastDistinguishesEmptyFromMismatch) {
  std::optional<Optional<int>> empty = Any().try_cast<Optional<int>>();
  ASSERT_TRUE(empty.has_value());  // None converts: to an empty Optional
  EXPECT_FALSE(empty->has_value());
  EXPECT_FALSE(Any(String("x")).try_cast<Optional<int>>().has_value());  // str does not
}

// ---------------------------------------------------------------------------
// Type names and schemas
// ---------------------------------------------------------------------------

TEST(OptionalSchema, TypeStr) {
  EXPECT_EQ(ffi::TypeTraits<Optional<int>>::TypeStr(), "Optional<int>");
  EXPECT_EQ(ffi::TypeTraits<Optional<String>>::TypeStr(), "Optional<str>");
  EXPECT_EQ(ffi::TypeTraits<Optional<Box>>::TypeStr(), "Optional<test.optional.Box>");
  EXPECT_EQ(ffi::TypeTraits<Optional<Arc<BoxObj>>>::TypeStr(), "Optional<test.optional.Box>");
}

TEST(OptionalSchema, TypeSchema) {
  EXPECT_EQ(ffi::TypeTraits<Optional<int>>::TypeSchema(),
            R"({"type":"Optional","args":[{"type":"int"}]})");
  EXPECT_EQ(ffi::TypeTraits<Optional<Arc<BoxObj>>>::TypeSchema(),
            ffi::TypeTraits<ffi::ObjectPtr<BoxObj>>::TypeSchema());
}

}  // namespace
