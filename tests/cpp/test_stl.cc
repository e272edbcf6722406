// Tests of extra/stl.h: standard-library types as parameters and results of
// typed functions, converted to and from the FFI containers, with the same
// element checks and error messages as Array/Map/Tuple.
#include <gtest/gtest.h>
#include <tvm/ffi/any.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/list.h>
#include <tvm/ffi/container/map.h>
#include <tvm/ffi/extra/stl.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/string.h>

#include <array>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <unordered_map>
#include <utility>
#include <variant>
#include <vector>

namespace {
namespace ffi = tvm::ffi;
using ffi::Any;
using ffi::Array;
using ffi::Function;

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

TEST(Stl, VectorParameterAndResult) {
  Function twice = Function::FromTyped([](std::vector<int> v) {
    for (int& x : v) x *= 2;
    return v;
  });
  Any r = twice(Array<int>{1, 2, 3});
  EXPECT_EQ(r.type_index(), kTVMFFIArray);
  EXPECT_EQ(r.cast<std::vector<int>>(), (std::vector<int>{2, 4, 6}));
  Array<int> as_array = r.cast<Array<int>>();
  EXPECT_EQ(as_array[2], 6);
}

TEST(Stl, VectorAcceptsListsAndConvertibleElements) {
  Function sum = Function::FromTyped([](const std::vector<double>& v) {
    double s = 0;
    for (double x : v) s += x;
    return s;
  });
  EXPECT_DOUBLE_EQ(sum(ffi::List<Any>({1, 2.5})).cast<double>(), 3.5);
  EXPECT_DOUBLE_EQ(sum(Array<int>{1, 2}).cast<double>(), 3.0);
}

TEST(Stl, VectorElementMismatchNamesIndexAndType) {
  Function f = Function::FromTyped([](std::vector<int> v) { return v.size(); }, "f");
  std::string kind;
  std::string msg = ErrorOf([&] { f(Array<Any>({1, "x"})); }, &kind);
  EXPECT_EQ(kind, "TypeError");
  EXPECT_EQ(msg,
            "Mismatched type on argument #0 when calling: `f(0: std::vector<int>) -> int`. "
            "Expected `std::vector<int>` but got `Array[index 1: ffi.SmallStr]`");
}

TEST(Stl, NestedVectors) {
  Function transpose = Function::FromTyped([](std::vector<std::vector<int>> m) {
    std::vector<std::vector<int>> t(m[0].size(), std::vector<int>(m.size()));
    for (size_t i = 0; i < m.size(); ++i) {
      for (size_t j = 0; j < m[i].size(); ++j) t[j][i] = m[i][j];
    }
    return t;
  });
  Any r = transpose(Array<Array<int>>{Array<int>{1, 2}, Array<int>{3, 4}});
  EXPECT_EQ(r.cast<std::vector<std::vector<int>>>(),
            (std::vector<std::vector<int>>{{1, 3}, {2, 4}}));
  EXPECT_EQ(ffi::TypeTraits<std::vector<std::vector<int>>>::TypeStr(),
            "std::vector<std::vector<int>>");
}

TEST(Stl, StdArrayChecksTheSize) {
  Function norm2 =
      Function::FromTyped([](std::array<double, 2> p) { return p[0] * p[0] + p[1] * p[1]; });
  EXPECT_DOUBLE_EQ(norm2(Array<Any>({3, 4.0})).cast<double>(), 25.0);
  std::string kind;
  std::string msg = ErrorOf([&] { norm2(Array<int>{1, 2, 3}); }, &kind);
  EXPECT_EQ(kind, "TypeError");
  EXPECT_NE(msg.find("Expected `std::array<float, 2>` but got `Array[size=3]`"), std::string::npos)
      << msg;
  Any a = std::array<int, 3>{7, 8, 9};
  EXPECT_EQ(a.cast<Array<int>>()[2], 9);
}

TEST(Stl, TupleAndPairRoundTrip) {
  Function f = Function::FromTyped([](std::tuple<int, std::string, bool> t) {
    return std::make_pair(std::get<1>(t), std::get<0>(t) + (std::get<2>(t) ? 1 : 0));
  });
  Any r = f(ffi::Tuple<int, ffi::String, bool>(41, "answer", true));
  auto [name, value] = r.cast<std::pair<std::string, int>>();
  EXPECT_EQ(name, "answer");
  EXPECT_EQ(value, 42);
  auto as_tuple = r.cast<ffi::Tuple<ffi::String, int>>();
  EXPECT_EQ(as_tuple.get<1>(), 42);
  std::string kind;
  std::string msg = ErrorOf([&] { f(Array<Any>({1, 2, true})); }, &kind);
  EXPECT_NE(msg.find("but got `Array[index 1: int]`"), std::string::npos) << msg;
  EXPECT_EQ((ffi::TypeTraits<std::pair<int, std::string>>::TypeStr()),
            "std::pair<int, std::string>");
}

TEST(Stl, MapAndUnorderedMapRoundTrip) {
  Function invert = Function::FromTyped([](const std::map<std::string, int>& m) {
    std::unordered_map<int, std::string> out;
    for (const auto& [k, v] : m) out[v] = k;
    return out;
  });
  ffi::Map<ffi::String, int> m = {{"a", 1}, {"b", 2}};
  Any r = invert(m);
  EXPECT_EQ(r.type_index(), kTVMFFIMap);
  auto back = r.cast<std::unordered_map<int, std::string>>();
  EXPECT_EQ(back.size(), 2u);
  EXPECT_EQ(back.at(2), "b");
  Any direct = std::map<std::string, std::vector<int>>{{"x", {1, 2}}};
  auto typed = direct.cast<ffi::Map<ffi::String, Array<int>>>();
  EXPECT_EQ(typed.at("x")[1], 2);
}

TEST(Stl, MapValueMismatchNamesTheKey) {
  Function f = Function::FromTyped([](std::map<std::string, int> m) { return m.size(); });
  ffi::Map<Any, Any> bad = {{Any("k"), Any("not an int")}};
  std::string kind;
  std::string msg = ErrorOf([&] { f(bad); }, &kind);
  EXPECT_EQ(kind, "TypeError");
  EXPECT_NE(msg.find("but got `Map[K, some value is ffi.String]`"), std::string::npos) << msg;
  EXPECT_EQ((ffi::TypeTraits<std::map<std::string, int>>::TypeStr()), "std::map<std::string, int>");
}

TEST(Stl, OptionalParameterAcceptsNone) {
  Function f = Function::FromTyped([](std::optional<int> x) -> std::optional<int> {
    return x ? std::optional<int>(*x + 1) : std::nullopt;
  });
  EXPECT_EQ(f(1).cast<int>(), 2);
  EXPECT_TRUE(f(nullptr).is_none());
  EXPECT_EQ(f(nullptr).cast<std::optional<int>>(), std::nullopt);
  std::string kind;
  ErrorOf([&] { f("s"); }, &kind);
  EXPECT_EQ(kind, "TypeError");
  EXPECT_EQ(ffi::TypeTraits<std::optional<int>>::TypeStr(), "std::optional<int>");
}

TEST(Stl, VariantPicksExactThenConvertible) {
  Function which = Function::FromTyped([](std::variant<int, std::string, std::vector<int>> v) {
    return static_cast<int64_t>(v.index());
  });
  EXPECT_EQ(which(1).cast<int>(), 0);
  EXPECT_EQ(which("s").cast<int>(), 1);
  EXPECT_EQ(which(Array<int>{1}).cast<int>(), 2);
  EXPECT_EQ(which(true).cast<int>(), 0);
  Any stored = std::variant<int, std::string>(std::string("text"));
  EXPECT_EQ(stored.cast<ffi::String>(), "text");
  std::string kind;
  ErrorOf([&] { which(1.5); }, &kind);
  EXPECT_EQ(kind, "TypeError");
}

TEST(Stl, FunctionParameterAndResult) {
  Function apply = Function::FromTyped([](std::function<int(int)> g, int x) { return g(x) * 10; });
  Function inc = Function::FromTyped([](int x) { return x + 1; });
  EXPECT_EQ(apply(inc, 4).cast<int>(), 50);
  Function make_adder = Function::FromTyped(
      [](int n) { return std::function<int(int)>([n](int x) { return x + n; }); });
  std::function<int(int)> add3 = make_adder(3).cast<std::function<int(int)>>();
  EXPECT_EQ(add3(4), 7);
  std::string kind;
  ErrorOf([&] { add3 = Any(1).cast<std::function<int(int)>>(); }, &kind);
  EXPECT_EQ(kind, "TypeError");
}

TEST(Stl, StoringInAnyMakesFfiContainers) {
  Any v = std::vector<std::string>{"a", "bb"};
  EXPECT_EQ(v.type_index(), kTVMFFIArray);
  EXPECT_EQ(v.cast<Array<ffi::String>>()[1], "bb");
  Any b = std::vector<bool>{true, false};
  EXPECT_EQ(b.cast<std::vector<bool>>(), (std::vector<bool>{true, false}));
}

// cpp_api.md §2.18: an STL type's schema names the STL type, not the container it crosses as,
// spelled byte for byte as the reference spells it (", " between tuple, variant and function
// parameters).
TEST(StlTypeSchema, SequencesNameTheirStlType) {
  EXPECT_EQ(ffi::TypeTraits<std::vector<int>>::TypeSchema(),
            R"({"type":"std::vector","args":[{"type":"int"}]})");
  EXPECT_EQ((ffi::TypeTraits<std::array<int, 3>>::TypeSchema()),
            R"({"type":"std::array","args":[{"type":"int"},3]})");
  EXPECT_EQ((ffi::TypeTraits<std::tuple<int, ffi::String>>::TypeSchema()),
            R"({"type":"std::tuple","args":[{"type":"int"}, {"type":"ffi.String"}]})");
}

TEST(StlTypeSchema, MapsNameTheirStlType) {
  EXPECT_EQ((ffi::TypeTraits<std::map<ffi::String, int>>::TypeSchema()),
            R"({"type":"std::map","args":[{"type":"ffi.String"},{"type":"int"}]})");
  EXPECT_EQ((ffi::TypeTraits<std::unordered_map<ffi::String, int>>::TypeSchema()),
            R"({"type":"std::unordered_map","args":[{"type":"ffi.String"},{"type":"int"}]})");
}

TEST(StlTypeSchema, OptionalAndVariantNameTheirStlType) {
  EXPECT_EQ(ffi::TypeTraits<std::optional<int>>::TypeSchema(),
            R"({"type":"std::optional","args":[{"type":"int"}]})");
  EXPECT_EQ((ffi::TypeTraits<std::variant<int, ffi::String>>::TypeSchema()),
            R"({"type":"std::variant","args":[{"type":"int"}, {"type":"ffi.String"}]})");
  EXPECT_EQ(ffi::TypeTraits<std::vector<std::optional<int>>>::TypeSchema(),
            R"({"type":"std::vector","args":[{"type":"std::optional","args":[{"type":"int"}]}]})");
}

TEST(StlTypeSchema, FunctionHasNamedReturnAndParams) {
  EXPECT_EQ((ffi::TypeTraits<std::function<int(int, ffi::String)>>::TypeSchema()),
            R"({"type":"std::function","named_args":{"return":[{"type":"int"}],)"
            R"("params":[{"type":"int"}, {"type":"ffi.String"}]}})");
  EXPECT_EQ(ffi::TypeTraits<std::function<void()>>::TypeSchema(),
            R"({"type":"std::function","named_args":{"return":[{"type":"None"}],"params":[]}})");
}

}  // namespace
