/*
 * JSON object graphs (ToJSONGraph, FromJSONGraph), their globals
 * ffi.ToJSONGraph(String) / ffi.FromJSONGraph(String), and the BigInt hooks
 * __data_to_json__ / __data_from_json__ (decimal text).
 *
 * Both directions walk the graph with an explicit stack: a node is emitted
 * (or built) once all of its children are, so depth is bounded by memory and
 * a value that contains itself is reported instead of recursing forever.
 * Objects are read and written through the reflection tables of the C ABI
 * (field getters/setters, the metadata creator or the __ffi_new__ attribute),
 * so types registered by any library, with either implementation's headers,
 * serialize alike.
 */
#include "json_impl.h"

#include <tvm/ffi/big_int.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/dict.h>
#include <tvm/ffi/container/list.h>
#include <tvm/ffi/container/map.h>
#include <tvm/ffi/container/shape.h>
#include <tvm/ffi/dtype.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/extra/base64.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/optional.h>
#include <tvm/ffi/reflection/accessor.h>
#include <tvm/ffi/reflection/creator.h>
#include <tvm/ffi/reflection/registry.h>
#include <tvm/ffi/reflection/type_attr.h>

#include <cstdio>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

TVM_FFI_NAMESPACE_BEGIN
namespace detail {
namespace {

using json_impl::DocValue;
namespace json = json_impl;

using AnyIndexMap = std::unordered_map<Any, int64_t, AnyHash, AnyEqual>;
using AnySet = std::unordered_set<Any, AnyHash, AnyEqual>;

// ---- reflection tables through the C ABI ----

std::string TypeKeyOf(int32_t type_index) {
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(type_index);
  if (info == nullptr) return "<type index " + std::to_string(type_index) + ">";
  return std::string(info->type_key.data, info->type_key.size);
}

/*! \return The type's own value in attribute column `name` (None when absent). */
AnyView LookupTypeAttr(const char* name, int32_t type_index) {
  TVMFFIByteArray key{name, std::strlen(name)};
  if (TVMFFIGetTypeAttrColumn(&key) == nullptr) return AnyView();
  return reflection::TypeAttrColumn(name)[type_index];
}

void* FieldAddr(const Object* obj, const TVMFFIFieldInfo* f) {
  return const_cast<char*>(reinterpret_cast<const char*>(obj)) + f->offset;
}

std::string FieldName(const TVMFFIFieldInfo* f) { return std::string(f->name.data, f->name.size); }

void SetField(const Object* obj, const TVMFFIFieldInfo* f, const Any& value) {
  TVM_FFI_CHECK_SAFE_CALL(reflection::CallFieldSetter(f, FieldAddr(obj, f), AnyView(value)));
}

// ---- enums (layouts of EnumObj / EnumStateObj are part of the ABI) ----

/*! \return Whether info's type is the type named key or derives from it. */
bool IsSubtypeOfKey(const TVMFFITypeInfo* info, const char* key) {
  TVMFFIByteArray k{key, std::strlen(key)};
  int32_t base = -1;
  if (TVMFFITypeKeyToIndex(&k, &base) != 0) {
    TVMFFIObjectHandle err = nullptr;
    TVMFFIErrorMoveFromRaised(&err);
    if (err != nullptr) TVMFFIObjectDecRef(err);
    return false;
  }
  if (info->type_index == base) return true;
  const TVMFFITypeInfo* base_info = TVMFFIGetTypeInfo(base);
  if (base_info == nullptr) return false;
  int32_t depth = base_info->type_depth;
  return info->type_depth > depth && info->type_ancestors[depth]->type_index == base;
}

constexpr size_t kEnumIntIndexOffset = 24;
constexpr size_t kEnumStrIndexOffset = 32;
constexpr size_t kEnumStateIndexesOffset = 32;

const TVMFFIAny* ObjectSlot(const Object* obj, size_t offset) {
  return reinterpret_cast<const TVMFFIAny*>(reinterpret_cast<const char*>(obj) + offset);
}

/*! \return The enum singleton of type_index with the given int or str index. */
Any LookupEnumEntry(int32_t type_index, const Any& index) {
  AnyView state = LookupTypeAttr("__ffi_enum__", type_index);
  if (state.type_index() >= kTVMFFIStaticObjectBegin) {
    const Object* state_obj =
        reinterpret_cast<const Object*>(detail::AnyUnsafe::GetTVMFFIAny(state)->v_obj);
    const Object* dict = *reinterpret_cast<const Object* const*>(
        reinterpret_cast<const char*>(state_obj) + kEnumStateIndexesOffset);
    if (dict != nullptr && dict->type_index() == kTVMFFIDict) {
      const auto* map = static_cast<const MapBaseObj*>(dict);
      auto it = map->find(index);
      if (it != map->end()) return it->second;
    }
  }
  std::string shown = index.type_index() == kTVMFFIInt ? std::to_string(index.cast<int64_t>())
                                                       : std::string(index.cast<String>());
  TVM_FFI_THROW(ValueError) << "Enum `" << TypeKeyOf(type_index) << "` has no instance with index "
                            << shown;
}

// ---- field payload kinds ----

/*! \brief Whether a field of this static type index is written inline (not as a node). */
bool IsInlineField(int32_t static_type_index) {
  return static_type_index == kTVMFFINone || static_type_index == kTVMFFIBool ||
         static_type_index == kTVMFFIInt || static_type_index == kTVMFFIFloat ||
         static_type_index == kTVMFFIDataType;
}

/*! \brief The inline JSON form of an inline field's value. */
Any InlineFieldToJSON(const Any& v) {
  if (v.type_index() == kTVMFFIDataType) return DLDataTypeToString(v.cast<DLDataType>());
  return v;
}

String NodeKey(const char* key) { return String(key); }

// ---- writer ----

/*!
 * \brief The node index of each value met (-1 while its node is open), by
 *  value as Map keys compare (AnyHash / AnyEqual): equal strings and numbers
 *  share a node, objects by identity. Open addressing; owns its keys, so that
 *  values handed out by field getters stay alive and keep their addresses.
 */
class ValueIndexMap {
 public:
  ValueIndexMap() : hashes_(64, 0), entry_of_(64, kEmpty) {}

  int64_t* Find(const Any& key, uint64_t hash) {
    const TVMFFIAny* cell = AnyUnsafe::GetTVMFFIAny(key);
    for (size_t i = hash & mask();; i = (i + 1) & mask()) {
      uint32_t e = entry_of_[i];
      if (e == kEmpty) return nullptr;
      if (hashes_[i] == hash && AnyEqual::Equal(AnyUnsafe::GetTVMFFIAny(entries_[e].first), cell)) {
        return &entries_[e].second;
      }
    }
  }

