/*
 * Object reference counting, opaque objects, the type registry (type indices,
 * ancestors, reflected fields/methods/metadata, per-type attribute columns)
 * and thread-safe lazy globals of libtvm_ffi.
 *
 * Design notes:
 *  - TVMFFIGetTypeInfo is called inline by compiled code in every IsInstance
 *    check, so reads are lock-free and O(1): a two-level table of atomic
 *    pointers (chunk, then entry). Entries are heap records that never move
 *    and are never freed once published. All writes happen under one mutex.
 *  - Arrays that readers may hold (fields, methods, attribute columns) are
 *    never freed when they grow: old buffers go to a graveyard. Registration
 *    happens at load time, so the extra memory is bounded and small.
 *  - Values the registry keeps (field defaults, methods, attributes, Function
 *    setters) hold a strong reference for the lifetime of the process; the
 *    registry is intentionally never destroyed, so that static destructors of
 *    other libraries may still query it at exit.
 *  - Error kinds raised: "KeyError" for an unknown type key, "ValueError" for
 *    bad arguments (unknown type index, duplicate names, conflicting
 *    registrations), "IndexError" when the index space is exhausted,
 *    "MemoryError" when allocation fails.
 */
#include "object_alloc.h"
#include "safe_invoke.h"
#include <tvm/ffi/base.h>
#include <tvm/ffi/c_api.h>

#include <atomic>
#include <cstdint>
#include <cstring>
#include <memory>
#include <mutex>
#include <new>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

TVM_FFI_NAMESPACE_BEGIN
namespace {


std::string ToString(const TVMFFIByteArray* bytes) {
  if (bytes == nullptr || bytes->data == nullptr) return std::string();
  return std::string(bytes->data, bytes->size);
}

/*! \brief FNV-1a: stable across runs and processes, so the hash may be persisted. */
uint64_t HashKey(const std::string& key) {
  uint64_t h = 14695981039346656037ull;
  for (unsigned char c : key) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return h;
}

/*! \brief Take an owned copy of a (possibly borrowed) value for the registry to keep. */
TVMFFIAny ToOwned(const TVMFFIAny& view, const char* what) {
  TVMFFIAny out = view;
  int32_t tindex = view.type_index;
  if (tindex >= kTVMFFIStaticObjectBegin) {
    if (view.v_obj != nullptr) TVMFFIObjectIncRef(view.v_obj);
  } else if (tindex == kTVMFFIDLTensorPtr || tindex == kTVMFFIRawStr ||
             tindex == kTVMFFIByteArrayPtr || tindex == kTVMFFIObjectRValueRef) {
    // Borrowed kinds: the conversion routine turns them into owned objects.
    if (TVMFFIAnyViewToOwnedAny(&view, &out) != 0) {
      // Replace the conversion error by one naming what was being stored.
      TVMFFIObjectHandle err = nullptr;
      TVMFFIErrorMoveFromRaised(&err);
      if (err != nullptr) TVMFFIObjectDecRef(err);
      throw Error("TypeError", std::string("cannot store a value of type index ") +
                                           std::to_string(tindex) + " as " + what);
    }
  } else if (tindex < kTVMFFINone || tindex > kTVMFFIUnchanged) {
    throw Error("TypeError", std::string("invalid type index ") + std::to_string(tindex) +
                                         " in value stored as " + what);
  }
  return out;
}

/*! \brief Registry-side record of a type. `info` is what readers see. */
struct TypeEntry {
  TVMFFITypeInfo info{};
  std::string key;
  std::vector<const TVMFFITypeInfo*> ancestors;
  // Child slot reservation: the type owns indices [index, index + num_slots).
  int32_t num_slots = 1;
  int32_t used_slots = 1;
  bool child_slots_can_overflow = true;
  // Field/method arrays grow by doubling; published prefixes stay valid.
  size_t field_capacity = 0;
  size_t method_capacity = 0;
  std::vector<std::unique_ptr<TVMFFIFieldInfo[]>> field_buffers;
  std::vector<std::unique_ptr<TVMFFIMethodInfo[]>> method_buffers;
  std::vector<std::unique_ptr<TVMFFITypeMetadata>> metadata_buffers;
  // Registry-owned copies of names, docs and metadata strings (stable addresses).
  std::vector<std::unique_ptr<std::string>> strings;

