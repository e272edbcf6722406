// Tests of integers beyond int64: the C functions TVMFFIBigIntFromByteArray /
// TVMFFIBigIntGetContentByteArray, the BigInt object layout, and the C++
// class BigInt (arithmetic, text, conversions, Any).
#include <gtest/gtest.h>
#include <tvm/ffi/any.h>
#include <tvm/ffi/big_int.h>
#include <tvm/ffi/c_api.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/function.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <sstream>
#include <string>
#include <unordered_set>
#include <vector>

#include "testing_helpers.h"

namespace {

namespace ffi = tvm::ffi;
using ffi::Any;
using ffi::BigInt;
using tvm_ffi_testing::CatchError;

ffi::Error TakeRaised() { return ffi::detail::MoveFromRaised(); }

/*! \brief TVMFFIBigIntFromByteArray over words; the result is owned by the caller. */
TVMFFIAny FromWords(const std::vector<int64_t>& words) {
  TVMFFIByteArray bytes{reinterpret_cast<const char*>(words.data()),
                        words.size() * sizeof(int64_t)};
  TVMFFIAny out;
  EXPECT_EQ(TVMFFIBigIntFromByteArray(&bytes, &out), 0);
  return out;
}

std::vector<int64_t> ContentWords(const TVMFFIAny& value) {
  TVMFFIByteArray bytes = TVMFFIBigIntGetContentByteArray(&value);
  std::vector<int64_t> words(bytes.size / sizeof(int64_t));
  if (bytes.size != 0) std::memcpy(words.data(), bytes.data, bytes.size);
  return words;
}

BigInt Big(const char* text) { return BigInt::FromString(text); }

// ---------------------------------------------------------------------------
// C functions and layout
// ---------------------------------------------------------------------------

TEST(BigIntCAPI, ValueThatFitsInt64IsAPlainInt) {
  TVMFFIAny out = FromWords({-5});
  EXPECT_EQ(out.type_index, kTVMFFIInt);
  EXPECT_EQ(out.v_int64, -5);
}

TEST(BigIntCAPI, EmptyContentIsZero) {
  TVMFFIAny out = FromWords({});
  EXPECT_EQ(out.type_index, kTVMFFIInt);
  EXPECT_EQ(out.v_int64, 0);
}

TEST(BigIntCAPI, RedundantSignWordsAreDropped) {
  TVMFFIAny pos = FromWords({7, 0, 0});
  EXPECT_EQ(pos.type_index, kTVMFFIInt);
  EXPECT_EQ(pos.v_int64, 7);
  TVMFFIAny neg = FromWords({-7, -1, -1});
  EXPECT_EQ(neg.type_index, kTVMFFIInt);
  EXPECT_EQ(neg.v_int64, -7);
}

TEST(BigIntCAPI, ValueBeyondInt64IsANormalisedObject) {
  // 2^63: the low word has its top bit set, so a zero sign word must stay.
  TVMFFIAny out = FromWords({std::numeric_limits<int64_t>::min(), 0, 0, 0});
  ASSERT_EQ(out.type_index, kTVMFFIBigInt);
  EXPECT_EQ(TVMFFIObjectGetTypeIndex(out.v_obj), kTVMFFIBigInt);
  // Layout: header, size_t word count, then the words.
  const char* base = reinterpret_cast<const char*>(out.v_obj);
  size_t count;
  std::memcpy(&count, base + sizeof(TVMFFIObject), sizeof(size_t));
  EXPECT_EQ(count, 2u);
  int64_t words[2];
  std::memcpy(words, base + sizeof(TVMFFIObject) + sizeof(size_t), sizeof(words));
  EXPECT_EQ(words[0], std::numeric_limits<int64_t>::min());
  EXPECT_EQ(words[1], 0);
  EXPECT_EQ(ContentWords(out), (std::vector<int64_t>{std::numeric_limits<int64_t>::min(), 0}));
  TVMFFIObjectDecRef(out.v_obj);
}

TEST(BigIntCAPI, ContentOfAnIntIsItsOwnWord) {
  TVMFFIAny v;
  v.type_index = kTVMFFIInt;
  v.zero_padding = 0;
  v.v_int64 = -42;
  TVMFFIByteArray bytes = TVMFFIBigIntGetContentByteArray(&v);
  EXPECT_EQ(bytes.data, reinterpret_cast<const char*>(&v.v_int64));
  EXPECT_EQ(bytes.size, 8u);
}

TEST(BigIntCAPI, ContentOfOtherTypesIsEmpty) {
  TVMFFIAny v;
  v.type_index = kTVMFFIFloat;
  v.zero_padding = 0;
  v.v_float64 = 1.0;
  TVMFFIByteArray bytes = TVMFFIBigIntGetContentByteArray(&v);
  EXPECT_EQ(bytes.size, 0u);
  EXPECT_EQ(TVMFFIBigIntGetContentByteArray(nullptr).size, 0u);
}

TEST(BigIntCAPI, PartialWordIsAValueError) {
  char data[12] = {0};
  TVMFFIByteArray bytes{data, sizeof(data)};
  TVMFFIAny out;
  EXPECT_EQ(TVMFFIBigIntFromByteArray(&bytes, &out), -1);
  ffi::Error e = TakeRaised();
  EXPECT_EQ(e.kind(), "ValueError");
  EXPECT_EQ(e.message(), "BigInt content must contain whole 64-bit words");
}

TEST(BigIntCAPI, NullArgumentsAreAValueError) {
  TVMFFIAny out;
  EXPECT_EQ(TVMFFIBigIntFromByteArray(nullptr, &out), -1);
  EXPECT_EQ(TakeRaised().kind(), "ValueError");
  TVMFFIByteArray bytes{nullptr, 0};
  EXPECT_EQ(TVMFFIBigIntFromByteArray(&bytes, nullptr), -1);
  EXPECT_EQ(TakeRaised().kind(), "ValueError");
}

TEST(BigIntCAPI, UnalignedInputIsRead) {
  alignas(8) char buffer[17];
  int64_t words[2] = {1, 2};
  std::memcpy(buffer + 1, words, sizeof(words));
  TVMFFIByteArray bytes{buffer + 1, sizeof(words)};
  TVMFFIAny out;
  ASSERT_EQ(TVMFFIBigIntFromByteArray(&bytes, &out), 0);
  EXPECT_EQ(ContentWords(out), (std::vector<int64_t>{1, 2}));
  TVMFFIObjectDecRef(out.v_obj);
}

TEST(BigIntCAPI, RegisteredAsStaticTypeFfiBigInt) {
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(kTVMFFIBigInt);
  ASSERT_NE(info, nullptr);
  EXPECT_EQ(std::string(info->type_key.data, info->type_key.size), "ffi.BigInt");
  EXPECT_EQ(info->type_depth, 1);
}

// ---------------------------------------------------------------------------
// The C++ class
// ---------------------------------------------------------------------------

TEST(BigInt, DefaultIsZero) {
  BigInt z;
  EXPECT_FALSE(static_cast<bool>(z));
  EXPECT_EQ(z.ToString(), "0");
  EXPECT_FALSE(z.is_heap());
}

TEST(BigInt, Uint64AboveInt64MaxIsAHeapValue) {
  BigInt v = std::numeric_limits<uint64_t>::max();
  EXPECT_TRUE(v.is_heap());
  EXPECT_EQ(v.ToString(), "18446744073709551615");
  EXPECT_EQ(v.as<uint64_t>(), std::numeric_limits<uint64_t>::max());
  EXPECT_EQ(v.as<int64_t>(), std::nullopt);
}

TEST(BigInt, TextRoundTrip) {
  for (const char* text : {"0", "1", "-1", "9223372036854775807", "-9223372036854775808",
                           "9223372036854775808", "-9223372036854775809", "1180591620717411303424",
                           "-1180591620717411303424", "340282366920938463463374607431768211456",
                           "1000000000000000000000000000000000000000000000000000000001"}) {
    EXPECT_EQ(Big(text).ToString(), text);
  }
  EXPECT_EQ(Big("+17").ToString(), "17");
  EXPECT_EQ(Big("-0").ToString(), "0");
}

TEST(BigInt, InvalidTextIsAValueError) {
  for (const char* text : {"", "-", "12a", "1.5", " 1"}) {
    ffi::Error e = CatchError([&] { Big(text); });
    EXPECT_EQ(e.kind(), "ValueError") << text;
  }
}

TEST(BigInt, StreamsReadAndWriteDecimal) {
  std::istringstream in("  -1180591620717411303424 rest");
  BigInt v;
  in >> v;
  EXPECT_TRUE(static_cast<bool>(in));
  EXPECT_EQ(v, -(BigInt(1) << 70));
  std::ostringstream out;
  out << v;
  EXPECT_EQ(out.str(), "-1180591620717411303424");
  std::istringstream bad("x");
  BigInt w = 5;
  bad >> w;
  EXPECT_TRUE(bad.fail());
  EXPECT_EQ(w, 5);
}

TEST(BigInt, AdditionAndSubtractionCarryIntoHeapValues) {
  BigInt max = std::numeric_limits<int64_t>::max();
  BigInt over = max + 1;
  EXPECT_TRUE(over.is_heap());
  EXPECT_EQ(over.ToString(), "9223372036854775808");
  EXPECT_EQ(over - 1, max);
  EXPECT_FALSE((over - 1).is_heap());
  BigInt min = std::numeric_limits<int64_t>::min();
  EXPECT_EQ((min - 1).ToString(), "-9223372036854775809");
  EXPECT_EQ(Big("340282366920938463463374607431768211455") + 1,
            Big("340282366920938463463374607431768211456"));
  EXPECT_EQ(Big("-340282366920938463463374607431768211456") +
                Big("340282366920938463463374607431768211456"),
            0);
}

TEST(BigInt, Multiplication) {
  BigInt a = Big("123456789012345678901234567890");
  BigInt b = Big("-987654321098765432109876543210");
  EXPECT_EQ((a * b).ToString(), "-121932631137021795226185032733622923332237463801111263526900");
  EXPECT_EQ(a * 0, 0);
  EXPECT_EQ((BigInt(int64_t{1} << 62) * 4).ToString(), "18446744073709551616");
  EXPECT_EQ(BigInt(std::numeric_limits<int64_t>::min()) * -1, Big("9223372036854775808"));
}

TEST(BigInt, DivisionTruncatesTowardZero) {
  EXPECT_EQ(BigInt(7) / 2, 3);
  EXPECT_EQ(BigInt(-7) / 2, -3);
  EXPECT_EQ(BigInt(-7) % 2, -1);
  EXPECT_EQ(BigInt(7) % -2, 1);
  BigInt big = Big("1180591620717411303424");  // 2^70
  EXPECT_EQ(big / 1024, BigInt(int64_t{1} << 60));
  EXPECT_EQ((-big - 1) / big, -1);
  EXPECT_EQ((-big - 1) % big, -1);
  EXPECT_EQ(Big("121932631137021795226185032733622923332237463801111263526900") /
                Big("123456789012345678901234567890"),
            Big("987654321098765432109876543210"));
  EXPECT_EQ(BigInt(std::numeric_limits<int64_t>::min()) / -1, Big("9223372036854775808"));
}

TEST(BigInt, FloorDivisionRoundsDown) {
  EXPECT_EQ(floordiv(BigInt(-7), 2), -4);
  EXPECT_EQ(floormod(BigInt(-7), 2), 1);
  EXPECT_EQ(floordiv(BigInt(7), -2), -4);
  EXPECT_EQ(floormod(BigInt(7), -2), -1);
  EXPECT_EQ(floordiv(BigInt(6), -2), -3);
  EXPECT_EQ(floormod(BigInt(6), -2), 0);
  BigInt big = Big("1180591620717411303424");
  EXPECT_EQ(floordiv(-big - 1, big), -2);
  EXPECT_EQ(floormod(-big - 1, big), big - 1);
  EXPECT_EQ(truncdiv(BigInt(-7), 2), -3);
  EXPECT_EQ(truncmod(BigInt(-7), 2), -1);
}

TEST(BigInt, DivisionByZeroIsAZeroDivisionError) {
  for (auto op : {+[] { return BigInt(1) / 0; }, +[] { return BigInt(1) % 0; },
                  +[] { return floordiv(Big("1180591620717411303424"), 0); }}) {
    ffi::Error e = CatchError([&] { op(); });
    EXPECT_EQ(e.kind(), "ZeroDivisionError");
    EXPECT_EQ(e.message(), "Division by zero");
  }
}

TEST(BigInt, BitwiseOperatorsUseTwosComplement) {
  BigInt big = BigInt(1) << 100;
  EXPECT_EQ((big | 5) & ~BigInt(1), big + 4);
  EXPECT_EQ((big ^ big), 0);
  EXPECT_EQ((-big) & big, big);  // -2^100 = ...1 followed by 100 zeros
  EXPECT_EQ(~BigInt(0), -1);
  EXPECT_EQ(BigInt(-1) & big, big);
  EXPECT_EQ(BigInt(12) ^ 10, 6);
}

TEST(BigInt, ShiftsMultiplyAndFloorDivideByPowersOfTwo) {
  EXPECT_EQ((BigInt(1) << 70).ToString(), "1180591620717411303424");
  EXPECT_EQ((BigInt(3) << 64).ToString(), "55340232221128654848");
  EXPECT_EQ((BigInt(1) << 70) >> 70, 1);
  EXPECT_EQ(BigInt(-1) >> 1000, -1);
  EXPECT_EQ(BigInt(-5) >> 1, -3);
  EXPECT_EQ((-(BigInt(1) << 100)) >> 99, -2);
  EXPECT_EQ(BigInt(5) >> 3, 0);
  EXPECT_EQ(BigInt(5) >> (BigInt(1) << 80), 0);
}

TEST(BigInt, NegativeShiftIsAValueError) {
  ffi::Error e = CatchError([] { return BigInt(1) << -1; });
  EXPECT_EQ(e.kind(), "ValueError");
  EXPECT_EQ(e.message(), "Negative BigInt shift count");
  EXPECT_EQ(CatchError([] { return BigInt(1) >> -1; }).kind(), "ValueError");
}

TEST(BigInt, HugeShiftIsAnOverflowError) {
  ffi::Error e = CatchError([] { return BigInt(1) << (BigInt(1) << 80); });
  EXPECT_EQ(e.kind(), "OverflowError");
  EXPECT_EQ(e.message(), "BigInt shift count is too large");
  EXPECT_EQ(BigInt(0) << 5, 0);
}

TEST(BigInt, ComparisonsAcrossSizesAndSigns) {
  BigInt big = Big("1180591620717411303424");
  EXPECT_LT(-big, BigInt(std::numeric_limits<int64_t>::min()));
  EXPECT_GT(big, BigInt(std::numeric_limits<int64_t>::max()));
  EXPECT_LT(big, big + 1);
  EXPECT_LE(big, big);
  EXPECT_GE(-big, -big - 1);
  EXPECT_NE(big, -big);
  EXPECT_TRUE(5 < big);
  EXPECT_EQ(min(big, BigInt(3)), 3);
  EXPECT_EQ(max(-big, BigInt(-3)), -3);
}

TEST(BigInt, CompoundIncrementAndUnaryOperators) {
  BigInt v = std::numeric_limits<int64_t>::max();
  BigInt old = v++;
  EXPECT_EQ(old, std::numeric_limits<int64_t>::max());
  EXPECT_TRUE(v.is_heap());
  --v;
  EXPECT_FALSE(v.is_heap());
  v += v;
  v *= 3;
  v -= 1;
  v /= 2;
  v %= 1000;
  v <<= 2;
  v >>= 1;
  v |= 1;
  v &= 0xff;
  v ^= 0xf;
  EXPECT_EQ(
      v,
      ((((((BigInt(std::numeric_limits<int64_t>::max()) * 2 * 3 - 1) / 2) % 1000) << 2 >> 1) | 1) &
       0xff) ^
          0xf);
  EXPECT_EQ(+v, v);
  EXPECT_EQ(-(-v), v);
}

TEST(BigInt, MoveLeavesTheSourceZero) {
  BigInt a = BigInt(1) << 90;
  BigInt b = std::move(a);
  EXPECT_EQ(a, 0);  // NOLINT(bugprone-use-after-move)
  EXPECT_EQ(b, BigInt(1) << 90);
  BigInt c;
  c = std::move(b);
  EXPECT_EQ(b, 0);  // NOLINT(bugprone-use-after-move)
  swap(a, c);
  EXPECT_EQ(a, BigInt(1) << 90);
  EXPECT_EQ(c, 0);
}

TEST(BigInt, Int64ConversionChecksRange) {
  EXPECT_EQ(static_cast<int64_t>(BigInt(-3)), -3);
  ffi::Error e = CatchError([] { return static_cast<int64_t>(BigInt(1) << 63); });
  EXPECT_EQ(e.kind(), "OverflowError");
  EXPECT_EQ(e.message(), "BigInt does not fit int64_t");
  EXPECT_EQ(BigInt(300).as<uint8_t>(), std::nullopt);
  EXPECT_EQ(BigInt(-1).as<uint32_t>(), std::nullopt);
  EXPECT_EQ(BigInt(200).as<uint8_t>(), 200);
}

TEST(BigInt, DoubleConversions) {
  EXPECT_EQ(BigInt(2.9), 2);
  EXPECT_EQ(BigInt(-2.9), -2);
  EXPECT_EQ(BigInt(std::ldexp(1.0, 70)), BigInt(1) << 70);
  EXPECT_EQ(BigInt(-std::ldexp(3.0, 100)), -(BigInt(3) << 100));
  EXPECT_EQ(static_cast<double>(BigInt(1) << 70), std::ldexp(1.0, 70));
  EXPECT_EQ(static_cast<double>(-(BigInt(5) << 200)), -std::ldexp(5.0, 200));
  ffi::Error nan = CatchError([] { return BigInt(std::nan("")); });
  EXPECT_EQ(nan.kind(), "ValueError");
  EXPECT_EQ(nan.message(), "Cannot convert NaN to BigInt");
  ffi::Error inf = CatchError([] { return BigInt(-std::numeric_limits<double>::infinity()); });
  EXPECT_EQ(inf.kind(), "OverflowError");
  EXPECT_EQ(inf.message(), "Cannot convert infinity to BigInt");
  ffi::Error big = CatchError([] { return static_cast<double>(BigInt(1) << 1100); });
  EXPECT_EQ(big.kind(), "OverflowError");
  EXPECT_EQ(big.message(), "BigInt does not fit finite double");
}

TEST(BigInt, EqualValuesHashEqual) {
  BigInt a = (BigInt(1) << 100) + 7;
  BigInt b = Big("1267650600228229401496703205383");
  EXPECT_EQ(a, b);
  EXPECT_EQ(a.hash(), b.hash());
  EXPECT_EQ(BigInt(-1).hash(), std::numeric_limits<uint64_t>::max());
  std::unordered_set<BigInt> set{a, BigInt(1), BigInt(-1)};
  EXPECT_EQ(set.count(b), 1u);
  EXPECT_EQ(set.size(), 3u);
}

// ---------------------------------------------------------------------------
// Any and functions
// ---------------------------------------------------------------------------

TEST(BigIntAny, SmallValueIsStoredAsInt) {
  Any v = BigInt(42);
  EXPECT_EQ(v.type_index(), kTVMFFIInt);
  EXPECT_EQ(v.cast<int64_t>(), 42);
  EXPECT_EQ(Any(7).cast<BigInt>(), 7);
}

TEST(BigIntAny, LargeValueIsStoredAsABigIntObject) {
  Any v = BigInt(1) << 80;
  EXPECT_EQ(v.type_index(), kTVMFFIBigInt);
  EXPECT_EQ(v.cast<BigInt>(), BigInt(1) << 80);
  EXPECT_EQ(v.as<BigInt>().value(), BigInt(1) << 80);
  EXPECT_EQ(v.GetTypeKey(), "ffi.BigInt");
}

TEST(BigIntAny, CastAcceptsBool) {
  EXPECT_EQ(Any(true).cast<BigInt>(), 1);
  EXPECT_FALSE(Any(true).as<BigInt>().has_value());
}

TEST(BigIntAny, CastFromOtherTypesIsATypeError) {
  ffi::Error e = CatchError([] { Any(1.5).cast<BigInt>(); });
  EXPECT_EQ(e.kind(), "TypeError");
  EXPECT_NE(e.message().find("BigInt"), std::string::npos) << e.message();
}

TEST(BigIntAny, AnyKeepsTheObjectAlive) {
  Any v;
  {
    BigInt b = BigInt(1) << 90;
    v = b;
  }
  EXPECT_EQ(v.cast<BigInt>().ToString(), "1237940039285380274899124224");
}

TEST(BigIntAny, InArrays) {
  ffi::Array<BigInt> arr{BigInt(1) << 70, BigInt(-3)};
  Any stored = arr;
  ffi::Array<BigInt> back = stored.cast<ffi::Array<BigInt>>();
  EXPECT_EQ(back[0], BigInt(1) << 70);
  EXPECT_EQ(back[1], -3);
}

TEST(BigIntAny, TypedFunctionTakesAndReturnsBigInt) {
  ffi::Function square = ffi::Function::FromTyped([](BigInt x) { return x * x; });
  EXPECT_EQ(square(BigInt(1) << 40).cast<BigInt>(), BigInt(1) << 80);
  EXPECT_EQ(square(3).cast<BigInt>(), 9);
}

TEST(BigIntAny, Int64ParameterRejectsABigIntNamingTheArgument) {
  ffi::Function f = ffi::Function::FromTyped([](int64_t x) { return x; }, "test.bigint_take");
  ffi::Error e = CatchError([&] { f(BigInt(1) << 70); });
  EXPECT_EQ(e.kind(), "TypeError");
  EXPECT_NE(e.message().find("argument #0"), std::string::npos) << e.message();
  EXPECT_NE(e.message().find("BigInt"), std::string::npos) << e.message();
}

TEST(BigIntAny, TypeStrAndSchema) {
  EXPECT_EQ(ffi::TypeTraits<BigInt>::TypeStr(), "BigInt");
  EXPECT_EQ(ffi::TypeTraits<BigInt>::TypeSchema(), "{\"type\":\"ffi.BigInt\"}");
}

}  // namespace
