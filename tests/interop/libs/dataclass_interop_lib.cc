// A reflected type for the dataclass interop tests, compiled with either
// implementation's headers: dcinterop.Pair (a, name, payload, hidden: repr
// and compare off) and the global dcinterop.make(a, name, payload, hidden).
#include <tvm/ffi/any.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/memory.h>
#include <tvm/ffi/object.h>
#include <tvm/ffi/reflection/registry.h>
#include <tvm/ffi/string.h>

#include <cstdint>
#include <utility>

namespace ffi = tvm::ffi;

class DcPairObj : public ffi::Object {
 public:
  int64_t a;
  ffi::String name;
  ffi::Any payload;
  int64_t hidden;

  DcPairObj(int64_t a, ffi::String name, ffi::Any payload, int64_t hidden)
      : a(a), name(std::move(name)), payload(std::move(payload)), hidden(hidden) {}

  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("dcinterop.Pair", DcPairObj, ffi::Object);
};

TVM_FFI_STATIC_INIT_BLOCK() {
  namespace refl = tvm::ffi::reflection;
  refl::ObjectDef<DcPairObj>()
      .def_ro("a", &DcPairObj::a)
      .def_ro("name", &DcPairObj::name)
      .def_ro("payload", &DcPairObj::payload)
      .def_ro("hidden", &DcPairObj::hidden, refl::repr(false), refl::compare(false));
  refl::GlobalDef().def(
      "dcinterop.make", [](int64_t a, ffi::String name, ffi::Any payload, int64_t hidden) {
        return ffi::ObjectRef(ffi::make_object<DcPairObj>(a, std::move(name), payload, hidden));
      });
}
