// Tests of Array<T>: the ABI cell layout, copy-on-write, iterators, bounds
// errors, element checks on conversion from Any, object reuse, nested arrays
// and exact reference counts of stored objects.
#include <gtest/gtest.h>
#include <tvm/ffi/any.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/list.h>
#include <tvm/ffi/container/map.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/memory.h>
#include <tvm/ffi/string.h>

#include <algorithm>
#include <atomic>
#include <functional>
#include <string>
#include <thread>
#include <vector>

namespace {
namespace ffi = tvm::ffi;
using ffi::Any;
using ffi::Array;

// An object that counts live instances, to check that containers release
// exactly what they hold.
class CountedObj : public ffi::Object {
 public:
  static std::atomic<int> live;
  int64_t value;
  explicit CountedObj(int64_t v) : value(v) { ++live; }
  ~CountedObj() { --live; }
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("test.array.Counted", CountedObj, ffi::Object);
};
std::atomic<int> CountedObj::live{0};

class Counted : public ffi::ObjectRef {
 public:
  explicit Counted(int64_t v) : ObjectRef(ffi::make_object<CountedObj>(v)) {}
  TVM_FFI_DEFINE_OBJECT_REF_METHODS_NULLABLE(Counted, ffi::ObjectRef, CountedObj);
};

std::string ErrorMessageOf(const std::function<void()>& f, std::string* kind) {
  try {
    f();
  } catch (const ffi::Error& e) {
    *kind = e.kind();
    return e.message();
  }
  *kind = "<none>";
  return "<no error>";
}

TEST(Array, SeqCellSitsAtOffset24WithTypeIndex71) {
  Array<int> a = {1, 2, 3};
  const char* base = reinterpret_cast<const char*>(a.get());
  const TVMFFISeqCell* cell = reinterpret_cast<const TVMFFISeqCell*>(base + 24);
  EXPECT_EQ(static_cast<const void*>(static_cast<const TVMFFISeqCell*>(a.get())),
            static_cast<const void*>(cell));
  EXPECT_EQ(a->type_index(), 71);
  EXPECT_EQ(cell->size, 3);
  EXPECT_GE(cell->capacity, 3);
  EXPECT_EQ(cell->data_deleter, nullptr);
  const TVMFFIAny* slots = static_cast<const TVMFFIAny*>(cell->data);
  EXPECT_EQ(slots[1].type_index, kTVMFFIInt);
  EXPECT_EQ(slots[1].v_int64, 2);
  EXPECT_EQ(a.GetTypeKey(), "ffi.Array");
}

TEST(Array, HandleIsOnePointerWide) {
  static_assert(sizeof(Array<int>) == sizeof(void*));
  static_assert(sizeof(Array<Array<Any>>) == sizeof(void*));
}

TEST(Array, DefaultConstructedHasCapacityFour) {
  Array<int> a;
  EXPECT_EQ(a.capacity(), 4u);
  EXPECT_EQ(a.get()->SeqCell()->capacity, 4);
}

TEST(Array, MakeObjectOfArrayObjIsEmptyWithCapacityFour) {
  ffi::ObjectPtr<ffi::ArrayObj> p = ffi::make_object<ffi::ArrayObj>();
  EXPECT_EQ(p->size(), 0u);
  EXPECT_EQ(p->capacity(), 4u);
  EXPECT_EQ(p->type_index(), kTVMFFIArray);
  const ffi::ArrayObj* obj = p.get();
  Array<int> a(std::move(p));
  a.push_back(7);  // fits the four slots: the unique object grows in place
  EXPECT_EQ(a.get(), obj);
}

TEST(Array, FourPushesIntoADefaultArrayKeepTheObject) {
  Array<int> a;
  const ffi::ArrayObj* before = a.get();
  for (int i = 0; i < 4; ++i) a.push_back(i);
  EXPECT_EQ(a.get(), before);
  EXPECT_EQ(a.size(), 4u);
}

TEST(Array, FifthPushDoublesTheInitialCapacity) {
  Array<int> a;
  for (int i = 0; i < 5; ++i) a.push_back(i);
  EXPECT_EQ(a.capacity(), 8u);
  EXPECT_EQ(a[4], 4);
}

TEST(Array, DefaultConstructedIsAValidEmptyArray) {
  Array<int> a;
  EXPECT_TRUE(a.defined());
  EXPECT_TRUE(a.empty());
  EXPECT_EQ(a.size(), 0u);
  Any v = a;
  EXPECT_EQ(v.type_index(), kTVMFFIArray);
  EXPECT_EQ(v.cast<Array<int>>().size(), 0u);
}

TEST(Array, GuideExample) {
  Array<int> numbers = {1, 2, 3};
  EXPECT_EQ(numbers.size(), 3);
  EXPECT_EQ(numbers[0], 1);
  ffi::Function head = ffi::Function::FromTyped([](const Array<int> a) { return a[0]; });
  EXPECT_EQ(head(numbers).cast<int>(), 1);
  std::string kind;
  ErrorMessageOf([&] { head(Array<Any>({1, 2.2})); }, &kind);
  EXPECT_EQ(kind, "TypeError");
}

TEST(Array, CopyIsUnaffectedByLaterPushBackOnOriginal) {
  Array<int> a = {1, 2, 3};
  Array<int> b = a;
  a.push_back(4);
  EXPECT_EQ(a.size(), 4u);
  EXPECT_EQ(b.size(), 3u);
  EXPECT_FALSE(a.same_as(b));
  EXPECT_EQ(b[2], 3);
}

TEST(Array, EveryMutatorCopiesWhenShared) {
  Array<int> orig = {1, 2, 3};
  auto check_untouched = [&](const char* what) {
    ASSERT_EQ(orig.size(), 3u) << what;
    EXPECT_EQ(orig[0], 1) << what;
    EXPECT_EQ(orig[1], 2) << what;
    EXPECT_EQ(orig[2], 3) << what;
  };
  {
    Array<int> c = orig;
    c.Set(0, 9);
    EXPECT_EQ(c[0], 9);
    check_untouched("Set");
  }
  {
    Array<int> c = orig;
    c.insert(c.begin() + 1, 7);
    EXPECT_EQ(c[1], 7);
    check_untouched("insert");
  }
  {
    Array<int> c = orig;
    c.erase(c.begin());
    EXPECT_EQ(c.size(), 2u);
    check_untouched("erase");
  }
  {
    Array<int> c = orig;
    c.pop_back();
    EXPECT_EQ(c.size(), 2u);
    check_untouched("pop_back");
  }
  {
    Array<int> c = orig;
    c.resize(5);
    EXPECT_EQ(c.size(), 5u);
    EXPECT_EQ(c[4], 0);
    check_untouched("resize");
  }
  {
    Array<int> c = orig;
    c.reserve(100);
    EXPECT_GE(c.capacity(), 100u);
    EXPECT_FALSE(c.same_as(orig));
    check_untouched("reserve");
  }
  {
    Array<int> c = orig;
    c.clear();
    EXPECT_TRUE(c.empty());
    check_untouched("clear");
  }
}

TEST(Array, UniqueArrayIsEditedInPlace) {
  Array<int> a = {1, 2, 3};
  a.reserve(16);
  const ffi::ArrayObj* obj = a.get();
  const void* data = obj->data;
  a.push_back(4);
  a.Set(0, 10);
  a.insert(a.begin(), 0);
  a.erase(a.begin() + 1);
  a.pop_back();
  a.resize(6);
  EXPECT_EQ(a.get(), obj);
  EXPECT_EQ(a.get()->data, data);
  EXPECT_EQ(std::vector<int>(a.begin(), a.end()), (std::vector<int>{0, 2, 3, 0, 0, 0}));
}

TEST(Array, PushBackGrowthIsAmortized) {
  Array<int> a;
  int reallocations = 0;
  const void* last = a.get();
  for (int i = 0; i < 1000; ++i) {
    a.push_back(i);
    if (a.get() != last) {
      ++reallocations;
      last = a.get();
    }
  }
  EXPECT_EQ(a.size(), 1000u);
  EXPECT_EQ(a[999], 999);
  EXPECT_LE(reallocations, 12);
}

TEST(Array, IteratorsYieldElementsInOrder) {
  Array<ffi::String> a = {"x", "a longer string", "z"};
  std::vector<std::string> seen;
  for (ffi::String s : a) seen.push_back(s);
  EXPECT_EQ(seen, (std::vector<std::string>{"x", "a longer string", "z"}));
  EXPECT_EQ(a.end() - a.begin(), 3);
  EXPECT_EQ(*(a.begin() + 2), "z");
  EXPECT_EQ(a.begin()[1], "a longer string");
  std::vector<std::string> reversed(a.rbegin(), a.rend());
  EXPECT_EQ(reversed, (std::vector<std::string>{"z", "a longer string", "x"}));
  EXPECT_EQ(a.front(), "x");
  EXPECT_EQ(a.back(), "z");
}

TEST(Array, ConstructsFromVectorRangeAndCount) {
  std::vector<int> v = {4, 5, 6};
  Array<int> from_vec(v);
  Array<int> from_range(v.begin() + 1, v.end());
  Array<int> repeated(3, 7);
  EXPECT_EQ(std::vector<int>(from_vec.begin(), from_vec.end()), v);
  EXPECT_EQ(std::vector<int>(from_range.begin(), from_range.end()), (std::vector<int>{5, 6}));
  EXPECT_EQ(std::vector<int>(repeated.begin(), repeated.end()), (std::vector<int>{7, 7, 7}));
  Array<Any> mixed({1, 2.2, "s"});
  EXPECT_EQ(mixed[0].cast<int>(), 1);
  EXPECT_DOUBLE_EQ(mixed[1].cast<double>(), 2.2);
  EXPECT_EQ(mixed[2].cast<ffi::String>(), "s");
}

TEST(Array, IndexOutOfRangeRaisesIndexErrorNamingIndexAndSize) {
  Array<int> a = {1, 2, 3};
  std::string kind;
  std::string msg = ErrorMessageOf([&] { a[3]; }, &kind);
  EXPECT_EQ(kind, "IndexError");
  EXPECT_EQ(msg, "Index 3 out of bounds 3");
  msg = ErrorMessageOf([&] { a[-1]; }, &kind);
  EXPECT_EQ(kind, "IndexError");
  EXPECT_EQ(msg, "Index -1 out of bounds 3");
  msg = ErrorMessageOf([&] { a.Set(5, 1); }, &kind);
  EXPECT_EQ(kind, "IndexError");
  EXPECT_EQ(msg, "Index 5 out of bounds 3");
  Array<int> empty;
  ErrorMessageOf([&] { empty.pop_back(); }, &kind);
  EXPECT_EQ(kind, "IndexError");
  ErrorMessageOf([&] { empty.front(); }, &kind);
  EXPECT_EQ(kind, "IndexError");
}

TEST(Array, CastErrorNamesTheBadIndexAndItsType) {
  Any v = Array<Any>({1, 2.2});
  std::string kind;
  std::string msg = ErrorMessageOf([&] { v.cast<Array<int>>(); }, &kind);
  EXPECT_EQ(kind, "TypeError");
  EXPECT_EQ(msg, "Cannot convert from type `Array[index 1: float]` to `Array<int>`");
}

TEST(Array, FunctionArgumentErrorNamesTheBadIndex) {
  ffi::Function f = ffi::Function::FromTyped([](Array<ffi::String> a) { return a.size(); }, "f");
  std::string kind;
  std::string msg = ErrorMessageOf([&] { f(Array<Any>({"a", 3})); }, &kind);
  EXPECT_EQ(kind, "TypeError");
  EXPECT_NE(msg.find("Expected `Array<str>` but got `Array[index 1: int]`"), std::string::npos)
      << msg;
}

TEST(Array, ConversionWithoutElementChangesReusesTheObject) {
  Array<Any> src({1, 2, 3});
  Any v = src;
  Array<int> as_int = v.cast<Array<int>>();
  EXPECT_TRUE(as_int.same_as(src));
  Array<Any> back = Any(as_int).cast<Array<Any>>();
  EXPECT_TRUE(back.same_as(src));
}

TEST(Array, ConversionThatChangesElementsMakesANewArray) {
  Array<Any> src({1, 2.5});
  Array<double> d = Any(src).cast<Array<double>>();
  EXPECT_FALSE(d.same_as(src));
  EXPECT_DOUBLE_EQ(d[0], 1.0);
  EXPECT_DOUBLE_EQ(d[1], 2.5);
  EXPECT_EQ(src[0].type_index(), kTVMFFIInt);
}

TEST(Array, StrictCheckRequiresEveryElement) {
  Any ints = Array<Any>({1, 2});
  Any mixed = Array<Any>({1, 2.0});
  EXPECT_TRUE(ints.as<Array<int>>().has_value());
  EXPECT_FALSE(mixed.as<Array<int>>().has_value());
  EXPECT_TRUE(mixed.as<Array<Any>>().has_value());
  EXPECT_FALSE(Any(1).try_cast<Array<int>>().has_value());
  EXPECT_FALSE(Any(nullptr).try_cast<Array<int>>().has_value());
}

TEST(Array, NestedArraysConvertAndReportNestedErrors) {
  Array<Array<int>> nested = {Array<int>{1}, Array<int>{2, 3}};
  Any v = nested;
  Array<Array<int>> back = v.cast<Array<Array<int>>>();
  EXPECT_TRUE(back.same_as(nested));
  EXPECT_EQ(back[1][1], 3);

  Any bad = Array<Any>({Array<Any>({1}), Array<Any>({2, "x"})});
  std::string kind;
  std::string msg = ErrorMessageOf([&] { bad.cast<Array<Array<int>>>(); }, &kind);
  EXPECT_EQ(msg,
            "Cannot convert from type `Array[index 1: Array[index 1: ffi.SmallStr]]` to "
            "`Array<Array<int>>`");

  Any convertible = Array<Any>({Array<Any>({1}), Array<Any>({2, 3.5})});
  Array<Array<double>> d = convertible.cast<Array<Array<double>>>();
  EXPECT_DOUBLE_EQ(d[1][1], 3.5);
}

TEST(Array, ArrayOfMapOfArraysConvertsAndReusesTheObject) {
  using Inner = ffi::Map<ffi::String, Array<int>>;
  Array<Inner> typed = {Inner{{"a", Array<int>{1, 2}}}, Inner{{"b", Array<int>{3}}}};
  Any v = typed;
  Array<Inner> back = v.cast<Array<Inner>>();
  EXPECT_TRUE(back.same_as(typed));
  EXPECT_EQ(back[1].at("b")[0], 3);

  ffi::Map<Any, Any> bad_inner = {{Any("a"), Any(Array<Any>({1, 2.5}))}};
  Any bad = Array<Any>({Inner{{"a", Array<int>{1}}}, bad_inner});
  std::string kind;
  std::string msg = ErrorMessageOf([&] { bad.cast<Array<Inner>>(); }, &kind);
  EXPECT_EQ(kind, "TypeError");
  EXPECT_NE(msg.find("Array[index 1: Map[K, some value is Array[index 1: float]]]"),
            std::string::npos)
      << msg;
}

TEST(Array, ListObjectConvertsToArrayByCopying) {
  ffi::List<Any> list = {1, 2};
  Array<int> a = Any(list).cast<Array<int>>();
  EXPECT_FALSE(a.same_as(list));
  EXPECT_EQ(a.get()->type_index(), kTVMFFIArray);
  EXPECT_EQ(a[1], 2);
  EXPECT_FALSE(Any(list).as<Array<Any>>().has_value());
}

TEST(Array, TypeStrAndSchema) {
  EXPECT_EQ(ffi::TypeTraits<Array<int>>::TypeStr(), "Array<int>");
  EXPECT_EQ(ffi::TypeTraits<Array<Any>>::TypeStr(), "Array<Any>");
  EXPECT_EQ(ffi::TypeTraits<Array<Array<ffi::String>>>::TypeStr(), "Array<Array<str>>");
  EXPECT_EQ(ffi::TypeTraits<Array<int>>::TypeSchema(),
            "{\"type\":\"ffi.Array\",\"args\":[{\"type\":\"int\"}]}");
}

TEST(Array, StoredObjectRefCountsAreExact) {
  ASSERT_EQ(CountedObj::live, 0);
  {
    Counted c(1);
    Array<Counted> a;
    a.push_back(c);
    a.push_back(c);
    EXPECT_EQ(c.use_count(), 3);
    a.erase(a.begin());
    EXPECT_EQ(c.use_count(), 2);
    Array<Counted> shared = a;
    a.push_back(Counted(2));
    // The copy made by push_back holds its own reference.
    EXPECT_EQ(c.use_count(), 3);
    EXPECT_EQ(CountedObj::live, 2);
    a.clear();
    EXPECT_EQ(c.use_count(), 2);
    EXPECT_EQ(CountedObj::live, 1);
    a.push_back(c);
    a.Set(0, Counted(3));
    EXPECT_EQ(c.use_count(), 2);
    a.resize(0);
    shared.pop_back();
    EXPECT_EQ(c.use_count(), 1);
  }
  EXPECT_EQ(CountedObj::live, 0);
}

TEST(Array, DestructionReleasesElementsOnce) {
  ASSERT_EQ(CountedObj::live, 0);
  {
    Array<Any> a;
    for (int i = 0; i < 50; ++i) a.push_back(Counted(i));
    Array<Any> b = a;
    EXPECT_EQ(CountedObj::live, 50);
    EXPECT_EQ(a[7].cast<Counted>()->value, 7);
  }
  EXPECT_EQ(CountedObj::live, 0);
}

TEST(Array, UpcastSharesTheObject) {
  Array<Counted> a = {Counted(1), Counted(2)};
  Array<ffi::ObjectRef> base = a;
  Array<Any> any = a;
  EXPECT_TRUE(base.same_as(a));
  EXPECT_TRUE(any.same_as(a));
}

TEST(Array, MapSharesWhenNothingChanges) {
  Array<Counted> a = {Counted(1), Counted(2)};
  Array<Counted> same = a.Map([](Counted c) { return c; });
  EXPECT_TRUE(same.same_as(a));
  Array<int64_t> values = a.Map([](Counted c) { return c->value; });
  EXPECT_EQ(values[1], 2);
}

TEST(Array, InsertRangeAndConcat) {
  Array<int> a = {1, 4};
  std::vector<int> mid = {2, 3};
  a.insert(a.begin() + 1, mid.begin(), mid.end());
  Array<int> b = ffi::Concat(a, Array<int>{5});
  EXPECT_EQ(std::vector<int>(b.begin(), b.end()), (std::vector<int>{1, 2, 3, 4, 5}));
  EXPECT_EQ(a.size(), 4u);
}

TEST(Array, ConcurrentCopiesOfASharedArrayStayIndependent) {
  ASSERT_EQ(CountedObj::live, 0);
  {
    Array<Any> shared;
    for (int i = 0; i < 16; ++i) shared.push_back(Counted(i));
    std::vector<std::thread> threads;
    std::vector<int64_t> sums(8, 0);
    for (int t = 0; t < 8; ++t) {
      threads.emplace_back([&shared, &sums, t] {
        for (int round = 0; round < 200; ++round) {
          Array<Any> mine = shared;
          mine.push_back(Counted(100 + t));
          mine.Set(0, Counted(t));
          sums[t] += mine[0].cast<Counted>()->value + static_cast<int64_t>(mine.size());
        }
      });
    }
    for (std::thread& th : threads) th.join();
    for (int t = 0; t < 8; ++t) EXPECT_EQ(sums[t], 200 * (t + 17));
    EXPECT_EQ(shared.size(), 16u);
    EXPECT_EQ(shared[0].cast<Counted>()->value, 0);
    EXPECT_EQ(shared.use_count(), 1);
  }
  EXPECT_EQ(CountedObj::live, 0);
}

TEST(Array, RuntimeGlobalsBuildAndReadArrays) {
  ffi::Function make = ffi::Function::GetGlobalRequired("ffi.Array");
  ffi::Function size = ffi::Function::GetGlobalRequired("ffi.ArraySize");
  ffi::Function get = ffi::Function::GetGlobalRequired("ffi.ArrayGetItem");
  Any a = make(1, "two", 3.0);
  EXPECT_EQ(a.type_index(), kTVMFFIArray);
  EXPECT_EQ(size(a).cast<int>(), 3);
  EXPECT_EQ(get(a, 1).cast<ffi::String>(), "two");
  std::string kind;
  std::string msg = ErrorMessageOf([&] { get(a, 3); }, &kind);
  EXPECT_EQ(kind, "IndexError");
  EXPECT_NE(msg.find("Index 3 out of bounds"), std::string::npos) << msg;
  ErrorMessageOf([&] { size(1); }, &kind);
  EXPECT_EQ(kind, "TypeError");
}

}  // namespace

