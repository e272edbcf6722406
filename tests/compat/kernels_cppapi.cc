// Source-compatibility check: kernels written the way users write them
// against the apache-tvm-ffi 0.1.x C++ API (only public headers, the usual
// macros and member spellings); it compiles unchanged against the upstream
// 0.1.15 headers too. This file is compiled into the test binary;
// tests/cpp/test_compat_cppapi.cc calls the exported symbols.
#include <tvm/ffi/container/tensor.h>
#include <tvm/ffi/dtype.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/expected.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/string.h>

#include <cstdint>
#include <string>

namespace compat_kernels {

namespace ffi = tvm::ffi;

// out[i, j] = x[i, j] * scale for a 2-d float32 tensor of any strides.
void ScaleRows(ffi::TensorView x, ffi::TensorView out, double scale) {
  TVM_FFI_CHECK_EQ(x.dim(), 2, ValueError) << "x must be 2-d";
  TVM_FFI_CHECK_EQ(out.dim(), 2, ValueError) << "out must be 2-d";
  TVM_FFI_CHECK(x.dtype() == DLDataType({kDLFloat, 32, 1}), TypeError) << "x must be float32";
  TVM_FFI_CHECK(ffi::DTypeIsFloat(out.dtype()), TypeError) << "out must be floating point";
  TVM_FFI_CHECK_EQ(x.size(0), out.size(0), ValueError) << "row count differs";
  TVM_FFI_CHECK_EQ(x.size(-1), out.size(-1), ValueError) << "column count differs";
  const float* src = static_cast<const float*>(x.data_ptr());
  float* dst = static_cast<float*>(out.data_ptr());
  for (int64_t i = 0; i < x.size(0); ++i) {
    for (int64_t j = 0; j < x.size(1); ++j) {
      dst[i * out.stride(0) + j * out.stride(1)] =
          static_cast<float>(src[i * x.stride(0) + j * x.stride(1)] * scale);
    }
  }
}

// Sum of a 1-d int64 tensor; the output tensor is nullable.
int64_t SumInt64(ffi::Tensor x) {
  if (!x.defined()) return 0;
  TVM_FFI_ICHECK_EQ(x.ndim(), 1);
  TVM_FFI_CHECK(x.is_contiguous(), ValueError) << "x must be contiguous";
  const int64_t* data = static_cast<const int64_t*>(x.data_ptr());
  int64_t total = 0;
  for (int64_t i = 0; i < x.numel(); ++i) total += data[i];
  return total;
}

// A name check in the style of kernel dispatch tables.
bool IsCudaKernelName(ffi::String name) {
  return name.starts_with("cuda_") && !name.ends_with("_ref") &&
         name.find("__") == ffi::String::npos;
}

ffi::Expected<int64_t> ParsePositive(const ffi::String& text) {
  TVM_FFI_RET_CHECK(!text.empty(), ValueError) << "empty input";
  int64_t value = 0;
  for (char c : std::string(text)) {
    if (c < '0' || c > '9') return TVM_FFI_UNEXPECTED(ValueError) << "not a digit: " << c;
    value = value * 10 + (c - '0');
  }
  TVM_FFI_RET_CHECK_GT(value, 0, ValueError);
  return value;
}

// Uses Expected without throwing, then turns it into an exception at the boundary.
int64_t ParseOrThrow(ffi::String text) { return ParsePositive(text).value(); }

std::string DTypeName(DLDataType dtype) { return ffi::DTypeAbbrev(dtype); }

}  // namespace compat_kernels

TVM_FFI_DLL_EXPORT_TYPED_FUNC(compat_scale_rows, compat_kernels::ScaleRows);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(compat_sum_int64, compat_kernels::SumInt64);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(compat_is_cuda_kernel_name, compat_kernels::IsCudaKernelName);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(compat_parse_or_throw, compat_kernels::ParseOrThrow);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(compat_dtype_name, compat_kernels::DTypeName);
