/*
 * The hash table shared by Map (immutable, copy-on-write) and Dict (mutable,
 * shared): MapBaseObj (with MapObj, DictObj) and the typed read API both
 * reference classes use.
 *
 * The object layout, the key hash (AnyHash) and key equality (AnyEqual) are
 * part of the binary contract: a library compiled against another copy of
 * these headers reads, grows and erases our maps inline and we read its maps
 * (see MapBaseObj). Iteration follows insertion order.
 */
#ifndef TVM_FFI_CONTAINER_MAP_BASE_H_
#define TVM_FFI_CONTAINER_MAP_BASE_H_

#include <tvm/ffi/any.h>
#include <tvm/ffi/container/container_detail.h>
#include <tvm/ffi/container/release_scope.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/memory.h>
#include <tvm/ffi/object.h>
#include <tvm/ffi/optional.h>
#include <tvm/ffi/string.h>
#include <tvm/ffi/type_traits.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <limits>
#include <new>
#include <optional>
#include <sstream>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

TVM_FFI_NAMESPACE_BEGIN

namespace detail {

/*! \brief One key/value pair, laid out as std::pair<Any, Any> (32 bytes). */
struct MapKV {
  TVMFFIAny key;
  TVMFFIAny value;
};

/*! \brief A slot of the dense layout: the pair, then the insertion-order links (slot indices). */
struct DenseMapItem {
  MapKV kv;
  uint64_t prev;
  uint64_t next;
};

/*! \brief 16 metadata bytes followed by the 16 slots they describe. */
struct DenseMapBlock {
  uint8_t meta[16];
  DenseMapItem items[16];
};

/*! \brief The fields the dense layout adds right after the 56-byte map object. */
struct DenseMapExtra {
  uint32_t fib_shift;
  uint64_t iter_list_head;
  uint64_t iter_list_tail;
};

static_assert(sizeof(MapKV) == 32 && sizeof(DenseMapItem) == 48 && sizeof(DenseMapBlock) == 784,
              "map storage layout is part of the binary contract");

/*! \brief Bit 63 of slots_: the small layout (the low bits are then its capacity). */
constexpr uint64_t kMapSmallFlag = uint64_t{1} << 63;
/*! \brief "No slot": the end of the insertion-order list. */
constexpr uint64_t kMapNoIndex = ~uint64_t{0};
/*! \brief The most pairs the small layout holds; one more converts to the dense layout. */
constexpr uint64_t kMapSmallMax = 4;
/*! \brief Metadata byte values: empty slot, slot reserved during a move, "not a chain head" bit. */
constexpr uint8_t kMapEmptySlot = 0xFF;
constexpr uint8_t kMapProtectedSlot = 0xFE;
constexpr uint8_t kMapNotHead = 0x80;
constexpr uint8_t kMapJumpMask = 0x7F;
/*! \brief 2^64 / golden ratio: slot = (kMapFibMul * hash) >> fib_shift. */
constexpr uint64_t kMapFibMul = 11400714819323198485ULL;
/*!
 * \brief The number of jump indices of the dense layout (metadata bits 0..6; 126 and 127 are
 *  never written). A chain holding an index outside the table (a corrupt map) sends reads to a
 *  full scan and writes to a rebuild, which stays correct either way.
 */
constexpr uint8_t kMapKnownJumps = 126;

/*!
 * \brief Roots n of the triangular numbers n(n+1)/2 that are the jump distances of indices 16..125
 *  (binary contract: every implementation must probe with the same distances). Indices 0..15
 *  jump by their own value; 16..81 are consecutive triangular numbers (n = 6..71); from index 82
 *  the roots grow by about 1.5x, so a chain can reach far across large tables. The far entries
 *  were checked against maps built by the other implementation (distances modulo the table size,
 *  which is all a lookup uses).
 */
constexpr uint32_t kMapJumpRoots[kMapKnownJumps - 16] = {
    6,         7,         8,         9,          10,         11,        12,        13,
    14,        15,        16,        17,         18,         19,        20,        21,
    22,        23,        24,        25,         26,         27,        28,        29,
    30,        31,        32,        33,         34,         35,        36,        37,
    38,        39,        40,        41,         42,         43,        44,        45,
    46,        47,        48,        49,         50,         51,        52,        53,
    54,        55,        56,        57,         58,         59,        60,        61,
    62,        63,        64,        65,         66,         67,        68,        69,
    70,        71,        87,        130,        195,        292,       438,       657,
    986,       1478,      2217,      3326,       4988,       7482,      11223,     16835,
    25252,     37877,     56816,     85223,      127835,     191752,    287627,    431440,
    647160,    970740,    1456110,   2184165,    3276247,    4914370,   7371555,   11057333,
    16585999,  24878998,  37318497,  55977745,   83966618,   125949926, 188924889, 283387334,
    425081001, 637621501, 956432251, 1434648376, 2151972564, 3227958846};

/*! \brief The jump distance of every index (kMapJumpRoots expanded). */
struct MapJumpTable {
  uint64_t distance[kMapKnownJumps];
  constexpr MapJumpTable() : distance() {
    for (uint64_t k = 0; k < 16; ++k) distance[k] = k;
    for (uint64_t k = 16; k < kMapKnownJumps; ++k) {
      uint64_t n = kMapJumpRoots[k - 16];
      distance[k] = n * (n + 1) / 2;
    }
  }
};
inline constexpr MapJumpTable kMapJumps{};
static_assert(kMapJumps.distance[16] == 21 && kMapJumps.distance[81] == 2556 &&
                  kMapJumps.distance[82] == 3828 &&
                  kMapJumps.distance[125] == 5209859157348805281ULL,
              "jump distances are part of the binary contract");

/*! \return The distance of jump index k (k < kMapKnownJumps). */
TVM_FFI_INLINE uint64_t MapJumpDistance(uint64_t k) { return kMapJumps.distance[k]; }

/*! \return The key hash (AnyHash, also over borrowed string forms used for lookups). */
TVM_FFI_INLINE uint64_t MapKeyHash(const TVMFFIAny* key) {
  if (key->type_index < kTVMFFIStaticObjectBegin && key->type_index != kTVMFFISmallStr &&
      key->type_index != kTVMFFISmallBytes && key->type_index != kTVMFFIRawStr &&
      key->type_index != kTVMFFIByteArrayPtr) {
    return StableHashCombine(static_cast<uint64_t>(key->type_index), key->v_uint64);
  }
  return AnyHash::Hash(key);
}

/*!
 * \brief Key equality of the table (AnyEqual). Identical cells, the usual hit,
 *  cost two compares.
 */
TVM_FFI_INLINE bool MapKeyEqual(const TVMFFIAny* stored, const TVMFFIAny* query) {
  uint64_t s0, q0;
  std::memcpy(&s0, stored, sizeof(s0));  // type_index and small_str_len / padding
  std::memcpy(&q0, query, sizeof(q0));
  if (s0 == q0 && stored->v_uint64 == query->v_uint64) return true;
  if (stored->type_index < kTVMFFIStaticObjectBegin && stored->type_index != kTVMFFISmallStr &&
      stored->type_index != kTVMFFISmallBytes) {
    return false;
  }
  return AnyEqual::Equal(stored, query);
}

inline void MapCellIncRef(const TVMFFIAny& cell) {
  if (cell.type_index >= kTVMFFIStaticObjectBegin) ObjectUnsafe::IncRef(cell.v_obj);
}
inline void MapCellDecRef(const TVMFFIAny& cell) {
  if (cell.type_index >= kTVMFFIStaticObjectBegin) ObjectUnsafe::DecRef(cell.v_obj);
}

// Storage deleters: data_deleter_ frees only the memory; the pairs are released before.
inline void MapFreeSmallStorage(void* data) { ::operator delete(data); }
inline void MapFreeDenseStorage(void* data) { delete[] static_cast<DenseMapBlock*>(data); }
/*! \brief KeyError of a lookup that found nothing: the same text for every key, Map or Dict. */
[[noreturn]] inline void ThrowMapKeyError() {
  TVM_FFI_THROW(KeyError) << "key is not in Map";
  TVM_FFI_UNREACHABLE();  // the builder above throws
}

}  // namespace detail

