// tvm/ffi/extra/serialization.h alone gives the names of the header map.
#include <tvm/ffi/extra/serialization.h>

void HeaderMap_tvm_ffi_extra_serialization() {
  tvm::ffi::json::Value graph = tvm::ffi::ToJSONGraph(tvm::ffi::Any(1));
  (void)tvm::ffi::ToJSONGraph(tvm::ffi::Any(1), tvm::ffi::Any(nullptr));
  (void)tvm::ffi::FromJSONGraph(graph);
}
