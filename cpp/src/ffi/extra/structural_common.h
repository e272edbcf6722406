/*
 * Pieces shared by the structural equality and hash engines: the structural
 * kind of a type (with the TypeErrors of unsupported types), the walk over
 * reflected fields with their definition regions, hook lookup in attribute
 * columns, and the cell-level readers of strings, sequences and tensors.
 */
#ifndef TVM_FFI_EXTRA_STRUCTURAL_COMMON_H_
#define TVM_FFI_EXTRA_STRUCTURAL_COMMON_H_

#include <tvm/ffi/any.h>
#include <tvm/ffi/big_int.h>
#include <tvm/ffi/c_api.h>
#include <tvm/ffi/container/release_scope.h>
#include <tvm/ffi/container/seq_base.h>
#include <tvm/ffi/container/tensor.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/object.h>

#include "../type_table.h"

#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_set>
#include <utility>
#include <vector>

TVM_FFI_NAMESPACE_BEGIN
namespace detail {
namespace structural {

inline std::string TypeKeyOf(const TVMFFITypeInfo* info) {
  return std::string(info->type_key.data, info->type_key.size);
}

/*!
 * \return The structural kind of a reflected object type; TypeError when the
 *  type has no metadata or declares no kind (the texts name StructuralHash for
 *  both engines).
 */
inline TVMFFISEqHashKind GetKind(const TVMFFITypeInfo* info) {
  if (info->metadata == nullptr) {
    TVM_FFI_THROW(TypeError) << "Type metadata is not set for type `" << TypeKeyOf(info)
                             << "`, so StructuralHash is not supported for this type";
  }
  TVMFFISEqHashKind kind = info->metadata->structural_eq_hash_kind;
  if (kind == kTVMFFISEqHashKindUnsupported) {
    TVM_FFI_THROW(TypeError) << "_type_s_eq_hash_kind is not set for type `" << TypeKeyOf(info)
                             << "`, so StructuralHash is not supported for this type";
  }
  return kind;
}

/*! \brief A type attribute column looked up once (NULL when the runtime never created it). */
inline const TVMFFITypeAttrColumn* LookupColumn(std::string_view name) {
  TVMFFIByteArray bytes{name.data(), name.size()};
  return TVMFFIGetTypeAttrColumn(&bytes);
}

/*! \return The Function stored for type_index in col, if any. */
inline std::optional<Function> ColumnFunction(const TVMFFITypeAttrColumn* col, int32_t type_index) {
  if (col == nullptr) return std::nullopt;
  int64_t i = static_cast<int64_t>(type_index) - col->begin_index;
  if (i < 0 || i >= col->size) return std::nullopt;
  const TVMFFIAny& cell = col->data[i];
  if (cell.type_index != kTVMFFIFunction) return std::nullopt;
  return AnyView::CopyFromTVMFFIAny(cell).cast<Function>();
}

/*! \brief Sets a definition-region variable for a scope and restores it on exit (also on throw). */
class RegionScope {
 public:
  RegionScope(TVMFFIDefRegionKind* slot, TVMFFIDefRegionKind value) : slot_(slot), saved_(*slot) {
    *slot_ = value;
  }
  ~RegionScope() { *slot_ = saved_; }
  RegionScope(const RegionScope&) = delete;
  RegionScope& operator=(const RegionScope&) = delete;

