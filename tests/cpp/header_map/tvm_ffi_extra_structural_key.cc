// tvm/ffi/extra/structural_key.h alone gives the names of the header map.
#include <tvm/ffi/extra/structural_key.h>

#include <functional>

void HeaderMap_tvm_ffi_extra_structural_key() {
  (void)sizeof(tvm::ffi::StructuralKeyObj);
  (void)sizeof(tvm::ffi::StructuralKey);
  (void)sizeof(std::hash<tvm::ffi::StructuralKey>);
  (void)&tvm::ffi::StructuralEqual::Equal;
  (void)&tvm::ffi::StructuralHash::Hash;
}
