// Tests of Map<K, V> (container/map.h), its Any conversions and the ffi.Map* runtime globals.
#include <gtest/gtest.h>
#include <tvm/ffi/any.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/dict.h>
#include <tvm/ffi/container/map.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/memory.h>
#include <tvm/ffi/string.h>

#include <chrono>
#include <cstdint>
#include <map>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace {

namespace ffi = tvm::ffi;
using ffi::Any;
using ffi::Map;
using ffi::String;

// An object that counts its live instances, to check the map's references.
class MapCountedObj : public ffi::Object {
 public:
  static int live;
  int64_t value;
  explicit MapCountedObj(int64_t v) : value(v) { ++live; }
  ~MapCountedObj() { --live; }
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("test.map.Counted", MapCountedObj, ffi::Object);
};
int MapCountedObj::live = 0;

class MapCounted : public ffi::ObjectRef {
 public:
  explicit MapCounted(int64_t v) : ObjectRef(ffi::make_object<MapCountedObj>(v)) {}
  TVM_FFI_DEFINE_OBJECT_REF_METHODS_NULLABLE(MapCounted, ffi::ObjectRef, MapCountedObj);
};

// The keys of a map in iteration order.
template <typename K, typename V>
std::vector<K> KeysOf(const Map<K, V>& m) {
  std::vector<K> keys;
  for (const auto& kv : m) keys.push_back(kv.first);
  return keys;
}

std::string CastError(const Any& value, void (*cast)(const Any&)) {
  try {
    cast(value);
  } catch (const ffi::Error& e) {
    EXPECT_EQ(e.kind(), "TypeError");
    return e.message();
  }
  ADD_FAILURE() << "cast did not throw";
  return "";
}

TEST(Map, GuideExample) {
  ffi::Map<ffi::String, int> map0 = {{"Alice", 100}, {"Bob", 95}};
  EXPECT_EQ(map0.size(), 2);
  EXPECT_EQ(map0.at("Alice"), 100);
  EXPECT_EQ(map0.count("Alice"), 1);
}

TEST(Map, DefaultIsEmpty) {
  Map<String, int> m;
  EXPECT_TRUE(m.empty());
  EXPECT_EQ(m.size(), 0);
  EXPECT_EQ(m.begin(), m.end());
  EXPECT_EQ(m.count("x"), 0);
}

// The KeyError text is fixed by the spec (cpp_api.md §2.12): the same for every key.
TEST(Map, AtMissingStringKeyRaisesKeyError) {
  Map<String, int> m = {{"Alice", 100}};
  try {
    m.at("Carol");
    FAIL() << "no exception";
  } catch (const ffi::Error& e) {
    EXPECT_EQ(e.kind(), "KeyError");
    EXPECT_EQ(e.message(), "key is not in Map");
  }
}

TEST(Map, IndexingMissingIntKeyRaisesKeyError) {
  Map<int64_t, String> m = {{1, "one"}};
  try {
    m[42];
    FAIL() << "no exception";
  } catch (const ffi::Error& e) {
    EXPECT_EQ(e.kind(), "KeyError");
    EXPECT_EQ(e.message(), "key is not in Map");
  }
}

TEST(Map, LookupAcceptsStringLikeKeys) {
  Map<String, int> m = {{"short", 1}, {"a key longer than seven bytes", 2}};
  std::string s = "a key longer than seven bytes";
  const char* p = "short";
  EXPECT_EQ(m.at(p), 1);
  EXPECT_EQ(m.at(s), 2);
  EXPECT_EQ(m.at(String(s)), 2);
  EXPECT_EQ(m[std::string("short")], 1);
}

TEST(Map, FindReturnsIteratorToEntryOrEnd) {
  Map<String, int> m = {{"a", 1}, {"b", 2}};
  auto it = m.find("b");
  ASSERT_NE(it, m.end());
  EXPECT_EQ((*it).first, "b");
  EXPECT_EQ((*it).second, 2);
  EXPECT_EQ(m.find("zz"), m.end());
}

TEST(Map, GetReturnsOptional) {
  Map<String, int> m = {{"a", 1}};
  EXPECT_EQ(m.Get("a").value(), 1);
  EXPECT_FALSE(m.Get("b").has_value());
}

