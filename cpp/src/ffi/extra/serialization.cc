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

#include <cstring>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

TVM_FFI_NAMESPACE_BEGIN
namespace detail {
namespace {

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

class GraphWriter {
 public:
  Any Run(const Any& root, const Any& metadata) {
    int64_t root_index = Visit(root);
    Map<Any, Any> graph;
    graph.Set(String("root_index"), root_index);
    graph.Set(String("nodes"), Array<Any>(nodes_.begin(), nodes_.end()));
    if (metadata != nullptr) graph.Set(String("metadata"), metadata);
    return graph;
  }

 private:
  struct Frame {
    Any value;
    std::vector<Any> children;
    size_t next = 0;
    // Object fields, read once: (field, value).
    std::vector<std::pair<const TVMFFIFieldInfo*, Any>> fields;
  };

  int64_t Visit(const Any& root) {
    if (auto it = memo_.find(root); it != memo_.end()) return it->second;
    Push(root);
    while (!stack_.empty()) {
      Frame& top = stack_.back();
      if (top.next < top.children.size()) {
        Any child = top.children[top.next++];
        if (memo_.count(child)) continue;
        if (open_.count(child)) ThrowCycle(child);
        Push(child);
        continue;
      }
      Frame done = std::move(stack_.back());
      stack_.pop_back();
      int64_t index = Emit(done);
      open_.erase(done.value);
      memo_.emplace(done.value, index);
    }
    return memo_.at(root);
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
  void Push(const Any& v) {
    Frame f;
    f.value = v;
    const TVMFFIAny* cell = detail::AnyUnsafe::GetTVMFFIAny(v);
    int32_t tindex = cell->type_index;
    if (tindex == kTVMFFIArray || tindex == kTVMFFIList) {
      const auto* seq = reinterpret_cast<const detail::SeqBaseObj*>(cell->v_obj);
      const TVMFFIAny* slots = seq->slots();
      f.children.reserve(static_cast<size_t>(seq->SeqCell()->size));
      for (int64_t i = 0; i < seq->SeqCell()->size; ++i) {
        f.children.push_back(*reinterpret_cast<const Any*>(slots + i));
      }
    } else if (tindex == kTVMFFIMap || tindex == kTVMFFIDict) {
      const auto* map = reinterpret_cast<const MapBaseObj*>(cell->v_obj);
      f.children.reserve(map->size() * 2);
      for (const auto& kv : *map) {
        f.children.push_back(kv.first);
        f.children.push_back(kv.second);
      }
    } else if (tindex >= kTVMFFIStaticObjectBegin && tindex != kTVMFFIStr &&
               tindex != kTVMFFIBytes && tindex != kTVMFFIShape) {
      const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(tindex);
      if (info != nullptr && IsPlainObject(info)) {
        if (!reflection::HasCreator(info)) {
          TVM_FFI_THROW(TypeError)
              << "Type `" << TypeKeyOf(tindex) << "` does not support ToJSONGraph"
              << " (no native creator or __ffi_new__ type attr)";
        }
        const Object* obj = reinterpret_cast<const Object*>(cell->v_obj);
        reflection::ForEachFieldInfo(info, [&](const TVMFFIFieldInfo* fi) {
          Any fv = reflection::FieldGetter(fi)(obj);
          if (!IsInlineField(fi->field_static_type_index)) f.children.push_back(fv);
          f.fields.emplace_back(fi, std::move(fv));
        });
      }
    }
    open_.insert(v);
    stack_.push_back(std::move(f));
  }

  /*! \brief Whether objects of this type are written field by field. */
  bool IsPlainObject(const TVMFFITypeInfo* info) {
    if (IsSubtypeOfKey(info, "ffi.Enum")) return false;
    return LookupTypeAttr(reflection::type_attr::kDataToJson.name, info->type_index) == nullptr;
  }

  int64_t IndexOf(const Any& v) const { return memo_.at(v); }

  Array<Any> ChildIndices(const Frame& f) const {
    std::vector<Any> out;
    out.reserve(f.children.size());
    for (const Any& c : f.children) out.push_back(IndexOf(c));
    return Array<Any>(out.begin(), out.end());
  }

  int64_t Emit(const Frame& f) {
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
        EmitObject(f, &node);
      }
    }
    nodes_.push_back(std::move(node));
    return static_cast<int64_t>(nodes_.size()) - 1;
  }

