/*
 * Reflected test types of libtvm_ffi_testing, registered with
 * reflection::ObjectDef under the keys the Python suites use
 * ("testing.TestObjectBase", "testing.TestCxxAutoInit", ...): plain and
 * derived field holders, an explicit constructor with __ffi_convert__, a
 * non-copyable type, and the field layouts that exercise the generated
 * __ffi_init__ (required, defaulted, init-off and keyword-only fields),
 * Any/ObjectRef fields for deep copy (TestDeepCopyEdges) and layouts that
 * reflection does not cover (TestCxxClassHiddenField, TestCxxClassPolymorphic).
 * Also the globals testing.make_unregistered_object,
 * testing.object_use_count and testing.TestIntPairSum.
 */
#include <tvm/ffi/any.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/map.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/memory.h>
#include <tvm/ffi/object.h>
#include <tvm/ffi/optional.h>
#include <tvm/ffi/reflection/registry.h>
#include <tvm/ffi/string.h>

#include <cstdint>

TVM_FFI_NAMESPACE_BEGIN
namespace testing {

class TestObjectBaseObj : public Object {
 public:
  int64_t v_i64 = 0;
  double v_f64 = 0;
  String v_str;

  int64_t AddI64(int64_t other) const { return v_i64 + other; }

  static constexpr bool _type_mutable = true;
  TVM_FFI_DECLARE_OBJECT_INFO("testing.TestObjectBase", TestObjectBaseObj, Object);
};

class TestObjectBase : public ObjectRef {
 public:
  TVM_FFI_DEFINE_OBJECT_REF_METHODS_NOTNULLABLE(TestObjectBase, ObjectRef, TestObjectBaseObj);
};

class TestObjectDerivedObj : public TestObjectBaseObj {
 public:
  Map<Any, Any> v_map;
  Array<Any> v_array;

  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("testing.TestObjectDerived", TestObjectDerivedObj,
                                    TestObjectBaseObj);
};

class TestIntPairObj : public Object {
 public:
  int64_t a;
  int64_t b;

  TestIntPairObj(int64_t a, int64_t b) : a(a), b(b) {}
  // Lets reflection (serialization, ObjectCreator) create one and fill the fields.
  explicit TestIntPairObj(UnsafeInit) : a(0), b(0) {}
  int64_t Sum() const { return a + b; }

  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("testing.TestIntPair", TestIntPairObj, Object);
};

class TestIntPair : public ObjectRef {
 public:
  TVM_FFI_DEFINE_OBJECT_REF_METHODS_NOTNULLABLE(TestIntPair, ObjectRef, TestIntPairObj);
};

class TestObjectPtrHolderObj : public Object {
 public:
  TestObjectBase value{UnsafeInit{}};
  Optional<TestObjectBase> optional_value;

  static constexpr bool _type_mutable = true;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("testing.TestObjectPtrHolder", TestObjectPtrHolderObj, Object);
};

class TestNonCopyableObj : public Object {
 public:
  int64_t value = 0;

  TestNonCopyableObj() = default;
  explicit TestNonCopyableObj(int64_t value) : value(value) {}
  TestNonCopyableObj(const TestNonCopyableObj&) = delete;
  TestNonCopyableObj& operator=(const TestNonCopyableObj&) = delete;

  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("testing.TestNonCopyable", TestNonCopyableObj, Object);
};

// Declared frozen on the Python side; reflects no fields.
class TestFrozenCxxObj : public Object {
 public:
  int64_t value = 0;
  String tag;

  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("testing.TestFrozenCxx", TestFrozenCxxObj, Object);
};

// Fields end at offset 36 (subclasses defined in Python continue there).
class TestCxxClassBaseObj : public Object {
 public:
  int64_t v_i64 = 0;
  int32_t v_i32 = 0;

  TestCxxClassBaseObj() = default;
  // The explicit constructor stores visibly modified values.
  TestCxxClassBaseObj(int64_t v_i64, int32_t v_i32) : v_i64(v_i64 + 1), v_i32(v_i32 + 2) {}

  static constexpr bool _type_mutable = true;
  TVM_FFI_DECLARE_OBJECT_INFO("testing.TestCxxClassBase", TestCxxClassBaseObj, Object);
};

class TestCxxClassDerivedObj : public TestCxxClassBaseObj {
 public:
  double v_f64 = 0;
  float v_f32 = 0;

