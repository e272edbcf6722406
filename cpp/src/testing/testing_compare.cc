/*
 * Reflected test types of libtvm_ffi_testing for the recursive comparison and
 * hash (ffi.RecursiveEq/Lt/.../Hash), under the keys the Python suites use:
 *   testing.TestCompare        key, name, ignored_field (compare off)
 *   testing.TestHash           key, name, hash_ignored (hash off)
 *   testing.TestCustomHash     key, label; __ffi_hash__ hashes the key only
 *   testing.TestCustomCompare  key, label; __ffi_hash__, __ffi_eq__ and
 *                              __ffi_compare__ look at the key only
 *   testing.TestEqWithoutHash  key, label; __ffi_eq__ on the key, no hash
 * Every field is read-only and every type has the explicit constructor
 * (key, name/label[, third]).
 */
#include <tvm/ffi/any.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/memory.h>
#include <tvm/ffi/object.h>
#include <tvm/ffi/reflection/registry.h>
#include <tvm/ffi/string.h>

#include <cstdint>
#include <utility>

TVM_FFI_NAMESPACE_BEGIN
namespace testing {

class TestCompareObj : public Object {
 public:
  int64_t key;
  String name;
  int64_t ignored_field;

  TestCompareObj(int64_t key, String name, int64_t ignored_field)
      : key(key), name(std::move(name)), ignored_field(ignored_field) {}
  explicit TestCompareObj(UnsafeInit) : key(0), ignored_field(0) {}

  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("testing.TestCompare", TestCompareObj, Object);
};

class TestHashObj : public Object {
 public:
  int64_t key;
  String name;
  int64_t hash_ignored;

  TestHashObj(int64_t key, String name, int64_t hash_ignored)
      : key(key), name(std::move(name)), hash_ignored(hash_ignored) {}
  explicit TestHashObj(UnsafeInit) : key(0), hash_ignored(0) {}

  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("testing.TestHash", TestHashObj, Object);
};

/*! \brief The layout of the three hook fixtures: a key and a label. */
template <typename Derived>
class KeyLabelObj : public Object {
 public:
  int64_t key;
  String label;

  KeyLabelObj(int64_t key, String label) : key(key), label(std::move(label)) {}
  explicit KeyLabelObj(UnsafeInit) : key(0) {}
};

class TestCustomHashObj : public KeyLabelObj<TestCustomHashObj> {
 public:
  using KeyLabelObj::KeyLabelObj;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("testing.TestCustomHash", TestCustomHashObj, Object);
};

class TestCustomCompareObj : public KeyLabelObj<TestCustomCompareObj> {
 public:
  using KeyLabelObj::KeyLabelObj;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("testing.TestCustomCompare", TestCustomCompareObj, Object);
};

class TestEqWithoutHashObj : public KeyLabelObj<TestEqWithoutHashObj> {
 public:
  using KeyLabelObj::KeyLabelObj;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("testing.TestEqWithoutHash", TestEqWithoutHashObj, Object);
};

namespace {

template <typename T>
int64_t KeyOf(const AnyView& obj) {
  return obj.cast<ObjectRef>().as<T>()->key;
}

/*! \brief __ffi_hash__ of the key only: fn_hash(key). */
template <typename T>
int64_t HashKey(AnyView self, Function fn_hash) {
  return fn_hash(KeyOf<T>(self)).template cast<int64_t>();
}

/*! \brief __ffi_eq__ on the key only. */
template <typename T>
bool EqKey(AnyView lhs, AnyView rhs, Function) {
  return KeyOf<T>(lhs) == KeyOf<T>(rhs);
}

/*! \brief __ffi_compare__ on the key only. */
template <typename T>
int32_t CompareKey(AnyView lhs, AnyView rhs, Function) {
  int64_t a = KeyOf<T>(lhs), b = KeyOf<T>(rhs);
  return a < b ? -1 : (a > b ? 1 : 0);
}

}  // namespace

TVM_FFI_STATIC_INIT_BLOCK() {
  namespace refl = tvm::ffi::reflection;
  refl::ObjectDef<TestCompareObj>()
      .def_ro("key", &TestCompareObj::key)
      .def_ro("name", &TestCompareObj::name)
      .def_ro("ignored_field", &TestCompareObj::ignored_field, refl::compare(false))
      .def(refl::init<int64_t, String, int64_t>());
  refl::ObjectDef<TestHashObj>()
      .def_ro("key", &TestHashObj::key)
      .def_ro("name", &TestHashObj::name)
      .def_ro("hash_ignored", &TestHashObj::hash_ignored, refl::hash(false))
      .def(refl::init<int64_t, String, int64_t>());
  refl::ObjectDef<TestCustomHashObj>()
      .def_ro("key", &TestCustomHashObj::key)
      .def_ro("label", &TestCustomHashObj::label)
      .def(refl::init<int64_t, String>())
      .def_type_attr(refl::type_attr::kHash.name, HashKey<TestCustomHashObj>);
  refl::ObjectDef<TestCustomCompareObj>()
      .def_ro("key", &TestCustomCompareObj::key)
      .def_ro("label", &TestCustomCompareObj::label)
      .def(refl::init<int64_t, String>())
      .def_type_attr(refl::type_attr::kHash.name, HashKey<TestCustomCompareObj>)
      .def_type_attr(refl::type_attr::kEq.name, EqKey<TestCustomCompareObj>)
      .def_type_attr(refl::type_attr::kCompare.name, CompareKey<TestCustomCompareObj>);
  refl::ObjectDef<TestEqWithoutHashObj>()
      .def_ro("key", &TestEqWithoutHashObj::key)
      .def_ro("label", &TestEqWithoutHashObj::label)
      .def(refl::init<int64_t, String>())
      .def_type_attr(refl::type_attr::kEq.name, EqKey<TestEqWithoutHashObj>);
}

}  // namespace testing
TVM_FFI_NAMESPACE_END
