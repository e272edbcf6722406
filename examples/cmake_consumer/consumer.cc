// The library of the CMake consumer example: plain C++ functions exported
// with TVM_FFI_DLL_EXPORT_TYPED_FUNC, callable from Python once run.py loads
// the built consumer.so with tvm_ffi.load_module. Metadata export is on, so
// the type schemas and the doc strings are exported too.
#define TVM_FFI_DLL_EXPORT_INCLUDE_METADATA 1

#include <tvm/ffi/container/array.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/string.h>

#include <cstdint>
#include <string>

namespace {

tvm::ffi::String Greet(const tvm::ffi::String& who) {
  return tvm::ffi::String("hello, " + std::string(who) + " from C++");
}

int64_t SumAll(const tvm::ffi::Array<int64_t>& values) {
  int64_t total = 0;
  for (int64_t v : values) total += v;
  return total;
}

}  // namespace

TVM_FFI_DLL_EXPORT_TYPED_FUNC(greet, Greet);
TVM_FFI_DLL_EXPORT_TYPED_FUNC_DOC(greet, "Return a greeting for `who`.");
TVM_FFI_DLL_EXPORT_TYPED_FUNC(sum_all, SumAll);
TVM_FFI_DLL_EXPORT_TYPED_FUNC_DOC(sum_all, "Sum a list of integers.");
