// Tests of RValueRef<R> (rvalue_ref.h): stealing the caller's reference for a
// matching object, converted copies otherwise, the used-up error, and the
// names it reports.
#include <gtest/gtest.h>

#include <tvm/ffi/any.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/rvalue_ref.h>
#include "testing_helpers.h"

#include <utility>

namespace {

namespace ffi = tvm::ffi;
using ffi::RValueRef;
using tvm_ffi_testing::Cell;
using tvm_ffi_testing::ErrorMessage;

ffi::Function UniqueProbe() {
  return ffi::Function::FromTyped([](RValueRef<ffi::Array<int>> ref) {
    ffi::Array<int> arr = *std::move(ref);
    return arr.unique();
  });
}

TEST(RValueRef, PassedAsObjectRValueRefOfTheSlot) {
  ffi::Array<int> arr = {1, 2};
  RValueRef<ffi::Array<int>> ref(std::move(arr));
  ffi::AnyView view = ref;
  EXPECT_EQ(view.type_index(), kTVMFFIObjectRValueRef);
  EXPECT_NE(Cell(view)->v_ptr, nullptr);
}

TEST(RValueRef, CalleeStealsAMatchingReference) {
  ffi::Array<int> arr = {1, 2, 3};
  ffi::Array<int> keep = arr;  // a second reference, dropped below
  keep = ffi::Array<int>();
  EXPECT_TRUE(UniqueProbe()(RValueRef<ffi::Array<int>>(std::move(arr))).cast<bool>());
}

TEST(RValueRef, PlainArgumentGivesACopy) {
  ffi::Array<int> arr = {1};
  EXPECT_FALSE(UniqueProbe()(arr).cast<bool>());
  EXPECT_EQ(arr.size(), 1u);
}

TEST(RValueRef, MismatchedObjectIsRejected) {
  ffi::Function f = ffi::Function::FromTyped([](RValueRef<ffi::Function>) { return 0; });
  ffi::Array<int> arr = {1};
  ffi::Error err =
      tvm_ffi_testing::CatchError([&] { f(RValueRef<ffi::Array<int>>(std::move(arr))); });
  EXPECT_EQ(err.kind(), "TypeError");
}

TEST(RValueRef, UsedUpReferenceCannotBecomeAny) {
  RValueRef<ffi::Array<int>> ref(ffi::Array<int>({1}));
  ffi::Array<int> taken = *std::move(ref);
  EXPECT_EQ(ErrorMessage([&] { ffi::Any a(std::move(ref)); }, "InternalError"),
            "RValueRef already moved");
}

TEST(RValueRef, LiveReferenceMovesIntoAny) {
  ffi::Array<int> arr = {7};
  ffi::Any a(RValueRef<ffi::Array<int>>(std::move(arr)));
  EXPECT_EQ(a.cast<ffi::Array<int>>()[0], 7);
  EXPECT_FALSE(arr.defined());  // NOLINT(bugprone-use-after-move)
}

TEST(RValueRef, AnyFromTheViewStealsTheObject) {
  ffi::Array<int> arr = {4};
  const ffi::Object* obj = arr.get();
  RValueRef<ffi::Array<int>> ref(std::move(arr));
  ffi::AnyView view = ref;
  ffi::Any owned(view);
  EXPECT_EQ(owned.type_index(), kTVMFFIArray);
  EXPECT_EQ(owned.cast<ffi::Array<int>>().get(), obj);
  EXPECT_EQ(*static_cast<TVMFFIObject**>(Cell(view)->v_ptr), nullptr);  // the slot gave it up
  EXPECT_EQ(obj->use_count(), 1u);
}

TEST(RValueRef, AnyFromAUsedUpViewRaisesInternalError) {
  ffi::Array<int> arr = {4};
  RValueRef<ffi::Array<int>> ref(std::move(arr));
  ffi::AnyView view = ref;
  ffi::Any first(view);
  EXPECT_EQ(ErrorMessage([&] { ffi::Any again(view); }, "InternalError"),
            "RValueRef already moved");
}

TEST(RValueRef, CalleeTakingAnySeesAMovedArgumentUnique) {
  ffi::Function f = ffi::Function::FromTyped([](ffi::Any a) {
    return a.as<ffi::ArrayObj>() != nullptr && a.as<ffi::ArrayObj>()->use_count() == 1;
  });
  ffi::Array<int> arr = {1, 2};
  EXPECT_TRUE(f(RValueRef<ffi::Array<int>>(std::move(arr))).cast<bool>());
}

TEST(RValueRef, CalleeTakingAnyGetsAReferenceFromAPlainArgument) {
  ffi::Function f = ffi::Function::FromTyped(
      [](ffi::Any a) { return static_cast<int64_t>(a.as<ffi::ArrayObj>()->use_count()); });
  ffi::Array<int> arr = {1, 2};
  EXPECT_EQ(f(arr).cast<int64_t>(), 2);
  EXPECT_TRUE(arr.defined());
}

TEST(RValueRef, TypeStrAndSchemaWrapTheReference) {
  using Traits = ffi::TypeTraits<RValueRef<ffi::ObjectRef>>;
  static_assert(!Traits::storage_enabled);
  EXPECT_EQ(Traits::TypeStr(), "RValueRef<" + ffi::TypeTraits<ffi::ObjectRef>::TypeStr() + ">");
  EXPECT_EQ(Traits::TypeSchema(), R"({"type":"ObjectRValueRef","args":[{"type":"ffi.Object"}]})");
}

}  // namespace
