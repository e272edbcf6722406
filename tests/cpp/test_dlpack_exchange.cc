/*
 * The DLPack 1.3 C exchange API of dlpack.h: version macros, the layout of
 * DLPackExchangeAPI (56 bytes on LP64) and its header, the function-pointer
 * typedefs, and a table used the way a consumer uses one (allocate, export
 * a tensor into the runtime, read the stream).
 */
#include <dlpack/dlpack.h>
#include <gtest/gtest.h>
#include <tvm/ffi/c_api.h>  // also defines DLPackManagedTensorAllocator: guarded, no clash

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <type_traits>

namespace {

static_assert(DLPACK_MAJOR_VERSION == 1, "DLPack major version");
static_assert(DLPACK_MINOR_VERSION == 3, "DLPack minor version");
#ifndef DLPACK_MANAGED_TENSOR_ALLOCATOR_DEFINED
#error "dlpack.h must mark DLPackManagedTensorAllocator as defined"
#endif

static_assert(sizeof(DLPackExchangeAPIHeader) == 16, "header size");
static_assert(offsetof(DLPackExchangeAPIHeader, version) == 0, "header.version");
static_assert(offsetof(DLPackExchangeAPIHeader, prev_api) == 8, "header.prev_api");
static_assert(sizeof(DLPackExchangeAPI) == 56, "table size");
static_assert(offsetof(DLPackExchangeAPI, header) == 0, "header first");
static_assert(offsetof(DLPackExchangeAPI, managed_tensor_allocator) == 16, "allocator");
static_assert(offsetof(DLPackExchangeAPI, managed_tensor_from_py_object_no_sync) == 24, "from_py");
static_assert(offsetof(DLPackExchangeAPI, managed_tensor_to_py_object_no_sync) == 32, "to_py");
static_assert(offsetof(DLPackExchangeAPI, dltensor_from_py_object_no_sync) == 40, "dltensor");
static_assert(offsetof(DLPackExchangeAPI, current_work_stream) == 48, "stream");
static_assert(std::is_same<DLPackManagedTensorAllocator,
                           int (*)(DLTensor*, DLManagedTensorVersioned**, void*,
                                   void (*)(void*, const char*, const char*))>::value,
              "allocator signature");
static_assert(std::is_same<DLPackManagedTensorFromPyObjectNoSync,
                           int (*)(void*, DLManagedTensorVersioned**)>::value,
              "from_py signature");
static_assert(std::is_same<DLPackManagedTensorToPyObjectNoSync,
                           int (*)(DLManagedTensorVersioned*, void**)>::value,
              "to_py signature");
static_assert(std::is_same<DLPackDLTensorFromPyObjectNoSync, int (*)(void*, DLTensor*)>::value,
              "dltensor_from_py signature");
static_assert(std::is_same<DLPackCurrentWorkStream, int (*)(DLDeviceType, int32_t, void**)>::value,
              "current_work_stream signature");

int64_t g_shape[1] = {4};
float g_data[4] = {1, 2, 3, 4};
int g_deleted = 0;

void Delete(DLManagedTensorVersioned* self) {
  ++g_deleted;
  delete self;
}

int Allocate(DLTensor* prototype, DLManagedTensorVersioned** out, void* ctx,
             void (*set_error)(void*, const char*, const char*)) {
  if (prototype->device.device_type != kDLCPU) {
    set_error(ctx, "RuntimeError", "CPU only");
    return -1;
  }
  auto* m = new DLManagedTensorVersioned{};
  m->version = {DLPACK_MAJOR_VERSION, DLPACK_MINOR_VERSION};
  m->deleter = Delete;
  m->dl_tensor.data = g_data;
  m->dl_tensor.device = prototype->device;
  m->dl_tensor.ndim = 1;
  m->dl_tensor.dtype = prototype->dtype;
  m->dl_tensor.shape = g_shape;
  *out = m;
  return 0;
}

int CurrentStream(DLDeviceType type, int32_t, void** out) {
  *out = type == kDLCPU ? nullptr : reinterpret_cast<void*>(0x10);
  return 0;
}

const DLPackExchangeAPI kTable = {{{DLPACK_MAJOR_VERSION, DLPACK_MINOR_VERSION}, nullptr},
                                  Allocate,
                                  nullptr,
                                  nullptr,
                                  nullptr,
                                  CurrentStream};

void RecordError(void* ctx, const char* kind, const char*) {
  *static_cast<const char**>(ctx) = kind;
}

TEST(DLPackExchange, TableAllocatorFeedsTheRuntime) {
  DLTensor proto{};
  proto.device = {kDLCPU, 0};
  proto.dtype = {kDLFloat, 32, 1};
  proto.ndim = 1;
  proto.shape = g_shape;
  DLManagedTensorVersioned* m = nullptr;
  ASSERT_EQ(kTable.managed_tensor_allocator(&proto, &m, nullptr, RecordError), 0);
  TVMFFIObjectHandle tensor = nullptr;
  g_deleted = 0;
  ASSERT_EQ(TVMFFITensorFromDLPackVersioned(m, 0, 0, &tensor), 0);
  const DLTensor* t =
      reinterpret_cast<const DLTensor*>(static_cast<char*>(tensor) + sizeof(TVMFFIObject));
  EXPECT_EQ(t->data, g_data);
  EXPECT_EQ(t->shape[0], 4);
  TVMFFIObjectDecRef(tensor);
  EXPECT_EQ(g_deleted, 1);
}

TEST(DLPackExchange, TableAllocatorReportsErrorsThroughSetError) {
  DLTensor proto{};
  proto.device = {kDLCUDA, 0};
  DLManagedTensorVersioned* m = nullptr;
  const char* kind = nullptr;
  EXPECT_NE(kTable.managed_tensor_allocator(&proto, &m, &kind, RecordError), 0);
  EXPECT_STREQ(kind, "RuntimeError");
}

TEST(DLPackExchange, EnvAllocatorAcceptsATableAllocator) {
  DLPackManagedTensorAllocator prev = nullptr;
  ASSERT_EQ(TVMFFIEnvSetDLPackManagedTensorAllocator(kTable.managed_tensor_allocator, 0, &prev), 0);
  EXPECT_EQ(TVMFFIEnvGetDLPackManagedTensorAllocator(), kTable.managed_tensor_allocator);
  ASSERT_EQ(TVMFFIEnvSetDLPackManagedTensorAllocator(prev, 0, nullptr), 0);
  EXPECT_EQ(TVMFFIEnvGetDLPackManagedTensorAllocator(), prev);
}

TEST(DLPackExchange, CurrentWorkStreamIsNullForCPU) {
  void* stream = reinterpret_cast<void*>(1);
  ASSERT_EQ(kTable.current_work_stream(kDLCPU, 0, &stream), 0);
  EXPECT_EQ(stream, nullptr);
  ASSERT_EQ(kTable.current_work_stream(kDLCUDA, 0, &stream), 0);
  EXPECT_EQ(stream, reinterpret_cast<void*>(0x10));
}

}  // namespace
