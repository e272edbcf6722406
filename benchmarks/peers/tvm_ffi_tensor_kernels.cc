/*
 * Tensor kernels for the torch rows of bench_calls.py, built twice: against
 * this tree's headers and against the apache-tvm-ffi wheel's (the peer, timed
 * in its own process), from the same source.
 */
#include <tvm/ffi/container/tensor.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/function.h>
#if __has_include(<tvm/ffi/extra/c_env_api.h>)
#include <tvm/ffi/extra/c_env_api.h>
#endif

#include <string>

namespace ffi = tvm::ffi;

namespace {

void ViewNop1(ffi::TensorView) {}
void ViewNop2(ffi::TensorView, ffi::TensorView) {}
void ViewNop4(ffi::TensorView, ffi::TensorView, ffi::TensorView, ffi::TensorView) {}
void TensorNop(ffi::Tensor) {}

void SetError(void* ctx, const char* kind, const char* message) {
  *static_cast<std::string*>(ctx) = std::string(kind) + ": " + message;
}

// A tensor like x from the environment allocator (the caller's framework).
ffi::Tensor EnvAllocLike(ffi::TensorView x) {
  DLPackManagedTensorAllocator alloc = TVMFFIEnvGetDLPackManagedTensorAllocator();
  if (alloc == nullptr) TVM_FFI_THROW(RuntimeError) << "no environment allocator";
  DLTensor proto{};
  proto.device = x.device();
  proto.dtype = x.dtype();
  proto.ndim = static_cast<int32_t>(x.ndim());
  proto.shape = const_cast<int64_t*>(x.shape().data());
  DLManagedTensorVersioned* out = nullptr;
  std::string err;
  if (alloc(&proto, &out, &err, SetError) != 0) TVM_FFI_THROW(RuntimeError) << err;
  return ffi::Tensor::FromDLPackVersioned(out);
}

}  // namespace

#define TVM_FFI_DLL_EXPORT_INCLUDE_METADATA 1
TVM_FFI_DLL_EXPORT_TYPED_FUNC(view_nop1, ViewNop1);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(view_nop2, ViewNop2);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(view_nop4, ViewNop4);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(tensor_nop, TensorNop);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(env_alloc_like, EnvAllocLike);
