// Tests of device.h: device names, parsing, equality, hashing and printing.
#include <gtest/gtest.h>
#include <tvm/ffi/any.h>
#include <tvm/ffi/device.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/string.h>

#include <sstream>
#include <string>
#include <unordered_map>
#include <unordered_set>

namespace {

namespace ffi = tvm::ffi;
using ffi::operator==;
using ffi::operator!=;

struct NamedType {
  DLDeviceType type;
  const char* name;
};

// Every DLDeviceType of spec §1 with its name.
const NamedType kNamedTypes[] = {
    {kDLCPU, "cpu"},
    {kDLCUDA, "cuda"},
    {kDLCUDAHost, "cuda_host"},
    {kDLOpenCL, "opencl"},
    {kDLVulkan, "vulkan"},
    {kDLMetal, "metal"},
    {kDLVPI, "vpi"},
    {kDLROCM, "rocm"},
    {kDLROCMHost, "rocm_host"},
    {kDLExtDev, "ext_dev"},
    {kDLCUDAManaged, "cuda_managed"},
    {kDLOneAPI, "oneapi"},
    {kDLWebGPU, "webgpu"},
    {kDLHexagon, "hexagon"},
    {kDLMAIA, "maia"},
    {kDLTrn, "trn"},
};

TEST(DeviceHelpers, EveryDeviceTypeNameRoundTrips) {
  for (const NamedType& t : kNamedTypes) {
    SCOPED_TRACE(t.name);
    EXPECT_STREQ(ffi::DeviceTypeToName(t.type), t.name);
    ASSERT_TRUE(ffi::DeviceTypeFromName(t.name).has_value());
    EXPECT_EQ(*ffi::DeviceTypeFromName(t.name), t.type);
    for (int32_t id : {0, 1, 7, 2147483647}) {
      DLDevice dev{t.type, id};
      std::string text = ffi::DeviceToString(dev);
      EXPECT_EQ(text, std::string(t.name) + ":" + std::to_string(id));
      EXPECT_TRUE(ffi::StringToDevice(text) == dev) << text;
    }
  }
}

TEST(DeviceHelpers, GuideSpellings) {
  EXPECT_EQ(ffi::DeviceToString(DLDevice{kDLCPU, 0}), "cpu:0");
  EXPECT_EQ(ffi::DeviceToString(DLDevice{kDLCUDA, 1}), "cuda:1");
  DLDevice cuda1 = ffi::StringToDevice("cuda:1");
  EXPECT_EQ(cuda1.device_type, kDLCUDA);
  EXPECT_EQ(cuda1.device_id, 1);
  // The id defaults to 0.
  EXPECT_TRUE(ffi::StringToDevice("metal") == (DLDevice{kDLMetal, 0}));
}

TEST(DeviceHelpers, UnnamedDeviceTypesUseTheirCode) {
  DLDevice odd{static_cast<DLDeviceType>(5), 3};
  EXPECT_EQ(ffi::DeviceTypeToName(5), nullptr);
  EXPECT_EQ(ffi::DeviceTypeToName(-1), nullptr);
  EXPECT_EQ(ffi::DeviceTypeToName(1000), nullptr);
  EXPECT_EQ(ffi::DeviceToString(odd), "5:3");
  EXPECT_TRUE(ffi::StringToDevice("5:3") == odd);
  EXPECT_TRUE(ffi::StringToDevice("2:4") == (DLDevice{kDLCUDA, 4}));
}

TEST(DeviceHelpers, BadStringsRaiseValueErrorQuotingThem) {
  const char* bad[] = {
      "", "gpu:0", "cuda:", "cuda:-1", "cuda:x", "cuda:1:2", "CPU", "cuda:99999999999", ":0"};
  for (const char* text : bad) {
    SCOPED_TRACE(text);
    try {
      ffi::StringToDevice(text);
      ADD_FAILURE() << "parsed without error";
    } catch (const ffi::Error& e) {
      EXPECT_EQ(e.kind(), "ValueError");
      EXPECT_NE(e.message().find(std::string("\"") + text + "\""), std::string::npos)
          << e.message();
    }
  }
}

TEST(DeviceHelpers, EqualityHashAndPrinting) {
  DLDevice a{kDLCUDA, 0}, b{kDLCUDA, 0}, c{kDLCUDA, 1}, d{kDLROCM, 0};
  EXPECT_TRUE(a == b);
  EXPECT_TRUE(a != c);
  EXPECT_TRUE(a != d);
  EXPECT_EQ(std::hash<DLDevice>()(a), std::hash<DLDevice>()(b));
  std::unordered_map<DLDevice, int> streams;
  streams[a] = 1;
  streams[c] = 2;
  streams[d] = 3;
  streams[b] = 4;
  EXPECT_EQ(streams.size(), 3u);
  EXPECT_EQ(streams[a], 4);
  std::unordered_set<DLDevice> seen;
  for (int id = 0; id < 100; ++id) seen.insert(DLDevice{kDLCUDA, id});
  for (int id = 0; id < 100; ++id) seen.insert(DLDevice{kDLCPU, id});
  EXPECT_EQ(seen.size(), 200u);
  std::ostringstream os;
  ffi::operator<<(os, c);
  EXPECT_EQ(os.str(), "cuda:1");
}

TEST(DeviceHelpers, StoredInAnyAsDevice) {
  ffi::Any v = DLDevice{kDLCUDAHost, 2};
  EXPECT_EQ(v.type_index(), kTVMFFIDevice);
  EXPECT_TRUE(v.cast<DLDevice>() == (DLDevice{kDLCUDAHost, 2}));
}

TEST(DeviceStringCast, RawStringCastsToDevice) {
  ffi::AnyView v = "cuda:1";
  EXPECT_EQ(v.type_index(), kTVMFFIRawStr);
  EXPECT_TRUE(v.cast<DLDevice>() == (DLDevice{kDLCUDA, 1}));
}

TEST(DeviceStringCast, SmallStringNameAloneMeansIndexZero) {
  ffi::Any v = ffi::String("cpu");
  EXPECT_EQ(v.type_index(), kTVMFFISmallStr);
  EXPECT_TRUE(v.cast<DLDevice>() == (DLDevice{kDLCPU, 0}));
}

TEST(DeviceStringCast, HeapStringWithTrailingTextAfterBlank) {
  ffi::Any v = ffi::String(std::string("rocm:12 (some description)"));
  EXPECT_EQ(v.type_index(), kTVMFFIStr);
  EXPECT_TRUE(v.cast<DLDevice>() == (DLDevice{kDLROCM, 12}));
}

TEST(DeviceStringCast, AliasNamesMapToTheirType) {
  EXPECT_TRUE(ffi::Any("mps:2").cast<DLDevice>() == (DLDevice{kDLMetal, 2}));
  EXPECT_TRUE(ffi::Any("wgpu").cast<DLDevice>() == (DLDevice{kDLWebGPU, 0}));
  EXPECT_TRUE(ffi::Any("trn:3").cast<DLDevice>() == (DLDevice{kDLTrn, 3}));
}

TEST(DeviceStringCast, RejectedStringsGiveNoDevice) {
  for (const char* bad : {"llvm", "c", "cl", "nvptx", "unknown", "test", "cuda:", "cuda:-1",
                          "cuda:1:2", "cuda:2147483648", ""}) {
    EXPECT_FALSE(ffi::Any(bad).try_cast<DLDevice>().has_value()) << bad;
  }
}

TEST(DeviceStringCast, LargestIndexIsAccepted) {
  EXPECT_TRUE(ffi::Any("cuda:2147483647").cast<DLDevice>() == (DLDevice{kDLCUDA, 2147483647}));
}

TEST(DeviceStringCast, CastOfRejectedStringRaisesTypeError) {
  try {
    ffi::Any("llvm").cast<DLDevice>();
    FAIL() << "no error";
  } catch (const ffi::Error& e) {
    EXPECT_EQ(e.kind(), "TypeError");
    EXPECT_NE(std::string(e.message()).find("Device"), std::string::npos) << e.message();
  }
}

TEST(DeviceStringCast, StrictCheckStillRejectsStrings) {
  EXPECT_FALSE(ffi::Any("cuda:0").as<DLDevice>().has_value());
}

TEST(DeviceStringCast, TypedFunctionTakesADeviceString) {
  ffi::Function f = ffi::Function::FromTyped([](DLDevice d) { return d.device_id; });
  EXPECT_EQ(f("cuda:7").cast<int>(), 7);
  EXPECT_EQ(f(ffi::String("vulkan:1")).cast<int>(), 1);
}

TEST(DeviceStringCast, BytesAreNotADevice) {
  EXPECT_FALSE(ffi::Any(ffi::Bytes("cuda:0", 6)).try_cast<DLDevice>().has_value());
}

}  // namespace
