// Tests of NativeFunctionView / NativeFunction: the native adapter ABI, the
// Function form, error propagation, conversion to and from Any.
#include <gtest/gtest.h>

#include <tvm/ffi/any.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/expected.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/reflection/native_function.h>
#include <tvm/ffi/string.h>
#include "testing_helpers.h"

#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace {
namespace ffi = tvm::ffi;
namespace refl = tvm::ffi::reflection;
using ffi::Any;
using ffi::AnyView;
using ffi::Error;
using ffi::Expected;
using ffi::Function;
using ffi::String;
using ffi::TypedFunction;
using tvm_ffi_testing::Cell;
using tvm_ffi_testing::ErrorMessage;

using HashHook = refl::NativeFunctionView<int64_t(const Any&)>;
using OwnedHashHook = refl::NativeFunction<int64_t(const Any&)>;

int64_t DoubleInt(const Any& v) { return v.cast<int64_t>() * 2; }
int64_t ThrowValueError(const Any&) { TVM_FFI_THROW(ValueError) << "bad hook input"; }
int64_t ThrowStd(const Any&) { throw std::runtime_error("std failure"); }
Expected<int64_t> ExpectedHook(const Any& v) noexcept {
  if (v.type_index() != ffi::TypeIndex::kTVMFFIInt) return Error("TypeError", "need an int");
  return v.cast<int64_t>() + 1;
}
int g_void_calls = 0;
void CountCalls(AnyView) { ++g_void_calls; }
bool BothInts(AnyView a, AnyView b) {
  return a.type_index() == ffi::TypeIndex::kTVMFFIInt &&
         b.type_index() == ffi::TypeIndex::kTVMFFIInt;
}

TEST(NativeFunction, ViewIsOneAnyCell) {
  static_assert(sizeof(HashHook) == sizeof(TVMFFIAny));
  HashHook hook = HashHook::FromNative<&DoubleInt>();
  EXPECT_TRUE(hook.is_native());
  EXPECT_TRUE(hook.defined());
  Any stored = hook;
  EXPECT_EQ(Cell(stored)->type_index, ffi::TypeIndex::kTVMFFIOpaquePtr);
  EXPECT_EQ(Cell(stored)->v_ptr, reinterpret_cast<void*>(hook.native_ptr()));
}

TEST(NativeFunction, AdapterFollowsTheExpectedStorageAbi) {
  HashHook hook = HashHook::FromNative<&DoubleInt>();
  // Called directly as compiled code of another implementation would.
  Any arg = int64_t{21};
  TVMFFIAny out = hook.native_ptr()(arg);
  EXPECT_EQ(out.type_index, ffi::TypeIndex::kTVMFFIInt);
  EXPECT_EQ(out.v_int64, 42);
  HashHook failing = HashHook::FromNative<&ThrowValueError>();
  TVMFFIAny err = failing.native_ptr()(arg);
  ASSERT_EQ(err.type_index, ffi::TypeIndex::kTVMFFIError);
  Any owned = ffi::detail::AnyUnsafe::MoveTVMFFIAnyToAny(&err);
  EXPECT_EQ(owned.cast<Error>().kind(), "ValueError");
}

TEST(NativeFunction, CallReturnsTheValue) {
  HashHook hook = HashHook::FromNative<&DoubleInt>();
  EXPECT_EQ(hook(Any(int64_t{5})), 10);
  Expected<int64_t> r = hook.CallExpected(Any(int64_t{6}));
  ASSERT_TRUE(r.is_ok());
  EXPECT_EQ(r.value(), 12);
}

TEST(NativeFunction, ThrownFfiErrorKeepsItsKind) {
  HashHook hook = HashHook::FromNative<&ThrowValueError>();
  EXPECT_EQ(ErrorMessage([&] { hook(Any(1)); }, "ValueError"), "bad hook input");
  Expected<int64_t> r = hook.CallExpected(Any(1));
  ASSERT_TRUE(r.is_err());
  EXPECT_EQ(r.error().kind(), "ValueError");
}