  TVM_FFI_DECLARE_OBJECT_INFO("testing.TestCxxClassDerived", TestCxxClassDerivedObj,
                              TestCxxClassBaseObj);
};

class TestCxxClassDerivedDerivedObj : public TestCxxClassDerivedObj {
 public:
  String v_str;
  bool v_bool = false;

  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("testing.TestCxxClassDerivedDerived",
                                    TestCxxClassDerivedDerivedObj, TestCxxClassDerivedObj);
};

class TestCxxInitSubsetObj : public Object {
 public:
  int64_t required_field = 0;
  int64_t optional_field = 0;
  String note;

  static constexpr bool _type_mutable = true;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("testing.TestCxxInitSubset", TestCxxInitSubsetObj, Object);
};

class TestCxxKwOnlyObj : public Object {
 public:
  int64_t x = 0;
  int64_t y = 0;
  int64_t z = 0;
  int64_t w = 0;

  static constexpr bool _type_mutable = true;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("testing.TestCxxKwOnly", TestCxxKwOnlyObj, Object);
};

class TestCxxAutoInitObj : public Object {
 public:
  int64_t a = 0;
  int64_t b = 0;
  int64_t c = 0;
  int64_t d = 0;

  static constexpr bool _type_mutable = true;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("testing.TestCxxAutoInit", TestCxxAutoInitObj, Object);
};

class TestCxxAutoInitSimpleObj : public Object {
 public:
  int64_t x = 0;
  int64_t y = 0;

  static constexpr bool _type_mutable = true;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("testing.TestCxxAutoInitSimple", TestCxxAutoInitSimpleObj,
                                    Object);
};

class TestCxxAutoInitAllInitOffObj : public Object {
 public:
  int64_t x = 0;
  int64_t y = 0;
  int64_t z = 1234;  // No reflected default: a fresh object keeps the C++ initializer.

  static constexpr bool _type_mutable = true;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("testing.TestCxxAutoInitAllInitOff",
                                    TestCxxAutoInitAllInitOffObj, Object);
};

class TestCxxAutoInitKwOnlyDefaultsObj : public Object {
 public:
  int64_t p_required = 0;
  int64_t p_default = 0;
  int64_t k_required = 0;
  int64_t k_default = 0;
  int64_t hidden = 0;

  static constexpr bool _type_mutable = true;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("testing.TestCxxAutoInitKwOnlyDefaults",
                                    TestCxxAutoInitKwOnlyDefaultsObj, Object);
};

class TestCxxAutoInitParentObj : public Object {
 public:
  int64_t parent_required = 0;
  int64_t parent_default = 0;

  static constexpr bool _type_mutable = true;
  TVM_FFI_DECLARE_OBJECT_INFO("testing.TestCxxAutoInitParent", TestCxxAutoInitParentObj, Object);
};

class TestCxxAutoInitChildObj : public TestCxxAutoInitParentObj {
 public:
  int64_t child_required = 0;
  int64_t child_kw_only = 0;

  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("testing.TestCxxAutoInitChild", TestCxxAutoInitChildObj,
                                    TestCxxAutoInitParentObj);
};

class TestCxxNoAutoInitObj : public Object {
 public:
  int64_t x = 0;
  int64_t y = 0;

  static constexpr bool _type_mutable = true;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("testing.TestCxxNoAutoInit", TestCxxNoAutoInitObj, Object);
};

// A type no Python class is registered for (Python builds a fallback class).
class TestUnregisteredBaseObj : public Object {
 public:
  int64_t v1 = 0;

  TestUnregisteredBaseObj() = default;
  explicit TestUnregisteredBaseObj(int64_t v1) : v1(v1) {}
  int64_t GetV1PlusOne() const { return v1 + 1; }

  TVM_FFI_DECLARE_OBJECT_INFO("testing.TestUnregisteredBaseObject", TestUnregisteredBaseObj,
                              Object);
};

class TestUnregisteredObj : public TestUnregisteredBaseObj {
 public:
  int64_t v2 = 0;

  TestUnregisteredObj() = default;
  TestUnregisteredObj(int64_t v1, int64_t v2) : TestUnregisteredBaseObj(v1), v2(v2) {}
  int64_t GetV2PlusTwo() const { return v2 + 2; }

  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("testing.TestUnregisteredObject", TestUnregisteredObj,
                                    TestUnregisteredBaseObj);
};

// Deep copy of values held in an Any field and in an ObjectRef field.
class TestDeepCopyEdgesObj : public Object {
 public:
  Any v_any;
  ObjectRef v_obj;

