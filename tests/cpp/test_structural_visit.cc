// Structural visiting: StructuralWalk/StructuralVisit engines, the visitor's
// ABI layout, container hooks, def regions, hooks registered as opaque
// pointers or Functions, the ffi.StructuralWalk global, and VisitErrorContext.
#include <gtest/gtest.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/dict.h>
#include <tvm/ffi/container/list.h>
#include <tvm/ffi/container/map.h>
#include <tvm/ffi/container/tuple.h>
#include <tvm/ffi/extra/structural_visit.h>
#include <tvm/ffi/extra/visit_error_context.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/reflection/registry.h>

#include <cstddef>
#include <string>
#include <tuple>
#include <vector>

#include "structural_visit_fixtures.h"
#include "testing_helpers.h"

namespace {

using namespace tvm::ffi;                 // NOLINT(build/namespaces)
using namespace tvm_ffi_testing::svisit;  // NOLINT(build/namespaces)
using tvm_ffi_testing::ErrorMessage;

/*! \brief Types whose `__s_visit__` hooks the tests set (one per test: hooks are permanent). */
class HookPtrObj : public Object {
 public:
  Any x;
  explicit HookPtrObj(Any x) : x(std::move(x)) {}
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("test.svisit.HookPtr", HookPtrObj, Object);
};
class HookFnObj : public Object {
 public:
  Any x;
  Any y;
  HookFnObj(Any x, Any y) : x(std::move(x)), y(std::move(y)) {}
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("test.svisit.HookFn", HookFnObj, Object);
};
class HookBadObj : public Object {
 public:
  Any x;
  explicit HookBadObj(Any x) : x(std::move(x)) {}
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("test.svisit.HookBad", HookBadObj, Object);
};

TVM_FFI_STATIC_INIT_BLOCK() {
  namespace refl = tvm::ffi::reflection;
  refl::ObjectDef<HookPtrObj>().def_ro("x", &HookPtrObj::x);
  refl::ObjectDef<HookFnObj>().def_ro("x", &HookFnObj::x).def_ro("y", &HookFnObj::y);
  refl::ObjectDef<HookBadObj>().def_ro("x", &HookBadObj::x);
  refl::ObjectDef<VarObj>()
      .def_ro("name", &VarObj::name, refl::AttachFieldFlag::SEqHashIgnore())
      .def_ro("ty", &VarObj::ty);
  refl::ObjectDef<AddObj>().def_ro("a", &AddObj::a).def_ro("b", &AddObj::b);
  refl::ObjectDef<LamObj>()
      .def_ro("params", &LamObj::params, refl::AttachFieldFlag::SEqHashDefPattern())
      .def_ro("body", &LamObj::body);
  refl::ObjectDef<LetObj>()
      .def_ro("var", &LetObj::var, refl::AttachFieldFlag::SEqHashDefSimple())
      .def_ro("value", &LetObj::value)
      .def_ro("body", &LetObj::body);
  refl::ObjectDef<NodeObj>().def_ro("x", &NodeObj::x);
  refl::ObjectDef<NoCopyObj>().def_ro("x", &NoCopyObj::x);
}

/*! \brief A short text for a visited value: ints, floats, "strings", or the type key's last part.
 */
std::string Describe(const AnyView& v) {
  if (auto i = v.as<int64_t>()) return std::to_string(*i);
  if (auto f = v.as<double>()) {
    std::string s = std::to_string(*f);
    while (!s.empty() && s.back() == '0') s.pop_back();
    return s;
  }
  if (auto s = v.as<String>()) return "\"" + std::string(s->data(), s->size()) + "\"";
  std::string key = v.GetTypeKey();
  return key.substr(key.rfind('.') + 1);
}

std::string Join(const std::vector<std::string>& items) {
  std::string out;
  for (const std::string& s : items) out += (out.empty() ? "" : " ") + s;
  return out;
}

/*! \brief Add(a=[1, "a", Var(ty=[1])], b={"k": 2.5, "j": None}) */
ObjectRef SampleTree() {
  Map<Any, Any> b;
  b.Set(String("k"), 2.5);
  b.Set(String("j"), Any());
  return Add(Array<Any>{1, String("a"), Var("v", Array<Any>{1})}, b);
}

/*! \brief Exposes the protected ABI slots' offsets. */
class LayoutProbe : public StructuralVisitorObj {
 public:
  static size_t VTableOffset() { return offsetof(LayoutProbe, vtable_); }
  static size_t RegionOffset() { return offsetof(LayoutProbe, def_region_mode_); }
};

TEST(StructuralVisit, VisitorLayoutMatchesTheABI) {
  EXPECT_EQ(sizeof(StructuralVisitorObj), 40u);
  EXPECT_EQ(LayoutProbe::VTableOffset(), 24u);
  EXPECT_EQ(LayoutProbe::RegionOffset(), 32u);
  EXPECT_EQ(sizeof(StructuralVisitorVTable), sizeof(void*));
  EXPECT_EQ(sizeof(VisitInterruptObj), 40u);
  EXPECT_EQ(offsetof(VisitInterruptObj, value), 24u);
}

TEST(StructuralVisit, VisitInterruptIsStaticTypeWithValueField) {
  VisitInterrupt interrupt(Any(5));
  EXPECT_EQ(interrupt->type_index(), 77);
  EXPECT_EQ(interrupt.GetTypeKey(), "ffi.VisitInterrupt");
  EXPECT_EQ(interrupt->value.cast<int>(), 5);
  EXPECT_TRUE(VisitInterrupt()->value.is_none());
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(kTVMFFIVisitInterrupt);
  ASSERT_NE(info->metadata, nullptr);
  EXPECT_EQ(info->metadata->total_size, 40);
  ASSERT_EQ(info->num_fields, 1);
  EXPECT_EQ(std::string(info->fields[0].name.data, info->fields[0].name.size), "value");
  EXPECT_EQ(info->fields[0].offset, 24);
  Any made = Function::GetGlobalRequired("ffi.VisitInterrupt")(7);
  EXPECT_EQ(made.cast<VisitInterrupt>()->value.cast<int>(), 7);
}

TEST(StructuralVisit, PreOrderWalkVisitsParentsBeforeChildren) {
  std::vector<std::string> seen;
  Optional<VisitInterrupt> r = StructuralWalk<WalkOrder::kPreOrder>(
      SampleTree(), [&](const AnyView& v) { seen.push_back(Describe(v)); });
  EXPECT_FALSE(r.has_value());
  EXPECT_EQ(Join(seen), "Add Array 1 \"a\" Var Array 1 Map 2.5");
}

TEST(StructuralVisit, PostOrderWalkVisitsChildrenBeforeParents) {
  std::vector<std::string> seen;
  StructuralWalk<WalkOrder::kPostOrder>(SampleTree(),
                                        [&](const Any& v) { seen.push_back(Describe(v)); });
  EXPECT_EQ(Join(seen), "1 \"a\" 1 Array Var Array 2.5 Map Add");
}

TEST(StructuralVisit, WalkVisitsEveryOccurrenceOfASharedValue) {
  ObjectRef x = Var("x");
  int count = 0;
  StructuralWalk(Add(x, x), [&](const VarObj*) { ++count; });
  EXPECT_EQ(count, 2);
}

TEST(StructuralVisit, SkipPrunesTheChildrenInPreOrder) {
  std::vector<std::string> seen;
  StructuralWalk<WalkOrder::kPreOrder>(SampleTree(), [&](const AnyView& v) {
    seen.push_back(Describe(v));
    return v.type_index() == kTVMFFIArray ? WalkResult::Skip() : WalkResult::Advance();
  });
  EXPECT_EQ(Join(seen), "Add Array Map 2.5");
}

TEST(StructuralVisit, InterruptStopsTheWalkAndIsReturned) {
  std::vector<std::string> seen;
  Optional<VisitInterrupt> r =
      StructuralWalk<WalkOrder::kPreOrder>(SampleTree(), [&](const AnyView& v) -> WalkResult {
        seen.push_back(Describe(v));
        if (v.as<String>().has_value()) return WalkResult::Interrupt(VisitInterrupt(Any(42)));
        return WalkResult::Advance();
      });
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r.value()->value.cast<int>(), 42);
  EXPECT_EQ(Join(seen), "Add Array 1 \"a\"");
}

