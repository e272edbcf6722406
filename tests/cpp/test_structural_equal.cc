// StructuralEqual (extra/structural_equal.h, globals ffi.StructuralEqual and
// ffi.GetFirstStructuralMismatch): value rules, object kinds, definition
// regions, hooks, errors, and the first-mismatch access paths.
#include <gtest/gtest.h>
#include <tvm/ffi/any.h>
#include <tvm/ffi/big_int.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/dict.h>
#include <tvm/ffi/container/list.h>
#include <tvm/ffi/container/map.h>
#include <tvm/ffi/container/shape.h>
#include <tvm/ffi/container/tensor.h>
#include <tvm/ffi/extra/structural_equal.h>
#include <tvm/ffi/extra/structural_hash.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/optional.h>
#include <tvm/ffi/reflection/access_path.h>
#include <tvm/ffi/reflection/registry.h>
#include <tvm/ffi/string.h>

#include <cstdint>
#include <cstdlib>
#include <limits>
#include <optional>
#include <string>
#include <utility>

#include "structural_test_types.h"
#include "testing_helpers.h"

namespace {

namespace ffi = tvm::ffi;
using ffi::Any;
using ffi::Array;
using ffi::StructuralEqual;
using ffi::reflection::AccessPath;
using namespace structural_test;  // NOLINT(build/namespaces)
using tvm_ffi_testing::ErrorMessage;

bool Eq(const Any& l, const Any& r, bool map_free_vars = false, bool skip = false) {
  return StructuralEqual::Equal(l, r, map_free_vars, skip);
}

/*! \brief The two mismatch paths as "lhs | rhs" through ToSteps (or "equal"). */
std::string StepText(const AccessPath& p) {
  std::string out = "<root>";
  for (const auto& step : p->ToSteps()) {
    std::string key;
    if (auto s = step->key.as<ffi::String>()) {
      key = "\"" + std::string(*s) + "\"";
    } else if (step->key.type_index() == kTVMFFIInt) {
      key = std::to_string(step->key.cast<int64_t>());
    } else {
      key = "?";
    }
    switch (step->kind) {
      case ffi::reflection::AccessKind::kAttr:
        out += "." + std::string(step->key.cast<ffi::String>());
        break;
      case ffi::reflection::AccessKind::kArrayItem:
      case ffi::reflection::AccessKind::kMapItem:
        out += "[" + key + "]";
        break;
      default:
        out += "[<missing:" + key + ">]";
    }
  }
  return out;
}

std::string Mismatch(const Any& l, const Any& r, bool map_free_vars = false) {
  auto paths = StructuralEqual::GetFirstMismatch(l, r, map_free_vars);
  if (!paths.has_value()) return "equal";
  return StepText(paths.value().get<0>()) + " | " + StepText(paths.value().get<1>());
}

struct CPUAlloc {
  void AllocData(DLTensor* t) { t->data = std::malloc(ffi::GetDataSize(*t)); }
  void FreeData(DLTensor* t) { std::free(t->data); }
};

ffi::Tensor Filled(std::initializer_list<int64_t> shape, float value) {
  ffi::Tensor t =
      ffi::Tensor::FromNDAlloc(CPUAlloc(), shape, DLDataType{kDLFloat, 32, 1}, DLDevice{kDLCPU, 0});
  float* data = static_cast<float*>(t->data);
  for (int64_t i = 0; i < t.numel(); ++i) data[i] = value;
  return t;
}

TEST(StructuralEqual, PodsCompareByTypeAndBits) {
  EXPECT_TRUE(Eq(1, 1));
  EXPECT_FALSE(Eq(1, 2));
  EXPECT_FALSE(Eq(1, 1.0));
  EXPECT_FALSE(Eq(true, 1));
  EXPECT_FALSE(Eq(-0.0, 0.0));
  EXPECT_TRUE(Eq(Any(), Any()));
}

TEST(StructuralEqual, AnyNaNEqualsAnyNaN) {
  EXPECT_TRUE(
      Eq(std::numeric_limits<double>::quiet_NaN(), -std::numeric_limits<double>::quiet_NaN()));
  EXPECT_FALSE(Eq(std::numeric_limits<double>::quiet_NaN(), 1.0));
}

TEST(StructuralEqual, StringsAndBytesCompareByContent) {
  EXPECT_TRUE(Eq(ffi::String("a longer string value"), ffi::String("a longer string value")));
  EXPECT_FALSE(Eq(ffi::String("abc"), ffi::String("abd")));
  EXPECT_TRUE(Eq(ffi::Bytes("xy", 2), ffi::Bytes("xy", 2)));
  EXPECT_FALSE(Eq(ffi::String("xy"), ffi::Bytes("xy", 2)));
}

TEST(StructuralEqual, SequencesCompareElementWiseAndNotAcrossKinds) {
  EXPECT_TRUE(Eq(Array<int>{1, 2}, Array<int>{1, 2}));
  EXPECT_FALSE(Eq(Array<int>{1, 2}, Array<int>{1, 2, 3}));
  EXPECT_TRUE(Eq(ffi::List<int>{1, 2}, ffi::List<int>{1, 2}));
  EXPECT_FALSE(Eq(Array<int>{1, 2}, ffi::List<int>{1, 2}));
}

TEST(StructuralEqual, MapsIgnoreInsertionOrder) {
  ffi::Map<ffi::String, int> a{{"a", 1}, {"b", 2}};
  ffi::Map<ffi::String, int> b{{"b", 2}, {"a", 1}};
  EXPECT_TRUE(Eq(a, b));
  EXPECT_FALSE(Eq(a, ffi::Map<ffi::String, int>{{"a", 1}, {"b", 3}}));
  EXPECT_FALSE(Eq(a, ffi::Map<ffi::String, int>{{"a", 1}}));
  EXPECT_TRUE(Eq(ffi::Dict<ffi::String, int>{{"a", 1}}, ffi::Dict<ffi::String, int>{{"a", 1}}));
}

TEST(StructuralEqual, MapKeysTranslateThroughBoundVariables) {
  ffi::ObjectRef x = Var("x");
  ffi::ObjectRef y = Var("y");
  Array<Any> lhs{x, ffi::Map<Any, Any>{{x, 1}}};
  Array<Any> rhs{y, ffi::Map<Any, Any>{{y, 1}}};
  EXPECT_TRUE(Eq(lhs, rhs, true));
  EXPECT_FALSE(Eq(lhs, rhs, false));
}

TEST(StructuralEqual, ShapesAndBigIntsCompareByValue) {
  EXPECT_TRUE(Eq(ffi::Shape({1, 2}), ffi::Shape({1, 2})));
  EXPECT_FALSE(Eq(ffi::Shape({1, 2}), ffi::Shape({2, 1})));
  ffi::BigInt big = ffi::BigInt(int64_t{1} << 50) * ffi::BigInt(int64_t{1} << 50);
  EXPECT_TRUE(Eq(big, ffi::BigInt(int64_t{1} << 40) * ffi::BigInt(int64_t{1} << 60)));
  EXPECT_FALSE(Eq(big, big + ffi::BigInt(1)));
}

TEST(StructuralEqual, TensorsCompareShapeDtypeAndContent) {
  EXPECT_TRUE(Eq(Filled({2, 3}, 1.0f), Filled({2, 3}, 1.0f)));
  EXPECT_FALSE(Eq(Filled({2, 3}, 1.0f), Filled({2, 3}, 2.0f)));
  EXPECT_TRUE(Eq(Filled({2, 3}, 1.0f), Filled({2, 3}, 2.0f), false, true));
  EXPECT_FALSE(Eq(Filled({2, 3}, 1.0f), Filled({3, 2}, 1.0f), false, true));
}

TEST(StructuralEqual, TreeNodesCompareFields) {
  EXPECT_TRUE(Eq(Add(1, Array<int>{2}), Add(1, Array<int>{2})));
  EXPECT_FALSE(Eq(Add(1, 2), Add(1, 3)));
  EXPECT_FALSE(Eq(Add(1, 2), DAdd(1, 2)));
}

TEST(StructuralEqual, FreeVariablesNeedADefinitionRegionToMatch) {
  ffi::ObjectRef x = Var("x", 1);
  ffi::ObjectRef y = Var("y", 1);
  EXPECT_TRUE(Eq(x, x));
  EXPECT_FALSE(Eq(x, y));
  EXPECT_TRUE(Eq(x, y, true));
  EXPECT_FALSE(Eq(x, Var("z", 2), true));
}

TEST(StructuralEqual, VariablesBindConsistently) {
  ffi::ObjectRef x = Var("x");
  ffi::ObjectRef y = Var("y");
  ffi::ObjectRef z = Var("z");
  EXPECT_TRUE(Eq(Array<Any>{x, x}, Array<Any>{y, y}, true));
  EXPECT_FALSE(Eq(Array<Any>{x, x}, Array<Any>{y, z}, true));
  EXPECT_FALSE(Eq(Array<Any>{x, y}, Array<Any>{y, y}, true));
}

TEST(StructuralEqual, PatternFieldsDefineVariables) {
  ffi::ObjectRef x = Var("x");
  ffi::ObjectRef y = Var("y");
  EXPECT_TRUE(Eq(Lam(Array<Any>{x}, Add(x, 1)), Lam(Array<Any>{y}, Add(y, 1))));
  EXPECT_FALSE(Eq(Lam(Array<Any>{x}, Add(x, 1)), Lam(Array<Any>{y}, Add(y, 2))));
  // A use outside the definition stays free.
  EXPECT_FALSE(Eq(Lam(Array<Any>{}, x), Lam(Array<Any>{}, y)));
}

TEST(StructuralEqual, SimpleFieldsDefineOnlyTheVariable) {
  ffi::ObjectRef x = Var("x");
  ffi::ObjectRef y = Var("y");
  EXPECT_TRUE(Eq(Let(x, 1, Add(x, x)), Let(y, 1, Add(y, y))));
  // The defined variable's type is a use: free variables there do not bind.
  ffi::ObjectRef t1 = Var("t1");
  ffi::ObjectRef t2 = Var("t2");
  EXPECT_FALSE(Eq(Let(Var("a", t1), 1, 0), Let(Var("b", t2), 1, 0)));
  EXPECT_TRUE(Eq(Let(Var("a", t1), 1, 0), Let(Var("b", t1), 1, 0)));
}

TEST(StructuralEqual, PatternRegionIsSticky) {
  // Inside a pattern region (map_free_vars) a simple field still binds type variables.
  ffi::ObjectRef t1 = Var("t1");
  ffi::ObjectRef t2 = Var("t2");
  EXPECT_TRUE(Eq(Let(Var("a", t1), 1, 0), Let(Var("b", t2), 1, 0), true));
}

TEST(StructuralEqual, DagNodesMustShareAlike) {
  ffi::ObjectRef a0 = DAdd(1, 2);
  ffi::ObjectRef a1 = DAdd(1, 2);
  EXPECT_FALSE(Eq(Add(a0, a0), Add(a1, a0)));
  EXPECT_TRUE(Eq(Add(a0, a0), Add(a1, a1)));
  ffi::ObjectRef t0 = Add(1, 2);
  ffi::ObjectRef t1 = Add(1, 2);
  EXPECT_TRUE(Eq(Add(t0, t0), Add(t1, t0)));
}

TEST(StructuralEqual, UniqueInstancesCompareByIdentity) {
  ffi::ObjectRef s = Make<SingleObj>(1, 2);
  EXPECT_TRUE(Eq(s, s));
  EXPECT_FALSE(Eq(s, Make<SingleObj>(1, 2)));
}

TEST(StructuralEqual, ConstTreesShortCutIdentityElseCompareFields) {
  ffi::ObjectRef c = Make<ConstObj>(1, 2);
  EXPECT_TRUE(Eq(c, c));
  EXPECT_TRUE(Eq(c, Make<ConstObj>(1, 2)));
  EXPECT_FALSE(Eq(c, Make<ConstObj>(1, 3)));
}

TEST(StructuralEqual, HooksReplaceTheFieldWalk) {
  EXPECT_TRUE(Eq(Make<HookedObj>(1, 2), Make<HookedObj>(1, 3)));
  EXPECT_FALSE(Eq(Make<HookedObj>(1, 2), Make<HookedObj>(2, 2)));
  EXPECT_TRUE(Eq(Make<HookedObj>(Var("x"), 0), Make<HookedObj>(Var("y"), 0)));
}

TEST(StructuralEqual, TypesWithoutKindRaiseTypeError) {
  EXPECT_EQ(ErrorMessage([] { Eq(Make<NoKindObj>(1, 2), Make<NoKindObj>(1, 2)); }),
            "_type_s_eq_hash_kind is not set for type `test.structural.NoKind`, so "
            "StructuralHash is not supported for this type");
}

TEST(StructuralEqual, TypesWithoutMetadataRaiseEvenWhenIdentical) {
  ffi::Function f = ffi::Function::FromTyped([]() { return 1; });
  EXPECT_EQ(ErrorMessage([&] { Eq(f, f); }),
            "Type metadata is not set for type `ffi.Function`, so StructuralHash is not "
            "supported for this type");
  Array<Any> arr{f};
  EXPECT_EQ(ErrorMessage([&] { Eq(arr, arr); }),
            "Type metadata is not set for type `ffi.Function`, so StructuralHash is not "
            "supported for this type");
}

// Values made only of plain tree nodes are compared several pairs at a time
// (structural_equal.cc, FastEqual); anything else below them, and every
// difference, is decided by the depth-first walk. These check that the answers
// and errors stay those of that walk.

/*! \brief A balanced tree of Add and Array nodes with `leaves` int leaves; leaf i is f(i). */
template <typename F>
Any PlainTree(int64_t begin, int64_t leaves, F&& f) {
  if (leaves == 1) return f(begin);
  int64_t half = leaves / 2;
  Any left = PlainTree(begin, half, f);
  Any right = PlainTree(begin + half, leaves - half, f);
  if (begin % 3 == 0) return Array<Any>{left, right};
  return Add(left, right);
}

TEST(StructuralEqual, LargePlainTreesEqualAndADeepDifferenceIsFound) {
  auto same = [](int64_t i) -> Any { return i; };
  auto one_off = [](int64_t i) -> Any { return i == 777 ? Any(-1) : Any(i); };
  Any tree = PlainTree(0, 1000, same);
  EXPECT_TRUE(Eq(tree, PlainTree(0, 1000, same)));
  EXPECT_TRUE(Eq(tree, tree));
  EXPECT_FALSE(Eq(tree, PlainTree(0, 1000, one_off)));
  EXPECT_NE(Mismatch(tree, PlainTree(0, 1000, one_off)), "equal");
}

TEST(StructuralEqual, FreeVariablesBelowPlainTreeNodesFollowMapFreeVars) {
  ffi::ObjectRef x = Var("x");
  ffi::ObjectRef y = Var("y");
  Any lhs = Add(Array<Any>{1, Add(x, 2)}, 3);
  Any rhs = Add(Array<Any>{1, Add(y, 2)}, 3);
  EXPECT_FALSE(Eq(lhs, rhs));
  EXPECT_TRUE(Eq(lhs, rhs, true));
  EXPECT_TRUE(Eq(Add(Lam(Array<Any>{x}, x), 1), Add(Lam(Array<Any>{y}, y), 1)));
}

TEST(StructuralEqual, HooksBelowPlainTreeNodesStillDecide) {
  EXPECT_TRUE(Eq(Add(Make<HookedObj>(1, 2), 0), Add(Make<HookedObj>(1, 3), 0)));
  EXPECT_FALSE(Eq(Add(Make<HookedObj>(1, 2), 0), Add(Make<HookedObj>(2, 2), 0)));
}

TEST(StructuralEqual, UnsupportedTypeRaisesOnlyWhereTheWalkReachesIt) {
  const char* message =
      "_type_s_eq_hash_kind is not set for type `test.structural.NoKind`, so "
      "StructuralHash is not supported for this type";
  // The walk meets NoKind before the difference that follows it...
  EXPECT_EQ(ErrorMessage([] {
              Eq(Array<Any>{Make<NoKindObj>(1, 2), 1}, Array<Any>{Make<NoKindObj>(1, 2), 2});
            }),
            message);
  EXPECT_EQ(ErrorMessage([] { Eq(Add(Make<NoKindObj>(1, 2), 1), Add(Make<NoKindObj>(1, 2), 2)); }),
            message);
  // ...and stops at a difference that comes first.
  EXPECT_FALSE(Eq(Array<Any>{1, Make<NoKindObj>(1, 2)}, Array<Any>{2, Make<NoKindObj>(1, 2)}));
}

TEST(StructuralEqual, LeafRulesHoldInsidePlainTreeNodes) {
  double nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_TRUE(Eq(Add(nan, 1), Add(-nan, 1)));
  EXPECT_FALSE(Eq(Add(0.0, 1), Add(-0.0, 1)));
  EXPECT_FALSE(Eq(Add(1, 1), Add(1.0, 1)));
  std::string long_text(40, 't');
  EXPECT_TRUE(Eq(Add(ffi::String(long_text), 1), Add(ffi::String(long_text), 1)));
  EXPECT_FALSE(Eq(Add(ffi::String(long_text), 1), Add(ffi::String(long_text + "u"), 1)));
  EXPECT_FALSE(Eq(Add(ffi::String("ab"), 1), Add(ffi::Bytes(std::string("ab")), 1)));
  EXPECT_TRUE(Eq(Add(ffi::Shape({1, 2}), 1), Add(ffi::Shape({1, 2}), 1)));
  EXPECT_FALSE(Eq(Add(ffi::Shape({1, 2}), 1), Add(ffi::Shape({1, 3}), 1)));
  EXPECT_FALSE(Eq(Add(Array<Any>{1}, 1), Add(ffi::List<Any>{1}, 1)));
  EXPECT_FALSE(Eq(Add(Array<Any>{1}, 1), Add(Array<Any>{1, 2}, 1)));
}

TEST(StructuralEqual, UniqueAndConstNodesBelowPlainTreeNodesKeepTheirRules) {
  ffi::ObjectRef s = Make<SingleObj>(1, 2);
  EXPECT_TRUE(Eq(Add(s, 1), Add(s, 1)));
  EXPECT_FALSE(Eq(Add(s, 1), Add(Make<SingleObj>(1, 2), 1)));
  EXPECT_TRUE(Eq(Add(Make<ConstObj>(1, 2), 1), Add(Make<ConstObj>(1, 2), 1)));
  EXPECT_FALSE(Eq(Add(Make<ConstObj>(1, 2), 1), Add(Make<ConstObj>(1, 3), 1)));
}

TEST(StructuralEqual, FunctorComparesLikeEqual) {
  EXPECT_TRUE(StructuralEqual()(Array<int>{1}, Array<int>{1}));
}

TEST(StructuralMismatch, EqualValuesHaveNoMismatch) {
  EXPECT_EQ(Mismatch(Array<int>{1, 2}, Array<int>{1, 2}), "equal");
}

TEST(StructuralMismatch, SequencesReportTheFirstDifferenceThenTheLength) {
  EXPECT_EQ(Mismatch(Array<int>{1, 2, 3}, Array<int>{1, 2}), "<root>[2] | <root>[<missing:2>]");
  EXPECT_EQ(Mismatch(Array<int>{1, 2}, Array<int>{1, 2, 3}), "<root>[<missing:2>] | <root>[2]");
  EXPECT_EQ(Mismatch(Array<int>{1, 5, 3}, Array<int>{1, 2}), "<root>[1] | <root>[1]");
}

TEST(StructuralMismatch, MapsReportMissingAndDifferentEntries) {
  using M = ffi::Map<ffi::String, int>;
  EXPECT_EQ(Mismatch(M{{"a", 1}}, M{{"b", 1}}), "<root>[\"a\"] | <root>[<missing:\"a\">]");
  EXPECT_EQ(Mismatch(M{{"a", 1}}, M{{"a", 2}}), "<root>[\"a\"] | <root>[\"a\"]");
  EXPECT_EQ(Mismatch(M{{"a", 1}}, M{{"a", 1}, {"b", 2}}),
            "<root>[<missing:\"b\">] | <root>[\"b\"]");
}

TEST(StructuralMismatch, LeafAndTypeDifferencesEndAtTheCurrentPosition) {
  EXPECT_EQ(Mismatch(1, ffi::String("a")), "<root> | <root>");
  EXPECT_EQ(Mismatch(Array<int>{1}, ffi::List<int>{1}), "<root> | <root>");
}

TEST(StructuralMismatch, ObjectFieldsAddAttrSteps) {
  EXPECT_EQ(Mismatch(Add(1, 2), Add(1, 3)), "<root>.b | <root>.b");
  EXPECT_EQ(Mismatch(Add(1, Array<int>{1, 2}), Add(1, Array<int>{1})),
            "<root>.b[1] | <root>.b[<missing:1>]");
  ffi::ObjectRef x = Var("x");
  ffi::ObjectRef y = Var("y");
  EXPECT_EQ(Mismatch(Lam(Array<Any>{x}, Add(x, 1)), Lam(Array<Any>{y}, Add(y, 2))),
            "<root>.body.b | <root>.body.b");
  EXPECT_EQ(Mismatch(Var("x", 1), Var("z", 2), true), "<root>.ty | <root>.ty");
}

TEST(StructuralMismatch, HooksReportTheirFieldName) {
  EXPECT_EQ(Mismatch(Make<HookedObj>(1, 2), Make<HookedObj>(2, 2)), "<root>.a | <root>.a");
}

// Members of many storage kinds: the engines read some in place and the rest
// through their getters; each kind must compare by its value.
class TypedFieldsObj : public ffi::Object {
 public:
  ffi::Optional<int64_t> opt;
  int32_t i32 = 0;
  int64_t i64 = 0;
  double f64 = 0;
  bool flag = false;
  ffi::ObjectRef obj;
  ffi::String str;
  static constexpr TVMFFISEqHashKind _type_s_eq_hash_kind = kTVMFFISEqHashKindTreeNode;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("test.structural.TypedFields", TypedFieldsObj, ffi::Object);
};

TVM_FFI_STATIC_INIT_BLOCK() {
  ffi::reflection::ObjectDef<TypedFieldsObj>()
      .def_ro("opt", &TypedFieldsObj::opt)
      .def_ro("i32", &TypedFieldsObj::i32)
      .def_ro("i64", &TypedFieldsObj::i64)
      .def_ro("f64", &TypedFieldsObj::f64)
      .def_ro("flag", &TypedFieldsObj::flag)
      .def_ro("obj", &TypedFieldsObj::obj)
      .def_ro("str", &TypedFieldsObj::str);
}

template <typename F>
Any Typed(F&& set) {
  ffi::ObjectPtr<TypedFieldsObj> n = ffi::make_object<TypedFieldsObj>();
  set(n.get());
  return Any(ffi::ObjectRef(std::move(n)));
}

TEST(StructuralEqual, FieldsOfEveryStorageKindEqualWhenTheirValuesDo) {
  auto fill = [](TypedFieldsObj* n) {
    n->opt = int64_t{7};
    n->i32 = -3;
    n->i64 = int64_t{1} << 40;
    n->f64 = 2.5;
    n->flag = true;
    n->obj = Array<Any>({1, 2});
    n->str = "s";
  };
  EXPECT_TRUE(Eq(Typed(fill), Typed(fill)));
}

TEST(StructuralEqual, OptionalIntFieldsCompareTheirValueNotTheirBytes) {
  // Values that share their low 32 bits, and None next to zero.
  Any a = Typed([](TypedFieldsObj* n) { n->opt = int64_t{5}; });
  Any b = Typed([](TypedFieldsObj* n) { n->opt = int64_t{5} + (int64_t{1} << 40); });
  Any none = Typed([](TypedFieldsObj*) {});
  Any zero = Typed([](TypedFieldsObj* n) { n->opt = int64_t{0}; });
  EXPECT_FALSE(Eq(a, b));
  EXPECT_FALSE(Eq(none, zero));
  EXPECT_TRUE(Eq(none, Typed([](TypedFieldsObj*) {})));
}

TEST(StructuralEqual, EachPodAndObjectFieldTakesPart) {
  Any base = Typed([](TypedFieldsObj*) {});
  EXPECT_FALSE(Eq(base, Typed([](TypedFieldsObj* n) { n->i32 = 1; })));
  EXPECT_FALSE(Eq(base, Typed([](TypedFieldsObj* n) { n->i64 = 1; })));
  EXPECT_FALSE(Eq(base, Typed([](TypedFieldsObj* n) { n->f64 = 0.5; })));
  EXPECT_FALSE(Eq(base, Typed([](TypedFieldsObj* n) { n->flag = true; })));
  EXPECT_FALSE(Eq(base, Typed([](TypedFieldsObj* n) { n->obj = Array<Any>(); })));
  EXPECT_FALSE(Eq(base, Typed([](TypedFieldsObj* n) { n->str = "x"; })));
  EXPECT_TRUE(Eq(Typed([](TypedFieldsObj* n) { n->obj = Array<Any>({1}); }),
                 Typed([](TypedFieldsObj* n) { n->obj = Array<Any>({1}); })));
}

TEST(StructuralHash, FieldsOfEveryStorageKindHashByTheirValues) {
  auto hash = [](const Any& v) { return ffi::StructuralHash::Hash(v, false, false); };
  Any a = Typed([](TypedFieldsObj* n) { n->opt = int64_t{5}; });
  Any b = Typed([](TypedFieldsObj* n) { n->opt = int64_t{5} + (int64_t{1} << 40); });
  EXPECT_NE(hash(a), hash(b));
  EXPECT_EQ(hash(a), hash(Typed([](TypedFieldsObj* n) { n->opt = int64_t{5}; })));
  EXPECT_NE(hash(Typed([](TypedFieldsObj* n) { n->flag = true; })),
            hash(Typed([](TypedFieldsObj*) {})));
  EXPECT_EQ(hash(Typed([](TypedFieldsObj* n) { n->obj = Array<Any>({1}); })),
            hash(Typed([](TypedFieldsObj* n) { n->obj = Array<Any>({1}); })));
}

// ---- containers nested deeper than the stack, and containers holding themselves ----

template <typename Make>
Any Nest(int depth, Make make) {
  Any v = 1;
  for (int i = 0; i < depth; ++i) v = make(v);
  return v;
}

constexpr int kDeep = 100000;

TEST(StructuralEqualDeep, MapsAndDictsNestedDeeperThanTheStackCompare) {
  auto map = [](const Any& v) { return Any(ffi::Map<Any, Any>({{1, v}})); };
  auto dict = [](const Any& v) { return Any(ffi::Dict<Any, Any>({{1, v}})); };
  Any a = Nest(kDeep, map), b = Nest(kDeep, map), c = Nest(kDeep - 1, map);
  Any d = Nest(kDeep, dict), e = Nest(kDeep, dict);
  tvm_ffi_testing::RunWithSmallStack([&] {
    EXPECT_TRUE(Eq(a, b));
    EXPECT_FALSE(Eq(a, c));
    EXPECT_TRUE(Eq(d, e));
  });
}

TEST(StructuralEqualDeep, FirstMismatchOfDeepArraysNamesTheInnermostStep) {
  // Shallower than kDeep: the access path itself is a chain of that many nodes.
  constexpr int kPathDepth = 5000;
  auto arr = [](const Any& v) { return Any(Array<Any>({v})); };
  Any a = Nest(kPathDepth, arr);
  Any b = Array<Any>({2});
  for (int i = 1; i < kPathDepth; ++i) b = Array<Any>({b});
  std::optional<ffi::reflection::AccessPathPair> paths;
  tvm_ffi_testing::RunWithSmallStack(
      [&] {
        auto found = StructuralEqual::GetFirstMismatch(a, b);
        if (found.has_value()) paths = std::move(found.value());
      },
      tvm_ffi_testing::kErrorStackBytes);
  ASSERT_TRUE(paths.has_value());
  EXPECT_EQ(paths->get<0>()->ToSteps().size(), static_cast<size_t>(kPathDepth));
}

TEST(StructuralEqualDeep, MismatchPathsThroughNestedContainers) {
  Any l = Array<Any>({1, ffi::Map<Any, Any>({{ffi::String("k"), Array<Any>({1, 2})}})});
  Any r = Array<Any>({1, ffi::Map<Any, Any>({{ffi::String("k"), Array<Any>({1, 3})}})});
  auto paths = StructuralEqual::GetFirstMismatch(l, r);
  ASSERT_TRUE(paths.has_value());
  EXPECT_EQ(paths.value().get<0>()->ToSteps().size(), 3u);
  EXPECT_FALSE(StructuralEqual::GetFirstMismatch(l, l).has_value());
}

TEST(StructuralEqualDeep, DistinctListsHoldingThemselvesRaiseValueError) {
  ffi::List<Any> a({1});
  a.push_back(a);
  ffi::List<Any> b({1});
  b.push_back(b);
  EXPECT_NE(ErrorMessage([&] { Eq(a, b); }, "ValueError").find("ffi.List contains itself"),
            std::string::npos);
  a.clear();
  b.clear();
}

TEST(StructuralEqualDeep, ListHoldingItselfComparedWithItselfRaisesValueError) {
  ffi::List<Any> a({1});
  a.push_back(a);
  EXPECT_NE(ErrorMessage([&] { Eq(a, a); }, "ValueError").find("contains itself"),
            std::string::npos);
  a.clear();
}

TEST(StructuralEqualDeep, DictHoldingItselfRaisesValueError) {
  ffi::Dict<Any, Any> a;
  a.Set(1, a);
  ffi::Dict<Any, Any> b;
  b.Set(1, b);
  EXPECT_NE(ErrorMessage([&] { Eq(a, b); }, "ValueError").find("ffi.Dict contains itself"),
            std::string::npos);
  a.clear();
  b.clear();
}

}  // namespace
