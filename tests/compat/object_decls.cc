// Source compatibility: object and reference declarations written the way
// library code declares them against the tvm-ffi 0.1.x headers. Compiling
// this file is the test.
#include <tvm/ffi/any.h>
#include <tvm/ffi/cast.h>
#include <tvm/ffi/memory.h>
#include <tvm/ffi/object.h>
#include <tvm/ffi/optional.h>
#include <tvm/ffi/type_traits.h>

#include <cstdint>
#include <utility>

namespace compat_objects {

namespace ffi = tvm::ffi;

// A base with reserved child slots and a structural-equality kind, declared
// before the macro.
class ExprNode : public ffi::Object {
 public:
  static constexpr const uint32_t _type_child_slots = 4;
  static constexpr TVMFFISEqHashKind _type_s_eq_hash_kind = kTVMFFISEqHashKindTreeNode;
  TVM_FFI_DECLARE_OBJECT_INFO("compat.Expr", ExprNode, ffi::Object);
};

class Expr : public ffi::ObjectRef {
 public:
  TVM_FFI_DEFINE_OBJECT_REF_METHODS_NULLABLE(Expr, ffi::ObjectRef, ExprNode);
};

class IntImmNode : public ExprNode {
 public:
  int64_t value;
  explicit IntImmNode(int64_t v) : value(v) {}
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("compat.IntImm", IntImmNode, ExprNode);
};

class IntImm : public Expr {
 public:
  explicit IntImm(int64_t v) { data_ = ffi::make_object<IntImmNode>(v); }
  TVM_FFI_DEFINE_OBJECT_REF_METHODS_NOTNULLABLE(IntImm, Expr, IntImmNode);
};

// Configuration declared after the macro.
class VarNode : public ExprNode {
 public:
  TVM_FFI_DECLARE_OBJECT_INFO("compat.Var", VarNode, ExprNode);
  static constexpr const uint32_t _type_child_slots = 0;
  static constexpr bool _type_child_slots_can_overflow = false;
  static constexpr TVMFFISEqHashKind _type_s_eq_hash_kind = kTVMFFISEqHashKindFreeVar;
};

// A mutable object: its reference hands out a non-const pointer.
class CounterObj : public ffi::Object {
 public:
  int64_t count = 0;
  static constexpr bool _type_mutable = true;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("compat.Counter", CounterObj, ffi::Object);
};

class Counter : public ffi::ObjectRef {
 public:
  Counter() : ffi::ObjectRef(ffi::make_object<CounterObj>()) {}
  void Bump() { get()->count += 1; }
  TVM_FFI_DEFINE_OBJECT_REF_METHODS_NOTNULLABLE(Counter, ffi::ObjectRef, CounterObj);
};

// A class template object type.
template <typename T>
class BoxNode : public ffi::Object {
 public:
  T value{};
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("compat.Box", BoxNode, ffi::Object);
};

static_assert(ffi::is_object_subclass_v<IntImmNode>);
static_assert(ffi::object_ref_contains_v<Expr, IntImmNode>);
static_assert(IntImmNode::_type_final && !ExprNode::_type_final);
static_assert(IntImmNode::_type_s_eq_hash_kind == kTVMFFISEqHashKindTreeNode);
static_assert(std::is_same_v<decltype(std::declval<Counter>().operator->()), CounterObj*>);
static_assert(std::is_same_v<decltype(std::declval<IntImm>().operator->()), const IntImmNode*>);

int64_t ValueOr(const Expr& e, int64_t fallback) {
  if (const IntImmNode* imm = e.as<IntImmNode>()) return imm->value;
  if (std::optional<IntImm> imm = e.as<IntImm>()) return (*imm)->value;
  return fallback;
}

IntImm Roundtrip(const IntImmNode* node) { return ffi::GetRef<IntImm>(node); }

ffi::Optional<Expr> MaybeExpr(const ExprNode* node) {
  return ffi::GetRef<ffi::Optional<Expr>>(node);
}

ffi::ObjectPtr<ffi::Object> Erase(IntImmNode* node) { return ffi::GetObjectPtr<ffi::Object>(node); }

bool IsVar(const ffi::ObjectRef& ref) {
  return ref.defined() && ref->IsInstance<VarNode>() && !ref->IsInstance<IntImmNode>();
}

int32_t Indices() {
  return IntImmNode::_type_index + IntImmNode::RuntimeTypeIndex() + ExprNode::_type_depth +
         BoxNode<int>::RuntimeTypeIndex();
}

Counter Bumped() {
  Counter c;
  c.Bump();
  ffi::Arc<CounterObj> arc = ffi::make_arc<CounterObj>();
  ffi::WeakObjectPtr<ffi::Object> weak(arc);
  (void)weak.use_count();
  return c;
}

std::size_t HashOf(const Expr& e) { return ffi::ObjectPtrHash()(e); }

}  // namespace compat_objects
