// Tests of JSON object graphs (tvm/ffi/extra/serialization.h): node layout
// and dedup for PODs and containers, reflected objects (inline vs node
// fields, defaults, required fields), BigInt hooks, the reader's checks on
// malformed graphs, and round trips.
#include <gtest/gtest.h>
#include <tvm/ffi/any.h>
#include <tvm/ffi/big_int.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/dict.h>
#include <tvm/ffi/container/list.h>
#include <tvm/ffi/container/map.h>
#include <tvm/ffi/container/shape.h>
#include <tvm/ffi/dtype.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/extra/json.h>
#include <tvm/ffi/extra/serialization.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/memory.h>
#include <tvm/ffi/object.h>
#include <tvm/ffi/string.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "testing_helpers.h"

namespace {

namespace ffi = tvm::ffi;
namespace json = tvm::ffi::json;
using ffi::Any;
using ffi::Array;
using ffi::Map;
using ffi::String;
using tvm_ffi_testing::ErrorMessage;
using tvm_ffi_testing::RunWithSmallStack;

std::string ToText(const Any& v, const Any& metadata = Any(nullptr)) {
  return json::Stringify(ffi::ToJSONGraph(v, metadata));
}
Any FromText(const std::string& text) { return ffi::FromJSONGraph(json::Parse(String(text))); }

// ---- a reflected type registered through the C ABI, as any library could ----

class NodeObj : public ffi::Object {
 public:
  int64_t v_i64 = 0;
  double v_f64 = 0;
  DLDataType dtype{kDLFloat, 32, 1};
  String v_str;
  Any child;
  int64_t with_default = 0;
  TVM_FFI_DECLARE_OBJECT_INFO("test_serialization.Node", NodeObj, ffi::Object);
};

// A type without creator: cannot be serialized.
class NoCreatorObj : public ffi::Object {
 public:
  TVM_FFI_DECLARE_OBJECT_INFO("test_serialization.NoCreator", NoCreatorObj, ffi::Object);
};

template <typename T>
int GetFieldOf(void* field, TVMFFIAny* result) {
  TVM_FFI_SAFE_CALL_BEGIN();
  *result = ffi::detail::AnyUnsafe::MoveAnyToTVMFFIAny(Any(*static_cast<T*>(field)));
  TVM_FFI_SAFE_CALL_END();
}

template <typename T>
int SetFieldOf(void* field, const TVMFFIAny* value) {
  TVM_FFI_SAFE_CALL_BEGIN();
  *static_cast<T*>(field) = ffi::AnyView::CopyFromTVMFFIAny(*value).cast<T>();
  TVM_FFI_SAFE_CALL_END();
}

template <typename T>
void AddField(int32_t tindex, const char* name, int64_t offset, int32_t static_index,
              int64_t flags = 0, TVMFFIAny default_value = TVMFFIAny{}) {
  TVMFFIFieldInfo info;
  std::memset(&info, 0, sizeof(info));
  info.name = TVMFFIByteArray{name, std::strlen(name)};
  info.doc = TVMFFIByteArray{"", 0};
  info.metadata = TVMFFIByteArray{"{}", 2};
  info.flags = flags;
  info.size = sizeof(T);
  info.alignment = alignof(T);
  info.offset = offset;
  info.getter = GetFieldOf<T>;
  info.setter = reinterpret_cast<void*>(&SetFieldOf<T>);
  info.default_value_or_factory = default_value;
  info.field_static_type_index = static_index;
  TVM_FFI_CHECK_SAFE_CALL(TVMFFITypeRegisterField(tindex, &info));
}

int CreateNode(TVMFFIObjectHandle* out) {
  TVM_FFI_SAFE_CALL_BEGIN();
  ffi::ObjectPtr<NodeObj> p = ffi::make_object<NodeObj>();
  *out = ffi::detail::ObjectUnsafe::MoveObjectPtrToTVMFFIObjectPtr(std::move(p));
  TVM_FFI_SAFE_CALL_END();
}

#define NODE_OFFSET(member) \
  static_cast<int64_t>(reinterpret_cast<char*>(&probe.member) - reinterpret_cast<char*>(&probe))

int32_t NodeTypeIndex() {
  static int32_t tindex = [] {
    int32_t t = NodeObj::RuntimeTypeIndex();
    NodeObj probe;
    AddField<int64_t>(t, "v_i64", NODE_OFFSET(v_i64), kTVMFFIInt);
    AddField<double>(t, "v_f64", NODE_OFFSET(v_f64), kTVMFFIFloat);
    AddField<DLDataType>(t, "dtype", NODE_OFFSET(dtype), kTVMFFIDataType);
    AddField<String>(t, "v_str", NODE_OFFSET(v_str), -1);
    AddField<Any>(t, "child", NODE_OFFSET(child), -1);
    TVMFFIAny seven{};
    seven.type_index = kTVMFFIInt;
    seven.v_int64 = 7;
    AddField<int64_t>(t, "with_default", NODE_OFFSET(with_default), kTVMFFIInt,
                      kTVMFFIFieldFlagBitMaskHasDefault, seven);
    TVMFFITypeMetadata md;
    std::memset(&md, 0, sizeof(md));
    md.creator = CreateNode;
    md.total_size = sizeof(NodeObj);
    TVM_FFI_CHECK_SAFE_CALL(TVMFFITypeRegisterMetadata(t, &md));
    NoCreatorObj::RuntimeTypeIndex();
    return t;
  }();
  return tindex;
}

ffi::ObjectRef MakeNode(int64_t i, double f, const char* s, Any child) {
  NodeTypeIndex();
  ffi::ObjectPtr<NodeObj> p = ffi::make_object<NodeObj>();
  p->v_i64 = i;
  p->v_f64 = f;
  p->dtype = DLDataType{kDLFloat, 16, 1};
  p->v_str = s;
  p->child = std::move(child);
  p->with_default = 3;
  return ffi::ObjectRef(std::move(p));
}

// ---- PODs and containers ----

TEST(ToJSONGraph, PODNodes) {
  EXPECT_EQ(ToText(Any(nullptr)), R"({"root_index":0,"nodes":[{"type":"None"}]})");
  EXPECT_EQ(ToText(true), R"({"root_index":0,"nodes":[{"type":"bool","data":true}]})");
  EXPECT_EQ(ToText(-3), R"({"root_index":0,"nodes":[{"type":"int","data":-3}]})");
  EXPECT_EQ(ToText(1.5), R"({"root_index":0,"nodes":[{"type":"float","data":1.5}]})");
  EXPECT_EQ(ToText(-0.0), R"({"root_index":0,"nodes":[{"type":"float","data":-0.0}]})");
  EXPECT_EQ(ToText(std::nan("")), R"({"root_index":0,"nodes":[{"type":"float","data":NaN}]})");
  EXPECT_EQ(ToText(ffi::StringToDLDataType("int8x4")),
            R"({"root_index":0,"nodes":[{"type":"DataType","data":"int8x4"}]})");
  EXPECT_EQ(ToText(DLDevice{kDLCUDA, 1}),
            R"({"root_index":0,"nodes":[{"type":"Device","data":[2,1]}]})");
  EXPECT_EQ(ToText(ffi::Shape({2, 3})),
            R"({"root_index":0,"nodes":[{"type":"ffi.Shape","data":[2,3]}]})");
}

TEST(ToJSONGraph, StringsAndBytes) {
  EXPECT_EQ(ToText(String("a\"b\\c\n\x01\xc3\xa9")),
            "{\"root_index\":0,\"nodes\":[{\"type\":\"ffi.String\",\"data\":"
            "\"a\\\"b\\\\c\\n\\u0001\xc3\xa9\"}]}");
  EXPECT_EQ(ToText(ffi::Bytes("\x00\x01"
                              "abc",
                              5)),
            R"({"root_index":0,"nodes":[{"type":"ffi.Bytes","data":"AAFhYmM="}]})");
  std::string long_text(40, 'z');
  EXPECT_EQ(ToText(String(long_text)),
            R"({"root_index":0,"nodes":[{"type":"ffi.String","data":")" + long_text + "\"}]}");
}

