// Tests of container/tensor.h and the DLPack functions of the runtime:
// FromNDAlloc, DLPack import/export and lifetimes, views, TensorView.
#include <gtest/gtest.h>
#include <tvm/ffi/any.h>
#include <tvm/ffi/container/shape.h>
#include <tvm/ffi/container/tensor.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/optional.h>

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

namespace {

namespace ffi = tvm::ffi;
using ffi::operator==;

// ---- The guide's examples, unmodified (apart from nd -> tensor) ----

struct CPUNDAlloc {
  void AllocData(DLTensor* tensor) { tensor->data = malloc(tvm::ffi::GetDataSize(*tensor)); }
  void FreeData(DLTensor* tensor) { free(tensor->data); }
};

void ExampleTensor() {
  namespace ffi = tvm::ffi;
  ffi::Shape shape = {1, 2, 3};
  DLDataType dtype = {kDLFloat, 32, 1};
  DLDevice device = {kDLCPU, 0};
  ffi::Tensor tensor = ffi::Tensor::FromNDAlloc(CPUNDAlloc(), shape, dtype, device);
  // now tensor is a managed tensor
  EXPECT_EQ(tensor.numel(), 6);
  EXPECT_NE(tensor.data_ptr(), nullptr);
}

void ExampleTensorDLPack() {
  namespace ffi = tvm::ffi;
  ffi::Shape shape = {1, 2, 3};
  DLDataType dtype = {kDLFloat, 32, 1};
  DLDevice device = {kDLCPU, 0};
  ffi::Tensor tensor = ffi::Tensor::FromNDAlloc(CPUNDAlloc(), shape, dtype, device);
  // convert to DLManagedTensorVersioned
  DLManagedTensorVersioned* dlpack = tensor.ToDLPackVersioned();
  // load back from DLManagedTensorVersioned
  ffi::Tensor tensor2 = ffi::Tensor::FromDLPackVersioned(dlpack);
  EXPECT_EQ(tensor2.data_ptr(), tensor.data_ptr());
}

TEST(TensorGuide, ExampleTensor) { ExampleTensor(); }
TEST(TensorGuide, ExampleTensorDLPack) { ExampleTensorDLPack(); }

// ---- Helpers ----

const DLDataType kF32 = {kDLFloat, 32, 1};
const DLDevice kCPU = {kDLCPU, 0};

/*! \brief Counts allocations, frees and the allocator's own copies alive. */
struct Counters {
  std::atomic<int> allocs{0};
  std::atomic<int> frees{0};
  std::atomic<int> live_allocators{0};
};

struct CountingAlloc {
  explicit CountingAlloc(Counters* c) : counters(c) { counters->live_allocators++; }
  CountingAlloc(const CountingAlloc& o) : counters(o.counters) { counters->live_allocators++; }
  CountingAlloc(CountingAlloc&& o) noexcept : counters(o.counters) { counters->live_allocators++; }
  ~CountingAlloc() { counters->live_allocators--; }
  void AllocData(DLTensor* tensor) {
    counters->allocs++;
    tensor->data = std::malloc(std::max<size_t>(ffi::GetDataSize(*tensor), 1));
  }
  // With an extra argument: fill every byte.
  void AllocData(DLTensor* tensor, int fill) {
    AllocData(tensor);
    std::memset(tensor->data, fill, ffi::GetDataSize(*tensor));
  }
  void FreeData(DLTensor* tensor) {
    counters->frees++;
    std::free(tensor->data);
  }
  Counters* counters;
};

struct ThrowingAlloc {
  Counters* counters;
  void AllocData(DLTensor*) {
    counters->allocs++;
    TVM_FFI_THROW(RuntimeError) << "out of device memory";
  }
  void FreeData(DLTensor*) { counters->frees++; }
};

/*!
 * \brief A DLPack producer with its own storage; the deleter counts calls
 *  and frees the producer.
 */
template <typename TManaged>
struct Producer {
  std::vector<int64_t> shape;
  std::vector<int64_t> strides;
  std::vector<float> storage;
  TManaged managed;
  std::atomic<int>* deleted;