namespace {

TEST(Array, EmptyEraseRangeIsANoOpAnywhere) {
  Array<int> a = {1, 2, 3};
  a.erase(a.begin() + 10, a.begin() + 10);
  EXPECT_EQ(a.size(), 3u);
}

TEST(Array, EraseRangeOutOfBoundsNamesTheRange) {
  Array<int> a = {1, 2, 3};
  std::string kind;
  std::string msg = ErrorMessageOf([&] { a.erase(a.begin() + 1, a.begin() + 5); }, &kind);
  EXPECT_EQ(kind, "IndexError");
  EXPECT_EQ(msg, "Erase range [1, 5) out of bounds 3");
  EXPECT_EQ(a.size(), 3u);  // unchanged
}

TEST(Array, InsertOutOfBoundsAndNegativeResize) {
  Array<int> a = {1, 2, 3};
  std::string kind;
  std::string msg = ErrorMessageOf([&] { a.insert(a.begin() + 4, 9); }, &kind);
  EXPECT_EQ(kind, "IndexError");
  EXPECT_EQ(msg, "Index 4 out of bounds [0, 3]");
  msg = ErrorMessageOf([&] { a.resize(-1); }, &kind);
  EXPECT_EQ(kind, "ValueError");
  EXPECT_EQ(msg, "cannot resize an Array to negative size");
  msg = ErrorMessageOf([&] { Array<int>().front(); }, &kind);
  EXPECT_EQ(msg, "front() on empty sequence");
  msg = ErrorMessageOf([&] { Array<int>().pop_back(); }, &kind);
  EXPECT_EQ(msg, "pop_back on empty sequence");
  EXPECT_EQ(a.size(), 3u);
}

}  // namespace
