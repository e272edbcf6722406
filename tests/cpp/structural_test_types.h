// Small IR types of every structural kind for the structural equality/hash
// tests (registered in structural_test_types.cc under "test.structural.*"):
// Var (free variable; name ignored), Add (tree), DAdd (DAG), Lam (params in a
// pattern definition region), Let (var in a simple definition region),
// Single (unique instance), Const (const tree), Hooked (__s_equal__ /
// __s_hash__ hooks that look at `a` only) and NoKind (kind Unsupported).
#ifndef TVM_FFI_TESTS_CPP_STRUCTURAL_TEST_TYPES_H_
#define TVM_FFI_TESTS_CPP_STRUCTURAL_TEST_TYPES_H_

#include <tvm/ffi/any.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/memory.h>
#include <tvm/ffi/object.h>
#include <tvm/ffi/string.h>

#include <utility>

namespace structural_test {

namespace ffi = tvm::ffi;

class VarObj : public ffi::Object {
 public:
  ffi::String name;
  ffi::Any ty;
  VarObj() = default;
  VarObj(ffi::String name, ffi::Any ty) : name(std::move(name)), ty(std::move(ty)) {}
  static constexpr TVMFFISEqHashKind _type_s_eq_hash_kind = kTVMFFISEqHashKindFreeVar;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("test.structural.Var", VarObj, ffi::Object);
};

/*! \brief Two fields a, b; Kind selects the structural kind, Key the type key. */
template <TVMFFISEqHashKind Kind>
class PairObj : public ffi::Object {
 public:
  ffi::Any a;
  ffi::Any b;
  PairObj() = default;
  PairObj(ffi::Any a, ffi::Any b) : a(std::move(a)), b(std::move(b)) {}
  static constexpr TVMFFISEqHashKind _type_s_eq_hash_kind = Kind;
};

class AddObj : public PairObj<kTVMFFISEqHashKindTreeNode> {
 public:
  using PairObj::PairObj;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("test.structural.Add", AddObj, ffi::Object);
};

class DAddObj : public PairObj<kTVMFFISEqHashKindDAGNode> {
 public:
  using PairObj::PairObj;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("test.structural.DAdd", DAddObj, ffi::Object);
};

class SingleObj : public PairObj<kTVMFFISEqHashKindUniqueInstance> {
 public:
  using PairObj::PairObj;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("test.structural.Single", SingleObj, ffi::Object);
};

class ConstObj : public PairObj<kTVMFFISEqHashKindConstTreeNode> {
 public:
  using PairObj::PairObj;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("test.structural.Const", ConstObj, ffi::Object);
};

class HookedObj : public PairObj<kTVMFFISEqHashKindTreeNode> {
 public:
  using PairObj::PairObj;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("test.structural.Hooked", HookedObj, ffi::Object);
};

class NoKindObj : public PairObj<kTVMFFISEqHashKindUnsupported> {
 public:
  using PairObj::PairObj;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("test.structural.NoKind", NoKindObj, ffi::Object);
};

class LamObj : public ffi::Object {
 public:
  ffi::Array<ffi::Any> params;
  ffi::Any body;
  LamObj() = default;
  LamObj(ffi::Array<ffi::Any> params, ffi::Any body)
      : params(std::move(params)), body(std::move(body)) {}
  static constexpr TVMFFISEqHashKind _type_s_eq_hash_kind = kTVMFFISEqHashKindTreeNode;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("test.structural.Lam", LamObj, ffi::Object);
};

class LetObj : public ffi::Object {
 public:
  ffi::Any var;
  ffi::Any value;
  ffi::Any body;
  LetObj() = default;
  LetObj(ffi::Any var, ffi::Any value, ffi::Any body)
      : var(std::move(var)), value(std::move(value)), body(std::move(body)) {}
  static constexpr TVMFFISEqHashKind _type_s_eq_hash_kind = kTVMFFISEqHashKindTreeNode;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("test.structural.Let", LetObj, ffi::Object);
};

inline ffi::ObjectRef Var(const char* name, ffi::Any ty = ffi::Any()) {
  return ffi::ObjectRef(ffi::make_object<VarObj>(name, std::move(ty)));
}
template <typename T>
inline ffi::ObjectRef Make(ffi::Any a, ffi::Any b) {
  return ffi::ObjectRef(ffi::make_object<T>(std::move(a), std::move(b)));
}
inline ffi::ObjectRef Add(ffi::Any a, ffi::Any b) { return Make<AddObj>(a, b); }
inline ffi::ObjectRef DAdd(ffi::Any a, ffi::Any b) { return Make<DAddObj>(a, b); }
inline ffi::ObjectRef Lam(ffi::Array<ffi::Any> params, ffi::Any body) {
  return ffi::ObjectRef(ffi::make_object<LamObj>(std::move(params), std::move(body)));
}
inline ffi::ObjectRef Let(ffi::Any var, ffi::Any value, ffi::Any body) {
  return ffi::ObjectRef(
      ffi::make_object<LetObj>(std::move(var), std::move(value), std::move(body)));
}

}  // namespace structural_test

#endif  // TVM_FFI_TESTS_CPP_STRUCTURAL_TEST_TYPES_H_
