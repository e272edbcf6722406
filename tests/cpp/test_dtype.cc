// Tests of dtype.h: DLDataType text form, comparison, printing and Any conversion.
#include <gtest/gtest.h>
#include <tvm/ffi/any.h>
#include <tvm/ffi/dtype.h>
#include <tvm/ffi/function.h>

#include <sstream>
#include <string>
#include <vector>

namespace {

namespace ffi = tvm::ffi;

DLDataType DT(int code, int bits, int lanes) {
  return DLDataType{static_cast<uint8_t>(code), static_cast<uint8_t>(bits),
                    static_cast<uint16_t>(lanes)};
}

struct Named {
  const char* text;
  DLDataType dtype;
};

// Spellings of spec §1 codes, with the value each must parse to.
const std::vector<Named>& NamedDTypes() {
  static const std::vector<Named> kNamed = {
      {"int8", DT(kDLInt, 8, 1)},
      {"int16", DT(kDLInt, 16, 1)},
      {"int32", DT(kDLInt, 32, 1)},
      {"int64", DT(kDLInt, 64, 1)},
      {"uint1", DT(kDLUInt, 1, 1)},
      {"uint8", DT(kDLUInt, 8, 1)},
      {"uint64", DT(kDLUInt, 64, 1)},
      {"float16", DT(kDLFloat, 16, 1)},
      {"float32", DT(kDLFloat, 32, 1)},
      {"float64", DT(kDLFloat, 64, 1)},
      {"bfloat16", DT(kDLBfloat, 16, 1)},
      {"complex64", DT(kDLComplex, 64, 1)},
      {"complex128", DT(kDLComplex, 128, 1)},
      {"bool", DT(kDLBool, 8, 1)},
      {"handle", DT(kDLOpaqueHandle, 64, 1)},
      {"float16x4", DT(kDLFloat, 16, 4)},
      {"int8x32", DT(kDLInt, 8, 32)},
      {"float8_e3m4", DT(kDLFloat8_e3m4, 8, 1)},
      {"float8_e4m3", DT(kDLFloat8_e4m3, 8, 1)},
      {"float8_e4m3b11fnuz", DT(kDLFloat8_e4m3b11fnuz, 8, 1)},
      {"float8_e4m3fn", DT(kDLFloat8_e4m3fn, 8, 1)},
      {"float8_e4m3fnuz", DT(kDLFloat8_e4m3fnuz, 8, 1)},
      {"float8_e5m2", DT(kDLFloat8_e5m2, 8, 1)},
      {"float8_e5m2fnuz", DT(kDLFloat8_e5m2fnuz, 8, 1)},
      {"float8_e8m0fnu", DT(kDLFloat8_e8m0fnu, 8, 1)},
      {"float6_e2m3fn", DT(kDLFloat6_e2m3fn, 6, 1)},
      {"float6_e3m2fn", DT(kDLFloat6_e3m2fn, 6, 1)},
      {"float4_e2m1fn", DT(kDLFloat4_e2m1fn, 4, 1)},
      {"float4_e2m1fnx2", DT(kDLFloat4_e2m1fn, 4, 2)},
  };
  return kNamed;
}

TEST(DTypeHelpers, NamedStringsParseAndPrintBack) {
  for (const Named& n : NamedDTypes()) {
    SCOPED_TRACE(n.text);
    DLDataType parsed = ffi::StringToDLDataType(n.text);
    EXPECT_TRUE(parsed == n.dtype)
        << int(parsed.code) << " " << int(parsed.bits) << " " << parsed.lanes;
    EXPECT_EQ(ffi::DLDataTypeToString(parsed), n.text);
  }
}

TEST(DTypeHelpers, DataTypesWithBitsInTheirNameRoundTripThroughText) {
  // The codes whose printed name carries the width (handle, the float kinds and custom
  // types print none), a spread of widths and lane counts; lanes from 32768 on print as
  // scalable and read back as the same uint16.
  const int codes[] = {kDLInt, kDLUInt, kDLFloat, kDLBfloat, kDLComplex, kDLBool};
  const int bit_widths[] = {1, 4, 6, 8, 16, 32, 64, 128, 255};
  const int lane_counts[] = {1, 2, 4, 16, 32767, 32768, 40000, 65534};
  int checked = 0;
  for (int code : codes) {
    for (int bits : bit_widths) {
      for (int lanes : lane_counts) {
        DLDataType d = DT(code, bits, lanes);
        ffi::String text = ffi::DLDataTypeToString(d);
        DLDataType back = ffi::StringToDLDataType(text);
        ASSERT_TRUE(back == d) << "code " << code << " bits " << bits << " lanes " << lanes
                               << " printed as " << text;
        ++checked;
      }
    }
  }
  EXPECT_EQ(checked, 6 * 9 * 8);
}

TEST(DTypeHelpers, BadStringsRaiseValueErrorNamingThem) {
  const char* bad[] = {"fp16",     "flot32",    "i",        "int0x",      "int256",
                       "float32x", "float32x0", "float32 ", "int8x4x4",   "Float32",
                       "void4",    "handlex",   "uint-8",   "float8_e9m9"};
  for (const char* text : bad) {
    SCOPED_TRACE(text);
    try {
      ffi::StringToDLDataType(text);
      ADD_FAILURE() << "parsed without error";
    } catch (const ffi::Error& e) {
      EXPECT_EQ(e.kind(), "ValueError");
      EXPECT_NE(e.message().find(text), std::string::npos) << e.message();
    }
  }
}

TEST(DTypeHelpers, EqualityAndPrinting) {
  EXPECT_TRUE(DT(kDLFloat, 32, 1) == DT(kDLFloat, 32, 1));
  EXPECT_TRUE(DT(kDLFloat, 32, 1) != DT(kDLFloat, 32, 4));
  EXPECT_TRUE(DT(kDLFloat, 32, 1) != DT(kDLInt, 32, 1));
  EXPECT_TRUE(DT(kDLFloat, 32, 1) != DT(kDLFloat, 16, 1));
  std::ostringstream os;
  os << DT(kDLBfloat, 16, 1);  // the global operator
  EXPECT_EQ(os.str(), "bfloat16");
}

TEST(DTypeTypeTraits, StoredInlineAsDataType) {
  ffi::Any a = DT(kDLFloat, 32, 1);
  EXPECT_EQ(a.type_index(), kTVMFFIDataType);
  EXPECT_TRUE(a.cast<DLDataType>() == DT(kDLFloat, 32, 1));
  std::optional<DLDataType> exact = a.as<DLDataType>();
  ASSERT_TRUE(exact.has_value());
  EXPECT_TRUE(*exact == DT(kDLFloat, 32, 1));
  EXPECT_EQ(ffi::TypeTraits<DLDataType>::TypeStr(), "DataType");
  EXPECT_EQ(ffi::TypeTraits<DLDataType>::TypeSchema(), "{\"type\":\"DataType\"}");
}

TEST(DTypeTypeTraits, StringsOfEveryStorageCastToDataType) {
  // RawStr (borrowed), SmallStr (<= 7 bytes) and heap Str.
  ffi::AnyView raw = "int8x4";
  EXPECT_EQ(raw.type_index(), kTVMFFIRawStr);
  EXPECT_TRUE(raw.cast<DLDataType>() == DT(kDLInt, 8, 4));
  ffi::Any small = ffi::String("bool");
  EXPECT_EQ(small.type_index(), kTVMFFISmallStr);
  EXPECT_TRUE(small.cast<DLDataType>() == DT(kDLBool, 8, 1));
  ffi::Any heap = ffi::String("float8_e4m3fn");
  EXPECT_EQ(heap.type_index(), kTVMFFIStr);
  EXPECT_TRUE(heap.cast<DLDataType>() == DT(kDLFloat8_e4m3fn, 8, 1));
  // as<> is exact: a string is not a DataType.
  EXPECT_FALSE(heap.as<DLDataType>().has_value());
}

TEST(DTypeTypeTraits, BadDtypeTextRaisesTheParserValueError) {
  // cpp_api.md §2.1: text that is not a dtype propagates the parser's ValueError, even from
  // try_cast (it is bad input, not a value of another type).
  ffi::Any bad_text = ffi::String("flot32");
  for (int through_try_cast = 0; through_try_cast < 2; ++through_try_cast) {
    try {
      if (through_try_cast) {
        bad_text.try_cast<DLDataType>();
      } else {
        bad_text.cast<DLDataType>();
      }
      ADD_FAILURE() << "did not throw";
    } catch (const ffi::Error& e) {
      EXPECT_EQ(e.kind(), "ValueError");
      EXPECT_NE(e.message().find("flot32"), std::string::npos) << e.message();
    }
  }
}

TEST(DTypeTypeTraits, NonStringValuesReportWhatWasFound) {
  ffi::Any number = 3;
  try {
    number.cast<DLDataType>();
    ADD_FAILURE() << "cast did not throw";
  } catch (const ffi::Error& e) {
    EXPECT_EQ(e.kind(), "TypeError");
    EXPECT_NE(e.message().find("Cannot convert from type `int` to `DataType`"), std::string::npos)
        << e.message();
  }
}

TEST(DTypeTypeTraits, TypedFunctionParameterAcceptsDataTypeOrString) {
  ffi::Function f =
      ffi::Function::FromTyped([](DLDataType d) -> int64_t { return d.bits * d.lanes; }, "bits_of");
  EXPECT_EQ(f(DT(kDLFloat, 16, 4)).cast<int64_t>(), 64);
  EXPECT_EQ(f("int32").cast<int64_t>(), 32);
  EXPECT_EQ(f(std::string("float64x2")).cast<int64_t>(), 128);
  try {
    f("nonsense");
    ADD_FAILURE() << "call did not throw";
  } catch (const ffi::Error& e) {
    EXPECT_EQ(e.kind(), "ValueError");
    EXPECT_NE(e.message().find("nonsense"), std::string::npos) << e.message();
  }
  ffi::Function g = ffi::Function::FromTyped([](DLDataType d) { return d; }, "identity");
  ffi::Any back = g(DT(kDLUInt, 1, 1));
  EXPECT_EQ(back.type_index(), kTVMFFIDataType);
  EXPECT_TRUE(back.cast<DLDataType>() == DT(kDLUInt, 1, 1));
}

}  // namespace
