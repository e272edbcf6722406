// The binary layout of MapObj/DictObj and the key hash: code compiled against other copies of the
// tvm-ffi headers reads and edits these objects inline, so offsets, layout switches, slot
// positions and hash values must be exactly the agreed ones.
#include <gtest/gtest.h>
#include <tvm/ffi/any.h>
#include <tvm/ffi/container/dict.h>
#include <tvm/ffi/container/map.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/string.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace {

namespace ffi = tvm::ffi;
using ffi::Any;
using ffi::Dict;
using ffi::Map;
using ffi::String;

// The 64-bit word at byte offset `off` of an object.
uint64_t WordAt(const ffi::Object* obj, size_t off) {
  uint64_t w;
  std::memcpy(&w, reinterpret_cast<const char*>(obj) + off, sizeof(w));
  return w;
}

const uint64_t kSmall = uint64_t{1} << 63;

std::vector<int64_t> Keys(const Map<int64_t, int64_t>& m) {
  std::vector<int64_t> out;
  for (auto kv : m) out.push_back(kv.first);
  return out;
}

TEST(MapLayout, FieldOffsetsOfTheObject) {
  Map<int64_t, int64_t> m = {{1, 10}};
  const ffi::MapObj* obj = m.get();
  EXPECT_EQ(sizeof(ffi::MapBaseObj), 56u);
  EXPECT_EQ(WordAt(obj, 32), 1u);                                    // size_
  EXPECT_EQ(WordAt(obj, 40), kSmall | 2);                            // slots_: small, capacity 2
  EXPECT_EQ(WordAt(obj, 24), reinterpret_cast<uint64_t>(obj) + 56);  // pairs in place
  EXPECT_EQ(WordAt(obj, 48), 0u);  // no data_deleter for in-place pairs
  const TVMFFIAny* pair = reinterpret_cast<const TVMFFIAny*>(WordAt(obj, 24));
  EXPECT_EQ(pair[0].type_index, kTVMFFIInt);
  EXPECT_EQ(pair[0].v_int64, 1);
  EXPECT_EQ(pair[1].v_int64, 10);
}

TEST(MapLayout, SmallCapacityGrowsTwoThenFourThenDenseEightSlots) {
  Map<int64_t, int64_t> m;
  std::vector<uint64_t> slots;
  for (int64_t i = 0; i < 5; ++i) {
    m.Set(i, i);
    slots.push_back(WordAt(m.get(), 40));
  }
  EXPECT_EQ(slots, (std::vector<uint64_t>{kSmall | 2, kSmall | 2, kSmall | 4, kSmall | 4, 8}));
  EXPECT_EQ(static_cast<uint32_t>(WordAt(m.get(), 56)), 61u);  // fib_shift = 64 - log2(8)
  EXPECT_NE(WordAt(m.get(), 48), 0u);                          // blocks have a data_deleter
}

TEST(MapLayout, DenseSlotCountDoublesAtNinetyNinePercentLoad) {
  Map<int64_t, int64_t> m;
  std::vector<std::pair<int64_t, uint64_t>> changes;
  uint64_t last = 0;
  for (int64_t i = 0; i < 300; ++i) {
    m.Set(i, i);
    if (WordAt(m.get(), 40) != last) {
      last = WordAt(m.get(), 40);
      if (!(last & kSmall)) changes.emplace_back(i + 1, last);
    }
  }
  std::vector<std::pair<int64_t, uint64_t>> expect = {{5, 8},    {8, 16},    {16, 32},  {32, 64},
                                                      {64, 128}, {127, 256}, {254, 512}};
  EXPECT_EQ(changes, expect);
}

TEST(MapLayout, RangeConstructionSizesTheTable) {
  auto slots_for = [](int n) {
    std::vector<std::pair<int64_t, int64_t>> v;
    for (int i = 0; i < n; ++i) v.emplace_back(i, i);
    Map<int64_t, int64_t> m(v.begin(), v.end());
    return WordAt(m.get(), 40);
  };
  EXPECT_EQ(slots_for(3), kSmall | 3);
  EXPECT_EQ(slots_for(5), 16u);
  EXPECT_EQ(slots_for(10), 32u);
  EXPECT_EQ(slots_for(100), 256u);
}