TEST(ToJSONGraph, ArrayChildrenFirstAndEqualValuesShareNodes) {
  Array<Any> v{1, "a", Array<Any>{1, "a"}};
  EXPECT_EQ(ToText(v),
            R"({"root_index":3,"nodes":[{"type":"int","data":1},{"type":"ffi.String","data":"a"},)"
            R"({"type":"ffi.Array","data":[0,1]},{"type":"ffi.Array","data":[0,1,2]}]})");
}

TEST(ToJSONGraph, MapIsFlatKeyValueIndices) {
  Map<Any, Any> m{{Any("a"), Any(1)}, {Any("b"), Any(Array<Any>{1, 2})}};
  EXPECT_EQ(
      ToText(m),
      R"({"root_index":5,"nodes":[{"type":"ffi.String","data":"a"},{"type":"int","data":1},)"
      R"({"type":"ffi.String","data":"b"},{"type":"int","data":2},{"type":"ffi.Array","data":[1,3]},)"
      R"({"type":"ffi.Map","data":[0,1,2,4]}]})");
}

TEST(ToJSONGraph, SameObjectSharesOneNodeEqualObjectsDoNot) {
  Array<Any> x{3};
  EXPECT_EQ(ToText(Array<Any>{x, x, 3}),
            R"({"root_index":2,"nodes":[{"type":"int","data":3},{"type":"ffi.Array","data":[0]},)"
            R"({"type":"ffi.Array","data":[1,1,0]}]})");
  Array<Any> y{3};
  EXPECT_EQ(ToText(Array<Any>{x, y}),
            R"({"root_index":3,"nodes":[{"type":"int","data":3},{"type":"ffi.Array","data":[0]},)"
            R"({"type":"ffi.Array","data":[0]},{"type":"ffi.Array","data":[1,2]}]})");
}

