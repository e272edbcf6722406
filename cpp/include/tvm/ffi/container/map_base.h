/*
 * The hash table shared by Map (immutable, copy-on-write) and Dict (mutable,
 * shared): MapObj, DictObj and the typed read API both reference classes use.
 *
 * Everything after the object header is private to this implementation (not
 * ABI); language bindings reach maps through the runtime globals (ffi.Map*,
 * ffi.Dict*). Keys and values are owned Any cells; keys compare like AnyEqual
 * (strings by content whatever their storage, PODs by value, other objects by
 * identity). The hash is the table's own (MapHashKey), consistent with that
 * equality and independent of the C++ standard library, because one map
 * object is read by the inline code of every library in the process.
 *
 * Layout: entries live in one array in insertion order. A map of at most
 * kSmallMax entries is scanned linearly; a larger one also has an
 * open-addressing index (linear probing, 8-byte slots holding a hash tag and
 * an entry position). Erase leaves a tombstone in the entry array, which is
 * compacted when the array would otherwise grow, so insertion order survives
 * erase and a re-inserted key goes to the end. The index goes when erase
 * leaves kSmallMax / 2 entries (the gap avoids rebuilding it on every
 * insert/erase pair at the boundary).
 */
#ifndef TVM_FFI_CONTAINER_MAP_BASE_H_
#define TVM_FFI_CONTAINER_MAP_BASE_H_

#include <tvm/ffi/any.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/memory.h>
#include <tvm/ffi/object.h>
#include <tvm/ffi/optional.h>
#include <tvm/ffi/string.h>
#include <tvm/ffi/type_traits.h>

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

TVM_FFI_NAMESPACE_BEGIN