  /*! \brief Add key (absent) with the given index. */
  void Insert(const Any& key, uint64_t hash, int64_t index) {
    if (2 * (entries_.size() + 1) > hashes_.size()) Grow();
    size_t i = hash & mask();
    while (entry_of_[i] != kEmpty) i = (i + 1) & mask();
    hashes_[i] = hash;
    entry_of_[i] = static_cast<uint32_t>(entries_.size());
    entries_.emplace_back(key, index);
  }

 private:
  static constexpr uint32_t kEmpty = ~uint32_t{0};

  size_t mask() const { return hashes_.size() - 1; }

  void Grow() {
    std::vector<uint64_t> old_hashes(hashes_.size() * 2, 0);
    std::vector<uint32_t> old_entries(hashes_.size() * 2, kEmpty);
    old_hashes.swap(hashes_);
    old_entries.swap(entry_of_);
    for (size_t k = 0; k < old_hashes.size(); ++k) {
      if (old_entries[k] == kEmpty) continue;
      size_t i = old_hashes[k] & mask();
      while (entry_of_[i] != kEmpty) i = (i + 1) & mask();
      hashes_[i] = old_hashes[k];
      entry_of_[i] = old_entries[k];
    }
  }

  // The probed table: hash and entry number of each slot (at most half full).
  std::vector<uint64_t> hashes_;
  std::vector<uint32_t> entry_of_;
  // The keys, owned, and their node indices, in insertion order.
  std::vector<std::pair<Any, int64_t>> entries_;
};

/*! \brief Slot hash of a value: AnyHash, mixed so that the low bits spread. */
uint64_t ValueHash(const Any& v) {
  uint64_t h = AnyHash()(v);
  return (h ^ (h >> 29)) * 0xBF58476D1CE4E5B9ULL >> 16;
}

/*!
 * \brief Writes the graph of a value: as the FFI values of the graph format
 *  (kText false: ToJSONGraph), or straight as its compact JSON text (kText
 *  true: the same text json::Stringify makes of that graph).
 */
template <bool kText>
class GraphWriter {
 public:
  using Result = std::conditional_t<kText, String, Any>;

  Result Run(const Any& root, const Any& metadata) {
    int64_t root_index = Visit(root);
    if constexpr (kText) {
      if (printer_error_.has_value()) throw *printer_error_;
      std::string out;
      out.reserve(text_.size() + 48);
      out.append("{\"root_index\":");
      out.append(std::to_string(root_index));
      out.append(",\"nodes\":[");
      out.append(text_);
      out.push_back(']');
      if (metadata != nullptr) {
        out.append(",\"metadata\":");
        json::AppendCompact(metadata, &out);
      }
      out.push_back('}');
      return String(std::move(out));
    } else {
      Map<Any, Any> graph;
      graph.Set(String("root_index"), root_index);
      graph.Set(String("nodes"), Array<Any>(nodes_.begin(), nodes_.end()));
      if (metadata != nullptr) graph.Set(String("metadata"), metadata);
      return graph;
    }
  }

 private:
  /*! \brief How objects of one type are written, looked up once per type. */
  struct TypeEntry {
    bool int_enum = false;
    bool str_enum = false;
    bool has_hook = false;
    Function hook;
    bool has_creator = false;
    // Two fields of one name: the fields go through a Map, as ToJSONGraph builds them.
    bool duplicate_names = false;
    std::vector<const TVMFFIFieldInfo*> fields;
    bool plain() const { return !int_enum && !str_enum && !has_hook; }
  };

  // The children of the open frames lie in children_ and their object fields in
  // fields_, innermost frame last; a frame's ranges start at its *_begin.
  struct Frame {
    Any value;
    uint64_t hash;
    const TypeEntry* type;  // objects only
    size_t children_begin;
    size_t next;
    size_t fields_begin;
  };

  const TypeEntry& TypeOf(const TVMFFITypeInfo* info) {
    size_t i = static_cast<size_t>(info->type_index);
    if (i < types_.size() && types_[i] != nullptr) return *types_[i];
    auto entry = std::make_unique<TypeEntry>();
    entry->int_enum = IsSubtypeOfKey(info, "ffi.IntEnum");
    entry->str_enum = !entry->int_enum && IsSubtypeOfKey(info, "ffi.Enum");
    if (!entry->int_enum && !entry->str_enum) {
      AnyView hook = LookupTypeAttr(reflection::type_attr::kDataToJson.name, info->type_index);
      if (hook != nullptr) {
        entry->has_hook = true;
        entry->hook = hook.cast<Function>();
      }
    }
    entry->has_creator = reflection::HasCreator(info);
    reflection::ForEachFieldInfo(info, [&](const TVMFFIFieldInfo* fi) {
      for (const TVMFFIFieldInfo* other : entry->fields) {
        if (other->name.size == fi->name.size &&
            std::memcmp(other->name.data, fi->name.data, fi->name.size) == 0) {
          entry->duplicate_names = true;
        }
      }
      entry->fields.push_back(fi);
    });
    if (i >= types_.size()) types_.resize(i + 1);
    types_[i] = std::move(entry);
    return *types_[i];
  }

  int64_t Visit(const Any& root) {
    uint64_t root_hash = ValueHash(root);
    if (int64_t* index = memo_.Find(root, root_hash)) return *index;
    Push(root, root_hash);
    while (!stack_.empty()) {
      Frame& top = stack_.back();
      if (top.next < children_.size()) {
        const Any& child = children_[top.next++];
        uint64_t hash = ValueHash(child);
        if (int64_t* index = memo_.Find(child, hash)) {
          if (*index >= 0) continue;
          ThrowCycle(child);
        }
        // Push copies the child before children_ grows.
        Push(Any(child), hash);
        continue;
      }
      Frame done = std::move(stack_.back());
      stack_.pop_back();
      int64_t index = Emit(done);
      *memo_.Find(done.value, done.hash) = index;
      children_.resize(done.children_begin);
      fields_.resize(done.fields_begin);
    }
    return *memo_.Find(root, root_hash);
  }

  [[noreturn]] static void ThrowCycle(const Any& v) {
    std::string what;
    switch (v.type_index()) {
      case kTVMFFIList:
        what = "a List";
        break;
      case kTVMFFIDict:
        what = "a Dict";
        break;
      case kTVMFFIArray:
        what = "an Array";
        break;
      case kTVMFFIMap:
        what = "a Map";
        break;
      default:
        what = "an object of type `" + v.GetTypeKey() + "`";
    }
    TVM_FFI_THROW(ValueError) << "Cycle detected during serialization: " << what
                              << " contains itself";
  }

