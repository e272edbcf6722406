// A reflected object type declared with reflection::ObjectDef, compiled either
// with the apache-tvm-ffi wheel's headers or with ours and loaded under the
// other implementation's runtime (test_reflection_interop.py). It uses only
// the registration API both header sets share; its self-check reads the
// registry through the C ABI, so that it verifies what the loading runtime
// recorded, not what these headers believe.
#include <tvm/ffi/any.h>
#include <tvm/ffi/c_api.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/memory.h>
#include <tvm/ffi/object.h>
#include <tvm/ffi/reflection/registry.h>
#include <tvm/ffi/string.h>

#include <cstring>
#include <string>

namespace {

namespace ffi = tvm::ffi;
namespace refl = tvm::ffi::reflection;

class InteropPointObj : public ffi::Object {
 public:
  int64_t x = 0;
  double y = 0;
  ffi::String label;

  int64_t Shifted(int64_t by) const { return x + by; }

  static constexpr bool _type_mutable = true;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("interop.reflection.Point", InteropPointObj, ffi::Object);
};

TVM_FFI_STATIC_INIT_BLOCK() {
  refl::ObjectDef<InteropPointObj>()
      .def_ro("x", &InteropPointObj::x)
      .def_rw("y", &InteropPointObj::y, refl::DefaultValue(2.5))
      .def_rw("label", &InteropPointObj::label, refl::DefaultValue("none"))
      .def("shifted", &InteropPointObj::Shifted);
}

ffi::Any Attr(const char* name, int32_t type_index) {
  TVMFFIByteArray bytes{name, std::strlen(name)};
  const TVMFFITypeAttrColumn* column = TVMFFIGetTypeAttrColumn(&bytes);
  if (column == nullptr) return ffi::Any();
  if (type_index < column->begin_index || type_index >= column->begin_index + column->size) {
    return ffi::Any();
  }
  return ffi::AnyView::CopyFromTVMFFIAny(column->data[type_index - column->begin_index]);
}

std::string Name(const TVMFFIByteArray& b) { return std::string(b.data, b.size); }

// "" when the runtime holds what ObjectDef registered, else the first difference.
ffi::String CheckReflection() {
  int32_t index = InteropPointObj::RuntimeTypeIndex();
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(index);
  if (info == nullptr) return "no type info";
  if (info->num_fields != 3) return "num_fields " + std::to_string(info->num_fields);
  if (Name(info->fields[0].name) != "x" || Name(info->fields[2].name) != "label") {
    return "field names";
  }
  if (info->fields[0].offset != 24) return "offset of x " + std::to_string(info->fields[0].offset);
  if (info->metadata == nullptr || info->metadata->creator == nullptr) return "no creator";
  if (info->metadata->total_size != static_cast<int32_t>(sizeof(InteropPointObj))) {
    return "total_size";
  }
  bool has_method = false;
  for (int32_t i = 0; i < info->num_methods; ++i) {
    has_method |= Name(info->methods[i].name) == "shifted";
  }
  if (!has_method) return "no method shifted";
  for (const char* attr : {"__ffi_new__", "__ffi_init__", "__ffi_shallow_copy__"}) {
    if (Attr(attr, index).type_index() != kTVMFFIFunction) return std::string("no ") + attr;
  }
  ffi::Any final_attr = Attr("__ffi_type_final__", index);
  if (final_attr.type_index() != kTVMFFIBool || !final_attr.cast<bool>()) {
    return "__ffi_type_final__ is not true";
  }
  // The generated constructor, called with a keyword argument.
  ffi::Any kwargs = (*ffi::Function::GetGlobal("ffi.GetKwargsObject"))();
  ffi::Function init = Attr("__ffi_init__", index).cast<ffi::Function>();
  ffi::ObjectRef made = init(7, kwargs, "label", "kw").cast<ffi::ObjectRef>();
  const InteropPointObj* p = static_cast<const InteropPointObj*>(made.get());
  if (made->type_index() != index || p->x != 7 || p->y != 2.5 || p->label != "kw") {
    return "__ffi_init__(7, KWARGS, 'label', 'kw') built the wrong object";
  }
  return "";
}

ffi::ObjectRef MakePoint(int64_t x) {
  ffi::ObjectPtr<InteropPointObj> p = ffi::make_object<InteropPointObj>();
  p->x = x;
  p->y = 2.5;
  p->label = "none";
  return ffi::ObjectRef(p);
}

}  // namespace

TVM_FFI_DLL_EXPORT_TYPED_FUNC(check_reflection, CheckReflection);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(make_point, MakePoint);
