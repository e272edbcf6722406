/*
 * The type table: type keys, type indices and ancestors (docs/abi.md §2.6), and
 * the C functions TVMFFITypeKeyToIndex, TVMFFITypeGetOrAllocIndex and
 * TVMFFIGetTypeInfo.
 *
 * Index allocation follows the rules compiled into every library's inline
 * instance checks: a type with child slots owns the index range
 * [index, index + child_slots] and its descendants take indices inside it
 * first; when the range is full they get fresh indices from a counter
 * starting at kTVMFFIDynObjectBegin, but only if the parent allows overflow
 * (a type that does not must see all its descendants inside its range).
 *
 * Re-registering a known key returns its index whatever the other arguments:
 * every library that uses a type registers it again when it loads.
 */
#include "type_table.h"

#include "safe_invoke.h"

#include <tvm/ffi/error.h>

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

TVM_FFI_NAMESPACE_BEGIN
namespace detail {
namespace {

/*!
 * \brief libstdc++'s std::hash<std::string_view> of the key (MurmurHash64A
 *  with seed 0xc70f6907), computed here so that it is the same on every
 *  platform and agrees with other implementations of the ABI.
 */
uint64_t HashKey(const std::string& key) {
  constexpr uint64_t kMul = 0xc6a4a7935bd1e995ULL;
  auto shift_mix = [](uint64_t v) { return v ^ (v >> 47); };
  auto load_le = [](const unsigned char* p, size_t n) {
    uint64_t w = 0;
    for (size_t i = n; i > 0; --i) w = (w << 8) | p[i - 1];
    return w;
  };
  const unsigned char* p = reinterpret_cast<const unsigned char*>(key.data());
  size_t len = key.size();
  size_t aligned = len & ~static_cast<size_t>(7);
  uint64_t h = 0xc70f6907ULL ^ (len * kMul);
  for (size_t i = 0; i < aligned; i += 8) {
    uint64_t d = shift_mix(load_le(p + i, 8) * kMul) * kMul;
    h ^= d;
    h *= kMul;
  }
  if ((len & 7) != 0) {
    h ^= load_le(p + aligned, len & 7);
    h *= kMul;
  }
  return shift_mix(shift_mix(h) * kMul);
}

/*! \brief parent_type_index that asks for a lookup only. */
constexpr int32_t kQueryOnly = -2;

}  // namespace

TVMFFIAny ToOwned(const TVMFFIAny& view, const std::string& what) {
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
      TVM_FFI_THROW(TypeError) << "cannot store a value of type index " + std::to_string(tindex) +
                                      " as " + what;
    }
  } else if (tindex < kTVMFFINone || tindex > kTVMFFIUnchanged) {
    TVM_FFI_THROW(TypeError) << "invalid type index " + std::to_string(tindex) +
                                    " in value stored as " + what;
  }
  return out;
}

TVMFFIByteArray TypeEntry::Own(const TVMFFIByteArray& src) {
  strings.emplace_back(new std::string(ByteArrayToStdString(&src)));
  const std::string& s = *strings.back();
  return TVMFFIByteArray{s.c_str(), s.size()};
}

TypeTable& TypeTable::Global() {
  static TypeTable* inst = new TypeTable();
  return *inst;
}

TypeTable::TypeTable() {
  for (auto& c : chunks_) c.store(nullptr, std::memory_order_relaxed);
  // POD kinds get entries too, so that error messages and schemas can name them.
  static const char* kPodKeys[] = {"None",
                                   "int",
                                   "bool",
                                   "float",
                                   "void*",
                                   "DataType",
                                   "Device",
                                   "DLTensor*",
                                   "const char*",
                                   "TVMFFIByteArray*",
                                   "ObjectRValueRef",
                                   "ffi.SmallStr",
                                   "ffi.SmallBytes",
                                   "ffi.Unchanged"};
  for (int32_t i = 0; i <= kTVMFFIUnchanged; ++i) {
    GetOrAlloc(kPodKeys[i], i, 0, 0, true, -1);
  }
  GetOrAlloc("ffi.Object", kTVMFFIObject, 0, 0, true, -1);
  static const std::pair<const char*, int32_t> kStaticObjects[] = {
      {"ffi.String", kTVMFFIStr},
      {"ffi.Bytes", kTVMFFIBytes},
      {"ffi.Error", kTVMFFIError},
      {"ffi.Function", kTVMFFIFunction},
      {"ffi.Shape", kTVMFFIShape},
      {"ffi.Tensor", kTVMFFITensor},
      {"ffi.Array", kTVMFFIArray},
      {"ffi.Map", kTVMFFIMap},
      {"ffi.Module", kTVMFFIModule},
      {"ffi.OpaquePyObject", kTVMFFIOpaquePyObject},
      {"ffi.List", kTVMFFIList},
      {"ffi.Dict", kTVMFFIDict},
      {"ffi.VisitInterrupt", kTVMFFIVisitInterrupt},
      {"ffi.BigInt", kTVMFFIBigInt}};
  for (const auto& kv : kStaticObjects) {
    GetOrAlloc(kv.first, kv.second, 1, 0, true, kTVMFFIObject);
  }
}