TEST(StructuralVisit, FirstCallbackWhoseParameterMatchesRuns) {
  std::vector<std::string> seen;
  StructuralWalk<WalkOrder::kPreOrder>(
      Array<Any>{1, true, String("s"), Var("x"), 2.0},
      [&](int64_t v) { seen.push_back("int " + std::to_string(v)); },
      [&](const VarObj*) { seen.push_back("var"); },
      [&](String s) { seen.push_back("str " + std::string(s)); },
      [&](const Any& v) { seen.push_back("any " + Describe(v)); });
  EXPECT_EQ(Join(seen), "any Array int 1 any bool str s var any 2.");
}

TEST(StructuralVisit, NoneValuesNeverReachCallbacks) {
  int calls = 0;
  StructuralWalk(Array<Any>{Any(), Any()}, [&](const Any& v) {
    EXPECT_FALSE(v.is_none());
    ++calls;
  });
  EXPECT_EQ(calls, 1);  // the array only
  EXPECT_FALSE(StructuralWalk(Any(), [&](const Any&) { ++calls; }).has_value());
  EXPECT_EQ(calls, 1);
}

TEST(StructuralVisit, MapKeysAreNeverVisited) {
  Map<Any, Any> m;
  m.Set(Var("key"), 1);
  Dict<Any, Any> d;
  d.Set(Var("key"), Var("value"));
  int vars = 0;
  StructuralWalk(Array<Any>{m, d}, [&](const VarObj*) { ++vars; });
  EXPECT_EQ(vars, 1);
}