TEST(Map, IteratesInInsertionOrder) {
  Map<String, int> m;
  const std::vector<std::string> order = {"zeta", "alpha", "mid", "beta", "omega"};
  for (size_t i = 0; i < order.size(); ++i) m.Set(order[i], static_cast<int>(i));
  std::vector<std::string> seen;
  int expect_value = 0;
  for (auto [k, v] : m) {
    seen.push_back(k);
    EXPECT_EQ(v, expect_value++);
  }
  EXPECT_EQ(seen, order);
}

TEST(Map, SetExistingKeyReplacesValueInPlace) {
  Map<String, int> m = {{"a", 1}, {"b", 2}, {"c", 3}};
  m.Set("a", 10);
  EXPECT_EQ(m.size(), 3);
  EXPECT_EQ(m.at("a"), 10);
  EXPECT_EQ(KeysOf(m), (std::vector<String>{"a", "b", "c"}));
}

TEST(Map, DuplicateKeysInInitializerKeepFirstPositionAndLastValue) {
  Map<String, int> m = {{"a", 1}, {"b", 2}, {"a", 3}};
  EXPECT_EQ(m.size(), 2);
  EXPECT_EQ(m.at("a"), 3);
  EXPECT_EQ(KeysOf(m), (std::vector<String>{"a", "b"}));
}

TEST(Map, CopyIsUnaffectedByLaterSetOnOriginal) {
  Map<String, int> m = {{"a", 1}};
  Map<String, int> copy = m;
  EXPECT_EQ(copy.get(), m.get());
  m.Set("b", 2);
  m.Set("a", 5);
  EXPECT_EQ(copy.size(), 1);
  EXPECT_EQ(copy.at("a"), 1);
  EXPECT_EQ(m.size(), 2);
  EXPECT_EQ(m.at("a"), 5);
  EXPECT_NE(copy.get(), m.get());
}

TEST(Map, CopyIsUnaffectedByLaterEraseAndClearOnOriginal) {
  Map<String, int> m = {{"a", 1}, {"b", 2}};
  Map<String, int> copy1 = m;
  m.erase("a");
  Map<String, int> copy2 = m;
  m.clear();
  EXPECT_EQ(copy1.size(), 2);
  EXPECT_EQ(copy2.size(), 1);
  EXPECT_EQ(copy2.at("b"), 2);
  EXPECT_TRUE(m.empty());
}

TEST(Map, NoCopyWhenUnique) {
  Map<String, int> m = {{"a", 1}};
  const ffi::MapObj* before = m.get();
  m.Set("b", 2);
  m.erase("a");
  m.Set("c", 3);
  EXPECT_EQ(m.get(), before);
  m.clear();
  EXPECT_EQ(m.get(), before);
}

TEST(Map, EraseOfAbsentKeyDoesNotCopy) {
  Map<String, int> m = {{"a", 1}};
  Map<String, int> copy = m;
  EXPECT_EQ(m.erase("zz"), 0);
  EXPECT_EQ(m.get(), copy.get());
  EXPECT_EQ(m.erase("a"), 1);
  EXPECT_NE(m.get(), copy.get());
}

TEST(Map, InsertionOrderHoldsAfterEraseAndReinsert) {
  Map<int64_t, int64_t> m;
  for (int64_t i = 0; i < 5; ++i) m.Set(i, i);
  m.erase(1);
  m.erase(3);
  m.Set(1, 100);
  EXPECT_EQ(KeysOf(m), (std::vector<int64_t>{0, 2, 4, 1}));
  EXPECT_EQ(m.at(1), 100);
}

TEST(Map, InsertionOrderHoldsAfterEraseAndReinsertInHashedForm) {
  Map<int64_t, int64_t> m;
  std::vector<int64_t> expect;
  for (int64_t i = 0; i < 100; ++i) m.Set(i, i);
  for (int64_t i = 0; i < 100; i += 3) m.erase(i);
  for (int64_t i = 0; i < 100; i += 9) m.Set(i, -i);
  for (int64_t i = 0; i < 100; ++i) {
    if (i % 3 != 0) expect.push_back(i);
  }
  for (int64_t i = 0; i < 100; i += 9) expect.push_back(i);
  EXPECT_FALSE(m->IsSmall());
  EXPECT_EQ(KeysOf(m), expect);
}

