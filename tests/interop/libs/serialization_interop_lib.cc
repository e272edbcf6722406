// A reflected object type, "interop.serialization.Node", registered through
// the C ABI reflection tables only (fields with getters/setters, metadata
// with a creator), so that the same source compiled with either copy of the
// headers registers an identical type. JSON object graphs of such nodes
// written by one runtime are read by the other.
#include <tvm/ffi/any.h>
#include <tvm/ffi/c_api.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/memory.h>
#include <tvm/ffi/object.h>

#include <cstdint>
#include <cstring>

namespace ffi = tvm::ffi;

namespace {

class NodeObj : public ffi::Object {
 public:
  int64_t v_i64 = 0;
  double v_f64 = 0;
  // An Any-typed field kept as a raw cell whose reference this object owns.
  TVMFFIAny child;
  NodeObj() {
    child.type_index = kTVMFFINone;
    child.zero_padding = 0;
    child.v_int64 = 0;
  }
  ~NodeObj() {
    if (child.type_index >= kTVMFFIStaticObjectBegin) TVMFFIObjectDecRef(child.v_obj);
  }
  TVM_FFI_DECLARE_OBJECT_INFO("interop.serialization.Node", NodeObj, ffi::Object);
};

int GetInt(void* field, TVMFFIAny* out) {
  out->type_index = kTVMFFIInt;
  out->zero_padding = 0;
  out->v_int64 = *static_cast<int64_t*>(field);
  return 0;
}

int SetInt(void* field, const TVMFFIAny* value) {
  if (value->type_index != kTVMFFIInt) {
    TVMFFIErrorSetRaisedFromCStr("TypeError", "v_i64 expects an int");
    return -1;
  }
  *static_cast<int64_t*>(field) = value->v_int64;
  return 0;
}

int GetFloat(void* field, TVMFFIAny* out) {
  out->type_index = kTVMFFIFloat;
  out->zero_padding = 0;
  out->v_float64 = *static_cast<double*>(field);
  return 0;
}

int SetFloat(void* field, const TVMFFIAny* value) {
  if (value->type_index == kTVMFFIFloat) {
    *static_cast<double*>(field) = value->v_float64;
  } else if (value->type_index == kTVMFFIInt) {
    *static_cast<double*>(field) = static_cast<double>(value->v_int64);
  } else {
    TVMFFIErrorSetRaisedFromCStr("TypeError", "v_f64 expects a float");
    return -1;
  }
  return 0;
}

int GetAny(void* field, TVMFFIAny* out) {
  *out = *static_cast<TVMFFIAny*>(field);
  if (out->type_index >= kTVMFFIStaticObjectBegin) TVMFFIObjectIncRef(out->v_obj);
  return 0;
}

int SetAny(void* field, const TVMFFIAny* value) {
  TVMFFIAny owned;
  if (TVMFFIAnyViewToOwnedAny(value, &owned) != 0) return -1;
  TVMFFIAny* cell = static_cast<TVMFFIAny*>(field);
  if (cell->type_index >= kTVMFFIStaticObjectBegin) TVMFFIObjectDecRef(cell->v_obj);
  *cell = owned;
  return 0;
}

int CreateNode(TVMFFIObjectHandle* out) {
  ffi::ObjectPtr<NodeObj> p = ffi::make_object<NodeObj>();
  *out = ffi::details::ObjectUnsafe::MoveObjectPtrToTVMFFIObjectPtr(std::move(p));
  return 0;
}

TVMFFIByteArray Text(const char* s) { return TVMFFIByteArray{s, std::strlen(s)}; }

void AddField(int32_t tindex, const char* name, int64_t offset, int64_t size, int32_t static_index,
              TVMFFIFieldGetter getter, TVMFFIFieldSetter setter) {
  TVMFFIFieldInfo info;
  std::memset(&info, 0, sizeof(info));
  info.name = Text(name);
  info.doc = Text("");
  info.metadata = Text("{}");
  info.flags = kTVMFFIFieldFlagBitMaskWritable;
  info.size = size;
  info.alignment = 8;
  info.offset = offset;
  info.getter = getter;
  info.setter = reinterpret_cast<void*>(setter);
  info.field_static_type_index = static_index;
  TVMFFITypeRegisterField(tindex, &info);
}

struct Registration {
  Registration() {
    int32_t t = NodeObj::RuntimeTypeIndex();
    NodeObj probe;
    const char* base = reinterpret_cast<const char*>(static_cast<const ffi::Object*>(&probe));
    AddField(t, "v_i64", reinterpret_cast<const char*>(&probe.v_i64) - base, 8, kTVMFFIInt, GetInt,
             SetInt);
    AddField(t, "v_f64", reinterpret_cast<const char*>(&probe.v_f64) - base, 8, kTVMFFIFloat,
             GetFloat, SetFloat);
    AddField(t, "child", reinterpret_cast<const char*>(&probe.child) - base, 16, -1, GetAny,
             SetAny);
    TVMFFITypeMetadata md;
    std::memset(&md, 0, sizeof(md));
    md.doc = Text("");
    md.creator = CreateNode;
    md.total_size = sizeof(NodeObj);
    TVMFFITypeRegisterMetadata(t, &md);
  }
} registration;

ffi::ObjectRef MakeNode(int64_t i, double f, ffi::Any child) {
  ffi::ObjectPtr<NodeObj> p = ffi::make_object<NodeObj>();
  p->v_i64 = i;
  p->v_f64 = f;
  TVMFFIAny cell;
  // Copy the child's cell and take a reference of our own.
  std::memcpy(&cell, &child, sizeof(cell));
  GetAny(&cell, &p->child);
  return ffi::ObjectRef(std::move(p));
}

// [v_i64, v_f64, child] of a node.
ffi::Array<ffi::Any> NodeFields(ffi::ObjectRef node) {
  const NodeObj* n = node.as<NodeObj>();
  if (n == nullptr) return ffi::Array<ffi::Any>();
  TVMFFIAny child;
  GetAny(const_cast<TVMFFIAny*>(&n->child), &child);
  ffi::Any owned;
  std::memcpy(static_cast<void*>(&owned), &child, sizeof(child));
  return ffi::Array<ffi::Any>{ffi::Any(n->v_i64), ffi::Any(n->v_f64), owned};
}

}  // namespace

TVM_FFI_DLL_EXPORT_TYPED_FUNC(make_node, MakeNode);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(node_fields, NodeFields);