 private:
  TVMFFIDefRegionKind* slot_;
  TVMFFIDefRegionKind saved_;
};

/*!
 * \brief The region a field is walked in: flag 4096 enters Simple, flag 16
 *  Pattern; a Pattern region is sticky; other fields keep the current one.
 */
inline TVMFFIDefRegionKind EnterRegion(TVMFFIDefRegionKind current, TVMFFIDefRegionKind next) {
  if (current == kTVMFFIDefRegionKindPattern || next == kTVMFFIDefRegionKindNone) return current;
  return next;
}

inline TVMFFIDefRegionKind FieldRegion(TVMFFIDefRegionKind current, int64_t flags) {
  if (flags & kTVMFFIFieldFlagBitMaskSEqHashDefPattern) {
    return EnterRegion(current, kTVMFFIDefRegionKindPattern);
  }
  if (flags & kTVMFFIFieldFlagBitMaskSEqHashDefSimple) {
    return EnterRegion(current, kTVMFFIDefRegionKindSimple);
  }
  return current;
}

/*!
 * \brief Call f(field_info) for every field of the type that takes part in
 *  structural comparison (ancestors from depth 1 first, then the type's own;
 *  flag 8 skipped) until f returns false.
 * \return Whether every call returned true.
 */
template <typename F>
inline bool ForEachStructuralField(const TVMFFITypeInfo* info, F&& f) {
  for (int32_t depth = 1; depth <= info->type_depth; ++depth) {
    const TVMFFITypeInfo* t = depth < info->type_depth ? info->type_ancestors[depth] : info;
    for (int32_t i = 0; i < t->num_fields; ++i) {
      const TVMFFIFieldInfo* field = &t->fields[i];
      if (field->flags & kTVMFFIFieldFlagBitMaskSEqHashIgnore) continue;
      if (!f(field)) return false;
    }
  }
  return true;
}

/*! \brief How the engines read a field: in place (by storage) or through its getter. */
enum class FieldRead : uint8_t { kGetter, kAny, kObject, kInt64, kFloat64, kBool };

/*!
 * \return How a field can be read without its getter. Only layouts that every
 *  registrant (ours, wheel-built libraries) gives one meaning qualify: an
 *  8-byte int, 8-byte float, 1-byte bool, an 8-byte object reference (a
 *  nullable object pointer), and an Any member, told apart from the other
 *  static-index -1 members (strings, Optional, Variant) by its size and its
 *  type schema "Any". Anything else uses the getter.
 */
inline FieldRead FieldReadOf(const TVMFFIFieldInfo* field) {
  if (field->offset < 0) return FieldRead::kGetter;
  switch (field->field_static_type_index) {
    case kTVMFFIInt:
      return field->size == 8 ? FieldRead::kInt64 : FieldRead::kGetter;
    case kTVMFFIFloat:
      return field->size == 8 ? FieldRead::kFloat64 : FieldRead::kGetter;
    case kTVMFFIBool:
      return field->size == 1 ? FieldRead::kBool : FieldRead::kGetter;
    case kTVMFFIObject:
      return field->size == sizeof(void*) && field->alignment == alignof(void*)
                 ? FieldRead::kObject
                 : FieldRead::kGetter;
    case kTVMFFIAny: {
      if (field->size != sizeof(TVMFFIAny) || field->alignment != alignof(TVMFFIAny)) {
        return FieldRead::kGetter;
      }
      constexpr std::string_view kAnySchema = "{\"type_schema\":\"{\\\"type\\\":\\\"Any\\\"}\"";
      std::string_view meta(field->metadata.data, field->metadata.size);
      if (meta.size() > kAnySchema.size() && meta.compare(0, kAnySchema.size(), kAnySchema) == 0 &&
          (meta[kAnySchema.size()] == ',' || meta[kAnySchema.size()] == '}')) {
        return FieldRead::kAny;
      }
      return FieldRead::kGetter;
    }
    default:
      return FieldRead::kGetter;
  }
}

/*! \brief A structural field and how it is read. */
struct StructuralField {
  const TVMFFIFieldInfo* info;
  FieldRead read;
};

/*!
 * \brief What the engines need of an object type: its kind, its structural
 *  fields and its engine hook (the type attribute __s_equal__ / __s_hash__).
 */
struct StructuralType {
  const TVMFFITypeInfo* info;
  TVMFFISEqHashKind kind;
  std::vector<StructuralField> fields;
  std::optional<Function> hook;
};

/*!
 * \brief StructuralType of each type index an engine meets, looked up once (GetKind's
 *  TypeError is raised each time an unsupported type is met). One cache per thread and
 *  engine kind (ForThread) serves every run on that thread: building the entries per run
 *  cost TVM's compile passes, which compare and hash often, thousands of allocations each.
 *  An entry stays valid while the type table's reflection generation holds; a run that
 *  starts after a change starts from an empty cache.
 */
class StructuralTypeCache {
 public:
  /*! \param hook_attr The type attribute holding the engine's hook. */
  explicit StructuralTypeCache(std::string_view hook_attr) : hook_attr_(hook_attr) {}

  /*!
   * \brief The cache of this thread for hook_attr's engine. kHookAttr names one of a few
   *  engine kinds, so each has its own thread-local instance.
   */
  template <const char* kHookAttr>
  static StructuralTypeCache& ForThread() {
    thread_local StructuralTypeCache cache{kHookAttr};
    return cache;
  }

  /*!
   * \brief Marks a run on this cache: the outermost run of a thread drops entries built
   *  under older reflection data; nested runs (a hook comparing again) keep what the
   *  running outer engine holds references to.
   */
  class Run {
   public:
    explicit Run(StructuralTypeCache* cache) : cache_(cache) {
      if (cache_->active_runs_++ == 0) cache_->DropIfStale();
    }
    ~Run() { --cache_->active_runs_; }
    Run(const Run&) = delete;
    Run& operator=(const Run&) = delete;