/*!
 * \brief The storage shared by MapObj and DictObj, laid out exactly as the
 *  binary contract says, because libraries built against other copies of
 *  these headers read, grow and erase the same objects inline:
 *
 *  - offset 24 `data_`, 32 `size_`, 40 `slots_` (bit 63 set: small layout,
 *    low bits its capacity; else the dense slot count), 48 `data_deleter_`
 *    (frees `data_` when not null); 56 bytes in all.
 *  - small layout: up to 4 pairs at `data_` (in place after the object, or
 *    on the heap), scanned linearly in insertion order.
 *  - dense layout: `fib_shift` (56), insertion-list head (64) and tail (72)
 *    follow the object; `data_` is an array of DenseMapBlock (16 metadata
 *    bytes + 16 slots). Keys of one home slot form a chain starting at it;
 *    each metadata byte holds "not the head" (bit 7) and the jump index to
 *    the next element (0 = last).
 *
 * Every object this code allocates has room for at least one in-place pair
 * (88 bytes), so a dict can switch to the dense layout in place.
 */
class MapBaseObj : public Object {
 public:
  using key_type = Any;
  using mapped_type = Any;
  using KVType = std::pair<Any, Any>;

  MapBaseObj() = default;
  MapBaseObj(const MapBaseObj&) = delete;
  MapBaseObj& operator=(const MapBaseObj&) = delete;
  ~MapBaseObj() {
    ReleaseAllPairs();
    if (data_deleter_ != nullptr) data_deleter_(data_);
  }

  /*! \return The number of entries. */
  size_t size() const { return static_cast<size_t>(size_); }
  bool empty() const { return size_ == 0; }
  /*! \return Whether the small (linear) layout is in use. */
  bool IsSmall() const { return (slots_ & detail::kMapSmallFlag) != 0; }
  /*! \return The capacity of the small layout, or the slot count of the dense one. */
  uint64_t SlotCount() const { return slots_ & ~detail::kMapSmallFlag; }

  // ---- cursor API: an index is a pair position (small) or a slot (dense) ----

  /*! \return The index of the first entry in insertion order (EndIndex() when empty). */
  uint64_t BeginIndex() const {
    if (IsSmall()) return 0;
    return size_ == 0 ? slots_ : Extra()->iter_list_head;
  }
  /*! \return The past-the-end index. */
  uint64_t EndIndex() const { return IsSmall() ? size_ : slots_; }
  /*! \return The index after i in insertion order. */
  uint64_t NextIndex(uint64_t i) const {
    if (IsSmall()) return i + 1;
    uint64_t next = Item(i).next;
    return next == detail::kMapNoIndex ? slots_ : next;
  }
  /*! \return The index before i (i may be EndIndex()). */
  uint64_t PrevIndex(uint64_t i) const {
    if (IsSmall()) return i - 1;
    if (i == slots_) return Extra()->iter_list_tail;
    return Item(i).prev;
  }
  /*! \return Whether index i names a live entry (false for end and stale indices). */
  bool IsLiveIndex(uint64_t i) const {
    if (IsSmall()) return i < size_;
    return i < slots_ && Meta(i) != detail::kMapEmptySlot && Meta(i) != detail::kMapProtectedSlot;
  }
  /*! \return The pair at index i. */
  detail::MapKV& KVAt(uint64_t i) const { return IsSmall() ? SmallData()[i] : Item(i).kv; }

  /*! \return The index of key, or EndIndex(). */
  TVM_FFI_INLINE uint64_t FindIndex(const TVMFFIAny* key) const {
    if (IsSmall()) {
      detail::MapKV* d = SmallData();
      for (uint64_t i = 0; i < size_; ++i) {
        if (detail::MapKeyEqual(&d[i].key, key)) return i;
      }
      return size_;
    }
    uint64_t i = DenseFind(key, detail::MapKeyHash(key));
    return i == detail::kMapNoIndex ? slots_ : i;
  }
  /*! \return The value stored for key, or nullptr. The path every lookup takes. */
  TVM_FFI_INLINE const TVMFFIAny* FindValue(const TVMFFIAny* key) const {
    if (IsSmall()) {
      detail::MapKV* d = SmallData();
      for (uint64_t i = 0; i < size_; ++i) {
        if (detail::MapKeyEqual(&d[i].key, key)) return &d[i].value;
      }
      return nullptr;
    }
    uint64_t i = DenseFind(key, detail::MapKeyHash(key));
    return i == detail::kMapNoIndex ? nullptr : &Item(i).kv.value;
  }

  // ---- public container API over Any ----

