/*
 * Enums and overloaded methods across implementations: compiled once with the
 * wheel's headers and once with ours, loaded under the other runtime. The
 * library registers a StrEnum and an IntEnum with EnumDef (singletons,
 * attributes) and a type with OverloadObjectDef, and exports lookups.
 */
#include <tvm/ffi/any.h>
#include <tvm/ffi/enum.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/object.h>
#include <tvm/ffi/reflection/accessor.h>
#include <tvm/ffi/reflection/enum_def.h>
#include <tvm/ffi/reflection/overload.h>
#include <tvm/ffi/reflection/registry.h>
#include <tvm/ffi/string.h>

#include <cstdint>

namespace {
namespace ffi = tvm::ffi;
namespace refl = tvm::ffi::reflection;

class IColorObj : public ffi::StrEnumObj {
 public:
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("interop.enum.Color", IColorObj, ffi::StrEnumObj);
};

class ILevelObj : public ffi::IntEnumObj {
 public:
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("interop.enum.Level", ILevelObj, ffi::IntEnumObj);
};

class IOverObj : public ffi::Object {
 public:
  int64_t v = 0;
  IOverObj() = default;
  explicit IOverObj(int64_t x) : v(x) {}
  IOverObj(int64_t x, ffi::String s) : v(x + static_cast<int64_t>(s.size())) {}
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("interop.enum.Over", IOverObj, ffi::Object);
};

TVM_FFI_STATIC_INIT_BLOCK() {
  refl::ObjectDef<IColorObj>(refl::init(false));
  refl::EnumDef<IColorObj>("red").set_attr("hex", "#f00");
  refl::EnumDef<IColorObj>("green").set_attr("hex", "#0f0");
  refl::ObjectDef<ILevelObj>(refl::init(false));
  refl::EnumDef<ILevelObj>("low", 10);
  refl::EnumDef<ILevelObj>("high", 20);
  refl::OverloadObjectDef<IOverObj>()
      .def_ro("v", &IOverObj::v)
      .def(refl::init<int64_t>())
      .def(refl::init<int64_t, ffi::String>())
      .def_static("pick", [](int64_t a) { return a * 2; })
      .def_static("pick", [](ffi::String a) { return a; });
}

ffi::Enum Color(ffi::String name) { return ffi::EnumObj::_GetByStrIndex<IColorObj>(name); }
ffi::Enum Level(int64_t value) { return ffi::EnumObj::_GetByIntIndex<ILevelObj>(value); }
bool ColorDefined(ffi::String name) { return refl::EnumDef<IColorObj>::IsDefined(name); }
ffi::Any ColorHex(ffi::String name) {
  ffi::EnumState state =
      refl::TypeAttrColumn("__ffi_enum__")[IColorObj::RuntimeTypeIndex()].cast<ffi::EnumState>();
  return state->attrs["hex"][Color(name)];
}
ffi::Any Pick(ffi::Any value) { return refl::GetMethod("interop.enum.Over", "pick")(value); }
ffi::Any MakeOver(int64_t x, ffi::String s) {
  return refl::TypeAttrColumn("__ffi_init__")[IOverObj::RuntimeTypeIndex()].cast<ffi::Function>()(
      x, s);
}

}  // namespace

TVM_FFI_DLL_EXPORT_TYPED_FUNC(color, Color);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(level, Level);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(color_defined, ColorDefined);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(color_hex, ColorHex);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(pick, Pick);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(make_over, MakeOver);
