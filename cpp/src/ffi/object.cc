/*
 * Reference counting and opaque objects of libtvm_ffi (docs/abi.md §2.3): the C
 * functions TVMFFIObjectIncRef/DecRef, TVMFFIObjectCreateOpaque and
 * TVMFFIGetVersion. The type table lives in type_table.cc, the reflection
 * records in type_reflection.cc, attribute columns in type_attr_column.cc,
 * the MISSING/KWARGS sentinels in reflection_sentinels.cc and lazy globals in
 * init_once.cc.
 */
#include <tvm/ffi/base.h>
#include <tvm/ffi/c_api.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/memory.h>
#include <tvm/ffi/object.h>
#include "object_alloc.h"
#include "safe_invoke.h"

#include <cstdint>
#include <string>

TVM_FFI_NAMESPACE_BEGIN
namespace {

/*! \brief Layout of objects made by TVMFFIObjectCreateOpaque (from the custom allocator). */
struct OpaqueObject {
  TVMFFIObject header;
  TVMFFIOpaqueObjectCell cell;
  void (*handle_deleter)(void* handle);

  OpaqueObject(void* handle, void (*deleter)(void*)) : cell{handle}, handle_deleter(deleter) {}
  ~OpaqueObject() {
    if (handle_deleter != nullptr) handle_deleter(cell.handle);
  }
};

}  // namespace
TVM_FFI_NAMESPACE_END

using tvm::ffi::Error;
using tvm::ffi::detail::SafeInvoke;

extern "C" {

TVM_FFI_DLL void TVMFFIGetVersion(TVMFFIVersion* out_version) {
  if (out_version == nullptr) return;
  out_version->major = TVM_FFI_VERSION_MAJOR;
  out_version->minor = TVM_FFI_VERSION_MINOR;
  out_version->patch = TVM_FFI_VERSION_PATCH;
}

TVM_FFI_DLL int TVMFFIObjectIncRef(TVMFFIObjectHandle handle) {
  if (handle == nullptr) return 0;
  TVMFFIObject* obj = static_cast<TVMFFIObject*>(handle);
  __atomic_fetch_add(&obj->combined_ref_count, 1, __ATOMIC_RELAXED);
  return 0;
}

TVM_FFI_DLL int TVMFFIObjectDecRef(TVMFFIObjectHandle handle) {
  if (handle == nullptr) return 0;
  TVMFFIObject* obj = static_cast<TVMFFIObject*>(handle);
  constexpr uint64_t kWeakOne = uint64_t(1) << 32;
  constexpr int kOrder = tvm::ffi::detail::kRefCountReleaseOrder;
  uint64_t old = __atomic_fetch_sub(&obj->combined_ref_count, 1, kOrder);
  if (old == (kWeakOne | 1)) {
    __atomic_thread_fence(__ATOMIC_ACQUIRE);
    if (obj->deleter != nullptr) obj->deleter(obj, kTVMFFIObjectDeleterFlagBitMaskBoth);
  } else if ((old & 0xffffffffull) == 1) {
    __atomic_thread_fence(__ATOMIC_ACQUIRE);
    if (obj->deleter != nullptr) obj->deleter(obj, kTVMFFIObjectDeleterFlagBitMaskStrong);
    // The strong references together held one weak reference; drop it now.
    uint64_t old_weak = __atomic_fetch_sub(&obj->combined_ref_count, kWeakOne, kOrder);
    if (old_weak == kWeakOne) {
      __atomic_thread_fence(__ATOMIC_ACQUIRE);
      if (obj->deleter != nullptr) obj->deleter(obj, kTVMFFIObjectDeleterFlagBitMaskWeak);
    }
  }
  return 0;
}

TVM_FFI_DLL int TVMFFIObjectCreateOpaque(void* handle, int32_t type_index,
                                         void (*deleter)(void* handle), TVMFFIObjectHandle* out) {
  // Any registered object type index is accepted (kTVMFFIOpaquePyObject or a
  // dynamic type whose objects carry a TVMFFIOpaqueObjectCell).
  return SafeInvoke([&]() -> int {
    if (out == nullptr)
      TVM_FFI_THROW(ValueError) << "TVMFFIObjectCreateOpaque: out must not be NULL";
    if (type_index < kTVMFFIStaticObjectBegin || TVMFFIGetTypeInfo(type_index) == nullptr) {
      TVM_FFI_THROW(ValueError) << "TVMFFIObjectCreateOpaque: type index " +
                                       std::to_string(type_index) +
                                       " is not a registered object type";
    }
    *out = tvm::ffi::detail::MakeCustomAllocObject<tvm::ffi::OpaqueObject>(type_index, 0, handle,
                                                                           deleter);
    return 0;
  });
}

}  // extern "C"
