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

/*! \brief Hint that p will be read soon (traversals touch objects scattered in memory). */
inline void PrefetchRead(const void* p) {
#if defined(__GNUC__) || defined(__clang__)
  __builtin_prefetch(p);
#else
  (void)p;
#endif
}

/*!
 * \brief Map from non-null addresses to V (default-constructible, movable).
 *  The probed table holds only keys and entry numbers (one 16-byte slot, so a
 *  probe touches one cache line; at most half full); the values lie densely
 *  in insertion order and keep their entry numbers as the table grows.
 */
template <typename V>
class PointerMap {
 public:
  // The table is allocated by the first Insert: many engine runs compare or hash values that
  // memoise nothing (PODs, strings), and a run should not pay for an empty table.
  PointerMap() = default;

  /*! \return The value of key, or null when absent. */
  V* Find(const void* key) {
    if (slots_.empty()) return nullptr;
    for (size_t i = Home(key);; i = (i + 1) & mask()) {
      if (slots_[i].key == key) return &values_[slots_[i].entry];
      if (slots_[i].key == nullptr) return nullptr;
    }
  }
  const V* Find(const void* key) const { return const_cast<PointerMap*>(this)->Find(key); }

  /*!
   * \brief Find key, adding it (with a default-constructed value) when absent:
   *  one probe where Find then operator[] take two.
   * \return The entry number of key (see value()) and whether it was added.
   */
  std::pair<uint32_t, bool> Insert(const void* key) {
    if (2 * (values_.size() + 1) > slots_.size()) Grow();
    for (size_t i = Home(key);; i = (i + 1) & mask()) {
      if (slots_[i].key == key) return {slots_[i].entry, false};
      if (slots_[i].key == nullptr) {
        uint32_t entry = static_cast<uint32_t>(values_.size());
        slots_[i] = Slot{key, entry};
        values_.emplace_back();
        return {entry, true};
      }
    }
  }

  /*! \brief Start loading the slot where a probe for key begins (a hint; no effect on the map). */
  void Prefetch(const void* key) const {
    if (!slots_.empty()) PrefetchRead(&slots_[Home(key)]);
  }

  /*! \return The value of an entry number that Insert returned. */
  V& value(uint32_t entry) { return values_[entry]; }

  /*! \return The value of key, default-constructed first when absent. */
  V& operator[](const void* key) { return values_[Insert(key).first]; }

  size_t size() const { return values_.size(); }

 private:
  static constexpr size_t kInitialCapacity = 64;

  struct Slot {
    const void* key = nullptr;
    uint32_t entry = 0;
  };

  size_t mask() const { return slots_.size() - 1; }

  size_t Home(const void* key) const {
    // Fibonacci hashing: objects are 8-byte aligned and often allocated in sequence.
    uint64_t h = static_cast<uint64_t>(reinterpret_cast<uintptr_t>(key)) * 0x9E3779B97F4A7C15ULL;
    return static_cast<size_t>(h >> 32) & mask();
  }

  void Grow() {
    std::vector<Slot> old(slots_.empty() ? kInitialCapacity : slots_.size() * 2);
    old.swap(slots_);
    for (const Slot& s : old) {
      if (s.key == nullptr) continue;
      size_t i = Home(s.key);
      while (slots_[i].key != nullptr) i = (i + 1) & mask();
      slots_[i] = s;
    }
  }

  std::vector<Slot> slots_;
  std::vector<V> values_;
};

}  // namespace detail
TVM_FFI_NAMESPACE_END

#endif  // TVM_FFI_EXTRA_POINTER_MAP_H_
