/*
 * A hash map keyed by object address for the traversal engines (structural
 * hash and equality, deep copy): open addressing with linear probing, no
 * erase. The engines memoise one entry per visited object, and
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

/*!
 * \brief Map from non-null addresses to V (default-constructible, movable).
 *  The probed table holds only keys and entry numbers (12 bytes a slot, at
 *  most half full); the values lie densely in insertion order.
 */
template <typename V>
class PointerMap {
 public:
  PointerMap() : keys_(kInitialCapacity, nullptr), entry_of_(kInitialCapacity, 0) {}

  /*! \return The value of key, or null when absent. */
  V* Find(const void* key) {
    for (size_t i = Home(key);; i = (i + 1) & mask()) {
      if (keys_[i] == key) return &values_[entry_of_[i]];
      if (keys_[i] == nullptr) return nullptr;
    }
  }
  const V* Find(const void* key) const { return const_cast<PointerMap*>(this)->Find(key); }

  /*! \return The value of key, default-constructed first when absent. */
  V& operator[](const void* key) {
    if (2 * (values_.size() + 1) > keys_.size()) Grow();
    for (size_t i = Home(key);; i = (i + 1) & mask()) {
      if (keys_[i] == key) return values_[entry_of_[i]];
      if (keys_[i] == nullptr) {
        keys_[i] = key;
        entry_of_[i] = static_cast<uint32_t>(values_.size());
        values_.emplace_back();
        return values_.back();
      }
    }
  }

  size_t size() const { return values_.size(); }

 private:
  static constexpr size_t kInitialCapacity = 64;

  size_t mask() const { return keys_.size() - 1; }

  size_t Home(const void* key) const {
    // Fibonacci hashing: objects are 8-byte aligned and often allocated in sequence.
    uint64_t h = static_cast<uint64_t>(reinterpret_cast<uintptr_t>(key)) * 0x9E3779B97F4A7C15ULL;
    return static_cast<size_t>(h >> 32) & mask();
  }

  void Grow() {
    std::vector<const void*> old_keys(keys_.size() * 2, nullptr);
    std::vector<uint32_t> old_entries(keys_.size() * 2, 0);
    old_keys.swap(keys_);
    old_entries.swap(entry_of_);
    for (size_t k = 0; k < old_keys.size(); ++k) {
      if (old_keys[k] == nullptr) continue;
      size_t i = Home(old_keys[k]);
      while (keys_[i] != nullptr) i = (i + 1) & mask();
      keys_[i] = old_keys[k];
      entry_of_[i] = old_entries[k];
    }
  }

  std::vector<const void*> keys_;
  std::vector<uint32_t> entry_of_;
  std::vector<V> values_;
};

}  // namespace detail
TVM_FFI_NAMESPACE_END

#endif  // TVM_FFI_EXTRA_POINTER_MAP_H_
