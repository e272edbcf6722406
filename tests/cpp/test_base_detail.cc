// Tests of base_detail.h, endian.h, memory.h and the extra helpers
// (extra/base64.h, extra/dtype.h): stable hashing, for_each, type schemas,
// byte swapping, allocation, base64 and dtype_trait.
#include <gtest/gtest.h>

#include <tvm/ffi/any.h>
#include <tvm/ffi/base_detail.h>
#include <tvm/ffi/endian.h>
#include <tvm/ffi/extra/base64.h>
#include <tvm/ffi/extra/dtype.h>
#include <tvm/ffi/memory.h>
#include <tvm/ffi/string.h>
#include "testing_helpers.h"

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace {

namespace ffi = tvm::ffi;
using tvm_ffi_testing::Cell;
using tvm_ffi_testing::ErrorMessage;

// The published folding rule, written out for a reference value.
uint64_t ReferenceHash(const std::string& s) {
  uint64_t h = 0;
  for (size_t i = 0; i < s.size(); i += 8) {
    uint64_t w = 0;
    for (size_t b = 0; b < 8 && i + b < s.size(); ++b) {
      w |= uint64_t{static_cast<unsigned char>(s[i + b])} << (8 * b);
    }
    h = (h * 1099511628211ULL + w) % 2147483647ULL;
  }
  return h;
}

TEST(BaseDetail, ForEachVisitsInOrderWithIndex) {
  std::vector<std::string> seen;
  ffi::detail::for_each(
      [&](size_t i, const auto& v) { seen.push_back(std::to_string(i) + ":" + std::to_string(v)); },
      10, 2.5, 7u);
  EXPECT_EQ(seen, (std::vector<std::string>{"0:10", "1:2.500000", "2:7"}));
}

TEST(BaseDetail, StableHashBytesFollowsTheFoldingRule) {
  for (const std::string s : {"", "a", "abcdefg", "abcdefgh", "abcdefghijklmnopq"}) {
    EXPECT_EQ(ffi::detail::StableHashBytes(s.data(), s.size()), ReferenceHash(s)) << s;
  }
  EXPECT_EQ(ffi::detail::StableHashBytes("", 0), 0u);
}

TEST(BaseDetail, StableHashBytesIgnoresAlignment) {
  alignas(8) char buf[32] = {};
  const char* text = "0123456789abcdef";
  std::memcpy(buf, text, 16);
  uint64_t aligned = ffi::detail::StableHashBytes(buf, 16);
  std::memmove(buf + 3, buf, 16);
  EXPECT_EQ(ffi::detail::StableHashBytes(buf + 3, 16), aligned);
}

TEST(BaseDetail, SmallStrHashEqualsBytesHash) {
  ffi::Any small = ffi::String("abc");
  ASSERT_EQ(small.type_index(), kTVMFFISmallStr);
  EXPECT_EQ(ffi::detail::StableHashSmallStrBytes(Cell(small)),
            ffi::detail::StableHashBytes("abc", 3));
}

TEST(BaseDetail, StableHashCombineFormula) {
  uint64_t key = 12345, value = 678;
  EXPECT_EQ(ffi::detail::StableHashCombine(key, value),
            key ^ (value + 0x9e3779b9 + (key << 6) + (key >> 2)));
}

TEST(BaseDetail, TypeSchemaOfValuesAnyAndVoid) {
  EXPECT_EQ(ffi::detail::TypeSchema<int>::v(), R"({"type":"int"})");
  EXPECT_EQ(ffi::detail::TypeSchemaImpl<const ffi::String&>::v(),
            ffi::TypeTraits<ffi::String>::TypeSchema());
  EXPECT_EQ(ffi::detail::TypeSchema<ffi::Any>::v(), R"({"type":"Any"})");
  EXPECT_EQ(ffi::detail::TypeSchema<void>::v(), R"({"type":"None"})");
}

TEST(BaseDetail, PredictMacrosKeepTheValue) {
  int x = 3;
  EXPECT_TRUE(TVM_FFI_PREDICT_TRUE(x == 3));
  EXPECT_FALSE(TVM_FFI_PREDICT_FALSE(x == 4));
}

TEST(Endian, ByteSwapReversesEachElement) {
  uint32_t v[2] = {0x01020304u, 0xA0B0C0D0u};
  ffi::ByteSwap(v, sizeof(uint32_t), 2);
  EXPECT_EQ(v[0], 0x04030201u);
  EXPECT_EQ(v[1], 0xD0C0B0A0u);
  uint16_t odd = 0x1122;
  ffi::ByteSwap(&odd, 2, 1);
  EXPECT_EQ(odd, 0x2211);
}

TEST(Endian, HostOrderIsDetected) {
  uint16_t probe = 1;
  bool little = *reinterpret_cast<unsigned char*>(&probe) == 1;
  EXPECT_EQ(static_cast<bool>(TVM_FFI_LITTLE_ENDIAN), little);
  EXPECT_EQ(static_cast<bool>(TVM_FFI_IO_NO_ENDIAN_SWAP), little);
}

class WideObj : public ffi::Object {
 public:
  alignas(64) double data[4] = {0, 0, 0, 0};
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("test.base.Wide", WideObj, ffi::Object);
};

class SeqObj : public ffi::Object {
 public:
  int64_t size = 0;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("test.base.Seq", SeqObj, ffi::Object);
};

TEST(Memory, OverAlignedObjectsAreAligned) {
  ffi::ObjectPtr<WideObj> p = ffi::make_object<WideObj>();
  EXPECT_EQ(reinterpret_cast<uintptr_t>(p.get()) % 64, 0u);
  EXPECT_EQ(p->type_index(), WideObj::RuntimeTypeIndex());
}

TEST(Memory, InplaceElementsFollowTheObject) {
  static_assert(sizeof(SeqObj) % alignof(int64_t) == 0);
  ffi::ObjectPtr<SeqObj> p = ffi::make_inplace_array_object<SeqObj, int64_t>(3);
  int64_t* elems = ffi::InplaceArrayBase<SeqObj, int64_t>(p.get());
  EXPECT_EQ(reinterpret_cast<char*>(elems), reinterpret_cast<char*>(p.get()) + sizeof(SeqObj));
  elems[2] = 9;
  EXPECT_EQ(elems[2], 9);
}

TEST(Memory, AllocatorMakesObjectsWithDeleter) {
  ffi::ObjectPtr<SeqObj> p = ffi::detail::SimpleObjAllocator().make_object<SeqObj>();
  const TVMFFIObject* header = ffi::detail::ObjectUnsafe::GetHeader(p.get());
  EXPECT_EQ(header->combined_ref_count, ffi::detail::kCombinedRefCountBothOne);
  ffi::FObjectDeleter del = header->deleter;
  EXPECT_NE(del, nullptr);
}

TEST(Memory, AlignedAllocHonoursAlignment) {
  void* p = ffi::detail::AlignedAlloc(100, 256);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(p) % 256, 0u);
  ffi::detail::AlignedFree(p);
}

