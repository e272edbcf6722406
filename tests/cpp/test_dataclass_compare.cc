// RecursiveEq/Lt/Le/Gt/Ge and RecursiveHash of extra/dataclass.h on PODs and containers.
#include <gtest/gtest.h>
#include <tvm/ffi/any.h>
#include <tvm/ffi/big_int.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/dict.h>
#include <tvm/ffi/container/list.h>
#include <tvm/ffi/container/map.h>
#include <tvm/ffi/container/shape.h>
#include <tvm/ffi/dtype.h>
#include <tvm/ffi/extra/dataclass.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/string.h>

#include <cstdint>
#include <limits>
#include <string>

#include "testing_helpers.h"

namespace {

using namespace tvm::ffi;
using tvm_ffi_testing::ErrorMessage;

const double kNaN = std::numeric_limits<double>::quiet_NaN();

/*! \brief Lt, Le, Gt, Ge of a pair, as "TFTF". */
std::string Order(const Any& a, const Any& b) {
  std::string s;
  for (bool v : {RecursiveLt(a, b), RecursiveLe(a, b), RecursiveGt(a, b), RecursiveGe(a, b)}) {
    s.push_back(v ? 'T' : 'F');
  }
  return s;
}

TEST(RecursiveEq, PodsByValue) {
  EXPECT_TRUE(RecursiveEq(1, 1));
  EXPECT_FALSE(RecursiveEq(1, 2));
  EXPECT_TRUE(RecursiveEq(Any(), Any()));
  EXPECT_TRUE(RecursiveEq(StringToDLDataType("int8"), StringToDLDataType("int8")));
  EXPECT_TRUE(RecursiveEq(DLDevice{kDLCUDA, 1}, DLDevice{kDLCUDA, 1}));
  EXPECT_FALSE(RecursiveEq(DLDevice{kDLCUDA, 1}, DLDevice{kDLCUDA, 0}));
}

TEST(RecursiveEq, DifferentTypesAreUnequal) {
  EXPECT_FALSE(RecursiveEq(1, 1.0));
  EXPECT_FALSE(RecursiveEq(true, 1));
  EXPECT_FALSE(RecursiveEq(1, String("1")));
  EXPECT_FALSE(RecursiveEq(Array<Any>({1}), List<Any>({1})));
  EXPECT_FALSE(RecursiveEq(Map<Any, Any>(), Dict<Any, Any>()));
  EXPECT_FALSE(RecursiveEq(Any(), 0));
}

TEST(RecursiveEq, NaNEqualsNaNAndZerosAreEqual) {
  EXPECT_TRUE(RecursiveEq(kNaN, kNaN));
  EXPECT_FALSE(RecursiveEq(kNaN, 1.0));
  EXPECT_TRUE(RecursiveEq(0.0, -0.0));
}

TEST(RecursiveEq, SmallAndHeapStringsByContent) {
  std::string long_text(40, 'x');
  EXPECT_TRUE(RecursiveEq(String("ab"), String("ab")));
  EXPECT_TRUE(RecursiveEq(String(long_text), String(long_text)));
  EXPECT_FALSE(RecursiveEq(String("ab"), String(long_text)));
  EXPECT_TRUE(RecursiveEq(Bytes(std::string("ab")), Bytes(std::string("ab"))));
  EXPECT_FALSE(RecursiveEq(Bytes(std::string("ab")), String("ab")));
}

TEST(RecursiveEq, SequencesElementWise) {
  EXPECT_TRUE(RecursiveEq(Array<Any>({1, String("a")}), Array<Any>({1, String("a")})));
  EXPECT_FALSE(RecursiveEq(Array<Any>({1, 2}), Array<Any>({1, 2, 3})));
  EXPECT_TRUE(RecursiveEq(List<Any>({Array<Any>({1})}), List<Any>({Array<Any>({1})})));
  EXPECT_TRUE(RecursiveEq(Shape({1, 2}), Shape({1, 2})));
  EXPECT_FALSE(RecursiveEq(Shape({1, 2}), Shape({1, 3})));
}

TEST(RecursiveEq, MapsByKeysAndValuesIgnoringOrder) {
  Map<Any, Any> a{{String("x"), 1}, {String("y"), 2}};
  Map<Any, Any> b{{String("y"), 2}, {String("x"), 1}};
  Map<Any, Any> c{{String("x"), 1}, {String("y"), 3}};
  Map<Any, Any> d{{String("x"), 1}, {String("z"), 2}};
  EXPECT_TRUE(RecursiveEq(a, b));
  EXPECT_FALSE(RecursiveEq(a, c));
  EXPECT_FALSE(RecursiveEq(a, d));
  EXPECT_FALSE(RecursiveEq(a, Map<Any, Any>{{String("x"), 1}}));
}

TEST(RecursiveEq, FunctionsWithoutFieldsCompareEqual) {
  Function f = Function::FromTyped([]() {});
  Function g = Function::FromTyped([]() {});
  EXPECT_TRUE(RecursiveEq(f, g));
}

TEST(RecursiveEq, DistinctSelfContainingListsAreEqual) {
  List<Any> a({1});
  a.push_back(a);
  List<Any> b({1});
  b.push_back(b);
  EXPECT_TRUE(RecursiveEq(a, b));
  a.clear();
  b.clear();
}

TEST(RecursiveEq, BigIntByValue) {
  BigInt x = BigInt(int64_t{1} << 62) * 16;
  BigInt y = BigInt(int64_t{1} << 62) * 16;
  EXPECT_TRUE(RecursiveEq(Any(x), Any(y)));
  EXPECT_FALSE(RecursiveEq(Any(x), Any(x + 1)));
}

TEST(RecursiveOrder, NoneSortsFirst) {
  EXPECT_EQ(Order(Any(), 1), "TTFF");
  EXPECT_EQ(Order(1, Any()), "FFTT");
  EXPECT_EQ(Order(Any(), Any()), "FTFT");
}

TEST(RecursiveOrder, NumbersStringsAndBytes) {
  EXPECT_EQ(Order(int64_t{1} << 62, -(int64_t{1} << 62)), "FFTT");
  EXPECT_EQ(Order(false, true), "TTFF");
  EXPECT_EQ(Order(1.5, 2.5), "TTFF");
  EXPECT_EQ(Order(0.0, -0.0), "FTFT");
  EXPECT_EQ(Order(String("a"), String(std::string(20, 'x'))), "TTFF");
  EXPECT_EQ(Order(Bytes(std::string("ab")), Bytes(std::string("b"))), "TTFF");
  EXPECT_EQ(Order(Bytes(std::string("ab")), Bytes(std::string("ab\0", 3))), "TTFF");
}

TEST(RecursiveOrder, DataTypeAndDeviceByParts) {
  EXPECT_EQ(Order(StringToDLDataType("int8"), StringToDLDataType("int16")), "TTFF");
  EXPECT_EQ(Order(DLDevice{kDLCPU, 0}, DLDevice{kDLCUDA, 0}), "TTFF");
}

TEST(RecursiveOrder, SequencesLexicographicThenLength) {
  EXPECT_EQ(Order(Array<Any>({1, 2}), Array<Any>({1, 2, 3})), "TTFF");
  EXPECT_EQ(Order(Array<Any>({1, 3}), Array<Any>({1, 2, 3})), "FFTT");
  EXPECT_EQ(Order(Shape({1, 2}), Shape({1, 3})), "TTFF");
  EXPECT_EQ(Order(List<Any>({1}), List<Any>({1})), "FTFT");
}

TEST(RecursiveOrder, DifferentTypesRaiseTypeError) {
  EXPECT_EQ(ErrorMessage([] { RecursiveLt(1, String("a")); }),
            "Cannot compare values of different types: int vs ffi.SmallStr");
  EXPECT_EQ(ErrorMessage([] { RecursiveGe(true, 1); }),
            "Cannot compare values of different types: bool vs int");
  EXPECT_EQ(ErrorMessage([] { RecursiveLe(Array<Any>({1}), List<Any>({1})); }),
            "Cannot compare values of different types: ffi.Array vs ffi.List");
}

TEST(RecursiveOrder, NaNRaisesTypeError) {
  EXPECT_EQ(ErrorMessage([] { RecursiveLt(kNaN, 1.0); }), "Cannot order NaN values");
  EXPECT_EQ(ErrorMessage([] { RecursiveGe(kNaN, kNaN); }), "Cannot order NaN values");
}

TEST(RecursiveOrder, UnequalMapsRaiseTypeError) {
  Map<Any, Any> a{{String("a"), 1}};
  Map<Any, Any> b{{String("a"), 2}};
  EXPECT_EQ(Order(a, Map<Any, Any>{{String("a"), 1}}), "FTFT");
  EXPECT_EQ(ErrorMessage([&] { RecursiveLt(a, b); }), "Cannot order Map/Dict values");
  EXPECT_EQ(ErrorMessage([&] { RecursiveLt(Array<Any>({a}), Array<Any>({b})); }),
            "Cannot order Map/Dict values");
  EXPECT_EQ(ErrorMessage([&] { RecursiveGt(a, Map<Any, Any>{{String("b"), 1}}); }),
            "Cannot order Map/Dict values");
}

TEST(RecursiveOrder, OpaquePointersOnlyEquality) {
  int x = 0, y = 0;
  void* p = &x;
  void* q = &y;
  EXPECT_TRUE(RecursiveEq(p, p));
  EXPECT_FALSE(RecursiveEq(p, q));
  EXPECT_FALSE(RecursiveLt(p, p));
  EXPECT_EQ(ErrorMessage([&] { RecursiveLt(p, q); }), "Cannot order values of type void*");
}

TEST(RecursiveOrder, CycleRaisesValueError) {
  List<Any> a({1});
  a.push_back(a);
  List<Any> b({1});
  b.push_back(b);
  EXPECT_EQ(ErrorMessage([&] { RecursiveLt(a, b); }, "ValueError"),
            "RecursiveCompare: cyclic reference detected in ordering");
  EXPECT_FALSE(RecursiveLt(a, a));
  a.clear();
  b.clear();
}

TEST(RecursiveOrder, BigIntByValue) {
  BigInt x = BigInt(int64_t{1} << 62) * 16;
  EXPECT_EQ(Order(Any(x), Any(x + 1)), "TTFF");
  EXPECT_EQ(Order(Any(-x), Any(x)), "TTFF");
}

TEST(RecursiveOrder, DeepNestingDoesNotOverflowTheStack) {
  Any a = 1, b = 2;
  for (int i = 0; i < 10000; ++i) {
    a = List<Any>({a});
    b = List<Any>({b});
  }
  EXPECT_TRUE(RecursiveLt(a, b));
  EXPECT_FALSE(RecursiveEq(a, b));
}

// Expected values agree with the reference implementation.
TEST(RecursiveHash, PodValues) {
  EXPECT_EQ(RecursiveHash(Any()), 2654435769);
  EXPECT_EQ(RecursiveHash(true), 2654435896);
  EXPECT_EQ(RecursiveHash(false), 2654435899);
  EXPECT_EQ(RecursiveHash(1), 2654435835);
  EXPECT_EQ(RecursiveHash(-1), 2654435833);
  EXPECT_EQ(RecursiveHash(1.0), 4607182421454453370);
  EXPECT_EQ(RecursiveHash(StringToDLDataType("float32")), 11093831584875);
  EXPECT_EQ(RecursiveHash(StringToDLDataType("int8x4")), 11093831737491);
  EXPECT_EQ(RecursiveHash(DLDevice{kDLCPU, 0}), 175247678709);
  EXPECT_EQ(RecursiveHash(DLDevice{kDLCUDA, 1}), 175247678514);
  EXPECT_EQ(RecursiveHash(static_cast<void*>(nullptr)), 2654436030);
}

TEST(RecursiveHash, NaNAndSignedZerosHashAlike) {
  EXPECT_EQ(RecursiveHash(kNaN), 9221120239695526522);
  EXPECT_EQ(RecursiveHash(-kNaN), RecursiveHash(kNaN));
  EXPECT_EQ(RecursiveHash(0.0), 2654435962);
  EXPECT_EQ(RecursiveHash(-0.0), 2654435962);
}

TEST(RecursiveHash, StringsAndBytes) {
  EXPECT_EQ(RecursiveHash(String("a")), 2654439979);
  EXPECT_EQ(RecursiveHash(String("abcdefg")), 4352227701);
  EXPECT_EQ(RecursiveHash(String("abcdefgh")), 3546921335);
  EXPECT_EQ(RecursiveHash(String("abcdefghij")), 3873208543);
  EXPECT_EQ(RecursiveHash(String("abcdefghijklmnopq")), 3230802239);
  EXPECT_EQ(RecursiveHash(Bytes(std::string("a"))), 2654440168);
  EXPECT_EQ(RecursiveHash(Bytes(std::string("abcdefghijklmnopq"))), 3230802428);
}

TEST(RecursiveHash, Containers) {
  EXPECT_EQ(RecursiveHash(Array<Any>({1, 2})), 2823377144815479104);
  EXPECT_EQ(RecursiveHash(Array<Any>()), -2010874065908478216);
  EXPECT_EQ(RecursiveHash(List<Any>({1, 2})), -8389770539569074377);
  EXPECT_EQ(RecursiveHash(List<Any>({List<Any>()})), -1115783833051432923);
  EXPECT_EQ(RecursiveHash(Array<Any>({Any(), 1.5, String("abc"), Bytes(std::string("xy"))})),
            -8984709655255614254);
  EXPECT_EQ(RecursiveHash(Shape({1, 2})), 284796581919864599);
  Array<Any> x({1});
  EXPECT_EQ(RecursiveHash(Array<Any>({x, x})), 6030138136612915592);
}

TEST(RecursiveHash, ObjectWithoutFieldsHashesAsItsTypeKeyHash) {
  EXPECT_EQ(RecursiveHash(Function::FromTyped([]() {})), -5498301871167852995);
}

TEST(RecursiveHash, MapsIndependentOfOrder) {
  Map<Any, Any> m{{String("a"), 1}, {String("b"), 2}, {1, 3}};
  Map<Any, Any> n{{1, 3}, {String("b"), 2}, {String("a"), 1}};
  EXPECT_EQ(RecursiveHash(m), 4331231574368909248);
  EXPECT_EQ(RecursiveHash(n), 4331231574368909248);
  EXPECT_EQ(RecursiveHash(Map<Any, Any>{{String("a"), 1}}), 1832523115044983095);
  EXPECT_EQ(RecursiveHash(Dict<Any, Any>{{String("a"), 1}}), 737077992245535816);
}

TEST(RecursiveHash, CyclesHashTheBackReferenceAsItsTypeKeyHash) {
  List<Any> l({1});
  l.push_back(l);
  EXPECT_EQ(RecursiveHash(l), 5960482439972758480);
  l.clear();
  Dict<Any, Any> d{{String("a"), 1}};
  d.Set(String("self"), d);
  EXPECT_EQ(RecursiveHash(d), -3835102801398960221);
  d.clear();
}

TEST(RecursiveHash, ConsistentWithEquality) {
  std::string long_text(30, 'q');
  EXPECT_EQ(RecursiveHash(String(long_text)), RecursiveHash(String(long_text)));
  EXPECT_EQ(RecursiveHash(Array<Any>({kNaN, 0.0})), RecursiveHash(Array<Any>({-kNaN, -0.0})));
  EXPECT_NE(RecursiveHash(Array<Any>({1})), RecursiveHash(List<Any>({1})));
  BigInt x = BigInt(int64_t{1} << 62) * 16;
  EXPECT_EQ(RecursiveHash(Any(x)), RecursiveHash(Any(BigInt(int64_t{1} << 62) * 16)));
  EXPECT_NE(RecursiveHash(Any(x)), RecursiveHash(Any(x + 1)));
}

TEST(RecursiveHash, LinearOnSharedDags) {
  // 60 levels of [x, x]: exponential as a tree, linear with the memo.
  Any v = 1;
  for (int i = 0; i < 60; ++i) v = Array<Any>({v, v});
  int64_t h = RecursiveHash(v);
  EXPECT_EQ(h, RecursiveHash(v));
}

}  // namespace