namespace details {

/*! \brief One key/value pair; a tombstone after erase (key.type_index == kMapTombstone). */
struct MapEntry {
  TVMFFIAny key;
  TVMFFIAny value;
};

/*! \brief One index slot: the high 32 bits of the key's hash and an entry position. */
struct MapSlot {
  uint32_t tag;
  int32_t index;  // -1 when empty
};

// No stored value ever has this type index, so it can mark erased entries.
constexpr int32_t kMapTombstone = std::numeric_limits<int32_t>::min();

inline void MapCellIncRef(const TVMFFIAny& cell) {
  if (cell.type_index >= kTVMFFIStaticObjectBegin) ObjectUnsafe::IncRef(cell.v_obj);
}
inline void MapCellDecRef(const TVMFFIAny& cell) {
  if (cell.type_index >= kTVMFFIStaticObjectBegin) ObjectUnsafe::DecRef(cell.v_obj);
}

// The {data, size} cell of a heap String/Bytes object, right after the object header.
inline const TVMFFIByteArray* MapHeapBytes(const TVMFFIAny* a) {
  return reinterpret_cast<const TVMFFIByteArray*>(reinterpret_cast<const char*>(a->v_obj) +
                                                  sizeof(TVMFFIObject));
}

// The out-of-line part of MapKeyEqual: cells that are not bit-for-bit identical.
inline bool MapKeyEqualSlow(const TVMFFIAny* stored, const TVMFFIAny* query) {
  const int32_t t = stored->type_index;
  if (t == kMapTombstone) return false;
  if (t == query->type_index) {
    if (t == kTVMFFIStr) {
      const TVMFFIByteArray* x = MapHeapBytes(stored);
      const TVMFFIByteArray* y = MapHeapBytes(query);
      return x->size == y->size && std::memcmp(x->data, y->data, x->size) == 0;
    }
    // PODs compared by their payload and objects compared by identity differ when it does.
    if (t == kTVMFFIInt || t == kTVMFFIBool || t == kTVMFFINone || t == kTVMFFIOpaquePtr ||
        t == kTVMFFIDevice || (t >= kTVMFFIStaticObjectBegin && t != kTVMFFIBytes)) {
      return stored->v_uint64 == query->v_uint64;
    }
  }
  return AnyEqual::Equal(stored, query);
}

/*!
 * \brief Key equality of the table: AnyEqual, except that bit-for-bit
 *  identical cells are always equal (so a NaN key can be found again, as in
 *  a Python dict holding the same float object). The identical case is the
 *  usual hit and costs two compares.
 */
TVM_FFI_INLINE bool MapKeyEqual(const TVMFFIAny* stored, const TVMFFIAny* query) {
  uint64_t s0, q0;
  std::memcpy(&s0, stored, sizeof(s0));  // type_index and small_str_len / padding
  std::memcpy(&q0, query, sizeof(q0));
  if (s0 == q0 && stored->v_uint64 == query->v_uint64) return true;
  return MapKeyEqualSlow(stored, query);
}

/*
 * The table's own key hash, consistent with AnyEqual (equal keys hash alike).
 * It is defined here rather than through std::hash because a map object is
 * shared by every library in the process: code compiled against another C++
 * standard library must find the same slots.
 */
constexpr uint64_t kMapHashMul = 0x9E3779B97F4A7C15ULL;  // 2^64 / golden ratio, odd

// The slot position is taken from the top bits, which a multiply mixes from all input bits.
inline uint64_t MapHashFinish(uint64_t h) {
  h ^= h >> 31;
  return h * kMapHashMul;
}

// Content hash of n bytes. Every storage of a string (inline, heap, borrowed) hashes its bytes
// through here, so it never reads past the content.
inline uint64_t MapHashBytes(const char* p, size_t n, bool is_bytes) {
  uint64_t h = (is_bytes ? 0x6A09E667F3BCC909ULL : 0xBB67AE8584CAA73BULL) ^ (n * kMapHashMul);
  uint64_t w;
  if (n >= 8) {
    const char* last = p + n - 8;
    while (p < last) {
      std::memcpy(&w, p, 8);
      h = (h ^ w) * kMapHashMul;
      h ^= h >> 29;
      p += 8;
    }
    // The final, possibly overlapping, word (the length in h tells the overlap apart).
    std::memcpy(&w, last, 8);
  } else if (n >= 4) {
    uint32_t lo, hi;
    std::memcpy(&lo, p, 4);
    std::memcpy(&hi, p + n - 4, 4);
    w = uint64_t{lo} | (uint64_t{hi} << 32);
  } else if (n > 0) {
    w = uint64_t{static_cast<uint8_t>(p[0])} | (uint64_t{static_cast<uint8_t>(p[n / 2])} << 8) |
        (uint64_t{static_cast<uint8_t>(p[n - 1])} << 16);
  } else {
    w = 0;
  }
  h = (h ^ w) * kMapHashMul;
  h ^= h >> 29;
  return MapHashFinish(h);
}

// A per-type seed, so that equal payloads of different types (1, True, 1.0) spread apart.
constexpr uint64_t MapTypeSeed(int32_t t) {
  return static_cast<uint64_t>(static_cast<uint32_t>(t)) * 0xD6E8FEB86659FD93ULL;
}

inline uint64_t MapHashKeyGeneric(const TVMFFIAny* a) {
  const int32_t t = a->type_index;
  const uint64_t seed = MapTypeSeed(t);
  if (t == kTVMFFISmallStr) return MapHashBytes(a->v_bytes, a->small_str_len, false);
  if (t == kTVMFFIStr) {
    const TVMFFIByteArray* b = MapHeapBytes(a);
    return MapHashBytes(b->data, b->size, false);
  }
  std::string_view s;
  bool is_bytes;
  if (AnyStringView(a, &s, &is_bytes)) return MapHashBytes(s.data(), s.size(), is_bytes);
  switch (t) {
    case kTVMFFIFloat: {
      double v = a->v_float64;
      if (v == 0.0) v = 0.0;  // -0.0 and 0.0 are equal keys
      uint64_t bits;
      std::memcpy(&bits, &v, sizeof(bits));
      return MapHashFinish(bits ^ seed);
    }
    case kTVMFFIDataType:
      // Only the fields: the rest of the word is padding.
      return MapHashFinish((uint64_t{a->v_dtype.code} | (uint64_t{a->v_dtype.bits} << 8) |
                            (uint64_t{a->v_dtype.lanes} << 16)) ^
                           seed);
    default:
      return MapHashFinish(a->v_uint64 ^ seed);
  }
}

/*! \brief The hash of a key; ints (the most common keys) take no dispatch. */
TVM_FFI_INLINE uint64_t MapHashKey(const TVMFFIAny* a) {
  if (a->type_index == kTVMFFIInt) return MapHashFinish(a->v_uint64 ^ MapTypeSeed(kTVMFFIInt));
  return MapHashKeyGeneric(a);
}

/*! \brief A printable form of a key for error messages: strings quoted, numbers as digits. */
inline std::string MapKeyRepr(const TVMFFIAny* key) {
  std::string_view s;
  bool is_bytes;
  if (AnyStringView(key, &s, &is_bytes)) {
    std::string out = is_bytes ? "b\"" : "\"";
    for (char c : s) {
      if (c == '"' || c == '\\') out += '\\';
      out += c;
    }
    out += '"';
    return out;
  }
  switch (key->type_index) {
    case kTVMFFIInt: return std::to_string(key->v_int64);
    case kTVMFFIBool: return key->v_int64 ? "True" : "False";
    case kTVMFFINone: return "None";
    case kTVMFFIFloat: {
      std::ostringstream os;
      os.precision(17);
      os << key->v_float64;
      return os.str();
    }
    default: return "<" + AnyTypeStr(key) + ">";
  }
}

/*!
 * \brief The ordered hash table of Any keys and values. Owns one reference to
 *  every live key and value. Not thread-safe for concurrent mutation.
 */
class MapCore {
 public:
  /*! \brief Maps of at most this many entries have no index and are scanned linearly. */
  static constexpr int64_t kSmallMax = 8;

