// dlpack/dlpack.h alone gives the names of the header map.
#include <dlpack/dlpack.h>

void HeaderMap_dlpack_dlpack() {
  DLTensor t{};
  DLManagedTensorVersioned* mtv = nullptr;
  (void)t;
  (void)mtv;
}
