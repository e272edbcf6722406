// Tests of Dict<K, V> (container/dict.h), its Any conversions and the ffi.Dict* runtime globals.
#include <gtest/gtest.h>
#include <tvm/ffi/any.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/dict.h>
#include <tvm/ffi/container/map.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/memory.h>
#include <tvm/ffi/string.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <utility>
#include <vector>

namespace {

namespace ffi = tvm::ffi;
using ffi::Any;
using ffi::Dict;
using ffi::String;

// An object that counts its live instances, to check the dict's references.
class DictCountedObj : public ffi::Object {
 public:
  static int live;
  DictCountedObj() { ++live; }
  ~DictCountedObj() { --live; }
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("test.dict.Counted", DictCountedObj, ffi::Object);
};
int DictCountedObj::live = 0;

class DictCounted : public ffi::ObjectRef {
 public:
  static DictCounted New() { return DictCounted(ffi::make_object<DictCountedObj>()); }
  TVM_FFI_DEFINE_OBJECT_REF_METHODS_NULLABLE(DictCounted, ffi::ObjectRef, DictCountedObj);
};

template <typename K, typename V>
std::vector<K> KeysOf(const Dict<K, V>& d) {
  std::vector<K> keys;
  for (const auto& kv : d) keys.push_back(kv.first);
  return keys;
}

ffi::Function Global(const char* name) { return ffi::Function::GetGlobalRequired(name); }

TEST(Dict, GuideExample) {
  ffi::Dict<ffi::String, int> scores = {{"Alice", 100}, {"Bob", 95}};
  EXPECT_EQ(scores.size(), 2);
  EXPECT_EQ(scores.at("Alice"), 100);
  scores.Set("Charlie", 88);
  EXPECT_EQ(scores.size(), 3);
  ffi::Dict<ffi::String, int> alias = scores;
  alias.Set("Dave", 92);
  EXPECT_EQ(scores.size(), 4);
  scores.erase("Bob");
  EXPECT_EQ(scores.size(), 3);
}

TEST(Dict, MutationIsVisibleThroughEveryHandle) {
  Dict<String, int> a;
  Dict<String, int> b = a;
  b.Set("x", 1);
  EXPECT_EQ(a.at("x"), 1);
  a.Set("x", 2);
  EXPECT_EQ(b.at("x"), 2);
  a.erase("x");
  EXPECT_EQ(b.count("x"), 0);
  b.Set("y", 3);
  a.clear();
  EXPECT_TRUE(b.empty());
  EXPECT_EQ(a.get(), b.get());
}

// Dict shares Map's KeyError text (cpp_api.md §2.12).
TEST(Dict, AtMissingRaisesMapKeyError) {
  Dict<int64_t, int> d = {{1, 1}};
  try {
    d.at(77);
    FAIL() << "no exception";
  } catch (const ffi::Error& e) {
    EXPECT_EQ(e.kind(), "KeyError");
    EXPECT_EQ(e.message(), "key is not in Map");
  }
}

TEST(Dict, EraseReturnsNumberRemoved) {
  Dict<String, int> d = {{"a", 1}};
  EXPECT_EQ(d.erase("zz"), 0);
  EXPECT_EQ(d.erase("a"), 1);
  EXPECT_EQ(d.erase("a"), 0);
  EXPECT_TRUE(d.empty());
}

TEST(Dict, InsertionOrderHoldsAfterEraseAndReinsert) {
  Dict<String, int> d = {{"a", 1}, {"b", 2}, {"c", 3}};
  d.erase("a");
  d.Set("a", 4);
  d.Set("b", 5);  // existing key: stays in place
  EXPECT_EQ(KeysOf(d), (std::vector<String>{"b", "c", "a"}));
}

TEST(Dict, FindAndGet) {
  Dict<String, int> d = {{"a", 1}};
  auto it = d.find("a");
  ASSERT_NE(it, d.end());
  EXPECT_EQ((*it).second, 1);
  EXPECT_EQ(d.find("b"), d.end());
  EXPECT_EQ(d.Get("a").value(), 1);
  EXPECT_EQ(d.Get("b"), std::nullopt);
}

TEST(Dict, SmallLayoutBecomesDenseInPlaceAndStaysDenseAfterErase) {
  Dict<int64_t, int64_t> d;
  const ffi::DictObj* obj = d.get();
  for (int64_t i = 0; i < 4; ++i) d.Set(i, i);
  EXPECT_TRUE(d->IsSmall());
  d.Set(4, 4);
  EXPECT_FALSE(d->IsSmall());
  EXPECT_EQ(d.get(), obj);  // a Dict never changes identity
  for (int64_t i = 0; i < 4; ++i) d.erase(i);
  EXPECT_FALSE(d->IsSmall());
  EXPECT_EQ(KeysOf(d), (std::vector<int64_t>{4}));
  for (int64_t i = 100; i < 120; ++i) d.Set(i, i);
  EXPECT_EQ(d.get(), obj);
  EXPECT_EQ(d.at(4), 4);
  EXPECT_EQ(d.at(119), 119);
}

// Random inserts, overwrites and erases against a simple reference model, through the
// small layout, the dense layout and its rehashes. An overwrite keeps its position in the
// small layout and moves the key to the end in the dense one (a Dict never returns to small).
TEST(Dict, RandomOperationsMatchReferenceModel) {
  std::mt19937 rng(12345);
  Dict<int64_t, int64_t> d;
  std::vector<std::pair<int64_t, int64_t>> model;  // insertion order
  bool dense = false;
  auto find_model = [&](int64_t k) {
    return std::find_if(model.begin(), model.end(), [k](const auto& p) { return p.first == k; });
  };
  for (int step = 0; step < 20000; ++step) {
    // Phases of mostly-inserting and mostly-erasing cross the form thresholds repeatedly.
    bool grow = (step / 500) % 2 == 0;
    int64_t key = static_cast<int64_t>(rng() % 64);
    int64_t value = static_cast<int64_t>(rng());
    if (rng() % 10 < (grow ? 7u : 3u)) {
      d.Set(key, value);
      auto it = find_model(key);
      if (it == model.end()) {
        model.emplace_back(key, value);
      } else if (dense) {
        model.erase(it);
        model.emplace_back(key, value);
      } else {
        it->second = value;
      }
      dense = dense || model.size() > 4;
    } else {
      auto it = find_model(key);
      EXPECT_EQ(d.erase(key), it == model.end() ? 0u : 1u);
      if (it != model.end()) model.erase(it);
    }
    ASSERT_EQ(d.size(), model.size()) << "step " << step;
    if (step % 97 == 0) {
      std::vector<std::pair<int64_t, int64_t>> seen;
      for (auto kv : d) seen.push_back(kv);
      ASSERT_EQ(seen, model) << "step " << step;
      for (int64_t k = 0; k < 64; ++k) {
        ASSERT_EQ(d.count(k), find_model(k) == model.end() ? 0u : 1u) << "step " << step;
      }
    }
  }
}

TEST(Dict, ReferenceCountsAreExact) {
  ASSERT_EQ(DictCountedObj::live, 0);
  {
    DictCounted k = DictCounted::New(), v = DictCounted::New();
    Dict<DictCounted, DictCounted> d;
    d.Set(k, v);
    EXPECT_EQ(k.use_count(), 2);
    EXPECT_EQ(v.use_count(), 2);
    Dict<DictCounted, DictCounted> alias = d;
    EXPECT_EQ(k.use_count(), 2);  // shared: no extra element references
    d.erase(k);
    EXPECT_EQ(k.use_count(), 1);
    EXPECT_EQ(v.use_count(), 1);
    for (int i = 0; i < 30; ++i) d.Set(DictCounted::New(), v);
    EXPECT_EQ(v.use_count(), 31);
    EXPECT_EQ(DictCountedObj::live, 32);
    d.clear();
    EXPECT_EQ(v.use_count(), 1);
    EXPECT_EQ(DictCountedObj::live, 2);
    d.Set(k, v);
  }
  EXPECT_EQ(DictCountedObj::live, 0);
}

TEST(Dict, CastFromAnyReusesObjectSoMutationsStayShared) {
  Dict<String, int> d = {{"a", 1}};
  Any any = d;
  Dict<String, int> same = any.cast<Dict<String, int>>();
  EXPECT_EQ(same.get(), d.get());
  Dict<Any, Any> untyped = any.cast<Dict<Any, Any>>();
  untyped.Set("b", 2);
  EXPECT_EQ(d.at("b"), 2);
}

TEST(Dict, WidensToAnySharingTheObject) {
  Dict<String, int> d = {{"a", 1}};
  Dict<Any, Any> general = d;
  general.Set("b", 2);
  EXPECT_EQ(d.at("b"), 2);
}

TEST(Dict, CastThatConvertsElementsMakesACopy) {
  Dict<String, int> d = {{"a", 1}};
  Dict<String, double> converted = Any(d).cast<Dict<String, double>>();
  EXPECT_NE(converted.get(), d.get());
  EXPECT_EQ(converted.at("a"), 1.0);
  converted.Set("b", 2.0);
  EXPECT_EQ(d.count("b"), 0);
}

TEST(Dict, CastErrorNamesBadKeyAndValue) {
  Dict<Any, Any> d;
  d.Set("a", 1);
  d.Set("b", "text");
  try {
    Any(d).cast<Dict<String, int>>();
    FAIL() << "no exception";
  } catch (const ffi::Error& e) {
    EXPECT_EQ(e.kind(), "TypeError");
    EXPECT_EQ(e.message(),
              "Cannot convert from type `Dict[K, some value is ffi.SmallStr]` to `Dict<str, int>`");
  }
  Dict<Any, Any> k;
  k.Set(2.5, 1);
  try {
    Any(k).cast<Dict<String, int>>();
    FAIL() << "no exception";
  } catch (const ffi::Error& e) {
    EXPECT_EQ(e.message(),
              "Cannot convert from type `Dict[some key is float, V]` to `Dict<str, int>`");
  }
}

TEST(Dict, TypedReadOfValueChangedThroughUntypedAliasRaisesTypeError) {
  Dict<String, int> d = {{"a", 1}};
  Dict<Any, Any> untyped = Any(d).cast<Dict<Any, Any>>();
  untyped.Set("a", "not an int");
  try {
    d.at("a");
    FAIL() << "no exception";
  } catch (const ffi::Error& e) {
    EXPECT_EQ(e.kind(), "TypeError");
    EXPECT_NE(e.message().find("`ffi.String` to `int`"), std::string::npos) << e.message();
  }
}

TEST(Dict, TypeStrAndSchema) {
  using Traits = ffi::TypeTraits<Dict<String, ffi::Array<int>>>;
  EXPECT_EQ(Traits::TypeStr(), "Dict<str, Array<int>>");
  EXPECT_EQ(Traits::TypeSchema(),
            "{\"type\":\"ffi.Dict\",\"args\":[{\"type\":\"ffi.String\"},"
            "{\"type\":\"ffi.Array\",\"args\":[{\"type\":\"int\"}]}]}");
}

TEST(Dict, ConvertsFromMapByCopy) {
  ffi::Map<String, int> m = {{"a", 1}};
  Dict<String, int> d = Any(m).cast<Dict<String, int>>();
  d.Set("b", 2);
  EXPECT_EQ(m.size(), 1);
  EXPECT_EQ(d.size(), 2);
}

TEST(DictGlobals, BuildReadAndEditInPlace) {
  Any d = Global("ffi.Dict")("a", 1, "b", 2);
  ASSERT_EQ(d.type_index(), kTVMFFIDict);
  Dict<String, int> handle = d.cast<Dict<String, int>>();
  Global("ffi.DictSetItem")(d, "c", 3);
  EXPECT_EQ(handle.at("c"), 3);  // the caller's object changed, not a copy
  Global("ffi.DictErase")(d, "a");
  EXPECT_EQ(handle.count("a"), 0);
  EXPECT_EQ(Global("ffi.DictSize")(d).cast<int64_t>(), 2);
  EXPECT_EQ(Global("ffi.DictGetItem")(d, "b").cast<int>(), 2);
  EXPECT_EQ(Global("ffi.DictCount")(d, "b").cast<int64_t>(), 1);
  auto items = Global("ffi.DictItems")(d).cast<ffi::Array<Any>>();
  ASSERT_EQ(items.size(), 4);
  EXPECT_EQ(items[0].cast<String>(), "b");
  EXPECT_EQ(items[2].cast<String>(), "c");
  EXPECT_EQ(items[3].cast<int>(), 3);
  Global("ffi.DictClear")(d);
  EXPECT_TRUE(handle.empty());
}

TEST(DictGlobals, EraseMissingRaisesKeyError) {
  Any d = Dict<String, int>{{"a", 1}};
  try {
    Global("ffi.DictErase")(d, "missing");
    FAIL() << "no exception";
  } catch (const ffi::Error& e) {
    EXPECT_EQ(e.kind(), "KeyError");
    EXPECT_EQ(e.message(), "key is not in Map");
  }
}

TEST(DictGlobals, SetItemOnMapRaisesTypeError) {
  Any m = ffi::Map<String, int>{{"a", 1}};
  try {
    Global("ffi.DictSetItem")(m, "b", 2);
    FAIL() << "no exception";
  } catch (const ffi::Error& e) {
    EXPECT_EQ(e.kind(), "TypeError");
    EXPECT_NE(e.message().find("ffi.DictSetItem"), std::string::npos) << e.message();
    EXPECT_NE(e.message().find("of type `ffi.Dict` but got `ffi.Map`"), std::string::npos)
        << e.message();
  }
}

TEST(DictGlobals, SetItemWithRawStringKeyStoresOwnedString) {
  Any d = Global("ffi.Dict")();
  std::string key = "a key longer than seven bytes";
  Global("ffi.DictSetItem")(d, key, 1);  // passed as a borrowed const char* view
  key.assign(key.size(), 'x');           // the caller's buffer changes afterwards
  Dict<String, int> handle = d.cast<Dict<String, int>>();
  EXPECT_EQ(handle.at("a key longer than seven bytes"), 1);
  EXPECT_EQ(KeysOf(handle)[0], "a key longer than seven bytes");
}

TEST(Dict, RangeForBindsEntriesByReference) {
  ffi::Dict<ffi::String, int64_t> m{{"a", 1}, {"b", 2}};
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