TEST(StructuralVisit, ListElementsAreVisitedInOrder) {
  std::vector<std::string> seen;
  StructuralWalk<WalkOrder::kPreOrder>(List<Any>{1, 2, 3},
                                       [&](int64_t v) { seen.push_back(std::to_string(v)); });
  EXPECT_EQ(Join(seen), "1 2 3");
}

TEST(StructuralVisit, CallbacksReceiveTheDefRegionKind) {
  ObjectRef x = Var("x", Array<Any>{1});
  ObjectRef tree = Array<Any>{Lam(Array<Any>{x}, Add(x, 1)), Let(x, 2, x)};
  std::vector<std::string> seen;
  StructuralWalk<WalkOrder::kPreOrder>(
      tree,
      [&](const VarObj*, TVMFFIDefRegionKind kind) {
        seen.push_back("var" + std::to_string(kind));
      },
      [&](int64_t v, TVMFFIDefRegionKind kind) {
        seen.push_back(std::to_string(v) + "@" + std::to_string(kind));
      });
  // Lam: the param is in a pattern region (its type too); the body is a use.
  // Let: the var is in a simple region, but its own type is walked as a use.
  EXPECT_EQ(Join(seen), "var1 1@1 var0 1@0 1@0 var2 1@0 2@0 var0 1@0");
}

TEST(StructuralVisit, WithDefRegionKindRestoresAndKeepsPattern) {
  auto engine = make_object<StructuralWalkEngine<StructuralVisitorNoState, WalkOrder::kPreOrder>>();
  EXPECT_EQ(engine->def_region_kind(), kTVMFFIDefRegionKindNone);
  engine->WithDefRegionKind(kTVMFFIDefRegionKindSimple, [&]() {
    EXPECT_EQ(engine->def_region_kind(), kTVMFFIDefRegionKindSimple);
    engine->WithDefRegionKind(kTVMFFIDefRegionKindPattern, [&]() {
      engine->WithDefRegionKind(kTVMFFIDefRegionKindNone, [&]() {
        EXPECT_EQ(engine->def_region_kind(), kTVMFFIDefRegionKindPattern);
      });
    });
  });
  EXPECT_EQ(engine->def_region_kind(), kTVMFFIDefRegionKindNone);
}

/*!
 * \brief A Parent that hands a counter to every callback after the value. Like every layer,
 *  it passes the engine's vtable on; its StateTuple() may stay protected.
 */
class CountingParent : public StructuralVisitorObj {
 public:
  explicit CountingParent(const StructuralVisitorVTable* vtable) : StructuralVisitorObj(vtable) {}
  int count = 0;

 protected:
  using StateTupleType = std::tuple<int*>;
  StateTupleType StateTuple() { return StateTupleType(&count); }
};