   private:
    StructuralTypeCache* cache_;
  };

  const StructuralType& Get(int32_t type_index) {
    size_t i = static_cast<size_t>(type_index);
    if (i < entries_.size() && entries_[i] != nullptr) return *entries_[i];
    const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(type_index);
    auto entry = std::make_unique<StructuralType>();
    entry->info = info;
    entry->kind = GetKind(info);
    ForEachStructuralField(info, [&](const TVMFFIFieldInfo* field) {
      entry->fields.push_back(StructuralField{field, FieldReadOf(field)});
      return true;
    });
    // The column may appear after the cache was made: looked up again after every change.
    if (!hook_column_looked_up_) {
      hook_column_ = LookupColumn(hook_attr_);
      hook_column_looked_up_ = true;
    }
    entry->hook = ColumnFunction(hook_column_, type_index);
    if (i >= entries_.size()) entries_.resize(i + 1);
    entries_[i] = std::move(entry);
    return *entries_[i];
  }

 private:
  void DropIfStale() {
    uint64_t generation = TypeTable::Global().reflection_generation();
    if (generation == generation_) return;
    entries_.clear();
    hook_column_ = nullptr;
    hook_column_looked_up_ = false;
    generation_ = generation;
  }

  std::string_view hook_attr_;
  const TVMFFITypeAttrColumn* hook_column_ = nullptr;
  bool hook_column_looked_up_ = false;
  uint64_t generation_ = ~uint64_t{0};
  int active_runs_ = 0;
  std::vector<std::unique_ptr<StructuralType>> entries_;
};

/*! \return The value of a reflected field of obj (an owned value). */
inline Any GetFieldValue(const Object* obj, const TVMFFIFieldInfo* field) {
  void* addr = reinterpret_cast<char*>(const_cast<Object*>(obj)) + field->offset;
  TVMFFIAny out;
  out.type_index = kTVMFFINone;
  out.zero_padding = 0;
  out.v_int64 = 0;
  if (field->getter(addr, &out) != 0) throw detail::MoveFromRaised();
  return AnyUnsafe::MoveTVMFFIAnyToAny(&out);
}

/*!
 * \return The value of a field of obj as a cell: borrowed from obj (read in
 *  place; *scratch holds POD and object cells) or, for fields read by their
 *  getter, owned by *owned.
 */
inline const TVMFFIAny* ReadField(const Object* obj, const StructuralField& field,
                                  TVMFFIAny* scratch, Any* owned) {
  const char* addr = reinterpret_cast<const char*>(obj) + field.info->offset;
  scratch->zero_padding = 0;
  switch (field.read) {
    case FieldRead::kAny: {
      const TVMFFIAny* cell = reinterpret_cast<const TVMFFIAny*>(addr);
      int32_t t = cell->type_index;
      // An AnyView member may hold views that its getter converts into owned values.
      if (t != kTVMFFIRawStr && t != kTVMFFIByteArrayPtr && t != kTVMFFIObjectRValueRef) {
        return cell;
      }
      break;
    }
    case FieldRead::kObject: {
      TVMFFIObject* ptr;
      std::memcpy(&ptr, addr, sizeof(ptr));
      if (ptr == nullptr) {
        scratch->type_index = kTVMFFINone;
        scratch->v_int64 = 0;
      } else {
        scratch->type_index = ptr->type_index;
        scratch->v_obj = ptr;
      }
      return scratch;
    }
    case FieldRead::kInt64:
      scratch->type_index = kTVMFFIInt;
      std::memcpy(&scratch->v_int64, addr, sizeof(int64_t));
      return scratch;
    case FieldRead::kFloat64:
      scratch->type_index = kTVMFFIFloat;
      std::memcpy(&scratch->v_float64, addr, sizeof(double));
      return scratch;
    case FieldRead::kBool:
      scratch->type_index = kTVMFFIBool;
      scratch->v_int64 = *reinterpret_cast<const uint8_t*>(addr) != 0;
      return scratch;
    case FieldRead::kGetter:
      break;
  }
  *owned = GetFieldValue(obj, field.info);
  return AnyUnsafe::GetTVMFFIAny(*owned);
}

/*!
 * \return The object a field read in place refers to (for prefetching: the
 *  object itself is not touched), or null. *type_index is the cell's type
 *  index for an Any field, kTVMFFIObject (some object) for a reference.
 */
inline const void* PeekFieldObject(const Object* obj, const StructuralField& field,
                                   int32_t* type_index) {
  const char* addr = reinterpret_cast<const char*>(obj) + field.info->offset;
  if (field.read == FieldRead::kAny) {
    const TVMFFIAny* cell = reinterpret_cast<const TVMFFIAny*>(addr);
    *type_index = cell->type_index;
    return cell->type_index >= kTVMFFIStaticObjectBegin ? cell->v_obj : nullptr;
  }
  if (field.read != FieldRead::kObject) return nullptr;
  const void* ptr;
  std::memcpy(&ptr, addr, sizeof(ptr));
  *type_index = kTVMFFIObject;
  return ptr;
}

inline std::string_view FieldName(const TVMFFIFieldInfo* field) {
  return std::string_view(field->name.data, field->name.size);
}

/*! \return The object of an object cell (type index at least kTVMFFIStaticObjectBegin). */
inline const Object* CellObject(const TVMFFIAny* cell) {
  return reinterpret_cast<const Object*>(cell->v_obj);
}

/*! \return Whether a cell holds a string (0) or bytes (1) value of either storage, else -1. */
inline int StringFamily(int32_t type_index) {
  if (type_index == kTVMFFIStr || type_index == kTVMFFISmallStr) return 0;
  if (type_index == kTVMFFIBytes || type_index == kTVMFFISmallBytes) return 1;
  return -1;
}

/*! \return The content of a string or bytes cell of either storage. */
inline std::string_view CellBytes(const TVMFFIAny* cell) {
  std::string_view view;
  bool is_bytes;
  AnyStringView(cell, &view, &is_bytes);
  return view;
}

/*! \return The sequence cell of an Array or List object. */
inline const TVMFFISeqCell* SeqCell(const Object* obj) {
  return static_cast<const TVMFFISeqCell*>(static_cast<const SeqBaseObj*>(obj));
}

/*! \return The words of a BigInt object, least significant first. */
inline std::string_view BigIntWords(const Object* obj) {
  const BigIntObj* big = static_cast<const BigIntObj*>(obj);
  return std::string_view(reinterpret_cast<const char*>(big->words()),
                          big->num_words * sizeof(int64_t));
}

/*! \return The bytes of a CPU, compact tensor; InternalError for any other tensor. */
inline std::string_view TensorBytes(const DLTensor& t, const char* what) {
  if (t.device.device_type != kDLCPU) {
    TVM_FFI_THROW(InternalError) << what << " can only compare the content of CPU tensors";
  }
  if (!IsContiguous(t)) {
    TVM_FFI_THROW(InternalError) << what << " can only compare the content of contiguous tensors";
  }
  size_t size = GetDataSize(t);
  if (size == 0) return std::string_view();
  return std::string_view(static_cast<const char*>(t.data) + t.byte_offset, size);
}

/*!
 * \brief The containers (or container pairs) open on a structural walk's stack,
 *  to find one met again while still open: a container that holds itself,
 *  which would otherwise be walked forever. Only levels deeper than kShallow
 *  are remembered, so shallow walks pay nothing, and a cycle is still found
 *  at most kShallow plus its length levels after it began.
 */
class OpenContainers {
 public:
  static constexpr size_t kShallow = 256;

