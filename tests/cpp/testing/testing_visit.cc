/*
 * A small reflected IR for the Python structural walk/visit/map/mutate tests
 * (tests/python/test_structural_visit.py):
 *
 *   testing.visit.Var(name, ty)          kind FreeVar; `name` is ignored structurally
 *   testing.visit.Add(a, b)              kind TreeNode
 *   testing.visit.Lam(params, body)      `params` opens a pattern def region
 *   testing.visit.Let(var, value, body)  `var` opens a simple def region
 */
#include <tvm/ffi/any.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/memory.h>
#include <tvm/ffi/object.h>
#include <tvm/ffi/reflection/registry.h>
#include <tvm/ffi/string.h>

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
}

}  // namespace testing
TVM_FFI_NAMESPACE_END
