// tvm/ffi/reflection/access_path.h alone gives the names of the header map.
#include <tvm/ffi/reflection/access_path.h>

void HeaderMap_tvm_ffi_reflection_access_path() {
  namespace refl = tvm::ffi::reflection;
  (void)refl::AccessKind::kMapItemMissing;
  (void)sizeof(refl::AccessStepObj);
  (void)sizeof(refl::AccessStep);
  (void)sizeof(refl::AccessPathObj);
  (void)sizeof(refl::AccessPath);
  (void)sizeof(refl::AccessPathPair);
  (void)&refl::AccessPath::Root;
  (void)&refl::AccessStep::MapItemMissing;
}
