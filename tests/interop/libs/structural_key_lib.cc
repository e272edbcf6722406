// Inserts keys into a Map and a Dict with inline header code and reports how
// many distinct keys each holds. Built with one implementation's headers and
// run on the other's runtime, it checks that inline AnyHash/AnyEqual consult
// the runtime's __any_hash__/__any_equal__ hooks (StructuralKey, BigInt).
#include <tvm/ffi/any.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/dict.h>
#include <tvm/ffi/container/map.h>
#include <tvm/ffi/function.h>

#include <cstdint>

namespace ffi = tvm::ffi;

namespace {

int64_t DistinctInMap(const ffi::Array<ffi::Any>& keys) {
  ffi::Map<ffi::Any, ffi::Any> m;
  for (const ffi::Any& k : keys) m.Set(k, ffi::Any(1));
  return static_cast<int64_t>(m.size());
}

int64_t DistinctInDict(const ffi::Array<ffi::Any>& keys) {
  ffi::Dict<ffi::Any, ffi::Any> d;
  for (const ffi::Any& k : keys) d.Set(k, ffi::Any(1));
  return static_cast<int64_t>(d.size());
}

}  // namespace

TVM_FFI_DLL_EXPORT_TYPED_FUNC(distinct_in_map, DistinctInMap);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(distinct_in_dict, DistinctInDict);
