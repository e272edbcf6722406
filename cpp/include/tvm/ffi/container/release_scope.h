/*
 * Bounded-depth destruction of nested containers.
 *
 * Releasing a container's last reference destroys its elements, and an element
 * that is itself a container destroys its own: a chain nested 200k deep would
 * recurse 200k frames and overflow the stack. The outermost container
 * destruction on a thread therefore becomes a drain: a container destroyed
 * beneath it hands the elements whose last reference it holds to a
 * thread-local list instead of releasing them in place, and the outermost one
 * releases that list until it is empty. Each container frame is then at most a
 * few levels deep, whatever the nesting.
 */
#ifndef TVM_FFI_CONTAINER_RELEASE_SCOPE_H_
#define TVM_FFI_CONTAINER_RELEASE_SCOPE_H_

#include <tvm/ffi/c_api.h>
#include <tvm/ffi/object.h>

#include <cstddef>
#include <cstdlib>

TVM_FFI_NAMESPACE_BEGIN
namespace detail {

/*!
 * \brief Per-thread state of the container drain. Trivially destructible, so
 *  that containers released by other thread-local destructors at thread exit
 *  still find it valid; the list's buffer is freed whenever a drain ends.
 */
struct ContainerReleaseState {
  bool draining;
  TVMFFIObject** pending;
  size_t size;
  size_t capacity;

  /*! \brief Append obj; false when out of memory. */
  bool Push(TVMFFIObject* obj) {
    if (size == capacity) {
      size_t cap = capacity == 0 ? 64 : capacity * 2;
      void* grown = std::realloc(static_cast<void*>(pending), cap * sizeof(TVMFFIObject*));
      if (grown == nullptr) return false;
      pending = static_cast<TVMFFIObject**>(grown);
      capacity = cap;
    }
    pending[size++] = obj;
    return true;
  }
};

inline ContainerReleaseState& ThreadContainerReleaseState() {
  static thread_local ContainerReleaseState state{false, nullptr, 0, 0};
  return state;
}

/*!
 * \brief Releases the elements of one container being destroyed (or cleared):
 *  in place when it is the outermost on the thread, else deferring those it
 *  holds the last reference of to the outermost one.
 */
class ContainerReleaseScope {
 public:
  ContainerReleaseScope() : state_(ThreadContainerReleaseState()), outer_(!state_.draining) {
    state_.draining = true;
  }
  ContainerReleaseScope(const ContainerReleaseScope&) = delete;
  ContainerReleaseScope& operator=(const ContainerReleaseScope&) = delete;

  /*! \brief Release the value a cell owns. */
  void Release(const TVMFFIAny& cell) {
    if (cell.type_index < kTVMFFIStaticObjectBegin) return;
    TVMFFIObject* obj = cell.v_obj;
    if (!outer_ && (__atomic_load_n(&obj->combined_ref_count, __ATOMIC_RELAXED) &
                    kCombinedRefCountMaskUInt32) == 1) {
      // Out of memory for the list: release in place (a deeper stack, no leak).
      if (state_.Push(obj)) return;
    }
    ObjectUnsafe::DecRef(obj);
  }

  ~ContainerReleaseScope() {
    if (!outer_) return;
    while (state_.size != 0) {
      TVMFFIObject* obj = state_.pending[--state_.size];
      ObjectUnsafe::DecRef(obj);
    }
    std::free(static_cast<void*>(state_.pending));
    state_.pending = nullptr;
    state_.capacity = 0;
    state_.draining = false;
  }

 private:
  ContainerReleaseState& state_;
  bool outer_;
};

}  // namespace detail
TVM_FFI_NAMESPACE_END

#endif  // TVM_FFI_CONTAINER_RELEASE_SCOPE_H_