  /*! \brief Open a frame for v with the children that must be emitted before it. */
  void Push(Any v, uint64_t hash) {
    Frame f;
    f.hash = hash;
    f.type = nullptr;
    f.children_begin = f.next = children_.size();
    f.fields_begin = fields_.size();
    const TVMFFIAny* cell = detail::AnyUnsafe::GetTVMFFIAny(v);
    int32_t tindex = cell->type_index;
    if (tindex == kTVMFFIArray || tindex == kTVMFFIList) {
      const auto* seq = reinterpret_cast<const detail::SeqBaseObj*>(cell->v_obj);
      const TVMFFIAny* slots = seq->slots();
      for (int64_t i = 0; i < seq->SeqCell()->size; ++i) {
        children_.push_back(*reinterpret_cast<const Any*>(slots + i));
      }
    } else if (tindex == kTVMFFIMap || tindex == kTVMFFIDict) {
      const auto* map = reinterpret_cast<const MapBaseObj*>(cell->v_obj);
      for (const auto& kv : *map) {
        children_.push_back(kv.first);
        children_.push_back(kv.second);
      }
    } else if (tindex >= kTVMFFIStaticObjectBegin && tindex != kTVMFFIStr &&
               tindex != kTVMFFIBytes && tindex != kTVMFFIShape) {
      const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(tindex);
      if (info != nullptr) {
        f.type = &TypeOf(info);
        if (f.type->plain()) {
          if (!f.type->has_creator) {
            TVM_FFI_THROW(TypeError)
                << "Type `" << TypeKeyOf(tindex) << "` does not support ToJSONGraph"
                << " (no native creator or __ffi_new__ type attr)";
          }
          const Object* obj = reinterpret_cast<const Object*>(cell->v_obj);
          for (const TVMFFIFieldInfo* fi : f.type->fields) {
            Any fv = reflection::FieldGetter(fi)(obj);
            if (!IsInlineField(fi->field_static_type_index)) children_.push_back(fv);
            fields_.emplace_back(fi, std::move(fv));
          }
        }
      }
    }
    memo_.Insert(v, hash, -1);
    f.value = std::move(v);
    stack_.push_back(std::move(f));
  }

  int64_t IndexOf(const Any& v) { return *memo_.Find(v, ValueHash(v)); }

  Array<Any> ChildIndices(const Frame& f) {
    std::vector<Any> out;
    out.reserve(children_.size() - f.children_begin);
    for (size_t k = f.children_begin; k < children_.size(); ++k) {
      out.push_back(IndexOf(children_[k]));
    }
    return Array<Any>(out.begin(), out.end());
  }

  void AppendChildIndices(const Frame& f) {
    text_.push_back('[');
    for (size_t k = f.children_begin; k < children_.size(); ++k) {
      if (k != f.children_begin) text_.push_back(',');
      AppendInt(IndexOf(children_[k]));
    }
    text_.push_back(']');
  }

  void AppendInt(int64_t v) {
    char buf[24];
    int n = std::snprintf(buf, sizeof(buf), "%lld", static_cast<long long>(v));  // NOLINT
    text_.append(buf, static_cast<size_t>(n));
  }

  /*! \brief Append the JSON of an inline field value (what the printer writes of it). */
  void AppendInline(const Any& v) {
    const TVMFFIAny* cell = AnyUnsafe::GetTVMFFIAny(v);
    switch (cell->type_index) {
      case kTVMFFINone:
        text_.append("null");
        return;
      case kTVMFFIBool:
        text_.append(cell->v_int64 != 0 ? "true" : "false");
        return;
      case kTVMFFIInt:
        AppendInt(cell->v_int64);
        return;
      case kTVMFFIFloat:
        json::AppendFloat(cell->v_float64, &text_);
        return;
      default:
        AppendValue(InlineFieldToJSON(v));
    }
  }

  /*!
   * \brief Append the compact JSON of a value the printer may refuse. The
   *  first refusal is raised once the whole graph is written: ToJSONGraph's
   *  errors (later nodes) come before json::Stringify's.
   */
  void AppendValue(const Any& v) {
    if (printer_error_.has_value()) return;
    try {
      json::AppendCompact(v, &text_);
    } catch (const Error& err) {
      printer_error_ = err;
    }
  }

  /*! \brief Open a node object: `{"type":<key>` (data follows with AppendData). */
  void BeginNode(std::string_view type_key) {
    if (count_ != 0) text_.push_back(',');
    text_.append("{\"type\":");
    json::AppendString(type_key, &text_);
  }

  int64_t Emit(const Frame& f) {
    if constexpr (kText) {
      EmitText(f);
      return count_++;
    } else {
      nodes_.push_back(EmitValue(f));
      return static_cast<int64_t>(nodes_.size()) - 1;
    }
  }

  void EmitText(const Frame& f) {
    const Any& v = f.value;
    const TVMFFIAny* cell = detail::AnyUnsafe::GetTVMFFIAny(v);
    int32_t tindex = cell->type_index;
    const char* seq_key = nullptr;
    switch (tindex) {
      case kTVMFFINone:
        BeginNode("None");
        break;
      case kTVMFFIBool:
        BeginNode("bool");
        text_.append(",\"data\":");
        text_.append(cell->v_int64 != 0 ? "true" : "false");
        break;
      case kTVMFFIInt:
        BeginNode("int");
        text_.append(",\"data\":");
        AppendInt(cell->v_int64);
        break;
      case kTVMFFIFloat:
        BeginNode("float");
        text_.append(",\"data\":");
        json::AppendFloat(cell->v_float64, &text_);
        break;
      case kTVMFFIDataType: {
        BeginNode("DataType");
        text_.append(",\"data\":");
        String s = DLDataTypeToString(cell->v_dtype);
        json::AppendString(std::string_view(s.data(), s.size()), &text_);
        break;
      }
      case kTVMFFIDevice:
        BeginNode("Device");
        text_.append(",\"data\":[");
        AppendInt(static_cast<int64_t>(cell->v_device.device_type));
        text_.push_back(',');
        AppendInt(static_cast<int64_t>(cell->v_device.device_id));
        text_.push_back(']');
        break;
      case kTVMFFISmallStr:
      case kTVMFFIStr: {
        BeginNode("ffi.String");
        text_.append(",\"data\":");
        std::string_view s;
        bool is_bytes;
        detail::AnyStringView(cell, &s, &is_bytes);
        json::AppendString(s, &text_);
        break;
      }
      case kTVMFFISmallBytes:
      case kTVMFFIBytes: {
        BeginNode("ffi.Bytes");
        text_.append(",\"data\":");
        String s = Base64Encode(v.cast<Bytes>());
        json::AppendString(std::string_view(s.data(), s.size()), &text_);
        break;
      }
      case kTVMFFIArray:
        seq_key = "ffi.Array";
        break;
      case kTVMFFIList:
        seq_key = "ffi.List";
        break;
      case kTVMFFIMap:
        seq_key = "ffi.Map";
        break;
      case kTVMFFIDict:
        seq_key = "ffi.Dict";
        break;
      case kTVMFFIShape: {
        BeginNode("ffi.Shape");
        text_.append(",\"data\":[");
        Shape shape = v.cast<Shape>();
        bool first = true;
        for (int64_t d : shape) {
          if (!first) text_.push_back(',');
          first = false;
          AppendInt(d);
        }
        text_.push_back(']');
        break;
      }
      default: {
        if (tindex < kTVMFFIStaticObjectBegin) {
          TVM_FFI_THROW(RuntimeError) << "Cannot serialize type `" << v.GetTypeKey() << "`";
        }
        EmitObjectText(f);
      }
    }
    if (seq_key != nullptr) {
      BeginNode(seq_key);
      text_.append(",\"data\":");
      AppendChildIndices(f);
    }
    text_.push_back('}');
  }

