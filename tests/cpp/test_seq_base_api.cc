// The public element API of ArrayObj/ListObj (SeqBaseObj, cpp_api.md §2.12), used by code that
// holds the object itself: GetListObj()->insert(...), GetArrayObj()->size(), ...
#include <gtest/gtest.h>
#include <tvm/ffi/any.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/list.h>
#include <tvm/ffi/string.h>

#include <string>
#include <vector>

#include "testing_helpers.h"

namespace {

namespace ffi = tvm::ffi;
using ffi::Any;
using ffi::Array;
using ffi::ArrayObj;
using ffi::List;
using ffi::ListObj;
using ffi::String;
using tvm_ffi_testing::CatchError;

std::vector<int> Ints(const List<int>& l) { return std::vector<int>(l.begin(), l.end()); }

TEST(SeqBaseApi, SizeCapacityAndEmptyReadTheCell) {
  List<int> l = {1, 2, 3};
  ListObj* o = l.GetListObj();
  EXPECT_EQ(o->size(), 3u);
  EXPECT_GE(o->capacity(), 3u);
  EXPECT_FALSE(o->empty());
  EXPECT_EQ(o->SeqCell()->size, 3);
  Array<int> a;
  EXPECT_TRUE(a.GetArrayObj()->empty());
}

TEST(SeqBaseApi, AtAndIndexReturnTheElementsAsAny) {
  Array<String> a = {"x", "y"};
  const ArrayObj* o = a.get();
  EXPECT_EQ(o->at(1).cast<String>(), "y");
  EXPECT_EQ((*o)[0].cast<String>(), "x");
  EXPECT_EQ(o->front().cast<String>(), "x");
  EXPECT_EQ(o->back().cast<String>(), "y");
}

TEST(SeqBaseApi, AtOutOfRangeRaisesIndexErrorNamingIndexAndSize) {
  Array<int> a = {1, 2};
  ffi::Error e = CatchError([&] { a.get()->at(2); });
  EXPECT_EQ(e.kind(), "IndexError");
  EXPECT_EQ(e.message(), "Index 2 out of bounds 2");
  EXPECT_EQ(CatchError([&] { a.get()->at(-1); }).message(), "Index -1 out of bounds 2");
}

TEST(SeqBaseApi, FrontAndBackOnEmptyRaiseIndexError) {
  List<int> l;
  EXPECT_EQ(CatchError([&] { l.GetListObj()->front(); }).message(), "front() on empty sequence");
  EXPECT_EQ(CatchError([&] { l.GetListObj()->back(); }).message(), "back() on empty sequence");
}

TEST(SeqBaseApi, BeginEndIterateTheSlots) {
  Array<int> a = {4, 5, 6};
  int64_t sum = 0;
  for (const Any& v : *a.get()) sum += v.cast<int64_t>();
  EXPECT_EQ(sum, 15);
  EXPECT_EQ(a.get()->end() - a.get()->begin(), 3);
}

TEST(SeqBaseApi, SetItemReplacesAndChecksTheIndex) {
  List<int> l = {1, 2};
  l.GetListObj()->SetItem(1, Any(20));
  EXPECT_EQ(Ints(l), (std::vector<int>{1, 20}));
  ffi::Error e = CatchError([&] { l.GetListObj()->SetItem(5, Any(0)); });
  EXPECT_EQ(e.kind(), "IndexError");
  EXPECT_EQ(e.message(), "Index 5 out of bounds 2");
}

TEST(SeqBaseApi, PopBackRemovesTheLastAndRaisesOnEmpty) {
  List<int> l = {1, 2};
  l.GetListObj()->pop_back();
  EXPECT_EQ(Ints(l), (std::vector<int>{1}));
  l.GetListObj()->pop_back();
  ffi::Error e = CatchError([&] { l.GetListObj()->pop_back(); });
  EXPECT_EQ(e.kind(), "IndexError");
  EXPECT_EQ(e.message(), "pop_back on empty sequence");
}

TEST(SeqBaseApi, EraseOneIndex) {
  List<int> l = {1, 2, 3};
  l.GetListObj()->erase(1);
  EXPECT_EQ(Ints(l), (std::vector<int>{1, 3}));
  EXPECT_EQ(CatchError([&] { l.GetListObj()->erase(2); }).message(), "Index 2 out of bounds 2");
}

TEST(SeqBaseApi, EraseRangeChecksBoundsAndAllowsEmptyRanges) {
  List<int> l = {1, 2, 3, 4};
  l.GetListObj()->erase(1, 3);
  EXPECT_EQ(Ints(l), (std::vector<int>{1, 4}));
  l.GetListObj()->erase(7, 7);  // empty: a no-op wherever it is
  EXPECT_EQ(l.size(), 2u);
  ffi::Error e = CatchError([&] { l.GetListObj()->erase(1, 3); });
  EXPECT_EQ(e.kind(), "IndexError");
  EXPECT_EQ(e.message(), "Erase range [1, 3) out of bounds 2");
  EXPECT_EQ(Ints(l), (std::vector<int>{1, 4}));
}

TEST(SeqBaseApi, InsertOneValueAtAnyPosition) {
  List<int> l = {1, 3};
  ListObj* o = l.GetListObj();
  o->insert(1, Any(2));
  o->insert(3, Any(4));
  o->insert(0, Any(0));
  EXPECT_EQ(Ints(l), (std::vector<int>{0, 1, 2, 3, 4}));
}

TEST(SeqBaseApi, InsertOutOfRangeRaisesIndexErrorAndChangesNothing) {
  List<int> l = {1};
  ffi::Error e = CatchError([&] { l.GetListObj()->insert(2, Any(9)); });
  EXPECT_EQ(e.kind(), "IndexError");
  EXPECT_EQ(e.message(), "Index 2 out of bounds [0, 1]");
  EXPECT_EQ(CatchError([&] { l.GetListObj()->insert(-1, Any(9)); }).kind(), "IndexError");
  EXPECT_EQ(Ints(l), (std::vector<int>{1}));
}

TEST(SeqBaseApi, InsertRangeKeepsOrder) {
  List<int> l = {1, 5};
  std::vector<int> mid = {2, 3, 4};
  l.GetListObj()->insert(1, mid.begin(), mid.end());
  EXPECT_EQ(Ints(l), (std::vector<int>{1, 2, 3, 4, 5}));
}

TEST(SeqBaseApi, ListKeepsAnOutOfLineBufferWhenGrownThroughTheObject) {
  List<int> l;
  for (int i = 0; i < 20; ++i) l.GetListObj()->insert(i, Any(i));
  EXPECT_EQ(l.size(), 20u);
  EXPECT_NE(l.GetListObj()->SeqCell()->data_deleter, nullptr);
}

TEST(SeqBaseApi, ReverseInPlace) {
  List<int> l = {1, 2, 3};
  l.GetListObj()->Reverse();
  EXPECT_EQ(Ints(l), (std::vector<int>{3, 2, 1}));
}

TEST(SeqBaseApi, ResizeGrowsWithNoneAndShrinks) {
  List<Any> l = {1};
  l.GetListObj()->resize(3);
  ASSERT_EQ(l.size(), 3u);
  EXPECT_EQ(l[2].type_index(), kTVMFFINone);
  l.GetListObj()->resize(1);
  EXPECT_EQ(l.size(), 1u);
}

TEST(SeqBaseApi, ResizeToNegativeRaisesValueError) {
  List<int> l;
  ffi::Error e = CatchError([&] { l.GetListObj()->resize(-1); });
  EXPECT_EQ(e.kind(), "ValueError");
  EXPECT_EQ(e.message(), "Cannot resize to negative size");
}

TEST(SeqBaseApi, ClearRemovesEverythingAndKeepsCapacity) {
  List<int> l = {1, 2, 3};
  size_t cap = l.capacity();
  l.GetListObj()->clear();
  EXPECT_TRUE(l.empty());
  EXPECT_EQ(l.capacity(), cap);
}

TEST(SeqBaseApi, InitRangeAppendsAtTheEnd) {
  ffi::ObjectPtr<ListObj> p = ListObj::CreateRepeated(1, Any(0));
  std::vector<int> more = {1, 2};
  p->InitRange(1, more.begin(), more.end());
  EXPECT_EQ(Ints(List<int>(p)), (std::vector<int>{0, 1, 2}));
  ffi::Error e = CatchError([&] { p->InitRange(0, more.begin(), more.end()); });
  EXPECT_EQ(e.kind(), "IndexError");
  EXPECT_EQ(p->size(), 3u);
}

}  // namespace
