// reflection::ObjectDef and the records it registers: fields (offsets, flags,
// metadata, static type indices, getters and setters), methods, explicit and
// generated constructors, standard type attributes; accessor.h and creator.h.
#include <gtest/gtest.h>
#include <tvm/ffi/any.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/map.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/memory.h>
#include <tvm/ffi/object.h>
#include <tvm/ffi/optional.h>
#include <tvm/ffi/reflection/accessor.h>
#include <tvm/ffi/reflection/creator.h>
#include <tvm/ffi/reflection/registry.h>
#include <tvm/ffi/string.h>

#include <functional>
#include <initializer_list>
#include <string>
#include <string_view>

namespace {

namespace ffi = tvm::ffi;
namespace refl = tvm::ffi::reflection;

class RPointObj : public ffi::Object {
 public:
  int64_t x = 0;
  double y = 0;
  ffi::String label;
  static constexpr bool _type_mutable = true;
  int64_t Shifted(int64_t by) const { return x + by; }
  void Bump() { ++x; }
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("test.reflection.Point", RPointObj, ffi::Object);
};

class RPoint : public ffi::ObjectRef {
 public:
  int64_t Twice() const { return get()->x * 2; }
  TVM_FFI_DEFINE_OBJECT_REF_METHODS_NULLABLE(RPoint, ffi::ObjectRef, RPointObj);
};

class RBaseObj : public ffi::Object {
 public:
  int64_t a = 0;
  TVM_FFI_DECLARE_OBJECT_INFO("test.reflection.Base", RBaseObj, ffi::Object);
};

class RDerivedObj : public RBaseObj {
 public:
  ffi::Any b;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("test.reflection.Derived", RDerivedObj, RBaseObj);
};

// Only an explicit constructor: not created by reflection, no generated init.
class RExplicitObj : public ffi::Object {
 public:
  int64_t v;
  explicit RExplicitObj(int64_t v) : v(v) {}
  RExplicitObj(const RExplicitObj&) = delete;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("test.reflection.Explicit", RExplicitObj, ffi::Object);
};

// Created through the UnsafeInit constructor.
class RUnsafeInitObj : public ffi::Object {
 public:
  int64_t v;
  explicit RUnsafeInitObj(int64_t v) : v(v) {}
  explicit RUnsafeInitObj(ffi::UnsafeInit) : v(-1) {}
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("test.reflection.UnsafeInit", RUnsafeInitObj, ffi::Object);
};

TVM_FFI_STATIC_INIT_BLOCK() {
  refl::ObjectDef<RPointObj>("A point.")
      .def_ro("x", &RPointObj::x, "the x coordinate")
      .def_rw("y", &RPointObj::y, refl::DefaultValue(2.5),
              refl::Metadata{{"unit", "m"}, {"flag", true}, {"n", 7}})
      .def_rw("label", &RPointObj::label, refl::DefaultValue("none"), refl::kw_only(true))
      .def("shifted", &RPointObj::Shifted, "x + by")
      .def("bump", &RPointObj::Bump)
      .def("twice", &RPoint::Twice)
      .def("plus_y", [](const RPointObj* self, double d) { return self->y + d; })
      .def_static("origin", []() { return RPoint(ffi::make_object<RPointObj>()); });
  refl::ObjectDef<RBaseObj>().def_ro("a", &RBaseObj::a, refl::DefaultValue(1));
  refl::ObjectDef<RDerivedObj>()
      .def_ro("b", &RDerivedObj::b)
      .def_ro("a_again", &RBaseObj::a, refl::init(false));
  refl::ObjectDef<RExplicitObj>()
      .def_ro("v", &RExplicitObj::v)
      .def(refl::init<int64_t>(), "Make one.");
  refl::ObjectDef<RUnsafeInitObj>().def_ro("v", &RUnsafeInitObj::v);
}

const TVMFFITypeInfo* InfoOf(int32_t type_index) { return TVMFFIGetTypeInfo(type_index); }

std::string Str(const TVMFFIByteArray& b) { return std::string(b.data, b.size); }

ffi::AnyView AttrOf(const char* column, int32_t type_index) {
  return refl::TypeAttrColumn(column)[type_index];
}

ffi::Function InitOf(int32_t type_index) {
  return AttrOf("__ffi_init__", type_index).cast<ffi::Function>();
}

TEST(ObjectDef, RegistersMetadataWithCreatorSizeAndDoc) {
  const TVMFFITypeInfo* info = InfoOf(RPointObj::RuntimeTypeIndex());
  ASSERT_NE(info->metadata, nullptr);
  EXPECT_EQ(Str(info->metadata->doc), "A point.");
  EXPECT_EQ(info->metadata->total_size, static_cast<int32_t>(sizeof(RPointObj)));
  EXPECT_EQ(info->metadata->structural_eq_hash_kind, kTVMFFISEqHashKindUnsupported);
  EXPECT_NE(info->metadata->creator, nullptr);
  EXPECT_EQ(InfoOf(RExplicitObj::RuntimeTypeIndex())->metadata->creator, nullptr);
}

TEST(ObjectDef, FieldRecordsDescribeTheMembers) {
  const TVMFFITypeInfo* info = InfoOf(RPointObj::RuntimeTypeIndex());
  ASSERT_EQ(info->num_fields, 3);
  const TVMFFIFieldInfo& x = info->fields[0];
  EXPECT_EQ(Str(x.name), "x");
  EXPECT_EQ(Str(x.doc), "the x coordinate");
  EXPECT_EQ(Str(x.metadata), R"({"type_schema":"{\"type\":\"int\"}"})");
  EXPECT_EQ(x.flags, 0);
  EXPECT_EQ(x.offset, 24);
  EXPECT_EQ(x.size, 8);
  EXPECT_EQ(x.alignment, 8);
  EXPECT_EQ(x.field_static_type_index, kTVMFFIInt);
  EXPECT_EQ(x.default_value_or_factory.type_index, kTVMFFINone);
  const TVMFFIFieldInfo& y = info->fields[1];
  EXPECT_EQ(y.flags, kTVMFFIFieldFlagBitMaskWritable | kTVMFFIFieldFlagBitMaskHasDefault);
  EXPECT_EQ(Str(y.metadata),
            R"({"type_schema":"{\"type\":\"float\"}","unit":"m","flag":true,"n":7})");
  EXPECT_EQ(y.field_static_type_index, kTVMFFIFloat);
  EXPECT_EQ(y.default_value_or_factory.type_index, kTVMFFIFloat);
  const TVMFFIFieldInfo& label = info->fields[2];
  EXPECT_EQ(label.flags, kTVMFFIFieldFlagBitMaskWritable | kTVMFFIFieldFlagBitMaskHasDefault |
                             kTVMFFIFieldFlagBitMaskKwOnly);
  EXPECT_EQ(label.field_static_type_index, kTVMFFIAny);
}

TEST(ObjectDef, FieldGetterAndSetterConvertWithTheMemberType) {
  ffi::ObjectPtr<RPointObj> p = ffi::make_object<RPointObj>();
  p->x = 4;
  EXPECT_EQ(refl::FieldGetter("test.reflection.Point", "x")(p.get()).cast<int64_t>(), 4);
  refl::FieldSetter set_y("test.reflection.Point", "y");
  set_y(p.get(), 3);  // int converts to the double member
  EXPECT_EQ(p->y, 3.0);
  try {
    set_y(p.get(), ffi::String("text"));
    FAIL() << "expected a TypeError";
  } catch (const ffi::Error& err) {
    EXPECT_EQ(err.kind(), "TypeError");
    EXPECT_NE(err.message().find("Cannot convert from type `ffi.SmallStr` to `float`"),
              std::string::npos)
        << err.message();
  }
}

TEST(ObjectDef, MethodsAreWrappedWithTheObjectFirst) {
  ffi::ObjectPtr<RPointObj> p = ffi::make_object<RPointObj>();
  p->x = 5;
  p->y = 0.5;
  ffi::ObjectRef ref(p);
  EXPECT_EQ(refl::GetMethod("test.reflection.Point", "shifted")(ref, 3).cast<int64_t>(), 8);
  refl::GetMethod("test.reflection.Point", "bump")(ref);
  EXPECT_EQ(p->x, 6);
  EXPECT_EQ(refl::GetMethod("test.reflection.Point", "twice")(ref).cast<int64_t>(), 12);
  EXPECT_EQ(refl::GetMethod("test.reflection.Point", "plus_y")(ref, 1.0).cast<double>(), 1.5);
  const TVMFFIMethodInfo* shifted = refl::GetMethodInfo("test.reflection.Point", "shifted");
  EXPECT_EQ(Str(shifted->doc), "x + by");
  EXPECT_EQ(shifted->flags, 0);
  const TVMFFIMethodInfo* origin = refl::GetMethodInfo("test.reflection.Point", "origin");
  EXPECT_EQ(origin->flags, kTVMFFIFieldFlagBitMaskIsStaticMethod);
  EXPECT_EQ(refl::GetMethod("test.reflection.Point", "origin")().cast<RPoint>()->x, 0);
}

TEST(ObjectDef, GeneratedInitBindsPositionalKeywordAndDefaults) {
  ffi::ObjectRef kwargs =
      ffi::Function::GetGlobalRequired("ffi.GetKwargsObject")().cast<ffi::ObjectRef>();
  RPoint p = InitOf(RPointObj::RuntimeTypeIndex())(1, kwargs, "label", "q").cast<RPoint>();
  EXPECT_EQ(p->x, 1);
  EXPECT_EQ(p->y, 2.5);
  EXPECT_EQ(p->label, "q");
  RPoint q = InitOf(RPointObj::RuntimeTypeIndex())(2, 4.0).cast<RPoint>();
  EXPECT_EQ(q->y, 4.0);
  EXPECT_EQ(q->label, "none");
}

TEST(ObjectDef, ExplicitInitIsAStaticMethodAndTheInitAttribute) {
  const TVMFFIMethodInfo* m = refl::GetMethodInfo("test.reflection.Explicit", "__ffi_init__");
  EXPECT_EQ(m->flags, kTVMFFIFieldFlagBitMaskIsStaticMethod);
  EXPECT_EQ(Str(m->doc), "Make one.");
  ffi::ObjectRef obj = InitOf(RExplicitObj::RuntimeTypeIndex())(9).cast<ffi::ObjectRef>();
  EXPECT_EQ(static_cast<const RExplicitObj*>(obj.get())->v, 9);
  EXPECT_EQ(AttrOf("__ffi_new__", RExplicitObj::RuntimeTypeIndex()).type_index(), kTVMFFINone);
  EXPECT_EQ(AttrOf("__ffi_shallow_copy__", RExplicitObj::RuntimeTypeIndex()).type_index(),
            kTVMFFINone);
}

TEST(ObjectDef, StandardAttributesAreRegistered) {
  int32_t idx = RPointObj::RuntimeTypeIndex();
  EXPECT_EQ(AttrOf("__ffi_type_final__", idx).cast<bool>(), true);
  EXPECT_EQ(AttrOf("__ffi_type_final__", RBaseObj::RuntimeTypeIndex()).cast<bool>(), false);
  ffi::ObjectPtr<RPointObj> p = ffi::make_object<RPointObj>();
  p->x = 11;
  ffi::ObjectRef copy =
      AttrOf("__ffi_shallow_copy__", idx).cast<ffi::Function>()(p.get()).cast<ffi::ObjectRef>();
  EXPECT_NE(copy.get(), p.get());
  EXPECT_EQ(static_cast<const RPointObj*>(copy.get())->x, 11);
  ffi::ObjectRef fresh = AttrOf("__ffi_new__", idx).cast<ffi::Function>()().cast<ffi::ObjectRef>();
  EXPECT_EQ(fresh->type_index(), idx);
}

TEST(ObjectDef, UnsafeInitConstructorBecomesTheCreator) {
  const TVMFFITypeInfo* info = InfoOf(RUnsafeInitObj::RuntimeTypeIndex());
  ASSERT_TRUE(refl::HasCreator(info));
  ffi::ObjectPtr<ffi::Object> obj = refl::CreateEmptyObject(info);
  EXPECT_EQ(static_cast<RUnsafeInitObj*>(obj.get())->v, -1);
  ffi::ObjectRef made = InitOf(info->type_index)(5).cast<ffi::ObjectRef>();
  EXPECT_EQ(static_cast<const RUnsafeInitObj*>(made.get())->v, 5);
}

TEST(ObjectDef, ForEachFieldInfoVisitsAncestorsFirst) {
  std::string names;
  refl::ForEachFieldInfo(InfoOf(RDerivedObj::RuntimeTypeIndex()),
                         [&](const TVMFFIFieldInfo* f) { names += Str(f->name) + ","; });
  EXPECT_EQ(names, "a,b,a_again,");
}

TEST(ObjectCreator, FillsGivenFieldsAndDefaults) {
  refl::ObjectCreator creator("test.reflection.Point");
  RPoint p = creator(ffi::Map<ffi::String, ffi::Any>{{"x", 3}}).cast<RPoint>();
  EXPECT_EQ(p->x, 3);
  EXPECT_EQ(p->y, 2.5);
  EXPECT_EQ(p->label, "none");
}

TEST(ObjectCreator, MissingRequiredFieldIsATypeError) {
  refl::ObjectCreator creator("test.reflection.Point");
  try {
    creator(ffi::Map<ffi::String, ffi::Any>{});
    FAIL() << "expected a TypeError";
  } catch (const ffi::Error& err) {
    EXPECT_EQ(err.kind(), "TypeError");
    EXPECT_EQ(err.message(), "Required field `x` not set in type `test.reflection.Point`");
  }
}

TEST(ObjectCreator, TypeWithoutCreatorIsRejected) {
  try {
    refl::ObjectCreator creator("test.reflection.Explicit");
    FAIL() << "expected a RuntimeError";
  } catch (const ffi::Error& err) {
    EXPECT_EQ(err.kind(), "RuntimeError");
    EXPECT_EQ(err.message(),
              "Type `test.reflection.Explicit` does not support default constructor, as a result "
              "cannot be created via reflection");
  }
}

TEST(TypeKeyHash, IsLibstdcxxStringViewHash) {
  EXPECT_EQ(InfoOf(kTVMFFIArray)->type_key_hash, 9300778484448642049ULL);
#if defined(__GLIBCXX__)
  // Keys of every length modulo 8 (the tail is hashed separately).
  for (int32_t index : std::initializer_list<int32_t>{
           kTVMFFIObject, kTVMFFIStr, kTVMFFIMap, kTVMFFIBigInt, kTVMFFINone,
           RPointObj::RuntimeTypeIndex(), RDerivedObj::RuntimeTypeIndex()}) {
    const TVMFFITypeInfo* info = InfoOf(index);
    std::string_view key(info->type_key.data, info->type_key.size);
    EXPECT_EQ(info->type_key_hash, std::hash<std::string_view>()(key)) << key;
  }
#endif
}

}  // namespace
