/*
 * The reflected enum base types of tvm/ffi/enum.h: ffi.EnumState, ffi.Enum,
 * ffi.IntEnum and ffi.StrEnum (fields, offsets and flags are ABI: Python and
 * libraries of either implementation read them).
 */
#include <tvm/ffi/enum.h>
#include <tvm/ffi/reflection/registry.h>

TVM_FFI_NAMESPACE_BEGIN
namespace {

TVM_FFI_STATIC_INIT_BLOCK() {
  namespace refl = ::tvm::ffi::reflection;
  refl::ObjectDef<EnumStateObj>()
      .def_ro("entries", &EnumStateObj::entries, "Enum singletons in registration order.",
              refl::init(false))
      .def_ro("indexes", &EnumStateObj::indexes,
              "Canonical integer and string indices to enum singletons.", refl::init(false))
      .def_ro("attrs", &EnumStateObj::attrs,
              "Extensible-attribute columns keyed by enum singleton.", refl::init(false))
      .def(refl::init<>());
  refl::ObjectDef<EnumObj>(refl::init(false))
      .def_ro("_int_index", &EnumObj::_int_index, "Canonical integer index.",
              refl::AttachFieldFlag::SEqHashIgnore())
      .def_ro("_str_index", &EnumObj::_str_index, "Canonical string index.");
  // `value` aliases the index that is the enum's public value.
  refl::ObjectDef<IntEnumObj>(refl::init(false))
      .def_ro("value", &IntEnumObj::_int_index, "Canonical integer index.", refl::init(false),
              refl::AttachFieldFlag::SEqHashIgnore())
      .def_convert<IntEnum>();
  refl::ObjectDef<StrEnumObj>(refl::init(false))
      .def_ro("value", &StrEnumObj::_str_index, "Canonical string index.", refl::init(false),
              refl::AttachFieldFlag::SEqHashIgnore())
      .def_convert<StrEnum>();
}

}  // namespace
TVM_FFI_NAMESPACE_END
