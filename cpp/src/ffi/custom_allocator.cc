/*
 * The process-wide allocator of object bodies (TVMFFIGetCustomAllocator /
 * TVMFFISetCustomAllocator).
 *
 * Every body is preceded by a TVMFFIObjectAllocHeader whose delete_space
 * gives the whole allocation back. The builtin allocator reserves
 * alignof(max_align_t) leading bytes for it; a body aligned more strictly
 * gets `alignment` leading bytes, and the size of that lead is recorded just
 * before the header so that its delete_space can find the start.
 */
#include <tvm/ffi/base.h>
#include <tvm/ffi/c_api.h>
#include "safe_invoke.h"

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>

TVM_FFI_NAMESPACE_BEGIN
namespace {

constexpr size_t kDefaultLead = alignof(std::max_align_t);
static_assert(kDefaultLead >= sizeof(TVMFFIObjectAllocHeader), "room for the alloc header");

void DeleteDefaultSpace(void* body) { std::free(static_cast<char*>(body) - kDefaultLead); }

void DeleteAlignedSpace(void* body) {
  size_t lead;
  std::memcpy(&lead, static_cast<char*>(body) - sizeof(TVMFFIObjectAllocHeader) - sizeof(size_t),
              sizeof(size_t));
  std::free(static_cast<char*>(body) - lead);
}

void* BuiltinAllocate(size_t size, size_t alignment, int32_t, void*) {
  if (alignment == 0 || (alignment & (alignment - 1)) != 0) {
    TVMFFIErrorSetRaisedFromCStr("ValueError",
                                 "object allocation: alignment must be a power of two");
    return nullptr;
  }
  char* base;
  size_t lead;
  void (*delete_space)(void*);
  if (alignment <= kDefaultLead) {
    lead = kDefaultLead;
    if (size > SIZE_MAX - lead)
      base = nullptr;
    else
      base = static_cast<char*>(std::malloc(lead + size));
    delete_space = DeleteDefaultSpace;
  } else {
    // The lead must hold the header and the recorded lead size, and keep the body aligned.
    lead = alignment;
    size_t total = lead + size;
    total = (total + alignment - 1) / alignment * alignment;
    base = size > SIZE_MAX - 2 * lead ? nullptr
                                      : static_cast<char*>(std::aligned_alloc(alignment, total));
    if (base != nullptr) {
      std::memcpy(base + lead - sizeof(TVMFFIObjectAllocHeader) - sizeof(size_t), &lead,
                  sizeof(size_t));
    }
    delete_space = DeleteAlignedSpace;
  }
  if (base == nullptr) {
    TVMFFIErrorSetRaisedFromCStr("MemoryError", "object allocation: out of memory");
    return nullptr;
  }
  char* body = base + lead;
  reinterpret_cast<TVMFFIObjectAllocHeader*>(body)[-1].delete_space = delete_space;
  return body;
}

TVMFFICustomAllocator g_builtin_allocator{&BuiltinAllocate, nullptr};
std::atomic<TVMFFICustomAllocator*> g_allocator{&g_builtin_allocator};

}  // namespace
TVM_FFI_NAMESPACE_END

extern "C" {

TVM_FFI_DLL TVMFFICustomAllocator* TVMFFIGetCustomAllocator(void) {
  return tvm::ffi::g_allocator.load(std::memory_order_acquire);
}

TVM_FFI_DLL int TVMFFISetCustomAllocator(TVMFFICustomAllocator* allocator) {
  return tvm::ffi::detail::SafeInvoke([&]() -> int {
    if (allocator != nullptr && allocator->allocate == nullptr) {
      throw tvm::ffi::Error("ValueError",
                            "TVMFFISetCustomAllocator: the allocator's allocate is NULL");
    }
    tvm::ffi::g_allocator.store(allocator != nullptr ? allocator : &tvm::ffi::g_builtin_allocator,
                                std::memory_order_release);
    return 0;
  });
}

}  // extern "C"
