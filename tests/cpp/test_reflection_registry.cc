// Registration details of reflection/registry.h and the runtime behind it:
// field traits and flags, metadata text, field static type indices, default
// values and factories, Function setters, type attributes and their columns,
// GlobalDef::def_method, and the py_class storage globals.
#include <gtest/gtest.h>
#include <tvm/ffi/any.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/list.h>
#include <tvm/ffi/container/map.h>
#include <tvm/ffi/container/shape.h>
#include <tvm/ffi/container/tensor.h>
#include <tvm/ffi/dtype.h>
#include <tvm/ffi/extra/stl.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/memory.h>
#include <tvm/ffi/object.h>
#include <tvm/ffi/optional.h>
#include <tvm/ffi/reflection/accessor.h>
#include <tvm/ffi/reflection/creator.h>
#include <tvm/ffi/reflection/registry.h>
#include <tvm/ffi/string.h>

#include <atomic>
#include <cstring>
#include <string>
#include <vector>

#include "testing_helpers.h"

namespace {

namespace ffi = tvm::ffi;
namespace refl = tvm::ffi::reflection;
using tvm_ffi_testing::ErrorMessage;

std::string Str(const TVMFFIByteArray& b) { return std::string(b.data, b.size); }

const TVMFFIFieldInfo* Field(int32_t type_index, const char* name) {
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(type_index);
  for (int32_t i = 0; i < info->num_fields; ++i) {
    if (Str(info->fields[i].name) == name) return &info->fields[i];
  }
  ADD_FAILURE() << "no field " << name;
  return nullptr;
}

class FlagsObj : public ffi::Object {
 public:
  int64_t plain = 0, no_repr = 0, no_compare = 0, no_hash = 0, no_init = 0, kw = 0;
  int64_t pattern = 0, simple = 0, ignored = 0, custom = 0, doc_var = 0;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("test.refl_registry.Flags", FlagsObj, ffi::Object);
};

const char* g_doc_variable = "not a literal";

TVM_FFI_STATIC_INIT_BLOCK() {
  refl::ObjectDef<FlagsObj>()
      .def_ro("plain", &FlagsObj::plain)
      .def_ro("no_repr", &FlagsObj::no_repr, refl::repr(false))
      .def_ro("no_compare", &FlagsObj::no_compare, refl::compare(false), refl::repr(true))
      .def_ro("no_hash", &FlagsObj::no_hash, refl::hash(false))
      .def_ro("no_init", &FlagsObj::no_init, refl::init(false))
      .def_ro("kw", &FlagsObj::kw, refl::kw_only(true))
      .def_ro("pattern", &FlagsObj::pattern, refl::AttachFieldFlag::SEqHashDefPattern())
      .def_ro("simple", &FlagsObj::simple, refl::AttachFieldFlag::SEqHashDefSimple())
      .def_ro("ignored", &FlagsObj::ignored, refl::AttachFieldFlag::SEqHashIgnore())
      .def_ro("custom", &FlagsObj::custom, refl::AttachFieldFlag(1 << 20), 12345)
      .def_ro("doc_var", &FlagsObj::doc_var, g_doc_variable);
}

TEST(ReflectionTraits, FieldTraitsSetTheirFlags) {
  int32_t t = FlagsObj::RuntimeTypeIndex();
  EXPECT_EQ(Field(t, "plain")->flags, 0);
  EXPECT_EQ(Field(t, "no_repr")->flags, kTVMFFIFieldFlagBitMaskReprOff);
  EXPECT_EQ(Field(t, "no_compare")->flags, kTVMFFIFieldFlagBitMaskCompareOff);
  EXPECT_EQ(Field(t, "no_hash")->flags, kTVMFFIFieldFlagBitMaskHashOff);
  EXPECT_EQ(Field(t, "no_init")->flags, kTVMFFIFieldFlagBitMaskInitOff);
  EXPECT_EQ(Field(t, "kw")->flags, kTVMFFIFieldFlagBitMaskKwOnly);
  EXPECT_EQ(Field(t, "pattern")->flags, kTVMFFIFieldFlagBitMaskSEqHashDefPattern);
  EXPECT_EQ(Field(t, "simple")->flags, kTVMFFIFieldFlagBitMaskSEqHashDefSimple);
  EXPECT_EQ(Field(t, "ignored")->flags, kTVMFFIFieldFlagBitMaskSEqHashIgnore);
  EXPECT_EQ(Field(t, "custom")->flags, 1 << 20);
}

TEST(ReflectionTraits, OnlyStringLiteralsBecomeTheDoc) {
  EXPECT_EQ(Field(FlagsObj::RuntimeTypeIndex(), "doc_var")->doc.size, 0u);
}

TEST(ReflectionTraits, FlagNamesKeepTheirOldAliases) {
  EXPECT_EQ(kTVMFFIFieldFlagBitMaskSEqHashDef, kTVMFFIFieldFlagBitMaskSEqHashDefPattern);
  EXPECT_EQ(kTVMFFIFieldFlagBitMaskDefaultIsFactory, kTVMFFIFieldFlagBitMaskDefaultFromFactory);
  EXPECT_EQ(kTVMFFIFieldFlagBitMaskSEqHashDefSimple, 4096);
}

class KindsObj : public ffi::Object {
 public:
  bool f_bool = false;
  int32_t f_i32 = 0;
  double f_f64 = 0;
  void* f_ptr = nullptr;
  DLDataType f_dtype{};
  DLDevice f_device{};
  ffi::Any f_any;
  ffi::String f_str;
  ffi::Bytes f_bytes;
  ffi::Optional<int64_t> f_opt_int;
  ffi::Optional<ffi::Array<ffi::Any>> f_opt_array;
  ffi::Array<ffi::Any> f_array;
  ffi::List<ffi::Any> f_list;
  ffi::Map<ffi::Any, ffi::Any> f_map;
  ffi::Shape f_shape;
  ffi::Function f_func;
  ffi::TypedFunction<int(int)> f_typed;
  ffi::ObjectRef f_ref;
  ffi::ObjectPtr<ffi::Object> f_ptr_obj;
  ffi::Arc<ffi::Object> f_arc_obj{ffi::UnsafeInit{}};
  ffi::Tensor f_tensor;
  std::vector<int64_t> f_vector;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("test.refl_registry.Kinds", KindsObj, ffi::Object);
};

TVM_FFI_STATIC_INIT_BLOCK() {
  refl::ObjectDef<KindsObj>()
      .def_ro("f_bool", &KindsObj::f_bool)
      .def_ro("f_i32", &KindsObj::f_i32)
      .def_ro("f_f64", &KindsObj::f_f64)
      .def_ro("f_ptr", &KindsObj::f_ptr)
      .def_ro("f_dtype", &KindsObj::f_dtype)
      .def_ro("f_device", &KindsObj::f_device)
      .def_ro("f_any", &KindsObj::f_any)
      .def_ro("f_str", &KindsObj::f_str)
      .def_ro("f_bytes", &KindsObj::f_bytes)
      .def_ro("f_opt_int", &KindsObj::f_opt_int)
      .def_ro("f_opt_array", &KindsObj::f_opt_array)
      .def_ro("f_array", &KindsObj::f_array)
      .def_ro("f_list", &KindsObj::f_list)
      .def_ro("f_map", &KindsObj::f_map)
      .def_ro("f_shape", &KindsObj::f_shape)
      .def_ro("f_func", &KindsObj::f_func)
      .def_ro("f_typed", &KindsObj::f_typed)
      .def_ro("f_ref", &KindsObj::f_ref)
      .def_ro("f_ptr_obj", &KindsObj::f_ptr_obj)
      .def_ro("f_arc_obj", &KindsObj::f_arc_obj)
      .def_ro("f_tensor", &KindsObj::f_tensor)
      .def_ro("f_vector", &KindsObj::f_vector);
}

TEST(ReflectionFields, StaticTypeIndexFollowsTheMemberType) {
  int32_t t = KindsObj::RuntimeTypeIndex();
  const std::pair<const char*, int32_t> expected[] = {
      {"f_bool", 2},       {"f_i32", 1},    {"f_f64", 3},   {"f_ptr", 4},      {"f_dtype", 5},
      {"f_device", 6},     {"f_any", -1},   {"f_str", -1},  {"f_bytes", -1},   {"f_opt_int", -1},
      {"f_opt_array", -1}, {"f_array", 71}, {"f_list", 75}, {"f_map", 64},     {"f_shape", 69},
      {"f_func", 64},      {"f_typed", 68}, {"f_ref", 64},  {"f_ptr_obj", 64}, {"f_arc_obj", 64},
      {"f_tensor", 64},    {"f_vector", 71}};
  for (const auto& kv : expected) {
    EXPECT_EQ(Field(t, kv.first)->field_static_type_index, kv.second) << kv.first;
  }
}

TEST(ReflectionFields, SizeAlignmentAndOffsetDescribeTheMember) {
  const TVMFFIFieldInfo* f = Field(KindsObj::RuntimeTypeIndex(), "f_i32");
  EXPECT_EQ(f->size, 4);
  EXPECT_EQ(f->alignment, 4);
  EXPECT_EQ(f->offset, refl::GetFieldByteOffsetToObject<KindsObj>(&KindsObj::f_i32));
  EXPECT_EQ(refl::GetFieldByteOffsetToObject<KindsObj>(&KindsObj::f_bool), 24);
}

TEST(ReflectionFields, SetterOfReadOnlyFieldIsRegistered) {
  const TVMFFIFieldInfo* f = Field(KindsObj::RuntimeTypeIndex(), "f_str");
  ASSERT_NE(f->setter, nullptr);
  ffi::ObjectPtr<KindsObj> obj = ffi::make_object<KindsObj>();
  refl::FieldSetter setter(f);
  setter(obj.get(), ffi::String("a string longer than a small one"));
  EXPECT_EQ(obj->f_str, "a string longer than a small one");
}

class MetaObj : public ffi::Object {
 public:
  int64_t v = 0;
  ffi::Array<ffi::Any> items;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("test.refl_registry.Meta", MetaObj, ffi::Object);
};

int64_t g_factory_calls = 0;

TVM_FFI_STATIC_INIT_BLOCK() {
  refl::ObjectDef<MetaObj>()
      .def_ro("v", &MetaObj::v, "the v",
              refl::Metadata{{"bool_attr", true}, {"int_attr", 1}, {"str_attr", "hello"}})
      .def_ro("items", &MetaObj::items, refl::DefaultFactory(ffi::Function::FromTyped([]() {
                ++g_factory_calls;
                return ffi::Array<ffi::Any>{g_factory_calls};
              })))
      .def(
          "get", [](const MetaObj* self) { return self->v; }, "Get v.",
          refl::Metadata{{"pure", true}});
}

TEST(ReflectionMetadata, FieldMetadataIsTypeSchemaThenUserEntries) {
  EXPECT_EQ(Str(Field(MetaObj::RuntimeTypeIndex(), "v")->metadata),
            R"({"type_schema":"{\"type\":\"int\"}","bool_attr":true,"int_attr":1,)"
            R"("str_attr":"hello"})");
}

TEST(ReflectionMetadata, DocIsARecordFieldNeverMetadata) {
  const TVMFFIMethodInfo* m = refl::GetMethodInfo("test.refl_registry.Meta", "get");
  EXPECT_EQ(Str(m->doc), "Get v.");
  EXPECT_EQ(Str(m->metadata).find("doc"), std::string::npos) << Str(m->metadata);
  EXPECT_NE(Str(m->metadata).find(R"(,"pure":true})"), std::string::npos) << Str(m->metadata);
}

TEST(ReflectionMetadata, MethodSchemaStartsWithTheObject) {
  const TVMFFIMethodInfo* m = refl::GetMethodInfo("test.refl_registry.Meta", "get");
  EXPECT_EQ(Str(m->metadata)
                .rfind(R"({"type_schema":"{\"type\":\"ffi.Function\",\"named_args\":)"
                       R"({\"return\":[{\"type\":\"int\"}],)"
                       R"(\"params\":[{\"type\":\"test.refl_registry.Meta\"}]}}")",
                       0),
            0u)
      << Str(m->metadata);
}

TEST(ReflectionMetadata, ValueOtherThanIntBoolOrStringIsATypeError) {
  EXPECT_EQ(ErrorMessage([] {
              refl::GlobalDef().def(
                  "testing.refl_registry.bad_meta", []() {}, refl::Metadata{{"k", 1.5}});
            }),
            "Metadata can be only int, bool or string, but on key `k`, the type is float");
  EXPECT_FALSE(ffi::Function::GetGlobal("testing.refl_registry.bad_meta").has_value());
}

TEST(ReflectionDefaults, FactoryRunsForEachObject) {
  const TVMFFIFieldInfo* f = Field(MetaObj::RuntimeTypeIndex(), "items");
  EXPECT_EQ(f->flags,
            kTVMFFIFieldFlagBitMaskHasDefault | kTVMFFIFieldFlagBitMaskDefaultFromFactory);
  ffi::ObjectPtr<MetaObj> a = ffi::make_object<MetaObj>();
  ffi::ObjectPtr<MetaObj> b = ffi::make_object<MetaObj>();
  int64_t before = g_factory_calls;
  refl::SetFieldToDefault(f, reinterpret_cast<char*>(a.get()) + f->offset);
  refl::SetFieldToDefault(f, reinterpret_cast<char*>(b.get()) + f->offset);
  EXPECT_EQ(g_factory_calls, before + 2);
  EXPECT_FALSE(a->items.same_as(b->items));
  EXPECT_EQ(b->items[0].cast<int64_t>(), before + 2);
}

TEST(ReflectionDefaults, DefaultOfTheWrongTypeFailsLikeAValue) {
  TVMFFIFieldInfo info = *Field(MetaObj::RuntimeTypeIndex(), "v");
  ffi::Any bad = ffi::String("x");
  info.flags = kTVMFFIFieldFlagBitMaskHasDefault;
  info.default_value_or_factory = *tvm_ffi_testing::Cell(bad);
  ffi::ObjectPtr<MetaObj> obj = ffi::make_object<MetaObj>();
  EXPECT_EQ(ErrorMessage([&] {
              refl::SetFieldToDefault(&info, reinterpret_cast<char*>(obj.get()) + info.offset);
            }),
            "Cannot convert from type `ffi.SmallStr` to `int`");
}

// ---------------------------------------------------------------------------
// Records registered through the C ABI
// ---------------------------------------------------------------------------

int32_t NewType(const char* key) {
  TVMFFIByteArray k = refl::AsByteArray(key);
  return TVMFFITypeGetOrAllocIndex(&k, -1, 1, 0, 1, kTVMFFIObject);
}

TVMFFIFieldInfo Int64Field(const char* name, int64_t offset) {
  TVMFFIFieldInfo f;
  std::memset(&f, 0, sizeof(f));
  f.name = refl::AsByteArray(name);
  f.metadata = refl::AsByteArray("{}");
  f.size = 8;
  f.alignment = 8;
  f.offset = offset;
  f.getter = ffi::detail::ReflectionFieldGetter<int64_t>;
  f.setter = reinterpret_cast<void*>(ffi::detail::ReflectionFieldSetter<int64_t>);
  f.field_static_type_index = kTVMFFIInt;
  return f;
}

TEST(ReflectionRuntime, DefaultIsDroppedWithoutTheHasDefaultFlag) {
  int32_t t = NewType("test.refl_registry.NoDefaultFlag");
  TVMFFIFieldInfo f = Int64Field("x", 24);
  f.default_value_or_factory.type_index = kTVMFFIInt;
  f.default_value_or_factory.v_int64 = 5;
  ASSERT_EQ(TVMFFITypeRegisterField(t, &f), 0);
  EXPECT_EQ(TVMFFIGetTypeInfo(t)->fields[0].default_value_or_factory.type_index, kTVMFFINone);
}

TEST(ReflectionRuntime, FieldShadowingAnAncestorsIsAllowed) {
  int32_t parent = NewType("test.refl_registry.ShadowParent");
  TVMFFIByteArray key = refl::AsByteArray("test.refl_registry.ShadowChild");
  int32_t child = TVMFFITypeGetOrAllocIndex(&key, -1, 2, 0, 1, parent);
  TVMFFIFieldInfo f = Int64Field("x", 24);
  ASSERT_EQ(TVMFFITypeRegisterField(parent, &f), 0);
  ::testing::internal::CaptureStderr();
  EXPECT_EQ(TVMFFITypeRegisterField(child, &f), 0);
  std::string warning = ::testing::internal::GetCapturedStderr();
  EXPECT_NE(warning.find("`x`"), std::string::npos) << warning;
  EXPECT_EQ(TVMFFIGetTypeInfo(child)->num_fields, 1);
}

TEST(ReflectionRuntime, FunctionSetterIsKeptAliveAndCalledWithTheFieldAddress) {
  int32_t t = NewType("test.refl_registry.FunctionSetter");
  auto seen = std::make_shared<std::vector<int64_t>>();
  ffi::Function setter = ffi::Function::FromTyped([seen](void* addr, int64_t v) {
    *static_cast<int64_t*>(addr) = v * 10;
    seen->push_back(v);
  });
  TVMFFIFieldInfo f = Int64Field("x", 24);
  f.flags = kTVMFFIFieldFlagBitSetterIsFunctionObj | kTVMFFIFieldFlagBitMaskWritable;
  f.setter = ffi::details::ObjectUnsafe::GetHeader(setter.get());
  ASSERT_EQ(TVMFFITypeRegisterField(t, &f), 0);
  EXPECT_EQ(setter.use_count(), 2);
  int64_t storage[4] = {0, 0, 0, 0};
  const TVMFFIFieldInfo* registered = &TVMFFIGetTypeInfo(t)->fields[0];
  ASSERT_EQ(refl::CallFieldSetter(registered, &storage[3], ffi::AnyView(4)), 0);
  EXPECT_EQ(storage[3], 40);
  EXPECT_EQ(*seen, std::vector<int64_t>{4});
}

TEST(ReflectionAttrs, IndexZeroOnlyCreatesTheColumn) {
  TVMFFIByteArray name = refl::AsByteArray("test.refl_registry.__ensured__");
  EXPECT_EQ(TVMFFIGetTypeAttrColumn(&name), nullptr);
  refl::EnsureTypeAttrColumn("test.refl_registry.__ensured__");
  const TVMFFITypeAttrColumn* column = TVMFFIGetTypeAttrColumn(&name);
  ASSERT_NE(column, nullptr);
  EXPECT_EQ(column->size, 0);
  EXPECT_EQ(column->begin_index, 0);
  EXPECT_EQ(refl::TypeAttrColumn("test.refl_registry.__ensured__")[kTVMFFINone].type_index(),
            kTVMFFINone);
}

TEST(ReflectionAttrs, ColumnSizeIsHighestIndexPlusOne) {
  int32_t t = NewType("test.refl_registry.AttrSize");
  TVMFFIByteArray name = refl::AsByteArray("test.refl_registry.__sized__");
  TVMFFIAny v = *tvm_ffi_testing::Cell(ffi::Any(3));
  ASSERT_EQ(TVMFFITypeRegisterAttr(t, &name, &v), 0);
  EXPECT_EQ(TVMFFIGetTypeAttrColumn(&name)->size, t + 1);
  refl::TypeAttrColumn column("test.refl_registry.__sized__");
  EXPECT_EQ(column[t].cast<int64_t>(), 3);
  EXPECT_EQ(column[t + 1000].type_index(), kTVMFFINone);
  EXPECT_EQ(column[-3].type_index(), kTVMFFINone);
}

TEST(ReflectionAttrs, NoneIntoAnEmptySlotLeavesItEmpty) {
  int32_t t = NewType("test.refl_registry.AttrNone");
  TVMFFIByteArray name = refl::AsByteArray("test.refl_registry.__none__");
  TVMFFIAny none = *tvm_ffi_testing::Cell(ffi::Any());
  ASSERT_EQ(TVMFFITypeRegisterAttr(t, &name, &none), 0);
  TVMFFIAny v = *tvm_ffi_testing::Cell(ffi::Any(1));
  EXPECT_EQ(TVMFFITypeRegisterAttr(t, &name, &v), 0);
}

TEST(ReflectionAttrs, MissingColumnIsARuntimeError) {
  EXPECT_EQ(
      ErrorMessage([] { refl::TypeAttrColumn("test.refl_registry.__never__"); }, "RuntimeError"),
      "Cannot find type attribute test.refl_registry.__never__");
}

TEST(ReflectionAttrs, StartupColumnsExist) {
  for (const char* name :
       {"__ffi_new__", "__ffi_init__", "__ffi_shallow_copy__", "__ffi_type_final__",
        "__ffi_convert__", "__ffi_repr__", "__ffi_hash__", "__ffi_eq__", "__ffi_compare__",
        "__s_equal__", "__s_hash__", "__s_visit__", "__s_mutate__", "__s_maybe_inplace_mutate__",
        "__data_to_json__", "__data_from_json__", "__any_hash__", "__any_equal__",
        "__ffi_enum__"}) {
    TVMFFIByteArray bytes = refl::AsByteArray(name);
    EXPECT_NE(TVMFFIGetTypeAttrColumn(&bytes), nullptr) << name;
  }
}

TEST(ReflectionAttrs, AttrKeyValueFromCastsStrictly) {
  refl::AttrKey<int64_t> key{"test.refl_registry.__key__"};
  EXPECT_FALSE(key.ValueFrom(ffi::AnyView()).has_value());
  EXPECT_EQ(*key.ValueFrom(ffi::AnyView(5)), 5);
  EXPECT_EQ(ErrorMessage([&] { key.ValueFrom(ffi::AnyView(1.5)); }),
            "Cannot treat type `float` as type `int`");
}

class AttrsObj : public ffi::Object {
 public:
  int64_t base = 40;
  int64_t Plus(int64_t x) const { return base + x; }
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("test.refl_registry.Attrs", AttrsObj, ffi::Object);
};

TVM_FFI_STATIC_INIT_BLOCK() {
  refl::TypeAttrDef<AttrsObj>()
      .def("__test_value__", 7)
      .def("__test_callable__", [](int64_t x) { return x + 1; })
      .def("__test_method__", &AttrsObj::Plus)
      .attr(refl::AttrKey<double>{"__test_keyed__"}, 2)
      .attr("__test_named__", "text");
}

TEST(ReflectionAttrs, TypeAttrDefStoresValuesAndWrapsCallables) {
  int32_t t = AttrsObj::RuntimeTypeIndex();
  EXPECT_EQ(refl::TypeAttrColumn("__test_value__")[t].cast<int64_t>(), 7);
  ffi::Function f = refl::TypeAttrColumn("__test_callable__")[t].cast<ffi::Function>();
  EXPECT_EQ(f(1).cast<int64_t>(), 2);
  EXPECT_EQ(refl::TypeAttrColumn("__test_keyed__")[t].type_index(), kTVMFFIFloat);
  EXPECT_EQ(refl::TypeAttrColumn("__test_named__")[t].cast<std::string>(), "text");
  // TypeAttrDef registers no metadata.
  EXPECT_EQ(TVMFFIGetTypeInfo(t)->metadata, nullptr);
}

TEST(ReflectionAttrs, ModuleTypeIsFinal) {
  int32_t module_index = kTVMFFIModule;
  EXPECT_TRUE(refl::TypeAttrColumn("__ffi_type_final__")[module_index].cast<bool>());
}

TEST(ReflectionAttrs, MemberFunctionAttributeTakesTheObjectFirst) {
  ffi::Function f =
      refl::TypeAttrColumn("__test_method__")[AttrsObj::RuntimeTypeIndex()].cast<ffi::Function>();
  ffi::ObjectRef obj(ffi::make_object<AttrsObj>());
  EXPECT_EQ(f(obj, 2).cast<int64_t>(), 42);
}

TEST(ReflectionAttrs, CallableAttributeIsNamedAfterTypeAndAttribute) {
  ffi::Function f =
      refl::TypeAttrColumn("__test_callable__")[AttrsObj::RuntimeTypeIndex()].cast<ffi::Function>();
  EXPECT_NE(ErrorMessage([&] { f(); }).find("test.refl_registry.Attrs.__test_callable__"),
            std::string::npos);
}

// ---------------------------------------------------------------------------
// GlobalDef
// ---------------------------------------------------------------------------

class CounterObj : public ffi::Object {
 public:
  int64_t count = 0;
  int64_t Add(int64_t n) {
    count += n;
    return count;
  }
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("test.refl_registry.Counter", CounterObj, ffi::Object);
};

TEST(GlobalDefMethod, MemberFunctionTakesTheObjectFirst) {
  refl::GlobalDef().def_method("testing.refl_registry.counter_add", &CounterObj::Add);
  ffi::ObjectPtr<CounterObj> c = ffi::make_object<CounterObj>();
  ffi::Function f = ffi::Function::GetGlobalRequired("testing.refl_registry.counter_add");
  EXPECT_EQ(f(ffi::ObjectRef(c), 2).cast<int64_t>(), 2);
  EXPECT_EQ(f(ffi::ObjectRef(c), 3).cast<int64_t>(), 5);
  EXPECT_TRUE(ffi::Function::RemoveGlobal("testing.refl_registry.counter_add"));
}

// ---------------------------------------------------------------------------
// py_class storage (ffi.MakeFieldGetter / MakeFieldSetter /
// ffi._PyClassRegisterTypeAttrColumns)
// ---------------------------------------------------------------------------

TEST(PyClassStorage, FieldsLiveInAZeroFilledObjectAndAreReleased) {
  int32_t t = NewType("test.refl_registry.PyClass");
  ffi::Function make_getter = ffi::Function::GetGlobalRequired("ffi.MakeFieldGetter");
  ffi::Function make_setter = ffi::Function::GetGlobalRequired("ffi.MakeFieldSetter");
  struct Spec {
    const char* name;
    int32_t kind;
    int64_t offset;
    int64_t size;
  };
  const Spec specs[] = {{"i", kTVMFFIInt, 24, 8},
                        {"any", kTVMFFIAny, 32, 16},
                        {"obj", kTVMFFIObject, 48, 8},
                        {"flag", kTVMFFIBool, 56, 1}};
  std::vector<ffi::Function> setters;
  for (const Spec& s : specs) {
    TVMFFIFieldInfo f;
    std::memset(&f, 0, sizeof(f));
    f.name = refl::AsByteArray(s.name);
    f.metadata = refl::AsByteArray("{}");
    f.flags = kTVMFFIFieldFlagBitMaskWritable | kTVMFFIFieldFlagBitSetterIsFunctionObj;
    f.size = s.size;
    f.alignment = s.size == 16 ? 8 : s.size;
    f.offset = s.offset;
    f.getter = reinterpret_cast<TVMFFIFieldGetter>(make_getter(s.kind).cast<int64_t>());
    setters.push_back(make_setter(s.kind, 0, 0).cast<ffi::Function>());
    f.setter = ffi::details::ObjectUnsafe::GetHeader(setters.back().get());
    f.field_static_type_index = s.kind;
    ASSERT_EQ(TVMFFITypeRegisterField(t, &f), 0);
  }
  ffi::Function::GetGlobalRequired("ffi._PyClassRegisterTypeAttrColumns")(t, 64);
  ffi::ObjectRef fresh =
      refl::TypeAttrColumn("__ffi_new__")[t].cast<ffi::Function>()().cast<ffi::ObjectRef>();
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(t);
  EXPECT_EQ(refl::FieldGetter(&info->fields[0])(fresh).cast<int64_t>(), 0);
  EXPECT_EQ(refl::FieldGetter(&info->fields[1])(fresh).type_index(), kTVMFFINone);
  EXPECT_EQ(refl::FieldGetter(&info->fields[2])(fresh).type_index(), kTVMFFINone);

  ffi::ObjectRef held(ffi::make_object<ffi::Object>());
  ffi::Function init = refl::TypeAttrColumn("__ffi_init__")[t].cast<ffi::Function>();
  ffi::ObjectRef obj = init(5, ffi::String("a long string stored in the Any field"), held, true)
                           .cast<ffi::ObjectRef>();
  EXPECT_EQ(held.use_count(), 2);
  EXPECT_EQ(refl::FieldGetter(&info->fields[0])(obj).cast<int64_t>(), 5);
  EXPECT_EQ(refl::FieldGetter(&info->fields[1])(obj).cast<std::string>(),
            "a long string stored in the Any field");
  EXPECT_TRUE(refl::FieldGetter(&info->fields[2])(obj).cast<ffi::ObjectRef>().same_as(held));
  EXPECT_EQ(refl::FieldGetter(&info->fields[3])(obj).cast<bool>(), true);
  EXPECT_EQ(ErrorMessage([&] {
              init("x", 1, held, true);
            }).rfind("test.refl_registry.PyClass.__ffi_init__() field 'i':\n  ", 0),
            0u);

  ffi::ObjectRef copy = refl::TypeAttrColumn("__ffi_shallow_copy__")[t]
                            .cast<ffi::Function>()(obj)
                            .cast<ffi::ObjectRef>();
  EXPECT_EQ(held.use_count(), 3);
  EXPECT_EQ(refl::FieldGetter(&info->fields[0])(copy).cast<int64_t>(), 5);
  obj = ffi::ObjectRef();
  copy = ffi::ObjectRef();
  EXPECT_EQ(held.use_count(), 1);
}

}  // namespace

