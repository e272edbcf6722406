/*
 * Allocation of objects: make_object<T>, make_arc<T>, make_inplace_array_object<T, Elem>.
 *
 * An object allocated here is freed by the deleter installed here, in the
 * library that allocated it (docs/abi.md §2.3): the deleter is a function of this
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

#include <cstddef>
#include <cstdlib>
#include <new>
#include <type_traits>
#include <utility>

TVM_FFI_NAMESPACE_BEGIN

/*! \brief Deleter of an object: flags say whether to destroy it and/or free its memory. */
using FObjectDeleter = void (*)(void* obj, int flags);

namespace detail {

/*!
 * \brief Allocate size bytes aligned to align (malloc when the default
 *  alignment suffices, else posix_memalign); throws std::bad_alloc on failure.
 */
inline void* AlignedAlloc(size_t size, size_t align) {
  void* ptr = nullptr;
  if (align <= alignof(std::max_align_t)) {
    ptr = std::malloc(size == 0 ? 1 : size);
  } else {
#if defined(_MSC_VER)
    ptr = _aligned_malloc(size == 0 ? 1 : size, align);
#else
    if (posix_memalign(&ptr, align, size == 0 ? 1 : size) != 0) ptr = nullptr;
#endif
  }
  if (ptr == nullptr) throw std::bad_alloc();
  return ptr;
}

/*! \brief Free memory of AlignedAlloc. */
inline void AlignedFree(void* ptr) {
#if defined(_MSC_VER)
  _aligned_free(ptr);
#else
  std::free(ptr);
#endif
}

/*!
 * \brief Deleter of objects made here (with or without an in-place array: the
 *  object's destructor destroys the elements it constructed). Runs T's
 *  destructor (a qualified, non-virtual call) on the strong flag and frees the
 *  memory on the weak flag.
 */
template <typename T>
struct SimpleObjDeleter {
  static void Delete(void* self, int flags) {
    T* obj = static_cast<T*>(reinterpret_cast<Object*>(self));
    if (flags & kTVMFFIObjectDeleterFlagBitMaskStrong) obj->T::~T();
    if (flags & kTVMFFIObjectDeleterFlagBitMaskWeak) AlignedFree(static_cast<void*>(obj));
  }
};

template <typename T>
void CheckObjectType() {
  static_assert(std::is_base_of_v<Object, T>, "make_object: T must derive from Object");
  static_assert(detail::kIsUnqualifiedPointee<T>, "make_object: T must be unqualified");
}

/*! \brief Offset of the in-place array that follows an object of type T. */
template <typename T, typename Elem>
constexpr size_t InplaceArrayOffset() {
  return (sizeof(T) + alignof(Elem) - 1) / alignof(Elem) * alignof(Elem);
}

/*!
 * \brief Allocator plumbing: Derived provides Handler<T>::New(allocator, args...)
 *  (returns the constructed T*) and Handler<T>::Deleter(), and
 *  ArrayHandler<A, E> likewise with the element count first.
 */
template <typename Derived>
class ObjAllocatorBase {
 public:
  /*! \brief Allocate and construct a T; the new object has strong = weak = 1. */
  template <typename T, typename... Args>
  ObjectPtr<T> make_object(Args&&... args) {
    CheckObjectType<T>();
    using Handler = typename Derived::template Handler<T>;
    T* obj = Handler::New(static_cast<Derived*>(this), std::forward<Args>(args)...);
    ObjectUnsafe::InitHeader(obj, T::RuntimeTypeIndex(), Handler::Deleter());
    return ObjectUnsafe::ObjectPtrFromOwned<T>(static_cast<Object*>(obj));
  }
  /*! \brief Allocate an ArrayType followed by num_elems ElemType slots. */
  template <typename ArrayType, typename ElemType, typename... Args>
  ObjectPtr<ArrayType> make_inplace_array(size_t num_elems, Args&&... args) {
    CheckObjectType<ArrayType>();
    using Handler = typename Derived::template ArrayHandler<ArrayType, ElemType>;
    ArrayType* obj =
        Handler::New(static_cast<Derived*>(this), num_elems, std::forward<Args>(args)...);
    ObjectUnsafe::InitHeader(obj, ArrayType::RuntimeTypeIndex(), Handler::Deleter());
    return ObjectUnsafe::ObjectPtrFromOwned<ArrayType>(static_cast<Object*>(obj));
  }
};

/*! \brief The allocator of make_object: one aligned heap block per object. */
class SimpleObjAllocator : public ObjAllocatorBase<SimpleObjAllocator> {
 public:
  template <typename T>
  class Handler {
   public:
    template <typename... Args>
    static T* New(SimpleObjAllocator*, Args&&... args) {
      void* mem = AlignedAlloc(sizeof(T), alignof(T));
      try {
        return new (mem) T(std::forward<Args>(args)...);
      } catch (...) {
        AlignedFree(mem);
        throw;
      }
    }
    static FObjectDeleter Deleter() { return &SimpleObjDeleter<T>::Delete; }
  };

  template <typename ArrayType, typename ElemType>
  class ArrayHandler {
   public:
    static_assert(alignof(ArrayType) % alignof(ElemType) == 0,
                  "in-place elements may not be more aligned than the object");
    template <typename... Args>
    static ArrayType* New(SimpleObjAllocator*, size_t num_elems, Args&&... args) {
      size_t bytes = InplaceArrayOffset<ArrayType, ElemType>() + sizeof(ElemType) * num_elems;
      bytes = (bytes + alignof(ArrayType) - 1) / alignof(ArrayType) * alignof(ArrayType);
      void* mem = AlignedAlloc(bytes, alignof(ArrayType));
      try {
        return new (mem) ArrayType(std::forward<Args>(args)...);
      } catch (...) {
        AlignedFree(mem);
        throw;
      }
    }
    static FObjectDeleter Deleter() { return Handler<ArrayType>::Deleter(); }
  };
};
}  // namespace detail

/*! \brief Allocate and construct a T; the new object has strong = weak = 1. */
template <typename T, typename... Args>
inline ObjectPtr<T> make_object(Args&&... args) {
  return detail::SimpleObjAllocator().make_object<T>(std::forward<Args>(args)...);
}

/*! \brief Allocate and construct a T as a non-null Arc. */
template <typename T, typename... Args>
inline Arc<T> make_arc(Args&&... args) {
  return Arc<T>::FromObjectPtrUnsafe(make_object<T>(std::forward<Args>(args)...));
}

/*!
 * \brief Allocate a T followed by num_elems uninitialized Elem slots in one
 *  block (the object's destructor destroys the elements it constructed). The
 *  slots start at InplaceArrayBase<T, Elem>(obj), which is (char*)obj +
 *  sizeof(T) whenever sizeof(T) is a multiple of alignof(Elem).
 */
template <typename T, typename Elem, typename... Args>
inline ObjectPtr<T> make_inplace_array_object(size_t num_elems, Args&&... args) {
  return detail::SimpleObjAllocator().make_inplace_array<T, Elem>(num_elems,
                                                                  std::forward<Args>(args)...);
}

/*! \return The first in-place element of an object made by make_inplace_array_object. */
template <typename T, typename Elem>
inline Elem* InplaceArrayBase(const T* obj) {
  return reinterpret_cast<Elem*>(reinterpret_cast<char*>(const_cast<T*>(obj)) +
                                 detail::InplaceArrayOffset<T, Elem>());
}

TVM_FFI_NAMESPACE_END
#endif  // TVM_FFI_MEMORY_H_