TEST(ToJSONGraph, MetadataIsStoredVerbatimLast) {
  Map<Any, Any> md{{Any("version"), Any("1.0")}};
  EXPECT_EQ(ToText(Array<Any>{1, 2}, md),
            R"({"root_index":2,"nodes":[{"type":"int","data":1},{"type":"int","data":2},)"
            R"({"type":"ffi.Array","data":[0,1]}],"metadata":{"version":"1.0"}})");
}

TEST(ToJSONGraph, ListAndDictContainingThemselvesAreValueErrors) {
  ffi::List<Any> l{1};
  l.push_back(l);
  EXPECT_EQ(ErrorMessage([&] { ffi::ToJSONGraph(l); }, "ValueError"),
            "Cycle detected during serialization: a List contains itself");
  l.Set(1, nullptr);
  ffi::Dict<Any, Any> d;
  d.Set("self", d);
  EXPECT_EQ(ErrorMessage([&] { ffi::ToJSONGraph(d); }, "ValueError"),
            "Cycle detected during serialization: a Dict contains itself");
  d.Set("self", nullptr);
}

TEST(ToJSONGraph, OpaquePointerCannotBeSerialized) {
  int x = 0;
  EXPECT_EQ(ErrorMessage([&] { ffi::ToJSONGraph(static_cast<void*>(&x)); }, "RuntimeError"),
            "Cannot serialize type `void*`");
}

TEST(ToJSONGraph, TypesWithoutCreatorAreTypeErrors) {
  ffi::Function f = ffi::Function::FromTyped([](int a) { return a; });
  EXPECT_EQ(ErrorMessage([&] { ffi::ToJSONGraph(f); }),
            "Type `ffi.Function` does not support ToJSONGraph (no native creator or __ffi_new__ "
            "type attr)");
  NodeTypeIndex();
  ffi::ObjectRef nc(ffi::make_object<NoCreatorObj>());
  EXPECT_EQ(ErrorMessage([&] { ffi::ToJSONGraph(Array<Any>{nc}); }),
            "Type `test_serialization.NoCreator` does not support ToJSONGraph (no native creator "
            "or __ffi_new__ type attr)");
}

