// tvm/ffi/extra/dataclass.h alone gives the names of the header map.
#include <tvm/ffi/extra/dataclass.h>

#include <sstream>

void HeaderMap_tvm_ffi_extra_dataclass() {
  tvm::ffi::Any v = 1;
  (void)tvm::ffi::DeepCopy(v);
  (void)tvm::ffi::ReprPrint(v);
  (void)tvm::ffi::RecursiveHash(v);
  (void)tvm::ffi::RecursiveEq(v, v);
  (void)tvm::ffi::RecursiveLt(v, v);
  (void)tvm::ffi::RecursiveLe(v, v);
  (void)tvm::ffi::RecursiveGt(v, v);
  (void)tvm::ffi::RecursiveGe(v, v);
  std::ostringstream os;
  os << v << tvm::ffi::ObjectRef() << tvm::ffi::Optional<int>() << tvm::ffi::Variant<int, float>(1);
}
