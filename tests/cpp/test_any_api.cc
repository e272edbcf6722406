// Tests of the Any/AnyView members of the 0.1.x C++ API: trivially copyable
// AnyView, reset/swap/same_as, == nullptr, as_or_throw, moving as<T>() out of
// a temporary, and the detail helpers (AnyUnsafe, Type2Str,
// InplaceConvertAnyViewToAny).
#include <gtest/gtest.h>
#include <tvm/ffi/any.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/string.h>

#include <string>
#include <type_traits>

#include "testing_helpers.h"

namespace {

namespace ffi = tvm::ffi;
using ffi::Any;
using ffi::AnyView;
using ffi::String;
using tvm_ffi_testing::CatchError;

static_assert(std::is_trivially_copyable_v<AnyView>, "AnyView is passed in registers");
static_assert(std::is_standard_layout_v<AnyView>, "AnyView is one TVMFFIAny");

TEST(AnyViewApi, MoveLeavesTheSourceAsItWas) {
  AnyView a = 5;
  AnyView b = std::move(a);
  EXPECT_EQ(a.type_index(), kTVMFFIInt);  // NOLINT(bugprone-use-after-move)
  EXPECT_EQ(b.cast<int>(), 5);
}

TEST(AnyViewApi, ResetSwapAndNullptrComparison) {
  AnyView a = 1;
  AnyView b;
  EXPECT_TRUE(b == nullptr);
  EXPECT_TRUE(a != nullptr);
  a.swap(b);
  EXPECT_TRUE(a == nullptr);
  EXPECT_EQ(b.cast<int>(), 1);
  b.reset();
  EXPECT_TRUE(b == nullptr);
}

TEST(AnyViewApi, SameAsComparesTheBits) {
  String s = "a heap allocated string";
  AnyView a = s;
  AnyView b = s;
  EXPECT_TRUE(a.same_as(b));
  AnyView c = String("a heap allocated string");
  EXPECT_FALSE(a.same_as(AnyView(1)));
  EXPECT_TRUE(AnyView(1).same_as(AnyView(1)));
  EXPECT_FALSE(AnyView(1).same_as(AnyView(true)));
  (void)c;
}

TEST(AnyViewApi, AsOrThrowIsStrict) {
  AnyView v = 1;
  EXPECT_EQ(v.as_or_throw<int>(), 1);
  ffi::Error e = CatchError([&] { (void)v.as_or_throw<double>(); });
  EXPECT_EQ(e.kind(), "TypeError");
  EXPECT_NE(e.message().find("Cannot treat type `"), std::string::npos) << e.message();
  EXPECT_NE(e.message().find("` as type `float`"), std::string::npos) << e.message();
}

TEST(AnyApi, NullptrComparison) {
  Any none;
  Any one = 1;
  EXPECT_TRUE(none == nullptr);
  EXPECT_FALSE(none != nullptr);
  EXPECT_TRUE(one != nullptr);
}

TEST(AnyApi, SameAsAnyIsBitwise) {
  String s = "long enough for the heap";
  Any a = s;
  Any b = s;
  Any c = String("long enough for the heap");
  EXPECT_TRUE(a.same_as(b));
  EXPECT_FALSE(a.same_as(c));  // equal content, different objects
  EXPECT_TRUE(Any(2).same_as(Any(2)));
}

TEST(AnyApi, SameAsObjectRefIsIdentity) {
  ffi::Function f = ffi::Function::FromTyped([]() {});
  Any a = f;
  EXPECT_TRUE(a.same_as(f));
  EXPECT_FALSE(a.same_as(ffi::Function::FromTyped([]() {})));
  Any none;
  EXPECT_TRUE(none.same_as(ffi::Function()));
  EXPECT_FALSE(a.same_as(ffi::Function()));
}

TEST(AnyApi, AsOnATemporaryMovesTheValueOut) {
  ffi::Function f = ffi::Function::FromTyped([]() {});
  Any a = f;
  EXPECT_EQ(f.use_count(), 2);
  std::optional<ffi::Function> moved = std::move(a).as<ffi::Function>();
  ASSERT_TRUE(moved.has_value());
  EXPECT_EQ(f.use_count(), 2);
  EXPECT_TRUE(a == nullptr);  // NOLINT(bugprone-use-after-move)
}

TEST(AnyApi, AsOnATemporaryKeepsTheValueOnMismatch) {
  Any a = 3;
  EXPECT_FALSE(std::move(a).as<String>().has_value());
  EXPECT_EQ(a.cast<int>(), 3);  // NOLINT(bugprone-use-after-move)
}

TEST(AnyApi, AsOrThrowMovesOrThrows) {
  Any a = String("text");
  EXPECT_EQ(a.as_or_throw<String>(), "text");
  EXPECT_EQ(CatchError([&] { (void)a.as_or_throw<int>(); }).kind(), "TypeError");
  String out = std::move(a).as_or_throw<String>();
  EXPECT_EQ(out, "text");
  EXPECT_TRUE(a == nullptr);  // NOLINT(bugprone-use-after-move)
}

TEST(AnyDetails, Type2StrNames) {
  EXPECT_EQ(ffi::detail::Type2Str<int>::v(), "int");
  EXPECT_EQ(ffi::detail::Type2Str<const Any&>::v(), "Any");
  EXPECT_EQ(ffi::detail::Type2Str<AnyView>::v(), "AnyView");
  EXPECT_EQ(ffi::detail::Type2Str<void>::v(), "void");
}

TEST(AnyDetails, InplaceConvertAnyViewToAnyOwnsARawString) {
  std::string text = "borrowed text longer than seven";
  TVMFFIAny cell = AnyView(text).CopyToTVMFFIAny();
  ASSERT_EQ(cell.type_index, kTVMFFIRawStr);
  ffi::detail::InplaceConvertAnyViewToAny(&cell);
  Any owned = ffi::detail::AnyUnsafe::MoveTVMFFIAnyRawToAny(cell);
  EXPECT_EQ(owned.type_index(), kTVMFFIStr);
  text.assign("changed");
  EXPECT_EQ(owned.cast<String>(), "borrowed text longer than seven");
}

TEST(AnyDetails, AnyUnsafeHelpers) {
  Any a = String("abcdefghijk");
  EXPECT_TRUE(ffi::detail::AnyUnsafe::CheckAnyStrict<String>(a));
  EXPECT_FALSE(ffi::detail::AnyUnsafe::CheckAnyStrict<int>(a));
  EXPECT_TRUE(ffi::detail::AnyUnsafe::CheckAnyViewStrict<String>(AnyView(a)));
  EXPECT_EQ(ffi::detail::AnyUnsafe::TVMFFIAnyPtrFromAny(a)->type_index, kTVMFFIStr);
  String s = ffi::detail::AnyUnsafe::MoveFromAnyAfterCheck<String>(std::move(a));
  EXPECT_EQ(s, "abcdefghijk");
}

}  // namespace
