// Tests of container/container_detail.h and the ArrayObj / Array members added for
// source compatibility: IterAdapter, element predicates, ContainerTypeStr, ArrayObj statics,
// GetArrayObj and MutateByApply.
#include <gtest/gtest.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/container_detail.h>
#include <tvm/ffi/container/container_details.h>
#include <tvm/ffi/container/map.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/string.h>

#include <cstdint>
#include <string>
#include <vector>

namespace {

namespace ffi = tvm::ffi;
using ffi::Any;
using ffi::Array;
using ffi::String;

struct TimesTen {
  using ResultType = int64_t;
  static int64_t convert(int v) { return v * 10; }
};

TEST(ContainerDetail, IterAdapterConvertsOnDereference) {
  std::vector<int> v = {1, 2, 3};
  using It = ffi::detail::IterAdapter<TimesTen, std::vector<int>::const_iterator>;
  It b(v.cbegin()), e(v.cend());
  EXPECT_EQ(e - b, 3);
  EXPECT_EQ(*b, 10);
  EXPECT_EQ(*(b + 2), 30);
  std::vector<int64_t> out(b, e);
  EXPECT_EQ(out, (std::vector<int64_t>{10, 20, 30}));
}

TEST(ContainerDetail, ReverseIterAdapterWalksBackwards) {
  std::vector<int> v = {1, 2, 3};
  using It = ffi::detail::ReverseIterAdapter<TimesTen, std::vector<int>::const_iterator>;
  It b(v.cend() - 1), e(v.cbegin() - 1);
  std::vector<int64_t> out;
  for (It it = b; it != e; ++it) out.push_back(*it);
  EXPECT_EQ(out, (std::vector<int64_t>{30, 20, 10}));
}

TEST(ContainerDetail, ElementPredicates) {
  static_assert(ffi::detail::storage_enabled_v<Any>);
  static_assert(ffi::detail::storage_enabled_v<int64_t>);
  static_assert(ffi::detail::storage_enabled_v<String>);
  static_assert(!ffi::detail::storage_enabled_v<std::vector<int>*>);
  // Converted on every crossing, so never stored as themselves.
  static_assert(!ffi::detail::storage_enabled_v<std::string>);
  static_assert(!ffi::detail::storage_enabled_v<const char*>);
  static_assert(!ffi::detail::storage_enabled_v<DLTensor*>);
  static_assert(ffi::detail::storage_enabled_v<ffi::ObjectPtr<ffi::Object>>);
  static_assert(ffi::detail::all_storage_enabled_v<int, String, Any>);
  static_assert(ffi::detail::all_object_ref_v<Array<int>, ffi::Map<Any, Any>>);
  static_assert(!ffi::detail::all_object_ref_v<Array<int>, int>);
  SUCCEED();
}

struct NotAnObject {
  int x;
};

TEST(ContainerDetail, PointersToNonObjectsAreNotStored) {
  static_assert(!ffi::TypeTraits<ffi::ObjectPtr<NotAnObject>>::storage_enabled);
  static_assert(!ffi::TypeTraits<ffi::Arc<NotAnObject>>::storage_enabled);
  static_assert(ffi::TypeTraits<ffi::Arc<ffi::Object>>::storage_enabled);
  static_assert(!ffi::detail::storage_enabled_v<ffi::ObjectPtr<NotAnObject>>);
  SUCCEED();
}

TEST(ContainerDetail, ContainerTypeStrJoinsTheElementTypes) {
  EXPECT_EQ((ffi::detail::ContainerTypeStr<String, int64_t>("Map")), "Map<str, int>");
  EXPECT_EQ((ffi::detail::ContainerTypeStr<Any>("Array")), "Array<Any>");
}

TEST(ArrayObjStatics, CreateRepeated) {
  ffi::ObjectPtr<ffi::ArrayObj> p = ffi::ArrayObj::CreateRepeated(3, Any(7));
  Array<int> a(ffi::ObjectPtr<ffi::Object>(std::move(p)));
  EXPECT_EQ(a.size(), 3u);
  EXPECT_EQ(a[2], 7);
}

TEST(ArrayObjStatics, CopyFromKeepsTheSourceAndChecksCapacity) {
  Array<int> a = {1, 2, 3};
  ffi::ObjectPtr<ffi::ArrayObj> c = ffi::ArrayObj::CopyFrom(8, a.GetArrayObj());
  EXPECT_EQ(c->SeqCell()->capacity, 8);
  EXPECT_EQ(c->SeqCell()->size, 3);
  EXPECT_EQ(a.size(), 3u);
  try {
    ffi::ArrayObj::CopyFrom(2, a.GetArrayObj());
    FAIL() << "no exception";
  } catch (const ffi::Error& e) {
    EXPECT_EQ(e.kind(), "ValueError");
    EXPECT_EQ(e.message(), "Not enough capacity");
  }
}

TEST(ArrayObjStatics, MoveFromEmptiesTheSourceAndChecksCapacity) {
  Array<int> a = {1, 2, 3};
  try {
    ffi::ArrayObj::MoveFrom(1, a.GetArrayObj());
    FAIL() << "no exception";
  } catch (const ffi::Error& e) {
    EXPECT_EQ(e.kind(), "RuntimeError");
  }
  EXPECT_EQ(a.size(), 3u);  // unchanged by the failed move
  ffi::ObjectPtr<ffi::ArrayObj> m = ffi::ArrayObj::MoveFrom(4, a.GetArrayObj());
  EXPECT_EQ(m->SeqCell()->size, 3);
  EXPECT_EQ(a.size(), 0u);
}

TEST(Array, MutateByApplyInPlaceWhenUnique) {
  Array<int> a = {1, 2, 3};
  const ffi::ArrayObj* before = a.get();
  a.MutateByApply([](int x) { return x * 2; });
  EXPECT_EQ(a.get(), before);
  EXPECT_EQ(std::vector<int>(a.begin(), a.end()), (std::vector<int>{2, 4, 6}));
}

TEST(Array, MutateByApplyCopiesWhenShared) {
  Array<int> a = {1, 2, 3};
  Array<int> b = a;
  a.MutateByApply([](int x) { return x + 1; });
  EXPECT_EQ(std::vector<int>(a.begin(), a.end()), (std::vector<int>{2, 3, 4}));
  EXPECT_EQ(std::vector<int>(b.begin(), b.end()), (std::vector<int>{1, 2, 3}));
}

TEST(Array, MutateByApplyHandsElementsUniquely) {
  Array<Array<int>> a = {Array<int>{1}};
  a.MutateByApply([](Array<int> inner) {
    EXPECT_TRUE(inner.unique());
    inner.push_back(2);
    return inner;
  });
  EXPECT_EQ(a[0].size(), 2u);
}

}  // namespace
