// Tests of the process-wide allocator of object bodies
// (TVMFFIGetCustomAllocator / TVMFFISetCustomAllocator) and of the objects
// the runtime allocates through it (opaque objects, BigInt).
#include <gtest/gtest.h>
#include <tvm/ffi/c_api.h>
#include <tvm/ffi/error.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace {

namespace ffi = tvm::ffi;

ffi::Error TakeRaised() { return ffi::detail::MoveFromRaised(); }

TEST(CustomAllocator, BuiltinAllocatorIsNeverNull) {
  TVMFFICustomAllocator* alloc = TVMFFIGetCustomAllocator();
  ASSERT_NE(alloc, nullptr);
  EXPECT_NE(alloc->allocate, nullptr);
}

TEST(CustomAllocator, BuiltinBodiesAreAlignedAndCarryADeleteSpace) {
  TVMFFICustomAllocator* alloc = TVMFFIGetCustomAllocator();
  for (size_t alignment : {size_t{8}, size_t{16}, size_t{64}, size_t{256}}) {
    void* body = alloc->allocate(40, alignment, kTVMFFIObject, alloc->context);
    ASSERT_NE(body, nullptr);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(body) % alignment, 0u) << alignment;
    TVMFFIObjectAllocHeader* header = static_cast<TVMFFIObjectAllocHeader*>(body) - 1;
    ASSERT_NE(header->delete_space, nullptr);
    std::memset(body, 0xab, 40);  // the whole body is usable
    header->delete_space(body);
  }
}

TEST(CustomAllocator, BuiltinRejectsAnAlignmentThatIsNotAPowerOfTwo) {
  TVMFFICustomAllocator* alloc = TVMFFIGetCustomAllocator();
  EXPECT_EQ(alloc->allocate(16, 24, kTVMFFIObject, alloc->context), nullptr);
  EXPECT_EQ(TakeRaised().kind(), "ValueError");
}

/*! \brief A counting allocator: 16 leading bytes, like the builtin one. */
struct Counting {
  int allocations = 0;
  int frees = 0;
  std::vector<int32_t> type_indices;
  bool fail = false;
};
Counting g_counting;

void CountingDeleteSpace(void* body) {
  ++g_counting.frees;
  std::free(static_cast<char*>(body) - 16);
}

void* CountingAllocate(size_t size, size_t alignment, int32_t type_index, void* context) {
  Counting* c = static_cast<Counting*>(context);
  if (c->fail) {
    TVMFFIErrorSetRaisedFromCStr("MemoryError", "counting allocator refused");
    return nullptr;
  }
  EXPECT_LE(alignment, 16u);
  ++c->allocations;
  c->type_indices.push_back(type_index);
  char* base = static_cast<char*>(std::malloc(size + 16));
  char* body = base + 16;
  reinterpret_cast<TVMFFIObjectAllocHeader*>(body)[-1].delete_space = CountingDeleteSpace;
  return body;
}

TVMFFICustomAllocator g_counting_allocator{CountingAllocate, &g_counting};

/*! \brief Installs the counting allocator while alive, then restores the builtin one. */
class ScopedCountingAllocator {
 public:
  ScopedCountingAllocator() {
    g_counting = Counting();
    EXPECT_EQ(TVMFFISetCustomAllocator(&g_counting_allocator), 0);
  }
  ~ScopedCountingAllocator() { EXPECT_EQ(TVMFFISetCustomAllocator(nullptr), 0); }
};

int g_opaque_deleted = 0;
void CountOpaqueDelete(void*) { ++g_opaque_deleted; }

TEST(CustomAllocator, SetAllocatorIsWhatGetReturns) {
  TVMFFICustomAllocator* builtin = TVMFFIGetCustomAllocator();
  {
    ScopedCountingAllocator scope;
    EXPECT_EQ(TVMFFIGetCustomAllocator(), &g_counting_allocator);
  }
  EXPECT_EQ(TVMFFIGetCustomAllocator(), builtin);
}

TEST(CustomAllocator, OpaqueObjectsComeFromTheCustomAllocator) {
  ScopedCountingAllocator scope;
  int before = g_opaque_deleted;
  TVMFFIObjectHandle obj = nullptr;
  ASSERT_EQ(TVMFFIObjectCreateOpaque(&g_counting, kTVMFFIOpaquePyObject, CountOpaqueDelete, &obj),
            0);
  EXPECT_EQ(g_counting.allocations, 1);
  EXPECT_EQ(g_counting.type_indices, std::vector<int32_t>{kTVMFFIOpaquePyObject});
  EXPECT_EQ(TVMFFIOpaqueObjectGetCellPtr(obj)->handle, &g_counting);
  EXPECT_EQ(TVMFFIObjectGetTypeIndex(obj), kTVMFFIOpaquePyObject);
  TVMFFIObjectDecRef(obj);
  EXPECT_EQ(g_opaque_deleted, before + 1);
  EXPECT_EQ(g_counting.frees, 1);
}

TEST(CustomAllocator, BigIntObjectsComeFromTheCustomAllocator) {
  ScopedCountingAllocator scope;
  int64_t words[] = {0, 1};  // 2^64
  TVMFFIByteArray bytes{reinterpret_cast<const char*>(words), sizeof(words)};
  TVMFFIAny out;
  ASSERT_EQ(TVMFFIBigIntFromByteArray(&bytes, &out), 0);
  ASSERT_EQ(out.type_index, kTVMFFIBigInt);
  EXPECT_EQ(g_counting.type_indices, std::vector<int32_t>{kTVMFFIBigInt});
  TVMFFIObjectDecRef(out.v_obj);
  EXPECT_EQ(g_counting.frees, 1);
}

TEST(CustomAllocator, AllocatorFailureIsRaisedByTheCreatingFunction) {
  ScopedCountingAllocator scope;
  g_counting.fail = true;
  int before = g_opaque_deleted;
  TVMFFIObjectHandle obj = nullptr;
  EXPECT_EQ(TVMFFIObjectCreateOpaque(&g_counting, kTVMFFIOpaquePyObject, CountOpaqueDelete, &obj),
            -1);
  ffi::Error e = TakeRaised();
  EXPECT_EQ(e.kind(), "MemoryError");
  EXPECT_EQ(e.message(), "counting allocator refused");
  // The handle's deleter is not run for an object that was never made.
  EXPECT_EQ(g_opaque_deleted, before);
}

TEST(CustomAllocator, AllocatorWithoutAllocateIsRejected) {
  static TVMFFICustomAllocator broken{nullptr, nullptr};
  TVMFFICustomAllocator* before = TVMFFIGetCustomAllocator();
  EXPECT_EQ(TVMFFISetCustomAllocator(&broken), -1);
  EXPECT_EQ(TakeRaised().kind(), "ValueError");
  EXPECT_EQ(TVMFFIGetCustomAllocator(), before);
}

}  // namespace
