"""CUDA kernels built with tvm_ffi.cpp and called with torch CUDA tensors.

Every test here needs a visible CUDA device, torch built with CUDA and nvcc; without them the
module is skipped with the reason. The kernels launch on the stream the callee reads through
TVMFFIEnvGetStream, so these tests check what kernel libraries rely on: device tensors arrive as
views of the right device, the caller's torch stream is the one the kernel runs on, and tensors
the kernel allocates come from torch's caching allocator as torch tensors.
"""

import pytest

torch = pytest.importorskip("torch")

import tvm_ffi  # noqa: E402
import tvm_ffi.cpp  # noqa: E402
from gpu_toolchain import nvcc_available  # noqa: E402

if not torch.cuda.is_available():
    pytest.skip("needs a visible CUDA device", allow_module_level=True)
if not nvcc_available():
    pytest.skip("needs nvcc", allow_module_level=True)


KERNELS = r"""
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>
#include <tvm/ffi/extra/dtype.h>

namespace ffi = tvm::ffi;

// The dtype traits name CUDA's own element types once their headers are included.
static_assert(ffi::dtype_trait<__half>::value.code == kDLFloat, "half");
static_assert(ffi::dtype_trait<__half>::value.bits == 16, "half bits");
static_assert(ffi::dtype_trait<__nv_bfloat16>::value.code == kDLBfloat, "bf16");
static_assert(ffi::dtype_trait<__nv_fp8_e4m3>::value.code == kDLFloat8_e4m3fn, "e4m3");
static_assert(ffi::dtype_trait<__nv_fp8_e5m2>::value.code == kDLFloat8_e5m2, "e5m2");

__global__ void AddOneKernel(const float* x, float* y, int64_t n) {
  int64_t i = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x;
  if (i < n) y[i] = x[i] + 1.0f;
}

static cudaStream_t EnvStream(DLDevice dev) {
  return static_cast<cudaStream_t>(TVMFFIEnvGetStream(dev.device_type, dev.device_id));
}

void add_one(ffi::TensorView x, ffi::TensorView y) {
  TVM_FFI_CHECK(x.device().device_type == kDLCUDA, ValueError) << "x must be a CUDA tensor";
  TVM_FFI_CHECK(x.dtype() == ffi::dtype_trait<float>::value, TypeError) << "x must be float32";
  TVM_FFI_CHECK(x.numel() == y.numel(), ValueError) << "x and y differ in size";
  int64_t n = x.numel();
  if (n == 0) return;
  AddOneKernel<<<static_cast<unsigned>((n + 255) / 256), 256, 0, EnvStream(x.device())>>>(
      static_cast<const float*>(x.data_ptr()), static_cast<float*>(y.data_ptr()), n);
  cudaError_t err = cudaGetLastError();
  TVM_FFI_CHECK(err == cudaSuccess, RuntimeError) << cudaGetErrorString(err);
}

int64_t env_stream(ffi::TensorView x) {
  return reinterpret_cast<int64_t>(EnvStream(x.device()));
}

int64_t device_id(ffi::TensorView x) { return x.device().device_id; }

// The stream of CUDA device `id` as set by the caller's context, with no tensor argument.
int64_t raw_env_stream(int64_t id) {
  return reinterpret_cast<int64_t>(TVMFFIEnvGetStream(kDLCUDA, static_cast<int32_t>(id)));
}

// A result allocated through the caller's framework, then filled on the caller's stream.
ffi::Tensor plus_one(ffi::TensorView x) {
  ffi::Tensor y = ffi::Tensor::FromEnvAlloc(TVMFFIEnvTensorAlloc, x.shape(), x.dtype(), x.device());
  add_one(x, y);
  return y;
}
"""


@pytest.fixture(scope="module")
def mod():
    return tvm_ffi.cpp.load_inline(
        "cuda_kernels_test",
        cuda_sources=KERNELS,
        functions=["add_one", "env_stream", "device_id", "raw_env_stream", "plus_one"],
    )


def test_kernel_writes_into_torch_cuda_tensor(mod):
    x = torch.arange(1000, device="cuda", dtype=torch.float32)
    y = torch.empty_like(x)
    mod.add_one(x, y)
    torch.cuda.synchronize()
    assert torch.equal(y, x + 1)


