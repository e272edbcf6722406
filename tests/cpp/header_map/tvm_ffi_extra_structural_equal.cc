// tvm/ffi/extra/structural_equal.h alone gives the names of the header map.
#include <tvm/ffi/extra/structural_equal.h>

void HeaderMap_tvm_ffi_extra_structural_equal() {
  (void)&tvm::ffi::StructuralEqual::Equal;
  (void)&tvm::ffi::StructuralEqual::GetFirstMismatch;
  (void)sizeof(tvm::ffi::reflection::AccessPath);
}