  void EmitObjectText(const Frame& f) {
    const TVMFFIAny* cell = detail::AnyUnsafe::GetTVMFFIAny(f.value);
    const Object* obj = reinterpret_cast<const Object*>(cell->v_obj);
    const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(cell->type_index);
    if (info == nullptr) {
      TVM_FFI_THROW(RuntimeError) << "Cannot serialize type index " << cell->type_index;
    }
    const TypeEntry& type = f.type != nullptr ? *f.type : TypeOf(info);
    BeginNode(std::string_view(info->type_key.data, info->type_key.size));
    text_.append(",\"data\":");
    if (type.plain() && !type.duplicate_names) {
      text_.push_back('{');
      for (size_t k = f.fields_begin; k < fields_.size(); ++k) {
        const auto& [fi, fv] = fields_[k];
        if (k != f.fields_begin) text_.push_back(',');
        json::AppendString(std::string_view(fi->name.data, fi->name.size), &text_);
        text_.push_back(':');
        if (IsInlineField(fi->field_static_type_index)) {
          AppendInline(fv);
        } else {
          AppendInt(IndexOf(fv));
        }
      }
      text_.push_back('}');
      return;
    }
    AppendValue(ObjectData(f, type, obj));
  }

  /*! \brief The `data` of an object node as an FFI value. */
  Any ObjectData(const Frame& f, const TypeEntry& type, const Object* obj) {
    if (type.int_enum) {
      // _int_index is a plain int64_t member.
      return *reinterpret_cast<const int64_t*>(reinterpret_cast<const char*>(obj) +
                                               kEnumIntIndexOffset);
    }
    if (type.str_enum) {
      // _str_index is a String member: a 16-byte cell (small or heap string).
      return AnyView::CopyFromTVMFFIAny(*ObjectSlot(obj, kEnumStrIndexOffset)).cast<String>();
    }
    if (type.has_hook) return type.hook(f.value);
    Map<Any, Any> fields;
    for (size_t k = f.fields_begin; k < fields_.size(); ++k) {
      const auto& [fi, fv] = fields_[k];
      Any out = IsInlineField(fi->field_static_type_index) ? InlineFieldToJSON(fv) : IndexOf(fv);
      fields.Set(String(FieldName(fi)), out);
    }
    return fields;
  }

  Any EmitValue(const Frame& f) {
    const Any& v = f.value;
    const TVMFFIAny* cell = detail::AnyUnsafe::GetTVMFFIAny(v);
    int32_t tindex = cell->type_index;
    Map<Any, Any> node;
    auto set = [&](const char* type, Any data) {
      node.Set(NodeKey("type"), String(type));
      node.Set(NodeKey("data"), std::move(data));
    };
    switch (tindex) {
      case kTVMFFINone:
        node.Set(NodeKey("type"), String("None"));
        break;
      case kTVMFFIBool:
        set("bool", v);
        break;
      case kTVMFFIInt:
        set("int", v);
        break;
      case kTVMFFIFloat:
        set("float", v);
        break;
      case kTVMFFIDataType:
        set("DataType", DLDataTypeToString(cell->v_dtype));
        break;
      case kTVMFFIDevice:
        set("Device", Array<Any>{static_cast<int64_t>(cell->v_device.device_type),
                                 static_cast<int64_t>(cell->v_device.device_id)});
        break;
      case kTVMFFISmallStr:
      case kTVMFFIStr:
        set("ffi.String", v.cast<String>());
        break;
      case kTVMFFISmallBytes:
      case kTVMFFIBytes:
        set("ffi.Bytes", Base64Encode(v.cast<Bytes>()));
        break;
      case kTVMFFIArray:
        set("ffi.Array", ChildIndices(f));
        break;
      case kTVMFFIList:
        set("ffi.List", ChildIndices(f));
        break;
      case kTVMFFIMap:
        set("ffi.Map", ChildIndices(f));
        break;
      case kTVMFFIDict:
        set("ffi.Dict", ChildIndices(f));
        break;
      case kTVMFFIShape: {
        Shape shape = v.cast<Shape>();
        std::vector<Any> dims;
        for (int64_t d : shape) dims.push_back(d);
        set("ffi.Shape", Array<Any>(dims.begin(), dims.end()));
        break;
      }
      default: {
        if (tindex < kTVMFFIStaticObjectBegin) {
          TVM_FFI_THROW(RuntimeError) << "Cannot serialize type `" << v.GetTypeKey() << "`";
        }
        const Object* obj = reinterpret_cast<const Object*>(cell->v_obj);
        const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(tindex);
        if (info == nullptr) {
          TVM_FFI_THROW(RuntimeError) << "Cannot serialize type index " << tindex;
        }
        const TypeEntry& type = f.type != nullptr ? *f.type : TypeOf(info);
        Any data = ObjectData(f, type, obj);
        node.Set(NodeKey("type"), String(std::string(info->type_key.data, info->type_key.size)));
        node.Set(NodeKey("data"), std::move(data));
      }
    }
    return node;
  }

