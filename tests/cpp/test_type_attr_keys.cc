// The typed attribute keys of the hook columns (type_attr::kStructuralVisit,
// kStructuralMutate, kAnyHash, kAnyEqual) and the FStructuralVisit /
// FStructuralMutate hook types: their column names, and hooks registered
// through them with TypeAttrDef::native_fn_attr reaching the engines that
// read those columns.
#include <gtest/gtest.h>
#include <tvm/ffi/any.h>
#include <tvm/ffi/container/map.h>
#include <tvm/ffi/extra/structural_mutate.h>
#include <tvm/ffi/extra/structural_visit.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/memory.h>
#include <tvm/ffi/reflection/registry.h>
#include <tvm/ffi/reflection/type_attr.h>

#include <cstdint>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

namespace {

using namespace tvm::ffi;  // NOLINT(build/namespaces)
namespace refl = tvm::ffi::reflection;

/*! \brief Visited through its kStructuralVisit hook, which reports `shown` and skips `hidden`. */
class KeyVisitObj : public Object {
 public:
  int64_t shown;
  int64_t hidden;
  KeyVisitObj(int64_t shown, int64_t hidden) : shown(shown), hidden(hidden) {}
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("test.type_attr_keys.Visit", KeyVisitObj, Object);
};

/*! \brief Mutated through its kStructuralMutate hook into the int `value * 10`. */
class KeyMutateObj : public Object {
 public:
  int64_t value;
  explicit KeyMutateObj(int64_t value) : value(value) {}
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("test.type_attr_keys.Mutate", KeyMutateObj, Object);
};

/*! \brief A map key hashed and compared by `id` through the kAnyHash / kAnyEqual hooks. */
class KeyIdObj : public Object {
 public:
  int64_t id;
  explicit KeyIdObj(int64_t id) : id(id) {}
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("test.type_attr_keys.Id", KeyIdObj, Object);
};

Optional<VisitInterrupt> VisitShownOnly(StructuralVisitorObj* visitor, AnyView value) {
  return visitor->Visit(Any(value.as<KeyVisitObj>()->shown));
}

UnchangedOr<Any> MutateToTenTimes(StructuralMutatorObj*, AnyView value) {
  return Any(value.as<KeyMutateObj>()->value * 10);
}

int64_t HashById(const Any& value) { return value.as<KeyIdObj>()->id; }

bool EqualById(const Any& a, const Any& b) { return a.as<KeyIdObj>()->id == b.as<KeyIdObj>()->id; }

TVM_FFI_STATIC_INIT_BLOCK() {
  refl::ObjectDef<KeyVisitObj>()
      .def_ro("shown", &KeyVisitObj::shown)
      .def_ro("hidden", &KeyVisitObj::hidden);
  refl::TypeAttrDef<KeyVisitObj>().native_fn_attr<&VisitShownOnly>(type_attr::kStructuralVisit);
  refl::ObjectDef<KeyMutateObj>().def_ro("value", &KeyMutateObj::value);
  refl::TypeAttrDef<KeyMutateObj>().native_fn_attr<&MutateToTenTimes>(type_attr::kStructuralMutate);
  refl::ObjectDef<KeyIdObj>().def_ro("id", &KeyIdObj::id);
  refl::TypeAttrDef<KeyIdObj>()
      .native_fn_attr<&HashById>(type_attr::kAnyHash)
      .native_fn_attr<&EqualById>(type_attr::kAnyEqual);
}

TEST(TypeAttrKeys, HookKeysNameTheirColumns) {
  EXPECT_EQ(std::string(type_attr::kStructuralVisit.name), "__s_visit__");
  EXPECT_EQ(std::string(type_attr::kStructuralMutate.name), "__s_mutate__");
  EXPECT_EQ(std::string(type_attr::kAnyHash.name), "__any_hash__");
  EXPECT_EQ(std::string(type_attr::kAnyEqual.name), "__any_equal__");
}

TEST(TypeAttrKeys, ReflectionNamespaceReachesTheSameKeys) {
  EXPECT_EQ(&refl::type_attr::kStructuralVisit, &type_attr::kStructuralVisit);
  EXPECT_EQ(&refl::type_attr::kAnyHash, &type_attr::kAnyHash);
}

TEST(TypeAttrKeys, HookTypesAreNativeFunctionViewsOfTheAbiSignatures) {
  static_assert(std::is_same_v<FStructuralVisit::NativeAdapter, FStructuralVisitABI>);
  static_assert(std::is_same_v<FStructuralMutate::NativeAdapter, FStructuralMutateABI>);
  static_assert(sizeof(FStructuralVisit) == sizeof(TVMFFIAny));
  static_assert(sizeof(FStructuralMutate) == sizeof(TVMFFIAny));
}

TEST(TypeAttrKeys, VisitHookRegisteredByKeyReplacesTheFieldDescent) {
  std::vector<int64_t> seen;
  StructuralWalk(Any(make_object<KeyVisitObj>(1, 2)), [&](int64_t v) { seen.push_back(v); });
  EXPECT_EQ(seen, std::vector<int64_t>{1});
}

TEST(TypeAttrKeys, VisitHookIsReadBackThroughTheKey) {
  refl::TypeAttrColumn column(type_attr::kStructuralVisit);
  std::optional<FStructuralVisit> hook =
      type_attr::kStructuralVisit.ValueFrom(column[KeyVisitObj::RuntimeTypeIndex()]);
  ASSERT_TRUE(hook.has_value());
  EXPECT_TRUE(hook->is_native());
}

TEST(TypeAttrKeys, MutateHookRegisteredByKeyReplacesTheValue) {
  Any out = StructuralMutate(Any(make_object<KeyMutateObj>(4)));
  EXPECT_EQ(out.cast<int64_t>(), 40);
}

TEST(TypeAttrKeys, AnyHashAndAnyEqualHooksMakeEqualIdsOneMapKey) {
  Map<Any, int64_t> m;
  m.Set(Any(make_object<KeyIdObj>(7)), 1);
  m.Set(Any(make_object<KeyIdObj>(7)), 2);
  EXPECT_EQ(m.size(), 1u);
  EXPECT_EQ(m.at(Any(make_object<KeyIdObj>(7))), 2);
  EXPECT_EQ(m.count(Any(make_object<KeyIdObj>(8))), 0u);
}

}  // namespace
