/*
 * IR types of libtvm_ffi_testing for the structural suites, one per
 * structural kind, under "testing.structural.*": Var (free variable; `name`
 * ignored, `ty`), Add (tree), DAdd (DAG), Single (unique instance), Const
 * (const tree), NoKind (kind Unsupported) - each pair type with fields a, b -
 * Lam (`params` in a pattern definition region, `body`), Let (`var` in a
 * simple definition region, `value`, `body`), and Hooked whose __s_equal__ /
 * __s_hash__ hooks look at `a` only (in a pattern region). Every type has an
 * explicit __ffi_init__ taking its fields in order.
 */
#include <tvm/ffi/any.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/memory.h>
#include <tvm/ffi/object.h>
#include <tvm/ffi/reflection/registry.h>
#include <tvm/ffi/string.h>

#include <utility>

TVM_FFI_NAMESPACE_BEGIN
namespace testing {
namespace {

class SVarObj : public Object {
 public:
  String name;
  Any ty;
  SVarObj() = default;
  SVarObj(String name, Any ty) : name(std::move(name)), ty(std::move(ty)) {}
  static constexpr TVMFFISEqHashKind _type_s_eq_hash_kind = kTVMFFISEqHashKindFreeVar;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("testing.structural.Var", SVarObj, Object);
};

template <TVMFFISEqHashKind Kind>
class SPairObj : public Object {
 public:
  Any a;
  Any b;
  SPairObj() = default;
  SPairObj(Any a, Any b) : a(std::move(a)), b(std::move(b)) {}
  static constexpr TVMFFISEqHashKind _type_s_eq_hash_kind = Kind;
};

#define TESTING_STRUCTURAL_PAIR(Name, Key, Kind)          \
  class Name : public SPairObj<Kind> {                    \
   public:                                                \
    using SPairObj::SPairObj;                             \
    TVM_FFI_DECLARE_OBJECT_INFO_FINAL(Key, Name, Object); \
  }

TESTING_STRUCTURAL_PAIR(SAddObj, "testing.structural.Add", kTVMFFISEqHashKindTreeNode);
TESTING_STRUCTURAL_PAIR(SDAddObj, "testing.structural.DAdd", kTVMFFISEqHashKindDAGNode);
TESTING_STRUCTURAL_PAIR(SSingleObj, "testing.structural.Single", kTVMFFISEqHashKindUniqueInstance);
TESTING_STRUCTURAL_PAIR(SConstObj, "testing.structural.Const", kTVMFFISEqHashKindConstTreeNode);
TESTING_STRUCTURAL_PAIR(SNoKindObj, "testing.structural.NoKind", kTVMFFISEqHashKindUnsupported);
TESTING_STRUCTURAL_PAIR(SHookedObj, "testing.structural.Hooked", kTVMFFISEqHashKindTreeNode);
#undef TESTING_STRUCTURAL_PAIR

class SLamObj : public Object {
 public:
  Any params;
  Any body;
  SLamObj() = default;
  SLamObj(Any params, Any body) : params(std::move(params)), body(std::move(body)) {}
  static constexpr TVMFFISEqHashKind _type_s_eq_hash_kind = kTVMFFISEqHashKindTreeNode;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("testing.structural.Lam", SLamObj, Object);
};

class SLetObj : public Object {
 public:
  Any var;
  Any value;
  Any body;
  SLetObj() = default;
  SLetObj(Any var, Any value, Any body)
      : var(std::move(var)), value(std::move(value)), body(std::move(body)) {}
  static constexpr TVMFFISEqHashKind _type_s_eq_hash_kind = kTVMFFISEqHashKindTreeNode;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("testing.structural.Let", SLetObj, Object);
};

template <typename T>
void RegisterPair() {
  reflection::ObjectDef<T>()
      .def_ro("a", &T::a)
      .def_ro("b", &T::b)
      .def(reflection::init<Any, Any>());
}

TVM_FFI_STATIC_INIT_BLOCK() {
  namespace refl = reflection;
  refl::ObjectDef<SVarObj>()
      .def_ro("name", &SVarObj::name, refl::AttachFieldFlag::SEqHashIgnore())
      .def_ro("ty", &SVarObj::ty)
      .def(refl::init<String, Any>());
  RegisterPair<SAddObj>();
  RegisterPair<SDAddObj>();
  RegisterPair<SSingleObj>();
  RegisterPair<SConstObj>();
  RegisterPair<SNoKindObj>();
  RegisterPair<SHookedObj>();
  refl::TypeAttrDef<SHookedObj>()
      .def("__s_equal__",
           [](const SHookedObj* lhs, const SHookedObj* rhs, Function eq_cb) -> bool {
             return eq_cb(lhs->a, rhs->a, static_cast<int>(kTVMFFIDefRegionKindPattern), "a")
                 .cast<bool>();
           })
      .def("__s_hash__", [](const SHookedObj* self, int64_t init, Function hash_cb) {
        return hash_cb(self->a, init, static_cast<int>(kTVMFFIDefRegionKindPattern))
            .cast<int64_t>();
      });
  refl::ObjectDef<SLamObj>()
      .def_ro("params", &SLamObj::params, refl::AttachFieldFlag::SEqHashDefPattern())
      .def_ro("body", &SLamObj::body)
      .def(refl::init<Any, Any>());
  refl::ObjectDef<SLetObj>()
      .def_ro("var", &SLetObj::var, refl::AttachFieldFlag::SEqHashDefSimple())
      .def_ro("value", &SLetObj::value)
      .def_ro("body", &SLetObj::body)
      .def(refl::init<Any, Any, Any>());
}

}  // namespace
}  // namespace testing
TVM_FFI_NAMESPACE_END
