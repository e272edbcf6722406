// Structural mutation: Unchanged/UnchangedOr, StructuralMap pre/post order,
// sharing and in-place reuse, variable remapping, StructuralMutate, the
// mutator's ABI layout and error paths, and the mutation globals.
#include <gtest/gtest.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/dict.h>
#include <tvm/ffi/container/list.h>
#include <tvm/ffi/container/map.h>
#include <tvm/ffi/container/tuple.h>
#include <tvm/ffi/extra/structural_mutate.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/reflection/registry.h>

#include <cstddef>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "structural_visit_fixtures.h"
#include "testing_helpers.h"

namespace {

using namespace tvm::ffi;                 // NOLINT(build/namespaces)
using namespace tvm_ffi_testing::svisit;  // NOLINT(build/namespaces)
using tvm_ffi_testing::ErrorMessage;

/*! \brief A type whose `__s_mutate__` hook (a Function) replaces it by its field's mutation. */
class MutHookObj : public Object {
 public:
  Any x;
  explicit MutHookObj(Any x) : x(std::move(x)) {}
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("test.svisit.MutHook", MutHookObj, Object);
};

TVM_FFI_STATIC_INIT_BLOCK() {
  tvm::ffi::reflection::ObjectDef<MutHookObj>().def_ro("x", &MutHookObj::x);
  Function hook = Function::FromTyped([](StructuralMutator m, ObjectRef self) {
    Any x = self.as<MutHookObj>()->x;
    return m->Mutate(x).ValueOrUnchanged(x);
  });
  TVMFFIByteArray name{"__s_mutate__", 12};
  Any value(hook);
  TVM_FFI_CHECK_SAFE_CALL(TVMFFITypeRegisterAttr(MutHookObj::RuntimeTypeIndex(), &name,
                                                 detail::AnyUnsafe::GetTVMFFIAny(value)));
}

void RegisterAttr(int32_t type_index, const char* name, Any value) {
  TVMFFIByteArray key{name, std::strlen(name)};
  TVM_FFI_CHECK_SAFE_CALL(
      TVMFFITypeRegisterAttr(type_index, &key, detail::AnyUnsafe::GetTVMFFIAny(value)));
}

/*! \brief A type whose `__s_mutate__` is an int, neither a hook pointer nor a Function. */
class BadMutHookObj : public Object {
 public:
  Any x;
  explicit BadMutHookObj(Any x) : x(std::move(x)) {}
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("test.svisit.BadMutHook", BadMutHookObj, Object);
};

/*! \brief A type whose `__s_maybe_inplace_mutate__` is an int. */
class BadInplaceHookObj : public Object {
 public:
  Any x;
  explicit BadInplaceHookObj(Any x) : x(std::move(x)) {}
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("test.svisit.BadInplaceHook", BadInplaceHookObj, Object);
};

/*! \brief A type whose `__ffi_shallow_copy__` returns its input. */
class SelfCopyObj : public Object {
 public:
  Any x;
  explicit SelfCopyObj(Any x) : x(std::move(x)) {}
  SelfCopyObj(const SelfCopyObj&) = delete;
  SelfCopyObj& operator=(const SelfCopyObj&) = delete;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("test.svisit.SelfCopy", SelfCopyObj, Object);
};

/*! \brief A type whose `__ffi_shallow_copy__` returns an object of another type. */
class OtherTypeCopyObj : public Object {
 public:
  Any x;
  explicit OtherTypeCopyObj(Any x) : x(std::move(x)) {}
  OtherTypeCopyObj(const OtherTypeCopyObj&) = delete;
  OtherTypeCopyObj& operator=(const OtherTypeCopyObj&) = delete;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("test.svisit.OtherTypeCopy", OtherTypeCopyObj, Object);
};

/*! \brief A type whose field `x` is registered through the C ABI without a setter. */
class NoSetterObj : public Object {
 public:
  Any x;
  explicit NoSetterObj(Any x) : x(std::move(x)) {}
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("test.svisit.NoSetter", NoSetterObj, Object);
};

int ReadAnyField(void* field, TVMFFIAny* result) {
  TVM_FFI_SAFE_CALL_BEGIN();
  *result = detail::AnyUnsafe::MoveAnyToTVMFFIAny(Any(*static_cast<const Any*>(field)));
  TVM_FFI_SAFE_CALL_END();
}

TVM_FFI_STATIC_INIT_BLOCK() {
  namespace refl = tvm::ffi::reflection;
  refl::ObjectDef<BadMutHookObj>().def_ro("x", &BadMutHookObj::x);
  RegisterAttr(BadMutHookObj::RuntimeTypeIndex(), "__s_mutate__", 7);
  refl::ObjectDef<BadInplaceHookObj>().def_ro("x", &BadInplaceHookObj::x);
  RegisterAttr(BadInplaceHookObj::RuntimeTypeIndex(), "__s_maybe_inplace_mutate__", 7);
  refl::ObjectDef<SelfCopyObj>().def_ro("x", &SelfCopyObj::x);
  RegisterAttr(SelfCopyObj::RuntimeTypeIndex(), "__ffi_shallow_copy__",
               Function::FromTyped([](ObjectRef self) { return self; }));
  refl::ObjectDef<OtherTypeCopyObj>().def_ro("x", &OtherTypeCopyObj::x);
  RegisterAttr(OtherTypeCopyObj::RuntimeTypeIndex(), "__ffi_shallow_copy__",
               Function::FromTyped([](ObjectRef) { return Add(1, 2); }));
  refl::ObjectDef<NoSetterObj>();
  NoSetterObj probe{Any()};
  TVMFFIFieldInfo field;
  std::memset(&field, 0, sizeof(field));
  field.name = TVMFFIByteArray{"x", 1};
  field.metadata = TVMFFIByteArray{"{}", 2};
  field.size = sizeof(Any);
  field.alignment = alignof(Any);
  field.offset = reinterpret_cast<char*>(&probe.x) - reinterpret_cast<char*>(&probe);
  field.getter = ReadAnyField;
  field.setter = nullptr;
  field.default_value_or_factory.type_index = kTVMFFINone;
  field.field_static_type_index = kTVMFFIAny;
  TVM_FFI_CHECK_SAFE_CALL(TVMFFITypeRegisterField(NoSetterObj::RuntimeTypeIndex(), &field));
}

const AddObj* AsAdd(const Any& v) { return v.as<AddObj>(); }
const VarObj* AsVar(const Any& v) { return v.as<VarObj>(); }

class MutatorLayoutProbe : public StructuralMutatorObj {
 public:
  static size_t VTableOffset() { return offsetof(MutatorLayoutProbe, vtable_); }
  static size_t RegionOffset() { return offsetof(MutatorLayoutProbe, def_region_mode_); }
};

TEST(StructuralMutate, MutatorLayoutMatchesTheABI) {
  EXPECT_EQ(sizeof(StructuralMutatorObj), 40u);
  EXPECT_EQ(MutatorLayoutProbe::VTableOffset(), 24u);
  EXPECT_EQ(MutatorLayoutProbe::RegionOffset(), 32u);
  EXPECT_EQ(sizeof(StructuralMutatorVTable), 4 * sizeof(void*));
}

TEST(StructuralMutate, UnchangedIsTypeIndex13WithZeroPayload) {
  Any u = Unchanged();
  EXPECT_EQ(u.type_index(), kTVMFFIUnchanged);
  EXPECT_EQ(detail::AnyUnsafe::GetTVMFFIAny(u)->v_int64, 0);
  EXPECT_EQ(u.GetTypeKey(), "ffi.Unchanged");
}

TEST(StructuralMutate, UnchangedOrHoldsAValueOrTheMarker) {
  UnchangedOr<int64_t> unchanged = Unchanged();
  EXPECT_TRUE(unchanged.IsUnchanged());
  EXPECT_TRUE(unchanged.UnchangedOrSameAs(5));
  EXPECT_EQ(std::move(unchanged).ValueOrUnchanged(5), 5);
  UnchangedOr<int64_t> value = 7;
  EXPECT_FALSE(value.IsUnchanged());
  EXPECT_FALSE(value.UnchangedOrSameAs(5));
  EXPECT_TRUE(value.UnchangedOrSameAs(7));
  EXPECT_EQ(value.ValueUnchecked(), 7);
  EXPECT_EQ(value.as<int64_t>().value(), 7);
  UnchangedOr<Any> widened = value;
  EXPECT_EQ(widened.ValueUnchecked().cast<int>(), 7);
  EXPECT_EQ(ErrorMessage([&]() { value.as_or_throw<String>(); }),
            "Cannot treat type `int` as type `str`");
}

TEST(StructuralMutate, UnchangedOrTraitsNameTheWrappedType) {
  EXPECT_EQ(TypeTraits<UnchangedOr<int64_t>>::TypeStr(), "UnchangedOr<int>");
  EXPECT_EQ(TypeTraits<UnchangedOr<int64_t>>::TypeSchema(),
            "{\"type\":\"UnchangedOr\",\"args\":[{\"type\":\"int\"}]}");
  Any raw = Unchanged();
  EXPECT_TRUE(raw.as<UnchangedOr<int64_t>>().value().IsUnchanged());
  EXPECT_FALSE(Any(String("x")).as<UnchangedOr<int64_t>>().has_value());
}

TEST(StructuralMutate, MapRebuildsChangedPartsAndKeepsTheInput) {
  ObjectRef x = Var("x");
  Dict<Any, Any> d;
  d.Set(String("k"), 3);
  ObjectRef root = Add(Array<Any>{1, 2, x}, d);
  Any out = StructuralMap(root, [](int64_t v) { return v * 10; });
  const AddObj* add = AsAdd(out);
  ASSERT_NE(add, nullptr);
  EXPECT_NE(add, root.get());
  Array<Any> a = add->a.cast<Array<Any>>();
  EXPECT_EQ(a[0].cast<int>(), 10);
  EXPECT_EQ(a[1].cast<int>(), 20);
  EXPECT_TRUE(a[2].same_as(x));  // an unbound var is a use: untouched
  EXPECT_EQ((add->b.cast<Dict<Any, Any>>()[String("k")].cast<int>()), 30);
  // the input is intact
  EXPECT_EQ(AsAdd(Any(root))->a.cast<Array<Any>>()[0].cast<int>(), 1);
  EXPECT_EQ(d[String("k")].cast<int>(), 3);
}

TEST(StructuralMutate, MapThatChangesNothingReturnsTheSameObject) {
  ObjectRef root = Add(Array<Any>{1, String("s")}, Map<Any, Any>{{String("k"), 2.5}});
  Any out = StructuralMap(root, [](String s) { return s; });
  EXPECT_TRUE(out.same_as(root));
}

TEST(StructuralMutate, MapNeverMapsKeys) {
  Map<Any, Any> m{{1, 2}};
  Any out = StructuralMap(m, [](int64_t v) { return v + 1; });
  Map<Any, Any> result = out.cast<Map<Any, Any>>();
  ASSERT_EQ(result.size(), 1u);
  EXPECT_EQ(result[1].cast<int>(), 3);
}

TEST(StructuralMutate, BoundVarAndItsUsesBecomeOneNewVar) {
  ObjectRef x = Var("x", 1);
  ObjectRef root = Lam(Array<Any>{x}, Add(x, x));
  Any out = StructuralMap(root, [](int64_t v) { return v + 1; });
  const LamObj* lam = out.as<LamObj>();
  ASSERT_NE(lam, nullptr);
  Any param = lam->params[0];
  const AddObj* body = AsAdd(lam->body);
  EXPECT_FALSE(param.same_as(x));
  EXPECT_EQ(AsVar(param)->ty.cast<int>(), 2);
  EXPECT_TRUE(body->a.same_as(param));
  EXPECT_TRUE(body->b.same_as(param));
}

TEST(StructuralMutate, DagNodeIsMutatedOnceAndShared) {
  ObjectRef shared = Node(1);
  int calls = 0;
  Any out = StructuralMap(Add(shared, shared), [&](int64_t v) {
    ++calls;
    return v + 1;
  });
  const AddObj* add = AsAdd(out);
  EXPECT_TRUE(add->a.same_as(add->b));
  EXPECT_EQ(add->a.as<NodeObj>()->x.cast<int>(), 2);
  EXPECT_EQ(calls, 1);
}

TEST(StructuralMutate, PreOrderReplacementIsDescended) {
  ObjectRef root = Add(Array<Any>{1}, 2);
  Any out = StructuralMap<WalkOrder::kPreOrder>(
      root,
      [](const Array<Any>& a) -> UnchangedOr<Any> {
        if (a.size() == 1) return Any(Array<Any>{5, 6});
        return Unchanged();
      },
      [](int64_t v) { return v * 10; });
  Array<Any> a = AsAdd(out)->a.cast<Array<Any>>();
  ASSERT_EQ(a.size(), 2u);
  EXPECT_EQ(a[0].cast<int>(), 50);
  EXPECT_EQ(a[1].cast<int>(), 60);
  EXPECT_EQ(AsAdd(out)->b.cast<int>(), 20);
}

TEST(StructuralMutate, PostOrderCallbackSeesTheDescendedValue) {
  Any out = StructuralMap<WalkOrder::kPostOrder>(
      Array<Any>{1, 2}, [](int64_t v) { return v * 10; },
      [](const Array<Any>& a) {
        int64_t sum = 0;
        for (const Any& v : a) sum += v.cast<int64_t>();
        return sum;
      });
  EXPECT_EQ(out.cast<int>(), 30);
}

TEST(StructuralMutate, UniquelyOwnedRootIsReusedInPlace) {
  Array<Any> inner{1, 2};
  Array<Any> root{Any(std::move(inner)), 3};
  const Object* root_ptr = root.get();
  Any out = StructuralMap(Any(std::move(root)), [](int64_t v) { return v + 1; });
  EXPECT_EQ(out.as<Object>(), root_ptr);
  Array<Any> result = out.cast<Array<Any>>();
  EXPECT_EQ(result[0].cast<Array<Any>>()[1].cast<int>(), 3);
  EXPECT_EQ(result[1].cast<int>(), 4);
}

TEST(StructuralMutate, SharedRootIsCopiedNotChanged) {
  List<Any> root{1, 2};
  Any out = StructuralMap(root, [](int64_t v) { return v + 1; });
  EXPECT_NE(out.as<Object>(), root.get());
  EXPECT_EQ(root[0].cast<int>(), 1);
  EXPECT_EQ(out.cast<List<Any>>()[0].cast<int>(), 2);
}

TEST(StructuralMutate, MutateEngineCallbacksOwnTheRecursion) {
  ObjectRef root = Array<Any>{Add(1, Array<Any>{2}), 3};
  Any out = StructuralMutate(
      root,
      [](const AddObj* add, StructuralMutatorObj* m) -> UnchangedOr<Any> {
        // swap the operands, mutating only the new right side
        Any right = m->Mutate(add->a).ValueOrUnchanged(add->a);
        return Any(Add(add->b, right));
      },
      [](int64_t v, StructuralMutatorObj*, InplaceMode) { return v * 100; });
  Array<Any> result = out.cast<Array<Any>>();
  const AddObj* add = AsAdd(result[0]);
  EXPECT_EQ(add->a.cast<Array<Any>>()[0].cast<int>(), 2);  // not descended
  EXPECT_EQ(add->b.cast<int>(), 100);
  EXPECT_EQ(result[1].cast<int>(), 300);
}

TEST(StructuralMutate, FunctionHookIsCalledWithMutatorAndValue) {
  Any out =
      StructuralMap(Array<Any>{Make<MutHookObj>(Array<Any>{1})}, [](int64_t v) { return v + 1; });
  // the hook replaced the object by its mutated field
  Array<Any> inner = out.cast<Array<Any>>()[0].cast<Array<Any>>();
  EXPECT_EQ(inner[0].cast<int>(), 2);
}

Expected<int64_t> PlusOneChecked(Expected<UnchangedOr<Any>> r) {
  TVM_FFI_S_MUTATE_ASSIGN_OR_RETURN(int64_t, v, std::move(r));
  return v + 1;
}

Expected<int64_t> PlusOneUnchecked(Expected<UnchangedOr<Any>> r) {
  TVM_FFI_UNSAFE_S_MUTATE_ASSIGN_OR_RETURN(int64_t, v, std::move(r));
  return v + 1;
}

TEST(StructuralMutate, AssignOrReturnMacrosPassErrorsAndCheckTheType) {
  EXPECT_EQ(PlusOneChecked(UnchangedOr<Any>(Any(4))).value(), 5);
  EXPECT_EQ(PlusOneUnchecked(UnchangedOr<Any>(Any(4))).value(), 5);
  EXPECT_EQ(PlusOneChecked(Error("ValueError", "inner", "")).error().message(), "inner");
  EXPECT_EQ(PlusOneUnchecked(Error("ValueError", "inner", "")).error().message(), "inner");
  Error mismatch = PlusOneChecked(UnchangedOr<Any>(Any(String("s")))).error();
  EXPECT_EQ(mismatch.kind(), "TypeError");
  EXPECT_EQ(mismatch.message(), "structural mutate result does not match the declared type");
}

TEST(StructuralMutate, TypeWithoutShallowCopyCannotBeMutated) {
  Expected<Any> r = StructuralMapExpected(Make<NoCopyObj>(1), [](int64_t v) { return v + 1; });
  ASSERT_TRUE(r.is_err());
  EXPECT_EQ(r.error().kind(), "TypeError");
  EXPECT_EQ(r.error().message(), "__ffi_shallow_copy__ must be an ffi.Function");
}

Error MapIntsPlusOneError(Any root) {
  Expected<Any> r = StructuralMapExpected(std::move(root), [](int64_t v) { return v + 1; });
  EXPECT_TRUE(r.is_err());
  return r.is_err() ? r.error() : Error("None", "no error", "");
}

TEST(StructuralMutate, MutateHookOfAnotherKindIsATypeError) {
  Error err = MapIntsPlusOneError(Array<Any>{Make<BadMutHookObj>(1)});
  EXPECT_EQ(err.kind(), "TypeError");
  EXPECT_EQ(err.message(), "__s_mutate__ must be a direct hook pointer or ffi.Function");
}

TEST(StructuralMutate, InplaceMutateHookOfAnotherKindIsATypeError) {
  // A uniquely owned root is mutated with InplaceMode::kAllow, which consults this hook.
  Error err = MapIntsPlusOneError(Make<BadInplaceHookObj>(1));
  EXPECT_EQ(err.kind(), "TypeError");
  EXPECT_EQ(err.message(),
            "__s_maybe_inplace_mutate__ must be a direct hook pointer or ffi.Function");
}

TEST(StructuralMutate, ShallowCopyReturningItsInputIsATypeError) {
  ObjectRef obj = Make<SelfCopyObj>(1);
  Error err = MapIntsPlusOneError(obj);
  EXPECT_EQ(err.kind(), "TypeError");
  EXPECT_EQ(err.message(),
            "Shallow copy callback must return a distinct object with the same type as its input");
  EXPECT_EQ(obj.as<SelfCopyObj>()->x.cast<int>(), 1);
}

TEST(StructuralMutate, ShallowCopyReturningAnotherTypeIsATypeError) {
  Error err = MapIntsPlusOneError(Make<OtherTypeCopyObj>(1));
  EXPECT_EQ(err.kind(), "TypeError");
  EXPECT_EQ(err.message(),
            "Shallow copy callback must return a distinct object with the same type as its input");
}

TEST(StructuralMutate, ChangedFieldWithoutSetterIsATypeError) {
  Error err = MapIntsPlusOneError(Make<NoSetterObj>(1));
  EXPECT_EQ(err.kind(), "TypeError");
  EXPECT_EQ(err.message(),
            "Cannot structurally mutate field `x` of type `test.svisit.NoSetter` because it does "
            "not define a setter");
}

TEST(StructuralMutate, UnchangedFieldWithoutSetterIsAccepted) {
  ObjectRef obj = Make<NoSetterObj>(String("s"));
  EXPECT_TRUE(StructuralMap(obj, [](int64_t v) { return v + 1; }).same_as(obj));
}

TEST(StructuralMutate, CallbackErrorsAreReturnedWithTheTrail) {
  ObjectRef root = Add(1, Array<Any>{2});
  Expected<Any> r = StructuralMapExpected(root, [](int64_t v) -> Expected<int64_t> {
    if (v == 2) return Error("ValueError", "two", "");
    return v;
  });
  ASSERT_TRUE(r.is_err());
  EXPECT_EQ(r.error().message(), "two");
  auto ctx = VisitErrorContext::TryGetFromError(r.error());
  ASSERT_TRUE(ctx.has_value());
  auto paths = VisitErrorContext::FindAccessPaths(root, *ctx, true);
  ASSERT_EQ(paths.size(), 1u);
  EXPECT_TRUE(paths[0]->PathEqual(reflection::AccessPath::Root()->Attr("b")));
}

TEST(StructuralMutate, VarRemapKeysMustBeObjects) {
  auto engine = make_object<StructuralMapEngine<StructuralMapEngineBase, WalkOrder::kPostOrder>>();
  std::string msg = ErrorMessage([&]() { engine->VarRemapSet(Any(1), Any(2)); });
  EXPECT_EQ(msg, "Variable-remap key must be an object-backed value");
  ObjectRef v = Var("v");
  EXPECT_TRUE(engine->VarRemapGet(v).is_none());
  engine->VarRemapSet(v, 5);
  EXPECT_EQ(engine->VarRemapGet(v).cast<int>(), 5);
}

using Link = Tuple<int32_t, Function>;
using MutateLink = Tuple<int32_t, Function, bool>;

TEST(StructuralMutate, GlobalMapUsesRuntimeLinks) {
  Function map = Function::GetGlobalRequired("ffi.StructuralMap");
  Array<Link> links{Link(kTVMFFIInt, Function::FromTyped([](int64_t v) { return v * 10; }))};
  Any out = map(Add(Array<Any>{1, 2}, Dict<Any, Any>{{String("k"), 3}}), links, Array<Link>(), 1);
  EXPECT_EQ(AsAdd(out)->a.cast<Array<Any>>()[1].cast<int>(), 20);
  EXPECT_EQ((AsAdd(out)->b.cast<Dict<Any, Any>>()[String("k")].cast<int>()), 30);
  EXPECT_EQ(ErrorMessage([&]() { map(1, links, Array<Link>(), 5); }, "ValueError"),
            "Unknown structural walk order: 5");
}

TEST(StructuralMutate, GlobalMutateCallsLinksWithMutatorAndMode) {
  Function mutate = Function::GetGlobalRequired("ffi.StructuralMutate");
  Function default_mutate = Function::GetGlobalRequired("ffi.StructuralMutatorDefaultMutate");
  std::vector<int> modes;
  Array<MutateLink> links{
      MutateLink(kTVMFFIArray, Function::FromTyped([&](Any v, Any m, int mode) {
                   modes.push_back(mode);
                   return default_mutate(m, v);
                 }),
                 true),
      MutateLink(kTVMFFIInt, Function::FromTyped([](int64_t v, Any) { return v + 1; }), false)};
  Array<Any> shared{1};
  Any out = mutate(Array<Any>{shared}, links);
  EXPECT_EQ(out.cast<Array<Any>>()[0].cast<Array<Any>>()[0].cast<int>(), 2);
  // Both arrays are also held elsewhere (the caller's temporary, `shared`): no in-place reuse.
  EXPECT_EQ(modes, (std::vector<int>{0, 0}));
}

TEST(StructuralMutate, GlobalMutatorWithDefRegionKindScopesTheRegion) {
  Function mutate = Function::GetGlobalRequired("ffi.StructuralMutate");
  Function with_kind = Function::GetGlobalRequired("ffi.StructuralMutatorWithDefRegionKind");
  Function region = Function::GetGlobalRequired("ffi.StructuralMutatorDefRegionKind");
  std::vector<int> seen;
  Array<MutateLink> links{MutateLink(kTVMFFIInt, Function::FromTyped([&](Any v, Any m) {
                                       seen.push_back(region(m).cast<int>());
                                       return with_kind(m, 2, Function::FromTyped([&]() {
                                                          seen.push_back(region(m).cast<int>());
                                                          return v;
                                                        }));
                                     }),
                                     false)};
  mutate(1, links);
  EXPECT_EQ(seen, (std::vector<int>{0, 2}));
  EXPECT_EQ(
      ErrorMessage(
          [&]() {
            Array<MutateLink> bad{MutateLink(kTVMFFIInt, Function::FromTyped([&](Any v, Any m) {
                                               return with_kind(m, 7, Function::FromTyped([]() {}));
                                             }),
                                             false)};
            mutate(1, bad);
          },
          "ValueError"),
      "Invalid def region kind: 7 (expected 0 none, 1 pattern or 2 simple)");
}

TEST(StructuralMutate, MaybeInplaceHookKeyNamesTheAttribute) {
  EXPECT_STREQ(type_attr::kStructuralMaybeInplaceMutate.name, "__s_maybe_inplace_mutate__");
  EXPECT_STREQ(type_attr::kStructuralMutate.name, "__s_mutate__");
}

TEST(StructuralMutate, CallbackReturningUnexpectedFailsTheMutation) {
  Expected<Any> r = StructuralMutateExpected(
      Array<Any>{1}, [](int64_t, StructuralMutatorObj*) -> Unexpected<Error> {
        return Unexpected(Error("ValueError", "refused", ""));
      });
  ASSERT_TRUE(r.is_err());
  EXPECT_EQ(r.error().message(), "refused");
}

TEST(StructuralMutate, UnchangedOrSubsumesAsItsValueTypeDoes) {
  static_assert(type_subsumes_v<UnchangedOr<Any>, UnchangedOr<int64_t>>);
  static_assert(type_subsumes_v<UnchangedOr<ObjectRef>, UnchangedOr<Array<Any>>>);
  static_assert(!type_subsumes_v<UnchangedOr<Array<Any>>, UnchangedOr<ObjectRef>>);
}

/*! \brief A map-engine layer naming itself as the mutator callbacks receive. */
class TaggedMutateLayer : public StructuralMapEngineBase {
 public:
  using MutatorObjType = TaggedMutateLayer;
  explicit TaggedMutateLayer(const StructuralMutatorVTable* vtable)
      : StructuralMapEngineBase(vtable) {}
  int tag = 23;
};

TEST(StructuralMutate, MutateEngineCallbackReceivesTheLayerAsMutator) {
  auto cb = [](int64_t v, TaggedMutateLayer* layer) -> Expected<Any> { return v + layer->tag; };
  StructuralMutator mutator(
      make_object<StructuralMutateEngine<TaggedMutateLayer, decltype(cb)>>(cb));
  Array<Any> root{1};
  Array<Any> out = mutator->Mutate(root).ValueOrUnchanged(root).cast<Array<Any>>();
  EXPECT_EQ(out[0].cast<int64_t>(), 24);
}

TEST(StructuralMutate, UnchangedOrMoveConversionMovesTheValue) {
  Array<Any> value{1};
  UnchangedOr<Array<Any>> source = value;
  UnchangedOr<ObjectRef> moved = std::move(source);
  EXPECT_EQ(value.use_count(), 2);
  EXPECT_TRUE(source.IsUnchanged());  // NOLINT(bugprone-use-after-move)
  EXPECT_TRUE(std::move(moved).ValueUnchecked().same_as(value));
}

TEST(StructuralMutate, ChildOfASharedContainerIsOfferedWithoutInplace) {
  Array<Any> child{1};
  Array<Any> outer{child};
  child = Array<Any>();  // the outer array now holds the child alone
  Array<Any> shared = outer;
  bool child_unique = false;
  bool child_inplace = true;
  auto mutate = [&](const Array<Any>& value, StructuralMutatorObj* m,
                    InplaceMode mode) -> Expected<UnchangedOr<Any>> {
    if (!value.same_as(outer)) {
      child_unique = value.use_count() == 2;  // the slot, and this callback's reference
      child_inplace = mode == InplaceMode::kAllow;
    }
    return m->DefaultMutateExpected(value, mode);
  };
  StructuralMutator mutator(
      make_object<StructuralMutateEngine<StructuralMapEngineBase, decltype(mutate)>>(mutate));
  ASSERT_TRUE(mutator->MutateExpected(outer, InplaceMode::kAllow).is_ok());
  EXPECT_TRUE(child_unique);
  EXPECT_FALSE(child_inplace);
}

TEST(StructuralMap, OptionalCallbackSeesNoneValues) {
  int none_seen = 0;
  Any out = StructuralMap<WalkOrder::kPostOrder>(Array<Any>{Any(), 2},
                                                 [&](const Optional<int64_t>& v) -> Expected<Any> {
                                                   if (!v.has_value()) ++none_seen;
                                                   return v.has_value() ? Any(*v * 10) : Any();
                                                 });
  EXPECT_EQ(none_seen, 1);
  EXPECT_EQ(out.cast<Array<Any>>()[1].cast<int64_t>(), 20);
}

TEST(StructuralMap, OtherCallbacksNeverSeeNone) {
  int seen = 0;
  StructuralMap<WalkOrder::kPostOrder>(Array<Any>{Any(), 2}, [&](const Any& v) -> Expected<Any> {
    ++seen;
    EXPECT_FALSE(v.is_none());
    return v;
  });
  EXPECT_EQ(seen, 2);  // the element 2 and the array
}

TEST(StructuralMap, PostOrderFailureRecordsTheDescendedNode) {
  Array<Any> root{1};
  auto increment = [](int64_t v) -> Expected<Any> { return Any(v + 1); };
  auto fail = [](const ArrayObj*) -> Expected<Any> { return Error("ValueError", "post", ""); };
  Expected<Any> r = StructuralMapExpected<WalkOrder::kPostOrder>(root, increment, fail);
  ASSERT_TRUE(r.is_err());
  auto ctx = VisitErrorContext::TryGetFromError(r.error());
  ASSERT_TRUE(ctx.has_value());
  ASSERT_EQ((*ctx)->reverse_visit_pattern.size(), 1u);
  Array<Any> descended = (*ctx)->reverse_visit_pattern[0].as_or_throw<Array<Any>>();
  EXPECT_FALSE(descended.same_as(root));
  EXPECT_EQ(descended[0].cast<int64_t>(), 2);
}

TEST(StructuralMap, ListClearedByACallbackIsWalkedAsItWas) {
  List<Any> list{1, 2, 3};
  int calls = 0;
  Any out = StructuralMap<WalkOrder::kPostOrder>(list, [&](int64_t v) -> Expected<Any> {
    ++calls;
    list.clear();  // the list is shared by reference: the walk must not read freed slots
    return Any(v * 10);
  });
  EXPECT_EQ(calls, 3);
  List<Any> mapped = out.cast<List<Any>>();
  ASSERT_EQ(mapped.size(), 3u);
  EXPECT_EQ(mapped[2].cast<int64_t>(), 30);
}

}  // namespace