TEST(NativeFunction, StdExceptionBecomesInternalError) {
  HashHook hook = HashHook::FromNative<&ThrowStd>();
  EXPECT_EQ(ErrorMessage([&] { hook(Any(1)); }, "InternalError"), "std failure");
}

TEST(NativeFunction, ExpectedReturningFunctionIsUsedAsIs) {
  HashHook hook = HashHook::FromNative<&ExpectedHook>();
  EXPECT_EQ(hook(Any(int64_t{1})), 2);
  Expected<int64_t> r = hook.CallExpected(Any(String("x")));
  ASSERT_TRUE(r.is_err());
  EXPECT_EQ(r.error().kind(), "TypeError");
  EXPECT_EQ(r.error().message(), "need an int");
}

TEST(NativeFunction, VoidHookReturnsNone) {
  using VoidHook = refl::NativeFunctionView<void(AnyView)>;
  VoidHook hook = VoidHook::FromNative<&CountCalls>();
  int before = g_void_calls;
  TVMFFIAny out = hook.native_ptr()(AnyView(1));
  EXPECT_EQ(out.type_index, ffi::TypeIndex::kTVMFFINone);
  hook(AnyView(2));
  EXPECT_TRUE(hook.CallExpected(AnyView(3)).is_ok());
  EXPECT_EQ(g_void_calls, before + 3);
}

TEST(NativeFunction, AnyViewParametersPassByValue) {
  using EqHook = refl::NativeFunctionView<bool(AnyView, AnyView)>;
  EqHook hook = EqHook::FromNative<&BothInts>();
  EXPECT_TRUE(hook(AnyView(1), AnyView(2)));
  EXPECT_FALSE(hook(AnyView(1), AnyView(2.5)));
}

TEST(NativeFunction, FunctionHookIsCalledPacked) {
  Function f = Function::FromTyped([](int64_t x) { return x * 3; });
  HashHook hook(f);
  EXPECT_FALSE(hook.is_native());
  EXPECT_EQ(hook.native_ptr(), nullptr);
  EXPECT_EQ(hook(Any(int64_t{4})), 12);
}

TEST(NativeFunction, FunctionHookErrorPropagates) {
  Function f = Function::FromTyped([](int64_t) -> int64_t { TVM_FFI_THROW(IndexError) << "oops"; });
  HashHook hook(f);
  Expected<int64_t> r = hook.CallExpected(Any(int64_t{1}));
  ASSERT_TRUE(r.is_err());
  EXPECT_EQ(r.error().kind(), "IndexError");
  EXPECT_EQ(ErrorMessage([&] { hook(Any(int64_t{1})); }, "IndexError"), "oops");
}

TEST(NativeFunction, FunctionHookWrongResultTypeIsTypeError) {
  Function f = Function::FromTyped([](int64_t) { return String("not an int"); });
  HashHook hook(f);
  EXPECT_EQ(ErrorMessage([&] { hook(Any(int64_t{1})); }, "TypeError"),
            "Packed hook result type mismatch");
}

TEST(NativeFunction, EmptyOwningHookCallIsAnError) {
  static_assert(!std::is_default_constructible_v<HashHook>, "a view always refers to a hook");
  OwnedHashHook hook;
  EXPECT_FALSE(hook.defined());
  Expected<int64_t> r = hook.CallExpected(Any(1));
  EXPECT_TRUE(r.is_err());
}

TEST(NativeFunction, ConvertsFromAnyHoldingPointerOrFunction) {
  Any native = HashHook::FromNative<&DoubleInt>();
  EXPECT_EQ(native.cast<HashHook>()(Any(int64_t{2})), 4);
  Any func = Function::FromTyped([](int64_t x) { return x + 100; });
  EXPECT_EQ(func.cast<HashHook>()(Any(int64_t{2})), 102);
  EXPECT_EQ(func.cast<OwnedHashHook>()(Any(int64_t{3})), 103);
}