  void EmitObject(const Frame& f, Map<Any, Any>* node) {
    const TVMFFIAny* cell = detail::AnyUnsafe::GetTVMFFIAny(f.value);
    const Object* obj = reinterpret_cast<const Object*>(cell->v_obj);
    const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(cell->type_index);
    if (info == nullptr) {
      TVM_FFI_THROW(RuntimeError) << "Cannot serialize type index " << cell->type_index;
    }
    String key(std::string(info->type_key.data, info->type_key.size));
    Any data;
    if (IsSubtypeOfKey(info, "ffi.IntEnum")) {
      // _int_index is a plain int64_t member.
      data = *reinterpret_cast<const int64_t*>(reinterpret_cast<const char*>(obj) +
                                               kEnumIntIndexOffset);
    } else if (IsSubtypeOfKey(info, "ffi.Enum")) {
      // _str_index is a String member: a 16-byte cell (small or heap string).
      data = AnyView::CopyFromTVMFFIAny(*ObjectSlot(obj, kEnumStrIndexOffset)).cast<String>();
    } else if (AnyView hook =
                   LookupTypeAttr(reflection::type_attr::kDataToJson.name, info->type_index);
               hook != nullptr) {
      data = hook.cast<Function>()(f.value);
    } else {
      Map<Any, Any> fields;
      for (const auto& [fi, fv] : f.fields) {
        Any out = IsInlineField(fi->field_static_type_index) ? InlineFieldToJSON(fv) : IndexOf(fv);
        fields.Set(String(FieldName(fi)), out);
      }
      data = std::move(fields);
    }
    node->Set(NodeKey("type"), key);
    node->Set(NodeKey("data"), std::move(data));
  }

