// A small reflected IR for the structural visit/mutate tests (registered in
// test_structural_visit.cc under "test.svisit.*"):
//   Var(name ignored, ty)        kind FreeVar
//   Add(a, b)                    kind TreeNode
//   Lam(params: def-pattern, body)
//   Let(var: def-simple, value, body)
//   Node(x)                      kind DAGNode
//   NoCopy(x)                    TreeNode without a copy constructor (no __ffi_shallow_copy__)
#ifndef TVM_FFI_TESTS_CPP_STRUCTURAL_VISIT_FIXTURES_H_
#define TVM_FFI_TESTS_CPP_STRUCTURAL_VISIT_FIXTURES_H_

#include <tvm/ffi/any.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/memory.h>
#include <tvm/ffi/object.h>
#include <tvm/ffi/string.h>

#include <utility>

namespace tvm_ffi_testing {
namespace svisit {

using tvm::ffi::Any;
using tvm::ffi::Array;
using tvm::ffi::Object;
using tvm::ffi::ObjectRef;
using tvm::ffi::String;

class VarObj : public Object {
 public:
  String name;
  Any ty;
  VarObj() = default;
  VarObj(String name, Any ty) : name(std::move(name)), ty(std::move(ty)) {}
  static constexpr TVMFFISEqHashKind _type_s_eq_hash_kind = kTVMFFISEqHashKindFreeVar;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("test.svisit.Var", VarObj, Object);
};

class AddObj : public Object {
 public:
  Any a;
  Any b;
  AddObj() = default;
  AddObj(Any a, Any b) : a(std::move(a)), b(std::move(b)) {}
  static constexpr TVMFFISEqHashKind _type_s_eq_hash_kind = kTVMFFISEqHashKindTreeNode;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("test.svisit.Add", AddObj, Object);
};

class LamObj : public Object {
 public:
  Array<Any> params;
  Any body;
  LamObj() = default;
  LamObj(Array<Any> params, Any body) : params(std::move(params)), body(std::move(body)) {}
  static constexpr TVMFFISEqHashKind _type_s_eq_hash_kind = kTVMFFISEqHashKindTreeNode;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("test.svisit.Lam", LamObj, Object);
};

class LetObj : public Object {
 public:
  Any var;
  Any value;
  Any body;
  LetObj() = default;
  LetObj(Any var, Any value, Any body)
      : var(std::move(var)), value(std::move(value)), body(std::move(body)) {}
  static constexpr TVMFFISEqHashKind _type_s_eq_hash_kind = kTVMFFISEqHashKindTreeNode;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("test.svisit.Let", LetObj, Object);
};

class NodeObj : public Object {
 public:
  Any x;
  NodeObj() = default;
  explicit NodeObj(Any x) : x(std::move(x)) {}
  static constexpr TVMFFISEqHashKind _type_s_eq_hash_kind = kTVMFFISEqHashKindDAGNode;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("test.svisit.Node", NodeObj, Object);
};

class NoCopyObj : public Object {
 public:
  Any x;
  NoCopyObj() = default;
  explicit NoCopyObj(Any x) : x(std::move(x)) {}
  NoCopyObj(const NoCopyObj&) = delete;
  NoCopyObj& operator=(const NoCopyObj&) = delete;
  static constexpr TVMFFISEqHashKind _type_s_eq_hash_kind = kTVMFFISEqHashKindTreeNode;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("test.svisit.NoCopy", NoCopyObj, Object);
};

template <typename T, typename... Args>
inline ObjectRef Make(Args&&... args) {
  return ObjectRef(tvm::ffi::make_object<T>(std::forward<Args>(args)...));
}
inline ObjectRef Var(const char* name, Any ty = Any()) { return Make<VarObj>(String(name), ty); }
inline ObjectRef Add(Any a, Any b) { return Make<AddObj>(std::move(a), std::move(b)); }
inline ObjectRef Lam(Array<Any> params, Any body) {
  return Make<LamObj>(std::move(params), std::move(body));
}
inline ObjectRef Let(Any var, Any value, Any body) {
  return Make<LetObj>(std::move(var), std::move(value), std::move(body));
}
inline ObjectRef Node(Any x) { return Make<NodeObj>(std::move(x)); }

}  // namespace svisit
}  // namespace tvm_ffi_testing

#endif  // TVM_FFI_TESTS_CPP_STRUCTURAL_VISIT_FIXTURES_H_
