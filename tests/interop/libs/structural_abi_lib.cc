// Calls StructuralEqual::Equal / GetFirstMismatch, StructuralHash::Hash and
// the StructuralKey constructor from compiled code. Built with the wheel's
// headers, these link to C++ entry points of libtvm_ffi, so loading it under
// our runtime checks that ours exports them under the wheel's names.
#include <tvm/ffi/any.h>
#include <tvm/ffi/extra/structural_equal.h>
#include <tvm/ffi/extra/structural_hash.h>
#include <tvm/ffi/extra/structural_key.h>
#include <tvm/ffi/function.h>

#include <cstdint>

namespace ffi = tvm::ffi;

namespace {

int64_t HashOf(ffi::Any value, bool map_free_vars) {
  return static_cast<int64_t>(ffi::StructuralHash::Hash(value, map_free_vars, false));
}

bool EqualOf(ffi::Any lhs, ffi::Any rhs, bool map_free_vars) {
  return ffi::StructuralEqual::Equal(lhs, rhs, map_free_vars, false);
}

ffi::Any MismatchOf(ffi::Any lhs, ffi::Any rhs) {
  auto paths = ffi::StructuralEqual::GetFirstMismatch(lhs, rhs, false, false);
  if (!paths.has_value()) return ffi::Any();
  return ffi::Any(paths.value());
}

bool KeysEqual(ffi::Any lhs, ffi::Any rhs) {
  return ffi::StructuralKey(lhs) == ffi::StructuralKey(rhs);
}

}  // namespace

TVM_FFI_DLL_EXPORT_TYPED_FUNC(hash_of, HashOf);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(equal_of, EqualOf);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(mismatch_of, MismatchOf);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(keys_equal, KeysEqual);