  /*! \brief Iterator over the entries in insertion order; dereferences to KVType&. */
  class iterator {
   public:
    using iterator_category = std::bidirectional_iterator_tag;
    using value_type = KVType;
    using difference_type = std::ptrdiff_t;
    using pointer = KVType*;
    using reference = KVType&;
    iterator() = default;
    iterator(const MapBaseObj* self, uint64_t index) : self_(self), index_(index) {}
    reference operator*() const { return *reinterpret_cast<KVType*>(&self_->KVAt(index_)); }
    pointer operator->() const { return &**this; }
    iterator& operator++() {
      index_ = self_->NextIndex(index_);
      return *this;
    }
    iterator& operator--() {
      index_ = self_->PrevIndex(index_);
      return *this;
    }
    iterator operator++(int) {
      iterator old = *this;
      ++*this;
      return old;
    }
    iterator operator--(int) {
      iterator old = *this;
      --*this;
      return old;
    }
    bool operator==(const iterator& o) const { return self_ == o.self_ && index_ == o.index_; }
    bool operator!=(const iterator& o) const { return !(*this == o); }
    /*! \return The cursor index (see BeginIndex). */
    uint64_t index() const { return index_; }

   private:
    const MapBaseObj* self_{nullptr};
    uint64_t index_{0};
  };
  using const_iterator = iterator;

  iterator begin() const { return iterator(this, BeginIndex()); }
  iterator end() const { return iterator(this, EndIndex()); }
  /*! \return An iterator at key, or end(). */
  iterator find(const Any& key) const {
    return iterator(this, FindIndex(detail::AnyUnsafe::GetTVMFFIAny(key)));
  }
  /*! \return 1 if key is present, else 0. */
  size_t count(const Any& key) const { return find(key) == end() ? 0 : 1; }
  /*! \return The value of key; KeyError when it is missing. */
  const Any& at(const Any& key) const {
    const TVMFFIAny* v = FindValue(detail::AnyUnsafe::GetTVMFFIAny(key));
    if (v == nullptr) detail::ThrowMapKeyError();
    return *reinterpret_cast<const Any*>(v);
  }
  Any& at(const Any& key) {
    const TVMFFIAny* v = FindValue(detail::AnyUnsafe::GetTVMFFIAny(key));
    if (v == nullptr) detail::ThrowMapKeyError();
    return *reinterpret_cast<Any*>(const_cast<TVMFFIAny*>(v));
  }
  /*! \brief Remove the entry at it (in place). */
  void erase(const iterator& it) {
    if (it.index() != EndIndex()) EraseIndex(it.index());
  }
  /*! \brief Remove key if present (in place). */
  void erase(const Any& key) { Erase(detail::AnyUnsafe::GetTVMFFIAny(key)); }
  /*! \brief Remove every entry, keeping the storage. */
  void clear() { Clear(); }

  // ---- mutation used by Map, Dict and the runtime ----

  /*!
   * \brief Insert key (or replace its value). A small layout grows in place
   *  up to kMapSmallMax pairs; beyond that it switches to the dense layout in
   *  place only when dense_in_place is true (the object must then be at least
   *  80 bytes), else returns false without changing anything. On success key
   *  and value are consumed. A replaced key keeps its position in the small
   *  layout and moves to the end in the dense one.
   */
  bool Insert(Any* key, Any* value, bool dense_in_place) {
    TVMFFIAny* k = detail::AnyUnsafe::GetTVMFFIAny(key);
    TVMFFIAny* v = detail::AnyUnsafe::GetTVMFFIAny(value);
    if (IsSmall()) {
      detail::MapKV* d = SmallData();
      for (uint64_t i = 0; i < size_; ++i) {
        if (detail::MapKeyEqual(&d[i].key, k)) {
          std::swap(d[i].value, *v);  // the old value leaves with *value
          return true;
        }
      }
      uint64_t cap = SlotCount();
      if (size_ == cap) {
        if (cap < detail::kMapSmallMax) {
          GrowSmall(std::min<uint64_t>(std::max<uint64_t>(cap * 2, 2), detail::kMapSmallMax));
        } else if (dense_in_place) {
          Rehash(DenseSlotsFor(cap));
        } else {
          return false;
        }
      }
      if (IsSmall()) {
        detail::MapKV* slot = SmallData() + size_;
        slot->key = detail::AnyUnsafe::MoveAnyToTVMFFIAny(std::move(*key));
        slot->value = detail::AnyUnsafe::MoveAnyToTVMFFIAny(std::move(*value));
        ++size_;
        return true;
      }
    }
    DenseInsert(k, v, detail::MapKeyHash(k));
    return true;
  }

  /*! \brief Remove key; returns whether it was present. */
  bool Erase(const TVMFFIAny* key) {
    uint64_t i = FindIndex(key);
    if (i == EndIndex()) return false;
    EraseIndex(i);
    return true;
  }

  /*! \brief Remove the entry at a live index. */
  void EraseIndex(uint64_t i) {
    detail::MapKV old;
    if (IsSmall()) {
      detail::MapKV* d = SmallData();
      old = d[i];
      std::memmove(static_cast<void*>(d + i), d + i + 1, sizeof(detail::MapKV) * (size_ - i - 1));
      --size_;
    } else {
      old = Item(i).kv;
      DenseRemoveSlot(i);
    }
    // Released last: a destructor may run code that reads this map.
    detail::MapCellDecRef(old.key);
    detail::MapCellDecRef(old.value);
  }

  /*! \brief Remove every entry, keeping the layout and storage. */
  void Clear() {
    detail::ContainerReleaseScope release;
    DetachEntriesInto(&release);
  }

  /*!
   * \brief Empty the table (keeping layout and storage), then hand every
   *  detached key and value to release. Detached first, so a destructor that
   *  reads this map sees it empty.
   */
  void DetachEntriesInto(detail::ContainerReleaseScope* release) {
    std::vector<detail::MapKV> old;
    old.reserve(size_);
    for (uint64_t i = BeginIndex(); i != EndIndex(); i = NextIndex(i)) old.push_back(KVAt(i));
    if (!IsSmall()) {
      for (uint64_t b = 0; b < BlockCount(slots_); ++b) {
        std::memset(Blocks()[b].meta, detail::kMapEmptySlot, 16);
      }
      Extra()->iter_list_head = Extra()->iter_list_tail = detail::kMapNoIndex;
    }
    size_ = 0;
    for (const detail::MapKV& kv : old) {
      release->Release(kv.key);
      release->Release(kv.value);
    }
  }

  /*! \brief Make room for n entries (switching to the dense layout in place if needed). */
  void Reserve(uint64_t n) {
    if (n <= SlotCount() && IsSmall()) return;
    if (IsSmall()) {
      if (n <= detail::kMapSmallMax) {
        GrowSmall(n);
      } else {
        Rehash(DenseSlotsFor(n));
      }
    } else if ((n + 1) * 100 > slots_ * 99) {
      Rehash(DenseSlotsFor(n));
    }
  }

