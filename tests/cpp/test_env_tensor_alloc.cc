// Tests of tensor allocation through the environment: TVMFFIEnvTensorAlloc
// (the C function) and Tensor::FromEnvAlloc (the C++ entry), with a DLPack
// allocator installed by TVMFFIEnvSetDLPackManagedTensorAllocator.
#include <gtest/gtest.h>
#include <tvm/ffi/container/tensor.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/extra/c_env_api.h>

#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "testing_helpers.h"

namespace {

namespace ffi = tvm::ffi;
using tvm_ffi_testing::CatchError;

constexpr DLDataType kF32{kDLFloat, 32, 1};
constexpr DLDevice kCPU{kDLCPU, 0};

int g_allocs = 0;
int g_frees = 0;
std::vector<int64_t> g_last_shape;
DLTensor g_last_request;

/*! \brief What the test allocator hands out: the struct, its shape, and the data. */
struct Produced {
  DLManagedTensorVersioned managed;
  std::vector<int64_t> shape;
};

void DeleteProduced(DLManagedTensorVersioned* self) {
  Produced* p = static_cast<Produced*>(self->manager_ctx);
  std::free(p->managed.dl_tensor.data);
  delete p;
  ++g_frees;
}

/*!
 * \brief A DLPack allocator without strides. Shapes starting with 13 fail
 *  through SetError; 14 returns success with no tensor.
 */
int TestAllocator(DLTensor* prototype, DLManagedTensorVersioned** out, void* error_ctx,
                  void (*set_error)(void*, const char*, const char*)) {
  g_last_request = *prototype;
  if (prototype->ndim > 0 && prototype->shape[0] == 13) {
    set_error(error_ctx, "MemoryError", "13 is unlucky");
    return -2;
  }
  if (prototype->ndim > 0 && prototype->shape[0] == 14) {
    *out = nullptr;
    return 0;
  }
  ++g_allocs;
  Produced* p = new Produced();
  p->shape.assign(prototype->shape, prototype->shape + prototype->ndim);
  g_last_shape = p->shape;
  DLManagedTensorVersioned& m = p->managed;
  m.version = DLPackVersion{DLPACK_MAJOR_VERSION, DLPACK_MINOR_VERSION};
  m.manager_ctx = p;
  m.deleter = DeleteProduced;
  m.flags = 0;
  m.dl_tensor.device = prototype->device;
  m.dl_tensor.dtype = prototype->dtype;
  m.dl_tensor.ndim = prototype->ndim;
  m.dl_tensor.shape = p->shape.data();
  m.dl_tensor.strides = nullptr;
  m.dl_tensor.byte_offset = 0;
  m.dl_tensor.data = std::malloc(64);
  *out = &m;
  return 0;
}

/*! \brief Installs TestAllocator for the calling thread while alive. */
class ScopedAllocator {
 public:
  explicit ScopedAllocator(DLPackManagedTensorAllocator alloc) {
    EXPECT_EQ(TVMFFIEnvSetDLPackManagedTensorAllocator(alloc, 0, &original_), 0);
  }
  ~ScopedAllocator() { TVMFFIEnvSetDLPackManagedTensorAllocator(original_, 0, nullptr); }

