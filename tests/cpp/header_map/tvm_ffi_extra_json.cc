// tvm/ffi/extra/json.h alone gives the names of the header map.
#include <tvm/ffi/extra/json.h>

void HeaderMap_tvm_ffi_extra_json() {
  tvm::ffi::json::Object obj;
  tvm::ffi::json::Array arr;
  tvm::ffi::String err;
  tvm::ffi::json::Value v = tvm::ffi::json::Parse("[1]", &err);
  (void)tvm::ffi::json::Stringify(v, 2);
  (void)obj;
  (void)arr;
}
