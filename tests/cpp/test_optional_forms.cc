// Tests of the storage forms of Optional<T> (one Any for storable values, a
// reference for ObjectRefs, an ObjectPtr for pointers) and of the members
// shared by them: nested optionals, same_as, as/as_or_throw, moving value(),
// comparisons with values, and the trait helpers.
#include <gtest/gtest.h>

#include <tvm/ffi/any.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/memory.h>
#include <tvm/ffi/object.h>
#include <tvm/ffi/optional.h>
#include <tvm/ffi/string.h>
#include "testing_helpers.h"

#include <optional>
#include <string>
#include <utility>

namespace {

namespace ffi = tvm::ffi;
using ffi::Any;
using ffi::Optional;
using ffi::String;
using tvm_ffi_testing::ErrorMessage;

class LeafObj : public ffi::Object {
 public:
  int64_t v;
  explicit LeafObj(int64_t x) : v(x) {}
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("test.optforms.Leaf", LeafObj, ffi::Object);
};

class Leaf : public ffi::ObjectRef {
 public:
  explicit Leaf(int64_t v) { data_ = ffi::make_object<LeafObj>(v); }
  TVM_FFI_DEFINE_OBJECT_REF_METHODS_NOTNULLABLE(Leaf, ffi::ObjectRef, LeafObj);
};

static_assert(sizeof(Optional<int>) == sizeof(Any));
static_assert(sizeof(Optional<double>) == 16);
static_assert(sizeof(Optional<bool>) == 16);
static_assert(sizeof(Optional<DLDevice>) == 16);
static_assert(sizeof(Optional<Optional<int>>) == 16);
static_assert(sizeof(Optional<Leaf>) == sizeof(void*));
static_assert(sizeof(Optional<ffi::ObjectPtr<LeafObj>>) == sizeof(void*));
static_assert(sizeof(Optional<ffi::Arc<LeafObj>>) == sizeof(void*));
// A nullable reference keeps pointer storage but is not itself a reference of T.
static_assert(!std::is_base_of_v<ffi::ObjectRef, Optional<Leaf>>);
static_assert(ffi::is_optional_type_v<Optional<int>>);
static_assert(!ffi::is_optional_type_v<int>);
static_assert(ffi::use_object_ref_optional_v<Leaf>);
static_assert(!ffi::use_object_ref_optional_v<Optional<Leaf>>);
static_assert(ffi::use_object_ptr_optional_v<ffi::Arc<LeafObj>>);
static_assert(ffi::is_object_ptr_type_v<ffi::ObjectPtr<LeafObj>>);
static_assert(ffi::is_arc_type_v<ffi::Arc<LeafObj>>);
static_assert(!ffi::use_default_type_traits_v<Optional<Leaf>>);

TEST(OptionalForms, PodValueLivesInOneAny) {
  Optional<int> a = 42;
  EXPECT_EQ(a.value(), 42);
  Any stored = a;
  EXPECT_EQ(stored.type_index(), kTVMFFIInt);
  a = std::nullopt;
  EXPECT_EQ(Any(a).type_index(), kTVMFFINone);
}

TEST(OptionalForms, NestedOptionalHoldsAnEngagedInner) {
  Optional<Optional<int>> nested = Optional<int>(3);
  ASSERT_TRUE(nested.has_value());
  EXPECT_EQ(nested.value().value(), 3);
  Optional<Optional<int>> empty;
  EXPECT_FALSE(empty.has_value());
}

TEST(OptionalForms, EngagedOuterWithEmptyInnerCollapses) {
  Optional<Optional<int>> nested = Optional<int>();
  EXPECT_FALSE(nested.has_value());
}

TEST(OptionalForms, ValueOfRvalueMovesOut) {
  Optional<String> s = String("a long string that lives on the heap");
  String taken = std::move(s).value();
  EXPECT_EQ(taken, "a long string that lives on the heap");
  EXPECT_FALSE(s.has_value());  // NOLINT(bugprone-use-after-move)
  Optional<Leaf> leaf = Leaf(1);
  Leaf moved = std::move(leaf).value();
  EXPECT_EQ(moved.use_count(), 1);
  EXPECT_FALSE(leaf.has_value());  // NOLINT(bugprone-use-after-move)
}

TEST(OptionalForms, PointerFormReportsBadAccess) {
  Optional<ffi::ObjectPtr<LeafObj>> empty;
  EXPECT_EQ(ErrorMessage([&] { empty.value(); }, "RuntimeError"), "Bad optional access");
  Optional<ffi::Arc<LeafObj>> arc = ffi::make_arc<LeafObj>(4);
  EXPECT_EQ(arc.value()->v, 4);
}

TEST(OptionalForms, SameAsComparesIdentity) {
  Leaf leaf(1);
  Optional<Leaf> a = leaf;
  Optional<Leaf> b = leaf;
  Optional<Leaf> c = Leaf(1);
  EXPECT_TRUE(a.same_as(b));
  EXPECT_FALSE(a.same_as(c));
  EXPECT_TRUE(a.same_as(leaf));
  Optional<int> x = 5, y = 5, z;
  EXPECT_TRUE(x.same_as(y));
  EXPECT_FALSE(x.same_as(z));
  EXPECT_TRUE(z.same_as(Optional<int>()));
}

TEST(OptionalForms, AsViewsTheStoredValueStrictly) {
  Optional<int> a = 3;
  EXPECT_EQ(a.as<int>(), std::optional<int>(3));
  EXPECT_FALSE(a.as<double>().has_value());
  EXPECT_FALSE(Optional<int>().as<int>().has_value());
  EXPECT_EQ(a.as_or_throw<int>(), 3);
  EXPECT_EQ(ErrorMessage([&] { a.as_or_throw<bool>(); }, "TypeError"),
            "Cannot treat type `int` as type `bool`");
  Optional<Leaf> leaf = Leaf(2);
  EXPECT_EQ(leaf.as<LeafObj>()->v, 2);
  EXPECT_TRUE(leaf.as<Leaf>().has_value());
}

TEST(OptionalForms, ComparesWithValues) {
  Optional<int> a = 3;
  EXPECT_TRUE(a == 3);
  EXPECT_FALSE(a != 3);
  EXPECT_FALSE(Optional<int>() == 3);
  EXPECT_TRUE(a == std::optional<int>(3));
  EXPECT_TRUE(Optional<int>() == std::optional<int>());
  Optional<String> s = "abc";
  EXPECT_TRUE(s == String("abc"));
  Leaf leaf(1);
  Optional<Leaf> ol = leaf;
  EXPECT_TRUE(ol == leaf);
  EXPECT_TRUE(ol == Optional<Leaf>(leaf));
  EXPECT_FALSE(ol == Optional<Leaf>());
}

TEST(OptionalForms, AssignsConvertibleValues) {
  Optional<String> s;
  s = "hello";
  EXPECT_EQ(s.value(), "hello");
  s = nullptr;
  EXPECT_FALSE(s.has_value());
  Optional<double> d;
  d = 2;
  EXPECT_EQ(d.value(), 2.0);
}

TEST(OptionalForms, ObjectRefFormExposesContainer) {
  Optional<Leaf> leaf = Leaf(9);
  EXPECT_EQ(leaf->v, 9);
  EXPECT_EQ(leaf.get()->v, 9);
  EXPECT_EQ(leaf.use_count(), 1);
  ffi::ObjectRef as_ref = leaf.value();
  EXPECT_TRUE(leaf.same_as(as_ref));
  EXPECT_EQ(leaf.use_count(), 2);
}

TEST(OptionalForms, ArrayOfOptionalsRoundTrips) {
  ffi::Array<Optional<int>> arr = {Optional<int>(1), Optional<int>()};
  EXPECT_EQ(arr[0].value(), 1);
  EXPECT_FALSE(arr[1].has_value());
}

TEST(OptionalForms, ReferenceFormAsOrThrowNamesTheWantedType) {
  Optional<ffi::ObjectRef> held = ffi::ObjectRef(Leaf(3));
  EXPECT_EQ(held.as_or_throw<Leaf>()->v, 3);
  EXPECT_EQ(ErrorMessage([&] { held.as_or_throw<ffi::Array<Any>>(); }, "TypeError"),
            "Cannot treat type `test.optforms.Leaf` as type `Array<Any>`");
}

TEST(OptionalForms, PointerFormAsOrThrowMovesTheMatchingPointerOut) {
  ffi::ObjectPtr<ffi::Object> leaf = ffi::make_object<LeafObj>(4);
  Optional<ffi::ObjectPtr<ffi::Object>> held = leaf;
  ffi::ObjectPtr<LeafObj> out = std::move(held).as_or_throw<ffi::ObjectPtr<LeafObj>>();
  EXPECT_EQ(out->v, 4);
  EXPECT_FALSE(held.has_value());  // NOLINT(bugprone-use-after-move)
  EXPECT_EQ(leaf.use_count(), 2);
}

TEST(OptionalForms, PointerFormAsOrThrowRefusesAnotherType) {
  Optional<ffi::ObjectPtr<ffi::Object>> held =
      ffi::ObjectPtr<ffi::Object>(ffi::make_object<LeafObj>(4));
  EXPECT_THROW(std::move(held).as_or_throw<ffi::ObjectPtr<ffi::ArrayObj>>(), ffi::Error);
  EXPECT_TRUE(held.has_value());  // NOLINT(bugprone-use-after-move): a refused move keeps it
}

TEST(OptionalForms, ReferenceFormRefusedMoveKeepsTheValue) {
  Optional<ffi::ObjectRef> held = ffi::ObjectRef(Leaf(5));
  EXPECT_THROW(std::move(held).as_or_throw<ffi::Array<Any>>(), ffi::Error);
  ASSERT_TRUE(held.has_value());  // NOLINT(bugprone-use-after-move)
  Leaf out = std::move(held).as_or_throw<Leaf>();
  EXPECT_FALSE(held.has_value());  // NOLINT(bugprone-use-after-move)
  EXPECT_EQ(out.use_count(), 1);
}

}  // namespace
