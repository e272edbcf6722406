// The quickstart kernel: y[i] = x[i] + 1 over two float32 1-d CPU tensors.
// run.py compiles this file with tvm_ffi.cpp.load_inline, which also exports
// add_one; TensorView parameters borrow the caller's memory (numpy arrays
// here), so nothing is copied in or out.
#include <tvm/ffi/container/tensor.h>
#include <tvm/ffi/error.h>

#include <cstdint>

namespace {

void CheckFloat32Vector(const tvm::ffi::TensorView& t, const char* name) {
  using tvm::ffi::operator==;
  TVM_FFI_CHECK(t.ndim() == 1, ValueError) << name << " must be 1-d, got ndim=" << t.ndim();
  TVM_FFI_CHECK(t.dtype() == (DLDataType{kDLFloat, 32, 1}), TypeError)
      << name << " must be float32, got " << tvm::ffi::DLDataTypeToString(t.dtype());
  TVM_FFI_CHECK(t.device().device_type == kDLCPU, ValueError) << name << " must be on the CPU";
  TVM_FFI_CHECK(t.IsContiguous(), ValueError) << name << " must be contiguous";
}

}  // namespace

void add_one(tvm::ffi::TensorView x, tvm::ffi::TensorView y) {
  CheckFloat32Vector(x, "x");
  CheckFloat32Vector(y, "y");
  TVM_FFI_CHECK(x.numel() == y.numel(), ValueError)
      << "x and y differ in length: " << x.numel() << " vs " << y.numel();
  const float* src = static_cast<const float*>(x.data_ptr());
  float* dst = static_cast<float*>(y.data_ptr());
  for (int64_t i = 0; i < x.numel(); ++i) dst[i] = src[i] + 1.0f;
}