std::string Decoded(const char* text) {
  ffi::Bytes b = ffi::Base64Decode(ffi::String(text));
  return std::string(b.data(), b.size());
}

TEST(Base64, EncodesWithPadding) {
  EXPECT_EQ(ffi::Base64Encode(ffi::Bytes("", 0)), "");
  EXPECT_EQ(ffi::Base64Encode(ffi::Bytes("f", 1)), "Zg==");
  EXPECT_EQ(ffi::Base64Encode(ffi::Bytes("fo", 2)), "Zm8=");
  EXPECT_EQ(ffi::Base64Encode(ffi::Bytes("foo", 3)), "Zm9v");
  EXPECT_EQ(ffi::Base64Encode(ffi::Bytes("foobar", 6)), "Zm9vYmFy");
  const char raw[] = {'\0', '\xff', '\xfe'};
  EXPECT_EQ(ffi::Base64Encode(TVMFFIByteArray{raw, 3}), "AP/+");
}

TEST(Base64, DecodesWhatItEncodes) {
  EXPECT_EQ(Decoded(""), "");
  EXPECT_EQ(Decoded("Zg=="), "f");
  EXPECT_EQ(Decoded("Zm8="), "fo");
  EXPECT_EQ(Decoded("Zm9vYmFy"), "foobar");
  std::string all;
  for (int i = 0; i < 256; ++i) all += static_cast<char>(i);
  ffi::String text = ffi::Base64Encode(ffi::Bytes(all.data(), all.size()));
  EXPECT_EQ(Decoded(text.c_str()), all);
}

TEST(Base64, LengthNotMultipleOfFourIsInvalid) {
  EXPECT_EQ(ErrorMessage([] { Decoded("abc"); }, "InternalError").find("invalid base64 encoding"),
            0u);
}

TEST(Base64, ForeignCharacterDecodesAsDigitZero) {
  // No validation: '!' reads as 'A' (digit 0).
  EXPECT_EQ(Decoded("ab!d"), Decoded("abAd"));
}

TEST(Base64, PaddingDropsTheBytesOfItsPlaces) {
  EXPECT_EQ(Decoded("Zm9="), "fo");
  EXPECT_EQ(Decoded("Zm=="), "f");
  // '=' in the third place only drops the second byte; the fourth digit still counts.
  std::string third_only = Decoded("AB=C");
  ASSERT_EQ(third_only.size(), 2u);
  EXPECT_EQ(static_cast<unsigned char>(third_only[0]), 0x00);
  EXPECT_EQ(static_cast<unsigned char>(third_only[1]), 0x02);
  // '=' in the first two places is just a non-alphabet character (digit 0).
  EXPECT_EQ(Decoded("=AAA").size(), 3u);
}

TEST(DTypeTrait, StandardTypes) {
  EXPECT_TRUE(ffi::dtype_trait<int8_t>::value.code == kDLInt);
  EXPECT_TRUE(ffi::dtype_trait<int8_t>::value.bits == 8);
  EXPECT_TRUE(ffi::dtype_trait<uint16_t>::value.code == kDLUInt);
  EXPECT_TRUE(ffi::dtype_trait<uint16_t>::value.bits == 16);
  EXPECT_TRUE(ffi::dtype_trait<long long>::value.bits == 64);  // NOLINT(runtime/int)
  EXPECT_TRUE(ffi::dtype_trait<double>::value.code == kDLFloat);
  EXPECT_TRUE(ffi::dtype_trait<double>::value.bits == 64);
  EXPECT_TRUE(ffi::dtype_trait<bool>::value.code == kDLBool);
  EXPECT_TRUE(ffi::dtype_trait<bool>::value.bits == 8);
  EXPECT_TRUE(ffi::dtype_trait<float>::value.lanes == 1);
  EXPECT_TRUE(ffi::dtype_trait<__nv_fp4x2_e2m1>::value.lanes == 2);
  EXPECT_TRUE(ffi::dtype_trait<__nv_bfloat16>::value.code == kDLBfloat);
}

}  // namespace