  MapCore() = default;
  MapCore(const MapCore&) = delete;
  MapCore& operator=(const MapCore&) = delete;
  ~MapCore() { ReleaseAll(); }

  /*! \return The number of live entries. */
  int64_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  /*! \return Whether the hashed form (with an index) is in use. */
  bool is_hashed() const { return slots_ != nullptr; }
  /*! \return The number of index slots (0 in the small form). */
  int64_t slot_count() const { return slots_ ? static_cast<int64_t>(slot_mask_ + 1) : 0; }
  /*! \return One past the last used entry position (live or tombstone). */
  int64_t entries_end() const { return used_; }
  /*! \return Whether position i (< entries_end()) holds a live entry. */
  bool IsLive(int64_t i) const { return entries_[i].key.type_index != kMapTombstone; }
  const MapEntry& entry(int64_t i) const { return entries_[i]; }
  /*! \return The first live position >= i, or entries_end(). */
  int64_t NextLive(int64_t i) const {
    while (i < used_ && entries_[i].key.type_index == kMapTombstone) ++i;
    return i < used_ ? i : used_;
  }

  /*! \return The entry of key, or nullptr. The lookup path every read takes, kept short. */
  TVM_FFI_INLINE const MapEntry* FindEntry(const TVMFFIAny* key) const {
    if (slots_ == nullptr) {
      int64_t i = ScanSmall(key);
      return i < 0 ? nullptr : entries_ + i;
    }
    const uint32_t tag = static_cast<uint32_t>(MapHashKey(key) >> 32);
    uint64_t pos = tag >> slot_shift_;
    while (true) {
      const MapSlot s = slots_[pos];
      if (s.index < 0) return nullptr;
      if (s.tag == tag) {
        const MapEntry* e = entries_ + s.index;
        if (MapKeyEqual(&e->key, key)) return e;
      }
      pos = (pos + 1) & slot_mask_;
    }
  }

