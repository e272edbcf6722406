// Tests of Tuple<Ts...>: construction and access, structured bindings,
// copy-on-write Set, storage as an ArrayObj, and conversion checks (size and
// per-element, with the bad index named).
#include <gtest/gtest.h>
#include <tvm/ffi/any.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/list.h>
#include <tvm/ffi/container/tuple.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/string.h>

#include <functional>
#include <string>
#include <type_traits>

namespace {
namespace ffi = tvm::ffi;
using ffi::Any;
using ffi::Tuple;

std::string ErrorOf(const std::function<void()>& f, std::string* kind) {
  try {
    f();
  } catch (const ffi::Error& e) {
    *kind = e.kind();
    return e.message();
  }
  *kind = "<none>";
  return "<no error>";
}

TEST(Tuple, GuideExample) {
  Tuple<int, ffi::String, bool> tup(42, "hello", true);
  EXPECT_EQ(tup.get<0>(), 42);
  EXPECT_EQ(tup.get<1>(), "hello");
  EXPECT_EQ(tup.get<2>(), true);
}

TEST(Tuple, StructuredBindings) {
  Tuple<int, ffi::String, double> tup(1, "two", 3.5);
  auto [a, b, c] = tup;
  static_assert(std::is_same_v<decltype(a), int>);
  static_assert(std::tuple_size_v<Tuple<int, ffi::String, double>> == 3);
  EXPECT_EQ(a, 1);
  EXPECT_EQ(b, "two");
  EXPECT_DOUBLE_EQ(c, 3.5);
}

TEST(Tuple, StoredAsArrayObject) {
  Tuple<int, ffi::String> tup(1, "x");
  EXPECT_EQ(tup.get()->type_index(), kTVMFFIArray);
  ffi::Array<Any> as_array = Any(tup).cast<ffi::Array<Any>>();
  EXPECT_TRUE(as_array.same_as(tup));
  EXPECT_EQ(as_array.size(), 2u);
  static_assert(sizeof(Tuple<int, int>) == sizeof(void*));
}

TEST(Tuple, SetCopiesOnlyWhenShared) {
  Tuple<int, ffi::String> a(1, "x");
  Tuple<int, ffi::String> b = a;
  b.Set<0>(2);
  EXPECT_EQ(a.get<0>(), 1);
  EXPECT_EQ(b.get<0>(), 2);
  const ffi::ArrayObj* obj = b.get();
  b.Set<1>("y");
  EXPECT_EQ(b.get(), obj);
  EXPECT_EQ(b.get<1>(), "y");
}

TEST(Tuple, DefaultConstructedHoldsDefaultElements) {
  Tuple<int, ffi::String> t;
  EXPECT_EQ(t.get<0>(), 0);
  EXPECT_EQ(t.get<1>(), "");
}

TEST(Tuple, ConversionReusesMatchingArray) {
  ffi::Array<Any> arr({1, "s", true});
  Tuple<int, ffi::String, bool> t = Any(arr).cast<Tuple<int, ffi::String, bool>>();
  EXPECT_TRUE(t.same_as(arr));
  Tuple<double, ffi::String, bool> converted = Any(arr).cast<Tuple<double, ffi::String, bool>>();
  EXPECT_FALSE(converted.same_as(arr));
  EXPECT_DOUBLE_EQ(converted.get<0>(), 1.0);
}

TEST(Tuple, WrongSizeIsRejectedWithTheSize) {
  Any v = ffi::Array<Any>({1, 2, 3});
  std::string kind;
  std::string msg = ErrorOf([&] { v.cast<Tuple<int, int>>(); }, &kind);
  EXPECT_EQ(kind, "TypeError");
  EXPECT_EQ(msg, "Cannot convert from type `Array[size=3]` to `Tuple<int, int>`");
}

TEST(Tuple, BadElementIsRejectedWithItsIndex) {
  Any v = ffi::Array<Any>({1, 2.5});
  std::string kind;
  std::string msg = ErrorOf([&] { v.cast<Tuple<int, ffi::String>>(); }, &kind);
  EXPECT_EQ(kind, "TypeError");
  EXPECT_EQ(msg, "Cannot convert from type `Array[index 1: float]` to `Tuple<int, str>`");
}

TEST(Tuple, TypedFunctionTakesAndReturnsTuples) {
  ffi::Function swap = ffi::Function::FromTyped(
      [](Tuple<int, ffi::String> t) { return Tuple<ffi::String, int>(t.get<1>(), t.get<0>()); });
  Any r = swap(Tuple<int, ffi::String>(7, "seven"));
  auto [s, i] = r.cast<Tuple<ffi::String, int>>();
  EXPECT_EQ(s, "seven");
  EXPECT_EQ(i, 7);
  Any from_list = swap(ffi::List<Any>({1, "one"}));
  auto swapped = from_list.cast<Tuple<ffi::String, int>>();
  EXPECT_EQ(swapped.get<0>(), "one");
}

TEST(Tuple, TypeStrAndSchema) {
  EXPECT_EQ((ffi::TypeTraits<Tuple<int, ffi::String>>::TypeStr()), "Tuple<int, str>");
  EXPECT_EQ((ffi::TypeTraits<Tuple<int, ffi::String>>::TypeSchema()),
            "{\"type\":\"Tuple\",\"args\":[{\"type\":\"int\"},{\"type\":\"ffi.String\"}]}");
}

TEST(Tuple, NestedInArray) {
  ffi::Array<Tuple<int, int>> pairs = {Tuple<int, int>(1, 2), Tuple<int, int>(3, 4)};
  Any v = pairs;
  auto back = v.cast<ffi::Array<Tuple<int, int>>>();
  EXPECT_TRUE(back.same_as(pairs));
  EXPECT_EQ(back[1].get<1>(), 4);
  Any bad = ffi::Array<Any>({Tuple<int, int>(1, 2), ffi::Array<Any>({1})});
  std::string kind;
  std::string msg = ErrorOf([&] { bad.cast<ffi::Array<Tuple<int, int>>>(); }, &kind);
  EXPECT_EQ(msg,
            "Cannot convert from type `Array[index 1: Array[size=1]]` to "
            "`Array<Tuple<int, int>>`");
}

}  // namespace