TEST(Map, FifthEntryMovesToDenseLayoutInANewObject) {
  Map<int64_t, int64_t> m;
  for (int64_t i = 0; i < 4; ++i) m.Set(i, i * 10);
  EXPECT_TRUE(m->IsSmall());
  EXPECT_EQ(m->SlotCount(), 4u);
  m.Set(100, 1000);
  EXPECT_FALSE(m->IsSmall());
  EXPECT_EQ(m->SlotCount(), 8u);
  for (int64_t i = 0; i < 4; ++i) m.erase(i);
  EXPECT_FALSE(m->IsSmall());  // erasing never shrinks the layout
  EXPECT_EQ(KeysOf(m), (std::vector<int64_t>{100}));
  EXPECT_EQ(m.at(100), 1000);
  EXPECT_EQ(m.count(0), 0);
}

TEST(Map, Rehash100kEntriesAllFound) {
  constexpr int64_t n = 100000;
  auto start = std::chrono::steady_clock::now();
  Map<int64_t, int64_t> m;
  for (int64_t i = 0; i < n; ++i) m.Set(i * 7919, i);
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_LT(seconds, 2.0) << "100k inserts took " << seconds << " s";
  ASSERT_EQ(m.size(), static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) ASSERT_EQ(m.at(i * 7919), i) << i;
  EXPECT_EQ(m.count(1), 0);
  int64_t expect = 0;
  for (auto kv : m) ASSERT_EQ(kv.second, expect++);
}

TEST(Map, Rehash100kStringKeysAllFound) {
  constexpr int n = 100000;
  Map<String, int> m;
  for (int i = 0; i < n; ++i) m.Set("key-" + std::to_string(i), i);
  ASSERT_EQ(m.size(), static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) ASSERT_EQ(m.at("key-" + std::to_string(i)), i);
}

TEST(Map, ManyErasesKeepOrder) {
  Map<int64_t, int64_t> m;
  for (int64_t i = 0; i < 1000; ++i) m.Set(i, i);
  for (int64_t i = 0; i < 1000; ++i) {
    if (i % 10 != 0) m.erase(i);
  }
  std::vector<int64_t> expect;
  for (int64_t i = 0; i < 1000; i += 10) expect.push_back(i);
  EXPECT_EQ(KeysOf(m), expect);
}

TEST(Map, SmallAndHeapStringKeysCompareByContent) {
  Map<Any, int> m;
  m.Set(String("tiny"), 1);                           // small form
  m.Set(String("a string of more than 7 bytes"), 2);  // heap form
  std::string heap_copy = "a string of more than 7 bytes";
  EXPECT_EQ(m.at(String(heap_copy)), 2);  // a different heap object, same content
  EXPECT_EQ(m.at("tiny"), 1);             // a raw const char* view
  EXPECT_EQ(m.at(std::string("tiny")), 1);
  m.Set("tiny", 3);  // replaces, not a second key
  EXPECT_EQ(m.size(), 2);
  EXPECT_EQ(m.at(String("tiny")), 3);
}

TEST(Map, StringAndBytesKeysAreDistinct) {
  Map<Any, int> m;
  m.Set(String("abc"), 1);
  m.Set(ffi::Bytes("abc", 3), 2);
  EXPECT_EQ(m.size(), 2);
  EXPECT_EQ(m.at(String("abc")), 1);
  EXPECT_EQ(m.at(ffi::Bytes("abc", 3)), 2);
}

TEST(Map, IntAndFloatKeysAreDistinctAndFloatsCompareBitwise) {
  Map<Any, String> m;
  m.Set(1, "int");
  m.Set(1.0, "float");
  m.Set(0.0, "zero");
  EXPECT_EQ(m.size(), 3);
  EXPECT_EQ(m.at(1), "int");
  EXPECT_EQ(m.at(1.0), "float");
  EXPECT_EQ(m.count(-0.0), 0);  // AnyEqual compares the bits: -0.0 is another key
  EXPECT_EQ(m.count(2), 0);
  EXPECT_EQ(m.count(true), 0);  // bool is its own type
}