// The metadata bytes of a 6-entry int map: the same bytes any build produces, since slot
// positions follow from AnyHash and fibonacci hashing; key 3 was moved out of key 5's home.
TEST(MapLayout, DenseMetadataAndInsertionLinks) {
  Map<int64_t, int64_t> m;
  for (int64_t i = 0; i < 6; ++i) m.Set(i, i);
  const uint8_t* block = reinterpret_cast<const uint8_t*>(WordAt(m.get(), 24));
  std::vector<int> meta(block, block + 8);
  EXPECT_EQ(meta, (std::vector<int>{0xff, 0x04, 0x00, 0x00, 0x00, 0x80, 0xff, 0x00}));
  auto item_key = [&](uint64_t slot) {
    return reinterpret_cast<const TVMFFIAny*>(block + 16 + slot * 48)->v_int64;
  };
  EXPECT_EQ(item_key(1), 0);
  EXPECT_EQ(item_key(7), 1);
  EXPECT_EQ(item_key(5), 3);
  EXPECT_EQ(WordAt(m.get(), 64), 1u);  // iteration list head: slot of key 0
  EXPECT_EQ(WordAt(m.get(), 72), 3u);  // tail: slot of key 5
}

TEST(MapLayout, DenseOverwriteMovesKeyToTheEnd) {
  Map<int64_t, int64_t> m;
  for (int64_t i = 0; i < 6; ++i) m.Set(i, i);
  m.Set(2, 100);
  EXPECT_EQ(Keys(m), (std::vector<int64_t>{0, 1, 3, 4, 5, 2}));
}

TEST(MapLayout, SmallOverwriteKeepsPosition) {
  Map<int64_t, int64_t> m = {{0, 0}, {1, 1}, {2, 2}};
  m.Set(0, 5);
  EXPECT_EQ(Keys(m), (std::vector<int64_t>{0, 1, 2}));
}

TEST(MapLayout, OrderAfterEraseAndReinsert) {
  Map<int64_t, int64_t> m;
  for (int64_t i = 0; i < 10; ++i) m.Set(i, i);
  m.erase(3);
  m.erase(7);
  m.Set(3, 1);
  EXPECT_EQ(Keys(m), (std::vector<int64_t>{0, 1, 2, 4, 5, 6, 8, 9, 3}));
}

TEST(MapLayout, OrderSurvivesRehash) {
  Map<int64_t, int64_t> m;
  std::vector<int64_t> expect;
  for (int64_t i = 0; i < 2000; ++i) {
    m.Set(i * 7919 % 4001, i);
    expect.push_back(i * 7919 % 4001);
  }
  EXPECT_EQ(Keys(m), expect);
}

TEST(MapLayout, DenseMapEmptiedByErasesIteratesNothingAndKeepsSlots) {
  Map<int64_t, int64_t> m;
  for (int64_t i = 0; i < 10; ++i) m.Set(i, i);
  for (int64_t i = 0; i < 10; ++i) m.erase(i);
  EXPECT_EQ(m.begin(), m.end());
  EXPECT_EQ(WordAt(m.get(), 40), 16u);
  EXPECT_EQ(WordAt(m.get(), 64), ~uint64_t{0});
  m.Set(42, 1);
  EXPECT_EQ(Keys(m), (std::vector<int64_t>{42}));
}

TEST(MapLayout, IteratorIsBidirectional) {
  Map<int64_t, int64_t> m;
  for (int64_t i = 0; i < 20; ++i) m.Set(i, i * 2);
  auto it = m.end();
  --it;
  EXPECT_EQ((*it).first, 19);
  std::vector<int64_t> back;
  for (auto r = m.end(); r != m.begin();) back.push_back((*--r).first);
  EXPECT_EQ(back.size(), 20u);
  EXPECT_EQ(back.front(), 19);
  EXPECT_EQ(back.back(), 0);
  Map<int64_t, int64_t> small = {{1, 1}, {2, 2}};
  auto s = small.end();
  EXPECT_EQ((*--s).first, 2);
}