TEST(JSONGraphRoundTrip, PODsAndContainersComeBackEqual) {
  ffi::List<Any> l{1, 2.5, "s", ffi::Bytes("\xff\x00", 2)};
  ffi::Dict<Any, Any> d{{Any("k"), Any(l)}, {Any(1), Any(nullptr)}};
  Array<Any> v{d,   l, ffi::Shape({4, 5}), DLDevice{kDLCPU, 0}, ffi::StringToDLDataType("bfloat16"),
               true};
  Array<Any> back = ffi::FromJSONGraph(ffi::ToJSONGraph(v)).cast<Array<Any>>();
  ASSERT_EQ(back.size(), 6u);
  EXPECT_EQ(ToText(back), ToText(v));
  auto back_d = back[0].cast<ffi::Dict<Any, Any>>();
  auto back_l = back[1].cast<ffi::List<Any>>();
  // The shared list stays shared.
  EXPECT_TRUE(back_d.at("k").same_as(back_l));
  ffi::Bytes raw = back_l[3].cast<ffi::Bytes>();
  EXPECT_EQ(std::string(raw.data(), raw.size()), std::string("\xff\x00", 2));
  EXPECT_EQ(back[4].cast<DLDataType>().code, kDLBfloat);
  EXPECT_EQ(back[2].cast<ffi::Shape>()[1], 5);
}

TEST(JSONGraphRoundTrip, DeepNestingNeedsNoNativeRecursion) {
  const int depth = 5000;
  Any v = 0;
  for (int i = 0; i < depth; ++i) v = Array<Any>{v};
  Any back;
  RunWithSmallStack([&] { back = ffi::FromJSONGraph(ffi::ToJSONGraph(v)); });
  int levels = 0;
  for (Any cur = back; cur.type_index() == kTVMFFIArray; cur = cur.cast<Array<Any>>()[0]) ++levels;
  EXPECT_EQ(levels, depth);
}

// ---- objects ----

TEST(ToJSONGraph, DataTypeMembersAreDeclaredInline) {
  // ObjectDef copies this into field_static_type_index, which makes dtype fields inline text.
  EXPECT_EQ(ffi::TypeTraits<DLDataType>::field_static_type_index, kTVMFFIDataType);
}

TEST(ToJSONGraph, ObjectFieldsInlineOrAsNodes) {
  ffi::ObjectRef n = MakeNode(12, 2.5, "s", nullptr);
  EXPECT_EQ(ToText(n),
            R"({"root_index":2,"nodes":[{"type":"ffi.String","data":"s"},{"type":"None"},)"
            R"({"type":"test_serialization.Node","data":{"v_i64":12,"v_f64":2.5,)"
            R"("dtype":"float16","v_str":0,"child":1,"with_default":3}}]})");
}

TEST(JSONGraphRoundTrip, ObjectsKeepFieldsAndSharing) {
  ffi::ObjectRef leaf = MakeNode(1, 0.5, "leaf", nullptr);
  ffi::ObjectRef root = MakeNode(2, 1.5, "root", Array<Any>{leaf, leaf});
  Any back = ffi::FromJSONGraph(ffi::ToJSONGraph(root));
  const NodeObj* r = back.as<NodeObj>();
  ASSERT_NE(r, nullptr);
  EXPECT_FALSE(back.same_as(root));
  EXPECT_EQ(r->v_i64, 2);
  EXPECT_EQ(r->v_f64, 1.5);
  EXPECT_EQ(r->v_str, "root");
  EXPECT_EQ(r->dtype.bits, 16);
  EXPECT_EQ(r->with_default, 3);
  Array<Any> kids = r->child.cast<Array<Any>>();
  EXPECT_TRUE(kids[0].same_as(kids[1]));
  EXPECT_EQ(kids[0].as<NodeObj>()->v_str, "leaf");
}