  ValueIndexMap memo_;
  std::vector<Frame> stack_;
  std::vector<Any> children_;
  std::vector<std::pair<const TVMFFIFieldInfo*, Any>> fields_;
  std::vector<std::unique_ptr<TypeEntry>> types_;
  std::vector<Any> nodes_;              // kText false
  std::string text_;                    // kText true: the nodes, comma separated
  std::optional<Error> printer_error_;  // kText true: the first value the printer refused
  int64_t count_ = 0;                   // kText true: nodes written
};

// ---- reader ----

[[noreturn]] void ThrowBadGraph(const std::string& what) {
  TVM_FFI_THROW(ValueError) << "Invalid JSON Object Graph: " << what;
}

/*! \brief Whether objects of this type are read field by field. */
bool IsPlainReadObject(const TVMFFITypeInfo* info) {
  if (IsSubtypeOfKey(info, "ffi.Enum")) return false;
  return LookupTypeAttr(reflection::type_attr::kDataFromJson.name, info->type_index) == nullptr;
}

/*! \brief The value an inline field's JSON form stands for (data types are written as text). */
Any InlineFieldFromJSON(const TVMFFIFieldInfo* fi, Any value) {
  if (fi->field_static_type_index == kTVMFFIDataType &&
      (value.type_index() == kTVMFFIStr || value.type_index() == kTVMFFISmallStr)) {
    value = StringToDLDataType(std::string(value.cast<String>()));
  }
  return value;
}

/*! \brief A field absent from a node's data: its default, or TypeError when it has none. */
void SetMissingField(const TVMFFITypeInfo* info, const Object* obj, const TVMFFIFieldInfo* fi) {
  if (fi->flags & kTVMFFIFieldFlagBitMaskHasDefault) {
    reflection::SetFieldToDefault(fi, FieldAddr(obj, fi));
  } else {
    TVM_FFI_THROW(TypeError) << "Required field `" << FieldName(fi) << "` not set in type `"
                             << TypeKeyOf(info->type_index) << "`";
  }
}

const Any& RequireData(int64_t index, int32_t type_index, const Any* data) {
  if (data == nullptr) {
    ThrowBadGraph("node " + std::to_string(index) + " of type `" + TypeKeyOf(type_index) +
                  "` has no `data`");
  }
  return *data;
}

Array<Any> DataArray(int64_t index, const Any* data, const char* what) {
  if (data == nullptr || data->type_index() != kTVMFFIArray) {
    ThrowBadGraph(std::string(what) + " data must be an array (node " + std::to_string(index) +
                  ")");
  }
  return data->cast<Array<Any>>();
}

/*!
 * \brief The value of a node without children: PODs, strings, bytes, shapes,
 *  enum singletons and objects read by their __data_from_json__ hook.
 *  data is null when the node has none; info is null for non-objects.
 */
Any BuildLeaf(int64_t index, int32_t type_index, const TVMFFITypeInfo* info, const Any* data) {
  switch (type_index) {
    case kTVMFFINone:
      return Any(nullptr);
    case kTVMFFIBool:
      return RequireData(index, type_index, data).cast<bool>();
    case kTVMFFIInt:
      return RequireData(index, type_index, data).cast<int64_t>();
    case kTVMFFIFloat:
      return RequireData(index, type_index, data).cast<double>();
    case kTVMFFIDataType:
      return StringToDLDataType(std::string(RequireData(index, type_index, data).cast<String>()));
    case kTVMFFIDevice: {
      const Any& d = RequireData(index, type_index, data);
      if (d.type_index() != kTVMFFIArray) {
        ThrowBadGraph(
            "Device data must be an array of [device_type, device_id], got a value of type `" +
            d.GetTypeKey() + "`");
      }
      Array<Any> parts = d.cast<Array<Any>>();
      if (parts.size() != 2) {
        ThrowBadGraph("Device data must be an array of [device_type, device_id], got " +
                      std::to_string(parts.size()) + " element(s)");
      }
      DLDevice dev;
      dev.device_type = static_cast<DLDeviceType>(parts[0].cast<int64_t>());
      dev.device_id = static_cast<int32_t>(parts[1].cast<int64_t>());
      return dev;
    }
    case kTVMFFIStr:
      return RequireData(index, type_index, data).cast<String>();
    case kTVMFFIBytes:
      return Base64Decode(RequireData(index, type_index, data).cast<String>());
    case kTVMFFIShape: {
      std::vector<int64_t> dims;
      for (const Any& d : DataArray(index, data, "ffi.Shape")) dims.push_back(d.cast<int64_t>());
      return Shape(dims);
    }
    default:
      break;
  }
  if (type_index < kTVMFFIStaticObjectBegin) {
    // Other PODs (opaque pointers, "ffi.SmallStr", ...) have no JSON form.
    TVM_FFI_THROW(RuntimeError) << "Type `" << TypeKeyOf(type_index)
                                << "` does not support reflection creation"
                                << " (no native creator or __ffi_new__ type attr)";
  }
  if (IsSubtypeOfKey(info, "ffi.IntEnum")) {
    return LookupEnumEntry(info->type_index, RequireData(index, type_index, data).cast<int64_t>());
  }
  if (IsSubtypeOfKey(info, "ffi.Enum")) {
    return LookupEnumEntry(info->type_index, RequireData(index, type_index, data).cast<String>());
  }
  AnyView hook = LookupTypeAttr(reflection::type_attr::kDataFromJson.name, info->type_index);
  return hook.cast<Function>()(RequireData(index, type_index, data));
}

class GraphReader {
 public:
  explicit GraphReader(const Array<Any>& nodes)
      : nodes_(nodes), decoded_(nodes.size()), state_(nodes.size(), kNew) {}

  Any Run(const Any& root_index) { return Decode(CheckIndex(root_index)); }

 private:
  enum State : uint8_t { kNew, kOpen, kDone };

  struct Frame {
    int64_t index;
    int32_t type_index;
    const TVMFFITypeInfo* info;  // objects only
    Any data;
    bool has_data;
    std::vector<int64_t> children;
    size_t next = 0;
  };

  int64_t CheckIndex(const Any& v) const {
    if (v.type_index() != kTVMFFIInt) {
      ThrowBadGraph("node index must be an integer, got `" + v.GetTypeKey() + "`");
    }
    int64_t i = v.cast<int64_t>();
    if (i < 0 || i >= static_cast<int64_t>(nodes_.size())) {
      ThrowBadGraph("invalid node index " + std::to_string(i));
    }
    return i;
  }