TEST(NativeFunction, RejectsNullPointerAndOtherValues) {
  EXPECT_FALSE(Any(static_cast<void*>(nullptr)).try_cast<HashHook>().has_value());
  EXPECT_FALSE(Any(1).try_cast<HashHook>().has_value());
  EXPECT_FALSE(Any(String("f")).try_cast<OwnedHashHook>().has_value());
}

TEST(NativeFunction, OwningHookKeepsFunctionAlive) {
  OwnedHashHook owned;
  {
    Function f = Function::FromTyped([](int64_t x) { return x - 1; });
    owned = OwnedHashHook(f);
    EXPECT_EQ(f.use_count(), 2);
  }
  EXPECT_EQ(owned(Any(int64_t{10})), 9);
  HashHook view = owned;
  EXPECT_EQ(view(Any(int64_t{1})), 0);
}

TEST(NativeFunction, AnyFromViewOfFunctionOwnsAReference) {
  Function f = Function::FromTyped([](int64_t x) { return x; });
  HashHook view(f);
  Any stored = view;
  EXPECT_EQ(f.use_count(), 2);
}

TEST(NativeFunction, TypeStrAndSchemaDescribeTheVariant) {
  using Traits = ffi::TypeTraits<HashHook>;
  EXPECT_EQ(Traits::field_static_type_index, ffi::TypeIndex::kTVMFFIAny);
  EXPECT_EQ(Traits::TypeStr().rfind("Variant<void*, ", 0), 0u);
  std::string schema = Traits::TypeSchema();
  EXPECT_EQ(
      schema.rfind(
          "{\"type\":\"Variant\",\"args\":[{\"type\":\"void*\"},{\"type\":\"ffi.Function\"", 0),
      0u)
      << schema;
}

TEST(NativeFunction, ViewOfATypedFunctionBorrowsIt) {
  TypedFunction<int64_t(const Any&)> typed([](const Any& v) { return v.cast<int64_t>() + 1; });
  int before = typed.packed().use_count();
  HashHook view = typed;
  EXPECT_EQ(typed.packed().use_count(), before);
  EXPECT_EQ(view(Any(int64_t{1})), 2);
}

TEST(NativeFunction, ViewOfATypedFunctionReturningExpectedPassesItsError) {
  TypedFunction<Expected<int64_t>(const Any&)> typed(
      [](const Any&) -> Expected<int64_t> { return Error("ValueError", "no hash", ""); });
  HashHook view = typed;
  Expected<int64_t> r = view.CallExpected(Any(1));
  ASSERT_TRUE(r.is_err());
  EXPECT_EQ(r.error().message(), "no hash");
}

TEST(NativeFunction, ViewRefusesTemporariesAndUncheckedValues) {
  using Typed = TypedFunction<int64_t(const Any&)>;
  static_assert(!std::is_constructible_v<HashHook, Typed&&>, "the view would dangle");
  static_assert(!std::is_constructible_v<HashHook, std::nullptr_t>);
  static_assert(!std::is_constructible_v<HashHook, AnyView>, "an AnyView goes through cast<>");
  static_assert(std::is_constructible_v<OwnedHashHook, Typed&&>, "the owning hook keeps it");
}

TEST(NativeFunction, NullTypedFunctionIsAValueError) {
  TypedFunction<int64_t(const Any&)> empty(nullptr);
  EXPECT_EQ(ErrorMessage([&] { HashHook view(empty); }, "ValueError"),
            "Cannot make a native hook from a null TypedFunction");
  EXPECT_EQ(ErrorMessage([&] { OwnedHashHook owned(empty); }, "ValueError"),
            "Cannot make a native hook from a null TypedFunction");
}

TEST(NativeFunction, OwningHookOfATypedFunctionKeepsItAlive) {
  std::optional<OwnedHashHook> owned;
  {
    TypedFunction<int64_t(const Any&)> typed([](const Any& v) { return v.cast<int64_t>() * 2; });
    owned.emplace(typed);
  }
  EXPECT_EQ((*owned)(Any(int64_t{4})), 8);
}

}  // namespace