std::vector<std::string> TypeTable::Keys() {
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<std::pair<int32_t, std::string>> by_index;
  by_index.reserve(key_to_index_.size());
  for (const auto& kv : key_to_index_) by_index.emplace_back(kv.second, kv.first);
  std::sort(by_index.begin(), by_index.end());
  std::vector<std::string> keys;
  keys.reserve(by_index.size());
  for (auto& kv : by_index) keys.push_back(std::move(kv.second));
  return keys;
}

int32_t TypeTable::KeyToIndex(const std::string& key) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = key_to_index_.find(key);
  // An internal check, as in the reference runtime: code looking a key up expects it registered.
  TVM_FFI_ICHECK(it != key_to_index_.end()) << "Cannot find type `" << key << "`";
  return it->second;
}

int32_t TypeTable::GetOrAlloc(const std::string& key, int32_t static_index, int32_t depth,
                              int32_t num_child_slots, bool can_overflow, int32_t parent_index) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = key_to_index_.find(key);
  if (it != key_to_index_.end()) return it->second;
  if (parent_index == kQueryOnly) return kQueryOnly;
  if (key.empty()) TVM_FFI_THROW(ValueError) << "type key must not be empty";
  if (num_child_slots < 0 || num_child_slots >= kMaxTypeIndex) {
    TVM_FFI_THROW(ValueError) << "Type key \"" + key + "\": invalid num_child_slots " +
                                     std::to_string(num_child_slots);
  }
  TypeEntry* parent = nullptr;
  if (parent_index >= 0) {
    parent = EntryLocked(parent_index);
    if (parent == nullptr) {
      TVM_FFI_THROW(ValueError) << "Type key \"" + key + "\": parent type index " +
                                       std::to_string(parent_index) + " is not registered";
    }
    if (depth != parent->info.type_depth + 1) {
      TVM_FFI_THROW(ValueError) << "Type key \"" + key + "\": depth " + std::to_string(depth) +
                                       " must be parent \"" + parent->key + "\" depth + 1 = " +
                                       std::to_string(parent->info.type_depth + 1);
    }
  } else if (parent_index != -1) {
    TVM_FFI_THROW(ValueError) << "Type key \"" + key + "\": invalid parent type index " +
                                     std::to_string(parent_index);
  } else if (depth != 0) {
    TVM_FFI_THROW(ValueError) << "Type key \"" + key +
                                     "\": a root type (no parent) must have depth 0, got " +
                                     std::to_string(depth);
  }

  int32_t index;
  int32_t num_slots = 1;
  if (static_index >= 0) {
    if (static_index >= kMaxTypeIndex) {
      TVM_FFI_THROW(IndexError) << "Type key \"" + key + "\": static index " +
                                       std::to_string(static_index) + " is out of range";
    }
    if (TypeEntry* other = EntryLocked(static_index)) {
      TVM_FFI_THROW(InternalError) << "Conflicting static index " + std::to_string(static_index) +
                                          " for type key \"" + key + "\": already used by \"" +
                                          other->key + "\"";
    }
    index = static_index;
  } else {
    num_slots = num_child_slots + 1;
    index = AllocDynamicLocked(key, parent, num_slots);
  }

  std::unique_ptr<TypeEntry> entry(new TypeEntry());
  entry->key = key;
  entry->num_slots = num_slots;
  // Descendants of a type that keeps all of them in its range must stay there too.
  entry->child_slots_can_overflow =
      can_overflow && (parent == nullptr || parent->child_slots_can_overflow);
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

