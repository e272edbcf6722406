// tvm/ffi/base_detail.h alone gives the names of the header map.
#include <tvm/ffi/base_detail.h>

void HeaderMap_tvm_ffi_base_detail() {
  tvm::ffi::detail::for_each([](size_t, int) {}, 1, 2);
  uint64_t h = tvm::ffi::detail::StableHashCombine(1, tvm::ffi::detail::StableHashBytes("ab", 2));
  TVMFFIAny cell{};
  h += tvm::ffi::detail::StableHashSmallStrBytes(&cell);
  (void)h;
  bool likely = TVM_FFI_PREDICT_TRUE(h == 0) || TVM_FFI_PREDICT_FALSE(h != 0);
  (void)likely;
  (void)sizeof(tvm::ffi::detail::TypeSchemaImpl<int>);
  (void)sizeof(tvm::ffi::detail::TypeSchema<int>);
}
