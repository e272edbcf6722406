// StructuralKey (extra/structural_key.h): layout and reflection, equality and
// std::hash, and the __any_hash__ / __any_equal__ hooks through which Map and
// Dict (AnyHash / AnyEqual) treat structurally equal keys - and equal heap
// BigInts - as one key.
#include <gtest/gtest.h>
#include <tvm/ffi/any.h>
#include <tvm/ffi/big_int.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/dict.h>
#include <tvm/ffi/container/map.h>
#include <tvm/ffi/extra/structural_hash.h>
#include <tvm/ffi/extra/structural_key.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/string.h>

#include <cstddef>
#include <cstdint>
#include <unordered_set>

#include "testing_helpers.h"

namespace {

namespace ffi = tvm::ffi;
using ffi::Any;
using ffi::Array;
using ffi::StructuralKey;
using ffi::StructuralKeyObj;
using tvm_ffi_testing::ErrorMessage;

ffi::BigInt TwoPow100() { return ffi::BigInt(int64_t{1} << 50) * ffi::BigInt(int64_t{1} << 50); }

TEST(StructuralKey, LayoutAndTypeMatchTheAbi) {
  EXPECT_EQ(offsetof(StructuralKeyObj, key), 24u);
  EXPECT_EQ(offsetof(StructuralKeyObj, hash_i64), 40u);
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(StructuralKeyObj::RuntimeTypeIndex());
  EXPECT_EQ(std::string(info->type_key.data, info->type_key.size), "ffi.StructuralKey");
  ASSERT_NE(info->metadata, nullptr);
  EXPECT_EQ(info->metadata->structural_eq_hash_kind, kTVMFFISEqHashKindUnsupported);
  EXPECT_TRUE(StructuralKeyObj::_type_final);
}

TEST(StructuralKey, StoresTheStructuralHash) {
  StructuralKey key(Array<int>{1, 2});
  EXPECT_EQ(key->hash_i64, static_cast<int64_t>(2823322240268045181ULL));
  EXPECT_EQ(std::hash<StructuralKey>()(key), static_cast<size_t>(2823322240268045181ULL));
}

TEST(StructuralKey, EqualityIsStructural) {
  EXPECT_TRUE(StructuralKey(Array<int>{1, 2}) == StructuralKey(Array<int>{1, 2}));
  EXPECT_FALSE(StructuralKey(Array<int>{1, 2}) == StructuralKey(Array<int>{2, 1}));
  EXPECT_TRUE(StructuralKey(Array<int>{1}) != StructuralKey(Array<int>{2}));
}

TEST(StructuralKey, UnsupportedKeysRaiseTypeError) {
  ffi::Function f = ffi::Function::FromTyped([]() { return 1; });
  EXPECT_EQ(ErrorMessage([&] { StructuralKey key(f); }),
            "Type metadata is not set for type `ffi.Function`, so StructuralHash is not "
            "supported for this type");
}

TEST(StructuralKey, GlobalsConstructAndCompare) {
  Any key = ffi::Function::GetGlobalRequired("ffi.StructuralKey")(Array<int>{1, 2});
  ffi::Function equal = ffi::Function::GetGlobalRequired("ffi.StructuralKeyEqual");
  EXPECT_TRUE(equal(key, StructuralKey(Array<int>{1, 2})).cast<bool>());
  EXPECT_FALSE(equal(key, StructuralKey(Array<int>{1})).cast<bool>());
}

TEST(StructuralKey, StructuralEqualityOfKeysThemselvesRaises) {
  StructuralKey key(1);
  EXPECT_EQ(ErrorMessage([&] { ffi::StructuralEqual::Equal(key, key); }),
            "_type_s_eq_hash_kind is not set for type `ffi.StructuralKey`, so StructuralHash is "
            "not supported for this type");
}

TEST(StructuralKey, EqualKeysCollapseInMap) {
  ffi::Map<Any, int> m;
  m.Set(StructuralKey(Array<int>{1, 2}), 1);
  m.Set(StructuralKey(Array<int>{1, 2}), 2);
  m.Set(StructuralKey(Array<int>{3}), 3);
  EXPECT_EQ(m.size(), 2u);
  EXPECT_EQ(m.at(StructuralKey(Array<int>{1, 2})), 2);
  EXPECT_EQ(m.count(StructuralKey(Array<int>{4})), 0u);
}

TEST(StructuralKey, EqualKeysCollapseInDictBeyondTheSmallLayout) {
  ffi::Dict<Any, int> d;
  for (int i = 0; i < 20; ++i) d.Set(StructuralKey(Array<int>{i, i}), i);
  for (int i = 0; i < 20; ++i) d.Set(StructuralKey(Array<int>{i, i}), i + 100);
  EXPECT_EQ(d.size(), 20u);
  EXPECT_EQ(d.at(StructuralKey(Array<int>{7, 7})), 107);
}

TEST(StructuralKey, AnyHashCombinesTypeIndexAndStoredHash) {
  StructuralKey key(Array<int>{1, 2});
  EXPECT_EQ(ffi::AnyHash()(Any(key)),
            ffi::detail::StableHashCombine(static_cast<uint64_t>(key->type_index()),
                                           static_cast<uint64_t>(key->hash_i64)));
}

TEST(StructuralKey, UnorderedSetUsesStructuralEquality) {
  std::unordered_set<StructuralKey> set;
  set.insert(StructuralKey(Array<int>{1, 2}));
  set.insert(StructuralKey(Array<int>{1, 2}));
  EXPECT_EQ(set.size(), 1u);
}

TEST(AnyKeyHooks, EqualHeapBigIntsAreOneMapKey) {
  ffi::Map<Any, int> m;
  m.Set(TwoPow100(), 1);
  m.Set(ffi::BigInt(int64_t{1} << 40) * ffi::BigInt(int64_t{1} << 60), 2);
  EXPECT_EQ(m.size(), 1u);
  EXPECT_EQ(m.at(TwoPow100()), 2);
  EXPECT_EQ(m.count(TwoPow100() + ffi::BigInt(1)), 0u);
}

TEST(AnyKeyHooks, ObjectsWithoutHooksStayIdentityKeys) {
  ffi::Map<Any, int> m;
  m.Set(Array<int>{1}, 1);
  m.Set(Array<int>{1}, 2);
  EXPECT_EQ(m.size(), 2u);
}

}  // namespace