TypeEntry* TypeTable::EntryLocked(int32_t index) const {
  if (index < 0 || index >= kMaxTypeIndex) return nullptr;
  Chunk* chunk = chunks_[index >> kChunkBits].load(std::memory_order_relaxed);
  if (chunk == nullptr) return nullptr;
  return chunk->entries[index & (kChunkSize - 1)].load(std::memory_order_relaxed);
}

TypeEntry* TypeTable::RequireLocked(int32_t index, const std::string& action) const {
  TypeEntry* e = EntryLocked(index);
  if (e == nullptr) {
    TVM_FFI_THROW(ValueError) << "Cannot " + action + ": type index " + std::to_string(index) +
                                     " is not registered";
  }
  return e;
}

bool TypeTable::RangeFreeLocked(int32_t begin, int32_t count) const {
  if (begin < 0 || count > kMaxTypeIndex - begin) return false;
  for (int32_t i = begin; i < begin + count; ++i) {
    if (EntryLocked(i) != nullptr) return false;
  }
  return true;
}

/*!
 * \brief Pick the first of num_slots consecutive indices for a new dynamic
 *  type: inside the parent's reserved range while it has room, else (when the
 *  parent allows overflow) from the process-wide counter.
 */
int32_t TypeTable::AllocDynamicLocked(const std::string& key, TypeEntry* parent,
                                      int32_t num_slots) {
  if (parent != nullptr) {
    if (parent->used_slots + num_slots <= parent->num_slots) {
      int32_t index = parent->info.type_index + parent->used_slots;
      parent->used_slots += num_slots;
      return index;
    }
    if (!parent->child_slots_can_overflow) {
      TVM_FFI_THROW(InternalError) << "Reach maximum number of sub-classes for " + parent->key +
                                          " (registering \"" + key +
                                          "\": " + std::to_string(parent->num_slots - 1) +
                                          " child slots, child_slots_can_overflow is false)";
    }
  }
  int32_t begin = next_dynamic_;
  while (!RangeFreeLocked(begin, num_slots)) {
    if (begin >= kMaxTypeIndex - num_slots) {
      TVM_FFI_THROW(IndexError) << "Type key \"" + key + "\": no free type index left (maximum " +
                                       std::to_string(kMaxTypeIndex) + ")";
    }
    ++begin;
  }
  next_dynamic_ = begin + num_slots;
  return begin;
}

void TypeTable::PublishLocked(int32_t index, TypeEntry* entry) {
  std::atomic<Chunk*>& slot = chunks_[index >> kChunkBits];
  Chunk* chunk = slot.load(std::memory_order_relaxed);
  if (chunk == nullptr) {
    chunk = new Chunk();
    slot.store(chunk, std::memory_order_release);
  }
  chunk->entries[index & (kChunkSize - 1)].store(entry, std::memory_order_release);
}

}  // namespace detail
TVM_FFI_NAMESPACE_END

using tvm::ffi::Error;
using tvm::ffi::detail::ByteArrayToStdString;
using tvm::ffi::detail::SafeInvoke;
using tvm::ffi::detail::TypeTable;

extern "C" {

TVM_FFI_DLL int TVMFFITypeKeyToIndex(const TVMFFIByteArray* type_key, int32_t* out_tindex) {
  return SafeInvoke([&]() -> int {
    if (type_key == nullptr || out_tindex == nullptr) {
      TVM_FFI_THROW(ValueError) << "TVMFFITypeKeyToIndex: arguments must not be NULL";
    }
    *out_tindex = TypeTable::Global().KeyToIndex(ByteArrayToStdString(type_key));
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
    if (type_key == nullptr) {
      TVM_FFI_THROW(ValueError) << "TVMFFITypeGetOrAllocIndex: type_key must not be NULL";
    }
    result = TypeTable::Global().GetOrAlloc(ByteArrayToStdString(type_key), static_type_index,
                                            type_depth, num_child_slots,
                                            child_slots_can_overflow != 0, parent_type_index);
    return 0;
  });
  return rc == 0 ? result : -1;
}

TVM_FFI_DLL const TVMFFITypeInfo* TVMFFIGetTypeInfo(int32_t type_index) {
  return TypeTable::Global().Get(type_index);
}

}  // extern "C"