TEST(StructuralVisit, ParentStateEntriesFollowTheValue) {
  auto cb = [](int64_t v, int* count) { *count += static_cast<int>(v); };
  auto engine =
      make_object<StructuralWalkEngine<CountingParent, WalkOrder::kPreOrder, decltype(cb)>>(cb);
  EXPECT_FALSE(engine->Visit(Array<Any>{1, Array<Any>{2, 3}}).has_value());
  EXPECT_EQ(engine->count, 6);
}

TEST(StructuralVisit, VisitEngineCallbacksOwnTheDescent) {
  std::vector<std::string> seen;
  Optional<VisitInterrupt> r = StructuralVisit(
      Array<Any>{Add(1, Array<Any>{2}), 3},
      [&](const AddObj* add, StructuralVisitorObj* visitor) {
        seen.push_back("add");
        return visitor->Visit(add->a);  // b is never entered
      },
      [&](int64_t v, StructuralVisitorObj*) { seen.push_back(std::to_string(v)); });
  EXPECT_FALSE(r.has_value());
  EXPECT_EQ(Join(seen), "add 1 3");
}

TEST(StructuralVisit, CallbackErrorIsReturnedWithTheVisitTrail) {
  ObjectRef bad = Var("bad");
  ObjectRef root = Add(Array<Any>{1, bad}, 2);
  Expected<Optional<VisitInterrupt>> r =
      StructuralWalkExpected(root, [&](const VarObj*) { TVM_FFI_THROW(ValueError) << "bad var"; });
  ASSERT_TRUE(r.is_err());
  Error err = r.error();
  EXPECT_EQ(err.kind(), "ValueError");
  EXPECT_EQ(err.message(), "bad var");
  std::optional<VisitErrorContext> ctx = VisitErrorContext::TryGetFromError(err);
  ASSERT_TRUE(ctx.has_value());
  // innermost first: the var, the array, the root
  ASSERT_EQ((*ctx)->reverse_visit_pattern.size(), 3u);
  EXPECT_TRUE((*ctx)->reverse_visit_pattern[0].same_as(bad));
  EXPECT_TRUE((*ctx)->reverse_visit_pattern[2].same_as(root));
  Array<reflection::AccessPath> paths = VisitErrorContext::FindAccessPaths(root, *ctx);
  ASSERT_EQ(paths.size(), 1u);
  EXPECT_TRUE(paths[0]->PathEqual(reflection::AccessPath::Root()->Attr("a")->ArrayItem(1)));
  EXPECT_THROW(StructuralWalk(root, [&](const VarObj*) { TVM_FFI_THROW(ValueError) << "x"; }),
               Error);
}

void SetVisitHook(int32_t type_index, const Any& hook) {
  TVMFFIByteArray name{"__s_visit__", 11};
  ASSERT_EQ(TVMFFITypeRegisterAttr(type_index, &name, detail::AnyUnsafe::GetTVMFFIAny(hook)), 0);
}

TEST(StructuralVisit, OpaquePointerHookReplacesTheDefaultDescent) {
  // The hook visits the int 99 instead of the field.
  FStructuralVisitABI hook = [](StructuralVisitorObj* v, AnyView) noexcept -> TVMFFIAny {
    return detail::ExpectedUnsafe::MoveToTVMFFIAny(v->VisitExpected(Any(99)));
  };
  SetVisitHook(HookPtrObj::RuntimeTypeIndex(), Any(reinterpret_cast<void*>(hook)));
  std::vector<std::string> seen;
  StructuralWalk(Make<HookPtrObj>(1), [&](int64_t v) { seen.push_back(std::to_string(v)); });
  EXPECT_EQ(Join(seen), "99");
}

TEST(StructuralVisit, FunctionHookIsCalledWithVisitorAndValue) {
  Function hook = Function::FromTyped([](StructuralVisitor visitor, ObjectRef value) {
    return visitor->Visit(value.as<HookFnObj>()->y);  // x skipped
  });
  SetVisitHook(HookFnObj::RuntimeTypeIndex(), Any(hook));
  std::vector<std::string> seen;
  StructuralWalk(Make<HookFnObj>(1, 2), [&](int64_t v) { seen.push_back(std::to_string(v)); });
  EXPECT_EQ(Join(seen), "2");
}