TEST(Map, TypedKeyLookupConvertsToKeyType) {
  Map<double, int> m = {{1.0, 10}};
  EXPECT_EQ(m.at(1), 10);  // the int 1 is looked up as the double 1.0
  Map<int64_t, int> n = {{5, 50}};
  EXPECT_EQ(n.at(5), 50);  // int -> int64_t
}

TEST(Map, ObjectKeysCompareByIdentity) {
  MapCounted a(1), b(1);
  Map<MapCounted, int> m;
  m.Set(a, 10);
  m.Set(b, 20);
  EXPECT_EQ(m.size(), 2);
  EXPECT_EQ(m.at(a), 10);
  EXPECT_EQ(m.at(b), 20);
  EXPECT_EQ(m.count(MapCounted(1)), 0);
}

TEST(Map, NoneIsAValidKey) {
  Map<Any, int> m;
  m.Set(Any(), 7);
  m.Set(Any(nullptr), 8);
  EXPECT_EQ(m.size(), 1);
  EXPECT_EQ(m.at(Any()), 8);
}

TEST(Map, ReferenceCountsAreExact) {
  ASSERT_EQ(MapCountedObj::live, 0);
  {
    MapCounted k(1), v(2);
    Map<MapCounted, MapCounted> m;
    m.Set(k, v);
    EXPECT_EQ(k.use_count(), 2);
    EXPECT_EQ(v.use_count(), 2);
    MapCounted v2(3);
    m.Set(k, v2);  // replacing releases the old value, keeps the key once
    EXPECT_EQ(k.use_count(), 2);
    EXPECT_EQ(v.use_count(), 1);
    EXPECT_EQ(v2.use_count(), 2);
    Map<MapCounted, MapCounted> copy = m;
    EXPECT_EQ(k.use_count(), 2);  // shared storage: no per-element references
    copy.Set(MapCounted(9), v);   // the copy now has its own storage
    EXPECT_EQ(k.use_count(), 3);
    EXPECT_EQ(v.use_count(), 2);
    EXPECT_EQ(MapCountedObj::live, 4);  // k, v, v2 and the temporary key
    copy.erase(k);
    EXPECT_EQ(k.use_count(), 2);
    copy.clear();
    EXPECT_EQ(v.use_count(), 1);
    EXPECT_EQ(MapCountedObj::live, 3);
    m.erase(k);
    EXPECT_EQ(k.use_count(), 1);
    EXPECT_EQ(v2.use_count(), 1);
    m.Set(k, v);
  }
  EXPECT_EQ(MapCountedObj::live, 0);
}

TEST(Map, DestroyingTheMapReleasesEveryElement) {
  ASSERT_EQ(MapCountedObj::live, 0);
  {
    Map<int64_t, MapCounted> m;
    for (int64_t i = 0; i < 50; ++i) m.Set(i, MapCounted(i));
    for (int64_t i = 0; i < 50; i += 2) m.erase(i);
    EXPECT_EQ(MapCountedObj::live, 25);
  }
  EXPECT_EQ(MapCountedObj::live, 0);
}

TEST(Map, ConstructsFromStdContainers) {
  std::map<std::string, int> src = {{"x", 1}, {"y", 2}};
  Map<String, int> a(src.begin(), src.end());
  EXPECT_EQ(KeysOf(a), (std::vector<String>{"x", "y"}));
  std::vector<std::pair<int64_t, double>> pairs = {{3, 0.5}, {1, 1.5}};
  Map<int64_t, double> b(pairs.begin(), pairs.end());
  EXPECT_EQ(KeysOf(b), (std::vector<int64_t>{3, 1}));
  EXPECT_EQ(b.at(1), 1.5);
}

TEST(Map, CastFromAnyReusesObjectWhenAllMatch) {
  Map<String, int> m = {{"a", 1}};
  Any any = m;
  Map<String, int> back = any.cast<Map<String, int>>();
  EXPECT_EQ(back.get(), m.get());
  Map<Any, Any> untyped = any.cast<Map<Any, Any>>();
  EXPECT_EQ(untyped.get(), m.get());
  EXPECT_TRUE((any.as<Map<String, int>>().has_value()));
  EXPECT_FALSE((any.as<Map<String, double>>().has_value()));
}

