// tvm/ffi/reflection/overload.h alone gives the names of the header map.
#include <tvm/ffi/reflection/overload.h>

namespace {
int64_t HeaderMapOverloadTarget(int64_t x) { return x; }
}  // namespace

void HeaderMap_tvm_ffi_reflection_overload() {
  namespace refl = tvm::ffi::reflection;
  (void)sizeof(refl::OverloadObjectDef<tvm::ffi::Object>*);
  auto fn = refl::overload_cast<int64_t>(&HeaderMapOverloadTarget);
  (void)fn;
  (void)refl::const_;
}