TEST(StructuralVisit, HookOfAnotherKindIsATypeError) {
  SetVisitHook(HookBadObj::RuntimeTypeIndex(), Any(1));
  Expected<Optional<VisitInterrupt>> r =
      StructuralWalkExpected(Make<HookBadObj>(1), [](const Any&) {});
  ASSERT_TRUE(r.is_err());
  EXPECT_EQ(r.error().kind(), "TypeError");
  EXPECT_EQ(r.error().message(), "__s_visit__ must be an opaque function pointer or ffi.Function");
}

TEST(StructuralVisit, MaybeEarlyReturnPassesInterruptsAndErrors) {
  auto run = [](Expected<Optional<VisitInterrupt>> inner, bool* reached) {
    return [inner, reached]() -> Expected<Optional<VisitInterrupt>> {
      TVM_FFI_S_VISIT_MAYBE_EARLY_RETURN(inner);
      *reached = true;
      return Optional<VisitInterrupt>();
    }();
  };
  bool reached = false;
  EXPECT_TRUE(run(Optional<VisitInterrupt>(), &reached).is_ok());
  EXPECT_TRUE(reached);
  reached = false;
  EXPECT_TRUE(run(Optional<VisitInterrupt>(VisitInterrupt()), &reached).value().has_value());
  EXPECT_FALSE(reached);
  EXPECT_TRUE(run(Error("ValueError", "x", ""), &reached).is_err());
  EXPECT_FALSE(reached);
}

using Link = Tuple<int32_t, Function>;

TEST(StructuralVisit, GlobalWalkMatchesRuntimeTypeIndices) {
  Function walk = Function::GetGlobalRequired("ffi.StructuralWalk");
  std::vector<std::string> seen;
  auto record = [&](const char* tag) {
    return Function::FromTyped([&seen, tag](Any v) { seen.push_back(tag + Describe(v)); });
  };
  Array<Link> links{Link(kTVMFFIInt, record("i:")), Link(kTVMFFIStr, record("s:")),
                    Link(AddObj::RuntimeTypeIndex(), record("add:")),
                    Link(kTVMFFIObject, record("obj:"))};
  Array<Any> root{1, true, String("short"), Add(1, 2)};
  walk(root, links, Array<Link>(), 0);
  EXPECT_EQ(Join(seen), "obj:Array i:1 s:\"short\" add:Add i:1 i:2");
}

TEST(StructuralVisit, GlobalWalkCallbackResultMustBeAWalkResult) {
  Function walk = Function::GetGlobalRequired("ffi.StructuralWalk");
  Array<Link> links{Link(-1, Function::FromTyped([](Any) { return 1.5; }))};
  std::string msg = ErrorMessage([&]() { walk(Array<Any>{1}, links, Array<Link>(), 1); });
  EXPECT_EQ(msg, "CallExpected: result type mismatch, expected WalkResult, but got float");
}

TEST(StructuralVisit, GlobalWalkRejectsAnUnknownOrder) {
  Function walk = Function::GetGlobalRequired("ffi.StructuralWalk");
  std::string msg =
      ErrorMessage([&]() { walk(Array<Any>{1}, Array<Link>(), Array<Link>(), 2); }, "ValueError");
  EXPECT_EQ(msg, "Unknown structural walk order: 2");
}

TEST(StructuralVisit, GlobalWalkSearchesPlainLinksBeforeRegionLinks) {
  Function walk = Function::GetGlobalRequired("ffi.StructuralWalk");
  std::vector<std::string> seen;
  Array<Link> plain{Link(kTVMFFIInt, Function::FromTyped([&](int64_t v) {
                           seen.push_back("plain" + std::to_string(v));
                         }))};
  Array<Link> with_kind{Link(-1, Function::FromTyped([&](Any v, int kind) {
    seen.push_back(Describe(v) + "@" + std::to_string(kind));
  }))};
  walk(Lam(Array<Any>{Var("x")}, 1), plain, with_kind, 0);
  EXPECT_EQ(Join(seen), "Lam@0 Array@1 Var@1 plain1");
}

