// The extension library of the skbuild_ext consumer package.
#include <tvm/ffi/error.h>
#include <tvm/ffi/function.h>

namespace {
int64_t AddInts(int64_t a, int64_t b) { return a + b; }
void RaiseError(tvm::ffi::String msg) { TVM_FFI_THROW(RuntimeError) << msg; }
}  // namespace

TVM_FFI_DLL_EXPORT_TYPED_FUNC(add_ints, AddInts);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(raise_error, RaiseError);
