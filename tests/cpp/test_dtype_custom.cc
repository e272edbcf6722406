/*
 * Custom data types spelled by name ("custom[name]bits"): the parser asks the global
 * "dtype.get_custom_type_code" for the code and the printer asks "dtype.get_custom_type_name"
 * for the name (and prints no bits, as the reference does); without them both raise ValueError.
 */
#include <gtest/gtest.h>
#include <tvm/ffi/any.h>
#include <tvm/ffi/dtype.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/string.h>

#include <string>

namespace {

using tvm::ffi::Any;
using tvm::ffi::Error;
using tvm::ffi::Function;
using tvm::ffi::String;

constexpr const char* kCodeFunc = "dtype.get_custom_type_code";
constexpr const char* kNameFunc = "dtype.get_custom_type_name";

/*! \brief Registers the two name functions of a framework with one type "posit" = 130. */
class CustomTypes : public ::testing::Test {
 protected:
  void SetUp() override {
    Function::SetGlobal(kCodeFunc, Function::FromTyped([](String name) -> int64_t {
                          if (name == "posit") return 130;
                          if (name == "huge") return 999;
                          if (name == "12") return 140;
                          TVM_FFI_THROW(ValueError) << "no custom type " << name;
                        }),
                        true);
    Function::SetGlobal(kNameFunc, Function::FromTyped([](int64_t code) -> String {
                          return code == 130 ? String("posit") : String("other");
                        }),
                        true);
  }
  void TearDown() override {
    Function::RemoveGlobal(kCodeFunc);
    Function::RemoveGlobal(kNameFunc);
  }
};

int Parse(const std::string& text, DLDataType* out) {
  TVMFFIByteArray bytes{text.data(), text.size()};
  return TVMFFIDataTypeFromString(&bytes, out);
}

/*! \brief The raised error of a failed call as "kind: message". */
std::string TakeRaised() {
  Error error = tvm::ffi::detail::MoveFromRaised();
  return error.kind() + ": " + error.message();
}

std::string Print(DLDataType dtype) { return std::string(tvm::ffi::DLDataTypeToString(dtype)); }

TEST_F(CustomTypes, NameParsesToTheFrameworksCode) {
  DLDataType dtype{};
  ASSERT_EQ(Parse("custom[posit]16", &dtype), 0);
  EXPECT_EQ(dtype.code, 130);
  EXPECT_EQ(dtype.bits, 16);
  EXPECT_EQ(dtype.lanes, 1);
}

TEST_F(CustomTypes, NameWithoutBitsIs32Bits) {
  DLDataType dtype{};
  ASSERT_EQ(Parse("custom[posit]", &dtype), 0);
  EXPECT_EQ(dtype.bits, 32);
}

TEST_F(CustomTypes, NameTakesLanes) {
  DLDataType dtype{};
  ASSERT_EQ(Parse("custom[posit]8x4", &dtype), 0);
  EXPECT_EQ(dtype.bits, 8);
  EXPECT_EQ(dtype.lanes, 4);
}

TEST_F(CustomTypes, MissingOrZeroBitsAre32Bits) {
  DLDataType dtype{};
  ASSERT_EQ(Parse("custom[posit]0x2", &dtype), 0);
  EXPECT_EQ(dtype.bits, 32);
  EXPECT_EQ(dtype.lanes, 2);
  ASSERT_EQ(Parse("custom[posit]x4", &dtype), 0);
  EXPECT_EQ(dtype.bits, 32);
  EXPECT_EQ(dtype.lanes, 4);
}

// A number between the brackets is a name like any other: the framework maps it.
TEST_F(CustomTypes, DigitsBetweenTheBracketsAreAName) {
  DLDataType dtype{};
  ASSERT_EQ(Parse("custom[12]", &dtype), 0);
  EXPECT_EQ(dtype.code, 140);
  EXPECT_EQ(dtype.bits, 32);
}

TEST_F(CustomTypes, BitsAbove255AreValueError) {
  DLDataType dtype{};
  EXPECT_EQ(Parse("custom[posit]256", &dtype), -1);
  EXPECT_EQ(TakeRaised(),
            "ValueError: Bits value 256 is out of range for uint8_t in dtype 'custom[posit]256'");
}

TEST_F(CustomTypes, FrameworkErrorPropagates) {
  DLDataType dtype{kDLInt, 32, 1};
  EXPECT_EQ(Parse("custom[nope]8", &dtype), -1);
  EXPECT_EQ(TakeRaised(), "ValueError: no custom type nope");
  EXPECT_EQ(dtype.code, kDLInt);
}

TEST_F(CustomTypes, CodeOutOfRangeIsValueError) {
  DLDataType dtype{};
  EXPECT_EQ(Parse("custom[huge]8", &dtype), -1);
  EXPECT_NE(TakeRaised().find("returned 999"), std::string::npos);
}

TEST_F(CustomTypes, PrinterUsesTheFrameworksNameWithoutBits) {
  EXPECT_EQ(Print(DLDataType{130, 16, 1}), "custom[posit]");
  EXPECT_EQ(Print(DLDataType{130, 8, 4}), "custom[posit]x4");
  EXPECT_EQ(Print(DLDataType{130, 8, static_cast<uint16_t>(-2)}), "custom[posit]xvscalex2");
}

TEST_F(CustomTypes, PrintedNameParsesBackAs32Bits) {
  DLDataType dtype{};
  ASSERT_EQ(Parse(Print(DLDataType{130, 16, 2}), &dtype), 0);
  EXPECT_EQ(dtype.code, 130);
  EXPECT_EQ(dtype.bits, 32);
  EXPECT_EQ(dtype.lanes, 2);
}

TEST_F(CustomTypes, AbbrevIsTheFullText) {
  EXPECT_EQ(tvm::ffi::DTypeAbbrev(DLDataType{130, 16, 4}), "custom[posit]x4");
}

TEST_F(CustomTypes, CodesBelowCustomBeginKeepTheirNames) {
  EXPECT_EQ(Print(DLDataType{kDLFloat, 32, 1}), "float32");
}

TEST(CustomTypesUnregistered, NameWithoutCodeFunctionIsValueError) {
  DLDataType dtype{};
  EXPECT_EQ(Parse("custom[posit]16", &dtype), -1);
  EXPECT_EQ(TakeRaised(), "ValueError: Function dtype.get_custom_type_code not found");
}

TEST(CustomTypesUnregistered, NumericNameWithoutCodeFunctionIsValueError) {
  DLDataType dtype{kDLInt, 32, 1};
  EXPECT_EQ(Parse("custom[12]8", &dtype), -1);
  EXPECT_EQ(TakeRaised(), "ValueError: Function dtype.get_custom_type_code not found");
  EXPECT_EQ(dtype.code, kDLInt);
}

TEST(CustomTypesUnregistered, PrintingACustomCodeWithoutNameFunctionIsValueError) {
  try {
    Print(DLDataType{130, 16, 1});
    ADD_FAILURE() << "printed without error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), "ValueError");
    EXPECT_EQ(e.message(), "Function dtype.get_custom_type_name not found");
  }
}

TEST(CustomTypesUnregistered, UnclosedBracketIsRefused) {
  DLDataType dtype{};
  EXPECT_EQ(Parse("custom[posit", &dtype), -1);
  EXPECT_EQ(TakeRaised(), "ValueError: expected closing brace after 'custom' type incustom[posit");
}

}  // namespace