TEST(MapLayout, DictGrowsInPlaceWithHeapStorage) {
  Dict<int64_t, int64_t> d;
  const ffi::DictObj* obj = d.get();
  for (int64_t i = 0; i < 3; ++i) d.Set(i, i);
  EXPECT_EQ(d.get(), obj);
  EXPECT_EQ(WordAt(obj, 40), kSmall | 4);
  EXPECT_NE(WordAt(obj, 24), reinterpret_cast<uint64_t>(obj) + 56);  // moved to the heap
  EXPECT_NE(WordAt(obj, 48), 0u);
  for (int64_t i = 3; i < 40; ++i) d.Set(i, i);
  EXPECT_EQ(d.get(), obj);
  EXPECT_EQ(WordAt(obj, 40), 64u);
}

TEST(MapLayout, DictClearKeepsTheDenseStorage) {
  Dict<int64_t, int64_t> d;
  for (int64_t i = 0; i < 10; ++i) d.Set(i, i);
  d.clear();
  EXPECT_EQ(d.size(), 0u);
  EXPECT_EQ(WordAt(d.get(), 40), 16u);
  EXPECT_EQ(d.begin(), d.end());
  d.Set(1, 1);
  EXPECT_EQ(d.at(1), 1);
}

// Reference values of the agreed AnyHash (the same in every build).
TEST(AnyHashValues, MatchTheAgreedAlgorithm) {
  ffi::AnyHash h;
  EXPECT_EQ(h(Any(7)), 2654435841u);
  EXPECT_EQ(h(Any()), 2654435769u);
  EXPECT_EQ(h(Any(true)), 2654435896u);
  EXPECT_EQ(h(Any(1.5)), 4609434221268138618u);
  EXPECT_EQ(h(Any(0.0)), 2654435962u);
  EXPECT_EQ(h(Any(-0.0)), 9223372039509211770u);
  EXPECT_EQ(h(Any(String("hello"))), 4473483278u);
  EXPECT_EQ(h(Any(String("a long string key here"))), 3770297626u);
  EXPECT_EQ(h(Any(ffi::Bytes("abcdefghij", 10))), 3873208476u);
}

// The inline (small) form hashes its payload word; every other form hashes the bytes.
TEST(AnyHashValues, SmallStringsHashLikeTheirBytes) {
  ffi::AnyHash h;
  Any small = "abc";
  ffi::AnyView raw(static_cast<const char*>("abc"));
  EXPECT_EQ(small.type_index(), kTVMFFISmallStr);
  EXPECT_EQ(raw.type_index(), kTVMFFIRawStr);
  EXPECT_EQ(h(small), h(raw));
  EXPECT_EQ(h(small),
            ffi::detail::StableHashCombine(kTVMFFIStr, ffi::detail::StableHashBytes("abc", 3)));
  EXPECT_TRUE(ffi::AnyEqual()(ffi::AnyView(small), raw));
  EXPECT_FALSE(ffi::AnyEqual()(Any(String("abc")), Any(ffi::Bytes("abc", 3))));
}

TEST(StableHash, BytesFoldEightByteWordsModuloMersenne31) {
  const char* s = "0123456789abcdef!";
  uint64_t w1, w2;
  std::memcpy(&w1, s, 8);
  std::memcpy(&w2, s + 8, 8);
  uint64_t h = w1 % 2147483647ULL;
  h = (h * 1099511628211ULL + w2) % 2147483647ULL;
  h = (h * 1099511628211ULL + uint64_t{'!'}) % 2147483647ULL;
  EXPECT_EQ(ffi::detail::StableHashBytes(s, 17), h);
  EXPECT_EQ(ffi::detail::StableHashBytes(s + 1, 0), 0u);
  EXPECT_EQ(ffi::detail::StableHashCombine(1, 2), 1 ^ (2 + 0x9e3779b9ULL + 64 + 0));
}

TEST(MapBaseObjApi, AtFindCountEraseOnTheObject) {
  Map<Any, Any> m = {{String("a"), 1}, {String("b"), 2}};
  ffi::MapObj* obj = m.CopyOnWrite();
  EXPECT_EQ(obj->at(Any(String("a"))).cast<int>(), 1);
  EXPECT_EQ(obj->count(Any(String("b"))), 1u);
  EXPECT_EQ(obj->count(Any(String("z"))), 0u);
  auto it = obj->find(Any(String("b")));
  ASSERT_NE(it, obj->end());
  EXPECT_EQ(it->second.cast<int>(), 2);
  obj->erase(it);
  EXPECT_EQ(obj->size(), 1u);
  obj->erase(Any(String("a")));
  EXPECT_TRUE(obj->empty());
}