namespace {

TEST(BuiltinTypeAttrs, ShapeConvertTakesShapesAndSequencesOfInts) {
  ffi::Function convert =
      refl::TypeAttrColumn("__ffi_convert__")[kTVMFFIShape].cast<ffi::Function>();
  ffi::Shape shape({1, 2});
  EXPECT_TRUE(convert(shape).cast<ffi::Shape>().same_as(shape));
  ffi::Shape from_array = convert(ffi::Array<ffi::Any>{1, 2}).cast<ffi::Shape>();
  EXPECT_EQ(std::vector<int64_t>(from_array.begin(), from_array.end()),
            (std::vector<int64_t>{1, 2}));
  ffi::Shape from_list = convert(ffi::List<ffi::Any>{3}).cast<ffi::Shape>();
  EXPECT_EQ(std::vector<int64_t>(from_list.begin(), from_list.end()), (std::vector<int64_t>{3}));
}

TEST(BuiltinTypeAttrs, ShapeConvertRefusesSequencesOfOtherValues) {
  ffi::Function convert =
      refl::TypeAttrColumn("__ffi_convert__")[kTVMFFIShape].cast<ffi::Function>();
  EXPECT_EQ(ErrorMessage([&] { convert(ffi::Array<ffi::Any>{1, 2.5}); }),
            "Cannot cast from `ffi.Array` to `ffi.Shape`");
  EXPECT_EQ(ErrorMessage([&] { convert(ffi::Array<ffi::Any>{true}); }),
            "Cannot cast from `ffi.Array` to `ffi.Shape`");
}

TEST(BuiltinTypeAttrs, CoreObjectTypesHaveAConvert) {
  refl::TypeAttrColumn column("__ffi_convert__");
  for (int32_t index : {kTVMFFIObject, kTVMFFIFunction, kTVMFFIError, kTVMFFIStr, kTVMFFIBytes,
                        kTVMFFIArray, kTVMFFIList, kTVMFFIMap, kTVMFFIDict, kTVMFFITensor}) {
    EXPECT_EQ(column[index].type_index(), kTVMFFIFunction) << index;
  }
  ffi::Function to_function = column[kTVMFFIFunction].cast<ffi::Function>();
  EXPECT_EQ(ErrorMessage([&] { to_function(1); }), "Cannot cast from `int` to `ffi.Function`");
}

}  // namespace
