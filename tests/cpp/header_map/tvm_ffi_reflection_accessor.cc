// tvm/ffi/reflection/accessor.h alone gives the names of the header map.
#include <tvm/ffi/reflection/accessor.h>

void HeaderMap_tvm_ffi_reflection_accessor() {
  namespace refl = tvm::ffi::reflection;
  (void)sizeof(refl::FieldGetter);
  (void)sizeof(refl::FieldSetter);
  (void)&refl::GetFieldInfo;
  (void)&refl::GetMethodInfo;
  (void)&refl::SetFieldToDefault;
  constexpr TVMFFIByteArray name = refl::AsByteArray("x");
  static_assert(name.size == 1, "AsByteArray is constexpr");
}
