/*
 * The process-wide type table of libtvm_ffi (internal): one record per type
 * index, found lock-free by index and under a mutex by key. type_table.cc
 * allocates indices; type_reflection.cc fills the reflection records (fields,
 * methods, metadata) that hang off each record; type_attr_column.cc keeps the
 * attribute columns (indexed by type index, outside the records).
 *
 * Publication rules, because TVMFFIGetTypeInfo and the arrays it exposes are
 * read inline by compiled code without any lock:
 *  - a record is fully built before its pointer is stored (release), and it
 *    never moves or dies afterwards;
 *  - an array readers index (fields, methods, attribute columns) is allocated
 *    once at its final capacity and never moves, so whatever pair of address
 *    and count a reader observes, in whatever order it loads them, indexes
 *    valid memory; an element is written before the count that covers it is
 *    published (release).
 * All writes happen under mutex().
 */
#ifndef TVM_FFI_SRC_FFI_TYPE_TABLE_H_
#define TVM_FFI_SRC_FFI_TYPE_TABLE_H_

#include <tvm/ffi/base.h>
#include <tvm/ffi/c_api.h>

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

TVM_FFI_NAMESPACE_BEGIN
namespace detail {

/*! \brief Most fields (and, separately, methods) one type may register. */
constexpr int32_t kMaxReflectionEntries = 4096;

/*! \brief Registry-side record of a type. `info` is what readers see. */
struct TypeEntry {
  TVMFFITypeInfo info{};
  std::string key;
  std::vector<const TVMFFITypeInfo*> ancestors;
  // Child slot reservation: the type owns indices [index, index + num_slots);
  // used_slots of them (itself included) are taken.
  int32_t num_slots = 1;
  int32_t used_slots = 1;
  bool child_slots_can_overflow = true;
  // Fixed-capacity storage behind info.fields / info.methods (allocated on first use).
  std::unique_ptr<TVMFFIFieldInfo[]> field_storage;
  std::unique_ptr<TVMFFIMethodInfo[]> method_storage;
  // Every metadata record ever published stays alive for readers.
  std::vector<std::unique_ptr<TVMFFITypeMetadata>> metadata_records;
  // Registry-owned copies of names, docs and metadata strings (stable addresses).
  std::vector<std::unique_ptr<std::string>> strings;

  /*! \brief A registry-owned copy of bytes that lives as long as the entry. */
  TVMFFIByteArray Own(const TVMFFIByteArray& src);
};

class TypeTable {
 public:
  /*! \brief The table; leaked so that static destructors of other libraries may still query it. */
  static TypeTable& Global();

  /*! \brief Lock-free lookup: the info of a registered index, else nullptr. */
  const TVMFFITypeInfo* Get(int32_t index) const {
    if (index < 0 || index >= kMaxTypeIndex) return nullptr;
    Chunk* chunk = chunks_[index >> kChunkBits].load(std::memory_order_acquire);
    if (chunk == nullptr) return nullptr;
    TypeEntry* e = chunk->entries[index & (kChunkSize - 1)].load(std::memory_order_acquire);
    return e == nullptr ? nullptr : &e->info;
  }

  /*! \brief Every registered key (POD kinds included), by type index. */
  std::vector<std::string> Keys();

  /*! \brief The index of a key; InternalError "Cannot find type `<key>`" when unknown. */
  int32_t KeyToIndex(const std::string& key);

  /*!
   * \brief Index of key, registering it when new (see TVMFFITypeGetOrAllocIndex).
   * \return the index, or -2 for an unknown key when parent_index is -2 (query only).
   */
  int32_t GetOrAlloc(const std::string& key, int32_t static_index, int32_t depth,
                     int32_t num_child_slots, bool can_overflow, int32_t parent_index);

  /*! \brief Guards every write to the table and the reflection tables. */
  std::mutex& mutex() { return mutex_; }

  /*!
   * \brief A count bumped after every change to what the runtime's engines cache about types
   *  (fields, metadata, type attributes): a cache built at one count is valid while it holds.
   */
  uint64_t reflection_generation() const {
    return reflection_generation_.load(std::memory_order_acquire);
  }
  void BumpReflectionGeneration() {
    reflection_generation_.fetch_add(1, std::memory_order_acq_rel);
  }

  /*! \brief The entry of index or nullptr; call with mutex() held. */
  TypeEntry* EntryLocked(int32_t index) const;
  /*! \brief The entry of index; ValueError naming `action` when unregistered. */
  TypeEntry* RequireLocked(int32_t index, const std::string& action) const;

  /*! \brief Exclusive bound of type indices. */
  static constexpr int32_t kChunkBits = 8;
  static constexpr int32_t kChunkSize = 1 << kChunkBits;
  static constexpr int32_t kNumChunks = 1024;
  static constexpr int32_t kMaxTypeIndex = kChunkSize * kNumChunks;

 private:
  struct Chunk {
    std::atomic<TypeEntry*> entries[kChunkSize];
    Chunk() {
      for (auto& e : entries) e.store(nullptr, std::memory_order_relaxed);
    }
  };

  TypeTable();
  int32_t AllocDynamicLocked(const std::string& key, TypeEntry* parent, int32_t num_slots);
  bool RangeFreeLocked(int32_t begin, int32_t count) const;
  void PublishLocked(int32_t index, TypeEntry* entry);

  std::mutex mutex_;
  std::atomic<Chunk*> chunks_[kNumChunks];
  std::unordered_map<std::string, int32_t> key_to_index_;
  int32_t next_dynamic_ = kTVMFFIDynObjectBegin;
  std::atomic<uint64_t> reflection_generation_{0};
};

/*!
 * \brief An owned copy of a (possibly borrowed) value for the registry to keep;
 *  TypeError naming `what` when the value cannot be kept.
 */
TVMFFIAny ToOwned(const TVMFFIAny& view, const std::string& what);

/*! \brief std::string of a possibly NULL byte array. */
inline std::string ByteArrayToStdString(const TVMFFIByteArray* bytes) {
  if (bytes == nullptr || bytes->data == nullptr) return std::string();
  return std::string(bytes->data, bytes->size);
}

}  // namespace detail
TVM_FFI_NAMESPACE_END

#endif  // TVM_FFI_SRC_FFI_TYPE_TABLE_H_
