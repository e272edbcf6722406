// A module built by CMake through find_package(tvm_ffi) and tvm_ffi_configure_target.
#include <tvm/ffi/function.h>
#include <tvm/ffi/string.h>

namespace {
int64_t Triple(int64_t x) { return 3 * x; }
tvm::ffi::String SourceFile() { return tvm::ffi::String(__FILE__); }
}  // namespace

TVM_FFI_DLL_EXPORT_TYPED_FUNC(triple, Triple);
// tvm_ffi_configure_target maps the source directory away: __FILE__ is relative.
TVM_FFI_DLL_EXPORT_TYPED_FUNC(source_file, SourceFile);