def test_kernel_on_strided_view_reads_its_data_pointer(mod):
    base = torch.arange(20, device="cuda", dtype=torch.float32)
    x = base[4:12]
    y = torch.zeros(8, device="cuda")
    mod.add_one(x, y)
    torch.cuda.synchronize()
    assert torch.equal(y, x + 1)


def test_callee_sees_torch_default_stream_outside_a_stream_context(mod):
    x = torch.zeros(4, device="cuda")
    assert mod.env_stream(x) == torch.cuda.current_stream().cuda_stream


def test_callee_sees_the_stream_of_torch_cuda_stream_context(mod):
    x = torch.zeros(4, device="cuda")
    s = torch.cuda.Stream()
    with torch.cuda.stream(s):
        assert mod.env_stream(x) == s.cuda_stream
    assert mod.env_stream(x) == torch.cuda.current_stream().cuda_stream


def test_kernel_runs_on_the_callers_stream(mod):
    x = torch.arange(1 << 20, device="cuda", dtype=torch.float32)
    y = torch.zeros_like(x)
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        mod.add_one(x, y)
        z = y * 2  # ordered after the kernel only when both are on s
    s.synchronize()
    assert torch.equal(z, (x + 1) * 2)


def test_env_allocated_result_is_a_torch_cuda_tensor(mod):
    x = torch.arange(64, device="cuda", dtype=torch.float32).reshape(8, 8)
    y = mod.plus_one(x)
    assert isinstance(y, torch.Tensor)
    assert y.device == x.device
    assert y.shape == x.shape
    torch.cuda.synchronize()
    assert torch.equal(y, x + 1)


def test_env_allocated_result_under_stream_context_is_ready_on_that_stream(mod):
    x = torch.arange(1 << 16, device="cuda", dtype=torch.float32)
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        y = mod.plus_one(x)
        total = y.sum()
    s.synchronize()
    assert total.item() == float((x + 1).sum().item())


def test_error_raised_in_cuda_translation_unit_reaches_python(mod):
    x = torch.zeros(4, device="cuda", dtype=torch.float64)
    with pytest.raises(TypeError, match="x must be float32"):
        mod.add_one(x, x)


def test_cpu_tensor_passed_to_cuda_kernel_is_a_clear_error(mod):
    with pytest.raises(ValueError, match="x must be a CUDA tensor"):
        mod.add_one(torch.zeros(4), torch.zeros(4))


def test_device_id_of_cuda_argument(mod):
    x = torch.zeros(2, device="cuda:0")
    assert mod.device_id(x) == 0


def test_from_dlpack_of_cuda_tensor_keeps_device_and_memory():
    x = torch.arange(10, device="cuda", dtype=torch.float32)
    t = tvm_ffi.from_dlpack(x)
    assert t.device == tvm_ffi.device("cuda", 0)
    assert t.data_ptr() == x.data_ptr()
    back = torch.from_dlpack(t)
    assert back.device == x.device
    assert back.data_ptr() == x.data_ptr()


def test_use_raw_stream_is_what_a_call_without_tensors_sees(mod):
    s = torch.cuda.Stream()
    with tvm_ffi.use_raw_stream(tvm_ffi.device("cuda", 0), s.cuda_stream):
        assert mod.raw_env_stream(0) == s.cuda_stream
    assert mod.raw_env_stream(0) == 0


def test_use_torch_stream_is_what_a_call_without_tensors_sees(mod):
    s = torch.cuda.Stream()
    with tvm_ffi.use_torch_stream(torch.cuda.stream(s)):
        assert mod.raw_env_stream(0) == s.cuda_stream
    assert mod.raw_env_stream(0) == 0


def test_stream_is_restored_after_a_failing_call(mod):
    x = torch.zeros(4, device="cuda", dtype=torch.float64)
    s = torch.cuda.Stream()
    with torch.cuda.stream(s):
        with pytest.raises(TypeError):
            mod.add_one(x, x)
    assert tvm_ffi.get_raw_stream(tvm_ffi.device("cuda", 0)) == 0