  /*! \return The entry position of key, or -1. */
  int64_t Find(const TVMFFIAny* key) const {
    const MapEntry* e = FindEntry(key);
    return e == nullptr ? -1 : e - entries_;
  }

  /*! \return The value stored for key, or nullptr. */
  TVM_FFI_INLINE const TVMFFIAny* FindValue(const TVMFFIAny* key) const {
    const MapEntry* e = FindEntry(key);
    return e == nullptr ? nullptr : &e->value;
  }

  /*!
   * \brief Insert a new key at the end, or replace the value of an existing
   *  key in place (keeping its position, as Python dicts do).
   */
  void Insert(Any key, Any value) {
    const TVMFFIAny* kcell = AnyUnsafe::GetTVMFFIAny(key);
    uint64_t h = 0;
    int64_t found;
    if (slots_ == nullptr) {
      found = ScanSmall(kcell);
    } else {
      h = MapHashKey(kcell);
      int64_t slot = FindSlot(kcell, h);
      found = slot < 0 ? -1 : slots_[slot].index;
    }
    if (found >= 0) {
      // The old value goes out with `value`'s destructor.
      std::swap(entries_[found].value, *AnyUnsafe::GetTVMFFIAny(&value));
      return;
    }
    // Everything that may throw happens before the cells change owner.
    PrepareInsert();
    if (slots_ == nullptr && size_ + 1 > kSmallMax) {
      BuildIndex(SlotCountFor(size_ + 1));
      h = MapHashKey(kcell);
    }
    MapEntry& e = entries_[used_];
    e.key = AnyUnsafe::MoveAnyToTVMFFIAny(std::move(key));
    e.value = AnyUnsafe::MoveAnyToTVMFFIAny(std::move(value));
    if (slots_ != nullptr) PlaceSlot(h, static_cast<int32_t>(used_));
    ++used_;
    ++size_;
  }

  /*! \brief Remove key; returns whether it was present. */
  bool Erase(const TVMFFIAny* key) {
    int64_t pos = -1;
    if (slots_ != nullptr) {
      int64_t slot = FindSlot(key, MapHashKey(key));
      if (slot < 0) return false;
      pos = slots_[slot].index;
      RemoveSlot(slot);
    } else {
      pos = ScanSmall(key);
      if (pos < 0) return false;
    }
    MapEntry& e = entries_[pos];
    TVMFFIAny old_key = e.key;
    TVMFFIAny old_value = e.value;
    e.key.type_index = kMapTombstone;
    e.key.zero_padding = 0;
    e.key.v_int64 = 0;
    SetNone(&e.value);
    --size_;
    ++tombstones_;
    // Trailing tombstones need not be kept: dropping them lets appends reuse the room.
    while (used_ > 0 && entries_[used_ - 1].key.type_index == kMapTombstone) {
      --used_;
      --tombstones_;
    }
    if (slots_ != nullptr && size_ <= kSmallMax / 2) {
      // Back to the small form; the hysteresis keeps alternating insert/erase cheap.
      FreeSlots();
      Compact();
    } else if (tombstones_ > 16 && tombstones_ > size_) {
      // Keep iteration and the small-form scan proportional to the live entries.
      Compact();
    }
    // Released last: a destructor may run code that reads this map.
    MapCellDecRef(old_key);
    MapCellDecRef(old_value);
    return true;
  }

  /*! \brief Remove every entry. */
  void Clear() { ReleaseAll(); }

  /*! \brief Make room for n live entries without further allocation. */
  void Reserve(int64_t n) {
    if (n > capacity_) GrowEntries(n);
    if (n > kSmallMax) {
      int64_t want = SlotCountFor(n);
      if (slots_ == nullptr) {
        BuildIndex(want);
      } else if (want > slot_count()) {
        RegrowSlots(want);
      }
    }
  }