  /*!
   * \brief Fill this object (fresh and empty, sized for it) with copies of
   *  src's entries; a dense source of fitting size is copied slot for slot.
   */
  void CopyFrom(const MapBaseObj& src) {
    if (!src.IsSmall() && !IsSmall() && slots_ == src.slots_) {
      std::memcpy(static_cast<void*>(data_), src.data_,
                  sizeof(detail::DenseMapBlock) * BlockCount(slots_));
      *Extra() = *src.Extra();
      size_ = src.size_;
      for (uint64_t i = BeginIndex(); i != detail::kMapNoIndex && i != slots_; i = Item(i).next) {
        detail::MapCellIncRef(Item(i).kv.key);
        detail::MapCellIncRef(Item(i).kv.value);
      }
      return;
    }
    for (uint64_t i = src.BeginIndex(); i != src.EndIndex(); i = src.NextIndex(i)) {
      const detail::MapKV& kv = src.KVAt(i);
      Any k = AnyView::CopyFromTVMFFIAny(kv.key);
      Any v = AnyView::CopyFromTVMFFIAny(kv.value);
      Insert(&k, &v, true);
    }
  }

  /*!
   * \brief A new, empty T (MapObj or DictObj) with room for n entries: the
   *  small layout in place for n <= 4, else the dense layout.
   */
  template <typename T>
  static ObjectPtr<T> Create(uint64_t n) {
    uint64_t cap = n <= detail::kMapSmallMax ? std::max<uint64_t>(n, 2) : 1;
    ObjectPtr<T> obj = make_inplace_array_object<T, detail::MapKV>(cap);
    obj->data_ = InplaceArrayBase<T, detail::MapKV>(obj.get());
    obj->size_ = 0;
    obj->slots_ = detail::kMapSmallFlag | cap;
    obj->data_deleter_ = nullptr;
    if (n > detail::kMapSmallMax) obj->Rehash(DenseSlotsFor(n));
    return obj;
  }

  /*! \return A new T holding copies of src's entries, with room for extra more. */
  template <typename T>
  static ObjectPtr<T> CreateCopy(const MapBaseObj& src, uint64_t extra) {
    uint64_t n = src.size_ + extra;
    ObjectPtr<T> obj;
    if (!src.IsSmall() && (n + 1) * 100 <= src.slots_ * 99) {
      obj = Create<T>(1);
      obj->Rehash(src.slots_);
    } else if (src.IsSmall() && n > detail::kMapSmallMax) {
      // Leaving the small layout: the dense table starts at twice the small capacity.
      uint64_t slots = DenseSlotsFor(std::max<uint64_t>(src.size_, detail::kMapSmallMax));
      while ((n + 1) * 100 > slots * 99) slots *= 2;
      obj = Create<T>(1);
      obj->Rehash(slots);
    } else {
      obj = Create<T>(n);
    }
    obj->CopyFrom(src);
    return obj;
  }

 protected:
  detail::MapKV* SmallData() const { return static_cast<detail::MapKV*>(data_); }
  detail::DenseMapExtra* Extra() const {
    return reinterpret_cast<detail::DenseMapExtra*>(
        reinterpret_cast<char*>(const_cast<MapBaseObj*>(this)) + sizeof(MapBaseObj));
  }
  detail::DenseMapBlock* Blocks() const { return static_cast<detail::DenseMapBlock*>(data_); }
  uint8_t& Meta(uint64_t i) const { return Blocks()[i >> 4].meta[i & 15]; }
  detail::DenseMapItem& Item(uint64_t i) const { return Blocks()[i >> 4].items[i & 15]; }
  static uint64_t BlockCount(uint64_t slots) { return (slots + 15) / 16; }
  // A power of two with room for n at half load (the dense layout is never under 8 slots).
  static uint64_t DenseSlotsFor(uint64_t n) {
    uint64_t s = 8;
    while (s < 2 * n) s *= 2;
    return s;
  }

  // The dense table being built or edited: a view of the fields of one layout.
  struct DenseView {
    detail::DenseMapBlock* blocks;
    uint64_t slots;
    uint32_t shift;
    uint64_t head;
    uint64_t tail;

