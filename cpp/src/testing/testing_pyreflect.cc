/*
 * Reflected object types under "testing.pyreflect.*" for the Python reflection tests
 * (register_object, TypeInfo/TypeField/TypeMethod, FFIProperty, the generated __init__) and
 * the reflection benchmarks. Written against the public reflection API only, so the same
 * source also builds against other implementations of the headers.
 */
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/memory.h>
#include <tvm/ffi/object.h>
#include <tvm/ffi/reflection/registry.h>
#include <tvm/ffi/string.h>

#include <cstdint>

namespace {

namespace ffi = tvm::ffi;
namespace refl = tvm::ffi::reflection;

// Explicit constructor, read-only fields, a method and a static method.
class PairObj : public ffi::Object {
 public:
  int64_t a;
  int64_t b;
  PairObj(int64_t a, int64_t b) : a(a), b(b) {}
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("testing.pyreflect.Pair", PairObj, ffi::Object);
};

// Generated constructor: a required; b init-off (default 42); c keyword-only; d default 99.
class AutoInitObj : public ffi::Object {
 public:
  int64_t a = 0;
  int64_t b = 0;
  int64_t c = 0;
  int64_t d = 0;
  static constexpr bool _type_mutable = true;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("testing.pyreflect.AutoInit", AutoInitObj, ffi::Object);
};

// Parent/child chain for the order of constructor parameters across ancestors.
class ParentObj : public ffi::Object {
 public:
  int64_t p_req = 0;
  int64_t p_def = 0;
  static constexpr bool _type_mutable = true;
  TVM_FFI_DECLARE_OBJECT_INFO("testing.pyreflect.Parent", ParentObj, ffi::Object);
};

class ChildObj : public ParentObj {
 public:
  int64_t c_req = 0;
  int64_t c_kw = 0;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("testing.pyreflect.Child", ChildObj, ParentObj);
};

// Three typed fields, generated constructor (the construction benchmark).
class TripleObj : public ffi::Object {
 public:
  int64_t x = 0;
  double y = 0;
  ffi::String z;
  static constexpr bool _type_mutable = true;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("testing.pyreflect.Triple", TripleObj, ffi::Object);
};

// A factory default, a documented field, and no generated constructor.
class NoInitObj : public ffi::Object {
 public:
  ffi::Array<int64_t> items;
  ffi::String note;
  static constexpr bool _type_mutable = true;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("testing.pyreflect.NoInit", NoInitObj, ffi::Object);
};

}  // namespace

TVM_FFI_STATIC_INIT_BLOCK() {
  refl::ObjectDef<PairObj>("A pair of integers.")
      .def_ro("a", &PairObj::a, "first")
      .def_ro("b", &PairObj::b, "second")
      .def(refl::init<int64_t, int64_t>())
      .def(
          "sum", [](const PairObj* self) { return self->a + self->b; }, "a + b")
      .def_static("swap", [](int64_t a, int64_t b) {
        return ffi::ObjectRef(ffi::make_object<PairObj>(b, a));
      });
  refl::ObjectDef<AutoInitObj>()
      .def_rw("a", &AutoInitObj::a)
      .def_ro("b", &AutoInitObj::b, refl::init(false), refl::DefaultValue(42))
      .def_rw("c", &AutoInitObj::c, refl::kw_only(true))
      .def_rw("d", &AutoInitObj::d, refl::DefaultValue(99));
  refl::ObjectDef<ParentObj>()
      .def_rw("p_req", &ParentObj::p_req)
      .def_rw("p_def", &ParentObj::p_def, refl::DefaultValue(5));
  refl::ObjectDef<ChildObj>()
      .def_rw("c_req", &ChildObj::c_req)
      .def_rw("c_kw", &ChildObj::c_kw, refl::kw_only(true));
  refl::ObjectDef<TripleObj>()
      .def_rw("x", &TripleObj::x)
      .def_rw("y", &TripleObj::y)
      .def_rw("z", &TripleObj::z);
  refl::ObjectDef<NoInitObj>(refl::init(false))
      .def_rw(
          "items", &NoInitObj::items,
          refl::DefaultFactory(ffi::Function::FromTyped([]() { return ffi::Array<int64_t>(); })))
      .def_rw("note", &NoInitObj::note, "a note", refl::repr(false), refl::compare(false));
  refl::GlobalDef().def("testing.pyreflect.make_no_init", []() {
    ffi::ObjectPtr<NoInitObj> obj = ffi::make_object<NoInitObj>();
    obj->note = "made";
    return ffi::ObjectRef(obj);
  });
}
