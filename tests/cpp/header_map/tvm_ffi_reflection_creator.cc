// tvm/ffi/reflection/creator.h alone gives the names of the header map.
#include <tvm/ffi/reflection/creator.h>

void HeaderMap_tvm_ffi_reflection_creator() {
  namespace refl = tvm::ffi::reflection;
  (void)sizeof(refl::ObjectCreator);
  (void)&refl::CreateEmptyObject;
  (void)&refl::HasCreator;
  (void)&tvm::ffi::details::FFIConvertFromAnyViewToObjectRef<tvm::ffi::ObjectRef>;
}