  /*! \brief Fill this (empty) table with copies of other's live entries, with room for extra more. */
  void CopyFrom(const MapCore& other, int64_t extra) {
    TVM_FFI_ICHECK(size_ == 0 && used_ == 0);
    const int64_t n = other.size_;
    if (n + extra > 0) GrowEntries(n + extra);
    const bool hashed = n > kSmallMax || (other.slots_ != nullptr && n + extra > kSmallMax);
    if (hashed) AllocSlots(SlotCountFor(n + extra));
    for (int64_t i = 0; i < other.used_; ++i) {
      const MapEntry& src = other.entries_[i];
      if (src.key.type_index == kMapTombstone) continue;
      MapCellIncRef(src.key);
      MapCellIncRef(src.value);
      entries_[used_++] = src;
    }
    size_ = n;
    if (!hashed) return;
    if (other.slots_ != nullptr && other.tombstones_ == 0) {
      // Same positions: the tags give the new slots without rehashing keys.
      PlaceFromSlots(other.slots_, other.slot_count());
    } else {
      PlaceAllByHash();
    }
  }

 private:
  int64_t ScanSmall(const TVMFFIAny* key) const {
    for (int64_t i = 0; i < used_; ++i) {
      if (MapKeyEqual(&entries_[i].key, key)) return i;
    }
    return -1;
  }

  int64_t FindSlot(const TVMFFIAny* key, uint64_t h) const {
    const uint32_t tag = static_cast<uint32_t>(h >> 32);
    uint64_t pos = tag >> slot_shift_;
    while (true) {
      const MapSlot& s = slots_[pos];
      if (s.index < 0) return -1;
      if (s.tag == tag && MapKeyEqual(&entries_[s.index].key, key)) {
        return static_cast<int64_t>(pos);
      }
      pos = (pos + 1) & slot_mask_;
    }
  }

  void PlaceTag(uint32_t tag, int32_t index) {
    uint64_t pos = tag >> slot_shift_;
    while (slots_[pos].index >= 0) pos = (pos + 1) & slot_mask_;
    slots_[pos].tag = tag;
    slots_[pos].index = index;
  }
  void PlaceSlot(uint64_t h, int32_t index) { PlaceTag(static_cast<uint32_t>(h >> 32), index); }

  // Backward-shift deletion: keeps every probe chain gap-free without index tombstones.
  void RemoveSlot(int64_t slot) {
    uint64_t hole = static_cast<uint64_t>(slot);
    uint64_t j = hole;
    while (true) {
      j = (j + 1) & slot_mask_;
      if (slots_[j].index < 0) break;
      uint64_t ideal = slots_[j].tag >> slot_shift_;
      // Slot j may fill the hole unless its ideal position lies cyclically in (hole, j].
      bool stays = hole <= j ? (hole < ideal && ideal <= j) : (hole < ideal || ideal <= j);
      if (stays) continue;
      slots_[hole] = slots_[j];
      hole = j;
    }
    slots_[hole].tag = 0;
    slots_[hole].index = -1;
  }

  // The slot count keeps the load factor at most 1/2.
  static int64_t SlotCountFor(int64_t n) {
    int64_t count = 16;
    while (count < 2 * n) count *= 2;
    return count;
  }

  // Replace the index by an empty one of count slots (the old one is freed).
  void AllocSlots(int64_t count) {
    TVM_FFI_CHECK(count <= (int64_t{1} << 32), ValueError)
        << "Map is too large (" << size_ << " entries)";
    MapSlot* fresh = static_cast<MapSlot*>(::operator new(sizeof(MapSlot) * count));
    // All bits set: index -1 marks every slot empty.
    std::memset(static_cast<void*>(fresh), 0xFF, sizeof(MapSlot) * count);
    ::operator delete(slots_);
    slots_ = fresh;
    SetSlotGeometry(count);
  }

  void SetSlotGeometry(int64_t count) {
    slot_mask_ = static_cast<uint64_t>(count - 1);
    int log2 = 0;
    while ((int64_t{1} << log2) < count) ++log2;
    slot_shift_ = 32 - log2;
  }

