/*
 * A small reflected IR for the Python structural walk/visit/map/mutate tests
 * (tests/python/test_structural_visit.py):
 *
 *   testing.visit.Var(name, ty)          kind FreeVar; `name` is ignored structurally
 *   testing.visit.Add(a, b)              kind TreeNode
 *   testing.visit.Lam(params, body)      `params` opens a pattern def region
 *   testing.visit.Let(var, value, body)  `var` opens a simple def region
 *
 * and three types whose mutation fails (the error paths of structural_map):
 *
 *   testing.visit.BadMutateHook(x)       `__s_mutate__` is an int, not a hook
 *   testing.visit.SelfCopy(x)            `__ffi_shallow_copy__` returns its input
 *   testing.visit.NoSetter(x)            field `x` is registered without a setter
 *
 * and the def-region fixtures of testing.make_visit_region_graph(with_hook):
 *
 *   testing.TestVisitRegions(simple, pattern, ordinary)  fields flagged def-simple,
 *                                                          def-pattern and none
 *   testing.TestVisitHook(child)   its `__s_visit__` Function visits child inside a
 *                                  simple def region, then the int 4 outside it
 */
#include <tvm/ffi/any.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/extra/structural_visit.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/memory.h>
#include <tvm/ffi/object.h>
#include <tvm/ffi/reflection/registry.h>
#include <tvm/ffi/string.h>

#include <cstring>
#include <utility>