  TVMFFIByteArray Own(const TVMFFIByteArray& src) {
    strings.emplace_back(new std::string(ToString(&src)));
    const std::string& s = *strings.back();
    return TVMFFIByteArray{s.c_str(), s.size()};
  }
};

/*! \brief One per-attribute column; the struct handed out never moves. */
struct AttrColumn {
  TVMFFITypeAttrColumn column{nullptr, 0, 0};
  std::vector<std::unique_ptr<TVMFFIAny[]>> buffers;
};

constexpr int32_t kChunkBits = 8;
constexpr int32_t kChunkSize = 1 << kChunkBits;
constexpr int32_t kNumChunks = 1024;
constexpr int32_t kMaxTypeIndex = kChunkSize * kNumChunks;  // exclusive bound

class Registry {
 public:
  static Registry& Global() {
    // Leaked on purpose: other libraries' static destructors may query types at exit.
    static Registry* inst = new Registry();
    return *inst;
  }

  const TVMFFITypeInfo* Get(int32_t index) const {
    if (index < 0 || index >= kMaxTypeIndex) return nullptr;
    Chunk* chunk = chunks_[index >> kChunkBits].load(std::memory_order_acquire);
    if (chunk == nullptr) return nullptr;
    TypeEntry* e = chunk->entries[index & (kChunkSize - 1)].load(std::memory_order_acquire);
    return e == nullptr ? nullptr : &e->info;
  }

  int32_t KeyToIndex(const std::string& key) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = key_to_index_.find(key);
    if (it == key_to_index_.end()) {
      throw Error("KeyError", "Cannot find type key \"" + key + "\"");
    }
    return it->second;
  }

  int32_t GetOrAlloc(const std::string& key, int32_t static_index, int32_t depth,
                     int32_t num_child_slots, bool can_overflow, int32_t parent_index) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = key_to_index_.find(key);
    if (it != key_to_index_.end()) {
      TypeEntry* e = EntryLocked(it->second);
      int32_t existing_parent =
          e->info.type_depth > 0 ? e->ancestors[e->info.type_depth - 1]->type_index : -1;
      if (existing_parent != parent_index) {
        throw Error("ValueError", "Type key \"" + key + "\" is already registered with parent index " +
                                              std::to_string(existing_parent) +
                                              ", cannot re-register it with parent index " +
                                              std::to_string(parent_index));
      }
      if (static_index >= 0 && static_index != it->second) {
        throw Error("ValueError", "Type key \"" + key + "\" is already registered with index " +
                                              std::to_string(it->second) +
                                              ", cannot re-register it with static index " +
                                              std::to_string(static_index));
      }
      return it->second;
    }
    if (key.empty()) throw Error("ValueError", "type key must not be empty");
    if (num_child_slots < 0 || num_child_slots >= kMaxTypeIndex) {
      throw Error("ValueError", "Type key \"" + key + "\": invalid num_child_slots " +
                                            std::to_string(num_child_slots));
    }
    TypeEntry* parent = nullptr;
    if (parent_index >= 0) {
      parent = EntryLocked(parent_index);
      if (parent == nullptr) {
        throw Error("ValueError", "Type key \"" + key + "\": parent type index " +
                                              std::to_string(parent_index) + " is not registered");
      }
      if (depth != parent->info.type_depth + 1) {
        throw Error("ValueError", "Type key \"" + key + "\": depth " + std::to_string(depth) +
                                              " must be parent \"" + parent->key + "\" depth + 1 = " +
                                              std::to_string(parent->info.type_depth + 1));
      }
    } else if (depth != 0) {
      throw Error("ValueError", "Type key \"" + key + "\": a root type (no parent) must have depth 0, got " +
                                            std::to_string(depth));
    }

    int32_t index;
    int32_t num_slots = 1;
    if (static_index >= 0) {
      if (static_index >= kMaxTypeIndex) {
        throw Error("IndexError", "Type key \"" + key + "\": static index " +
                                              std::to_string(static_index) + " is out of range");
      }
      if (EntryLocked(static_index) != nullptr) {
        throw Error("ValueError", "Type key \"" + key + "\": static index " +
                                              std::to_string(static_index) + " is already used by \"" +
                                              EntryLocked(static_index)->key + "\"");
      }
      index = static_index;
    } else {
      num_slots = num_child_slots + 1;
      index = AllocDynamicLocked(key, parent, num_slots);
    }