TEST(Map, CastFromAnyConvertsElementsIntoNewMap) {
  Map<Any, Any> m;
  m.Set("a", 1);
  m.Set("b", true);
  Any any = m;
  Map<String, double> converted = any.cast<Map<String, double>>();
  EXPECT_NE(converted.get(), m.get());
  EXPECT_EQ(converted.at("a"), 1.0);
  EXPECT_EQ(converted.at("b"), 1.0);
  EXPECT_EQ(KeysOf(converted), (std::vector<String>{"a", "b"}));
}

TEST(Map, CastErrorNamesBadValue) {
  Map<Any, Any> m;
  m.Set("a", 1);
  m.Set("b", 2.5);
  std::string msg = CastError(m, [](const Any& a) { a.cast<Map<String, int>>(); });
  EXPECT_EQ(msg, "Cannot convert from type `Map[K, some value is float]` to `Map<str, int>`");
}

TEST(Map, CastErrorNamesBadKey) {
  Map<Any, Any> m;
  m.Set(1, 1);
  m.Set("b", 2);
  std::string msg = CastError(m, [](const Any& a) { a.cast<Map<int64_t, int>>(); });
  EXPECT_EQ(msg, "Cannot convert from type `Map[some key is ffi.SmallStr, V]` to `Map<int, int>`");
}

TEST(Map, CastErrorForNonMapNamesItsType) {
  std::string msg = CastError(Any(3), [](const Any& a) { a.cast<Map<String, int>>(); });
  EXPECT_EQ(msg, "Cannot convert from type `int` to `Map<str, int>`");
  EXPECT_FALSE((Any().try_cast<Map<Any, Any>>().has_value()));  // not nullable
}

TEST(Map, TypeStrAndSchema) {
  using Traits = ffi::TypeTraits<Map<String, int>>;
  EXPECT_EQ(Traits::TypeStr(), "Map<str, int>");
  EXPECT_EQ(Traits::TypeSchema(),
            "{\"type\":\"ffi.Map\",\"args\":[{\"type\":\"ffi.String\"},{\"type\":\"int\"}]}");
  EXPECT_EQ(ffi::TypeTraits<Map<>>::TypeStr(), "Map<Any, Any>");
}

TEST(Map, WidensToAnyWithoutCopy) {
  Map<String, int> m = {{"a", 1}};
  Map<Any, Any> general = m;
  EXPECT_EQ(general.get(), m.get());
  EXPECT_EQ(general.at("a").cast<int>(), 1);
  general.Set("b", 2.5);  // copy-on-write: the typed map is untouched
  EXPECT_EQ(m.size(), 1);
}

TEST(Map, ConvertsToAndFromDictByCopy) {
  ffi::Dict<String, int> d = {{"a", 1}, {"b", 2}};
  Any any_dict = d;
  Map<String, int> m = any_dict.cast<Map<String, int>>();
  EXPECT_EQ(m.at("b"), 2);
  EXPECT_EQ(KeysOf(m), (std::vector<String>{"a", "b"}));
  d.Set("c", 3);
  EXPECT_EQ(m.size(), 2);  // a snapshot, not a view of the dict
  Any any_map = m;
  ffi::Dict<String, int> d2 = any_map.cast<ffi::Dict<String, int>>();
  d2.Set("z", 0);
  EXPECT_EQ(m.size(), 2);
  EXPECT_FALSE((any_dict.as<Map<String, int>>().has_value()));  // strict: wrong kind
}

TEST(Map, NestedMapOfArrays) {
  Map<String, ffi::Array<int>> m = {{"a", {1, 2}}, {"b", {3}}};
  Any any = m;
  auto back = any.cast<Map<String, ffi::Array<int>>>();
  EXPECT_EQ(back.get(), m.get());
  EXPECT_EQ(back.at("a")[1], 2);

  Map<Any, Any> bad;
  bad.Set("a", ffi::Array<Any>{1, 2});
  bad.Set("b", ffi::Array<Any>{3, "x"});
  std::string msg = CastError(bad, [](const Any& a) { a.cast<Map<String, ffi::Array<int>>>(); });
  EXPECT_NE(msg.find("Map[K, some value is Array[index 1: ffi.SmallStr]]"), std::string::npos)
      << msg;
  EXPECT_NE(msg.find("to `Map<str, Array<int>>`"), std::string::npos) << msg;
}

