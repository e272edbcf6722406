// tvm/ffi/memory.h alone gives the names of the header map.
#include <tvm/ffi/memory.h>

void HeaderMap_tvm_ffi_memory() {
  tvm::ffi::FObjectDeleter del = nullptr;
  (void)del;
  (void)&tvm::ffi::make_object<tvm::ffi::Object>;
  (void)&tvm::ffi::make_arc<tvm::ffi::Object>;
  (void)&tvm::ffi::make_inplace_array_object<tvm::ffi::Object, char>;
  (void)&tvm::ffi::detail::AlignedAlloc;
  (void)&tvm::ffi::detail::AlignedFree;
  (void)sizeof(tvm::ffi::detail::SimpleObjAllocator);
}
