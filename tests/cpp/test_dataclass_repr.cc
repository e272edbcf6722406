// ReprPrint and operator<< of extra/dataclass.h on PODs and containers.
#include <gtest/gtest.h>
#include <tvm/ffi/any.h>
#include <tvm/ffi/big_int.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/dict.h>
#include <tvm/ffi/container/list.h>
#include <tvm/ffi/container/map.h>
#include <tvm/ffi/container/shape.h>
#include <tvm/ffi/container/tensor.h>
#include <tvm/ffi/dtype.h>
#include <tvm/ffi/extra/dataclass.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/string.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "testing_helpers.h"

namespace {

using namespace tvm::ffi;
using tvm_ffi_testing::ErrorMessage;

std::string Repr(const Any& v) { return std::string(ReprPrint(v)); }

struct ReprCPUAlloc {
  void AllocData(DLTensor* tensor) { tensor->data = malloc(GetDataSize(*tensor)); }
  void FreeData(DLTensor* tensor) { free(tensor->data); }
};

/*! \brief Sets TVM_FFI_REPR_WITH_ADDR for the scope of a test. */
struct ReprWithAddr {
  ReprWithAddr() { setenv("TVM_FFI_REPR_WITH_ADDR", "1", 1); }
  ~ReprWithAddr() { unsetenv("TVM_FFI_REPR_WITH_ADDR"); }
};

std::string Addr(const void* p) {
  std::ostringstream os;
  os << "@0x" << std::hex << reinterpret_cast<uintptr_t>(p);
  return os.str();
}

TEST(ReprPrint, NoneBoolInt) {
  EXPECT_EQ(Repr(Any()), "None");
  EXPECT_EQ(Repr(true), "True");
  EXPECT_EQ(Repr(false), "False");
  EXPECT_EQ(Repr(42), "42");
  EXPECT_EQ(Repr(int64_t{-9223372036854775807 - 1}), "-9223372036854775808");
}

TEST(ReprPrint, FloatsUseSixSignificantDigits) {
  EXPECT_EQ(Repr(1.0), "1");
  EXPECT_EQ(Repr(2.5), "2.5");
  EXPECT_EQ(Repr(1.0 / 3), "0.333333");
  EXPECT_EQ(Repr(1e20), "1e+20");
  EXPECT_EQ(Repr(1e-7), "1e-07");
  EXPECT_EQ(Repr(123456789.0), "1.23457e+08");
  EXPECT_EQ(Repr(-0.0), "-0");
  EXPECT_EQ(Repr(std::numeric_limits<double>::quiet_NaN()), "nan");
  EXPECT_EQ(Repr(std::numeric_limits<double>::infinity()), "inf");
  EXPECT_EQ(Repr(-std::numeric_limits<double>::infinity()), "-inf");
}

TEST(ReprPrint, DataTypeAndDevice) {
  EXPECT_EQ(Repr(StringToDLDataType("float32")), "float32");
  EXPECT_EQ(Repr(StringToDLDataType("int8x4")), "int8x4");
  EXPECT_EQ(Repr(DLDevice{kDLCPU, 0}), "cpu:0");
  EXPECT_EQ(Repr(DLDevice{kDLCUDA, 1}), "cuda:1");
  EXPECT_EQ(Repr(DLDevice{kDLCUDAHost, 0}), "cuda_host:0");
  EXPECT_EQ(Repr(DLDevice{static_cast<DLDeviceType>(18), 0}), "trn:0");
  EXPECT_EQ(Repr(DLDevice{static_cast<DLDeviceType>(99), 2}), "unknown:2");
}

TEST(ReprPrint, OtherPodPrintsItsTypeKey) {
  int x = 0;
  EXPECT_EQ(Repr(static_cast<void*>(&x)), "void*");
  EXPECT_EQ(Repr(static_cast<void*>(nullptr)), "void*");
}

TEST(ReprPrint, StringEscapesLikePython) {
  EXPECT_EQ(Repr(String("a")), "\"a\"");
  EXPECT_EQ(Repr(String("a\nb\t\"\\\r\x01\x7f")), "\"a\\nb\\t\\\"\\\\\\r\\x01\\x7f\"");
  EXPECT_EQ(Repr(String("\x1b[31mred\x1b[0m")), "\"\\x1b[31mred\\x1b[0m\"");
  EXPECT_EQ(Repr(String(std::string("a\0b", 3))), "\"a\\x00b\"");
}

TEST(ReprPrint, StringNonAsciiAsUnicodeEscapes) {
  EXPECT_EQ(Repr(String("\xc3\xa9")), "\"\\u00e9\"");              // é
  EXPECT_EQ(Repr(String("\xe4\xb8\xad")), "\"\\u4e2d\"");          // 中
  EXPECT_EQ(Repr(String("\xf0\x9f\x98\x80")), "\"\\U0001f600\"");  // 😀
  EXPECT_EQ(Repr(String("\xc2\x80")), "\"\\u0080\"");
}

TEST(ReprPrint, StringInvalidUtf8BytesAsHex) {
  EXPECT_EQ(Repr(String("\xff"
                        "a")),
            "\"\\xffa\"");
  EXPECT_EQ(Repr(String("\xc3")), "\"\\xc3\"");                    // truncated sequence
  EXPECT_EQ(Repr(String("\xc0\xaf")), "\"\\xc0\\xaf\"");           // overlong form
  EXPECT_EQ(Repr(String("\xed\xa0\x80")), "\"\\xed\\xa0\\x80\"");  // surrogate
}

TEST(ReprPrint, SmallAndHeapStringsPrintAlike) {
  EXPECT_EQ(Repr(String("abc")), "\"abc\"");
  EXPECT_EQ(Repr(String("a long string that is stored on the heap")),
            "\"a long string that is stored on the heap\"");
}

TEST(ReprPrint, BytesEscapeQuotesBackslashAndNonPrintable) {
  EXPECT_EQ(Repr(Bytes(std::string("ab\"\\\x00\xff ~", 8))), "b\"ab\\x22\\x5c\\x00\\xff ~\"");
  EXPECT_EQ(Repr(Bytes(std::string(20, 'x'))), "b\"" + std::string(20, 'x') + "\"");
}

TEST(ReprPrint, ArrayIsATuple) {
  EXPECT_EQ(Repr(Array<Any>()), "()");
  EXPECT_EQ(Repr(Array<Any>({1})), "(1,)");
  EXPECT_EQ(Repr(Array<Any>({Any(), true, String("x")})), "(None, True, \"x\")");
}

TEST(ReprPrint, ListUsesBrackets) {
  EXPECT_EQ(Repr(List<Any>()), "[]");
  EXPECT_EQ(Repr(List<Any>({1, 2})), "[1, 2]");
}

TEST(ReprPrint, MapAndDictInIterationOrder) {
  Map<Any, Any> m;
  m.Set(String("a"), 1);
  m.Set(String("b"), 2);
  m.Set(1, 3);
  EXPECT_EQ(Repr(m), "{\"a\": 1, \"b\": 2, 1: 3}");
  Dict<Any, Any> d;
  EXPECT_EQ(Repr(d), "{}");
  d.Set(Array<Any>({1}), List<Any>({2}));
  EXPECT_EQ(Repr(d), "{(1,): [2]}");
}

TEST(ReprPrint, ShapeAndTensor) {
  EXPECT_EQ(Repr(Shape({1, 2})), "Shape(1, 2)");
  EXPECT_EQ(Repr(Shape(std::vector<int64_t>{})), "Shape()");
  Tensor t = Tensor::FromNDAlloc(ReprCPUAlloc(), {2, 3}, StringToDLDataType("float32"),
                                 DLDevice{kDLCPU, 0});
  EXPECT_EQ(Repr(t), "float32[2, 3]@cpu:0");
}

TEST(ReprPrint, FunctionPrintsItsTypeKey) {
  EXPECT_EQ(Repr(Function::FromTyped([](int x) { return x; })), "ffi.Function");
}

TEST(ReprPrint, BigIntPrintsDecimal) {
  BigInt big = BigInt(int64_t{1} << 62) * BigInt(int64_t{1} << 62);
  EXPECT_EQ(Repr(Any(big)), "21267647932558653966460912964485513216");
}

TEST(ReprPrint, SentinelsPrintTheirNames) {
  Any missing = Function::GetGlobalRequired("ffi.GetInvalidObject")();
  Any kwargs = Function::GetGlobalRequired("ffi.GetKwargsObject")();
  EXPECT_EQ(Repr(missing), "<MISSING>");
  EXPECT_EQ(Repr(Array<Any>({kwargs})), "(<KWARGS>,)");
  EXPECT_TRUE(DeepCopy(missing).same_as(missing));
}

TEST(ReprPrint, SelfContainingListPrintsEllipsis) {
  List<Any> l({1});
  l.push_back(l);
  EXPECT_EQ(Repr(l), "[1, ...]");
  l.clear();
}

TEST(ReprPrint, SelfContainingDictPrintsEllipsis) {
  Dict<Any, Any> d;
  d.Set(String("a"), 1);
  d.Set(String("self"), d);
  EXPECT_EQ(Repr(d), "{\"a\": 1, \"self\": ...}");
  d.clear();
}

TEST(ReprPrint, SharedValuePrintedInFullEachTime) {
  Array<Any> x({1});
  EXPECT_EQ(Repr(Array<Any>({x, x})), "((1,), (1,))");
}

TEST(ReprPrint, DeepNestingDoesNotOverflowTheStack) {
  Any v = 0;
  for (int i = 0; i < 10000; ++i) v = Array<Any>({v});
  std::string text = Repr(v);
  EXPECT_EQ(text.size(), 10000 * 3 + 1);
  EXPECT_EQ(text.substr(0, 4), "((((");
}

TEST(ReprPrint, NestingBeyondTheStackLimitRaisesValueError) {
  tvm_ffi_testing::NestedLists deep(tvm_ffi_testing::kDepthBeyondTheStackLimit);
  tvm_ffi_testing::RunWithSmallStack(
      [&] {
        EXPECT_EQ(ErrorMessage([&] { ReprPrint(deep.root()); }, "ValueError"),
                  "ReprPrint: maximum stack depth (1048576) exceeded");
      },
      tvm_ffi_testing::kErrorStackBytes);
}

TEST(ReprPrint, WithAddrMarksContainersAndCycles) {
  ReprWithAddr env;
  List<Any> l({1});
  l.push_back(l);
  const void* p = l.get();
  EXPECT_EQ(Repr(l), "[1, ..." + Addr(p) + "]" + Addr(p));
  l.clear();
  Map<Any, Any> m;
  EXPECT_EQ(Repr(m), "{}" + Addr(m.get()));
  EXPECT_EQ(Repr(Shape({3})), "Shape(3)");
  Tensor t =
      Tensor::FromNDAlloc(ReprCPUAlloc(), {2}, StringToDLDataType("int64"), DLDevice{kDLCPU, 0});
  EXPECT_EQ(Repr(t), "int64[2]@cpu:0" + Addr(t.get()));
  Function f = Function::FromTyped([]() {});
  EXPECT_EQ(Repr(f), "ffi.Function" + Addr(f.get()));
}

TEST(ReprPrintStream, AnyPrintsItsRepr) {
  std::ostringstream os;
  os << Any(Array<Any>({1, String("x")})) << " " << AnyView(2.5);
  EXPECT_EQ(os.str(), "(1, \"x\") 2.5");
}

TEST(ReprPrintStream, ObjectRefOptionalAndVariant) {
  std::ostringstream os;
  os << Array<int>({1, 2}) << " " << Optional<int>() << " " << Optional<int>(3) << " "
     << Variant<int, String>(String("s")) << " " << List<Any>({Any()});
  EXPECT_EQ(os.str(), "(1, 2) None 3 \"s\" [None]");
}

TEST(ReprPrintStream, StringKeepsItsPlainOutput) {
  std::ostringstream os;
  os << String("plain");
  EXPECT_EQ(os.str(), "plain");
}

}  // namespace
