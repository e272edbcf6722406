// Calls the kernels of tests/compat/kernels_cppapi.cc (written against the
// upstream 0.1.x API) through their exported safe-call symbols.
#include <gtest/gtest.h>
#include <tvm/ffi/container/tensor.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/string.h>

#include <cstdlib>
#include <vector>

#include "testing_helpers.h"

extern "C" {
int __tvm_ffi_compat_scale_rows(void*, const TVMFFIAny*, int32_t, TVMFFIAny*);
int __tvm_ffi_compat_sum_int64(void*, const TVMFFIAny*, int32_t, TVMFFIAny*);
int __tvm_ffi_compat_is_cuda_kernel_name(void*, const TVMFFIAny*, int32_t, TVMFFIAny*);
int __tvm_ffi_compat_parse_or_throw(void*, const TVMFFIAny*, int32_t, TVMFFIAny*);
int __tvm_ffi_compat_dtype_name(void*, const TVMFFIAny*, int32_t, TVMFFIAny*);
}

namespace {

namespace ffi = tvm::ffi;
using ffi::Function;
using tvm_ffi_testing::CatchError;

// Exported symbols ignore their first argument.
Function Exported(TVMFFISafeCallType f) { return Function::FromExternC(nullptr, f, nullptr); }

struct MallocAlloc {
  void AllocData(DLTensor* t) { t->data = std::calloc(1, ffi::GetDataSize(*t) + 1); }
  void FreeData(DLTensor* t) { std::free(t->data); }
};

TEST(CompatKernels, ScaleRowsFollowsStrides) {
  ffi::Tensor x = ffi::Tensor::FromNDAlloc(MallocAlloc(), {2, 3}, {kDLFloat, 32, 1}, {kDLCPU, 0});
  float* xs = static_cast<float*>(x.data_ptr());
  for (int i = 0; i < 6; ++i) xs[i] = static_cast<float>(i);
  ffi::Tensor out_t =
      ffi::Tensor::FromNDAlloc(MallocAlloc(), {3, 2}, {kDLFloat, 32, 1}, {kDLCPU, 0});
  // out is the transpose of a 3x2 buffer: a 2x3 view with strides (1, 2).
  ffi::Tensor out = out_t.as_strided({2, 3}, {1, 2});
  Exported(__tvm_ffi_compat_scale_rows)(x, out, 2.0);
  float* os = static_cast<float*>(out_t.data_ptr());
  EXPECT_FLOAT_EQ(os[0], 0.0f);   // out[0, 0]
  EXPECT_FLOAT_EQ(os[1], 6.0f);   // out[1, 0] = 2 * x[1, 0]
  EXPECT_FLOAT_EQ(os[2], 2.0f);   // out[0, 1]
  EXPECT_FLOAT_EQ(os[5], 10.0f);  // out[1, 2]
}

TEST(CompatKernels, ScaleRowsRejectsBadRank) {
  ffi::Tensor x = ffi::Tensor::FromNDAlloc(MallocAlloc(), {4}, {kDLFloat, 32, 1}, {kDLCPU, 0});
  ffi::Error e = CatchError([&] { Exported(__tvm_ffi_compat_scale_rows)(x, x, 1.0); });
  EXPECT_EQ(e.kind(), "ValueError");
  EXPECT_EQ(e.message(), "Check failed: x.dim() == 2 (1 vs. 2) : x must be 2-d");
}

TEST(CompatKernels, SumAcceptsNoneAsAnUndefinedTensor) {
  Function sum = Exported(__tvm_ffi_compat_sum_int64);
  EXPECT_EQ(sum(nullptr).cast<int64_t>(), 0);
  ffi::Tensor x = ffi::Tensor::FromNDAlloc(MallocAlloc(), {3}, {kDLInt, 64, 1}, {kDLCPU, 0});
  int64_t* xs = static_cast<int64_t*>(x.data_ptr());
  xs[0] = 1;
  xs[1] = 2;
  xs[2] = 39;
  EXPECT_EQ(sum(x).cast<int64_t>(), 42);
}

TEST(CompatKernels, StringPredicates) {
  Function f = Exported(__tvm_ffi_compat_is_cuda_kernel_name);
  EXPECT_TRUE(f("cuda_gemm").cast<bool>());
  EXPECT_FALSE(f("cuda_gemm_ref").cast<bool>());
  EXPECT_FALSE(f("cpu_gemm").cast<bool>());
  EXPECT_FALSE(f("cuda__x").cast<bool>());
}

TEST(CompatKernels, ExpectedErrorsBecomeExceptions) {
  Function f = Exported(__tvm_ffi_compat_parse_or_throw);
  EXPECT_EQ(f("123").cast<int64_t>(), 123);
  ffi::Error e = CatchError([&] { f("12x"); });
  EXPECT_EQ(e.kind(), "ValueError");
  EXPECT_EQ(e.message(), "not a digit: x");
  EXPECT_EQ(CatchError([&] { f(""); }).message(),
            "Check failed: (!text.empty()) is false: empty input");
}

TEST(CompatKernels, DTypeAbbrev) {
  Function f = Exported(__tvm_ffi_compat_dtype_name);
  EXPECT_EQ(f(DLDataType{kDLFloat, 16, 1}).cast<std::string>(), "f16");
}

}  // namespace
