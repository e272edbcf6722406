// Tests of Variant<Ts...> (variant.h): the guide example, get/as/holds/index,
// conversion from Any trying the alternatives in order (exact matches first),
// its error message, objects as alternatives, and type names/schemas.
#include <gtest/gtest.h>
#include <tvm/ffi/any.h>
#include <tvm/ffi/container/variant.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/memory.h>
#include <tvm/ffi/object.h>
#include <tvm/ffi/string.h>
#include <tvm/ffi/variant.h>

#include <functional>
#include <optional>
#include <string>
#include <utility>

namespace {

namespace ffi = tvm::ffi;
using ffi::Any;
using ffi::AnyView;
using ffi::ObjectRef;
using ffi::String;
using ffi::Variant;

class LeafObj : public ffi::Object {
 public:
  explicit LeafObj(int64_t v) : value(v) {}
  int64_t value;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("test.variant.Leaf", LeafObj, ffi::Object);
};

class Leaf : public ObjectRef {
 public:
  explicit Leaf(int64_t v) : ObjectRef(ffi::make_object<LeafObj>(v)) {}
  TVM_FFI_DEFINE_OBJECT_REF_METHODS_NOTNULLABLE(Leaf, ObjectRef, LeafObj);
};

class TwigObj : public ffi::Object {
 public:
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("test.variant.Twig", TwigObj, ffi::Object);
};

class Twig : public ObjectRef {
 public:
  Twig() : ObjectRef(ffi::make_object<TwigObj>()) {}
  TVM_FFI_DEFINE_OBJECT_REF_METHODS_NOTNULLABLE(Twig, ObjectRef, TwigObj);
};

using IntOrStr = Variant<int, String>;

std::string TypeErrorMessage(const std::function<void()>& fn) {
  try {
    fn();
  } catch (const ffi::Error& e) {
    EXPECT_EQ(e.kind(), "TypeError");
    return e.message();
  }
  ADD_FAILURE() << "expected a TypeError";
  return "";
}

// ---------------------------------------------------------------------------
// Construction and access
// ---------------------------------------------------------------------------

TEST(Variant, GuideExample) {
  Variant<int, String> var0 = 100;
  EXPECT_EQ(var0.get<int>(), 100);
  var0 = String("hello");
  std::optional<String> maybe_str = var0.as<String>();
  EXPECT_EQ(maybe_str.value(), "hello");
  std::optional<int> maybe_int2 = var0.as<int>();
  EXPECT_EQ(maybe_int2.has_value(), false);
}

TEST(Variant, IndexAndHoldsFollowTheStoredAlternative) {
  IntOrStr v = 1;
  EXPECT_EQ(v.index(), 0);
  EXPECT_TRUE(v.holds<int>());
  EXPECT_FALSE(v.holds<String>());
  v = String("text");
  EXPECT_EQ(v.index(), 1);
  EXPECT_TRUE(v.holds<String>());
  EXPECT_FALSE(v.holds<int>());
}

TEST(Variant, GetOfTheWrongAlternativeThrowsTypeError) {
  IntOrStr v = 1;
  EXPECT_EQ(TypeErrorMessage([&] { v.get<String>(); }), "Cannot convert from type `int` to `str`");
  v = String("a heap string value");
  EXPECT_EQ(TypeErrorMessage([&] { v.get<int>(); }),
            "Cannot convert from type `ffi.String` to `int`");
}

TEST(Variant, ConstructsFromValuesConvertibleToAnAlternative) {
  IntOrStr from_literal = "literal";
  EXPECT_TRUE(from_literal.holds<String>());
  EXPECT_EQ(from_literal.get<String>(), "literal");
  IntOrStr from_std = std::string("std string");
  EXPECT_EQ(from_std.get<String>(), "std string");
  from_std = "reassigned from a literal";
  EXPECT_EQ(from_std.get<String>(), "reassigned from a literal");
}

TEST(Variant, TypeStrNamesTheHeldAlternative) {
  IntOrStr v = 1;
  EXPECT_EQ(v.type_str(), "int");
  v = String("s");
  EXPECT_EQ(v.type_str(), "ffi.SmallStr");
}

TEST(Variant, CopiesAreIndependentValues) {
  IntOrStr a = 1;
  IntOrStr b = a;
  b = String("changed");
  EXPECT_EQ(a.get<int>(), 1);
  EXPECT_EQ(b.get<String>(), "changed");
}

// ---------------------------------------------------------------------------
// Objects as alternatives
// ---------------------------------------------------------------------------

TEST(VariantObject, HoldsObjectsByReference) {
  Leaf leaf(3);
  {
    Variant<Leaf, String> v = leaf;
    EXPECT_EQ(leaf.use_count(), 2);
    EXPECT_TRUE(v.holds<Leaf>());
    EXPECT_EQ(v.index(), 0);
    EXPECT_TRUE(v.get<Leaf>().same_as(leaf));
    EXPECT_EQ(v.get<Leaf>()->value, 3);
    Variant<Leaf, String> copy = v;
    EXPECT_EQ(leaf.use_count(), 3);
  }
  EXPECT_EQ(leaf.use_count(), 1);
}

TEST(VariantObject, DistinguishesObjectAlternatives) {
  Variant<Leaf, Twig> v = Twig();
  EXPECT_EQ(v.index(), 1);
  EXPECT_FALSE(v.as<Leaf>().has_value());
  EXPECT_TRUE(v.as<Twig>().has_value());
  v = Leaf(1);
  EXPECT_EQ(v.index(), 0);
  EXPECT_EQ(v.type_str(), "test.variant.Leaf");
}

TEST(VariantObject, CastFromAnyOfAnObjectAlternative) {
  Leaf leaf(4);
  Any a = leaf;
  auto v = a.cast<Variant<Leaf, String>>();
  EXPECT_TRUE(v.get<Leaf>().same_as(leaf));
  Any twig = Twig();
  EXPECT_EQ(TypeErrorMessage([&] { twig.cast<Variant<Leaf, String>>(); }),
            "Cannot convert from type `test.variant.Twig` to `Variant<test.variant.Leaf, str>`");
}

// ---------------------------------------------------------------------------
// Any conversions
// ---------------------------------------------------------------------------

TEST(VariantAny, StoredAsTheHeldValue) {
  IntOrStr v = 5;
  Any a = v;
  EXPECT_EQ(a.type_index(), kTVMFFIInt);
  EXPECT_EQ(a.cast<int>(), 5);
  IntOrStr s = String("a string on the heap");
  Any b = s;
  EXPECT_EQ(b.type_index(), kTVMFFIStr);
  EXPECT_EQ(v.as_any().cast<int>(), 5);
}

TEST(VariantAny, CastRoundTrip) {
  Any a = IntOrStr(String("round trip"));
  IntOrStr back = a.cast<IntOrStr>();
  EXPECT_EQ(back.index(), 1);
  EXPECT_EQ(back.get<String>(), "round trip");
  Any i = 42;
  EXPECT_EQ(i.cast<IntOrStr>().get<int>(), 42);
}

TEST(VariantAny, RawStringViewConvertsToTheStringAlternative) {
  std::string text = "a raw string view argument";
  AnyView view = text;
  ASSERT_EQ(view.type_index(), kTVMFFIRawStr);
  IntOrStr v = view.cast<IntOrStr>();
  text.assign(text.size(), '#');  // the variant owns its copy
  EXPECT_TRUE(v.holds<String>());
  EXPECT_EQ(v.get<String>(), "a raw string view argument");
  EXPECT_EQ(v.as_any().type_index(), kTVMFFIStr);
}

TEST(VariantAny, FloatIsRejectedWithTheVariantName) {
  Any f = 2.5;
  EXPECT_EQ(TypeErrorMessage([&] { f.cast<IntOrStr>(); }),
            "Cannot convert from type `float` to `Variant<int, str>`");
  EXPECT_FALSE(f.try_cast<IntOrStr>().has_value());
  EXPECT_FALSE(f.as<IntOrStr>().has_value());
  EXPECT_EQ(TypeErrorMessage([] { Any().cast<IntOrStr>(); }),
            "Cannot convert from type `None` to `Variant<int, str>`");
}

TEST(VariantAny, ExactMatchWinsOverAnEarlierConversion) {
  // double accepts an int by conversion, but int is an exact match.
  Any i = 7;
  auto v = i.cast<Variant<double, int>>();
  EXPECT_EQ(v.index(), 1);
  EXPECT_EQ(v.get<int>(), 7);
  // int accepts a bool by conversion, but bool is an exact match.
  Any b = true;
  auto w = b.cast<Variant<int, bool>>();
  EXPECT_EQ(w.index(), 1);
  EXPECT_TRUE(w.get<bool>());
}

TEST(VariantAny, ConversionsAreTriedInOrder) {
  // No exact match: the first alternative that converts takes the value.
  Any i = 3;
  auto v = i.cast<Variant<double, String>>();
  EXPECT_EQ(v.index(), 0);
  EXPECT_EQ(v.get<double>(), 3.0);
  Any b = true;
  auto w = b.cast<Variant<String, int, double>>();
  EXPECT_EQ(w.index(), 1);
  EXPECT_EQ(w.get<int>(), 1);
}

TEST(VariantAny, ObjectCountsStayExactThroughAny) {
  Leaf leaf(1);
  Any a = leaf;
  {
    auto v = a.cast<Variant<Leaf, int>>();
    EXPECT_EQ(leaf.use_count(), 3);
    Any back = v;
    EXPECT_EQ(leaf.use_count(), 4);
  }
  EXPECT_EQ(leaf.use_count(), 2);
}

// ---------------------------------------------------------------------------
// Type names and schemas
// ---------------------------------------------------------------------------

TEST(VariantSchema, TypeStr) {
  EXPECT_EQ(ffi::TypeTraits<IntOrStr>::TypeStr(), "Variant<int, str>");
  EXPECT_EQ((ffi::TypeTraits<Variant<Leaf, double, bool>>::TypeStr()),
            "Variant<test.variant.Leaf, float, bool>");
}

TEST(VariantSchema, TypeSchema) {
  EXPECT_EQ(ffi::TypeTraits<IntOrStr>::TypeSchema(),
            R"({"type":"Variant","args":[{"type":"int"},{"type":"ffi.String"}]})");
  EXPECT_EQ((ffi::TypeTraits<Variant<Leaf, bool>>::TypeSchema()),
            R"({"type":"Variant","args":[{"type":"test.variant.Leaf"},{"type":"bool"}]})");
}

}  // namespace
