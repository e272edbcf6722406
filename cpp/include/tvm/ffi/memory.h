/*
 * Allocation of objects: make_object<T>, make_arc<T>, make_inplace_array_object<T, Elem>.
 *
 * An object allocated here is freed by the deleter installed here, in the
 * library that allocated it (abi.md §2.3): the deleter is a function of this
 * header instantiated in the allocating library.
 *
 *   ObjectPtr<MyObj> p = make_object<MyObj>(1, 2);
 *   Arc<MyObj> a = make_arc<MyObj>(1, 2);
 *   // An object followed by n elements in the same allocation (strings, shapes):
 *   ObjectPtr<StrObj> s = make_inplace_array_object<StrObj, char>(n);
 */
#ifndef TVM_FFI_MEMORY_H_
#define TVM_FFI_MEMORY_H_

#include <tvm/ffi/object.h>

#include <cstdlib>
#include <new>
#include <type_traits>
#include <utility>

TVM_FFI_NAMESPACE_BEGIN

namespace details {

// Deleter of objects allocated here (with or without an in-place array: the
// object's destructor destroys the elements it constructed).
template <typename T>
struct SimpleObjDeleter {
  static void Delete(void* self, int flags) {
    T* obj = static_cast<T*>(reinterpret_cast<Object*>(self));
    if (flags & kTVMFFIObjectDeleterFlagBitMaskStrong) obj->T::~T();
    if (flags & kTVMFFIObjectDeleterFlagBitMaskWeak) {
      ::operator delete(static_cast<void*>(obj), std::align_val_t{alignof(T)});
    }
  }
};

template <typename T>
void CheckObjectType() {
  static_assert(std::is_base_of_v<Object, T>, "make_object: T must derive from Object");
  static_assert(details::kIsUnqualifiedPointee<T>, "make_object: T must be unqualified");
}

/*! \brief Offset of the in-place array that follows an object of type T. */
template <typename T, typename Elem>
constexpr size_t InplaceArrayOffset() {
  return (sizeof(T) + alignof(Elem) - 1) / alignof(Elem) * alignof(Elem);
}
}  // namespace details

/*! \brief Allocate and construct a T; the new object has strong = weak = 1. */
template <typename T, typename... Args>
inline ObjectPtr<T> make_object(Args&&... args) {
  details::CheckObjectType<T>();
  void* mem = ::operator new(sizeof(T), std::align_val_t{alignof(T)});
  T* obj;
  try {
    obj = new (mem) T(std::forward<Args>(args)...);
  } catch (...) {
    ::operator delete(mem, std::align_val_t{alignof(T)});
    throw;
  }
  details::ObjectUnsafe::InitHeader(obj, T::RuntimeTypeIndex(),
                                    &details::SimpleObjDeleter<T>::Delete);
  return details::ObjectUnsafe::ObjectPtrFromOwned<T>(static_cast<Object*>(obj));
}

/*! \brief Allocate and construct a T as a non-null Arc. */
template <typename T, typename... Args>
inline Arc<T> make_arc(Args&&... args) {
  return Arc<T>::FromObjectPtrUnsafe(make_object<T>(std::forward<Args>(args)...));
}

/*!
 * \brief Allocate a T followed by num_elems uninitialized Elem slots in one
 *  block. The slots start at InplaceArrayBase<T, Elem>(obj).
 */
template <typename T, typename Elem, typename... Args>
inline ObjectPtr<T> make_inplace_array_object(size_t num_elems, Args&&... args) {
  details::CheckObjectType<T>();
  constexpr size_t align = alignof(T) > alignof(Elem) ? alignof(T) : alignof(Elem);
  static_assert(align == alignof(T), "in-place elements may not be more aligned than the object");
  size_t bytes = details::InplaceArrayOffset<T, Elem>() + sizeof(Elem) * num_elems;
  void* mem = ::operator new(bytes, std::align_val_t{alignof(T)});
  T* obj;
  try {
    obj = new (mem) T(std::forward<Args>(args)...);
  } catch (...) {
    ::operator delete(mem, std::align_val_t{alignof(T)});
    throw;
  }
  details::ObjectUnsafe::InitHeader(obj, T::RuntimeTypeIndex(),
                                    &details::SimpleObjDeleter<T>::Delete);
  return details::ObjectUnsafe::ObjectPtrFromOwned<T>(static_cast<Object*>(obj));
}

/*! \return The first in-place element of an object made by make_inplace_array_object. */
template <typename T, typename Elem>
inline Elem* InplaceArrayBase(const T* obj) {
  return reinterpret_cast<Elem*>(reinterpret_cast<char*>(const_cast<T*>(obj)) +
                                 details::InplaceArrayOffset<T, Elem>());
}

TVM_FFI_NAMESPACE_END
#endif  // TVM_FFI_MEMORY_H_
