/*
 * Bounded-depth destruction of nested containers.
 *
 * Releasing a container's last reference destroys its elements, and an element
 * that is itself a container destroys its own: a chain nested 200k deep would
 * recurse 200k frames and overflow the stack. A ContainerReleaseScope therefore
 * never releases the last reference of a nested Array, List, Map or Dict in
 * place: it keeps such a container on a list of its own, and when the scope
 * ends it takes each listed container's elements out (adding the containers
 * among them to the list), then frees the emptied container, which has nothing
 * left to release. The chain is walked by one loop on the outermost frame.
 *
 * The state lives in the scope object on the stack: inline header code keeps
 * no thread-local or static state (JIT loaders such as ORC cannot give it one,
 * and the other implementation's runtime knows nothing of it). Taking the
 * elements out relies only on the container layouts both implementations share
 * (c_api.h's TVMFFISeqCell; the Map layout of map_base.h), so containers made by
 * code built against either set of headers are drained alike.
 */
#ifndef TVM_FFI_CONTAINER_RELEASE_SCOPE_H_
#define TVM_FFI_CONTAINER_RELEASE_SCOPE_H_

#include <tvm/ffi/c_api.h>
#include <tvm/ffi/object.h>

#include <cstddef>
#include <cstdlib>

TVM_FFI_NAMESPACE_BEGIN
namespace detail {

/*! \return Whether a type index is Array, List, Map or Dict: the containers that nest. */
inline bool IsContainerTypeIndex(int32_t type_index) {
  return type_index == kTVMFFIArray || type_index == kTVMFFIList || type_index == kTVMFFIMap ||
         type_index == kTVMFFIDict;
}

/*!
 * \brief Releases the elements of one container being destroyed (or cleared).
 *  Nested containers whose last reference it holds are emptied iteratively
 *  when the scope ends (the destructor is defined in map_base.h, which knows
 *  the Map layout; seq_base.h includes it).
 */
class ContainerReleaseScope {
 public:
  ContainerReleaseScope() = default;
  ContainerReleaseScope(const ContainerReleaseScope&) = delete;
  ContainerReleaseScope& operator=(const ContainerReleaseScope&) = delete;

  /*! \brief Release the value a cell owns. */
  void Release(const TVMFFIAny& cell) {
    if (cell.type_index < kTVMFFIStaticObjectBegin) return;
    TVMFFIObject* obj = cell.v_obj;
    if (IsContainerTypeIndex(cell.type_index) &&
        (__atomic_load_n(&obj->combined_ref_count, __ATOMIC_RELAXED) &
         kCombinedRefCountMaskUInt32) == 1) {
      // Out of memory for the list: release in place (a deeper stack, no leak).
      if (Push(obj)) return;
    }
    ObjectUnsafe::DecRef(obj);
  }

  inline ~ContainerReleaseScope();

 private:
  /*! \brief Append obj; false when out of memory. */
  bool Push(TVMFFIObject* obj) {
    if (size_ == capacity_) {
      size_t cap = capacity_ == 0 ? 16 : capacity_ * 2;
      void* grown = std::realloc(static_cast<void*>(pending_), cap * sizeof(TVMFFIObject*));
      if (grown == nullptr) return false;
      pending_ = static_cast<TVMFFIObject**>(grown);
      capacity_ = cap;
    }
    pending_[size_++] = obj;
    return true;
  }

  /*! \brief Move the elements of an Array or List whose last reference we hold into this scope. */
  void TakeSeqElements(TVMFFIObject* obj) {
    TVMFFISeqCell* cell = reinterpret_cast<TVMFFISeqCell*>(obj + 1);
    TVMFFIAny* slots = static_cast<TVMFFIAny*>(cell->data);
    int64_t n = cell->size;
    cell->size = 0;
    for (int64_t i = 0; i < n; ++i) Release(slots[i]);
  }

  /*! \brief Move the entries of a Map or Dict whose last reference we hold into this scope. */
  inline void TakeMapEntries(TVMFFIObject* obj);

  TVMFFIObject** pending_ = nullptr;
  size_t size_ = 0;
  size_t capacity_ = 0;
};

}  // namespace detail
TVM_FFI_NAMESPACE_END

#endif  // TVM_FFI_CONTAINER_RELEASE_SCOPE_H_