TEST(FromJSONGraph, AbsentFieldTakesDefaultOrIsRequired) {
  NodeTypeIndex();
  Any n = FromText(
      R"({"root_index":1,"nodes":[{"type":"ffi.String","data":"x"},{"type":"test_serialization.Node",)"
      R"("data":{"v_i64":1,"v_f64":2,"dtype":"int8","v_str":0,"child":0,"unknown":5}}]})");
  EXPECT_EQ(n.as<NodeObj>()->with_default, 7);
  EXPECT_EQ(n.as<NodeObj>()->v_f64, 2.0);
  EXPECT_EQ(n.as<NodeObj>()->dtype.code, kDLInt);
  EXPECT_EQ(ErrorMessage([] {
              FromText(R"({"root_index":0,"nodes":[{"type":"test_serialization.Node",)"
                       R"("data":{"v_i64":1}}]})");
            }),
            "Required field `v_f64` not set in type `test_serialization.Node`");
}

TEST(FromJSONGraph, AcceptsAnyNodeOrderAndIgnoresUnusedNodes) {
  Any v = FromText(
      R"({"root_index":0,"nodes":[{"type":"ffi.Array","data":[2,1]},{"type":"int","data":5},)"
      R"({"type":"ffi.String","data":"a"},{"type":"no.such.Type"}],"extra":1})");
  EXPECT_EQ(json::Stringify(v), R"(["a",5])");
}

TEST(FromJSONGraph, MalformedTopLevel) {
  EXPECT_EQ(ErrorMessage([] { ffi::FromJSONGraph(Array<Any>{}); }, "ValueError"),
            "Invalid JSON Object Graph, expected an object");
  EXPECT_EQ(ErrorMessage([] { FromText(R"({"nodes":[]})"); }, "ValueError"),
            "Invalid JSON Object Graph, expected `root_index` integer field");
  EXPECT_EQ(ErrorMessage([] { FromText(R"({"root_index":0,"nodes":{}})"); }, "ValueError"),
            "Invalid JSON Object Graph, expected `nodes` array field");
}

TEST(FromJSONGraph, InvalidNodeIndex) {
  EXPECT_EQ(
      ErrorMessage([] { FromText(R"({"root_index":1,"nodes":[{"type":"None"}]})"); }, "ValueError"),
      "Invalid JSON Object Graph: invalid node index 1");
  EXPECT_EQ(ErrorMessage(
                [] { FromText(R"({"root_index":0,"nodes":[{"type":"ffi.Array","data":[-1]}]})"); },
                "ValueError"),
            "Invalid JSON Object Graph: invalid node index -1");
}

TEST(FromJSONGraph, SelfReferenceIsValueError) {
  std::string msg =
      ErrorMessage([] { FromText(R"({"root_index":0,"nodes":[{"type":"ffi.List","data":[0]}]})"); },
                   "ValueError");
  EXPECT_EQ(msg.find("Invalid JSON Object Graph"), 0u) << msg;
}

TEST(FromJSONGraph, DeviceAndMapShapes) {
  EXPECT_EQ(
      ErrorMessage([] { FromText(R"({"root_index":0,"nodes":[{"type":"Device","data":[1]}]})"); },
                   "ValueError"),
      "Invalid JSON Object Graph: Device data must be an array of [device_type, device_id], "
      "got 1 element(s)");
  EXPECT_EQ(
      ErrorMessage(
          [] {
            FromText(R"({"root_index":1,"nodes":[{"type":"None"},{"type":"ffi.Map","data":[0]}]})");
          },
          "ValueError"),
      "Invalid JSON Object Graph: Map/Dict data must contain an even number of [key, value] "
      "entries, got 1");
}

TEST(FromJSONGraph, ScalarCastsFollowTheirTypes) {
  EXPECT_EQ(FromText(R"({"root_index":0,"nodes":[{"type":"float","data":2}]})").cast<double>(),
            2.0);
  EXPECT_EQ(FromText(R"({"root_index":0,"nodes":[{"type":"bool","data":1}]})").cast<bool>(), true);
  EXPECT_EQ(
      ErrorMessage([] { FromText(R"({"root_index":0,"nodes":[{"type":"int","data":1.5}]})"); }),
      "Cannot convert from type `float` to `int`");
}