 private:
  DLPackManagedTensorAllocator original_ = nullptr;
};

ffi::Error TakeRaised() { return ffi::detail::MoveFromRaised(); }

TEST(EnvTensorAlloc, AllocatesThroughTheInstalledAllocator) {
  ScopedAllocator scope(TestAllocator);
  int before = g_allocs;
  int64_t shape[] = {2, 3, 4};
  DLTensor prototype;
  prototype.data = reinterpret_cast<void*>(0x1234);  // ignored
  prototype.device = kCPU;
  prototype.ndim = 3;
  prototype.dtype = kF32;
  prototype.shape = shape;
  prototype.strides = shape;   // ignored
  prototype.byte_offset = 99;  // ignored
  TVMFFIObjectHandle out = nullptr;
  ASSERT_EQ(TVMFFIEnvTensorAlloc(&prototype, &out), 0);
  EXPECT_EQ(g_allocs, before + 1);
  EXPECT_EQ(g_last_request.data, nullptr);
  EXPECT_EQ(g_last_request.strides, nullptr);
  EXPECT_EQ(g_last_request.byte_offset, 0u);
  EXPECT_EQ(static_cast<TVMFFIObject*>(out)->type_index, kTVMFFITensor);
  const DLTensor* t = TVMFFITensorGetDLTensorPtr(out);
  ASSERT_EQ(t->ndim, 3);
  EXPECT_EQ(t->shape[0], 2);
  EXPECT_EQ(t->shape[2], 4);
  TVMFFIObjectDecRef(out);
}

TEST(EnvTensorAlloc, TensorGetsCompactStridesWhenTheAllocatorGaveNone) {
  ScopedAllocator scope(TestAllocator);
  ffi::Tensor t = ffi::Tensor::FromEnvAlloc(TVMFFIEnvTensorAlloc, {2, 3, 4}, kF32, kCPU);
  const DLTensor* dl = t.GetDLTensorPtr();
  ASSERT_NE(dl->strides, nullptr);
  EXPECT_EQ(dl->strides[0], 12);
  EXPECT_EQ(dl->strides[1], 4);
  EXPECT_EQ(dl->strides[2], 1);
}

TEST(EnvTensorAlloc, FromEnvAllocPassesShapeDtypeAndDevice) {
  ScopedAllocator scope(TestAllocator);
  DLDevice dev{kDLCPU, 0};
  ffi::Tensor t = ffi::Tensor::FromEnvAlloc(TVMFFIEnvTensorAlloc, {5, 6}, kF32, dev);
  EXPECT_EQ(g_last_shape, (std::vector<int64_t>{5, 6}));
  EXPECT_EQ(t.ndim(), 2);
  EXPECT_EQ(t.dtype().code, kDLFloat);
  EXPECT_EQ(t.dtype().bits, 32);
  EXPECT_EQ(t.device().device_type, kDLCPU);
}

TEST(EnvTensorAlloc, TensorDeathRunsTheProducersDeleter) {
  ScopedAllocator scope(TestAllocator);
  int before = g_frees;
  {
    ffi::Tensor t = ffi::Tensor::FromEnvAlloc(TVMFFIEnvTensorAlloc, {8}, kF32, kCPU);
    EXPECT_EQ(g_frees, before);
  }
  EXPECT_EQ(g_frees, before + 1);
}

TEST(EnvTensorAlloc, AllocatorErrorIsRaisedVerbatimWithItsReturnCode) {
  ScopedAllocator scope(TestAllocator);
  int64_t shape[] = {13};
  DLTensor prototype{nullptr, kCPU, 1, kF32, shape, nullptr, 0};
  TVMFFIObjectHandle out = nullptr;
  EXPECT_EQ(TVMFFIEnvTensorAlloc(&prototype, &out), -2);
  ffi::Error e = TakeRaised();
  EXPECT_EQ(e.kind(), "MemoryError");
  EXPECT_EQ(e.message(), "13 is unlucky");
}

TEST(EnvTensorAlloc, FromEnvAllocRethrowsTheAllocatorError) {
  ScopedAllocator scope(TestAllocator);
  ffi::Error e =
      CatchError([] { ffi::Tensor::FromEnvAlloc(TVMFFIEnvTensorAlloc, {13, 2}, kF32, kCPU); });
  EXPECT_EQ(e.kind(), "MemoryError");
  EXPECT_EQ(e.message(), "13 is unlucky");
}

TEST(EnvTensorAlloc, AllocatorReturningNoTensorIsARuntimeError) {
  ScopedAllocator scope(TestAllocator);
  ffi::Error e =
      CatchError([] { ffi::Tensor::FromEnvAlloc(TVMFFIEnvTensorAlloc, {14}, kF32, kCPU); });
  EXPECT_EQ(e.kind(), "RuntimeError");
  EXPECT_EQ(e.message(), "TVMFFIEnvTensorAlloc: failed to allocate a tensor from the allocator");
}

int FailSilently(DLTensor*, DLManagedTensorVersioned**, void*,
                 void (*)(void*, const char*, const char*)) {
  return -1;
}

TEST(EnvTensorAlloc, AllocatorFailingWithoutAnErrorIsARuntimeError) {
  ScopedAllocator scope(FailSilently);
  ffi::Error e =
      CatchError([] { ffi::Tensor::FromEnvAlloc(TVMFFIEnvTensorAlloc, {1}, kF32, kCPU); });
  EXPECT_EQ(e.kind(), "RuntimeError");
  EXPECT_NE(e.message().find("without setting an error"), std::string::npos) << e.message();
}

TEST(EnvTensorAlloc, NoAllocatorIsARuntimeError) {
  ScopedAllocator scope(nullptr);
  ASSERT_EQ(TVMFFIEnvGetDLPackManagedTensorAllocator(), nullptr);
  ffi::Error e =
      CatchError([] { ffi::Tensor::FromEnvAlloc(TVMFFIEnvTensorAlloc, {1}, kF32, kCPU); });
  EXPECT_EQ(e.kind(), "RuntimeError");
  EXPECT_EQ(e.message(),
            "TVMFFIEnvTensorAlloc: allocator is nullptr, likely because "
            "TVMFFIEnvSetDLPackManagedTensorAllocator has not been called.");
}

TEST(EnvTensorAlloc, NullArgumentsAreAValueError) {
  TVMFFIObjectHandle out = nullptr;
  EXPECT_EQ(TVMFFIEnvTensorAlloc(nullptr, &out), -1);
  EXPECT_EQ(TakeRaised().kind(), "ValueError");
  int64_t shape[] = {1};
  DLTensor prototype{nullptr, kCPU, 1, kF32, shape, nullptr, 0};
  EXPECT_EQ(TVMFFIEnvTensorAlloc(&prototype, nullptr), -1);
  EXPECT_EQ(TakeRaised().kind(), "ValueError");
}

int g_custom_env_calls = 0;
int CustomEnvAlloc(DLTensor* prototype, TVMFFIObjectHandle* out) {
  ++g_custom_env_calls;
  if (prototype->ndim != 1) {
    TVMFFIErrorSetRaisedFromCStr("ValueError", "custom: only 1-d");
    return -1;
  }
  ScopedAllocator scope(TestAllocator);
  return TVMFFIEnvTensorAlloc(prototype, out);
}

TEST(EnvTensorAlloc, FromEnvAllocTakesAnyAllocatorFunction) {
  int before = g_custom_env_calls;
  ffi::Tensor t = ffi::Tensor::FromEnvAlloc(CustomEnvAlloc, {3}, kF32, kCPU);
  EXPECT_EQ(g_custom_env_calls, before + 1);
  EXPECT_EQ(t.shape()[0], 3);
  ffi::Error e = CatchError([] { ffi::Tensor::FromEnvAlloc(CustomEnvAlloc, {3, 3}, kF32, kCPU); });
  EXPECT_EQ(e.kind(), "ValueError");
  EXPECT_EQ(e.message(), "custom: only 1-d");
}

}  // namespace
