// tvm/ffi/any.h alone gives the names of the header map.
#include <tvm/ffi/any.h>

void HeaderMap_tvm_ffi_any() {
  tvm::ffi::Any a = 1;
  tvm::ffi::AnyView v = a;
  tvm::Any ta = a;
  tvm::AnyView tv = v;
  (void)ta;
  (void)tv;
  tvm::ffi::String s = "x";
  tvm::ffi::Bytes b;
  (void)s;
  (void)b;
  (void)sizeof(tvm::ffi::Error);
  (void)sizeof(tvm::ffi::Object);
}
