// Implicit container upcasts governed by type_subsumes_v (cpp_api.md §2.1, §2.12):
// a container of U shares its object as a container of T when T subsumes U,
// element-wise for nested containers; Variant/Tuple access rules of §2.12.
#include <gtest/gtest.h>
#include <tvm/ffi/any.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/dict.h>
#include <tvm/ffi/container/list.h>
#include <tvm/ffi/container/map.h>
#include <tvm/ffi/container/tuple.h>
#include <tvm/ffi/container/variant.h>
#include <tvm/ffi/expected.h>
#include <tvm/ffi/memory.h>
#include <tvm/ffi/object.h>
#include <tvm/ffi/optional.h>
#include <tvm/ffi/string.h>

#include <string>
#include <type_traits>
#include <utility>

#include "testing_helpers.h"

namespace {

namespace ffi = tvm::ffi;
using ffi::Any;
using ffi::Array;
using ffi::Dict;
using ffi::List;
using ffi::Map;
using ffi::ObjectRef;
using ffi::String;
using ffi::Tuple;
using ffi::type_subsumes_v;
using ffi::Variant;
using tvm_ffi_testing::CatchError;

class UpNumberObj : public ffi::Object {
 public:
  static constexpr uint32_t _type_child_slots = 2;
  TVM_FFI_DECLARE_OBJECT_INFO("test.upcast.Number", UpNumberObj, ffi::Object);
};

class UpNumber : public ObjectRef {
 public:
  TVM_FFI_DEFINE_OBJECT_REF_METHODS_NULLABLE(UpNumber, ObjectRef, UpNumberObj);
};

class UpIntObj : public UpNumberObj {
 public:
  explicit UpIntObj(int64_t v) : value(v) {}
  int64_t value;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("test.upcast.Int", UpIntObj, UpNumberObj);
};

class UpInt : public UpNumber {
 public:
  explicit UpInt(int64_t v) : UpNumber(ffi::make_object<UpIntObj>(v)) {}
  TVM_FFI_DEFINE_OBJECT_REF_METHODS_NULLABLE(UpInt, UpNumber, UpIntObj);
};

// ---- type_subsumes_v -------------------------------------------------------

static_assert(type_subsumes_v<Array<ObjectRef>, Array<UpInt>>);
static_assert(type_subsumes_v<Array<Any>, Array<int>>);
static_assert(!type_subsumes_v<Array<UpInt>, Array<ObjectRef>>);
static_assert(!type_subsumes_v<Array<double>, Array<int>>);
static_assert(type_subsumes_v<Array<Array<Any>>, Array<Array<UpInt>>>);
static_assert(type_subsumes_v<List<UpNumber>, List<UpInt>>);
static_assert(type_subsumes_v<Map<Any, UpNumber>, Map<String, UpInt>>);
static_assert(!type_subsumes_v<Map<String, UpInt>, Map<String, UpNumber>>);
static_assert(type_subsumes_v<Dict<Any, Any>, Dict<String, int>>);
static_assert(type_subsumes_v<Tuple<ObjectRef, Any>, Tuple<UpInt, int>>);
static_assert(!type_subsumes_v<Tuple<ObjectRef, Any>, Tuple<UpInt>>);
static_assert(type_subsumes_v<Variant<String, UpNumber>, UpInt>);
static_assert(!type_subsumes_v<Variant<String, UpInt>, UpNumber>);
static_assert(type_subsumes_v<ffi::Expected<UpNumber>, ffi::Expected<UpInt>>);

// Not an upcast: a conversion is needed, so no implicit constructor exists.
static_assert(!std::is_convertible_v<Array<int>, Array<double>>);
static_assert(!std::is_convertible_v<List<ObjectRef>, List<UpInt>>);
static_assert(!std::is_convertible_v<Map<String, int>, Map<String, double>>);
static_assert(!std::is_convertible_v<Tuple<int>, Tuple<double>>);

// ---- the upcasts -----------------------------------------------------------

TEST(ContainerUpcast, ListOfSubclassSharesItsObjectAsListOfBase) {
  List<UpInt> ints = {UpInt(1), UpInt(2)};
  List<ObjectRef> refs = ints;
  EXPECT_TRUE(refs.same_as(ints));
  refs.push_back(UpInt(3));  // a List is shared: the growth is seen through both handles
  EXPECT_EQ(ints.size(), 3u);
  EXPECT_EQ(ints[2]->value, 3);
}

TEST(ContainerUpcast, ListOfAnyFromRvalueListTakesTheObject) {
  List<int> ints = {1, 2};
  const ffi::Object* obj = ints.get();
  List<Any> any = std::move(ints);
  EXPECT_EQ(any.get(), obj);
  EXPECT_EQ(any[1].cast<int>(), 2);
}

TEST(ContainerUpcast, ArrayOfNestedArraysUpcastsElementWise) {
  Array<Array<UpInt>> nested = {Array<UpInt>{UpInt(7)}};
  Array<Array<Any>> wide = nested;
  EXPECT_TRUE(wide.same_as(nested));
  EXPECT_EQ(wide[0][0].cast<UpInt>()->value, 7);
}

TEST(ContainerUpcast, MapUpcastSharesTheObject) {
  Map<String, UpInt> m = {{"a", UpInt(1)}};
  Map<Any, UpNumber> wide = m;
  EXPECT_TRUE(wide.same_as(m));
  EXPECT_EQ(wide.at(String("a")).as<UpIntObj>()->value, 1);
}

TEST(ContainerUpcast, DictUpcastSharesTheObject) {
  Dict<String, int> d = {{"a", 1}};
  Dict<Any, Any> wide = d;
  wide.Set(String("b"), 2);  // shared mutable storage
  EXPECT_EQ(d.size(), 2u);
  EXPECT_EQ(d.at("b"), 2);
}

TEST(ContainerUpcast, TupleUpcastSharesTheObject) {
  Tuple<UpInt, int> t(UpInt(4), 5);
  Tuple<ObjectRef, Any> wide = t;
  EXPECT_TRUE(wide.same_as(t));
  EXPECT_EQ(wide.get<1>().cast<int>(), 5);
}

TEST(ContainerUpcast, OptionalOfSubclassConvertsToOptionalOfBase) {
  ffi::Optional<UpInt> some = UpInt(9);
  ffi::Optional<ObjectRef> wide = some;
  EXPECT_TRUE(wide.same_as(some));
  ffi::Optional<UpInt> none;
  ffi::Optional<ObjectRef> wide_none = none;
  EXPECT_FALSE(wide_none.has_value());
}

TEST(ContainerUpcast, OptionalOfSubclassConvertsToOptionalOfAnyBase) {
  ffi::Optional<UpInt> some = UpInt(6);
  ffi::Optional<UpNumber> wide = some;
  ASSERT_TRUE(wide.has_value());
  EXPECT_TRUE(wide.same_as(some));
  ffi::Optional<UpNumber> moved = ffi::Optional<UpInt>(UpInt(2));
  EXPECT_EQ(moved.value().as<UpIntObj>()->value, 2);
  static_assert(!std::is_convertible_v<ffi::Optional<UpNumber>, ffi::Optional<UpInt>>);
}

TEST(ContainerUpcast, VariantTakesASubclassOfAnAlternative) {
  Variant<String, UpNumber> v = UpInt(3);
  EXPECT_EQ(v.GetTypeKey(), "test.upcast.Int");
  std::optional<UpInt> as_int = v.as<UpInt>();
  ASSERT_TRUE(as_int.has_value());
  EXPECT_EQ((*as_int)->value, 3);
}

TEST(ContainerUpcast, ExpectedOfSubclassKeepsTheStoredObject) {
  UpInt one(1);
  ffi::Expected<UpInt> e = one;
  ffi::Expected<UpNumber> wide = e;
  ASSERT_TRUE(wide.is_ok());
  EXPECT_TRUE(wide.value().same_as(one));
}

// ---- Variant access rules (§2.12) --------------------------------------------

TEST(VariantAccess, GetConvertsLikeAnyCast) {
  Variant<int, String> v = 2;
  EXPECT_DOUBLE_EQ(v.get<double>(), 2.0);
  EXPECT_EQ(v.get<int>(), 2);
}

TEST(VariantAccess, GetOfAnUnconvertibleTypeRaisesTypeError) {
  Variant<int, String> v = String("text");
  ffi::Error e = CatchError([&] { v.get<int>(); });
  EXPECT_EQ(e.kind(), "TypeError");
  EXPECT_EQ(e.message(), "Cannot convert from type `ffi.SmallStr` to `int`");
}

TEST(VariantAccess, RvalueGetMovesTheObjectOut) {
  UpInt x(5);
  Variant<String, UpInt> v = x;
  EXPECT_EQ(x.use_count(), 2);
  UpInt out = std::move(v).get<UpInt>();
  EXPECT_EQ(x.use_count(), 2);  // the Variant's reference moved into out
}

TEST(VariantAccess, AsIsStrictAndNeverConverts) {
  Variant<int, String> v = 2;
  EXPECT_EQ(v.as<int>(), std::optional<int>(2));
  EXPECT_EQ(v.as<double>(), std::nullopt);
}

TEST(VariantAccess, AsObjectTypeYieldsAPointer) {
  Variant<String, UpNumber> v = UpInt(8);
  const UpIntObj* p = v.as<UpIntObj>();
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(p->value, 8);
  Variant<String, UpNumber> s = String("x");
  EXPECT_EQ(s.as<UpIntObj>(), nullptr);
}

TEST(VariantAccess, SameAsComparesIdentity) {
  UpInt x(1);
  Variant<String, UpInt> a = x;
  Variant<String, UpInt> b = x;
  Variant<String, UpInt> c = UpInt(1);
  EXPECT_TRUE(a.same_as(b));
  EXPECT_FALSE(a.same_as(c));
}

TEST(VariantAccess, GetTypeKeyNamesThePodKind) {
  Variant<int, String> v = 3;
  EXPECT_EQ(v.GetTypeKey(), "int");
}

// ---- Tuple get<I> and deduction guide ----------------------------------------

// C++17 needs some `get` template in scope to parse `get<0>(t)`; the std one then finds ours by
// argument-dependent lookup.
using std::get;

TEST(TupleAccess, FreeGetFindsTheElementByArgumentDependentLookup) {
  Tuple<int, String> t(1, String("one"));
  EXPECT_EQ(get<0>(t), 1);
  EXPECT_EQ(get<1>(t), "one");
}

TEST(TupleAccess, StructuredBindingsReadEveryElement) {
  Tuple<int, String> t(2, String("two"));
  auto [n, s] = t;
  EXPECT_EQ(n, 2);
  EXPECT_EQ(s, "two");
}

TEST(TupleAccess, DeductionGuideDecaysTheArguments) {
  String s("x");
  Tuple t(1, s, 2.5);
  static_assert(std::is_same_v<decltype(t), Tuple<int, String, double>>);
  EXPECT_EQ(t.get<1>(), "x");
  Tuple copy(t);  // the copy deduction candidate, not a one-element tuple
  static_assert(std::is_same_v<decltype(copy), Tuple<int, String, double>>);
}

TEST(TupleAccess, RvalueGetOfAUniqueTupleMovesTheElementOut) {
  UpInt x(3);
  Tuple<UpInt, int> t(x, 1);
  EXPECT_EQ(x.use_count(), 2);
  UpInt out = get<0>(std::move(t));
  EXPECT_EQ(x.use_count(), 2);  // moved out of the tuple, not copied
}

TEST(TupleAccess, RvalueGetOfASharedTupleCopies) {
  UpInt x(3);
  Tuple<UpInt, int> t(x, 1);
  Tuple<UpInt, int> other = t;
  UpInt out = std::move(t).get<0>();
  EXPECT_EQ(x.use_count(), 3);  // x, the shared tuple's slot, out
  EXPECT_EQ(other.get<0>()->value, 3);
}

}  // namespace
