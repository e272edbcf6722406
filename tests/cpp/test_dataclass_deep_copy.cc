// DeepCopy of extra/dataclass.h on PODs and containers.
#include <gtest/gtest.h>
#include <tvm/ffi/any.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/dict.h>
#include <tvm/ffi/container/list.h>
#include <tvm/ffi/container/map.h>
#include <tvm/ffi/container/shape.h>
#include <tvm/ffi/extra/dataclass.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/string.h>

#include <string>

#include "testing_helpers.h"

namespace {

using namespace tvm::ffi;
using tvm_ffi_testing::ErrorMessage;

TEST(DeepCopy, ImmutableLeavesAreReturnedAsTheyAre) {
  EXPECT_EQ(DeepCopy(1).cast<int>(), 1);
  String s(std::string(30, 's'));
  EXPECT_TRUE(DeepCopy(s).same_as(s));
  Bytes b(std::string(30, 'b'));
  EXPECT_TRUE(DeepCopy(b).same_as(b));
  Shape shape({1, 2});
  EXPECT_TRUE(DeepCopy(shape).same_as(shape));
}

TEST(DeepCopy, ArrayIsANewArrayWithCopiedChildren) {
  List<Any> inner({1});
  Array<Any> a({inner, String("x")});
  Array<Any> c = DeepCopy(a).cast<Array<Any>>();
  EXPECT_FALSE(c.same_as(a));
  EXPECT_FALSE(c[0].same_as(inner));
  EXPECT_TRUE(RecursiveEq(a, c));
  inner.push_back(2);
  EXPECT_EQ(c[0].cast<List<Any>>().size(), 1);
}

TEST(DeepCopy, MapAndDictAreCopied) {
  Map<Any, Any> m{{String("k"), List<Any>({1})}};
  Map<Any, Any> mc = DeepCopy(m).cast<Map<Any, Any>>();
  EXPECT_FALSE(mc.same_as(m));
  EXPECT_FALSE(mc[String("k")].same_as(m[String("k")]));
  EXPECT_TRUE(RecursiveEq(m, mc));
  Dict<Any, Any> d{{1, Array<Any>({2})}};
  Dict<Any, Any> dc = DeepCopy(d).cast<Dict<Any, Any>>();
  EXPECT_FALSE(dc.same_as(d));
  EXPECT_TRUE(RecursiveEq(d, dc));
}

TEST(DeepCopy, SharingIsPreserved) {
  List<Any> p({1});
  Array<Any> a({p, p});
  Array<Any> c = DeepCopy(a).cast<Array<Any>>();
  EXPECT_TRUE(c[0].same_as(c[1]));
  EXPECT_FALSE(c[0].same_as(p));
}

TEST(DeepCopy, SelfContainingListKeepsItsCycle) {
  List<Any> l({1});
  l.push_back(l);
  List<Any> c = DeepCopy(l).cast<List<Any>>();
  EXPECT_FALSE(c.same_as(l));
  EXPECT_TRUE(c[1].same_as(c));
  EXPECT_EQ(std::string(ReprPrint(c)), "[1, ...]");
  l.clear();
  c.clear();
}

TEST(DeepCopy, DictUsedAsItsOwnKeyMapsToTheCopy) {
  Dict<Any, Any> d;
  d.Set(d, 1);
  Dict<Any, Any> c = DeepCopy(d).cast<Dict<Any, Any>>();
  ASSERT_EQ(c.size(), 1);
  EXPECT_TRUE((*c.begin()).first.same_as(c));
  d.clear();
  c.clear();
}

TEST(DeepCopy, ArrayReachedAgainThroughAListIsFixedUp) {
  List<Any> l;
  Array<Any> a({l});
  l.push_back(a);
  Array<Any> c = DeepCopy(a).cast<Array<Any>>();
  List<Any> lc = c[0].cast<List<Any>>();
  EXPECT_FALSE(lc.same_as(l));
  EXPECT_TRUE(lc[0].same_as(c));
  EXPECT_EQ(std::string(ReprPrint(c)), "([...],)");
  l.clear();
  lc.clear();
}

TEST(DeepCopy, MapReachedAgainAsAKeyIsFixedUp) {
  List<Any> l;
  Map<Any, Any> m{{String("k"), l}};
  Dict<Any, Any> d{{m, 1}};
  l.push_back(d);
  Map<Any, Any> c = DeepCopy(m).cast<Map<Any, Any>>();
  Dict<Any, Any> dc = c[String("k")].cast<List<Any>>()[0].cast<Dict<Any, Any>>();
  ASSERT_EQ(dc.size(), 1);
  EXPECT_TRUE((*dc.begin()).first.same_as(c));
  EXPECT_EQ(dc[c].cast<int>(), 1);
  l.clear();
  c[String("k")].cast<List<Any>>().clear();
}

TEST(DeepCopy, SharingBelowUnsharedContainersIsPreserved) {
  Array<Any> a;
  {
    // Only the two inner Arrays hold `shared` once the block ends.
    List<Any> shared({1});
    a = Array<Any>({Array<Any>({shared}), Map<Any, Any>{{String("k"), shared}}});
  }
  Array<Any> c = DeepCopy(a).cast<Array<Any>>();
  Any left = c[0].cast<Array<Any>>()[0];
  Any right = c[1].cast<Map<Any, Any>>()[String("k")];
  EXPECT_TRUE(left.same_as(right));
  EXPECT_FALSE(left.same_as(a[0].cast<Array<Any>>()[0]));
}

TEST(DeepCopy, CycleThroughAnUnsharedArrayReachesTheCopy) {
  List<Any> l;
  l.push_back(Array<Any>({l}));
  List<Any> c = DeepCopy(l).cast<List<Any>>();
  EXPECT_FALSE(c.same_as(l));
  EXPECT_FALSE(c[0].same_as(l[0]));
  EXPECT_TRUE(c[0].cast<Array<Any>>()[0].same_as(c));
  l.clear();
  c.clear();
}

TEST(DeepCopy, FunctionIsNotCopyable) {
  Function f = Function::FromTyped([]() {});
  EXPECT_EQ(
      ErrorMessage([&] { DeepCopy(f); }, "RuntimeError"),
      "Cannot deep copy object of type \"ffi.Function\" because it is not copy-constructible");
  EXPECT_EQ(
      ErrorMessage([&] { DeepCopy(List<Any>({1, f})); }, "RuntimeError"),
      "Cannot deep copy object of type \"ffi.Function\" because it is not copy-constructible");
}

TEST(DeepCopy, NestingBeyondTheStackLimitRaisesValueError) {
  tvm_ffi_testing::NestedLists deep(tvm_ffi_testing::kDepthBeyondTheStackLimit);
  // The abandoned partial copy is released on the small stack too.
  tvm_ffi_testing::RunWithSmallStack(
      [&] {
        EXPECT_EQ(ErrorMessage([&] { DeepCopy(deep.root()); }, "ValueError"),
                  "DeepCopy: maximum stack depth (1048576) exceeded");
      },
      tvm_ffi_testing::kErrorStackBytes);
}

TEST(DeepCopy, DeepNestingDoesNotOverflowTheStack) {
  Any v = 1;
  for (int i = 0; i < 10000; ++i) v = List<Any>({v});
  Any c = DeepCopy(v);
  EXPECT_FALSE(c.same_as(v));
  EXPECT_TRUE(RecursiveEq(c, v));
}

}  // namespace
