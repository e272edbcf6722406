/*
 * Tests of TVMFFIDataTypeFromString / TVMFFIDataTypeToString through the C
 * API alone: every named dtype round-trips with the expected code, bits and
 * lanes, the lossy printing rules of the reference (cpp_api.md §6.5) hold, and
 * malformed strings raise a ValueError worded as the reference words it.
 */
#include <gtest/gtest.h>
#include <tvm/ffi/c_api.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

namespace {

// Layout of heap objects: the cell follows the 24-byte header.
constexpr size_t kCellOffset = sizeof(TVMFFIObject);

template <typename Cell>
const Cell* CellOf(void* object) {
  return reinterpret_cast<const Cell*>(static_cast<char*>(object) + kCellOffset);
}

std::string ViewOf(const TVMFFIByteArray& bytes) { return std::string(bytes.data, bytes.size); }

/*! \brief Move the string held by an owned Any out, releasing the Any. */
std::string TakeString(TVMFFIAny* any) {
  if (any->type_index == kTVMFFISmallStr) {
    EXPECT_LE(any->small_str_len, 7u);
    EXPECT_EQ(any->v_bytes[any->small_str_len], '\0');
    return std::string(any->v_bytes, any->small_str_len);
  }
  EXPECT_EQ(any->type_index, kTVMFFIStr);
  if (any->type_index != kTVMFFIStr) return std::string();
  const TVMFFIByteArray* cell = CellOf<TVMFFIByteArray>(any->v_obj);
  EXPECT_EQ(cell->data[cell->size], '\0');
  std::string result = ViewOf(*cell);
  EXPECT_EQ(TVMFFIObjectDecRef(any->v_obj), 0);
  any->type_index = kTVMFFINone;
  return result;
}

int Parse(const std::string& text, DLDataType* out) {
  TVMFFIByteArray bytes;
  bytes.data = text.data();
  bytes.size = text.size();
  return TVMFFIDataTypeFromString(&bytes, out);
}

std::string Print(DLDataType dtype) {
  TVMFFIAny any;
  std::memset(&any, 0, sizeof(any));
  any.type_index = kTVMFFINone;
  EXPECT_EQ(TVMFFIDataTypeToString(&dtype, &any), 0);
  return TakeString(&any);
}

/*! \brief Kind and message of the raised error, which is taken and released. */
std::pair<std::string, std::string> TakeRaisedError() {
  TVMFFIObjectHandle error = nullptr;
  TVMFFIErrorMoveFromRaised(&error);
  EXPECT_NE(error, nullptr);
  if (error == nullptr) return {};
  EXPECT_EQ(static_cast<TVMFFIObject*>(error)->type_index, kTVMFFIError);
  const TVMFFIErrorCell* cell = CellOf<TVMFFIErrorCell>(error);
  std::pair<std::string, std::string> result(ViewOf(cell->kind), ViewOf(cell->message));
  EXPECT_EQ(TVMFFIObjectDecRef(error), 0);
  return result;
}

struct Case {
  const char* text;
  int code;
  int bits;
  int lanes;
};

const std::vector<Case>& NamedCases() {
  static const std::vector<Case> cases = {
      {"int8", kDLInt, 8, 1},
      {"int16", kDLInt, 16, 1},
      {"int32", kDLInt, 32, 1},
      {"int64", kDLInt, 64, 1},
      {"uint1", kDLUInt, 1, 1},
      {"uint8", kDLUInt, 8, 1},
      {"uint16", kDLUInt, 16, 1},
      {"uint32", kDLUInt, 32, 1},
      {"uint64", kDLUInt, 64, 1},
      {"float16", kDLFloat, 16, 1},
      {"float32", kDLFloat, 32, 1},
      {"float64", kDLFloat, 64, 1},
      {"bfloat16", kDLBfloat, 16, 1},
      {"bool", kDLBool, 8, 1},
      {"handle", kDLOpaqueHandle, 64, 1},
      {"complex64", kDLComplex, 64, 1},
      {"complex128", kDLComplex, 128, 1},
      {"float8_e3m4", kDLFloat8_e3m4, 8, 1},
      {"float8_e4m3", kDLFloat8_e4m3, 8, 1},
      {"float8_e4m3b11fnuz", kDLFloat8_e4m3b11fnuz, 8, 1},
      {"float8_e4m3fn", kDLFloat8_e4m3fn, 8, 1},
      {"float8_e4m3fnuz", kDLFloat8_e4m3fnuz, 8, 1},
      {"float8_e5m2", kDLFloat8_e5m2, 8, 1},
      {"float8_e5m2fnuz", kDLFloat8_e5m2fnuz, 8, 1},
      {"float8_e8m0fnu", kDLFloat8_e8m0fnu, 8, 1},
      {"float6_e2m3fn", kDLFloat6_e2m3fn, 6, 1},
      {"float6_e3m2fn", kDLFloat6_e3m2fn, 6, 1},
      {"float4_e2m1fn", kDLFloat4_e2m1fn, 4, 1},
  };
  return cases;
}

/*! \brief The text parses to the case's code, bits and lanes; false when it does not parse. */
bool ExpectParses(const Case& c, DLDataType* dtype) {
  SCOPED_TRACE(c.text);
  std::memset(dtype, 0xff, sizeof(*dtype));
  bool parsed = Parse(c.text, dtype) == 0;
  EXPECT_TRUE(parsed);
  EXPECT_EQ(dtype->code, c.code);
  EXPECT_EQ(dtype->bits, c.bits);
  EXPECT_EQ(dtype->lanes, static_cast<uint16_t>(c.lanes));
  return parsed;
}

void ExpectParses(const Case& c) {
  DLDataType dtype;
  ExpectParses(c, &dtype);
}

/*! \brief The text parses as the case says and prints back unchanged. */
void ExpectRoundTrip(const Case& c) {
  DLDataType dtype;
  if (ExpectParses(c, &dtype)) EXPECT_EQ(Print(dtype), c.text) << c.text;
}

TEST(DataTypeCAPI, NamedTypesRoundTrip) {
  for (const Case& c : NamedCases()) ExpectRoundTrip(c);
}

TEST(DataTypeCAPI, AliasSpellingsParseToTheirCanonicalType) {
  struct Alias {
    const char* text;
    const char* canonical;
  };
  const Alias aliases[] = {
      {"i8", "int8"},
      {"i32", "int32"},
      {"u8", "uint8"},
      {"u64", "uint64"},
      {"f16", "float16"},
      {"f32", "float32"},
      {"f64", "float64"},
      {"bf16", "bfloat16"},
      {"int", "int32"},
      {"uint", "uint32"},
      {"float", "float32"},
      {"bfloat", "bfloat16"},
      {"intx4", "int32x4"},
      {"f32x4", "float32x4"},
      {"f8", "float8"},
      {"f8_e4m3fn", "float8_e4m3fn"},
      {"fp8_e5m2", "float8_e5m2"},
      {"f8_e4m3", "float8_e4m3"},
      {"fp8_e4m3b11fnuz", "float8_e4m3b11fnuz"},
      {"f6_e3m2fn", "float6_e3m2fn"},
      {"fp6_e2m3fn", "float6_e2m3fn"},
      {"f4_e2m1fn", "float4_e2m1fn"},
      {"f8_e4m3fnx4", "float8_e4m3fnx4"},
      {"float4_e2m1fn_x2", "float4_e2m1fnx2"},
      {"fp4_e2m1fn_x2", "float4_e2m1fnx2"},
      {"f4_e2m1fn_x2", "float4_e2m1fnx2"},
  };
  for (const Alias& alias : aliases) {
    SCOPED_TRACE(alias.text);
    DLDataType dtype;
    ASSERT_EQ(Parse(alias.text, &dtype), 0);
    EXPECT_EQ(Print(dtype), alias.canonical);
  }
}

TEST(DataTypeCAPI, EmptyStringParsesAsVoid) {
  DLDataType dtype{kDLInt, 32, 1};
  ASSERT_EQ(Parse("", &dtype), 0);
  EXPECT_EQ(dtype.code, kDLOpaqueHandle);
  EXPECT_EQ(dtype.bits, 0);
  EXPECT_EQ(dtype.lanes, 0);
}

TEST(DataTypeCAPI, VectorLanesRoundTrip) {
  const Case cases[] = {
      {"float16x4", kDLFloat, 16, 4},
      {"int8x16", kDLInt, 8, 16},
      {"uint1x64", kDLUInt, 1, 64},
      {"bfloat16x8", kDLBfloat, 16, 8},
      {"boolx2", kDLBool, 8, 2},
      {"complex64x2", kDLComplex, 64, 2},
      {"float8_e4m3fnx4", kDLFloat8_e4m3fn, 8, 4},
      {"float8_e4m3b11fnuzx32", kDLFloat8_e4m3b11fnuz, 8, 32},
      {"float4_e2m1fnx2", kDLFloat4_e2m1fn, 4, 2},
      {"float32x32767", kDLFloat, 32, 32767},
      {"float32xvscalex4", kDLFloat, 32, -4},
      {"int8xvscalex2", kDLInt, 8, -2},
      {"float8_e4m3b11fnuzxvscalex32768", kDLFloat8_e4m3b11fnuz, 8, -32768},
  };
  for (const Case& c : cases) ExpectRoundTrip(c);
}

TEST(DataTypeCAPI, ResultIsSmallOrHeapString) {
  // Up to 7 bytes fit in the Any itself; longer names become String objects.
  DLDataType dtype{kDLFloat, 32, 1};
  TVMFFIAny any;
  std::memset(&any, 0, sizeof(any));
  ASSERT_EQ(TVMFFIDataTypeToString(&dtype, &any), 0);
  EXPECT_EQ(any.type_index, kTVMFFISmallStr);
  EXPECT_EQ(TakeString(&any), "float32");

  dtype = DLDataType{kDLFloat8_e4m3fnuz, 8, 1};
  std::memset(&any, 0, sizeof(any));
  ASSERT_EQ(TVMFFIDataTypeToString(&dtype, &any), 0);
  EXPECT_EQ(any.type_index, kTVMFFIStr);
  EXPECT_EQ(TakeString(&any), "float8_e4m3fnuz");
}

TEST(DataTypeCAPI, WidthsWithoutANameOfTheirOwnRoundTrip) {
  const Case cases[] = {
      {"int4", kDLInt, 4, 1},       {"float8", kDLFloat, 8, 1},   {"bool1", kDLBool, 1, 1},
      {"bool16x2", kDLBool, 16, 2}, {"uint255", kDLUInt, 255, 1}, {"bfloat32", kDLBfloat, 32, 1},
  };
  for (const Case& c : cases) ExpectRoundTrip(c);
}

// cpp_api.md §6.5: void prints as the empty text (which parses back as void).
TEST(DataTypeCAPI, VoidPrintsAsEmptyText) {
  EXPECT_EQ(Print(DLDataType{kDLOpaqueHandle, 0, 0}), "");
}

TEST(DataTypeCAPI, HandlePrintsWithoutBitsOrLanes) {
  EXPECT_EQ(Print(DLDataType{kDLOpaqueHandle, 32, 1}), "handle");
  EXPECT_EQ(Print(DLDataType{kDLOpaqueHandle, 64, 4}), "handle");
  EXPECT_EQ(Print(DLDataType{kDLOpaqueHandle, 0, 1}), "handle");
  EXPECT_EQ(Print(DLDataType{kDLOpaqueHandle, 64, static_cast<uint16_t>(-2)}), "handle");
}

TEST(DataTypeCAPI, FloatKindsPrintWithoutBits) {
  EXPECT_EQ(Print(DLDataType{kDLFloat8_e5m2, 16, 2}), "float8_e5m2x2");
  EXPECT_EQ(Print(DLDataType{kDLFloat4_e2m1fn, 8, 1}), "float4_e2m1fn");
}

// Lanes print as an int16: 0, 1 and 65535 (-1) without a suffix, 32768.. as scalable.
TEST(DataTypeCAPI, LanesPrintAsSigned16BitValue) {
  EXPECT_EQ(Print(DLDataType{kDLInt, 32, 0}), "int32");
  EXPECT_EQ(Print(DLDataType{kDLInt, 32, 65535}), "int32");
  EXPECT_EQ(Print(DLDataType{kDLBool, 8, 0}), "bool");
  EXPECT_EQ(Print(DLDataType{kDLInt, 32, 32768}), "int32xvscalex32768");
  EXPECT_EQ(Print(DLDataType{kDLInt, 32, 40000}), "int32xvscalex25536");
}

/*! \brief The ValueError message TVMFFIDataTypeToString raises for dtype. */
std::string PrintErrorMessage(DLDataType dtype) {
  TVMFFIAny any;
  std::memset(&any, 0, sizeof(any));
  EXPECT_EQ(TVMFFIDataTypeToString(&dtype, &any), -1);
  std::pair<std::string, std::string> error = TakeRaisedError();
  EXPECT_EQ(error.first, "ValueError");
  return error.second;
}

TEST(DataTypeCAPI, PrintingAnUndefinedTypeCodeRaisesValueError) {
  EXPECT_EQ(PrintErrorMessage(DLDataType{18, 8, 1}), "DLDataType contains unknown type_code=18");
  EXPECT_EQ(PrintErrorMessage(DLDataType{128, 8, 1}), "DLDataType contains unknown type_code=128");
}

TEST(DataTypeCAPI, MissingOrZeroBitsMeanTheFamilyWidth) {
  const Case cases[] = {
      {"int0", kDLInt, 32, 1},
      {"uint0", kDLUInt, 32, 1},
      {"float0", kDLFloat, 32, 1},
      {"bfloat0", kDLBfloat, 16, 1},
      {"bool0", kDLBool, 8, 1},
      {"handle0", kDLOpaqueHandle, 64, 1},
      {"i0", kDLInt, 32, 1},
      {"bf0x2", kDLBfloat, 16, 2},
      {"int032", kDLInt, 32, 1},
      {"bool", kDLBool, 8, 1},
      {"handle", kDLOpaqueHandle, 64, 1},
  };
  for (const Case& c : cases) ExpectParses(c);
}

TEST(DataTypeCAPI, BoolAndHandleTakeAnExplicitWidth) {
  const Case cases[] = {
      {"bool8", kDLBool, 8, 1},
      {"bool8x2", kDLBool, 8, 2},
      {"bool16", kDLBool, 16, 1},
      {"handle32", kDLOpaqueHandle, 32, 1},
      {"handle64", kDLOpaqueHandle, 64, 1},
      {"handle32x4", kDLOpaqueHandle, 32, 4},
  };
  for (const Case& c : cases) ExpectParses(c);
}

// cpp_api.md §6.5: lanes x<N> with 1 <= N <= 65535, stored as uint16 as written.
TEST(DataTypeCAPI, FixedLanesUpTo65535AreStoredAsWritten) {
  const Case cases[] = {
      {"int32x32768", kDLInt, 32, 32768},
      {"int32x40000", kDLInt, 32, 40000},
      {"int32x65535", kDLInt, 32, 65535},
      {"float8_e4m3fnx65535", kDLFloat8_e4m3fn, 8, 65535},
      {"float4_e2m1fn_x65535", kDLFloat4_e2m1fn, 4, 65535},
      {"int32x0004", kDLInt, 32, 4},
  };
  for (const Case& c : cases) ExpectParses(c);
}

TEST(DataTypeCAPI, ScalableLanesUpTo65535AreStoredNegated) {
  DLDataType dtype;
  ASSERT_EQ(Parse("int32xvscalex32769", &dtype), 0);
  EXPECT_EQ(dtype.lanes, 32767);
  ASSERT_EQ(Parse("int32xvscalex65535", &dtype), 0);
  EXPECT_EQ(dtype.lanes, 1);
  ASSERT_EQ(Parse("boolxvscalex2", &dtype), 0);
  EXPECT_EQ(dtype.lanes, static_cast<uint16_t>(-2));
  ASSERT_EQ(Parse("handle8xvscalex3", &dtype), 0);
  EXPECT_EQ(dtype.bits, 8);
  EXPECT_EQ(dtype.lanes, static_cast<uint16_t>(-3));
}

// The reference reads a bare "xvscale" (no multiplier) as one lane.
TEST(DataTypeCAPI, BareVscaleSuffixIsOneLane) {
  DLDataType dtype;
  ASSERT_EQ(Parse("int32xvscale", &dtype), 0);
  EXPECT_EQ(dtype.code, kDLInt);
  EXPECT_EQ(dtype.bits, 32);
  EXPECT_EQ(dtype.lanes, 1);
}

TEST(DataTypeCAPI, MalformedStringsRaiseValueError) {
  const std::string inputs[] = {
      "i",
      "bf",
      "floaty",
      "float33x",
      "float32x",
      "float32x0",
      "float32x4y",
      "int256",
      "fp16",
      "f8_x2",
      "complex",
      "float8_e4m3fn_x2",
      "float32_x2",
      "f8_e9m9",
      "Float32",
      " float32",
      "float32 ",
      "voidx4",
      "float8_e4m3fnuzz",
      "float32xvscalex",
      "float32xvscalex0",
      "float32x65536",
      "custom[7",
      std::string("int8\0x", 6),
  };
  for (const std::string& text : inputs) {
    SCOPED_TRACE(text);
    DLDataType dtype{kDLInt, 32, 1};
    EXPECT_EQ(Parse(text, &dtype), -1);
    // The output is left untouched on failure.
    EXPECT_EQ(dtype.code, kDLInt);
    EXPECT_EQ(dtype.bits, 32);
    EXPECT_EQ(dtype.lanes, 1);
    std::pair<std::string, std::string> error = TakeRaisedError();
    EXPECT_EQ(error.first, "ValueError");
    EXPECT_FALSE(error.second.empty());
  }
}

/*! \brief The ValueError message TVMFFIDataTypeFromString raises for text. */
std::string ParseErrorMessage(const std::string& text) {
  DLDataType dtype;
  EXPECT_EQ(Parse(text, &dtype), -1) << text;
  std::pair<std::string, std::string> error = TakeRaisedError();
  EXPECT_EQ(error.first, "ValueError") << text;
  return error.second;
}

// cpp_api.md §6.5: "unknown dtype `<s>`" for a string that names no type.
TEST(DataTypeCAPI, UnknownNameIsReportedAsUnknownDtype) {
  EXPECT_EQ(ParseErrorMessage("nonsense"), "unknown dtype `nonsense`");
  EXPECT_EQ(ParseErrorMessage("floaty"), "unknown dtype `floaty`");
  EXPECT_EQ(ParseErrorMessage("int32x2a"), "unknown dtype `int32x2a`");
  EXPECT_EQ(ParseErrorMessage(" int32"), "unknown dtype ` int32`");
  // The message carries the input whole, even past a NUL.
  EXPECT_EQ(ParseErrorMessage(std::string("int8\0x", 6)),
            std::string("unknown dtype `int8\0x`", 22));
}

TEST(DataTypeCAPI, UnknownFloat8SuffixIsReportedInItsLongSpelling) {
  EXPECT_EQ(ParseErrorMessage("float8_bad"), "unknown float8 type `float8_bad`");
  EXPECT_EQ(ParseErrorMessage("fp8_foo"), "unknown float8 type `float8_foo`");
  EXPECT_EQ(ParseErrorMessage("float6_e9"), "unknown float6 type `float6_e9`");
  EXPECT_EQ(ParseErrorMessage("f4_e2m1"), "unknown float4 type `float4_e2m1`");
}

TEST(DataTypeCAPI, LanesThatAreNotAPositiveIntegerAreReportedAsInvalid) {
  const char* expected_tail = "'. Lanes must be a positive integer.";
  for (const char* text :
       {"int32x", "int32x0", "int32xa", "int32x-1", "float8_e4m3fnx", "float4_e2m1fn_x",
        "int32xvscalex0", "int32xv", "int32x0abc", "float4_e2m1fn_xvscalex2"}) {
    EXPECT_EQ(ParseErrorMessage(text),
              std::string("Invalid lanes specification in dtype '") + text + expected_tail);
  }
}

TEST(DataTypeCAPI, OutOfRangeNumbersNameTheirLimit) {
  EXPECT_EQ(ParseErrorMessage("int32x70000"),
            "Lanes value 70000 is out of range for uint16_t in dtype 'int32x70000'");
  EXPECT_EQ(ParseErrorMessage("int32x65536"),
            "Lanes value 65536 is out of range for uint16_t in dtype 'int32x65536'");
  EXPECT_EQ(ParseErrorMessage("int32xvscalex65536"),
            "Lanes value 65536 is out of range for uint16_t in dtype 'int32xvscalex65536'");
  // Short spellings are quoted in their long form.
  EXPECT_EQ(ParseErrorMessage("bf256"),
            "Bits value 256 is out of range for uint8_t in dtype 'bfloat256'");
  EXPECT_EQ(ParseErrorMessage("handle256"),
            "Bits value 256 is out of range for uint8_t in dtype 'handle256'");
  EXPECT_EQ(ParseErrorMessage("int999"),
            "Bits value 999 is out of range for uint8_t in dtype 'int999'");
  EXPECT_EQ(ParseErrorMessage("int32x4294967296"),
            "Integer value in dtype string '4294967296' is out of range for uint32_t");
  EXPECT_EQ(ParseErrorMessage("int99999999999"),
            "Integer value in dtype string '99999999999' is out of range for uint32_t");
  // The digits are quoted as written, leading zeros included.
  EXPECT_EQ(ParseErrorMessage("int0004294967296"),
            "Integer value in dtype string '0004294967296' is out of range for uint32_t");
}

TEST(DataTypeCAPI, CustomWithoutBracesNamesTheMissingBrace) {
  EXPECT_EQ(ParseErrorMessage("custom"), "expected opening brace after 'custom' type incustom");
  EXPECT_EQ(ParseErrorMessage("custom8"), "expected opening brace after 'custom' type incustom8");
  EXPECT_EQ(ParseErrorMessage("custom[ab"),
            "expected closing brace after 'custom' type incustom[ab");
}

TEST(DataTypeCAPI, NullArgumentsRaiseValueError) {
  DLDataType dtype{kDLFloat, 32, 1};
  EXPECT_EQ(TVMFFIDataTypeFromString(nullptr, &dtype), -1);
  EXPECT_EQ(TakeRaisedError().first, "ValueError");
  TVMFFIByteArray bytes{"float32", 7};
  EXPECT_EQ(TVMFFIDataTypeFromString(&bytes, nullptr), -1);
  EXPECT_EQ(TakeRaisedError().first, "ValueError");
  TVMFFIAny any;
  std::memset(&any, 0, sizeof(any));
  EXPECT_EQ(TVMFFIDataTypeToString(nullptr, &any), -1);
  EXPECT_EQ(TakeRaisedError().first, "ValueError");
  EXPECT_EQ(TVMFFIDataTypeToString(&dtype, nullptr), -1);
  EXPECT_EQ(TakeRaisedError().first, "ValueError");
}

}  // namespace