  AnyIndexMap memo_;
  AnySet open_;
  std::vector<Frame> stack_;
  std::vector<Any> nodes_;
};

// ---- reader ----

[[noreturn]] void ThrowBadGraph(const std::string& what) {
  TVM_FFI_THROW(ValueError) << "Invalid JSON Object Graph: " << what;
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
    if (!f.has_data || f.data.type_index() != kTVMFFIArray) {
      ThrowBadGraph(std::string(what) + " data must be an array (node " + std::to_string(f.index) +
                    ")");
    }
    return f.data.cast<Array<Any>>();
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

  static bool IsPlainObject(const TVMFFITypeInfo* info) {
    if (IsSubtypeOfKey(info, "ffi.Enum")) return false;
    return LookupTypeAttr(reflection::type_attr::kDataFromJson.name, info->type_index) == nullptr;
  }

  const Any& RequireData(const Frame& f) const {
    if (!f.has_data) {
      ThrowBadGraph("node " + std::to_string(f.index) + " of type `" + TypeKeyOf(f.type_index) +
                    "` has no `data`");
    }
    return f.data;
  }

  std::vector<Any> Children(const Frame& f) const {
    std::vector<Any> out;
    out.reserve(f.children.size());
    for (int64_t c : f.children) out.push_back(decoded_[c]);
    return out;
  }

  Any Build(const Frame& f) {
    switch (f.type_index) {
      case kTVMFFINone:
        return Any(nullptr);
      case kTVMFFIBool:
        return RequireData(f).cast<bool>();
      case kTVMFFIInt:
        return RequireData(f).cast<int64_t>();
      case kTVMFFIFloat:
        return RequireData(f).cast<double>();
      case kTVMFFIDataType:
        return StringToDLDataType(std::string(RequireData(f).cast<String>()));
      case kTVMFFIDevice: {
        const Any& data = RequireData(f);
        if (data.type_index() != kTVMFFIArray) {
          ThrowBadGraph(
              "Device data must be an array of [device_type, device_id], got a value of type `" +
              data.GetTypeKey() + "`");
        }
        Array<Any> parts = data.cast<Array<Any>>();
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
        return RequireData(f).cast<String>();
      case kTVMFFIBytes:
        return Base64Decode(RequireData(f).cast<String>());
      case kTVMFFIShape: {
        std::vector<int64_t> dims;
        for (const Any& d : DataArray(f, "ffi.Shape")) dims.push_back(d.cast<int64_t>());
        return Shape(dims);
      }
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
    if (f.type_index < kTVMFFIStaticObjectBegin) {
      // Other PODs (opaque pointers, "ffi.SmallStr", ...) have no JSON form.
      TVM_FFI_THROW(RuntimeError) << "Type `" << TypeKeyOf(f.type_index)
                                  << "` does not support reflection creation"
                                  << " (no native creator or __ffi_new__ type attr)";
    }
    return BuildObject(f);
  }

  Any BuildObject(const Frame& f) {
    const TVMFFITypeInfo* info = f.info;
    if (IsSubtypeOfKey(info, "ffi.IntEnum")) {
      return LookupEnumEntry(info->type_index, RequireData(f).cast<int64_t>());
    }
    if (IsSubtypeOfKey(info, "ffi.Enum")) {
      return LookupEnumEntry(info->type_index, RequireData(f).cast<String>());
    }
    if (AnyView hook = LookupTypeAttr(reflection::type_attr::kDataFromJson.name, info->type_index);
        hook != nullptr) {
      return hook.cast<Function>()(RequireData(f));
    }
    ObjectRef obj(reflection::CreateEmptyObject(info));
    const Object* ptr = obj.get();
    Map<Any, Any> fields = f.data.cast<Map<Any, Any>>();
    reflection::ForEachFieldInfo(info, [&](const TVMFFIFieldInfo* fi) {
      auto v = fields.Get(String(FieldName(fi)));
      if (v.has_value()) {
        if (IsInlineField(fi->field_static_type_index)) {
          Any value = *v;
          if (fi->field_static_type_index == kTVMFFIDataType &&
              (value.type_index() == kTVMFFIStr || value.type_index() == kTVMFFISmallStr)) {
            value = StringToDLDataType(std::string(value.cast<String>()));
          }
          SetField(ptr, fi, value);
        } else {
          SetField(ptr, fi, decoded_[v->cast<int64_t>()]);
        }
      } else if (fi->flags & kTVMFFIFieldFlagBitMaskHasDefault) {
        reflection::SetFieldToDefault(fi, FieldAddr(ptr, fi));
      } else {
        TVM_FFI_THROW(TypeError) << "Required field `" << FieldName(fi) << "` not set in type `"
                                 << TypeKeyOf(info->type_index) << "`";
      }
    });
    return obj;
  }

  Array<Any> nodes_;
  std::vector<Any> decoded_;
  std::vector<uint8_t> state_;
  std::vector<Frame> stack_;
};

Any ToJSONGraph(const Any& value, const Any& metadata) {
  return GraphWriter().Run(value, metadata);
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

}  // namespace
}  // namespace detail

TVM_FFI_STATIC_INIT_BLOCK() {
  using detail::FromJSONGraph;
  using detail::ToJSONGraph;
  namespace json = detail::json_impl;
  reflection::GlobalDef()
      .def("ffi.ToJSONGraph",
           [](const Any& value, const Any& metadata) { return ToJSONGraph(value, metadata); })
      .def("ffi.ToJSONGraphString",
           [](const Any& value, const Any& metadata) {
             return json::Stringify(ToJSONGraph(value, metadata));
           })
      .def("ffi.FromJSONGraph", [](const Any& graph) { return FromJSONGraph(graph); })
      .def("ffi.FromJSONGraphString",
           [](const String& text) { return FromJSONGraph(json::Parse(text)); });

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
