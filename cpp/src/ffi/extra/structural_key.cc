/*
 * Reflection of StructuralKey (extra/structural_key.h): fields, constructor,
 * the globals ffi.StructuralKey / ffi.StructuralKeyEqual, and the native
 * __any_hash__ / __any_equal__ hooks through which Map and Dict compare
 * StructuralKeys structurally.
 */
#include <tvm/ffi/any.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/extra/structural_key.h>
#include <tvm/ffi/reflection/registry.h>

#include "structural_engines.h"

TVM_FFI_NAMESPACE_BEGIN
namespace detail {
namespace {

const StructuralKeyObj* KeyObj(const TVMFFIAny* cell) {
  return reinterpret_cast<const StructuralKeyObj*>(cell->v_obj);
}

/*! \brief Native __any_hash__ adapter: the stored structural hash. */
TVMFFIAny StructuralKeyAnyHash(const TVMFFIAny* value) noexcept {
  TVMFFIAny out;
  out.type_index = kTVMFFIInt;
  out.zero_padding = 0;
  out.v_int64 = KeyObj(value)->hash_i64;
  return out;
}

/*! \brief Native __any_equal__ adapter: equal hashes and structurally equal keys, or an Error. */
TVMFFIAny StructuralKeyAnyEqual(const TVMFFIAny* lhs, const TVMFFIAny* rhs) noexcept {
  const StructuralKeyObj* l = KeyObj(lhs);
  const StructuralKeyObj* r = KeyObj(rhs);
  TVMFFIAny out;
  out.type_index = kTVMFFIBool;
  out.zero_padding = 0;
  try {
    out.v_int64 =
        l == r || (l->hash_i64 == r->hash_i64 && structural::Equal(l->key, r->key, false, false));
  } catch (const Error& err) {
    return AnyUnsafe::MoveAnyToTVMFFIAny(Any(err));
  } catch (const std::exception& err) {
    return AnyUnsafe::MoveAnyToTVMFFIAny(Any(Error("InternalError", err.what())));
  }
  return out;
}

}  // namespace
}  // namespace detail

TVM_FFI_STATIC_INIT_BLOCK() {
  namespace refl = reflection;
  refl::ObjectDef<StructuralKeyObj>()
      .def_ro("key", &StructuralKeyObj::key)
      .def_ro("hash_i64", &StructuralKeyObj::hash_i64)
      .def(refl::init<Any>(), "Constructor that takes any key and computes its structural hash")
      .def_type_attr("__any_hash__", reinterpret_cast<void*>(&detail::StructuralKeyAnyHash))
      .def_type_attr("__any_equal__", reinterpret_cast<void*>(&detail::StructuralKeyAnyEqual));
  refl::GlobalDef()
      .def("ffi.StructuralKey", [](Any key) { return StructuralKey(std::move(key)); })
      .def("ffi.StructuralKeyEqual",
           [](const StructuralKey& lhs, const StructuralKey& rhs) { return lhs == rhs; });
}

TVM_FFI_NAMESPACE_END