TEST(StructuralVisit, GlobalVisitCallbacksGetTheVisitor) {
  Function visit = Function::GetGlobalRequired("ffi.StructuralVisit");
  Function visitor_visit = Function::GetGlobalRequired("ffi.StructuralVisitorVisit");
  std::vector<std::string> seen;
  Array<Link> links{Link(AddObj::RuntimeTypeIndex(), Function::FromTyped([&](Any v, Any visitor) {
                           seen.push_back("add");
                           return visitor_visit(visitor, v.cast<ObjectRef>().as<AddObj>()->b);
                         })),
                    Link(kTVMFFIInt, Function::FromTyped([&](int64_t v, Any) {
                           seen.push_back(std::to_string(v));
                         }))};
  visit(Array<Any>{Add(1, 2), 3}, links);
  EXPECT_EQ(Join(seen), "add 2 3");
}

TEST(VisitErrorContext, AppendKeepsThePreviousExtraContext) {
  ObjectRef previous = Var("previous");
  Error err("ValueError", "boom", "", std::nullopt, previous);
  ObjectRef node = Var("node");
  VisitErrorContext::AppendToError(err, node);
  VisitErrorContext::AppendToError(err, ObjectRef());
  std::optional<VisitErrorContext> ctx = VisitErrorContext::TryGetFromError(err);
  ASSERT_TRUE(ctx.has_value());
  EXPECT_TRUE((*ctx)->prev_error_context.value().same_as(previous));
  ASSERT_EQ((*ctx)->reverse_visit_pattern.size(), 2u);
  EXPECT_TRUE((*ctx)->reverse_visit_pattern[0].same_as(node));
  EXPECT_FALSE((*ctx)->reverse_visit_pattern[1].defined());
  EXPECT_FALSE(VisitErrorContext::TryGetFromError(Error("ValueError", "x", "")).has_value());
}

TEST(VisitErrorContext, VisitThrowStartsTheTrailWithTheNode) {
  ObjectRef node = Var("n");
  Error err =
      tvm_ffi_testing::CatchError([&]() { TVM_FFI_VISIT_THROW(TypeError, node) << "bad " << 1; });
  EXPECT_EQ(err.kind(), "TypeError");
  EXPECT_EQ(err.message(), "bad 1");
  auto ctx = VisitErrorContext::TryGetFromError(err);
  ASSERT_TRUE(ctx.has_value());
  EXPECT_TRUE((*ctx)->reverse_visit_pattern[0].same_as(node));
}

TEST(VisitErrorContext, VisitBeginEndAppendsTheNodeAndRethrows) {
  ObjectRef outer = Var("outer");
  ObjectRef inner = Var("inner");
  Error err = tvm_ffi_testing::CatchError([&]() {
    TVM_FFI_VISIT_BEGIN();
    TVM_FFI_VISIT_THROW(ValueError, inner) << "deep";
    TVM_FFI_VISIT_END(outer);
  });
  auto ctx = VisitErrorContext::TryGetFromError(err);
  ASSERT_TRUE(ctx.has_value());
  ASSERT_EQ((*ctx)->reverse_visit_pattern.size(), 2u);
  EXPECT_TRUE((*ctx)->reverse_visit_pattern[1].same_as(outer));
}

TEST(VisitErrorContext, MakeVisitErrorContextStartsTheTrailWithTheNode) {
  ObjectRef node = Var("n");
  VisitErrorContext ctx = tvm::ffi::detail::MakeVisitErrorContext(node);
  ASSERT_EQ(ctx->reverse_visit_pattern.size(), 1u);
  EXPECT_TRUE(ctx->reverse_visit_pattern[0].same_as(node));
}

TEST(VisitErrorContext, UpdateVisitErrorContextAppendsTheNode) {
  Error err("ValueError", "boom", "");
  ObjectRef node = Var("n");
  tvm::ffi::detail::UpdateVisitErrorContext(err, node);
  auto ctx = VisitErrorContext::TryGetFromError(err);
  ASSERT_TRUE(ctx.has_value());
  ASSERT_EQ((*ctx)->reverse_visit_pattern.size(), 1u);
  EXPECT_TRUE((*ctx)->reverse_visit_pattern[0].same_as(node));
}