  /*! \brief Enter a container at depth (1 = outermost); false when it is open already. */
  bool Enter(size_t depth, const void* lhs, const void* rhs = nullptr) {
    if (depth <= kShallow) return true;
    return open_.insert(Key(lhs, rhs)).second;
  }
  /*! \brief Leave the container entered at depth. */
  void Leave(size_t depth, const void* lhs, const void* rhs = nullptr) {
    if (depth > kShallow) open_.erase(Key(lhs, rhs));
  }

 private:
  using Key = std::pair<const void*, const void*>;
  struct KeyHash {
    size_t operator()(const Key& key) const {
      return std::hash<const void*>()(key.first) * 31 + std::hash<const void*>()(key.second);
    }
  };
  std::unordered_set<Key, KeyHash> open_;
};

/*! \brief The ValueError of a walk that met a container inside itself. */
[[noreturn]] inline void ThrowContainsItself(const char* what, const Object* container) {
  TVM_FFI_THROW(ValueError) << what << ": the " << container->GetTypeKey()
                            << " contains itself (a reference cycle), which has no finite "
                               "structure to compare or hash";
}

}  // namespace structural
}  // namespace detail
TVM_FFI_NAMESPACE_END

#endif  // TVM_FFI_EXTRA_STRUCTURAL_COMMON_H_
