// extra/dataclass.h on reflected objects: fields, field flags, hooks, sharing and cycles.
#include <gtest/gtest.h>
#include <tvm/ffi/any.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/list.h>
#include <tvm/ffi/extra/dataclass.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/memory.h>
#include <tvm/ffi/object.h>
#include <tvm/ffi/reflection/registry.h>
#include <tvm/ffi/string.h>

#include <cstdint>
#include <sstream>
#include <string>
#include <utility>

#include "testing_helpers.h"

namespace {

namespace ffi = tvm::ffi;
namespace refl = tvm::ffi::reflection;
using ffi::Any;
using ffi::Array;
using ffi::List;
using ffi::ObjectRef;
using ffi::String;
using tvm_ffi_testing::ErrorMessage;

class DPointObj : public ffi::Object {
 public:
  int64_t x = 0;
  String label;
  Any payload;
  DPointObj() = default;
  DPointObj(int64_t x, String label, Any payload)
      : x(x), label(std::move(label)), payload(std::move(payload)) {}
  TVM_FFI_DECLARE_OBJECT_INFO("test.dataclass.Point", DPointObj, ffi::Object);
};

// Repeats the parent's field name "x": printed once, compared and hashed twice.
class DPoint3Obj : public DPointObj {
 public:
  int64_t z = 0;
  int64_t x2 = 0;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("test.dataclass.Point3", DPoint3Obj, DPointObj);
};

class DFlagsObj : public ffi::Object {
 public:
  int64_t shown = 0;
  int64_t hidden = 0;
  int64_t not_compared = 0;
  int64_t not_hashed = 0;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("test.dataclass.Flags", DFlagsObj, ffi::Object);
};

class DNoFieldsObj : public ffi::Object {
 public:
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("test.dataclass.NoFields", DNoFieldsObj, ffi::Object);
};

// Prints through a __ffi_repr__ hook that uses fn_repr for its child.
class DHookedObj : public ffi::Object {
 public:
  Any child;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("test.dataclass.Hooked", DHookedObj, ffi::Object);
};

// Compares and hashes by `key` only, through hooks.
class DKeyedObj : public ffi::Object {
 public:
  int64_t key = 0;
  String label;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("test.dataclass.Keyed", DKeyedObj, ffi::Object);
};

class DEqOnlyObj : public ffi::Object {
 public:
  int64_t key = 0;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("test.dataclass.EqOnly", DEqOnlyObj, ffi::Object);
};

class DNonCopyableObj : public ffi::Object {
 public:
  int64_t value = 0;
  DNonCopyableObj() = default;
  DNonCopyableObj(const DNonCopyableObj&) = delete;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("test.dataclass.NonCopyable", DNonCopyableObj, ffi::Object);
};

int64_t KeyOf(const ffi::AnyView& v) { return v.cast<ObjectRef>().as<DKeyedObj>()->key; }

TVM_FFI_STATIC_INIT_BLOCK() {
  refl::ObjectDef<DPointObj>()
      .def_ro("x", &DPointObj::x)
      .def_ro("label", &DPointObj::label)
      .def_ro("payload", &DPointObj::payload);
  refl::ObjectDef<DPoint3Obj>().def_ro("z", &DPoint3Obj::z).def_ro("x", &DPoint3Obj::x2);
  refl::ObjectDef<DFlagsObj>()
      .def_ro("shown", &DFlagsObj::shown)
      .def_ro("hidden", &DFlagsObj::hidden, refl::repr(false))
      .def_ro("not_compared", &DFlagsObj::not_compared, refl::compare(false))
      .def_ro("not_hashed", &DFlagsObj::not_hashed, refl::hash(false));
  refl::ObjectDef<DNoFieldsObj>();
  refl::ObjectDef<DHookedObj>()
      .def_ro("child", &DHookedObj::child)
      .def_type_attr(refl::type_attr::kRepr.name, [](ffi::AnyView self, ffi::Function fn_repr) {
        const DHookedObj* obj = self.cast<ObjectRef>().as<DHookedObj>();
        return String("Hooked<" + std::string(fn_repr(obj->child).cast<String>()) + ">");
      });
  refl::ObjectDef<DKeyedObj>()
      .def_ro("key", &DKeyedObj::key)
      .def_ro("label", &DKeyedObj::label)
      .def_type_attr(refl::type_attr::kEq.name, [](ffi::AnyView a, ffi::AnyView b,
                                                   ffi::Function) { return KeyOf(a) == KeyOf(b); })
      .def_type_attr(refl::type_attr::kCompare.name,
                     [](ffi::AnyView a, ffi::AnyView b, ffi::Function) -> int32_t {
                       return KeyOf(a) < KeyOf(b) ? -1 : (KeyOf(a) > KeyOf(b) ? 1 : 0);
                     })
      .def_type_attr(refl::type_attr::kHash.name, [](ffi::AnyView a, ffi::Function fn_hash) {
        return fn_hash(KeyOf(a)).cast<int64_t>();
      });
  refl::ObjectDef<DEqOnlyObj>()
      .def_ro("key", &DEqOnlyObj::key)
      .def_type_attr(refl::type_attr::kEq.name,
                     [](ffi::AnyView a, ffi::AnyView b, ffi::Function) { return true; });
  refl::ObjectDef<DNonCopyableObj>().def_ro("value", &DNonCopyableObj::value);
}

ObjectRef Point(int64_t x, const char* label, Any payload = Any()) {
  return ObjectRef(ffi::make_object<DPointObj>(x, String(label), std::move(payload)));
}

ObjectRef Flags(int64_t shown, int64_t hidden, int64_t not_compared, int64_t not_hashed) {
  auto obj = ffi::make_object<DFlagsObj>();
  obj->shown = shown;
  obj->hidden = hidden;
  obj->not_compared = not_compared;
  obj->not_hashed = not_hashed;
  return ObjectRef(obj);
}

ObjectRef Keyed(int64_t key, const char* label) {
  auto obj = ffi::make_object<DKeyedObj>();
  obj->key = key;
  obj->label = String(label);
  return ObjectRef(obj);
}

std::string Repr(const Any& v) { return std::string(ffi::ReprPrint(v)); }

TEST(DataclassObjects, ReprListsFieldsInOrder) {
  EXPECT_EQ(Repr(Point(1, "a", Array<Any>({2}))),
            "test.dataclass.Point(x=1, label=\"a\", payload=(2,))");
}

TEST(DataclassObjects, ReprParentFieldsFirstAndRepeatedNamesOnce) {
  auto obj = ffi::make_object<DPoint3Obj>();
  obj->x = 1;
  obj->z = 3;
  obj->x2 = 9;
  EXPECT_EQ(Repr(ObjectRef(obj)), "test.dataclass.Point3(x=1, label=\"\", payload=None, z=3)");
}

TEST(DataclassObjects, ReprSkipsReprOffFields) {
  EXPECT_EQ(Repr(Flags(1, 2, 3, 4)), "test.dataclass.Flags(shown=1, not_compared=3, not_hashed=4)");
}

TEST(DataclassObjects, ReprWithoutFieldsIsTheTypeKey) {
  EXPECT_EQ(Repr(ObjectRef(ffi::make_object<DNoFieldsObj>())), "test.dataclass.NoFields");
}

TEST(DataclassObjects, ReprHookGetsANestedPrinter) {
  auto obj = ffi::make_object<DHookedObj>();
  obj->child = Array<Any>({1, String("s")});
  EXPECT_EQ(Repr(ObjectRef(obj)), "Hooked<(1, \"s\")>");
  EXPECT_EQ(Repr(Array<Any>({ObjectRef(obj), ObjectRef(obj)})),
            "(Hooked<(1, \"s\")>, Hooked<(1, \"s\")>)");
}

TEST(DataclassObjects, ReprHookCycleBackToItselfPrintsEllipsis) {
  auto obj = ffi::make_object<DHookedObj>();
  List<Any> l;
  obj->child = l;
  l.push_back(ObjectRef(obj));
  EXPECT_EQ(Repr(ObjectRef(obj)), "Hooked<[...]>");
  l.clear();
}

TEST(DataclassObjects, ReprCycleThroughAFieldPrintsEllipsis) {
  List<Any> l;
  ObjectRef p = Point(1, "a", l);
  l.push_back(p);
  EXPECT_EQ(Repr(p), "test.dataclass.Point(x=1, label=\"a\", payload=[...])");
  l.clear();
}

TEST(DataclassObjects, ReprWithAddrShowsObjectAddresses) {
  setenv("TVM_FFI_REPR_WITH_ADDR", "1", 1);
  ObjectRef p = Point(1, "a");
  ObjectRef n(ffi::make_object<DNoFieldsObj>());
  std::string text = Repr(p);
  std::string none_text = Repr(n);
  unsetenv("TVM_FFI_REPR_WITH_ADDR");
  std::ostringstream addr_p, addr_n;
  addr_p << "@0x" << std::hex << reinterpret_cast<uintptr_t>(p.get());
  addr_n << "@0x" << std::hex << reinterpret_cast<uintptr_t>(n.get());
  EXPECT_EQ(text, "test.dataclass.Point" + addr_p.str() + "(x=1, label=\"a\", payload=None)");
  EXPECT_EQ(none_text, "test.dataclass.NoFields" + addr_n.str());
}

TEST(DataclassObjects, StreamPrintsObjectRef) {
  std::ostringstream os;
  os << Point(2, "b");
  EXPECT_EQ(os.str(), "test.dataclass.Point(x=2, label=\"b\", payload=None)");
}

TEST(DataclassObjects, EqComparesFieldsOfTheSameType) {
  EXPECT_TRUE(ffi::RecursiveEq(Point(1, "a", List<Any>({1})), Point(1, "a", List<Any>({1}))));
  EXPECT_FALSE(ffi::RecursiveEq(Point(1, "a"), Point(1, "b")));
  EXPECT_FALSE(ffi::RecursiveEq(Point(1, "a"), Flags(1, 0, 0, 0)));
}

TEST(DataclassObjects, OrderIsLexicographicOverFields) {
  EXPECT_TRUE(ffi::RecursiveLt(Point(1, "b"), Point(2, "a")));
  EXPECT_TRUE(ffi::RecursiveLt(Point(1, "a"), Point(1, "b")));
  EXPECT_TRUE(ffi::RecursiveGe(Point(1, "a"), Point(1, "a")));
  EXPECT_EQ(ErrorMessage([] { ffi::RecursiveLt(Point(1, "a"), Flags(1, 0, 0, 0)); }),
            "Cannot compare values of different types: test.dataclass.Point vs "
            "test.dataclass.Flags");
}

TEST(DataclassObjects, CompareOffFieldsAreIgnored) {
  EXPECT_TRUE(ffi::RecursiveEq(Flags(1, 2, 3, 4), Flags(1, 2, 30, 4)));
  EXPECT_FALSE(ffi::RecursiveEq(Flags(1, 2, 3, 4), Flags(1, 20, 3, 4)));
  EXPECT_EQ(ffi::RecursiveHash(Flags(1, 2, 3, 4)), ffi::RecursiveHash(Flags(1, 2, 30, 40)));
  EXPECT_NE(ffi::RecursiveHash(Flags(1, 2, 3, 4)), ffi::RecursiveHash(Flags(1, 20, 3, 4)));
}

TEST(DataclassObjects, HashCombinesTypeKeyHashWithFieldHashes) {
  ObjectRef p = Point(1, "a");
  uint64_t h = TVMFFIGetTypeInfo(p->type_index())->type_key_hash;
  for (const Any& field : {Any(1), Any(String("a")), Any()}) {
    h = ffi::detail::StableHashCombine(h, static_cast<uint64_t>(ffi::RecursiveHash(field)));
  }
  EXPECT_EQ(ffi::RecursiveHash(p), static_cast<int64_t>(h));
  EXPECT_EQ(ffi::RecursiveHash(Point(1, "a")), ffi::RecursiveHash(Point(1, "a")));
}

TEST(DataclassObjects, HooksReplaceFieldComparison) {
  EXPECT_TRUE(ffi::RecursiveEq(Keyed(1, "x"), Keyed(1, "y")));
  EXPECT_TRUE(ffi::RecursiveLt(Keyed(1, "z"), Keyed(2, "a")));
  EXPECT_EQ(ffi::RecursiveHash(Keyed(1, "x")), ffi::RecursiveHash(1));
  EXPECT_EQ(ffi::RecursiveHash(Array<Any>({Keyed(1, "x")})),
            ffi::RecursiveHash(Array<Any>({Keyed(1, "y")})));
}

TEST(DataclassObjects, EqHookWithoutHashHookCannotHash) {
  auto obj = ffi::make_object<DEqOnlyObj>();
  std::string msg =
      ErrorMessage([&] { ffi::RecursiveHash(List<Any>({ObjectRef(obj)})); }, "ValueError");
  EXPECT_EQ(msg,
            "RecursiveHash: type 'test.dataclass.EqOnly' defines __ffi_eq__ or __ffi_compare__ "
            "but not __ffi_hash__. Add a __ffi_hash__ hook to maintain the invariant "
            "RecursiveEq(a,b) => RecursiveHash(a)==RecursiveHash(b).");
}

TEST(DataclassObjects, OrderingFallsBackToFieldsWithoutCompareHook) {
  auto a = ffi::make_object<DEqOnlyObj>();
  auto b = ffi::make_object<DEqOnlyObj>();
  a->key = 1;
  b->key = 2;
  EXPECT_TRUE(ffi::RecursiveEq(ObjectRef(a), ObjectRef(b)));
  EXPECT_TRUE(ffi::RecursiveLt(ObjectRef(a), ObjectRef(b)));
}

TEST(DataclassObjects, DeepCopyCopiesObjectsAndTheirFields) {
  List<Any> inner({1});
  ObjectRef p = Point(1, "a", inner);
  ObjectRef c = ffi::DeepCopy(p).cast<ObjectRef>();
  EXPECT_FALSE(c.same_as(p));
  EXPECT_EQ(c->type_index(), p->type_index());
  const DPointObj* copy = c.as<DPointObj>();
  EXPECT_EQ(copy->x, 1);
  EXPECT_FALSE(copy->payload.same_as(inner));
  EXPECT_TRUE(ffi::RecursiveEq(c, p));
}

TEST(DataclassObjects, DeepCopyKeepsSharingAndCycles) {
  ObjectRef shared = Point(7, "s");
  List<Any> l;
  ObjectRef p = Point(1, "a", l);
  l.push_back(p);
  l.push_back(shared);
  l.push_back(shared);
  ObjectRef c = ffi::DeepCopy(p).cast<ObjectRef>();
  List<Any> lc = c.as<DPointObj>()->payload.cast<List<Any>>();
  EXPECT_TRUE(lc[0].same_as(c));
  EXPECT_TRUE(lc[1].same_as(lc[2]));
  EXPECT_FALSE(lc[1].same_as(shared));
  l.clear();
  lc.clear();
}

TEST(DataclassObjects, DeepCopyOfArrayInsideObjectCycleIsFixedUp) {
  List<Any> l;
  Array<Any> a({l});
  ObjectRef p = Point(1, "a", a);
  l.push_back(p);
  ObjectRef c = ffi::DeepCopy(a).cast<Array<Any>>()[0].cast<List<Any>>()[0].cast<ObjectRef>();
  Array<Any> ac = c.as<DPointObj>()->payload.cast<Array<Any>>();
  EXPECT_FALSE(ac.same_as(a));
  EXPECT_TRUE(ac[0].cast<List<Any>>()[0].same_as(c));
  l.clear();
  ac[0].cast<List<Any>>().clear();
}

TEST(DataclassObjects, DeepCopyKeepsSharingBelowUnsharedObjects) {
  ObjectRef p;
  {
    // Only the two unshared Points hold `shared` once the block ends.
    ObjectRef shared = Point(7, "s");
    p = Point(1, "a", Array<Any>({Point(2, "l", shared), Point(3, "r", shared)}));
  }
  ObjectRef c = ffi::DeepCopy(p).cast<ObjectRef>();
  Array<Any> kids = c.as<DPointObj>()->payload.cast<Array<Any>>();
  const Any& left = kids[0].cast<ObjectRef>().as<DPointObj>()->payload;
  const Any& right = kids[1].cast<ObjectRef>().as<DPointObj>()->payload;
  EXPECT_TRUE(left.same_as(right));
  Array<Any> orig_kids = p.as<DPointObj>()->payload.cast<Array<Any>>();
  EXPECT_FALSE(left.same_as(orig_kids[0].cast<ObjectRef>().as<DPointObj>()->payload));
  EXPECT_TRUE(ffi::RecursiveEq(c, p));
}

TEST(DataclassObjects, DeepCopyOfUnsharedObjectChainCopiesEveryNodeAndLeavesTheOriginal) {
  ObjectRef p = Point(1, "a", Point(2, "b", Point(3, "c")));
  // Raw pointers: a reference held here would make the nodes shared.
  const ffi::Object* mid = p.as<DPointObj>()->payload.as<ffi::Object>();
  const ffi::Object* leaf = static_cast<const DPointObj*>(mid)->payload.as<ffi::Object>();
  ObjectRef c = ffi::DeepCopy(p).cast<ObjectRef>();
  const ffi::Object* mid_copy = c.as<DPointObj>()->payload.as<ffi::Object>();
  const ffi::Object* leaf_copy = static_cast<const DPointObj*>(mid_copy)->payload.as<ffi::Object>();
  EXPECT_NE(mid_copy, mid);
  EXPECT_NE(leaf_copy, leaf);
  EXPECT_EQ(p.as<DPointObj>()->payload.as<ffi::Object>(), mid);
  EXPECT_EQ(static_cast<const DPointObj*>(mid)->payload.as<ffi::Object>(), leaf);
  EXPECT_TRUE(ffi::RecursiveEq(c, p));
}

TEST(DataclassObjects, DeepCopyOfCycleThroughAnUnsharedObjectReachesTheCopy) {
  List<Any> l;
  l.push_back(Point(1, "a", l));
  List<Any> lc = ffi::DeepCopy(l).cast<List<Any>>();
  EXPECT_FALSE(lc.same_as(l));
  EXPECT_TRUE(lc[0].cast<ObjectRef>().as<DPointObj>()->payload.same_as(lc));
  l.clear();
  lc.clear();
}

TEST(DataclassObjects, DeepCopyOfNonCopyableRaises) {
  ObjectRef n(ffi::make_object<DNonCopyableObj>());
  EXPECT_EQ(ErrorMessage([&] { ffi::DeepCopy(Array<Any>({n})); }, "RuntimeError"),
            "Cannot deep copy object of type \"test.dataclass.NonCopyable\" because it is not "
            "copy-constructible");
}

}  // namespace