TVM_FFI_NAMESPACE_BEGIN
namespace testing {
namespace {

class VisitVarObj : public Object {
 public:
  String name;
  Any ty;
  VisitVarObj() = default;
  VisitVarObj(String name, Any ty) : name(std::move(name)), ty(std::move(ty)) {}
  static constexpr TVMFFISEqHashKind _type_s_eq_hash_kind = kTVMFFISEqHashKindFreeVar;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("testing.visit.Var", VisitVarObj, Object);
};

class VisitAddObj : public Object {
 public:
  Any a;
  Any b;
  VisitAddObj() = default;
  VisitAddObj(Any a, Any b) : a(std::move(a)), b(std::move(b)) {}
  static constexpr TVMFFISEqHashKind _type_s_eq_hash_kind = kTVMFFISEqHashKindTreeNode;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("testing.visit.Add", VisitAddObj, Object);
};

class VisitLamObj : public Object {
 public:
  Array<Any> params;
  Any body;
  VisitLamObj() = default;
  VisitLamObj(Array<Any> params, Any body) : params(std::move(params)), body(std::move(body)) {}
  static constexpr TVMFFISEqHashKind _type_s_eq_hash_kind = kTVMFFISEqHashKindTreeNode;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("testing.visit.Lam", VisitLamObj, Object);
};

class VisitLetObj : public Object {
 public:
  Any var;
  Any value;
  Any body;
  VisitLetObj() = default;
  VisitLetObj(Any var, Any value, Any body)
      : var(std::move(var)), value(std::move(value)), body(std::move(body)) {}
  static constexpr TVMFFISEqHashKind _type_s_eq_hash_kind = kTVMFFISEqHashKindTreeNode;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("testing.visit.Let", VisitLetObj, Object);
};

class VisitBadMutateHookObj : public Object {
 public:
  Any x;
  explicit VisitBadMutateHookObj(Any x) : x(std::move(x)) {}
  static constexpr TVMFFISEqHashKind _type_s_eq_hash_kind = kTVMFFISEqHashKindTreeNode;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("testing.visit.BadMutateHook", VisitBadMutateHookObj, Object);
};

class VisitSelfCopyObj : public Object {
 public:
  Any x;
  explicit VisitSelfCopyObj(Any x) : x(std::move(x)) {}
  // Not copyable, so that ObjectDef registers no __ffi_shallow_copy__ of its own.
  VisitSelfCopyObj(const VisitSelfCopyObj&) = delete;
  VisitSelfCopyObj& operator=(const VisitSelfCopyObj&) = delete;
  static constexpr TVMFFISEqHashKind _type_s_eq_hash_kind = kTVMFFISEqHashKindTreeNode;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("testing.visit.SelfCopy", VisitSelfCopyObj, Object);
};

class VisitNoSetterObj : public Object {
 public:
  Any x;
  explicit VisitNoSetterObj(Any x) : x(std::move(x)) {}
  static constexpr TVMFFISEqHashKind _type_s_eq_hash_kind = kTVMFFISEqHashKindTreeNode;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("testing.visit.NoSetter", VisitNoSetterObj, Object);
};

class TestVisitRegionsObj : public Object {
 public:
  int64_t simple = 0;
  int64_t pattern = 0;
  int64_t ordinary = 0;
  TestVisitRegionsObj() = default;
  TestVisitRegionsObj(int64_t simple, int64_t pattern, int64_t ordinary)
      : simple(simple), pattern(pattern), ordinary(ordinary) {}
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("testing.TestVisitRegions", TestVisitRegionsObj, Object);
};

class TestVisitHookObj : public Object {
 public:
  ObjectRef child;
  explicit TestVisitHookObj(ObjectRef child) : child(std::move(child)) {}
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("testing.TestVisitHook", TestVisitHookObj, Object);
};

/*! \brief The `__s_visit__` hook of TestVisitHook (called as (visitor, value)). */
Optional<VisitInterrupt> VisitHookChildren(StructuralVisitor visitor, ObjectRef value) {
  const TestVisitHookObj* self = value.as<TestVisitHookObj>();
  Optional<VisitInterrupt> stop = visitor->WithDefRegionKind(
      kTVMFFIDefRegionKindSimple, [&]() { return visitor->Visit(self->child); });
  if (stop.has_value()) return stop;
  return visitor->Visit(4);
}

void RegisterAttr(int32_t type_index, const char* name, Any value) {
  TVMFFIByteArray key{name, std::strlen(name)};
  TVM_FFI_CHECK_SAFE_CALL(
      TVMFFITypeRegisterAttr(type_index, &key, detail::AnyUnsafe::GetTVMFFIAny(value)));
}

int ReadAnyField(void* field, TVMFFIAny* result) {
  TVM_FFI_SAFE_CALL_BEGIN();
  *result = detail::AnyUnsafe::MoveAnyToTVMFFIAny(Any(*static_cast<const Any*>(field)));
  TVM_FFI_SAFE_CALL_END();
}

/*! \brief Field `x` of NoSetter, as a library registering through the C ABI alone could. */
void RegisterNoSetterField() {
  VisitNoSetterObj probe{Any()};
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
  TVM_FFI_CHECK_SAFE_CALL(TVMFFITypeRegisterField(VisitNoSetterObj::RuntimeTypeIndex(), &field));
}

}  // namespace

TVM_FFI_STATIC_INIT_BLOCK() {
  namespace refl = ::tvm::ffi::reflection;
  refl::ObjectDef<VisitVarObj>()
      .def(refl::init<String, Any>())
      .def_ro("name", &VisitVarObj::name, refl::AttachFieldFlag::SEqHashIgnore())
      .def_ro("ty", &VisitVarObj::ty);
  refl::ObjectDef<VisitAddObj>()
      .def(refl::init<Any, Any>())
      .def_ro("a", &VisitAddObj::a)
      .def_ro("b", &VisitAddObj::b);
  refl::ObjectDef<VisitLamObj>()
      .def(refl::init<Array<Any>, Any>())
      .def_ro("params", &VisitLamObj::params, refl::AttachFieldFlag::SEqHashDefPattern())
      .def_ro("body", &VisitLamObj::body);
  refl::ObjectDef<VisitLetObj>()
      .def(refl::init<Any, Any, Any>())
      .def_ro("var", &VisitLetObj::var, refl::AttachFieldFlag::SEqHashDefSimple())
      .def_ro("value", &VisitLetObj::value)
      .def_ro("body", &VisitLetObj::body);
  refl::ObjectDef<VisitBadMutateHookObj>()
      .def(refl::init<Any>())
      .def_ro("x", &VisitBadMutateHookObj::x);
  RegisterAttr(VisitBadMutateHookObj::RuntimeTypeIndex(), "__s_mutate__", 7);
  refl::ObjectDef<VisitSelfCopyObj>().def(refl::init<Any>()).def_ro("x", &VisitSelfCopyObj::x);
  RegisterAttr(VisitSelfCopyObj::RuntimeTypeIndex(), "__ffi_shallow_copy__",
               Function::FromTyped([](ObjectRef self) { return self; }));
  refl::ObjectDef<VisitNoSetterObj>().def(refl::init<Any>());
  RegisterNoSetterField();
  refl::ObjectDef<TestVisitRegionsObj>()
      .def(refl::init<int64_t, int64_t, int64_t>())
      .def_ro("simple", &TestVisitRegionsObj::simple, refl::AttachFieldFlag::SEqHashDefSimple())
      .def_ro("pattern", &TestVisitRegionsObj::pattern, refl::AttachFieldFlag::SEqHashDefPattern())
      .def_ro("ordinary", &TestVisitRegionsObj::ordinary);
  refl::ObjectDef<TestVisitHookObj>(refl::init(false)).def_ro("child", &TestVisitHookObj::child);
  RegisterAttr(TestVisitHookObj::RuntimeTypeIndex(), "__s_visit__",
               Function::FromTyped(VisitHookChildren));
  refl::GlobalDef().def(
      "testing.make_visit_region_graph",
      [](bool with_hook) -> Any {
        ObjectRef regions(make_object<TestVisitRegionsObj>(1, 2, 3));
        if (!with_hook) return regions;
        return ObjectRef(make_object<TestVisitHookObj>(regions));
      },
      "TestVisitRegions(simple=1, pattern=2, ordinary=3), wrapped in a TestVisitHook when "
      "with_hook is true.");
}

}  // namespace testing
TVM_FFI_NAMESPACE_END
