/*
 * A hash map keyed by object address for the traversal engines (structural
 * hash and equality, deep copy): open addressing with linear probing in one
 * array, no erase. The engines memoise one entry per visited object, and
 * std::unordered_map's node per entry cost more than the rest of a visit.
 */
#ifndef TVM_FFI_EXTRA_POINTER_MAP_H_
#define TVM_FFI_EXTRA_POINTER_MAP_H_

#include <tvm/ffi/base_details.h>

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

TVM_FFI_NAMESPACE_BEGIN
namespace detail {

/*! \brief Map from non-null addresses to V (default-constructible, movable). */
template <typename V>
class PointerMap {
 public:
  PointerMap() : slots_(kInitialCapacity) {}

  /*! \return The value of key, or null when absent. */
  V* Find(const void* key) {
    for (size_t i = Home(key);; i = (i + 1) & mask()) {
      Slot& slot = slots_[i];
      if (slot.key == key) return &slot.value;
      if (slot.key == nullptr) return nullptr;
    }
  }
  const V* Find(const void* key) const { return const_cast<PointerMap*>(this)->Find(key); }

  /*! \return The value of key, default-constructed first when absent. */
  V& operator[](const void* key) {
    if (2 * (size_ + 1) > slots_.size()) Grow();
    for (size_t i = Home(key);; i = (i + 1) & mask()) {
      Slot& slot = slots_[i];
      if (slot.key == key) return slot.value;
      if (slot.key == nullptr) {
        slot.key = key;
        ++size_;
        return slot.value;
      }
    }
  }

  size_t size() const { return size_; }

 private:
  static constexpr size_t kInitialCapacity = 64;

  struct Slot {
    const void* key = nullptr;
    V value{};
  };

  size_t mask() const { return slots_.size() - 1; }

  size_t Home(const void* key) const {
    // Fibonacci hashing: objects are 8-byte aligned and often allocated in sequence.
    uint64_t h = static_cast<uint64_t>(reinterpret_cast<uintptr_t>(key)) * 0x9E3779B97F4A7C15ULL;
    return static_cast<size_t>(h >> 32) & mask();
  }

  void Grow() {
    std::vector<Slot> old(slots_.size() * 2);
    old.swap(slots_);
    for (Slot& s : old) {
      if (s.key == nullptr) continue;
      size_t i = Home(s.key);
      while (slots_[i].key != nullptr) i = (i + 1) & mask();
      slots_[i].key = s.key;
      slots_[i].value = std::move(s.value);
    }
  }

  std::vector<Slot> slots_;
  size_t size_ = 0;
};

}  // namespace detail
TVM_FFI_NAMESPACE_END

#endif  // TVM_FFI_EXTRA_POINTER_MAP_H_