TEST(Map, ArrayOfMapsConverts) {
  ffi::Array<Map<String, ffi::Array<int>>> arr = {Map<String, ffi::Array<int>>{{"k", {1}}}};
  Any any = arr;
  auto back = any.cast<ffi::Array<Map<String, ffi::Array<int>>>>();
  EXPECT_EQ(back[0].at("k")[0], 1);
}

TEST(Map, MovedFromMapReadsAsEmpty) {
  Map<String, int> m = {{"a", 1}};
  Map<String, int> other = std::move(m);
  EXPECT_EQ(m.size(), 0);  // NOLINT(bugprone-use-after-move)
  EXPECT_EQ(m.count("a"), 0);
  m.Set("b", 2);
  EXPECT_EQ(m.at("b"), 2);
  EXPECT_EQ(other.at("a"), 1);
}

TEST(MapGlobals, BuildAndRead) {
  ffi::Function make = ffi::Function::GetGlobalRequired("ffi.Map");
  Any m = make("a", 1, 2, "two", "a", 3);
  ASSERT_EQ(m.type_index(), kTVMFFIMap);
  EXPECT_EQ(ffi::Function::GetGlobalRequired("ffi.MapSize")(m).cast<int64_t>(), 2);
  EXPECT_EQ(ffi::Function::GetGlobalRequired("ffi.MapGetItem")(m, "a").cast<int>(), 3);
  EXPECT_EQ(ffi::Function::GetGlobalRequired("ffi.MapGetItem")(m, 2).cast<String>(), "two");
  EXPECT_EQ(ffi::Function::GetGlobalRequired("ffi.MapCount")(m, "zz").cast<int64_t>(), 0);
  auto items = ffi::Function::GetGlobalRequired("ffi.MapItems")(m).cast<ffi::Array<Any>>();
  ASSERT_EQ(items.size(), 4);
  EXPECT_EQ(items[0].cast<String>(), "a");
  EXPECT_EQ(items[1].cast<int>(), 3);
  EXPECT_EQ(items[2].cast<int>(), 2);
  EXPECT_EQ(items[3].cast<String>(), "two");
}

TEST(MapGlobals, GetItemMissingRaisesKeyError) {
  Any m = Map<String, int>{{"a", 1}};
  try {
    ffi::Function::GetGlobalRequired("ffi.MapGetItem")(m, "nope");
    FAIL() << "no exception";
  } catch (const ffi::Error& e) {
    EXPECT_EQ(e.kind(), "KeyError");
    EXPECT_EQ(e.message(), "key is not in Map");
  }
}

TEST(MapGlobals, OddArgumentCountRaisesValueError) {
  try {
    ffi::Function::GetGlobalRequired("ffi.Map")("a", 1, "b");
    FAIL() << "no exception";
  } catch (const ffi::Error& e) {
    EXPECT_EQ(e.kind(), "ValueError");
  }
}

TEST(MapGlobals, WrongContainerRaisesTypeError) {
  Any d = ffi::Dict<String, int>{{"a", 1}};
  try {
    ffi::Function::GetGlobalRequired("ffi.MapSize")(d);
    FAIL() << "no exception";
  } catch (const ffi::Error& e) {
    EXPECT_EQ(e.kind(), "TypeError");
    EXPECT_NE(e.message().find("of type `ffi.Map` but got `ffi.Dict`"), std::string::npos)
        << e.message();
  }
}

}  // namespace

