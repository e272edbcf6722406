// The export example of the C++ guide, built by CMake as its own shared
// library (example_export_lib) and loaded by path in test_example.cc.
#define TVM_FFI_DLL_EXPORT_INCLUDE_METADATA 1
#include <tvm/ffi/container/tensor.h>
#include <tvm/ffi/function.h>

namespace ffi = tvm::ffi;

namespace my_ffi_extension {
// y[i] = x[i] + 1 over float32 tensors of the same size.
void AddOne(DLTensor* x, DLTensor* y) {
  int64_t n = 1;
  for (int i = 0; i < x->ndim; ++i) n *= x->shape[i];
  const float* src = static_cast<const float*>(x->data);
  float* dst = static_cast<float*>(y->data);
  for (int64_t i = 0; i < n; ++i) dst[i] = src[i] + 1.0f;
}
}  // namespace my_ffi_extension

TVM_FFI_DLL_EXPORT_TYPED_FUNC(add_one, my_ffi_extension::AddOne);

// output = input * 2, elementwise over float32.
void ProcessBatch(ffi::TensorView input, ffi::TensorView output) {
  const float* src = static_cast<const float*>(input.data_ptr());
  float* dst = static_cast<float*>(output.data_ptr());
  for (int64_t i = 0; i < input.numel(); ++i) dst[i] = src[i] * 2.0f;
}
// Export the function
TVM_FFI_DLL_EXPORT_TYPED_FUNC(process_batch, ProcessBatch);
// Export documentation separately (make sure TVM_FFI_DLL_EXPORT_INCLUDE_METADATA is set to 1)
TVM_FFI_DLL_EXPORT_TYPED_FUNC_DOC(process_batch,
                                  R"(Process a batch of inputs and write results to output tensor.

Parameters
----------
input : TensorView
    Input tensor to process
output : TensorView
    Output tensor for results)");
