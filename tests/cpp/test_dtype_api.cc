// Tests of the dtype/device helpers of the 0.1.x C++ API: the global
// DLDataType operators, TypeStr "DataType", DTypeIs*, DTypeAbbrev,
// DLDataTypeCodeAsCStr and the device-string parsers.
#include <gtest/gtest.h>
#include <tvm/ffi/any.h>
#include <tvm/ffi/device.h>
#include <tvm/ffi/dtype.h>

#include <sstream>
#include <string>

#include "testing_helpers.h"

// Outside any namespace: the operators must be found here without using-declarations.
TEST(DTypeGlobalOperators, EqualityAndPrintingWorkFromTheGlobalNamespace) {
  DLDataType a{kDLFloat, 32, 1};
  DLDataType b{kDLFloat, 32, 1};
  DLDataType c{kDLInt, 8, 4};
  EXPECT_EQ(a, b);
  EXPECT_NE(a, c);
  EXPECT_TRUE(a == b);
  EXPECT_TRUE(a != c);
  std::ostringstream os;
  os << c;
  EXPECT_EQ(os.str(), "int8x4");
}

namespace {

namespace ffi = tvm::ffi;
using tvm_ffi_testing::CatchError;

DLDataType DT(int code, int bits, int lanes) {
  return DLDataType{static_cast<uint8_t>(code), static_cast<uint8_t>(bits),
                    static_cast<uint16_t>(lanes)};
}

TEST(DTypeApi, TypeStrIsDataType) { EXPECT_EQ(ffi::TypeTraits<DLDataType>::TypeStr(), "DataType"); }

TEST(DTypeApi, OperatorsFoundInsideOtherNamespaces) {
  EXPECT_TRUE(DT(kDLFloat, 16, 1) == DT(kDLFloat, 16, 1));
  EXPECT_TRUE(DT(kDLFloat, 16, 1) != DT(kDLBfloat, 16, 1));
}

TEST(DTypeApi, Predicates) {
  EXPECT_TRUE(ffi::DTypeIsFloat(DT(kDLFloat, 32, 1)));
  EXPECT_TRUE(ffi::DTypeIsFloat(DT(kDLBfloat, 16, 1)));
  EXPECT_TRUE(ffi::DTypeIsFloat(DT(kDLFloat8_e4m3fn, 8, 1)));
  EXPECT_TRUE(ffi::DTypeIsFloat(DT(kDLFloat4_e2m1fn, 4, 1)));
  EXPECT_FALSE(ffi::DTypeIsFloat(DT(kDLInt, 32, 1)));
  EXPECT_TRUE(ffi::DTypeIsInt(DT(kDLInt, 32, 1)));
  EXPECT_TRUE(ffi::DTypeIsInt(DT(kDLUInt, 8, 1)));
  EXPECT_FALSE(ffi::DTypeIsInt(DT(kDLBool, 8, 1)));
  EXPECT_TRUE(ffi::DTypeIsBool(DT(kDLBool, 8, 1)));
  EXPECT_FALSE(ffi::DTypeIsBool(DT(kDLUInt, 1, 1)));
}

TEST(DTypeApi, Abbreviations) {
  EXPECT_EQ(ffi::DTypeAbbrev(DT(kDLInt, 32, 1)), "i32");
  EXPECT_EQ(ffi::DTypeAbbrev(DT(kDLUInt, 8, 1)), "u8");
  EXPECT_EQ(ffi::DTypeAbbrev(DT(kDLFloat, 16, 1)), "f16");
  EXPECT_EQ(ffi::DTypeAbbrev(DT(kDLBfloat, 16, 2)), "bf16x2");
  EXPECT_EQ(ffi::DTypeAbbrev(DT(kDLBool, 8, 1)), "bool");
  EXPECT_EQ(ffi::DTypeAbbrev(DT(kDLBool, 8, 4)), "boolx4");
  EXPECT_EQ(ffi::DTypeAbbrev(DT(kDLOpaqueHandle, 0, 0)), "void");
  EXPECT_EQ(ffi::DTypeAbbrev(DT(kDLOpaqueHandle, 64, 1)), "handle");
  EXPECT_EQ(ffi::DTypeAbbrev(DT(kDLFloat8_e4m3fn, 8, 1)), "f8_e4m3fn");
  EXPECT_EQ(ffi::DTypeAbbrev(DT(kDLFloat4_e2m1fn, 4, 2)), "f4_e2m1fnx2");
  EXPECT_EQ(ffi::DTypeAbbrev(DT(kDLFloat, 32, static_cast<uint16_t>(-4))), "f32xvscalex4");
}

// Lanes are read as int16 (cpp_api.md §2.15): 65535 is -1 (no suffix), 32768.. scalable.
TEST(DTypeApi, AbbreviationReadsLanesAsSigned16Bit) {
  EXPECT_EQ(ffi::DTypeAbbrev(DT(kDLInt, 32, 65535)), "i32");
  EXPECT_EQ(ffi::DTypeAbbrev(DT(kDLInt, 32, 40000)), "i32xvscalex25536");
  EXPECT_EQ(ffi::DTypeAbbrev(DT(kDLBool, 8, 65535)), "bool");
}

TEST(DTypeApi, AbbreviationOfHandleHasNoBitsOrLanes) {
  EXPECT_EQ(ffi::DTypeAbbrev(DT(kDLOpaqueHandle, 64, 4)), "handle");
  EXPECT_EQ(ffi::DTypeAbbrev(DT(kDLOpaqueHandle, 32, static_cast<uint16_t>(-2))), "handle");
}

TEST(DTypeApi, UnknownCodeIsValueErrorNamingIt) {
  ffi::Error e = CatchError([] { ffi::DTypeAbbrev(DT(100, 8, 1)); });
  EXPECT_EQ(e.kind(), "ValueError");
  EXPECT_EQ(e.message(), "DLDataType contains unknown type_code=100");
}

TEST(DTypeApi, CodeNames) {
  EXPECT_STREQ(ffi::detail::DLDataTypeCodeAsCStr(kDLInt), "int");
  EXPECT_STREQ(ffi::detail::DLDataTypeCodeAsCStr(kDLBfloat), "bfloat");
  EXPECT_STREQ(ffi::detail::DLDataTypeCodeAsCStr(kDLFloat8_e5m2fnuz), "float8_e5m2fnuz");
  EXPECT_STREQ(ffi::detail::DLDataTypeCodeAsCStr(static_cast<DLDataTypeCode>(kDLExtCustomBegin)),
               "custom");
}

TEST(DTypeApi, BadStringIsValueErrorNamingIt) {
  ffi::Error e = CatchError([] { ffi::StringToDLDataType("notatype"); });
  EXPECT_EQ(e.kind(), "ValueError");
  EXPECT_NE(e.message().find("notatype"), std::string::npos) << e.message();
}

TEST(DeviceStrings, AcceptedForms) {
  auto dev = [](const char* s) { return ffi::detail::TryStringViewToDLDevice(s); };
  ASSERT_TRUE(dev("cuda").has_value());
  EXPECT_EQ(dev("cuda")->device_type, kDLCUDA);
  EXPECT_EQ(dev("cuda")->device_id, 0);
  EXPECT_EQ(dev("cuda:3")->device_id, 3);
  EXPECT_EQ(dev("mps:1")->device_type, kDLMetal);
  EXPECT_EQ(dev("wgpu")->device_type, kDLWebGPU);
  EXPECT_EQ(dev("webgpu")->device_type, kDLWebGPU);
  EXPECT_EQ(dev("cpu:0 ignored tail")->device_type, kDLCPU);
  EXPECT_EQ(dev("trn:2147483647")->device_id, 2147483647);
}

TEST(DeviceStrings, RejectedForms) {
  for (const char* bad : {"llvm", "c", "cl", "nvptx", "unknown", "test", "cuda:", "cuda:-1",
                          "cuda:1:2", "cuda:2147483648", ""}) {
    EXPECT_FALSE(ffi::detail::TryStringViewToDLDevice(bad).has_value()) << bad;
  }
}

TEST(DeviceStrings, PartParsers) {
  EXPECT_EQ(ffi::detail::TryParseDLDeviceType("rocm"), kDLROCM);
  EXPECT_FALSE(ffi::detail::TryParseDLDeviceType("cuda_host").has_value());
  EXPECT_EQ(ffi::detail::TryParseDLDeviceIndex("12"), 12);
  EXPECT_FALSE(ffi::detail::TryParseDLDeviceIndex("1a").has_value());
}

}  // namespace