    std::unique_ptr<TypeEntry> entry(new TypeEntry());
    entry->key = key;
    entry->num_slots = num_slots;
    entry->child_slots_can_overflow = can_overflow;
    if (parent != nullptr) {
      entry->ancestors = parent->ancestors;
      entry->ancestors.push_back(&parent->info);
    }
    TVMFFITypeInfo& info = entry->info;
    info.type_index = index;
    info.type_depth = depth;
    info.type_key = TVMFFIByteArray{entry->key.c_str(), entry->key.size()};
    info.type_ancestors = entry->ancestors.empty() ? nullptr : entry->ancestors.data();
    info.type_key_hash = HashKey(entry->key);
    key_to_index_.emplace(key, index);
    PublishLocked(index, entry.release());
    return index;
  }

  void RegisterField(int32_t type_index, const TVMFFIFieldInfo& src) {
    std::lock_guard<std::mutex> lock(mutex_);
    TypeEntry* e = RequireLocked(type_index, "register a field");
    std::string name = ToString(&src.name);
    if (name.empty()) throw Error("ValueError", "field name must not be empty (type \"" + e->key + "\")");
    for (int32_t i = 0; i < e->info.num_fields; ++i) {
      if (ToString(&e->info.fields[i].name) == name) {
        throw Error("ValueError", "Field \"" + name + "\" is already registered on type \"" + e->key + "\"");
      }
    }
    TVMFFIFieldInfo copy = src;
    copy.default_value_or_factory = ToOwned(src.default_value_or_factory, "a field default");
    copy.name = e->Own(src.name);
    copy.doc = e->Own(src.doc);
    copy.metadata = e->Own(src.metadata);
    if ((copy.flags & kTVMFFIFieldFlagBitSetterIsFunctionObj) && copy.setter != nullptr) {
      TVMFFIObjectIncRef(copy.setter);
    }
    Append(e->info.fields, e->info.num_fields, e->field_capacity, e->field_buffers, copy);
  }

  void RegisterMethod(int32_t type_index, const TVMFFIMethodInfo& src) {
    std::lock_guard<std::mutex> lock(mutex_);
    TypeEntry* e = RequireLocked(type_index, "register a method");
    std::string name = ToString(&src.name);
    if (name.empty()) throw Error("ValueError", "method name must not be empty (type \"" + e->key + "\")");
    for (int32_t i = 0; i < e->info.num_methods; ++i) {
      if (ToString(&e->info.methods[i].name) == name) {
        throw Error("ValueError", "Method \"" + name + "\" is already registered on type \"" + e->key + "\"");
      }
    }
    TVMFFIMethodInfo copy = src;
    copy.method = ToOwned(src.method, "a method");
    copy.name = e->Own(src.name);
    copy.doc = e->Own(src.doc);
    copy.metadata = e->Own(src.metadata);
    Append(e->info.methods, e->info.num_methods, e->method_capacity, e->method_buffers, copy);
  }

  void RegisterMetadata(int32_t type_index, const TVMFFITypeMetadata& src) {
    std::lock_guard<std::mutex> lock(mutex_);
    TypeEntry* e = RequireLocked(type_index, "register metadata");
    // A later registration replaces the earlier one; the old record stays alive for readers.
    std::unique_ptr<TVMFFITypeMetadata> copy(new TVMFFITypeMetadata(src));
    copy->doc = e->Own(src.doc);
    const TVMFFITypeMetadata* published = copy.get();
    e->metadata_buffers.push_back(std::move(copy));
    __atomic_store_n(&e->info.metadata, published, __ATOMIC_RELEASE);
  }

  void RegisterAttr(int32_t type_index, const std::string& name, const TVMFFIAny& value) {
    std::lock_guard<std::mutex> lock(mutex_);
    TypeEntry* e = RequireLocked(type_index, "register attribute \"" + name + "\"");
    if (name.empty()) throw Error("ValueError", "attribute name must not be empty");
    std::unique_ptr<AttrColumn>& slot = columns_[name];
    if (slot == nullptr) slot.reset(new AttrColumn());
    AttrColumn* col = slot.get();
    if (type_index < col->column.size &&
        col->column.data[type_index].type_index != kTVMFFINone) {
      throw Error("ValueError", "Attribute \"" + name + "\" is already registered on type \"" +
                                            e->key + "\"");
    }
    TVMFFIAny owned = ToOwned(value, ("attribute \"" + name + "\"").c_str());
    if (type_index >= col->column.size) GrowColumnLocked(col, type_index + 1);
    const_cast<TVMFFIAny*>(col->column.data)[type_index] = owned;
  }

  const TVMFFITypeAttrColumn* GetColumn(const std::string& name) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = columns_.find(name);
    return it == columns_.end() ? nullptr : &it->second->column;
  }

 private:
  struct Chunk {
    std::atomic<TypeEntry*> entries[kChunkSize];
    Chunk() {
      for (auto& e : entries) e.store(nullptr, std::memory_order_relaxed);
    }
  };

  Registry() {
    for (auto& c : chunks_) c.store(nullptr, std::memory_order_relaxed);
    // POD kinds get entries too, so that error messages and schemas can name them.
    static const char* kPodKeys[] = {"None",        "int",
                                     "bool",        "float",
                                     "void*",       "DataType",
                                     "Device",      "DLTensor*",
                                     "const char*", "TVMFFIByteArray*",
                                     "ObjectRValueRef", "ffi.SmallStr",
                                     "ffi.SmallBytes",  "ffi.Unchanged"};
    for (int32_t i = 0; i <= kTVMFFIUnchanged; ++i) {
      GetOrAlloc(kPodKeys[i], i, 0, 0, true, -1);
    }
    GetOrAlloc("ffi.Object", kTVMFFIObject, 0, 0, true, -1);
    static const std::pair<const char*, int32_t> kStaticObjects[] = {
        {"ffi.String", kTVMFFIStr},         {"ffi.Bytes", kTVMFFIBytes},
        {"ffi.Error", kTVMFFIError},        {"ffi.Function", kTVMFFIFunction},
        {"ffi.Shape", kTVMFFIShape},        {"ffi.Tensor", kTVMFFITensor},
        {"ffi.Array", kTVMFFIArray},        {"ffi.Map", kTVMFFIMap},
        {"ffi.Module", kTVMFFIModule},      {"ffi.OpaquePyObject", kTVMFFIOpaquePyObject},
        {"ffi.List", kTVMFFIList},          {"ffi.Dict", kTVMFFIDict},
        {"ffi.BigInt", kTVMFFIBigInt}};
    for (const auto& kv : kStaticObjects) {
      GetOrAlloc(kv.first, kv.second, 1, 0, true, kTVMFFIObject);
    }
  }

  TypeEntry* EntryLocked(int32_t index) const {
    if (index < 0 || index >= kMaxTypeIndex) return nullptr;
    Chunk* chunk = chunks_[index >> kChunkBits].load(std::memory_order_relaxed);
    if (chunk == nullptr) return nullptr;
    return chunk->entries[index & (kChunkSize - 1)].load(std::memory_order_relaxed);
  }

  TypeEntry* RequireLocked(int32_t index, const std::string& action) const {
    TypeEntry* e = EntryLocked(index);
    if (e == nullptr) {
      throw Error("ValueError", "Cannot " + action + ": type index " + std::to_string(index) +
                                            " is not registered");
    }
    return e;
  }

  bool RangeFreeLocked(int32_t begin, int32_t count) const {
    if (begin < 0 || count > kMaxTypeIndex - begin) return false;
    for (int32_t i = begin; i < begin + count; ++i) {
      if (EntryLocked(i) != nullptr) return false;
    }
    return true;
  }

  /*!
   * \brief Pick an index for a dynamic type owning num_slots indices. A child
   *  first uses the slots its parent reserved (so the parent's index range
   *  contains exactly its descendants); otherwise, if the parent allows
   *  overflow, indices come from the process-wide counter starting at 128.
   */
  int32_t AllocDynamicLocked(const std::string& key, TypeEntry* parent, int32_t num_slots) {
    if (parent != nullptr && parent->num_slots > 1) {
      if (parent->num_slots - parent->used_slots >= num_slots) {
        int32_t index = parent->info.type_index + parent->used_slots;
        parent->used_slots += num_slots;
        return index;
      }
      if (!parent->child_slots_can_overflow) {
        throw Error("IndexError", "Type key \"" + key + "\": parent \"" + parent->key + "\" has " +
                                              std::to_string(parent->num_slots - 1) +
                                              " child slots, not enough left for " +
                                              std::to_string(num_slots) +
                                              " and child_slots_can_overflow is false");
      }
    }
    int32_t begin = next_dynamic_;
    while (!RangeFreeLocked(begin, num_slots)) {
      if (begin >= kMaxTypeIndex - num_slots) {
        throw Error("IndexError", "Type key \"" + key + "\": no free type index left (maximum " +
                                              std::to_string(kMaxTypeIndex) + ")");
      }
      ++begin;
    }
    next_dynamic_ = begin + num_slots;
    return begin;
  }

  void PublishLocked(int32_t index, TypeEntry* entry) {
    std::atomic<Chunk*>& slot = chunks_[index >> kChunkBits];
    Chunk* chunk = slot.load(std::memory_order_relaxed);
    if (chunk == nullptr) {
      chunk = new Chunk();
      slot.store(chunk, std::memory_order_release);
    }
    chunk->entries[index & (kChunkSize - 1)].store(entry, std::memory_order_release);
  }

  /*! \brief Append to a reader-visible array: write the element, then publish the count. */
  template <typename T>
  static void Append(const T*& data, int32_t& count, size_t& capacity,
                     std::vector<std::unique_ptr<T[]>>& buffers, const T& value) {
    size_t n = static_cast<size_t>(count);
    if (n == capacity) {
      size_t new_cap = capacity == 0 ? 4 : capacity * 2;
      std::unique_ptr<T[]> buf(new T[new_cap]);
      for (size_t i = 0; i < n; ++i) buf[i] = data[i];
      buf[n] = value;
      const T* published = buf.get();
      buffers.push_back(std::move(buf));
      __atomic_store_n(&data, published, __ATOMIC_RELEASE);
      capacity = new_cap;
    } else {
      const_cast<T*>(data)[n] = value;
    }
    __atomic_store_n(&count, static_cast<int32_t>(n + 1), __ATOMIC_RELEASE);
  }

  /*!
   * \brief Grow a column to cover at least `needed` type indices. Columns grow
   *  in big steps, so that growth (the only moment a concurrent reader could
   *  pair an old buffer with a new size) is rare; old buffers stay alive.
   */
  static void GrowColumnLocked(AttrColumn* col, int32_t needed) {
    int32_t new_size = col->column.size == 0 ? 1024 : col->column.size;
    while (new_size < needed) new_size *= 2;
    std::unique_ptr<TVMFFIAny[]> buf(new TVMFFIAny[new_size]);
    for (int32_t i = 0; i < new_size; ++i) {
      buf[i].type_index = kTVMFFINone;
      buf[i].zero_padding = 0;
      buf[i].v_int64 = 0;
    }
    for (int32_t i = 0; i < col->column.size; ++i) buf[i] = col->column.data[i];
    const TVMFFIAny* published = buf.get();
    col->buffers.push_back(std::move(buf));
    __atomic_store_n(&col->column.data, published, __ATOMIC_RELEASE);
    __atomic_store_n(&col->column.size, new_size, __ATOMIC_RELEASE);
  }

  std::mutex mutex_;
  std::atomic<Chunk*> chunks_[kNumChunks];
  std::unordered_map<std::string, int32_t> key_to_index_;
  std::unordered_map<std::string, std::unique_ptr<AttrColumn>> columns_;
  int32_t next_dynamic_ = kTVMFFIDynObjectBegin;
};