  void PlaceAllByHash() {
    for (int64_t i = 0; i < used_; ++i) {
      if (entries_[i].key.type_index != kMapTombstone) {
        PlaceSlot(MapHashKey(&entries_[i].key), static_cast<int32_t>(i));
      }
    }
  }

  void PlaceFromSlots(const MapSlot* old, int64_t old_count) {
    for (int64_t i = 0; i < old_count; ++i) {
      if (old[i].index >= 0) PlaceTag(old[i].tag, old[i].index);
    }
  }

  // Start the hashed form with count slots, hashing the current keys.
  void BuildIndex(int64_t count) {
    AllocSlots(count);
    PlaceAllByHash();
  }

  // A larger index from the tags of the current one (no key is rehashed).
  void RegrowSlots(int64_t count) {
    TVM_FFI_CHECK(count <= (int64_t{1} << 32), ValueError)
        << "Map is too large (" << size_ << " entries)";
    MapSlot* fresh = static_cast<MapSlot*>(::operator new(sizeof(MapSlot) * count));
    std::memset(static_cast<void*>(fresh), 0xFF, sizeof(MapSlot) * count);
    MapSlot* old = slots_;
    int64_t old_count = slot_count();
    slots_ = fresh;
    SetSlotGeometry(count);
    PlaceFromSlots(old, old_count);
    ::operator delete(old);
  }

  void FreeSlots() {
    ::operator delete(slots_);
    slots_ = nullptr;
    slot_mask_ = 0;
    slot_shift_ = 0;
  }

  // Ensure one more entry fits in the entry array and the index.
  void PrepareInsert() {
    if (used_ == capacity_) {
      if (tombstones_ > 0 && tombstones_ * 4 >= used_) {
        Compact();
      } else {
        TVM_FFI_CHECK(capacity_ < std::numeric_limits<int32_t>::max() / 2, ValueError)
            << "Map is too large (" << size_ << " entries)";
        GrowEntries(capacity_ < 4 ? 4 : capacity_ * 2);
      }
    }
    if (slots_ != nullptr && 2 * (size_ + 1) > slot_count()) RegrowSlots(slot_count() * 2);
  }

  // Reallocate the entry array for n entries; positions (and tombstones) stay as they are.
  void GrowEntries(int64_t n) {
    if (n < used_) n = used_;
    // 32-byte entries aligned to 32 never straddle a cache line.
    MapEntry* fresh =
        static_cast<MapEntry*>(::operator new(sizeof(MapEntry) * n, std::align_val_t{32}));
    if (used_ > 0) std::memcpy(static_cast<void*>(fresh), entries_, sizeof(MapEntry) * used_);
    FreeEntries(entries_);
    entries_ = fresh;
    capacity_ = n;
  }

  static void FreeEntries(MapEntry* entries) {
    if (entries != nullptr) ::operator delete(entries, std::align_val_t{32});
  }

  // Slide live entries over the tombstones, keeping their order; reindex (no allocation).
  void Compact() {
    if (tombstones_ == 0) return;
    int64_t j = 0;
    for (int64_t i = 0; i < used_; ++i) {
      if (entries_[i].key.type_index != kMapTombstone) entries_[j++] = entries_[i];
    }
    used_ = j;
    tombstones_ = 0;
    if (slots_ != nullptr) {
      std::memset(static_cast<void*>(slots_), 0xFF, sizeof(MapSlot) * slot_count());
      PlaceAllByHash();
    }
  }

  void ReleaseAll() {
    MapEntry* entries = entries_;
    int64_t used = used_;
    entries_ = nullptr;
    used_ = capacity_ = size_ = tombstones_ = 0;
    FreeSlots();
    // Detached first, so a destructor that reads this map sees it empty.
    for (int64_t i = 0; i < used; ++i) {
      if (entries[i].key.type_index == kMapTombstone) continue;
      MapCellDecRef(entries[i].key);
      MapCellDecRef(entries[i].value);
    }
    FreeEntries(entries);
  }