    uint8_t& Meta(uint64_t i) const { return blocks[i >> 4].meta[i & 15]; }
    detail::DenseMapItem& Item(uint64_t i) const { return blocks[i >> 4].items[i & 15]; }
    uint64_t Home(uint64_t hash) const { return (detail::kMapFibMul * hash) >> shift; }
    uint64_t Step(uint64_t i, uint8_t k) const {
      return (i + detail::MapJumpDistance(k)) & (slots - 1);
    }
    // The first empty slot reachable from i with a known jump, not in `taken`; 0 when none.
    uint8_t FindEmpty(uint64_t i, const uint64_t* taken, size_t num_taken) const {
      for (uint8_t k = 1; k < detail::kMapKnownJumps; ++k) {
        uint64_t c = Step(i, k);
        if (Meta(c) != detail::kMapEmptySlot) continue;
        bool used = false;
        for (size_t t = 0; t < num_taken; ++t) used = used || taken[t] == c;
        if (!used) return k;
      }
      return 0;
    }
    void LinkBack(uint64_t i) {
      Item(i).prev = tail;
      Item(i).next = detail::kMapNoIndex;
      if (tail == detail::kMapNoIndex) {
        head = i;
      } else {
        Item(tail).next = i;
      }
      tail = i;
    }
    void Unlink(uint64_t i) {
      detail::DenseMapItem& it = Item(i);
      if (it.prev == detail::kMapNoIndex) {
        head = it.next;
      } else {
        Item(it.prev).next = it.next;
      }
      if (it.next == detail::kMapNoIndex) {
        tail = it.prev;
      } else {
        Item(it.next).prev = it.prev;
      }
    }
    // Move the item of slot `from` to the empty slot `to`, keeping the insertion list.
    void MoveItem(uint64_t from, uint64_t to) {
      detail::DenseMapItem& it = Item(from);
      Item(to) = it;
      if (it.prev == detail::kMapNoIndex) {
        head = to;
      } else {
        Item(it.prev).next = to;
      }
      if (it.next == detail::kMapNoIndex) {
        tail = to;
      } else {
        Item(it.next).prev = to;
      }
    }
    // The chain predecessor of slot i (not a head), walking from home; kMapNoIndex on an unknown
    // jump.
    uint64_t ChainPrev(uint64_t home, uint64_t i) const {
      uint64_t p = home;
      while (true) {
        uint8_t k = Meta(p) & detail::kMapJumpMask;
        if (k == 0 || k >= detail::kMapKnownJumps) return detail::kMapNoIndex;
        uint64_t n = Step(p, k);
        if (n == i) return p;
        p = n;
      }
    }
    /*!
     * \brief Place a pair whose key is absent. Returns false, changing
     *  nothing, when no slot is reachable (the caller grows the table).
     */
    bool Place(const detail::MapKV& kv, uint64_t hash) {
      uint64_t i = Home(hash);
      uint8_t m = Meta(i);
      if (m == detail::kMapEmptySlot) {
        Item(i).kv = kv;
        Meta(i) = 0;
        LinkBack(i);
        return true;
      }
      if (m & detail::kMapNotHead) {
        // Another chain passes through our home slot: move its tail part elsewhere.
        if (!Evict(i)) return false;
        Item(i).kv = kv;
        Meta(i) = 0;
        LinkBack(i);
        return true;
      }
      uint64_t t = i;
      while (uint8_t k = Meta(t) & detail::kMapJumpMask) {
        if (k >= detail::kMapKnownJumps) return false;
        t = Step(t, k);
      }
      uint8_t k = FindEmpty(t, nullptr, 0);
      if (k == 0) return false;
      uint64_t c = Step(t, k);
      Item(c).kv = kv;
      Meta(c) = detail::kMapNotHead;
      Meta(t) = static_cast<uint8_t>((Meta(t) & detail::kMapNotHead) | k);
      LinkBack(c);
      return true;
    }
    // Relocate the chain elements from non-head slot i onward; slot i ends empty.
    bool Evict(uint64_t i) {
      uint64_t home = Home(detail::MapKeyHash(&Item(i).kv.key));
      uint64_t p = ChainPrev(home, i);
      if (p == detail::kMapNoIndex) return false;
      // Plan first (old slots, new slots, jumps), so a failure changes nothing.
      constexpr size_t kMaxPlan = 256;
      uint64_t from[kMaxPlan], to[kMaxPlan];
      uint8_t jump[kMaxPlan];
      size_t n = 0;
      uint64_t cur = i, prev_new = p;
      while (true) {
        if (n == kMaxPlan) return false;
        uint8_t k = FindEmpty(prev_new, to, n);
        if (k == 0) return false;
        from[n] = cur;
        to[n] = Step(prev_new, k);
        jump[n] = k;
        prev_new = to[n];
        ++n;
        uint8_t nk = Meta(cur) & detail::kMapJumpMask;
        if (nk == 0) break;
        if (nk >= detail::kMapKnownJumps) return false;
        cur = Step(cur, nk);
      }
      Meta(p) = static_cast<uint8_t>((Meta(p) & detail::kMapNotHead) | jump[0]);
      for (size_t j = 0; j < n; ++j) {
        MoveItem(from[j], to[j]);
        Meta(to[j]) = static_cast<uint8_t>(detail::kMapNotHead | (j + 1 < n ? jump[j + 1] : 0));
      }
      for (size_t j = 0; j < n; ++j) Meta(from[j]) = detail::kMapEmptySlot;
      return true;
    }
  };

  DenseView LoadDense() const {
    const detail::DenseMapExtra* e = Extra();
    return DenseView{Blocks(), slots_, e->fib_shift, e->iter_list_head, e->iter_list_tail};
  }
  void StoreDense(const DenseView& v) {
    detail::DenseMapExtra* e = Extra();
    e->iter_list_head = v.head;
    e->iter_list_tail = v.tail;
  }

  static uint64_t MapKeyHashOf(const TVMFFIAny& key) { return detail::MapKeyHash(&key); }

  TVM_FFI_INLINE uint64_t DenseFind(const TVMFFIAny* key, uint64_t hash) const {
    const uint64_t mask = slots_ - 1;
    uint64_t i = (detail::kMapFibMul * hash) >> Extra()->fib_shift;
    uint8_t m = Meta(i);
    // Compare the home item's bits before the metadata says it is valid: the two loads
    // (different cache lines) then overlap. The bits of an empty slot are only compared.
    const detail::MapKV& home = Item(i).kv;
    uint64_t s0, q0;
    std::memcpy(&s0, &home.key, sizeof(s0));
    std::memcpy(&q0, key, sizeof(q0));
    const bool same_bits = s0 == q0 && home.key.v_uint64 == key->v_uint64;
    if (m & detail::kMapNotHead) return detail::kMapNoIndex;  // empty, protected or a body
    if (same_bits) return i;
    while (true) {
      if (detail::MapKeyEqual(&Item(i).kv.key, key)) return i;
      uint8_t k = m & detail::kMapJumpMask;
      if (k == 0) return detail::kMapNoIndex;
      if (TVM_FFI_UNLIKELY(k >= detail::kMapKnownJumps)) return DenseScan(key);
      i = (i + detail::MapJumpDistance(k)) & mask;
      m = Meta(i);
    }
  }
  // Lookup along the insertion list, for chains that use jumps this build does not know.
  uint64_t DenseScan(const TVMFFIAny* key) const {
    for (uint64_t i = Extra()->iter_list_head; i != detail::kMapNoIndex; i = Item(i).next) {
      if (detail::MapKeyEqual(&Item(i).kv.key, key)) return i;
    }
    return detail::kMapNoIndex;
  }

  // Insert into the dense layout; key/value are consumed (cells moved out) on return.
  void DenseInsert(TVMFFIAny* key, TVMFFIAny* value, uint64_t hash) {
    uint64_t found = DenseFind(key, hash);
    if (found != detail::kMapNoIndex) {
      DenseView v = LoadDense();
      std::swap(v.Item(found).kv.value, *value);
      // A replaced key moves to the end of the insertion order.
      v.Unlink(found);
      v.LinkBack(found);
      StoreDense(v);
      return;
    }
    if ((size_ + 1) * 100 > slots_ * 99) Rehash(slots_ * 2);
    detail::MapKV kv{*key, *value};
    while (true) {
      DenseView v = LoadDense();
      if (v.Place(kv, hash)) {
        StoreDense(v);
        break;
      }
      Rehash(slots_ * 2);
    }
    TVMFFIAny none;
    none.type_index = kTVMFFINone;
    none.zero_padding = 0;
    none.v_int64 = 0;
    *key = none;
    *value = none;
    ++size_;
  }