/*! \brief Layout of objects made by TVMFFIObjectCreateOpaque (from the custom allocator). */
struct OpaqueObject {
  TVMFFIObject header;
  TVMFFIOpaqueObjectCell cell;
  void (*handle_deleter)(void* handle);

  OpaqueObject(void* handle, void (*deleter)(void*)) : cell{handle}, handle_deleter(deleter) {}
  ~OpaqueObject() {
    if (handle_deleter != nullptr) handle_deleter(cell.handle);
  }
};

std::recursive_mutex& InitOnceMutex() {
  // Recursive: an init callback may itself lazily initialise another handle.
  static std::recursive_mutex* mu = new std::recursive_mutex();
  return *mu;
}

}  // namespace
TVM_FFI_NAMESPACE_END

using tvm::ffi::Registry;
using tvm::ffi::Error;
using tvm::ffi::details::SafeInvoke;
using tvm::ffi::ToString;

extern "C" {

TVM_FFI_DLL void TVMFFIGetVersion(TVMFFIVersion* out_version) {
  if (out_version == nullptr) return;
  out_version->major = TVM_FFI_VERSION_MAJOR;
  out_version->minor = TVM_FFI_VERSION_MINOR;
  out_version->patch = TVM_FFI_VERSION_PATCH;
}

TVM_FFI_DLL int TVMFFIObjectIncRef(TVMFFIObjectHandle handle) {
  if (handle == nullptr) return 0;
  TVMFFIObject* obj = static_cast<TVMFFIObject*>(handle);
  __atomic_fetch_add(&obj->combined_ref_count, 1, __ATOMIC_RELAXED);
  return 0;
}

TVM_FFI_DLL int TVMFFIObjectDecRef(TVMFFIObjectHandle handle) {
  if (handle == nullptr) return 0;
  TVMFFIObject* obj = static_cast<TVMFFIObject*>(handle);
  constexpr uint64_t kWeakOne = uint64_t(1) << 32;
  uint64_t old = __atomic_fetch_sub(&obj->combined_ref_count, 1, __ATOMIC_RELEASE);
  if (old == (kWeakOne | 1)) {
    __atomic_thread_fence(__ATOMIC_ACQUIRE);
    if (obj->deleter != nullptr) obj->deleter(obj, kTVMFFIObjectDeleterFlagBitMaskBoth);
  } else if ((old & 0xffffffffull) == 1) {
    __atomic_thread_fence(__ATOMIC_ACQUIRE);
    if (obj->deleter != nullptr) obj->deleter(obj, kTVMFFIObjectDeleterFlagBitMaskStrong);
    // The strong references together held one weak reference; drop it now.
    uint64_t old_weak = __atomic_fetch_sub(&obj->combined_ref_count, kWeakOne, __ATOMIC_RELEASE);
    if (old_weak == kWeakOne) {
      __atomic_thread_fence(__ATOMIC_ACQUIRE);
      if (obj->deleter != nullptr) obj->deleter(obj, kTVMFFIObjectDeleterFlagBitMaskWeak);
    }
  }
  return 0;
}

TVM_FFI_DLL int TVMFFIObjectCreateOpaque(void* handle, int32_t type_index,
                                         void (*deleter)(void* handle), TVMFFIObjectHandle* out) {
  // Any registered object type index is accepted (kTVMFFIOpaquePyObject or a
  // dynamic type whose objects carry a TVMFFIOpaqueObjectCell).
  return SafeInvoke([&]() -> int {
    if (out == nullptr) throw Error("ValueError", "TVMFFIObjectCreateOpaque: out must not be NULL");
    if (type_index < kTVMFFIStaticObjectBegin || TVMFFIGetTypeInfo(type_index) == nullptr) {
      throw Error("ValueError", "TVMFFIObjectCreateOpaque: type index " + std::to_string(type_index) +
                                            " is not a registered object type");
    }
    *out = tvm::ffi::details::MakeCustomAllocObject<tvm::ffi::OpaqueObject>(type_index, 0, handle,
                                                                            deleter);
    return 0;
  });
}

TVM_FFI_DLL int TVMFFITypeKeyToIndex(const TVMFFIByteArray* type_key, int32_t* out_tindex) {
  return SafeInvoke([&]() -> int {
    if (type_key == nullptr || out_tindex == nullptr) {
      throw Error("ValueError", "TVMFFITypeKeyToIndex: arguments must not be NULL");
    }
    *out_tindex = Registry::Global().KeyToIndex(ToString(type_key));
    return 0;
  });
}

TVM_FFI_DLL int32_t TVMFFITypeGetOrAllocIndex(const TVMFFIByteArray* type_key,
                                              int32_t static_type_index, int32_t type_depth,
                                              int32_t num_child_slots,
                                              int32_t child_slots_can_overflow,
                                              int32_t parent_type_index) {
  int32_t result = -1;
  int rc = SafeInvoke([&]() -> int {
    if (type_key == nullptr) throw Error("ValueError", "TVMFFITypeGetOrAllocIndex: type_key must not be NULL");
    result = Registry::Global().GetOrAlloc(ToString(type_key), static_type_index, type_depth,
                                           num_child_slots, child_slots_can_overflow != 0,
                                           parent_type_index);
    return 0;
  });
  return rc == 0 ? result : -1;
}

TVM_FFI_DLL const TVMFFITypeInfo* TVMFFIGetTypeInfo(int32_t type_index) {
  return Registry::Global().Get(type_index);
}

TVM_FFI_DLL int TVMFFITypeRegisterField(int32_t type_index, const TVMFFIFieldInfo* info) {
  return SafeInvoke([&]() -> int {
    if (info == nullptr) throw Error("ValueError", "TVMFFITypeRegisterField: info must not be NULL");
    Registry::Global().RegisterField(type_index, *info);
    return 0;
  });
}

TVM_FFI_DLL int TVMFFITypeRegisterMethod(int32_t type_index, const TVMFFIMethodInfo* info) {
  return SafeInvoke([&]() -> int {
    if (info == nullptr) throw Error("ValueError", "TVMFFITypeRegisterMethod: info must not be NULL");
    Registry::Global().RegisterMethod(type_index, *info);
    return 0;
  });
}

TVM_FFI_DLL int TVMFFITypeRegisterMetadata(int32_t type_index, const TVMFFITypeMetadata* metadata) {
  return SafeInvoke([&]() -> int {
    if (metadata == nullptr) {
      throw Error("ValueError", "TVMFFITypeRegisterMetadata: metadata must not be NULL");
    }
    Registry::Global().RegisterMetadata(type_index, *metadata);
    return 0;
  });
}

TVM_FFI_DLL int TVMFFITypeRegisterAttr(int32_t type_index, const TVMFFIByteArray* attr_name,
                                       const TVMFFIAny* attr_value) {
  return SafeInvoke([&]() -> int {
    if (attr_name == nullptr || attr_value == nullptr) {
      throw Error("ValueError", "TVMFFITypeRegisterAttr: arguments must not be NULL");
    }
    Registry::Global().RegisterAttr(type_index, ToString(attr_name), *attr_value);
    return 0;
  });
}

TVM_FFI_DLL const TVMFFITypeAttrColumn* TVMFFIGetTypeAttrColumn(const TVMFFIByteArray* attr_name) {
  if (attr_name == nullptr) return nullptr;
  try {
    return Registry::Global().GetColumn(ToString(attr_name));
  } catch (...) {
    // This entry point reports "absent" rather than raising.
    return nullptr;
  }
}

TVM_FFI_DLL int TVMFFIHandleInitOnce(void** handle_addr, int (*init)(void** out)) {
  return SafeInvoke([&]() -> int {
    if (handle_addr == nullptr || init == nullptr) {
      throw Error("ValueError", "TVMFFIHandleInitOnce: arguments must not be NULL");
    }
    if (__atomic_load_n(handle_addr, __ATOMIC_ACQUIRE) != nullptr) return 0;
    std::lock_guard<std::recursive_mutex> lock(tvm::ffi::InitOnceMutex());
    if (__atomic_load_n(handle_addr, __ATOMIC_ACQUIRE) != nullptr) return 0;
    void* value = nullptr;
    if (init(&value) != 0) return -1;  // init raised the error already
    __atomic_store_n(handle_addr, value, __ATOMIC_RELEASE);
    return 0;
  });
}

TVM_FFI_DLL int TVMFFIHandleDeinitOnce(void** handle_addr, int (*deinit)(void* handle)) {
  return SafeInvoke([&]() -> int {
    if (handle_addr == nullptr || deinit == nullptr) {
      throw Error("ValueError", "TVMFFIHandleDeinitOnce: arguments must not be NULL");
    }
    std::lock_guard<std::recursive_mutex> lock(tvm::ffi::InitOnceMutex());
    void* value = __atomic_load_n(handle_addr, __ATOMIC_ACQUIRE);
    if (value == nullptr) return 0;
    if (deinit(value) != 0) return -1;  // deinit raised; the handle stays set
    __atomic_store_n(handle_addr, static_cast<void*>(nullptr), __ATOMIC_RELEASE);
    return 0;
  });
}

}  // extern "C"