  MapEntry* entries_{nullptr};
  int64_t used_{0};
  int64_t capacity_{0};
  int64_t size_{0};
  int64_t tombstones_{0};
  MapSlot* slots_{nullptr};
  uint64_t slot_mask_{0};
  int slot_shift_{0};
};

}  // namespace details

/*! \brief Storage of Map<K, V> (immutable once shared). */
class MapObj : public Object, public details::MapCore {
 public:
  static constexpr int32_t _type_index = kTVMFFIMap;
  TVM_FFI_DECLARE_OBJECT_INFO_STATIC("ffi.Map", MapObj, Object);
};

/*! \brief Storage of Dict<K, V> (mutable, shared by every handle). */
class DictObj : public Object, public details::MapCore {
 public:
  static constexpr int32_t _type_index = kTVMFFIDict;
  static constexpr bool _type_mutable = true;
  TVM_FFI_DECLARE_OBJECT_INFO_STATIC("ffi.Dict", DictObj, Object);
};

namespace details {

/*! \return The table of a Map or Dict object, or nullptr for any other object. */
inline const MapCore* MapCoreOf(const TVMFFIObject* obj) {
  if (obj == nullptr) return nullptr;
  const Object* o = reinterpret_cast<const Object*>(obj);
  if (obj->type_index == kTVMFFIMap) return static_cast<const MapObj*>(o);
  if (obj->type_index == kTVMFFIDict) return static_cast<const DictObj*>(o);
  return nullptr;
}

/*! \brief Read an element as T, with a TypeError if it is not one (a Dict may be changed through an
 *  untyped alias). */
template <typename T>
inline T MapCellAs(const TVMFFIAny* cell) {
  if constexpr (std::is_same_v<T, Any>) {
    return Any(AnyView::CopyFromTVMFFIAny(*cell));
  } else {
    using Traits = TypeTraits<T>;
    if (TVM_FFI_LIKELY(Traits::CheckAnyStrict(cell))) return Traits::CopyFromAnyViewAfterCheck(cell);
    ThrowCastError(Traits::GetMismatchTypeInfo(cell), Traits::TypeStr());
  }
}

/*! \brief Whether Map<K2, V2> can be viewed as Map<K, V> unchanged: each type is kept or becomes Any. */
template <typename K, typename V, typename K2, typename V2>
constexpr bool kMapWidens = (std::is_same_v<K, Any> || std::is_same_v<K, K2>) &&
                            (std::is_same_v<V, Any> || std::is_same_v<V, V2>) &&
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

[[noreturn]] inline void ThrowMapKeyError(const char* container, const TVMFFIAny* key) {
  TVM_FFI_THROW(KeyError) << "key " << MapKeyRepr(key) << " is not in the " << container;
  TVM_FFI_UNREACHABLE();  // the builder above throws
}

/*!
 * \brief Iterator over a Map or Dict in insertion order. Dereferencing yields
 *  a std::pair<K, V> by value. Mutating a Dict invalidates its iterators
 *  (reads then fail with IndexError rather than touching freed memory).
 */
template <typename K, typename V>
class MapIterator {
 public:
  using iterator_category = std::forward_iterator_tag;
  using value_type = std::pair<K, V>;
  using reference = value_type;
  using difference_type = std::ptrdiff_t;
  /*! \brief Holds the pair for it->first / it->second. */
  struct pointer {
    value_type pair;
    const value_type* operator->() const { return &pair; }
  };

  MapIterator() = default;
  MapIterator(const MapCore* core, int64_t pos) : core_(core), pos_(pos) {}

  value_type operator*() const {
    if (core_ == nullptr || pos_ >= core_->entries_end() || !core_->IsLive(pos_)) {
      TVM_FFI_THROW(IndexError) << "dereferenced an end or invalidated map iterator";
    }
    const MapEntry& e = core_->entry(pos_);
    return value_type(MapCellAs<K>(&e.key), MapCellAs<V>(&e.value));
  }
  pointer operator->() const { return pointer{**this}; }
  MapIterator& operator++() {
    if (core_ != nullptr) pos_ = core_->NextLive(pos_ + 1);
    return *this;
  }
  MapIterator operator++(int) {
    MapIterator old = *this;
    ++*this;
    return old;
  }
  bool operator==(const MapIterator& o) const { return pos_ == o.pos_ && core_ == o.core_; }
  bool operator!=(const MapIterator& o) const { return !(*this == o); }