TEST(VisitErrorContext, FindAccessPathsFollowsFieldsItemsAndMapValues) {
  ObjectRef target = Var("t");
  Map<Any, Any> m;
  m.Set(String("k"), target);
  ObjectRef mid = Add(0, m);
  ObjectRef root = Array<Any>{Any(), mid, mid};
  VisitErrorContext ctx = VisitErrorContext::Create();
  for (const ObjectRef& n : {target, ObjectRef(m), ObjectRef(m), mid, root}) {
    ctx->reverse_visit_pattern.push_back(n);
  }
  Array<reflection::AccessPath> paths = VisitErrorContext::FindAccessPaths(root, ctx);
  ASSERT_EQ(paths.size(), 2u);  // the shared node is reached twice
  auto expected = reflection::AccessPath::Root()->ArrayItem(1)->Attr("b")->MapItem(String("k"));
  EXPECT_TRUE(paths[0]->PathEqual(expected));
  Function global = Function::GetGlobalRequired("ffi.VisitErrorContext.FindAccessPaths");
  EXPECT_EQ(global(root, ctx, false).cast<Array<Any>>().size(), 2u);
}

TEST(VisitErrorContext, PrefixMatchRecordsTheDeepestMatchedNode) {
  ObjectRef mid = Add(1, 2);
  ObjectRef root = Array<Any>{mid};
  VisitErrorContext ctx = VisitErrorContext::Create();
  ctx->reverse_visit_pattern.push_back(Var("elsewhere"));
  ctx->reverse_visit_pattern.push_back(mid);
  ctx->reverse_visit_pattern.push_back(root);
  EXPECT_EQ(VisitErrorContext::FindAccessPaths(root, ctx).size(), 0u);
  Array<reflection::AccessPath> paths = VisitErrorContext::FindAccessPaths(root, ctx, true);
  ASSERT_EQ(paths.size(), 1u);
  EXPECT_TRUE(paths[0]->PathEqual(reflection::AccessPath::Root()->ArrayItem(0)));
}

/*! \brief A layer with two state entries; callbacks may take any leading part of them. */
class TwoStateLayer : public StructuralVisitorObj {
 public:
  using VisitorObjType = TwoStateLayer;
  explicit TwoStateLayer(const StructuralVisitorVTable* vtable) : StructuralVisitorObj(vtable) {}
  int count = 0;
  int tag = 7;

 protected:
  std::tuple<int*, const int&> StateTuple() { return {&count, tag}; }
};

TEST(StructuralVisit, WalkCallbackMayTakeALeadingPartOfTheState) {
  auto cb = [](int64_t v, int* count) { *count += static_cast<int>(v); };
  auto engine =
      make_object<StructuralWalkEngine<TwoStateLayer, WalkOrder::kPreOrder, decltype(cb)>>(cb);
  EXPECT_FALSE(engine->Visit(Array<Any>{1, 2}).has_value());
  EXPECT_EQ(engine->count, 3);
}

TEST(StructuralVisit, VisitEngineCallbackReceivesTheLayerAsVisitor) {
  int seen_tag = 0;
  auto cb = [&](int64_t, TwoStateLayer* layer) { seen_tag = layer->tag; };
  auto engine = make_object<StructuralVisitEngine<TwoStateLayer, decltype(cb)>>(cb);
  EXPECT_FALSE(engine->Visit(Array<Any>{1}).has_value());
  EXPECT_EQ(seen_tag, 7);
}

TEST(StructuralVisit, VisitorReferenceWrapsAnEngineObject) {
  std::vector<int64_t> seen;
  auto cb = [&](int64_t v) { seen.push_back(v); };
  StructuralVisitor visitor(
      make_object<
          StructuralWalkEngine<StructuralVisitorNoState, WalkOrder::kPreOrder, decltype(cb)>>(cb));
  EXPECT_FALSE(visitor->Visit(Array<Any>{4, 5}).has_value());
  EXPECT_EQ(seen, (std::vector<int64_t>{4, 5}));
}

TEST(StructuralVisit, EarlyReturnMacroStopsOnAnInterruptOptional) {
  auto step = [](Optional<VisitInterrupt> r, bool* continued) -> Optional<VisitInterrupt> {
    TVM_FFI_S_VISIT_MAYBE_EARLY_RETURN(r);
    *continued = true;
    return std::nullopt;
  };
  bool continued = false;
  EXPECT_TRUE(step(VisitInterrupt(String("stop")), &continued).has_value());
  EXPECT_FALSE(continued);
  EXPECT_FALSE(step(std::nullopt, &continued).has_value());
  EXPECT_TRUE(continued);
}

}  // namespace