  Any Decode(int64_t root) {
    Push(root);
    while (!stack_.empty()) {
      Frame& top = stack_.back();
      if (top.next < top.children.size()) {
        int64_t child = top.children[top.next++];
        if (state_[child] == kDone) continue;
        if (state_[child] == kOpen) {
          ThrowBadGraph("node " + std::to_string(child) + " refers to itself");
        }
        Push(child);
        continue;
      }
      Frame done = std::move(stack_.back());
      stack_.pop_back();
      decoded_[done.index] = Build(done);
      state_[done.index] = kDone;
    }
    return decoded_[root];
  }

  Array<Any> DataArray(const Frame& f, const char* what) const {
    return detail::DataArray(f.index, f.has_data ? &f.data : nullptr, what);
  }

  void Push(int64_t index) {
    Any node = nodes_[index];
    if (node.type_index() != kTVMFFIMap) {
      ThrowBadGraph("node " + std::to_string(index) + " must be an object, got `" +
                    node.GetTypeKey() + "`");
    }
    Map<Any, Any> m = node.cast<Map<Any, Any>>();
    auto type = m.Get(String("type"));
    if (!type.has_value() ||
        (type->type_index() != kTVMFFIStr && type->type_index() != kTVMFFISmallStr)) {
      ThrowBadGraph("node " + std::to_string(index) + " must have a string `type` field");
    }
    String key = type->cast<String>();
    Frame f;
    f.index = index;
    f.info = nullptr;
    auto data = m.Get(String("data"));
    f.has_data = data.has_value();
    if (f.has_data) f.data = *data;
    TVMFFIByteArray key_bytes{key.data(), key.size()};
    TVM_FFI_CHECK_SAFE_CALL(TVMFFITypeKeyToIndex(&key_bytes, &f.type_index));
    switch (f.type_index) {
      case kTVMFFIArray:
      case kTVMFFIList:
        for (const Any& c : DataArray(f, key.c_str())) f.children.push_back(CheckIndex(c));
        break;
      case kTVMFFIMap:
      case kTVMFFIDict: {
        Array<Any> items = DataArray(f, key.c_str());
        if (items.size() % 2 != 0) {
          ThrowBadGraph("Map/Dict data must contain an even number of [key, value] entries, got " +
                        std::to_string(items.size()));
        }
        for (const Any& c : items) f.children.push_back(CheckIndex(c));
        break;
      }
      default:
        if (f.type_index >= kTVMFFIStaticObjectBegin && f.type_index != kTVMFFIStr &&
            f.type_index != kTVMFFIBytes && f.type_index != kTVMFFIShape) {
          f.info = TVMFFIGetTypeInfo(f.type_index);
          if (IsPlainObject(f.info)) {
            if (!f.has_data || f.data.type_index() != kTVMFFIMap) {
              ThrowBadGraph("object data of type `" + std::string(key) +
                            "` must be an object (node " + std::to_string(index) + ")");
            }
            Map<Any, Any> fields = f.data.cast<Map<Any, Any>>();
            reflection::ForEachFieldInfo(f.info, [&](const TVMFFIFieldInfo* fi) {
              if (IsInlineField(fi->field_static_type_index)) return;
              auto v = fields.Get(String(FieldName(fi)));
              if (v.has_value()) f.children.push_back(CheckIndex(*v));
            });
          }
        }
    }
    state_[index] = kOpen;
    stack_.push_back(std::move(f));
  }

  static bool IsPlainObject(const TVMFFITypeInfo* info) { return IsPlainReadObject(info); }

  std::vector<Any> Children(const Frame& f) const {
    std::vector<Any> out;
    out.reserve(f.children.size());
    for (int64_t c : f.children) out.push_back(decoded_[c]);
    return out;
  }

  Any Build(const Frame& f) {
    switch (f.type_index) {
      case kTVMFFIArray: {
        std::vector<Any> items = Children(f);
        return Array<Any>(items.begin(), items.end());
      }
      case kTVMFFIList: {
        std::vector<Any> items = Children(f);
        return List<Any>(items.begin(), items.end());
      }
      case kTVMFFIMap: {
        std::vector<Any> items = Children(f);
        Map<Any, Any> m;
        for (size_t i = 0; i < items.size(); i += 2) m.Set(items[i], items[i + 1]);
        return m;
      }
      case kTVMFFIDict: {
        std::vector<Any> items = Children(f);
        Dict<Any, Any> d;
        for (size_t i = 0; i < items.size(); i += 2) d.Set(items[i], items[i + 1]);
        return d;
      }
      default:
        break;
    }
    if (f.info != nullptr && IsPlainObject(f.info)) return BuildObject(f);
    return BuildLeaf(f.index, f.type_index, f.info, f.has_data ? &f.data : nullptr);
  }

  Any BuildObject(const Frame& f) {
    const TVMFFITypeInfo* info = f.info;
    ObjectRef obj(reflection::CreateEmptyObject(info));
    const Object* ptr = obj.get();
    Map<Any, Any> fields = f.data.cast<Map<Any, Any>>();
    reflection::ForEachFieldInfo(info, [&](const TVMFFIFieldInfo* fi) {
      auto v = fields.Get(String(FieldName(fi)));
      if (v.has_value()) {
        if (IsInlineField(fi->field_static_type_index)) {
          SetField(ptr, fi, InlineFieldFromJSON(fi, *v));
        } else {
          SetField(ptr, fi, decoded_[v->cast<int64_t>()]);
        }
      } else {
        SetMissingField(info, ptr, fi);
      }
    });
    return obj;
  }

  Array<Any> nodes_;
  std::vector<Any> decoded_;
  std::vector<uint8_t> state_;
  std::vector<Frame> stack_;
};

/*!
 * \brief FromJSONGraph straight from JSON text: reads a json::Document instead
 *  of the FFI values of json::Parse (no map, array or string object per
 *  node). It checks the graph in GraphReader's order and raises its errors,
 *  so that it is a complete replacement: no node is ever decoded twice (a
 *  __data_from_json__ hook runs once per node).
 */
class TextGraphReader {
 public:
  explicit TextGraphReader(const json::Document& doc) : doc_(doc) {}

  Any Run() {
    const DocValue& graph = doc_.root();
    if (graph.kind != DocValue::kObject) {
      TVM_FFI_THROW(ValueError) << "Invalid JSON Object Graph, expected an object";
    }
    const DocValue* root = doc_.Find(graph, "root_index");
    if (root == nullptr || root->kind != DocValue::kInt) {
      TVM_FFI_THROW(ValueError) << "Invalid JSON Object Graph, expected `root_index` integer field";
    }
    const DocValue* nodes = doc_.Find(graph, "nodes");
    if (nodes == nullptr || nodes->kind != DocValue::kArray) {
      TVM_FFI_THROW(ValueError) << "Invalid JSON Object Graph, expected `nodes` array field";
    }
    nodes_ = doc_.items(*nodes);
    num_nodes_ = nodes->size;
    decoded_.resize(num_nodes_);
    state_.assign(num_nodes_, kNew);
    return Decode(CheckIndex(*root));
  }

