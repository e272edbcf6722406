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
 */
#include <tvm/ffi/any.h>
#include <tvm/ffi/container/array.h>
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
}

}  // namespace testing
TVM_FFI_NAMESPACE_END