 private:
  const MapCore* core_{nullptr};
  int64_t pos_{0};
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
      if (v == nullptr) ThrowMapKeyError(Derived::kContainerName, cell);
      return MapCellAs<V>(v);
    });
  }
  /*! \brief Read-only lookup, same as at(). */
  template <typename Q>
  V operator[](const Q& key) const {
    return at(key);
  }
  /*! \return The value of key, or an empty Optional. */
  template <typename Q>
  Optional<V> Get(const Q& key) const {
    const TVMFFIAny* v = Lookup(key);
    if (v == nullptr) return Optional<V>(std::nullopt);
    return Optional<V>(MapCellAs<V>(v));
  }
  /*! \return An iterator at key, or end(). */
  template <typename Q>
  iterator find(const Q& key) const {
    const MapCore* c = core();
    if (c == nullptr) return end();
    int64_t pos = WithKeyCell<K>(key, [c](const TVMFFIAny* cell) { return c->Find(cell); });
    return pos < 0 ? end() : iterator(c, pos);
  }
  iterator begin() const {
    const MapCore* c = core();
    return iterator(c, c ? c->NextLive(0) : 0);
  }
  iterator end() const {
    const MapCore* c = core();
    return iterator(c, c ? c->entries_end() : 0);
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
      for (int64_t i = 0; i < core->entries_end(); ++i) {
        if (!core->IsLive(i)) continue;
        const MapEntry& e = core->entry(i);
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
    ObjectPtr<ObjT> out = make_object<ObjT>();
    out->Reserve(core->size());
    for (int64_t i = 0; i < core->entries_end(); ++i) {
      if (!core->IsLive(i)) continue;
      const MapEntry& e = core->entry(i);
      std::optional<K> k = TypeTraits<K>::TryCastFromAnyView(&e.key);
      if (!k.has_value()) return std::nullopt;
      std::optional<V> v = TypeTraits<V>::TryCastFromAnyView(&e.value);
      if (!v.has_value()) return std::nullopt;
      out->Insert(Any(std::move(*k)), Any(std::move(*v)));
    }
    return RefT(std::move(out));
  }

  // Names the first key or value that cannot be converted, e.g. Map[key "b": str].
  static std::string GetMismatchTypeInfo(const TVMFFIAny* src) {
    TVMFFIObject* obj = AnyObjectOrNull(src);
    const MapCore* core = MapCoreOf(obj);
    if (core == nullptr) return AnyTypeStr(src);
    const char* name = obj->type_index == kTVMFFIMap ? "Map" : "Dict";
    for (int64_t i = 0; i < core->entries_end(); ++i) {
      if (!core->IsLive(i)) continue;
      const MapEntry& e = core->entry(i);
      if (!TypeTraits<K>::TryCastFromAnyView(&e.key).has_value()) {
        return std::string(name) + "[key " + MapKeyRepr(&e.key) + ": " +
               TypeTraits<K>::GetMismatchTypeInfo(&e.key) + "]";
      }
      if (!TypeTraits<V>::TryCastFromAnyView(&e.value).has_value()) {
        return std::string(name) + "[value of key " + MapKeyRepr(&e.key) + ": " +
               TypeTraits<V>::GetMismatchTypeInfo(&e.value) + "]";
      }
    }
    return AnyTypeStr(src);
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
    core->Insert(Any(K(first->first)), Any(V(first->second)));
  }
}

}  // namespace details

TVM_FFI_NAMESPACE_END
#endif  // TVM_FFI_CONTAINER_MAP_BASE_H_