 private:
  enum State : uint8_t { kNew, kOpen, kDone };

  /*! \brief What a node needs to know of its type, looked up once per type key. */
  struct TypeEntry {
    int32_t type_index;
    const TVMFFITypeInfo* info;  // objects only
    bool plain;                  // an object read field by field
    struct Field {
      const TVMFFIFieldInfo* info;
      std::string_view name;
      bool is_inline;
    };
    std::vector<Field> fields;
  };

  struct Frame {
    int64_t index;
    const TypeEntry* type;
    const DocValue* data;  // null when the node has none
    size_t children_begin;
    size_t next;
  };

  /*! \return The type key of the value json::Parse makes of v (for error messages). */
  std::string KeyOf(const DocValue& v) const { return doc_.ToAny(v).GetTypeKey(); }

  int64_t CheckIndex(const DocValue& v) const {
    if (v.kind != DocValue::kInt) {
      ThrowBadGraph("node index must be an integer, got `" + KeyOf(v) + "`");
    }
    if (v.i < 0 || v.i >= static_cast<int64_t>(num_nodes_)) {
      ThrowBadGraph("invalid node index " + std::to_string(v.i));
    }
    return v.i;
  }

  const TypeEntry* LookupType(std::string_view key) {
    auto it = types_.find(key);
    if (it != types_.end()) return it->second.get();
    auto entry = std::make_unique<TypeEntry>();
    TVMFFIByteArray key_bytes{key.data(), key.size()};
    TVM_FFI_CHECK_SAFE_CALL(TVMFFITypeKeyToIndex(&key_bytes, &entry->type_index));
    int32_t t = entry->type_index;
    entry->info = nullptr;
    entry->plain = false;
    if (t >= kTVMFFIStaticObjectBegin && t != kTVMFFIStr && t != kTVMFFIBytes &&
        t != kTVMFFIShape && t != kTVMFFIArray && t != kTVMFFIList && t != kTVMFFIMap &&
        t != kTVMFFIDict) {
      entry->info = TVMFFIGetTypeInfo(t);
      entry->plain = IsPlainReadObject(entry->info);
      if (entry->plain) {
        reflection::ForEachFieldInfo(entry->info, [&](const TVMFFIFieldInfo* fi) {
          entry->fields.push_back(TypeEntry::Field{fi,
                                                   std::string_view(fi->name.data, fi->name.size),
                                                   IsInlineField(fi->field_static_type_index)});
        });
      }
    }
    const TypeEntry* out = entry.get();
    types_.emplace(key, std::move(entry));
    return out;
  }

  Any Decode(int64_t root) {
    Push(root);
    while (!stack_.empty()) {
      Frame& top = stack_.back();
      if (top.next < children_.size()) {
        int64_t child = children_[top.next++];
        if (state_[child] == kDone) continue;
        if (state_[child] == kOpen) {
          ThrowBadGraph("node " + std::to_string(child) + " refers to itself");
        }
        Push(child);
        continue;
      }
      Frame done = stack_.back();
      stack_.pop_back();
      decoded_[done.index] = Build(done);
      state_[done.index] = kDone;
      children_.resize(done.children_begin);
    }
    return decoded_[root];
  }

  /*! \brief DataArray's check: the items of an array `data` of node index. */
  const DocValue* DataItems(int64_t index, const DocValue* data, std::string_view key) const {
    if (data == nullptr || data->kind != DocValue::kArray) {
      ThrowBadGraph(std::string(key) + " data must be an array (node " + std::to_string(index) +
                    ")");
    }
    return doc_.items(*data);
  }

  void Push(int64_t index) {
    const DocValue& node = nodes_[index];
    if (node.kind != DocValue::kObject) {
      ThrowBadGraph("node " + std::to_string(index) + " must be an object, got `" + KeyOf(node) +
                    "`");
    }
    const DocValue* type = doc_.Find(node, "type");
    if (type == nullptr || type->kind != DocValue::kStr) {
      ThrowBadGraph("node " + std::to_string(index) + " must have a string `type` field");
    }
    std::string_view key = doc_.str(*type);
    Frame f;
    f.index = index;
    f.data = doc_.Find(node, "data");
    f.type = LookupType(key);
    f.children_begin = f.next = children_.size();
    switch (f.type->type_index) {
      case kTVMFFIArray:
      case kTVMFFIList:
      case kTVMFFIMap:
      case kTVMFFIDict: {
        const DocValue* items = DataItems(index, f.data, key);
        bool is_map = f.type->type_index == kTVMFFIMap || f.type->type_index == kTVMFFIDict;
        if (is_map && f.data->size % 2 != 0) {
          ThrowBadGraph("Map/Dict data must contain an even number of [key, value] entries, got " +
                        std::to_string(f.data->size));
        }
        for (uint32_t k = 0; k < f.data->size; ++k) children_.push_back(CheckIndex(items[k]));
        break;
      }
      default:
        if (f.type->plain) {
          if (f.data == nullptr || f.data->kind != DocValue::kObject) {
            ThrowBadGraph("object data of type `" + std::string(key) +
                          "` must be an object (node " + std::to_string(index) + ")");
          }
          for (const TypeEntry::Field& field : f.type->fields) {
            if (field.is_inline) continue;
            const DocValue* v = doc_.Find(*f.data, field.name);
            if (v != nullptr) children_.push_back(CheckIndex(*v));
          }
        }
    }
    state_[index] = kOpen;
    stack_.push_back(f);
  }