TEST(MapBaseObjApi, AtOnMissingKeyRaisesKeyError) {
  Map<Any, Any> m = {{1, 1}};
  try {
    m->at(Any(2));
    FAIL() << "expected KeyError";
  } catch (const ffi::Error& e) {
    EXPECT_EQ(e.kind(), "KeyError");
    EXPECT_NE(std::string(e.message()).find("key is not in Map"), std::string::npos);
  }
}

TEST(MapBaseObjApi, ShallowCopyIsIndependent) {
  Map<int64_t, int64_t> m;
  for (int64_t i = 0; i < 30; ++i) m.Set(i, i);
  ffi::ObjectPtr<ffi::Object> copy = ffi::MapObj::ShallowCopy(m.get());
  EXPECT_NE(copy.get(), static_cast<const ffi::Object*>(m.get()));
  Any as_any = ffi::ObjectRef(copy);
  auto c = as_any.cast<Map<int64_t, int64_t>>();
  c.Set(100, 1);
  EXPECT_EQ(m.size(), 30u);
  EXPECT_EQ(c.size(), 31u);
  EXPECT_EQ(Keys(c).front(), 0);
}

}  // namespace

namespace {

// A chain link written by hand with jump index `jump` (as another build may write one): the Dict
// whose chain at some head is extended by a key placed through that link. For an index of the
// jump table the new key sits at the slot the table's distance leads to; for an index outside the
// table (a corrupt map) it sits in any empty slot.
struct ForeignChain {
  Dict<int64_t, int64_t> d;
  int64_t foreign_key = -1;
};

ForeignChain MakeForeignChain(uint8_t jump) {
  ForeignChain fc;
  for (int64_t i = 0; i < 20; ++i) fc.d.Set(i, i);
  ffi::DictObj* obj = const_cast<ffi::DictObj*>(fc.d.get());
  char* base = reinterpret_cast<char*>(obj);
  uint8_t* blocks = reinterpret_cast<uint8_t*>(WordAt(obj, 24));
  const uint64_t slots = WordAt(obj, 40);
  const uint32_t shift = static_cast<uint32_t>(WordAt(obj, 56));
  auto meta = [&](uint64_t i) -> uint8_t& { return blocks[(i / 16) * 784 + i % 16]; };
  auto item = [&](uint64_t i) {
    return reinterpret_cast<uint64_t*>(blocks + (i / 16) * 784 + 16 + (i % 16) * 48);
  };
  auto home = [&](int64_t k) {
    return (ffi::detail::kMapFibMul * ffi::detail::StableHashCombine(kTVMFFIInt, k)) >> shift;
  };
  const bool in_table = jump < ffi::detail::kMapKnownJumps;
  auto target = [&](uint64_t h) {
    if (in_table) return (h + ffi::detail::MapJumpDistance(jump)) & (slots - 1);
    uint64_t c = 0;
    while (meta(c) != 0xFF) ++c;
    return c;
  };
  // A head with no successor whose jump target is empty, and a new key of the same home.
  uint64_t h = 0;
  while (h < slots && (meta(h) != 0x00 || meta(target(h)) != 0xFF)) ++h;
  if (h == slots) {
    ADD_FAILURE() << "no lone chain head with an empty jump target";
    return fc;
  }
  int64_t key = 1000;
  while (home(key) != h) ++key;
  uint64_t c = target(h);
  uint64_t* it = item(c);
  it[0] = kTVMFFIInt;  // key cell: type index, then the value
  it[1] = static_cast<uint64_t>(key);
  it[2] = kTVMFFIInt;
  it[3] = static_cast<uint64_t>(key * 2);
  uint64_t tail = WordAt(obj, 72);
  it[4] = tail;
  it[5] = ~uint64_t{0};
  item(tail)[5] = c;
  std::memcpy(base + 72, &c, 8);
  meta(h) = jump;
  meta(c) = 0x80;
  uint64_t size = WordAt(obj, 32) + 1;
  std::memcpy(base + 32, &size, 8);
  EXPECT_LT(c, slots);
  fc.foreign_key = key;
  return fc;
}

// Jump index 126 is outside the 126-entry table: only a corrupt map holds it.
constexpr uint8_t kCorruptJump = 126;
// A far jump (distance 25252 * 25253 / 2), which only crowded tables of another build write.
constexpr uint8_t kFarJump = 96;

TEST(MapLayout, FarJumpIndexOfTheTableIsFollowedByLookups) {
  ForeignChain fc = MakeForeignChain(kFarJump);
  EXPECT_EQ(fc.d.at(fc.foreign_key), fc.foreign_key * 2);
  EXPECT_EQ(fc.d.size(), 21u);
  for (int64_t i = 0; i < 20; ++i) EXPECT_EQ(fc.d.at(i), i);
}

TEST(MapLayout, FarJumpIndexOfTheTableIsFollowedByErase) {
  ForeignChain fc = MakeForeignChain(kFarJump);
  EXPECT_EQ(fc.d.erase(fc.foreign_key), 1u);
  EXPECT_EQ(fc.d.count(fc.foreign_key), 0u);
  EXPECT_EQ(fc.d.size(), 20u);
}

TEST(MapLayout, JumpDistancesAreTheAgreedTable) {
  EXPECT_EQ(ffi::detail::MapJumpDistance(15), 15u);
  EXPECT_EQ(ffi::detail::MapJumpDistance(16), 21u);
  EXPECT_EQ(ffi::detail::MapJumpDistance(81), 71u * 72u / 2u);
  EXPECT_EQ(ffi::detail::MapJumpDistance(82), 87u * 88u / 2u);
  for (uint8_t k = 17; k < ffi::detail::kMapKnownJumps; ++k) {
    EXPECT_GT(ffi::detail::MapJumpDistance(k), ffi::detail::MapJumpDistance(k - 1)) << int{k};
  }
}

// A nearly full table whose probes need far jumps: every key stays reachable after growth.
TEST(MapLayout, CrowdedTableFindsEveryKey) {
  Dict<int64_t, int64_t> d;
  for (int64_t i = 0; i < 4000; ++i) d.Set(i * 7919, i);
  for (int64_t i = 0; i < 4000; ++i) ASSERT_EQ(d.at(i * 7919), i) << i;
  for (int64_t i = 0; i < 4000; i += 2) d.erase(i * 7919);
  for (int64_t i = 1; i < 4000; i += 2) ASSERT_EQ(d.at(i * 7919), i) << i;
  EXPECT_EQ(d.size(), 2000u);
}

TEST(MapLayout, CorruptJumpIndexFallsBackToAScanForLookups) {
  ForeignChain fc = MakeForeignChain(kCorruptJump);
  EXPECT_EQ(fc.d.at(fc.foreign_key), fc.foreign_key * 2);
  EXPECT_EQ(fc.d.count(fc.foreign_key + 1000000), 0u);
  EXPECT_EQ(fc.d.size(), 21u);
}

TEST(MapLayout, CorruptJumpIndexIsRebuiltBeforeErase) {
  ForeignChain fc = MakeForeignChain(kCorruptJump);
  EXPECT_EQ(fc.d.erase(fc.foreign_key), 1u);
  EXPECT_EQ(fc.d.count(fc.foreign_key), 0u);
  EXPECT_EQ(fc.d.size(), 20u);
  for (int64_t i = 0; i < 20; ++i) EXPECT_EQ(fc.d.at(i), i);
}

TEST(MapLayout, CorruptJumpIndexIsRebuiltBeforeInsertIntoThatChain) {
  ForeignChain fc = MakeForeignChain(kCorruptJump);
  // Keys of every home: one of them extends the foreign chain.
  for (int64_t k = 5000; k < 5200; ++k) fc.d.Set(k, k);
  EXPECT_EQ(fc.d.at(fc.foreign_key), fc.foreign_key * 2);
  for (int64_t k = 5000; k < 5200; ++k) EXPECT_EQ(fc.d.at(k), k);
  for (int64_t i = 0; i < 20; ++i) EXPECT_EQ(fc.d.at(i), i);
  EXPECT_EQ(fc.d.size(), 221u);
}

}  // namespace
