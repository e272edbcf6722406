// Registration of the test types of structural_test_types.h.
#include "structural_test_types.h"

#include <tvm/ffi/function.h>
#include <tvm/ffi/reflection/registry.h>

namespace structural_test {
namespace {

namespace refl = tvm::ffi::reflection;

template <typename T>
void RegisterPair() {
  refl::ObjectDef<T>().def_ro("a", &T::a).def_ro("b", &T::b);
}

TVM_FFI_STATIC_INIT_BLOCK() {
  refl::ObjectDef<VarObj>()
      .def_ro("name", &VarObj::name, refl::AttachFieldFlag::SEqHashIgnore())
      .def_ro("ty", &VarObj::ty);
  RegisterPair<AddObj>();
  RegisterPair<DAddObj>();
  RegisterPair<SingleObj>();
  RegisterPair<ConstObj>();
  RegisterPair<NoKindObj>();
  refl::ObjectDef<LamObj>()
      .def_ro("params", &LamObj::params, refl::AttachFieldFlag::SEqHashDefPattern())
      .def_ro("body", &LamObj::body);
  refl::ObjectDef<LetObj>()
      .def_ro("var", &LetObj::var, refl::AttachFieldFlag::SEqHashDefSimple())
      .def_ro("value", &LetObj::value)
      .def_ro("body", &LetObj::body);
  // Hooks comparing and hashing field `a` only (under a pattern region), reporting "a".
  RegisterPair<HookedObj>();
  refl::TypeAttrDef<HookedObj>()
      .def("__s_equal__",
           [](const HookedObj* lhs, const HookedObj* rhs, ffi::Function eq_cb) -> bool {
             return eq_cb(lhs->a, rhs->a, static_cast<int>(kTVMFFIDefRegionKindPattern), "a")
                 .cast<bool>();
           })
      .def("__s_hash__", [](const HookedObj* self, int64_t init, ffi::Function hash_cb) {
        return hash_cb(self->a, init, static_cast<int>(kTVMFFIDefRegionKindPattern))
            .cast<int64_t>();
      });
}

}  // namespace
}  // namespace structural_test