  static constexpr bool _type_mutable = true;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("testing.TestDeepCopyEdges", TestDeepCopyEdgesObj, Object);
};

// Reflected fields that do not cover the object: `hidden` (bytes 32-40) is not reflected.
class TestCxxClassHiddenFieldObj : public Object {
 public:
  int64_t v_i64 = 0;
  int64_t hidden = 0;
  int32_t v_i32 = 0;

  static constexpr bool _type_mutable = true;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("testing.TestCxxClassHiddenField", TestCxxClassHiddenFieldObj,
                                    Object);
};

// A class with a vtable pointer among its bytes, which no field describes.
class TestCxxClassPolymorphicObj : public Object {
 public:
  int64_t v_i64 = 0;

  virtual ~TestCxxClassPolymorphicObj() = default;
  virtual int64_t Value() const { return v_i64; }

  static constexpr bool _type_mutable = true;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("testing.TestCxxClassPolymorphic", TestCxxClassPolymorphicObj,
                                    Object);
};

TVM_FFI_STATIC_INIT_BLOCK() {
  namespace refl = tvm::ffi::reflection;
  refl::ObjectDef<TestObjectBaseObj>()
      .def_rw("v_i64", &TestObjectBaseObj::v_i64, refl::DefaultValue(10), "i64 field")
      .def_ro("v_f64", &TestObjectBaseObj::v_f64, refl::DefaultValue(10.0))
      .def_rw("v_str", &TestObjectBaseObj::v_str, refl::DefaultValue("hello"))
      .def("add_i64", &TestObjectBaseObj::AddI64, "add_i64 method");
  refl::ObjectDef<TestObjectDerivedObj>()
      .def_rw("v_map", &TestObjectDerivedObj::v_map)
      .def_rw("v_array", &TestObjectDerivedObj::v_array);
  refl::ObjectDef<TestIntPairObj>()
      .def_ro("a", &TestIntPairObj::a, "Field `a`")
      .def_ro("b", &TestIntPairObj::b, "Field `b`")
      .def(refl::init<int64_t, int64_t>())
      .def("sum", &TestIntPairObj::Sum, "Method to compute sum of a and b")
      .def_convert<TestIntPair>();
  refl::ObjectDef<TestObjectPtrHolderObj>()
      .def_rw("value", &TestObjectPtrHolderObj::value)
      .def_rw("optional_value", &TestObjectPtrHolderObj::optional_value, refl::DefaultValue(Any()));
  refl::ObjectDef<TestNonCopyableObj>()
      .def(refl::init<int64_t>())
      .def_ro("value", &TestNonCopyableObj::value);
  refl::ObjectDef<TestFrozenCxxObj>();
  refl::ObjectDef<TestCxxClassBaseObj>()
      .def_rw("v_i64", &TestCxxClassBaseObj::v_i64, refl::repr(false))
      .def_rw("v_i32", &TestCxxClassBaseObj::v_i32, refl::repr(false))
      .def(refl::init<int64_t, int32_t>());
  refl::ObjectDef<TestCxxClassDerivedObj>()
      .def_rw("v_f64", &TestCxxClassDerivedObj::v_f64)
      .def_rw("v_f32", &TestCxxClassDerivedObj::v_f32, refl::DefaultValue(8.0));
  refl::ObjectDef<TestCxxClassDerivedDerivedObj>()
      .def_rw("v_str", &TestCxxClassDerivedDerivedObj::v_str, refl::DefaultValue("default"))
      .def_rw("v_bool", &TestCxxClassDerivedDerivedObj::v_bool);
  refl::ObjectDef<TestCxxInitSubsetObj>()
      .def_rw("required_field", &TestCxxInitSubsetObj::required_field)
      .def_rw("optional_field", &TestCxxInitSubsetObj::optional_field, refl::init(false),
              refl::DefaultValue(-1))
      .def_rw("note", &TestCxxInitSubsetObj::note, refl::init(false),
              refl::DefaultValue("default"));
  refl::ObjectDef<TestCxxKwOnlyObj>()
      .def_rw("x", &TestCxxKwOnlyObj::x, refl::kw_only(true))
      .def_rw("y", &TestCxxKwOnlyObj::y, refl::kw_only(true))
      .def_rw("z", &TestCxxKwOnlyObj::z, refl::kw_only(true))
      .def_rw("w", &TestCxxKwOnlyObj::w, refl::kw_only(true), refl::DefaultValue(100));
  refl::ObjectDef<TestCxxAutoInitObj>()
      .def_rw("a", &TestCxxAutoInitObj::a)
      .def_rw("b", &TestCxxAutoInitObj::b, refl::init(false), refl::DefaultValue(42))
      .def_rw("c", &TestCxxAutoInitObj::c, refl::kw_only(true))
      .def_rw("d", &TestCxxAutoInitObj::d, refl::DefaultValue(99));
  refl::ObjectDef<TestCxxAutoInitSimpleObj>()
      .def_rw("x", &TestCxxAutoInitSimpleObj::x)
      .def_rw("y", &TestCxxAutoInitSimpleObj::y);
  refl::ObjectDef<TestCxxAutoInitAllInitOffObj>()
      .def_rw("x", &TestCxxAutoInitAllInitOffObj::x, refl::init(false), refl::DefaultValue(7))
      .def_rw("y", &TestCxxAutoInitAllInitOffObj::y, refl::init(false), refl::DefaultValue(9))
      .def_rw("z", &TestCxxAutoInitAllInitOffObj::z, refl::init(false));
  refl::ObjectDef<TestCxxAutoInitKwOnlyDefaultsObj>()
      .def_rw("p_required", &TestCxxAutoInitKwOnlyDefaultsObj::p_required)
      .def_rw("p_default", &TestCxxAutoInitKwOnlyDefaultsObj::p_default, refl::DefaultValue(11))
      .def_rw("k_required", &TestCxxAutoInitKwOnlyDefaultsObj::k_required, refl::kw_only(true))
      .def_rw("k_default", &TestCxxAutoInitKwOnlyDefaultsObj::k_default, refl::kw_only(true),
              refl::DefaultValue(22))
      .def_rw("hidden", &TestCxxAutoInitKwOnlyDefaultsObj::hidden, refl::init(false),
              refl::DefaultValue(33));
  refl::ObjectDef<TestCxxAutoInitParentObj>()
      .def_rw("parent_required", &TestCxxAutoInitParentObj::parent_required)
      .def_rw("parent_default", &TestCxxAutoInitParentObj::parent_default, refl::DefaultValue(5));
  refl::ObjectDef<TestCxxAutoInitChildObj>()
      .def_rw("child_required", &TestCxxAutoInitChildObj::child_required)
      .def_rw("child_kw_only", &TestCxxAutoInitChildObj::child_kw_only, refl::kw_only(true));
  refl::ObjectDef<TestCxxNoAutoInitObj>(refl::init(false))
      .def_rw("x", &TestCxxNoAutoInitObj::x)
      .def_rw("y", &TestCxxNoAutoInitObj::y);
  refl::ObjectDef<TestUnregisteredBaseObj>()
      .def(refl::init<int64_t>(), "Constructor of TestUnregisteredBaseObject")
      .def_ro("v1", &TestUnregisteredBaseObj::v1)
      .def("get_v1_plus_one", &TestUnregisteredBaseObj::GetV1PlusOne,
           "Get (v1 + 1) from TestUnregisteredBaseObject");
  refl::ObjectDef<TestUnregisteredObj>()
      .def(refl::init<int64_t, int64_t>(), "Constructor of TestUnregisteredObject")
      .def_ro("v2", &TestUnregisteredObj::v2)
      .def("get_v2_plus_two", &TestUnregisteredObj::GetV2PlusTwo,
           "Get (v2 + 2) from TestUnregisteredObject");
  refl::ObjectDef<TestDeepCopyEdgesObj>()
      .def_rw("v_any", &TestDeepCopyEdgesObj::v_any)
      .def_rw("v_obj", &TestDeepCopyEdgesObj::v_obj);
  refl::ObjectDef<TestCxxClassHiddenFieldObj>()
      .def_rw("v_i64", &TestCxxClassHiddenFieldObj::v_i64)
      .def_rw("v_i32", &TestCxxClassHiddenFieldObj::v_i32);
  refl::ObjectDef<TestCxxClassPolymorphicObj>().def_rw("v_i64", &TestCxxClassPolymorphicObj::v_i64);

  refl::GlobalDef()
      .def(
          "testing.make_unregistered_object",
          []() { return ObjectRef(make_object<TestUnregisteredObj>(41, 42)); },
          "An object of a type that has no Python class (v1 = 41, v2 = 42).")
      .def(
          "testing.object_use_count",
          [](const ObjectRef& obj) -> int64_t {
            // Not counting the reference held by this call's argument.
            return obj.use_count() - 1;
          },
          "The strong reference count of an object, not counting the call's own argument.")
      .def(
          "testing.TestIntPairSum", [](TestIntPair pair) -> int64_t { return pair->Sum(); },
          "a + b of a testing.TestIntPair.");
}

}  // namespace testing
TVM_FFI_NAMESPACE_END