  // Remove the item of a live dense slot (its pair is released by the caller).
  void DenseRemoveSlot(uint64_t i) {
    DenseView v = LoadDense();
    const uint64_t home = v.Home(detail::MapKeyHash(&v.Item(i).kv.key));
    // The last element of the chain from i, and its predecessor.
    uint64_t last = i, before_last = detail::kMapNoIndex;
    bool walkable = true;
    while (uint8_t k = v.Meta(last) & detail::kMapJumpMask) {
      if (k >= detail::kMapKnownJumps) {
        walkable = false;
        break;
      }
      before_last = last;
      last = v.Step(last, k);
    }
    uint64_t chain_prev = detail::kMapNoIndex;
    if (walkable && last == i && (v.Meta(i) & detail::kMapNotHead)) {
      chain_prev = v.ChainPrev(home, i);
      walkable = chain_prev != detail::kMapNoIndex;
    }
    if (!walkable) {
      // A chain written with jumps this build does not know: rebuild with known ones, retry.
      const TVMFFIAny key = v.Item(i).kv.key;
      Rehash(slots_);
      DenseRemoveSlot(DenseFind(&key, MapKeyHashOf(key)));
      return;
    }
    v.Unlink(i);
    if (last == i) {
      if (chain_prev != detail::kMapNoIndex) v.Meta(chain_prev) &= detail::kMapNotHead;
      v.Meta(i) = detail::kMapEmptySlot;
    } else {
      // The chain's last element fills the hole; its predecessor becomes the end.
      v.MoveItem(last, i);
      v.Meta(before_last) &= detail::kMapNotHead;
      v.Meta(last) = detail::kMapEmptySlot;
    }
    StoreDense(v);
    --size_;
  }

  /*!
   * \brief Switch to a dense table of `slots` slots (or more, if placement
   *  fails), re-inserting in insertion order. Allocation happens before any
   *  change, so a failure leaves the map as it was.
   */
  void Rehash(uint64_t slots) {
    while (true) {
      uint64_t nblocks = BlockCount(slots);
      // Zeroed, so the speculative compare in DenseFind never reads indeterminate bytes.
      detail::DenseMapBlock* blocks = new detail::DenseMapBlock[nblocks]();
      for (uint64_t b = 0; b < nblocks; ++b) {
        std::memset(blocks[b].meta, detail::kMapEmptySlot, 16);
      }
      uint32_t log2 = 0;
      while ((uint64_t{1} << log2) < slots) ++log2;
      DenseView nv{blocks, slots, 64 - log2, detail::kMapNoIndex, detail::kMapNoIndex};
      bool ok = true;
      for (uint64_t i = BeginIndex(); ok && i != EndIndex(); i = NextIndex(i)) {
        const detail::MapKV& kv = KVAt(i);
        ok = nv.Place(kv, detail::MapKeyHash(&kv.key));
      }
      if (!ok) {
        delete[] blocks;
        slots *= 2;
        continue;
      }
      // The pairs now live in `blocks` (bit copies); free the old storage only.
      if (data_deleter_ != nullptr) data_deleter_(data_);
      data_ = blocks;
      data_deleter_ = detail::MapFreeDenseStorage;
      slots_ = slots;
      detail::DenseMapExtra* e = Extra();
      e->fib_shift = nv.shift;
      e->iter_list_head = nv.head;
      e->iter_list_tail = nv.tail;
      return;
    }
  }

  // Move the small pairs to a heap array of cap pairs.
  void GrowSmall(uint64_t cap) {
    detail::MapKV* fresh = static_cast<detail::MapKV*>(::operator new(sizeof(detail::MapKV) * cap));
    std::memcpy(static_cast<void*>(fresh), data_, sizeof(detail::MapKV) * size_);
    if (data_deleter_ != nullptr) data_deleter_(data_);
    data_ = fresh;
    data_deleter_ = detail::MapFreeSmallStorage;
    slots_ = detail::kMapSmallFlag | cap;
  }

  void ReleaseAllPairs() {
    detail::ContainerReleaseScope release;
    for (uint64_t i = BeginIndex(); i != EndIndex(); i = NextIndex(i)) {
      release.Release(KVAt(i).key);
      release.Release(KVAt(i).value);
    }
  }

  void* data_{nullptr};
  uint64_t size_{0};
  uint64_t slots_{detail::kMapSmallFlag};
  void (*data_deleter_)(void*){nullptr};
};

static_assert(sizeof(MapBaseObj) == 56, "MapObj/DictObj are 56 bytes before their storage");

/*! \brief Storage of Map<K, V> (immutable once shared). */
class MapObj : public MapBaseObj {
 public:
  static constexpr int32_t _type_index = kTVMFFIMap;
  TVM_FFI_DECLARE_OBJECT_INFO_STATIC("ffi.Map", MapObj, Object);
  /*! \return A new MapObj with copies of from's entries. */
  static ObjectPtr<Object> ShallowCopy(const MapObj* from) {
    return MapBaseObj::CreateCopy<MapObj>(*from, 0);
  }
};

/*! \brief Storage of Dict<K, V> (mutable, shared by every handle). */
class DictObj : public MapBaseObj {
 public:
  static constexpr int32_t _type_index = kTVMFFIDict;
  static constexpr bool _type_mutable = true;
  TVM_FFI_DECLARE_OBJECT_INFO_STATIC("ffi.Dict", DictObj, Object);
  /*! \return A new DictObj with copies of from's entries. */
  static ObjectPtr<Object> ShallowCopy(const DictObj* from) {
    return MapBaseObj::CreateCopy<DictObj>(*from, 0);
  }
};

namespace detail {
/*! \brief Former names of the table type and its pair, kept for existing callers. */
using MapCore = MapBaseObj;
using MapEntry = MapKV;
}  // namespace detail