  Any Build(const Frame& f) {
    const int64_t* children = children_.data() + f.children_begin;
    size_t n = children_.size() - f.children_begin;
    switch (f.type->type_index) {
      case kTVMFFIInt:
        if (f.data != nullptr && f.data->kind == DocValue::kInt) return Any(f.data->i);
        break;
      case kTVMFFIStr:
        if (f.data != nullptr && f.data->kind == DocValue::kStr) {
          return Any(String(doc_.str(*f.data)));
        }
        break;
      case kTVMFFIArray: {
        ObjectPtr<ArrayObj> p = detail::SeqAllocInplace<ArrayObj>(static_cast<int64_t>(n));
        for (size_t k = 0; k < n; ++k) {
          p->AppendCellUnchecked(AnyUnsafe::MoveAnyToTVMFFIAny(Any(decoded_[children[k]])));
        }
        return Array<Any>(std::move(p));
      }
      case kTVMFFIList: {
        std::vector<Any> items;
        items.reserve(n);
        for (size_t k = 0; k < n; ++k) items.push_back(decoded_[children[k]]);
        return List<Any>(items.begin(), items.end());
      }
      case kTVMFFIMap: {
        Map<Any, Any> m;
        for (size_t k = 0; k < n; k += 2) m.Set(decoded_[children[k]], decoded_[children[k + 1]]);
        return m;
      }
      case kTVMFFIDict: {
        Dict<Any, Any> d;
        for (size_t k = 0; k < n; k += 2) d.Set(decoded_[children[k]], decoded_[children[k + 1]]);
        return d;
      }
      default:
        if (f.type->plain) return BuildObject(f);
        break;
    }
    if (f.data == nullptr) return BuildLeaf(f.index, f.type->type_index, f.type->info, nullptr);
    Any data = doc_.ToAny(*f.data);
    return BuildLeaf(f.index, f.type->type_index, f.type->info, &data);
  }

  Any BuildObject(const Frame& f) {
    const TVMFFITypeInfo* info = f.type->info;
    ObjectRef obj(reflection::CreateEmptyObject(info));
    const Object* ptr = obj.get();
    for (const TypeEntry::Field& field : f.type->fields) {
      const DocValue* v = doc_.Find(*f.data, field.name);
      if (v == nullptr) {
        SetMissingField(info, ptr, field.info);
      } else if (field.is_inline) {
        SetField(ptr, field.info, InlineFieldFromJSON(field.info, doc_.ToAny(*v)));
      } else {
        SetField(ptr, field.info, decoded_[v->i]);
      }
    }
    return obj;
  }

  const json::Document& doc_;
  const DocValue* nodes_ = nullptr;
  size_t num_nodes_ = 0;
  std::vector<Any> decoded_;
  std::vector<uint8_t> state_;
  std::vector<Frame> stack_;
  // The children of the open frames, innermost last.
  std::vector<int64_t> children_;
  std::unordered_map<std::string_view, std::unique_ptr<TypeEntry>> types_;
};

Any ToJSONGraph(const Any& value, const Any& metadata) {
  return GraphWriter<false>().Run(value, metadata);
}

String ToJSONGraphString(const Any& value, const Any& metadata) {
  return GraphWriter<true>().Run(value, metadata);
}

Any FromJSONGraph(const Any& value) {
  if (value.type_index() != kTVMFFIMap) {
    TVM_FFI_THROW(ValueError) << "Invalid JSON Object Graph, expected an object";
  }
  Map<Any, Any> graph = value.cast<Map<Any, Any>>();
  auto root = graph.Get(String("root_index"));
  if (!root.has_value() || root->type_index() != kTVMFFIInt) {
    TVM_FFI_THROW(ValueError) << "Invalid JSON Object Graph, expected `root_index` integer field";
  }
  auto nodes = graph.Get(String("nodes"));
  if (!nodes.has_value() || nodes->type_index() != kTVMFFIArray) {
    TVM_FFI_THROW(ValueError) << "Invalid JSON Object Graph, expected `nodes` array field";
  }
  return GraphReader(nodes->cast<Array<Any>>()).Run(*root);
}

Any FromJSONGraphString(std::string_view text) {
  json::Document doc;
  // The document refuses only what json::Parse refuses (it raises the error),
  // and text past its 4 GiB limit, which the reference path reads.
  if (!doc.Parse(text.data(), text.size())) return FromJSONGraph(json::Parse(String(text)));
  return TextGraphReader(doc).Run();
}

/*!
 * \brief A str argument read in place: a caller's borrowed text (a RawStr
 *  view, e.g. of a Python str) is not copied into a String first, which for
 *  graph text would double the memory of the call.
 */
struct TextArg {
  std::string_view text;
};

}  // namespace
}  // namespace detail

template <>
struct TypeTraits<detail::TextArg> : TypeTraitsBase {
  static constexpr bool storage_enabled = false;
  static bool CheckAnyStrict(const TVMFFIAny* src) {
    return src->type_index == kTVMFFIRawStr || src->type_index == kTVMFFIStr ||
           src->type_index == kTVMFFISmallStr;
  }
  // Borrows from the argument cell, which outlives the call.
  static detail::TextArg CopyFromAnyViewAfterCheck(const TVMFFIAny* src) {
    std::string_view view;
    bool is_bytes;
    detail::AnyStringView(src, &view, &is_bytes);
    return detail::TextArg{view};
  }
  static std::optional<detail::TextArg> TryCastFromAnyView(const TVMFFIAny* src) {
    if (CheckAnyStrict(src)) return CopyFromAnyViewAfterCheck(src);
    return std::nullopt;
  }
  static std::string TypeStr() { return TypeTraits<String>::TypeStr(); }
  static std::string TypeSchema() { return TypeTraits<String>::TypeSchema(); }
};

TVM_FFI_STATIC_INIT_BLOCK() {
  using detail::FromJSONGraph;
  using detail::FromJSONGraphString;
  using detail::ToJSONGraph;
  using detail::ToJSONGraphString;
  namespace json = detail::json_impl;
  reflection::GlobalDef()
      .def("ffi.ToJSONGraph",
           [](const Any& value, const Any& metadata) { return ToJSONGraph(value, metadata); })
      .def("ffi.ToJSONGraphString",
           [](const Any& value, const Any& metadata) { return ToJSONGraphString(value, metadata); })
      .def("ffi.FromJSONGraph", [](const Any& graph) { return FromJSONGraph(graph); })
      .def("ffi.FromJSONGraphString",
           [](detail::TextArg text) { return FromJSONGraphString(text.text); });

  // BigInt travels as its decimal text.
  Function to_json = Function::FromTyped([](const BigInt& v) { return String(v.ToString()); },
                                         "ffi.BigInt.__data_to_json__");
  Function from_json = Function::FromTyped(
      [](const String& text) {
        return BigInt::FromString(std::string_view(text.data(), text.size()));
      },
      "ffi.BigInt.__data_from_json__");
  for (auto [name, fn] : {std::pair<const char*, Function>{"__data_to_json__", to_json},
                          std::pair<const char*, Function>{"__data_from_json__", from_json}}) {
    TVMFFIByteArray attr{name, std::strlen(name)};
    TVMFFIAny cell;
    TypeTraits<Function>::CopyToAnyView(fn, &cell);
    TVM_FFI_CHECK_SAFE_CALL(TVMFFITypeRegisterAttr(kTVMFFIBigInt, &attr, &cell));
  }
}

TVM_FFI_NAMESPACE_END
