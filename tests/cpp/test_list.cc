// Tests of List<T>: shared mutation, the growing ABI cell (separate buffer
// with a data_deleter), bounds errors, conversions from Any, exact reference
// counts, and the ffi.List* runtime globals.
#include <gtest/gtest.h>
#include <tvm/ffi/any.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/list.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/memory.h>
#include <tvm/ffi/string.h>

#include <functional>
#include <string>
#include <vector>

namespace {
namespace ffi = tvm::ffi;
using ffi::Any;
using ffi::List;

class ListCountedObj : public ffi::Object {
 public:
  static int live;
  explicit ListCountedObj(int64_t) { ++live; }
  ~ListCountedObj() { --live; }
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("test.list.Counted", ListCountedObj, ffi::Object);
};
int ListCountedObj::live = 0;

class ListCounted : public ffi::ObjectRef {
 public:
  explicit ListCounted(int64_t v) : ObjectRef(ffi::make_object<ListCountedObj>(v)) {}
  TVM_FFI_DEFINE_OBJECT_REF_METHODS_NULLABLE(ListCounted, ffi::ObjectRef, ListCountedObj);
};

std::string ErrorOf(const std::function<void()>& f, std::string* kind) {
  try {
    f();
  } catch (const ffi::Error& e) {
    *kind = e.kind();
    return e.message();
  }
  *kind = "<none>";
  return "<no error>";
}

std::vector<int> ToVector(const List<int>& l) { return std::vector<int>(l.begin(), l.end()); }

TEST(List, GuideExample) {
  List<int> numbers = {1, 2, 3};
  EXPECT_EQ(numbers.size(), 3);
  EXPECT_EQ(numbers[0], 1);
  numbers.push_back(4);
  EXPECT_EQ(numbers.size(), 4);
  numbers.Set(0, 10);
  EXPECT_EQ(numbers[0], 10);
  List<int> alias = numbers;
  alias.push_back(5);
  EXPECT_EQ(numbers.size(), 5);
}

TEST(List, AllHandlesSeeEveryMutation) {
  List<int> a = {1, 2, 3};
  List<int> b = a;
  b.insert(b.begin(), 0);
  b.erase(b.begin() + 2);
  b.Set(1, 11);
  b.pop_back();
  EXPECT_TRUE(a.same_as(b));
  EXPECT_EQ(ToVector(a), (std::vector<int>{0, 11}));
  b.resize(4);
  EXPECT_EQ(ToVector(a), (std::vector<int>{0, 11, 0, 0}));
  b.clear();
  EXPECT_TRUE(a.empty());
}

TEST(List, DefaultConstructedListsAreDistinctObjects) {
  List<int> a;
  List<int> b;
  EXPECT_FALSE(a.same_as(b));
  a.push_back(1);
  EXPECT_TRUE(b.empty());
  EXPECT_EQ(Any(a).type_index(), kTVMFFIList);
}

// Code built against other headers grows a List inline with ::operator new and then calls the
// existing data_deleter on the old buffer, so every List buffer is separate and has one.
TEST(List, CellLayoutAndSeparateBufferWithDeleter) {
  List<int> l = {1, 2};
  const ffi::ListObj* obj = l.get();
  const TVMFFISeqCell* cell =
      reinterpret_cast<const TVMFFISeqCell*>(reinterpret_cast<const char*>(obj) + 24);
  EXPECT_EQ(obj->type_index(), 75);
  EXPECT_EQ(l.GetTypeKey(), "ffi.List");
  EXPECT_EQ(cell->size, 2);
  EXPECT_NE(cell->data_deleter, nullptr);
  EXPECT_NE(cell->data, static_cast<const void*>(reinterpret_cast<const char*>(obj) + 56));
  for (int i = 0; i < 100; ++i) l.push_back(i);
  EXPECT_EQ(l.get(), obj);
  EXPECT_EQ(cell->size, 102);
  EXPECT_GE(cell->capacity, 102);
  EXPECT_NE(cell->data_deleter, nullptr);
  EXPECT_EQ(static_cast<const TVMFFIAny*>(cell->data)[101].v_int64, 99);
}

TEST(List, EmptyListHasADataDeleter) {
  List<int> l;
  const TVMFFISeqCell* cell = reinterpret_cast<const TVMFFISeqCell*>(
      reinterpret_cast<const char*>(l.get()) + sizeof(TVMFFIObject));
  EXPECT_EQ(cell->capacity, 0);
  EXPECT_NE(cell->data_deleter, nullptr);
}

TEST(List, DefaultConstructedHasCapacityZeroUnlikeArray) {
  List<int> l;
  EXPECT_EQ(l.capacity(), 0u);
  EXPECT_EQ(ffi::Array<int>().capacity(), 4u);
}

TEST(List, GrowthDoublesCapacity) {
  List<int> l;
  int reallocations = 0;
  const void* last = l.get()->data;
  for (int i = 0; i < 10000; ++i) {
    l.push_back(i);
    if (l.get()->data != last) {
      ++reallocations;
      last = l.get()->data;
    }
  }
  EXPECT_LE(reallocations, 15);
  EXPECT_EQ(l[9999], 9999);
}

TEST(List, ReserveKeepsTheBufferForLaterPushes) {
  List<int> l;
  l.reserve(64);
  const void* data = l.get()->data;
  for (int i = 0; i < 64; ++i) l.push_back(i);
  EXPECT_EQ(l.get()->data, data);
  EXPECT_EQ(l.capacity(), 64u);
}

TEST(List, IndexErrorsNameIndexAndSize) {
  List<int> l = {1};
  std::string kind;
  std::string msg = ErrorOf([&] { l[1]; }, &kind);
  EXPECT_EQ(kind, "IndexError");
  EXPECT_EQ(msg, "Index 1 out of bounds 1");
  msg = ErrorOf([&] { l.insert(int64_t{3}, 5); }, &kind);
  EXPECT_EQ(kind, "IndexError");
  EXPECT_EQ(msg, "Index 3 out of bounds [0, 1]");
  msg = ErrorOf([&] { l.erase(int64_t{-1}); }, &kind);
  EXPECT_EQ(kind, "IndexError");
  ErrorOf([&] { List<int>().pop_back(); }, &kind);
  EXPECT_EQ(kind, "IndexError");
}

TEST(List, ConversionReusesTheSharedObject) {
  List<Any> src = {1, 2};
  List<int> typed = Any(src).cast<List<int>>();
  EXPECT_TRUE(typed.same_as(src));
  typed.push_back(3);
  EXPECT_EQ(src.size(), 3u);
}

TEST(List, ConversionErrorsNameTheBadIndex) {
  List<Any> src = {1, "x"};
  std::string kind;
  std::string msg = ErrorOf([&] { Any(src).cast<List<int>>(); }, &kind);
  EXPECT_EQ(kind, "TypeError");
  EXPECT_EQ(msg, "Cannot convert from type `List[index 1: ffi.SmallStr]` to `List<int>`");
}

TEST(List, ReadingAnElementChangedThroughAnUntypedAliasIsChecked) {
  List<int> typed = {1, 2};
  List<Any> untyped = Any(typed).cast<List<Any>>();
  ASSERT_TRUE(untyped.same_as(typed));
  untyped.Set(1, "not an int");
  EXPECT_EQ(typed[0], 1);
  std::string kind;
  std::string msg = ErrorOf([&] { typed[1]; }, &kind);
  EXPECT_EQ(kind, "TypeError");
  EXPECT_EQ(msg, "List element of type `ffi.String` cannot be read as `int`");
  ErrorOf([&] { ToVector(typed); }, &kind);
  EXPECT_EQ(kind, "TypeError");
}

TEST(List, ArrayObjectConvertsToListByCopying) {
  ffi::Array<int> a = {1, 2};
  List<int> l = Any(a).cast<List<int>>();
  EXPECT_FALSE(l.same_as(a));
  EXPECT_EQ(l.get()->type_index(), kTVMFFIList);
  l.push_back(3);
  EXPECT_EQ(a.size(), 2u);
  EXPECT_FALSE(Any(a).as<List<int>>().has_value());
}

TEST(List, TypeStrAndSchema) {
  EXPECT_EQ(ffi::TypeTraits<List<ffi::String>>::TypeStr(), "List<str>");
  EXPECT_EQ(ffi::TypeTraits<List<int>>::TypeSchema(),
            "{\"type\":\"ffi.List\",\"args\":[{\"type\":\"int\"}]}");
}

TEST(List, StoredObjectRefCountsAreExact) {
  ASSERT_EQ(ListCountedObj::live, 0);
  {
    ListCounted c(0);
    List<ListCounted> l;
    for (int i = 0; i < 20; ++i) l.push_back(c);
    EXPECT_EQ(c.use_count(), 21);
    l.erase(l.begin(), l.begin() + 5);
    EXPECT_EQ(c.use_count(), 16);
    l.Set(0, ListCounted(1));
    EXPECT_EQ(c.use_count(), 15);
    EXPECT_EQ(ListCountedObj::live, 2);
    l.resize(3);
    EXPECT_EQ(c.use_count(), 3);
    l.clear();
    EXPECT_EQ(c.use_count(), 1);
    EXPECT_EQ(ListCountedObj::live, 1);
    for (int i = 0; i < 20; ++i) l.push_back(ListCounted(i));
    EXPECT_EQ(ListCountedObj::live, 21);
  }
  EXPECT_EQ(ListCountedObj::live, 0);
}

TEST(List, RuntimeGlobalsMutateTheSameObject) {
  ffi::Function make = ffi::Function::GetGlobalRequired("ffi.List");
  ffi::Function append = ffi::Function::GetGlobalRequired("ffi.ListAppend");
  ffi::Function insert = ffi::Function::GetGlobalRequired("ffi.ListInsert");
  ffi::Function set = ffi::Function::GetGlobalRequired("ffi.ListSetItem");
  ffi::Function erase = ffi::Function::GetGlobalRequired("ffi.ListErase");
  ffi::Function get = ffi::Function::GetGlobalRequired("ffi.ListGetItem");
  ffi::Function size = ffi::Function::GetGlobalRequired("ffi.ListSize");
  ffi::Function clear = ffi::Function::GetGlobalRequired("ffi.ListClear");
  Any l = make(1, 2);
  append(l, 3);
  insert(l, 0, 0);
  set(l, 1, "one");
  erase(l, 2);
  EXPECT_EQ(size(l).cast<int>(), 3);
  EXPECT_EQ(get(l, 0).cast<int>(), 0);
  EXPECT_EQ(get(l, 1).cast<ffi::String>(), "one");
  EXPECT_EQ(get(l, 2).cast<int>(), 3);
  clear(l);
  EXPECT_EQ(size(l).cast<int>(), 0);
  std::string kind;
  std::string msg = ErrorOf([&] { append(ffi::Array<int>{1}, 2); }, &kind);
  EXPECT_EQ(kind, "TypeError");
  EXPECT_NE(msg.find("expected argument #0 of type `ffi.List` but got `ffi.Array`"),
            std::string::npos)
      << msg;
  msg = ErrorOf([&] { get(l, 0); }, &kind);
  EXPECT_EQ(kind, "IndexError");
}

}  // namespace

namespace {

TEST(List, NegativeResizeAndEmptyEraseRange) {
  List<int> l = {1, 2};
  std::string kind;
  std::string msg = ErrorOf([&] { l.resize(-2); }, &kind);
  EXPECT_EQ(kind, "ValueError");
  EXPECT_EQ(msg, "cannot resize a List to negative size");
  l.erase(l.begin() + 7, l.begin() + 7);
  EXPECT_EQ(l.size(), 2u);
  msg = ErrorOf([&] { l.erase(l.begin(), l.begin() + 3); }, &kind);
  EXPECT_EQ(msg, "Erase range [0, 3) out of bounds 2");
  EXPECT_EQ(l.size(), 2u);
}

}  // namespace