  static TManaged* Make(std::vector<int64_t> shape, std::vector<int64_t> strides,
                        std::atomic<int>* deleted, size_t elems = 0) {
    Producer* p = new Producer();
    p->shape = std::move(shape);
    p->strides = std::move(strides);
    size_t n = 1;
    for (int64_t s : p->shape) n *= static_cast<size_t>(s);
    p->storage.assign(std::max<size_t>(elems, n) + 8, 1.0f);
    p->deleted = deleted;
    std::memset(&p->managed, 0, sizeof(TManaged));
    DLTensor& t = p->managed.dl_tensor;
    t.data = p->storage.data();
    t.device = kCPU;
    t.ndim = static_cast<int32_t>(p->shape.size());
    t.dtype = kF32;
    t.shape = p->shape.data();
    t.strides = p->strides.empty() ? nullptr : p->strides.data();
    t.byte_offset = 0;
    p->managed.manager_ctx = p;
    p->managed.deleter = &Delete;
    if constexpr (std::is_same_v<TManaged, DLManagedTensorVersioned>) {
      p->managed.version = DLPackVersion{1, 1};
      p->managed.flags = 0;
    }
    return &p->managed;
  }
  static void Delete(TManaged* self) {
    Producer* p = static_cast<Producer*>(self->manager_ctx);
    p->deleted->fetch_add(1);
    delete p;
  }
};
using VersionedProducer = Producer<DLManagedTensorVersioned>;
using LegacyProducer = Producer<DLManagedTensor>;

std::vector<int64_t> ToVec(ffi::ShapeView v) { return std::vector<int64_t>(v.begin(), v.end()); }

// ---- FromNDAlloc ----

TEST(TensorNDAlloc, MetadataAndLayout) {
  Counters c;
  ffi::Tensor t = ffi::Tensor::FromNDAlloc(CountingAlloc(&c), ffi::Shape({2, 3, 4}), kF32, kCPU);
  EXPECT_EQ(t.ndim(), 3);
  EXPECT_EQ(ToVec(t.shape()), (std::vector<int64_t>{2, 3, 4}));
  EXPECT_EQ(ToVec(t.strides()), (std::vector<int64_t>{12, 4, 1}));
  EXPECT_TRUE(t.dtype() == kF32);
  EXPECT_TRUE(t.device() == kCPU);
  EXPECT_EQ(t.numel(), 24);
  EXPECT_EQ(t.byte_offset(), 0u);
  EXPECT_TRUE(t.IsContiguous());
  EXPECT_TRUE(t.IsAligned(alignof(float)));
  EXPECT_EQ(ffi::GetDataSize(*t.GetDLTensorPtr()), 96u);
  // An owning copy of the extents.
  ffi::Shape owned = t.shape();
  EXPECT_TRUE(owned == ffi::Shape({2, 3, 4}));
  EXPECT_NE(owned.data(), t.shape().data());
  // docs/abi.md §2.4: type index 70, the DLTensor at offset 24.
  const ffi::TensorObj* obj = t.get();
  EXPECT_EQ(obj->type_index(), kTVMFFITensor);
  EXPECT_EQ(obj->GetTypeKey(), "ffi.Tensor");
  EXPECT_EQ(reinterpret_cast<const char*>(static_cast<const DLTensor*>(obj)),
            reinterpret_cast<const char*>(obj) + 24);
  EXPECT_EQ(reinterpret_cast<const DLTensor*>(reinterpret_cast<const char*>(obj) + 24)->data,
            t.data_ptr());
}

TEST(TensorNDAlloc, AllocatorLivesExactlyAsLongAsTheTensor) {
  Counters c;
  {
    ffi::Tensor t = ffi::Tensor::FromNDAlloc(CountingAlloc(&c), {4}, kF32, kCPU);
    EXPECT_EQ(c.allocs, 1);
    EXPECT_EQ(c.live_allocators, 1);  // only the copy inside the tensor
    ffi::Tensor copy = t;
    ffi::Any held = t;
    t = ffi::Tensor();
    copy = ffi::Tensor();
    EXPECT_EQ(c.frees, 0);
    EXPECT_EQ(c.live_allocators, 1);
    held.reset();
    EXPECT_EQ(c.frees, 1);
  }
  EXPECT_EQ(c.allocs, 1);
  EXPECT_EQ(c.frees, 1);
  EXPECT_EQ(c.live_allocators, 0);
}

TEST(TensorNDAlloc, ExtraArgumentsReachAllocData) {
  Counters c;
  ffi::Tensor t =
      ffi::Tensor::FromNDAlloc(CountingAlloc(&c), {3}, DLDataType{kDLUInt, 8, 1}, kCPU, 0x5a);
  const uint8_t* bytes = static_cast<const uint8_t*>(t.data_ptr());
  EXPECT_EQ(bytes[0], 0x5a);
  EXPECT_EQ(bytes[2], 0x5a);
}

TEST(TensorNDAlloc, FailingAllocationFreesNothingAndLeaksNothing) {
  Counters c;
  try {
    ffi::Tensor::FromNDAlloc(ThrowingAlloc{&c}, {2, 2}, kF32, kCPU);
    ADD_FAILURE() << "no error";
  } catch (const ffi::Error& e) {
    EXPECT_EQ(e.kind(), "RuntimeError");
    EXPECT_EQ(e.message(), "out of device memory");
  }
  EXPECT_EQ(c.allocs, 1);
  EXPECT_EQ(c.frees, 0);
}

TEST(TensorNDAlloc, BadShapesAreRejected) {
  Counters c;
  try {
    ffi::Tensor::FromNDAlloc(CountingAlloc(&c), {2, -1}, kF32, kCPU);
    ADD_FAILURE() << "no error";
  } catch (const ffi::Error& e) {
    EXPECT_EQ(e.kind(), "ValueError");
    EXPECT_NE(e.message().find("dimension #1"), std::string::npos) << e.message();
  }
  EXPECT_THROW(ffi::Tensor::FromNDAllocStrided(CountingAlloc(&c), {2, 3}, {1}, kF32, kCPU),
               ffi::Error);
  EXPECT_THROW(ffi::Tensor::FromNDAllocStrided(CountingAlloc(&c), {2, 3}, {3, -1}, kF32, kCPU),
               ffi::Error);
  EXPECT_EQ(c.allocs, 0);
  EXPECT_EQ(c.live_allocators, 0);
}

TEST(TensorNDAlloc, StridedTensorsKeepTheirStrides) {
  Counters c;
  // Rows of 3 floats padded to 8.
  ffi::Tensor t = ffi::Tensor::FromNDAllocStrided(CountingAlloc(&c), {2, 3}, {8, 1}, kF32, kCPU);
  EXPECT_EQ(ToVec(t.strides()), (std::vector<int64_t>{8, 1}));
  EXPECT_FALSE(t.IsContiguous());
  // GetDataSize counts elements, whatever the strides.
  EXPECT_EQ(ffi::GetDataSize(*t.GetDLTensorPtr()), 2 * 3 * 4u);
  // Compact strides given explicitly are contiguous.
  ffi::Tensor compact =
      ffi::Tensor::FromNDAllocStrided(CountingAlloc(&c), {2, 3}, {3, 1}, kF32, kCPU);
  EXPECT_TRUE(compact.IsContiguous());
  // Extents of 1 may have any stride.
  ffi::Tensor unit =
      ffi::Tensor::FromNDAllocStrided(CountingAlloc(&c), {1, 3}, {99, 1}, kF32, kCPU);
  EXPECT_TRUE(unit.IsContiguous());
}

TEST(TensorNDAlloc, ZeroDimAndZeroSizeTensors) {
  Counters c;
  ffi::Tensor scalar = ffi::Tensor::FromNDAlloc(CountingAlloc(&c), ffi::Shape(), kF32, kCPU);
  EXPECT_EQ(scalar.ndim(), 0);
  EXPECT_EQ(scalar.numel(), 1);
  EXPECT_TRUE(scalar.shape().empty());
  EXPECT_TRUE(scalar.strides().empty());
  EXPECT_TRUE(scalar.IsContiguous());
  EXPECT_EQ(ffi::GetDataSize(*scalar.GetDLTensorPtr()), 4u);
  ffi::Tensor empty = ffi::Tensor::FromNDAlloc(CountingAlloc(&c), {0, 3}, kF32, kCPU);
  EXPECT_EQ(empty.numel(), 0);
  EXPECT_TRUE(empty.IsContiguous());
  EXPECT_EQ(ffi::GetDataSize(*empty.GetDLTensorPtr()), 0u);
  // Both survive a DLPack round trip.
  ffi::Tensor scalar2 = ffi::Tensor::FromDLPackVersioned(scalar.ToDLPackVersioned());
  EXPECT_EQ(scalar2.ndim(), 0);
  EXPECT_EQ(scalar2.data_ptr(), scalar.data_ptr());
  ffi::Tensor empty2 = ffi::Tensor::FromDLPack(empty.ToDLPack(), 0, true);
  EXPECT_EQ(ToVec(empty2.shape()), (std::vector<int64_t>{0, 3}));
}

TEST(TensorNDAlloc, GetDataSizeRoundsSubByteTypesUp) {
  EXPECT_EQ(ffi::GetDataSize(3, DLDataType{kDLInt, 4, 1}), 2u);
  EXPECT_EQ(ffi::GetDataSize(9, DLDataType{kDLUInt, 1, 1}), 2u);
  EXPECT_EQ(ffi::GetDataSize(8, DLDataType{kDLUInt, 1, 1}), 1u);
  EXPECT_EQ(ffi::GetDataSize(5, DLDataType{kDLBool, 8, 1}), 5u);
  EXPECT_EQ(ffi::GetDataSize(2, DLDataType{kDLFloat, 16, 4}), 16u);
  EXPECT_EQ(ffi::GetDataSize(3, DLDataType{kDLFloat4_e2m1fn, 4, 2}), 3u);
  EXPECT_EQ(ffi::GetDataSize(0, kF32), 0u);
  EXPECT_EQ(ffi::GetDataSize(9, DLDataType{kDLBool, 8, 1}), 9u);
}

TEST(TensorNDAlloc, GetDataSizeOfTensorAndViewCountsElements) {
  Counters c;
  ffi::Tensor t = ffi::Tensor::FromNDAlloc(CountingAlloc(&c), {2, 5}, kF32, kCPU);
  EXPECT_EQ(ffi::GetDataSize(t), 40u);
  ffi::TensorView v = t;
  EXPECT_EQ(ffi::GetDataSize(v), 40u);
  ffi::Tensor padded =
      ffi::Tensor::FromNDAllocStrided(CountingAlloc(&c), {2, 3}, {8, 1}, kF32, kCPU);
  EXPECT_EQ(ffi::GetDataSize(padded), 24u);
}

TEST(TensorNDAlloc, UndefinedTensorRaisesInsteadOfCrashing) {
  ffi::Tensor undefined;
  EXPECT_FALSE(undefined.defined());
  try {
    (void)undefined.shape();
    ADD_FAILURE() << "no error";
  } catch (const ffi::Error& e) {
    EXPECT_EQ(e.kind(), "ValueError");
    EXPECT_NE(e.message().find("undefined"), std::string::npos);
  }
  EXPECT_THROW(undefined.ToDLPackVersioned(), ffi::Error);
}

// ---- DLPack import ----

TEST(TensorDLPack, ImportSharesMemoryAndDeletesOnceAfterTheLastHolder) {
  std::atomic<int> deleted{0};
  DLManagedTensorVersioned* m = VersionedProducer::Make({2, 3}, {}, &deleted);
  void* data = m->dl_tensor.data;
  ffi::Tensor t = ffi::Tensor::FromDLPackVersioned(m);
  EXPECT_EQ(t.data_ptr(), data);
  EXPECT_EQ(ToVec(t.shape()), (std::vector<int64_t>{2, 3}));
  // NULL producer strides are filled in as compact ones.
  EXPECT_EQ(ToVec(t.strides()), (std::vector<int64_t>{3, 1}));
  {
    ffi::Tensor copy = t;
    ffi::Any any = t;
    t = ffi::Tensor();
    EXPECT_EQ(deleted, 0);
    copy = ffi::Tensor();
    EXPECT_EQ(deleted, 0);
  }
  EXPECT_EQ(deleted, 1);
}

TEST(TensorDLPack, LegacyImportKeepsStridesAndByteOffset) {
  std::atomic<int> deleted{0};
  DLManagedTensor* m = LegacyProducer::Make({3, 2}, {1, 3}, &deleted);
  m->dl_tensor.byte_offset = 8;
  {
    ffi::Tensor t = ffi::Tensor::FromDLPack(m);
    EXPECT_EQ(ToVec(t.strides()), (std::vector<int64_t>{1, 3}));
    EXPECT_EQ(t.byte_offset(), 8u);
    EXPECT_FALSE(t.IsContiguous());
    // The description is the tensor's own copy.
    EXPECT_NE(t.GetDLTensorPtr()->shape, m->dl_tensor.shape);
  }
  EXPECT_EQ(deleted, 1);
}

TEST(TensorDLPack, MisalignedInputIsRejectedWhenAlignmentIsRequired) {
  std::atomic<int> deleted{0};
  DLManagedTensorVersioned* m = VersionedProducer::Make({4}, {}, &deleted);
  alignas(64) static float buffer[32];
  m->dl_tensor.data = buffer;
  m->dl_tensor.byte_offset = 4;  // the first element is 4 bytes past a 64-byte boundary
  try {
    ffi::Tensor::FromDLPackVersioned(m, 16);
    ADD_FAILURE() << "no error";
  } catch (const ffi::Error& e) {
    EXPECT_EQ(e.kind(), "ValueError");
    EXPECT_NE(e.message().find("not aligned to 16 bytes"), std::string::npos) << e.message();
  }
  // A rejected tensor still belongs to the caller.
  EXPECT_EQ(deleted, 0);
  m->dl_tensor.byte_offset = 16;
  {
    ffi::Tensor t = ffi::Tensor::FromDLPackVersioned(m, 16);
    EXPECT_TRUE(t.IsAligned(16));
    EXPECT_FALSE(t.IsAligned(32));
  }
  EXPECT_EQ(deleted, 1);
  // Through the C function, a negative requirement is an error too.
  std::atomic<int> deleted2{0};
  DLManagedTensor* legacy = LegacyProducer::Make({4}, {}, &deleted2);
  TVMFFIObjectHandle out = nullptr;
  EXPECT_EQ(TVMFFITensorFromDLPack(legacy, -8, 0, &out), -1);
  ffi::Error err = ffi::detail::MoveFromRaised();
  EXPECT_EQ(err.kind(), "ValueError");
  EXPECT_NE(err.message().find("require_alignment"), std::string::npos) << err.message();
  EXPECT_EQ(out, nullptr);
  legacy->deleter(legacy);
  EXPECT_EQ(deleted2, 1);
}

TEST(TensorDLPack, NonContiguousInputIsRejectedWhenContiguityIsRequired) {
  std::atomic<int> deleted{0};
  DLManagedTensor* m = LegacyProducer::Make({2, 3}, {1, 2}, &deleted);
  try {
    ffi::Tensor::FromDLPack(m, 0, true);
    ADD_FAILURE() << "no error";
  } catch (const ffi::Error& e) {
    EXPECT_EQ(e.kind(), "ValueError");
    EXPECT_NE(e.message().find("is not contiguous"), std::string::npos) << e.message();
    EXPECT_NE(e.message().find("[1, 2]"), std::string::npos) << e.message();
  }
  EXPECT_EQ(deleted, 0);
  // Without the requirement the same tensor is accepted.
  ffi::Tensor t = ffi::Tensor::FromDLPack(m);
  EXPECT_FALSE(t.IsContiguous());
  t = ffi::Tensor();
  EXPECT_EQ(deleted, 1);
}

TEST(TensorDLPack, MalformedInputIsRejected) {
  std::atomic<int> deleted{0};
  DLManagedTensorVersioned* m = VersionedProducer::Make({2}, {}, &deleted);
  m->version.major = 2;
  try {
    ffi::Tensor::FromDLPackVersioned(m);
    ADD_FAILURE() << "no error";
  } catch (const ffi::Error& e) {
    EXPECT_EQ(e.kind(), "ValueError");
    EXPECT_NE(e.message().find("major version 2"), std::string::npos) << e.message();
  }
  m->version.major = 1;
  m->dl_tensor.shape[0] = -3;
  EXPECT_THROW(ffi::Tensor::FromDLPackVersioned(m), ffi::Error);
  m->dl_tensor.shape[0] = 2;
  m->dl_tensor.ndim = -1;
  EXPECT_THROW(ffi::Tensor::FromDLPackVersioned(m), ffi::Error);
  m->dl_tensor.ndim = 1;
  EXPECT_THROW(ffi::Tensor::FromDLPackVersioned(nullptr), ffi::Error);
  EXPECT_THROW(ffi::Tensor::FromDLPack(nullptr), ffi::Error);
  EXPECT_EQ(deleted, 0);
  m->deleter(m);
  EXPECT_EQ(deleted, 1);
}

TEST(TensorDLPack, NullDeleterIsAllowed) {
  float data[4] = {1, 2, 3, 4};
  int64_t shape[1] = {4};
  DLManagedTensor m;
  m.dl_tensor = DLTensor{data, kCPU, 1, kF32, shape, nullptr, 0};
  m.manager_ctx = nullptr;
  m.deleter = nullptr;
  ffi::Tensor t = ffi::Tensor::FromDLPack(&m);
  EXPECT_EQ(t.data_ptr(), data);
}

// ---- DLPack export ----

TEST(TensorDLPack, ExportHoldsExactlyOneReference) {
  Counters c;
  ffi::Tensor t = ffi::Tensor::FromNDAlloc(CountingAlloc(&c), {5}, kF32, kCPU);
  DLManagedTensorVersioned* a = t.ToDLPackVersioned();
  DLManagedTensor* b = t.ToDLPack();
  EXPECT_EQ(t.use_count(), 3);
  EXPECT_EQ(a->version.major, 1u);
  EXPECT_EQ(a->flags, 0u);
  EXPECT_EQ(a->dl_tensor.data, t.data_ptr());
  EXPECT_EQ(b->dl_tensor.ndim, 1);
  EXPECT_EQ(b->dl_tensor.shape[0], 5);
  a->deleter(a);
  EXPECT_EQ(t.use_count(), 2);
  b->deleter(b);
  EXPECT_EQ(t.use_count(), 1);
  // The export keeps the tensor alive on its own.
  DLManagedTensorVersioned* last = t.ToDLPackVersioned();
  t = ffi::Tensor();
  EXPECT_EQ(c.frees, 0);
  static_cast<float*>(last->dl_tensor.data)[4] = 2.0f;
  last->deleter(last);
  EXPECT_EQ(c.frees, 1);
}

TEST(TensorDLPack, NDAllocRoundTripIsZeroCopyAndLeakFree) {
  Counters c;
  {
    ffi::Tensor tensor = ffi::Tensor::FromNDAlloc(CountingAlloc(&c), {2, 3}, kF32, kCPU);
    DLManagedTensorVersioned* dlpack = tensor.ToDLPackVersioned();
    ffi::Tensor tensor2 = ffi::Tensor::FromDLPackVersioned(dlpack, 4, true);
    EXPECT_EQ(tensor2.data_ptr(), tensor.data_ptr());
    EXPECT_FALSE(tensor2.same_as(tensor));
    EXPECT_EQ(tensor.use_count(), 2);  // tensor and the export held by tensor2
    tensor = ffi::Tensor();
    EXPECT_EQ(c.frees, 0);
    static_cast<float*>(tensor2.data_ptr())[5] = 1.0f;
    // Again, through the legacy struct.
    ffi::Tensor tensor3 = ffi::Tensor::FromDLPack(tensor2.ToDLPack());
    tensor2 = ffi::Tensor();
    EXPECT_EQ(c.frees, 0);
    EXPECT_EQ(static_cast<float*>(tensor3.data_ptr())[5], 1.0f);
  }
  EXPECT_EQ(c.allocs, 1);
  EXPECT_EQ(c.frees, 1);
  EXPECT_EQ(c.live_allocators, 0);
}

TEST(TensorDLPack, ReadOnlyAndCopiedFlagsSurviveARoundTrip) {
  std::atomic<int> deleted{0};
  DLManagedTensorVersioned* m = VersionedProducer::Make({3}, {}, &deleted);
  m->flags = DLPACK_FLAG_BITMASK_READ_ONLY | DLPACK_FLAG_BITMASK_IS_COPIED;
  ffi::Tensor t = ffi::Tensor::FromDLPackVersioned(m);
  DLManagedTensorVersioned* out = t.ToDLPackVersioned();
  EXPECT_EQ(out->flags, DLPACK_FLAG_BITMASK_READ_ONLY | DLPACK_FLAG_BITMASK_IS_COPIED);
  // And once more through an import of our own export.
  ffi::Tensor t2 = ffi::Tensor::FromDLPackVersioned(out);
  DLManagedTensorVersioned* out2 = t2.ToDLPackVersioned();
  EXPECT_EQ(out2->flags, DLPACK_FLAG_BITMASK_READ_ONLY | DLPACK_FLAG_BITMASK_IS_COPIED);
  out2->deleter(out2);
  t = ffi::Tensor();
  t2 = ffi::Tensor();
  EXPECT_EQ(deleted, 1);
}

TEST(TensorDLPack, ExportOfANonTensorIsATypeError) {
  ffi::Shape shape = {1};
  DLManagedTensorVersioned* out = nullptr;
  EXPECT_EQ(TVMFFITensorToDLPackVersioned(ffi::detail::ObjectUnsafe::GetHeader(shape.get()), &out),
            -1);
  ffi::Error err = ffi::detail::MoveFromRaised();
  EXPECT_EQ(err.kind(), "TypeError");
  EXPECT_NE(err.message().find("`ffi.Shape`"), std::string::npos) << err.message();
  EXPECT_EQ(out, nullptr);
  DLManagedTensor* legacy = nullptr;
  EXPECT_EQ(TVMFFITensorToDLPack(nullptr, &legacy), -1);
  EXPECT_EQ(ffi::detail::MoveFromRaised().kind(), "ValueError");
}

TEST(TensorDLPack, ConcurrentExportImportDeletesOnce) {
  std::atomic<int> deleted{0};
  {
    ffi::Tensor t = ffi::Tensor::FromDLPackVersioned(VersionedProducer::Make({64}, {}, &deleted));
    std::vector<std::thread> threads;
    for (int i = 0; i < 8; ++i) {
      threads.emplace_back([t]() {
        for (int k = 0; k < 500; ++k) {
          ffi::Tensor copy = ffi::Tensor::FromDLPackVersioned(t.ToDLPackVersioned());
          ffi::Tensor again = ffi::Tensor::FromDLPack(copy.ToDLPack());
          EXPECT_EQ(again.data_ptr(), t.data_ptr());
        }
      });
    }
    for (std::thread& th : threads) th.join();
    EXPECT_EQ(deleted, 0);
    EXPECT_EQ(t.use_count(), 1);
  }
  EXPECT_EQ(deleted, 1);
}

// ---- Unsafe views ----

TEST(TensorUnsafeView, CreateUnsafeViewSharesAndKeepsTheSourceAlive) {
  Counters c;
  ffi::Tensor source = ffi::Tensor::FromNDAlloc(CountingAlloc(&c), {2, 3}, kF32, kCPU);
  float* data = static_cast<float*>(source.data_ptr());
  for (int i = 0; i < 6; ++i) data[i] = static_cast<float>(i);
  // The second row as a 1-d tensor.
  int64_t shape[1] = {3};
  DLTensor prototype{nullptr, DLDevice{kDLCUDA, 5}, 1, kF32, shape, nullptr, 12};
  TVMFFIObjectHandle handle = nullptr;
  ASSERT_EQ(TVMFFITensorCreateUnsafeView(ffi::detail::ObjectUnsafe::GetHeader(source.get()),
                                         &prototype, &handle),
            0);
  ffi::Tensor view(ffi::detail::ObjectUnsafe::ObjectPtrFromOwned<ffi::TensorObj>(
      static_cast<TVMFFIObject*>(handle)));
  EXPECT_EQ(view.data_ptr(), source.data_ptr());
  EXPECT_EQ(view.byte_offset(), 12u);
  EXPECT_EQ(ToVec(view.shape()), (std::vector<int64_t>{3}));
  EXPECT_EQ(ToVec(view.strides()), (std::vector<int64_t>{1}));
  EXPECT_TRUE(view.device() == kCPU);  // the source's device, not the prototype's
  const float* first = reinterpret_cast<const float*>(static_cast<const char*>(view.data_ptr()) +
                                                      view.byte_offset());
  EXPECT_EQ(first[0], 3.0f);
  source = ffi::Tensor();
  EXPECT_EQ(c.frees, 0);
  view = ffi::Tensor();
  EXPECT_EQ(c.frees, 1);
}

TEST(TensorUnsafeView, UnsafeViewOfAReadOnlyTensorStaysReadOnly) {
  std::atomic<int> deleted{0};
  DLManagedTensorVersioned* m = VersionedProducer::Make({4}, {}, &deleted);
  m->flags = DLPACK_FLAG_BITMASK_READ_ONLY;
  ffi::Tensor source = ffi::Tensor::FromDLPackVersioned(m);
  int64_t shape[2] = {2, 2};
  DLTensor prototype{nullptr, kCPU, 2, kF32, shape, nullptr, 0};
  TVMFFIObjectHandle handle = nullptr;
  ASSERT_EQ(TVMFFITensorCreateUnsafeView(ffi::detail::ObjectUnsafe::GetHeader(source.get()),
                                         &prototype, &handle),
            0);
  ffi::Tensor view(ffi::detail::ObjectUnsafe::ObjectPtrFromOwned<ffi::TensorObj>(
      static_cast<TVMFFIObject*>(handle)));
  DLManagedTensorVersioned* out = view.ToDLPackVersioned();
  EXPECT_EQ(out->flags, DLPACK_FLAG_BITMASK_READ_ONLY);
  EXPECT_EQ(out->dl_tensor.ndim, 2);
  out->deleter(out);
  source = ffi::Tensor();
  view = ffi::Tensor();
  EXPECT_EQ(deleted, 1);
  // Bad arguments.
  ffi::Shape not_a_tensor = {1};
  EXPECT_EQ(TVMFFITensorCreateUnsafeView(ffi::detail::ObjectUnsafe::GetHeader(not_a_tensor.get()),
                                         &prototype, &handle),
            -1);
  EXPECT_EQ(ffi::detail::MoveFromRaised().kind(), "TypeError");
}

// ---- TensorView and typed-function parameters ----

TEST(TensorViewParam, ReadApiFromTensorAndDLTensor) {
  Counters c;
  ffi::Tensor t = ffi::Tensor::FromNDAlloc(CountingAlloc(&c), {4, 5}, kF32, kCPU);
  ffi::TensorView v = t;
  EXPECT_EQ(v.ndim(), 2);
  EXPECT_EQ(v.numel(), 20);
  EXPECT_EQ(v.data_ptr(), t.data_ptr());
  EXPECT_EQ(ToVec(v.strides()), (std::vector<int64_t>{5, 1}));
  EXPECT_TRUE(v.dtype() == kF32);
  EXPECT_TRUE(v.IsContiguous());
  EXPECT_EQ(t.use_count(), 1);  // a view holds no reference
  float data[6];
  int64_t shape[3] = {1, 2, 3};
  DLTensor stack{data, kCPU, 3, kF32, shape, nullptr, 0};
  ffi::TensorView sv(&stack);
  EXPECT_EQ(sv.shape().data(), shape);
  // NULL strides are computed for the view.
  EXPECT_EQ(ToVec(sv.strides()), (std::vector<int64_t>{6, 3, 1}));
  EXPECT_EQ(sv.GetDLTensorPtr()->strides, nullptr);
  EXPECT_THROW(ffi::TensorView(static_cast<const DLTensor*>(nullptr)), ffi::Error);
}

TEST(TensorViewParam, AcceptsATensorOrABorrowedStackDLTensor) {
  ffi::Function f = ffi::Function::FromTyped(
      [](ffi::TensorView x) -> int64_t {
        const float* p = static_cast<const float*>(x.data_ptr());
        return x.numel() * 100 + static_cast<int64_t>(p[0]);
      },
      "sum_first");
  Counters c;
  ffi::Tensor t = ffi::Tensor::FromNDAlloc(CountingAlloc(&c), {2, 2}, kF32, kCPU);
  static_cast<float*>(t.data_ptr())[0] = 7.0f;
  EXPECT_EQ(f(t).cast<int64_t>(), 407);
  EXPECT_EQ(t.use_count(), 1);
  float data[3] = {9.0f, 0, 0};
  int64_t shape[1] = {3};
  DLTensor stack{data, kCPU, 1, kF32, shape, nullptr, 0};
  EXPECT_EQ(f(&stack).cast<int64_t>(), 309);
  // A TensorView passes on as a borrowed DLTensor*.
  ffi::TensorView view(&stack);
  EXPECT_EQ(f(view).cast<int64_t>(), 309);
  try {
    f(1);
    ADD_FAILURE() << "no error";
  } catch (const ffi::Error& e) {
    EXPECT_EQ(e.kind(), "TypeError");
    EXPECT_NE(e.message().find("`DLTensor*`"), std::string::npos) << e.message();
    EXPECT_NE(e.message().find("`int`"), std::string::npos) << e.message();
  }
}

TEST(TensorViewParam, DLTensorPointerAndTensorParameters) {
  ffi::Function ndim_of =
      ffi::Function::FromTyped([](DLTensor* x) -> int64_t { return x->ndim; }, "ndim_of");
  Counters c;
  ffi::Tensor t = ffi::Tensor::FromNDAlloc(CountingAlloc(&c), {2, 2, 2}, kF32, kCPU);
  EXPECT_EQ(ndim_of(t).cast<int64_t>(), 3);
  ffi::Function keep = ffi::Function::FromTyped([](ffi::Tensor x) { return x; }, "keep");
  ffi::Tensor back = keep(t).cast<ffi::Tensor>();
  EXPECT_TRUE(back.same_as(t));
  // A Tensor owns its memory: a borrowed DLTensor* cannot become one. Tensor
  // is nullable, so None becomes an undefined Tensor.
  float data[1];
  int64_t shape[1] = {1};
  DLTensor stack{data, kCPU, 1, kF32, shape, nullptr, 0};
  EXPECT_THROW(keep(&stack), ffi::Error);
  EXPECT_FALSE(keep(nullptr).cast<ffi::Tensor>().defined());
}

TEST(TensorViewParam, OptionalTensorParameterAcceptsNone) {
  ffi::Function f = ffi::Function::FromTyped(
      [](ffi::Optional<ffi::Tensor> x) -> int64_t { return x.has_value() ? x.value().ndim() : -1; },
      "maybe_ndim");
  Counters c;
  ffi::Tensor t = ffi::Tensor::FromNDAlloc(CountingAlloc(&c), {2, 2}, kF32, kCPU);
  EXPECT_EQ(f(t).cast<int64_t>(), 2);
  EXPECT_EQ(f(nullptr).cast<int64_t>(), -1);
  EXPECT_THROW(f(3), ffi::Error);
  ffi::Any none;
  EXPECT_FALSE(none.cast<ffi::Optional<ffi::Tensor>>().has_value());
  EXPECT_FALSE(none.cast<ffi::Tensor>().defined());
}

// ---- The environment's DLPack allocator ----

int g_env_allocs = 0;

int TestEnvAllocator(DLTensor* prototype, DLManagedTensorVersioned** out, void* error_ctx,
                     void (*set_error)(void*, const char*, const char*)) {
  if (prototype->ndim > 0 && prototype->shape[0] == 13) {
    set_error(error_ctx, "MemoryError", "13 is unlucky");
    return -1;
  }
  ++g_env_allocs;
  static std::atomic<int> deleted{0};
  std::vector<int64_t> shape(prototype->shape, prototype->shape + prototype->ndim);
  *out = VersionedProducer::Make(shape, {}, &deleted);
  return 0;
}

TEST(TensorEnvAlloc, UsesTheEnvironmentAllocator) {
  DLPackManagedTensorAllocator original = nullptr;
  ASSERT_EQ(TVMFFIEnvSetDLPackManagedTensorAllocator(&TestEnvAllocator, 0, &original), 0);
  ffi::Tensor t = ffi::Tensor::FromEnvAlloc(TVMFFIEnvTensorAlloc, {4, 2}, kF32, kCPU);
  EXPECT_EQ(g_env_allocs, 1);
  EXPECT_EQ(ToVec(t.shape()), (std::vector<int64_t>{4, 2}));
  try {
    ffi::Tensor::FromEnvAlloc(TVMFFIEnvTensorAlloc, {13}, kF32, kCPU);
    ADD_FAILURE() << "no error";
  } catch (const ffi::Error& e) {
    EXPECT_EQ(e.kind(), "MemoryError");
    EXPECT_EQ(e.message(), "13 is unlucky");
  }
  ASSERT_EQ(TVMFFIEnvSetDLPackManagedTensorAllocator(original, 0, nullptr), 0);
  if (TVMFFIEnvGetDLPackManagedTensorAllocator() == nullptr) {
    try {
      ffi::Tensor::FromEnvAlloc(TVMFFIEnvTensorAlloc, {1}, kF32, kCPU);
      ADD_FAILURE() << "no error";
    } catch (const ffi::Error& e) {
      EXPECT_EQ(e.kind(), "RuntimeError");
      EXPECT_NE(e.message().find("allocator is nullptr"), std::string::npos);
    }
  }
}

}  // namespace