namespace {

TEST(MapGlobals, ForwardIterFunctorWalksInInsertionOrder) {
  Any m = Map<Any, Any>{{String("a"), 1}, {String("b"), 2}};
  ffi::Function it =
      ffi::Function::GetGlobalRequired("ffi.MapForwardIterFunctor")(m).cast<ffi::Function>();
  EXPECT_EQ(it(0).cast<String>(), "a");
  EXPECT_EQ(it(1).cast<int>(), 1);
  EXPECT_TRUE(it(2).cast<bool>());
  EXPECT_EQ(it(0).cast<String>(), "b");
  EXPECT_EQ(it(1).cast<int>(), 2);
  EXPECT_FALSE(it(2).cast<bool>());
  EXPECT_FALSE(it(2).cast<bool>());  // stays at the end
}

TEST(MapGlobals, ForwardIterFunctorAtEndRaisesIndexError) {
  Any m = Map<Any, Any>();
  ffi::Function it =
      ffi::Function::GetGlobalRequired("ffi.MapForwardIterFunctor")(m).cast<ffi::Function>();
  EXPECT_FALSE(it(2).cast<bool>());
  try {
    it(0);
    FAIL() << "no exception";
  } catch (const ffi::Error& e) {
    EXPECT_EQ(e.kind(), "IndexError");
  }
}

TEST(MapGlobals, DictForwardIterFunctorWalksADenseDict) {
  ffi::Dict<int64_t, int64_t> d;
  for (int64_t i = 0; i < 30; ++i) d.Set(i, i * 3);
  ffi::Function it =
      ffi::Function::GetGlobalRequired("ffi.DictForwardIterFunctor")(d).cast<ffi::Function>();
  int64_t count = 0;
  do {
    EXPECT_EQ(it(0).cast<int64_t>(), count);
    EXPECT_EQ(it(1).cast<int64_t>(), count * 3);
    ++count;
  } while (it(2).cast<bool>());
  EXPECT_EQ(count, 30);
}

TEST(MapGlobals, GetItemOrMissingReturnsValueOrTheSentinel) {
  Any m = Map<Any, Any>{{String("a"), 1}};
  ffi::Function get = ffi::Function::GetGlobalRequired("ffi.MapGetItemOrMissing");
  EXPECT_EQ(get(m, "a").cast<int>(), 1);
  Any missing = get(m, "zz");
  EXPECT_GE(missing.type_index(), kTVMFFIStaticObjectBegin);
  EXPECT_TRUE(ffi::AnyEqual()(missing, get(m, "other")));  // one sentinel object
  Any d = ffi::Dict<Any, Any>{{String("a"), 1}};
  ffi::Function dget = ffi::Function::GetGlobalRequired("ffi.DictGetItemOrMissing");
  EXPECT_EQ(dget(d, "a").cast<int>(), 1);
  EXPECT_TRUE(ffi::AnyEqual()(missing, dget(d, "zz")));
}

}  // namespace

namespace {

TEST(Map, MergeRightHandSideWinsAndLeftIsUnchanged) {
  Map<String, int> a = {{"x", 1}, {"y", 2}};
  Map<String, int> b = {{"y", 20}, {"z", 30}};
  Map<String, int> c = ffi::Merge(a, b);
  EXPECT_EQ(c.size(), 3u);
  EXPECT_EQ(c.at("x"), 1);
  EXPECT_EQ(c.at("y"), 20);
  EXPECT_EQ(c.at("z"), 30);
  EXPECT_EQ(a.at("y"), 2);
  EXPECT_EQ(a.size(), 2u);
}

TEST(Map, FromUnorderedMap) {
  std::unordered_map<String, int> src = {{"a", 1}, {"b", 2}};
  Map<String, int> m(src);
  EXPECT_EQ(m.size(), 2u);
  EXPECT_EQ(m.at("b"), 2);
  ffi::Dict<String, int> d(src);
  EXPECT_EQ(d.at("a"), 1);
}

TEST(Map, GetReturnsStdOptional) {
  Map<String, int> m = {{"a", 1}};
  std::optional<int> hit = m.Get("a");
  std::optional<int> miss = m.Get("b");
  EXPECT_EQ(hit, 1);
  EXPECT_EQ(miss, std::nullopt);
}

TEST(Map, RangeForBindsEntriesByReference) {
  ffi::Map<ffi::String, int64_t> m{{"a", 1}, {"b", 2}};
  int64_t sum = 0;
  std::string keys;
  for (auto& [key, value] : m) {
    keys += std::string(key);
    sum += value;
  }
  for (auto& kv : m) sum += kv.second;
  EXPECT_EQ(keys, "ab");
  EXPECT_EQ(sum, 6);
}

}  // namespace
