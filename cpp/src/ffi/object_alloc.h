/*
 * Private helper of the runtime: objects whose body comes from the
 * process-wide custom allocator (TVMFFIGetCustomAllocator). Used for the
 * objects the C functions create on behalf of their callers (opaque objects,
 * BigInt); their deleter hands the space back through the alloc header that
 * precedes the body.
 */
#ifndef TVM_FFI_SRC_FFI_OBJECT_ALLOC_H_
#define TVM_FFI_SRC_FFI_OBJECT_ALLOC_H_

#include <tvm/ffi/c_api.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/object.h>

#include <cstddef>
#include <new>
#include <utility>

TVM_FFI_NAMESPACE_BEGIN
namespace detail {

/*! \brief Deleter of objects made by MakeCustomAllocObject<T>. */
template <typename T>
void CustomAllocObjectDeleter(void* self, int flags) {
  T* obj = reinterpret_cast<T*>(self);
  if (flags & kTVMFFIObjectDeleterFlagBitMaskStrong) obj->~T();
  if (flags & kTVMFFIObjectDeleterFlagBitMaskWeak) {
    TVMFFIObjectAllocHeader* header = reinterpret_cast<TVMFFIObjectAllocHeader*>(self) - 1;
    if (header->delete_space != nullptr) header->delete_space(self);
  }
}

/*!
 * \brief Construct a T (whose first bytes are the TVMFFIObject header) in a
 *  body of sizeof(T) + extra_bytes from the custom allocator, and fill its
 *  header: strong = weak = 1, type_index, the deleter above.
 * \return The new object, owned by the caller. An allocator failure is
 *  rethrown as the error it raised.
 */
template <typename T, typename... Args>
T* MakeCustomAllocObject(int32_t type_index, size_t extra_bytes, Args&&... args) {
  TVMFFICustomAllocator* alloc = TVMFFIGetCustomAllocator();
  void* body = alloc->allocate(sizeof(T) + extra_bytes, alignof(T), type_index, alloc->context);
  if (body == nullptr) throw MoveFromRaised(__FILE__, __LINE__, TVM_FFI_FUNC_SIG);
  T* obj;
  try {
    obj = new (body) T(std::forward<Args>(args)...);
  } catch (...) {
    TVMFFIObjectAllocHeader* header = static_cast<TVMFFIObjectAllocHeader*>(body) - 1;
    if (header->delete_space != nullptr) header->delete_space(body);
    throw;
  }
  TVMFFIObject* header = reinterpret_cast<TVMFFIObject*>(obj);
  header->combined_ref_count = kCombinedRefCountBothOne;
  header->type_index = type_index;
  header->__padding = 0;
  header->deleter = &CustomAllocObjectDeleter<T>;
  return obj;
}

}  // namespace detail
TVM_FFI_NAMESPACE_END

#endif  // TVM_FFI_SRC_FFI_OBJECT_ALLOC_H_