namespace detail {

/*! \return The table of a Map or Dict object, or nullptr for any other object. */
inline const MapCore* MapCoreOf(const TVMFFIObject* obj) {
  if (obj == nullptr) return nullptr;
  const Object* o = reinterpret_cast<const Object*>(obj);
  if (obj->type_index == kTVMFFIMap) return static_cast<const MapObj*>(o);
  if (obj->type_index == kTVMFFIDict) return static_cast<const DictObj*>(o);
  return nullptr;
}

/*!
 * \brief What a Map or Dict that does not convert to <kind><K, V> holds: the
 *  first key or value that does not convert, as "Map[some key is <X>, V]" or
 *  "Map[K, some value is <X>]" (X from the element's traits). Any other value:
 *  its type key.
 */
template <typename K, typename V>
inline std::string MapMismatchInfo(const TVMFFIAny* src, const char* kind) {
  const MapCore* core = MapCoreOf(AnyObjectOrNull(src));
  if (core == nullptr) return AnyTypeStr(src);
  for (uint64_t i = core->BeginIndex(); i != core->EndIndex(); i = core->NextIndex(i)) {
    const MapEntry& e = core->KVAt(i);
    if constexpr (!std::is_same_v<K, Any>) {
      if (!TypeTraits<K>::CheckAnyStrict(&e.key) &&
          !TypeTraits<K>::TryCastFromAnyView(&e.key).has_value()) {
        return std::string(kind) + "[some key is " + TypeTraits<K>::GetMismatchTypeInfo(&e.key) +
               ", V]";
      }
    }
    if constexpr (!std::is_same_v<V, Any>) {
      if (!TypeTraits<V>::CheckAnyStrict(&e.value) &&
          !TypeTraits<V>::TryCastFromAnyView(&e.value).has_value()) {
        return std::string(kind) + "[K, some value is " +
               TypeTraits<V>::GetMismatchTypeInfo(&e.value) + "]";
      }
    }
  }
  return AnyTypeStr(src);
}

/*! \brief Read an element as T, with a TypeError if it is not one (a Dict may be changed through an
 *  untyped alias). */
template <typename T>
inline T MapCellAs(const TVMFFIAny* cell) {
  if constexpr (std::is_same_v<T, Any>) {
    return Any(AnyView::CopyFromTVMFFIAny(*cell));
  } else {
    using Traits = TypeTraits<T>;
    if (TVM_FFI_LIKELY(Traits::CheckAnyStrict(cell)))
      return Traits::CopyFromAnyViewAfterCheck(cell);
    ThrowCastError(Traits::GetMismatchTypeInfo(cell), Traits::TypeStr());
  }
}

/*! \brief Whether Map<K2, V2> can be shared as Map<K, V> unchanged: K subsumes K2 and V subsumes
 * V2 (type_subsumes_v), and the types are not the same. */
template <typename K, typename V, typename K2, typename V2>
constexpr bool kMapWidens = type_subsumes_v<K, K2> && type_subsumes_v<V, V2> &&
                            !(std::is_same_v<K, K2> && std::is_same_v<V, V2>);

template <typename Q>
constexpr bool kIsCharPointerLike =
    (std::is_array_v<Q> && std::is_same_v<std::remove_cv_t<std::remove_extent_t<Q>>, char>) ||
    std::is_same_v<std::decay_t<Q>, const char*> || std::is_same_v<std::decay_t<Q>, char*>;

/*!
 * \brief Call f with the cell of a lookup key. Strings and values already of
 *  type K are viewed in place (no allocation); anything else is first
 *  converted to K, so lookups follow the typed semantics of the map.
 */
template <typename K, typename Q, typename F>
inline decltype(auto) WithKeyCell(const Q& key, F&& f) {
  if constexpr (kIsCharPointerLike<Q> && (std::is_same_v<K, String> || std::is_same_v<K, Any>)) {
    AnyView view(static_cast<const char*>(key));
    return f(AnyUnsafe::GetTVMFFIAny(view));
  } else if constexpr (std::is_same_v<Q, std::string> &&
                       (std::is_same_v<K, String> || std::is_same_v<K, Any>)) {
    AnyView view(key);
    return f(AnyUnsafe::GetTVMFFIAny(view));
  } else if constexpr (std::is_same_v<K, Any> && IsAnyLike<Q>::value) {
    AnyView view(key);
    return f(AnyUnsafe::GetTVMFFIAny(view));
  } else if constexpr (std::is_same_v<Q, K> || (std::is_same_v<K, Any> && kCanStoreInAny<Q>)) {
    AnyView view(key);
    return f(AnyUnsafe::GetTVMFFIAny(view));
  } else {
    static_assert(std::is_constructible_v<K, const Q&>,
                  "Map/Dict lookup: the key cannot be converted to the key type");
    K converted(key);
    AnyView view(converted);
    return f(AnyUnsafe::GetTVMFFIAny(view));
  }
}

/*!
 * \brief Bidirectional iterator over a Map or Dict in insertion order.
 *  Dereferencing yields a const std::pair<K, V> by value (const, so that
 *  `for (auto& [key, value] : map)` and `for (auto& kv : map)` bind to it as
 *  they do with the reference headers); --end() is the last
 *  entry. Mutating a Dict invalidates its iterators (a read through a stale
 *  one fails with IndexError rather than touching freed memory, as long as
 *  the index still lies inside the storage).
 */
template <typename K, typename V>
class MapIterator {
 public:
  using iterator_category = std::bidirectional_iterator_tag;
  using value_type = std::pair<K, V>;
  using reference = const value_type;
  using difference_type = std::ptrdiff_t;
  using pointer = void;

  MapIterator() = default;
  MapIterator(const MapCore* core, uint64_t index) : core_(core), index_(index) {}

  reference operator*() const {
    if (core_ == nullptr || !core_->IsLiveIndex(index_)) {
      TVM_FFI_THROW(IndexError) << "dereferenced an end or invalidated map iterator";
    }
    const MapEntry& e = core_->KVAt(index_);
    return value_type(MapCellAs<K>(&e.key), MapCellAs<V>(&e.value));
  }
  MapIterator& operator++() {
    if (core_ != nullptr) index_ = core_->NextIndex(index_);
    return *this;
  }
  MapIterator& operator--() {
    if (core_ != nullptr) index_ = core_->PrevIndex(index_);
    return *this;
  }
  MapIterator operator++(int) {
    MapIterator old = *this;
    ++*this;
    return old;
  }
  MapIterator operator--(int) {
    MapIterator old = *this;
    --*this;
    return old;
  }
  bool operator==(const MapIterator& o) const { return index_ == o.index_ && core_ == o.core_; }
  bool operator!=(const MapIterator& o) const { return !(*this == o); }

 private:
  const MapCore* core_{nullptr};
  uint64_t index_{0};
};

/*!
 * \brief The read API shared by Map<K, V> and Dict<K, V>. Derived::get()
 *  returns the object (a MapCore); a null (moved-from) handle reads as empty.
 */
template <typename Derived, typename K, typename V>
class MapReadAPI {
 public:
  using key_type = K;
  using mapped_type = V;
  using iterator = MapIterator<K, V>;
  using const_iterator = iterator;

  /*! \return The number of entries. */
  size_t size() const {
    const MapCore* c = core();
    return c ? static_cast<size_t>(c->size()) : 0;
  }
  bool empty() const { return size() == 0; }