TEST(FromJSONGraph, PODKeysWithoutJSONFormCannotBeCreated) {
  EXPECT_EQ(
      ErrorMessage(
          [] { FromText(R"({"root_index":0,"nodes":[{"type":"ffi.SmallStr","data":"a"}]})"); },
          "RuntimeError"),
      "Type `ffi.SmallStr` does not support reflection creation (no native creator or "
      "__ffi_new__ type attr)");
  EXPECT_EQ(
      ErrorMessage([] { FromText(R"({"root_index":0,"nodes":[{"type":"void*","data":1}]})"); },
                   "RuntimeError"),
      "Type `void*` does not support reflection creation (no native creator or __ffi_new__ type "
      "attr)");
}

TEST(FromJSONGraph, UnknownTypeKeyIsReported) {
  try {
    FromText(R"({"root_index":0,"nodes":[{"type":"no.such.Type"}]})");
    ADD_FAILURE() << "expected an error";
  } catch (const ffi::Error& e) {
    EXPECT_NE(e.message().find("no.such.Type"), std::string::npos) << e.message();
  }
}

TEST(JSONGraphBigInt, WrittenAsDecimalText) {
  ffi::BigInt big = ffi::BigInt::FromString("1180591620717411303424");
  EXPECT_EQ(ToText(big),
            R"({"root_index":0,"nodes":[{"type":"ffi.BigInt","data":"1180591620717411303424"}]})");
  Any back = ffi::FromJSONGraph(ffi::ToJSONGraph(big));
  EXPECT_EQ(back.type_index(), kTVMFFIBigInt);
  EXPECT_EQ(back.cast<ffi::BigInt>().ToString(), "1180591620717411303424");
}

TEST(JSONGraphGlobals, StringFormsRoundTrip) {
  ffi::Function to = ffi::Function::GetGlobalRequired("ffi.ToJSONGraphString");
  ffi::Function from = ffi::Function::GetGlobalRequired("ffi.FromJSONGraphString");
  ffi::Function to_map = ffi::Function::GetGlobalRequired("ffi.ToJSONGraph");
  ffi::Function from_map = ffi::Function::GetGlobalRequired("ffi.FromJSONGraph");
  String text = to(Array<Any>{1, 2, 3}, nullptr).cast<String>();
  EXPECT_EQ(text, R"({"root_index":3,"nodes":[{"type":"int","data":1},{"type":"int","data":2},)"
                  R"({"type":"int","data":3},{"type":"ffi.Array","data":[0,1,2]}]})");
  EXPECT_EQ(json::Stringify(from(text)), "[1,2,3]");
  EXPECT_EQ(json::Stringify(from_map(to_map("x", nullptr))), "\"x\"");
}

// ---- enums: ffi.Enum / ffi.IntEnum / the __ffi_enum__ state, as any library lays them out ----

class FakeEnumObj : public ffi::Object {
 public:
  int64_t _int_index = 0;
  String _str_index;
  TVM_FFI_DECLARE_OBJECT_INFO("ffi.Enum", FakeEnumObj, ffi::Object);
};

class FakeIntEnumObj : public FakeEnumObj {
 public:
  TVM_FFI_DECLARE_OBJECT_INFO("ffi.IntEnum", FakeIntEnumObj, FakeEnumObj);
};

class ColorObj : public FakeIntEnumObj {
 public:
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("test_serialization.Color", ColorObj, FakeIntEnumObj);
};

class OpObj : public FakeEnumObj {
 public:
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("test_serialization.Op", OpObj, FakeEnumObj);
};

// The state object: entries @24, indexes @32 (int and str index -> singleton), attrs @40.
class FakeEnumStateObj : public ffi::Object {
 public:
  ffi::List<Any> entries;
  ffi::Dict<Any, Any> indexes;
  ffi::Dict<Any, Any> attrs;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("test_serialization.FakeEnumState", FakeEnumStateObj,
                                    ffi::Object);
};

template <typename T>
ffi::ObjectRef MakeEnumEntry(int64_t int_index, const char* str_index) {
  ffi::ObjectPtr<T> p = ffi::make_object<T>();
  p->_int_index = int_index;
  p->_str_index = str_index;
  return ffi::ObjectRef(std::move(p));
}

