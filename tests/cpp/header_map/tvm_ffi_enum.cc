// tvm/ffi/enum.h alone gives the names of the header map.
#include <tvm/ffi/enum.h>

void HeaderMap_tvm_ffi_enum() {
  namespace ffi = tvm::ffi;
  (void)sizeof(ffi::EnumStateObj);
  (void)sizeof(ffi::EnumState);
  (void)sizeof(ffi::EnumObj);
  (void)sizeof(ffi::IntEnumObj);
  (void)sizeof(ffi::StrEnumObj);
  (void)sizeof(ffi::Enum);
  (void)sizeof(ffi::IntEnum);
  (void)sizeof(ffi::StrEnum);
  ffi::Enum (*by_int)(int32_t, int64_t) = &ffi::EnumObj::_GetByIntIndex;
  ffi::Enum (*by_str)(int32_t, const ffi::String&) = &ffi::EnumObj::_GetByStrIndex;
  (void)by_int;
  (void)by_str;
}