  /*! \return 1 if key is present, else 0. */
  template <typename Q>
  size_t count(const Q& key) const {
    return Lookup(key) != nullptr ? 1 : 0;
  }
  /*! \return The value of key; KeyError naming the key when missing. */
  template <typename Q>
  V at(const Q& key) const {
    return WithKeyCell<K>(key, [this](const TVMFFIAny* cell) -> V {
      const MapCore* c = core();
      const TVMFFIAny* v = c ? c->FindValue(cell) : nullptr;
      if (v == nullptr) ThrowMapKeyError();
      return MapCellAs<V>(v);
    });
  }
  /*! \brief Read-only lookup, same as at(). */
  template <typename Q>
  V operator[](const Q& key) const {
    return at(key);
  }
  /*! \return The value of key, or std::nullopt. */
  template <typename Q>
  std::optional<V> Get(const Q& key) const {
    const TVMFFIAny* v = Lookup(key);
    if (v == nullptr) return std::nullopt;
    return MapCellAs<V>(v);
  }
  /*! \return An iterator at key, or end(). */
  template <typename Q>
  iterator find(const Q& key) const {
    const MapCore* c = core();
    if (c == nullptr) return end();
    uint64_t pos = WithKeyCell<K>(key, [c](const TVMFFIAny* cell) { return c->FindIndex(cell); });
    return iterator(c, pos);
  }
  iterator begin() const {
    const MapCore* c = core();
    return iterator(c, c ? c->BeginIndex() : 0);
  }
  iterator end() const {
    const MapCore* c = core();
    return iterator(c, c ? c->EndIndex() : 0);
  }

 protected:
  const MapCore* core() const { return static_cast<const Derived*>(this)->get(); }
  template <typename Q>
  const TVMFFIAny* Lookup(const Q& key) const {
    const MapCore* c = core();
    if (c == nullptr) return nullptr;
    return WithKeyCell<K>(key, [c](const TVMFFIAny* cell) { return c->FindValue(cell); });
  }
};

/*!
 * \brief Any conversion rules of Map<K, V> and Dict<K, V>. The type index
 *  only says "a map", so strict checks look at every key and value; TryCast
 *  reuses the object when nothing needs converting, otherwise builds a new one
 *  (also from the other kind: Map <-> Dict always copies).
 */
template <typename RefT, typename ObjT, typename OtherObjT, typename K, typename V>
struct MapTypeTraitsBase : ObjectRefTypeTraitsBase<RefT> {
  static_assert(TypeTraits<K>::convert_enabled && TypeTraits<V>::convert_enabled,
                "Map/Dict key and value types must be convertible to and from Any");
  static constexpr bool kAnyKey = std::is_same_v<K, Any>;
  static constexpr bool kAnyValue = std::is_same_v<V, Any>;

  static bool ElementsStrict(const MapCore* core) {
    if constexpr (kAnyKey && kAnyValue) {
      return true;
    } else {
      for (uint64_t i = core->BeginIndex(); i != core->EndIndex(); i = core->NextIndex(i)) {
        const MapEntry& e = core->KVAt(i);
        if constexpr (!kAnyKey) {
          if (!TypeTraits<K>::CheckAnyStrict(&e.key)) return false;
        }
        if constexpr (!kAnyValue) {
          if (!TypeTraits<V>::CheckAnyStrict(&e.value)) return false;
        }
      }
      return true;
    }
  }

  static bool CheckAnyStrict(const TVMFFIAny* src) {
    if (src->type_index != ObjT::_type_index) return false;
    return ElementsStrict(MapCoreOf(src->v_obj));
  }

  static std::optional<RefT> TryCastFromAnyView(const TVMFFIAny* src) {
    TVMFFIObject* obj = AnyObjectOrNull(src);
    const MapCore* core = MapCoreOf(obj);
    if (core == nullptr) return std::nullopt;
    if (obj->type_index == ObjT::_type_index && ElementsStrict(core)) {
      return ObjectUnsafe::ObjectRefFromObjectPtr<RefT>(
          ObjectUnsafe::ObjectPtrFromUnowned<Object>(obj));
    }
    ObjectPtr<ObjT> out = MapBaseObj::Create<ObjT>(core->size());
    for (uint64_t i = core->BeginIndex(); i != core->EndIndex(); i = core->NextIndex(i)) {
      const MapEntry& e = core->KVAt(i);
      std::optional<K> k = TypeTraits<K>::TryCastFromAnyView(&e.key);
      if (!k.has_value()) return std::nullopt;
      std::optional<V> v = TypeTraits<V>::TryCastFromAnyView(&e.value);
      if (!v.has_value()) return std::nullopt;
      Any key(std::move(*k)), value(std::move(*v));
      out->Insert(&key, &value, true);
    }
    return RefT(std::move(out));
  }

  // Names the first key or value that cannot be converted, under the target's name:
  // "Map[some key is int, V]", "Dict[K, some value is ffi.SmallStr]".
  static std::string GetMismatchTypeInfo(const TVMFFIAny* src) {
    return MapMismatchInfo<K, V>(src, RefT::kContainerName);
  }

  static std::string TypeStr() {
    return std::string(RefT::kContainerName) + "<" + TypeTraits<K>::TypeStr() + ", " +
           TypeTraits<V>::TypeStr() + ">";
  }
  static std::string TypeSchema() {
    return SchemaWithArgs(ObjT::_type_key,
                          {TypeTraits<K>::TypeSchema(), TypeTraits<V>::TypeSchema()});
  }
};

/*! \brief Insert a range of pairs (anything with .first/.second) into a table. */
template <typename K, typename V, typename Iter>
inline void MapInsertRange(MapCore* core, Iter first, Iter last) {
  if constexpr (std::is_base_of_v<std::forward_iterator_tag,
                                  typename std::iterator_traits<Iter>::iterator_category>) {
    core->Reserve(static_cast<int64_t>(std::distance(first, last)));
  }
  for (; first != last; ++first) {
    Any key(K(first->first)), value(V(first->second));
    core->Insert(&key, &value, true);
  }
}

// The drain of container/release_scope.h, here because it needs the Map layout.
inline void ContainerReleaseScope::TakeMapEntries(TVMFFIObject* obj) {
  static_cast<MapBaseObj*>(reinterpret_cast<Object*>(obj))->DetachEntriesInto(this);
}

inline ContainerReleaseScope::~ContainerReleaseScope() {
  while (size_ != 0) {
    TVMFFIObject* obj = pending_[--size_];
    if (obj->type_index == kTVMFFIArray || obj->type_index == kTVMFFIList) {
      TakeSeqElements(obj);
    } else {
      TakeMapEntries(obj);
    }
    // Empty now: its deleter has nothing left to release.
    ObjectUnsafe::DecRef(obj);
  }
  std::free(static_cast<void*>(pending_));
}

}  // namespace detail

TVM_FFI_NAMESPACE_END
#endif  // TVM_FFI_CONTAINER_MAP_BASE_H_