/*! \brief Register the __ffi_enum__ state of type T holding the given entries. */
template <typename T>
void RegisterEnumState(const std::vector<ffi::ObjectRef>& entries) {
  ffi::ObjectPtr<FakeEnumStateObj> state = ffi::make_object<FakeEnumStateObj>();
  for (const ffi::ObjectRef& e : entries) {
    const auto* obj = static_cast<const FakeEnumObj*>(e.get());
    state->entries.push_back(e);
    state->indexes.Set(obj->_int_index, e);
    state->indexes.Set(obj->_str_index, e);
  }
  ffi::ObjectRef state_ref(std::move(state));
  TVMFFIByteArray name{"__ffi_enum__", 12};
  TVMFFIAny cell;
  ffi::TypeTraits<ffi::ObjectRef>::CopyToAnyView(state_ref, &cell);
  TVM_FFI_CHECK_SAFE_CALL(TVMFFITypeRegisterAttr(T::RuntimeTypeIndex(), &name, &cell));
}

struct EnumFixture {
  ffi::ObjectRef red, blue, plus;
  EnumFixture() {
    red = MakeEnumEntry<ColorObj>(10, "red");
    blue = MakeEnumEntry<ColorObj>(11, "blue");
    plus = MakeEnumEntry<OpObj>(0, "+");
    RegisterEnumState<ColorObj>({red, blue});
    RegisterEnumState<OpObj>({plus});
  }
  static const EnumFixture& Get() {
    static EnumFixture* fixture = new EnumFixture();
    return *fixture;
  }
};

TEST(JSONGraphEnum, LayoutMatchesTheEnumABI) {
  ColorObj probe;
  const char* base = reinterpret_cast<const char*>(static_cast<const ffi::Object*>(&probe));
  EXPECT_EQ(reinterpret_cast<const char*>(&probe._int_index) - base, 24);
  EXPECT_EQ(reinterpret_cast<const char*>(&probe._str_index) - base, 32);
  FakeEnumStateObj state;
  const char* sbase = reinterpret_cast<const char*>(static_cast<const ffi::Object*>(&state));
  EXPECT_EQ(reinterpret_cast<const char*>(&state.indexes) - sbase, 32);
}

TEST(JSONGraphEnum, IntEnumIsItsIntIndexAndComesBackAsTheSingleton) {
  const EnumFixture& f = EnumFixture::Get();
  EXPECT_EQ(ToText(f.blue),
            R"({"root_index":0,"nodes":[{"type":"test_serialization.Color","data":11}]})");
  Any back = ffi::FromJSONGraph(ffi::ToJSONGraph(Array<Any>{f.red, f.blue}));
  Array<Any> arr = back.cast<Array<Any>>();
  EXPECT_TRUE(arr[0].same_as(f.red));
  EXPECT_TRUE(arr[1].same_as(f.blue));
}

TEST(JSONGraphEnum, OtherEnumIsItsStrIndex) {
  const EnumFixture& f = EnumFixture::Get();
  EXPECT_EQ(ToText(f.plus),
            R"({"root_index":0,"nodes":[{"type":"test_serialization.Op","data":"+"}]})");
  EXPECT_TRUE(ffi::FromJSONGraph(ffi::ToJSONGraph(f.plus)).same_as(f.plus));
}

TEST(JSONGraphEnum, UnknownIndexIsValueError) {
  EnumFixture::Get();
  EXPECT_EQ(ErrorMessage(
                [] {
                  FromText(R"({"root_index":0,"nodes":[{"type":"test_serialization.Color",)"
                           R"("data":99}]})");
                },
                "ValueError"),
            "Enum `test_serialization.Color` has no instance with index 99");
  EXPECT_EQ(ErrorMessage(
                [] {
                  FromText(R"({"root_index":0,"nodes":[{"type":"test_serialization.Op",)"
                           R"("data":"-"}]})");
                },
                "ValueError"),
            "Enum `test_serialization.Op` has no instance with index -");
}

}  // namespace
