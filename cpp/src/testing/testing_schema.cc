/*
 * "testing.SchemaAllTypes" (tvm_ffi.testing._SchemaAllTypes): one reflected field of each kind
 * of type schema the Python side renders and converts (POD, device, dtype, strings, bytes,
 * optionals, arrays, maps, variants and their nestings), plus member and static methods whose
 * schemas mix them, for the type-schema and stub-generator tests.
 */
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/map.h>
#include <tvm/ffi/container/variant.h>
#include <tvm/ffi/dtype.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/memory.h>
#include <tvm/ffi/object.h>
#include <tvm/ffi/optional.h>
#include <tvm/ffi/reflection/registry.h>
#include <tvm/ffi/string.h>

#include <cstdint>
#include <string>
#include <utility>

namespace {

namespace ffi = tvm::ffi;
namespace refl = tvm::ffi::reflection;

using StrOrArrOrMap =
    ffi::Variant<ffi::String, ffi::Array<int64_t>, ffi::Map<ffi::String, int64_t>>;
using IntOrStr = ffi::Variant<int64_t, ffi::String>;

class SchemaAllTypesObj : public ffi::Object {
 public:
  bool v_bool = false;
  int64_t v_int = 0;
  double v_float = 0.0;
  DLDevice v_device{kDLCPU, 0};
  DLDataType v_dtype{kDLFloat, 32, 1};
  ffi::String v_string{"s"};
  ffi::Bytes v_bytes;
  ffi::Optional<int64_t> v_opt_int;
  ffi::Optional<ffi::String> v_opt_str;
  ffi::Array<int64_t> v_arr_int;
  ffi::Array<ffi::String> v_arr_str;
  ffi::Map<ffi::String, int64_t> v_map_str_int;
  ffi::Map<ffi::String, ffi::Array<int64_t>> v_map_str_arr_int;
  StrOrArrOrMap v_variant{ffi::String("v")};
  ffi::Optional<ffi::Array<IntOrStr>> v_opt_arr_variant;

  static constexpr bool _type_mutable = true;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("testing.SchemaAllTypes", SchemaAllTypesObj, ffi::Object);
};

// The reference type, so that make_with's schema names the type it returns.
class SchemaAllTypes : public ffi::ObjectRef {
 public:
  explicit SchemaAllTypes(ffi::ObjectPtr<SchemaAllTypesObj> ptr) : ffi::ObjectRef(std::move(ptr)) {}
  TVM_FFI_DEFINE_OBJECT_REF_METHODS_NOTNULLABLE(SchemaAllTypes, ffi::ObjectRef, SchemaAllTypesObj);
};

// a + b for strings that may be absent: the present one when only one is, None when neither.
ffi::Optional<ffi::String> MaybeConcat(const ffi::Optional<ffi::String>& a,
                                       const ffi::Optional<ffi::String>& b) {
  if (!a.has_value()) return b;
  if (!b.has_value()) return a;
  return ffi::String(std::string(a.value()) + std::string(b.value()));
}

// a with b's entries added; a key in both maps to a's array followed by b's.
ffi::Map<ffi::String, ffi::Array<int64_t>> MergeMap(
    const ffi::Map<ffi::String, ffi::Array<int64_t>>& a,
    const ffi::Map<ffi::String, ffi::Array<int64_t>>& b) {
  ffi::Map<ffi::String, ffi::Array<int64_t>> out = a;
  for (const auto& kv : b) {
    auto found = out.find(kv.first);
    if (found == out.end()) {
      out.Set(kv.first, kv.second);
      continue;
    }
    ffi::Array<int64_t> merged = (*found).second;
    for (int64_t v : kv.second) merged.push_back(v);
    out.Set(kv.first, merged);
  }
  return out;
}

}  // namespace

TVM_FFI_STATIC_INIT_BLOCK() {
  using T = SchemaAllTypesObj;
  refl::ObjectDef<T>()
      .def_rw("v_bool", &T::v_bool, "bool field",
              refl::Metadata{{"bool_attr", true}, {"int_attr", 1}, {"str_attr", "hello"}})
      .def_rw("v_int", &T::v_int, "int field", refl::DefaultValue(0))
      .def_rw("v_float", &T::v_float, "float field", refl::DefaultValue(0.0))
      .def_rw("v_device", &T::v_device, "device field")
      .def_rw("v_dtype", &T::v_dtype, "dtype field")
      .def_rw("v_string", &T::v_string, "string field", refl::DefaultValue("s"))
      .def_rw("v_bytes", &T::v_bytes, "bytes field")
      .def_rw("v_opt_int", &T::v_opt_int, "optional int")
      .def_rw("v_opt_str", &T::v_opt_str, "optional str")
      .def_rw("v_arr_int", &T::v_arr_int, "array<int>")
      .def_rw("v_arr_str", &T::v_arr_str, "array<str>")
      .def_rw("v_map_str_int", &T::v_map_str_int, "map<str,int>")
      .def_rw("v_map_str_arr_int", &T::v_map_str_arr_int, "map<str,array<int>>")
      .def_rw("v_variant", &T::v_variant, "variant<str,array<int>,map<str,int>>")
      .def_rw("v_opt_arr_variant", &T::v_opt_arr_variant, "optional<array<variant<int,str>>>")
      .def(
          "add_int", [](const T* self, int64_t x) { return self->v_int + x; }, "add int method",
          refl::Metadata{{"bool_attr", true}, {"int_attr", 1}, {"str_attr", "hello"}})
      .def(
          "append_int",
          [](const T*, ffi::Array<int64_t> arr, int64_t x) {
            arr.push_back(x);
            return arr;
          },
          "append int to array")
      .def(
          "maybe_concat",
          [](const T*, ffi::Optional<ffi::String> a, ffi::Optional<ffi::String> b) {
            return MaybeConcat(a, b);
          },
          "optional concat")
      .def(
          "merge_map",
          [](const T*, ffi::Map<ffi::String, ffi::Array<int64_t>> a,
             ffi::Map<ffi::String, ffi::Array<int64_t>> b) { return MergeMap(a, b); },
          "merge maps")
      .def_static(
          "make_with",
          [](int64_t v_int, double v_float, ffi::String v_string) {
            ffi::ObjectPtr<T> obj = ffi::make_object<T>();
            obj->v_bool = true;
            obj->v_int = v_int;
            obj->v_float = v_float;
            obj->v_string = v_string;
            return SchemaAllTypes(obj);
          },
          "Constructor with subset of fields");
}