namespace {

TEST(RecursiveHash, NestingBeyondTheStackLimitRaisesValueError) {
  tvm_ffi_testing::NestedLists deep(tvm_ffi_testing::kDepthBeyondTheStackLimit);
  tvm_ffi_testing::RunWithSmallStack(
      [&] {
        EXPECT_EQ(ErrorMessage([&] { RecursiveHash(deep.root()); }, "ValueError"),
                  "RecursiveHash: maximum stack depth (1048576) exceeded");
      },
      tvm_ffi_testing::kErrorStackBytes);
}

TEST(RecursiveCompare, NestingBeyondTheStackLimitRaisesValueErrorInEitherMode) {
  // Two distinct chains: a pair of identical pointers would compare equal at once.
  tvm_ffi_testing::NestedLists lhs(tvm_ffi_testing::kDepthBeyondTheStackLimit);
  tvm_ffi_testing::NestedLists rhs(tvm_ffi_testing::kDepthBeyondTheStackLimit);
  tvm_ffi_testing::RunWithSmallStack(
      [&] {
        EXPECT_EQ(ErrorMessage([&] { RecursiveEq(lhs.root(), rhs.root()); }, "ValueError"),
                  "RecursiveCompare: maximum stack depth (1048576) exceeded");
        EXPECT_EQ(ErrorMessage([&] { RecursiveLt(lhs.root(), rhs.root()); }, "ValueError"),
                  "RecursiveCompare: maximum stack depth (1048576) exceeded");
      },
      tvm_ffi_testing::kErrorStackBytes);
}

TEST(RecursiveOrder, IntAndBigIntOrderByValue) {
  BigInt above = BigInt(std::numeric_limits<int64_t>::max()) + 1;
  EXPECT_TRUE(RecursiveLt(1, above));
  EXPECT_TRUE(RecursiveGt(above, std::numeric_limits<int64_t>::max()));
  EXPECT_TRUE(RecursiveLt(-above - 1, std::numeric_limits<int64_t>::min()));
  EXPECT_FALSE(RecursiveEq(above, 1));
  EXPECT_EQ(ErrorMessage([&] { RecursiveLt(1.0, above); }),
            "Cannot compare values of different types: float vs ffi.BigInt");
}

}  // namespace
