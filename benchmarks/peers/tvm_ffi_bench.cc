// Benchmark-only functions bound through tvm-ffi; bench_calls.py compiles this
// file with `tvm-ffi-config --cxxflags --ldflags --libs` and loads it with
// tvm_ffi.load_module. The same functions exist in the peer bindings next to
// this file so every row of the table measures the same work.
//
// Exported with metadata (as tvm_ffi.cpp.load_inline does): the type schema
// tells the binding that tensor_data_ptr takes a TensorView, so numpy arrays
// are passed as stack DLTensor views rather than as Tensor objects.
#define TVM_FFI_DLL_EXPORT_INCLUDE_METADATA 1
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/tensor.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/string.h>

#include <cstdint>

namespace {

void Nop() {}

int64_t F3(int64_t a, int64_t b, int64_t c) { return a + b + c; }

int64_t AddOne(int64_t x) { return x + 1; }

tvm::ffi::String Echo(tvm::ffi::String s) { return s; }

int64_t SumList(tvm::ffi::Array<int64_t> values) {
  int64_t total = 0;
  for (int64_t v : values) total += v;
  return total;
}

// Calls back into Python once: measures the C++ -> Python direction.
int64_t CallCallback(tvm::ffi::Function cb) { return cb(1).cast<int64_t>(); }

// Reads the data pointer only: the cost measured is the argument conversion.
int64_t TensorDataPtr(tvm::ffi::TensorView t) {
  return static_cast<int64_t>(reinterpret_cast<intptr_t>(t.data_ptr()));
}

}  // namespace

TVM_FFI_DLL_EXPORT_TYPED_FUNC(nop, Nop);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(f3, F3);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(add_one, AddOne);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(echo, Echo);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(sum_list, SumList);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(call_callback, CallCallback);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(tensor_data_ptr, TensorDataPtr);
