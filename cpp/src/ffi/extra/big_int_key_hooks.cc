/*
 * The __any_hash__ / __any_equal__ hooks of BigInt: Map and Dict keys that
 * are heap BigInts compare by value (AnyHash / AnyEqual consult the hooks),
 * so two equal BigInts made separately find the same entry.
 */
#include <tvm/ffi/any.h>
#include <tvm/ffi/big_int.h>
#include <tvm/ffi/reflection/registry.h>

#include <cstring>

TVM_FFI_NAMESPACE_BEGIN
namespace detail {
namespace {

const BigIntObj* BigObj(const TVMFFIAny* cell) {
  return reinterpret_cast<const BigIntObj*>(cell->v_obj);
}

/*! \brief Native __any_hash__ adapter: the stable hash of the words. */
TVMFFIAny BigIntAnyHash(const TVMFFIAny* value) noexcept {
  const BigIntObj* big = BigObj(value);
  TVMFFIAny out;
  out.type_index = kTVMFFIInt;
  out.zero_padding = 0;
  out.v_uint64 = StableHashBytes(big->words(), big->num_words * sizeof(int64_t));
  return out;
}

/*! \brief Native __any_equal__ adapter: the same words. */
TVMFFIAny BigIntAnyEqual(const TVMFFIAny* lhs, const TVMFFIAny* rhs) noexcept {
  const BigIntObj* l = BigObj(lhs);
  const BigIntObj* r = BigObj(rhs);
  TVMFFIAny out;
  out.type_index = kTVMFFIBool;
  out.zero_padding = 0;
  out.v_int64 = l->num_words == r->num_words &&
                std::memcmp(l->words(), r->words(), l->num_words * sizeof(int64_t)) == 0;
  return out;
}

}  // namespace
}  // namespace detail

TVM_FFI_STATIC_INIT_BLOCK() {
  reflection::TypeAttrDef<detail::BigIntObj>()
      .def("__any_hash__", reinterpret_cast<void*>(&detail::BigIntAnyHash))
      .def("__any_equal__", reinterpret_cast<void*>(&detail::BigIntAnyEqual));
}

TVM_FFI_NAMESPACE_END
