/*
 * Reflection of AccessStep and AccessPath (reflection/access_path.h): their
 * read-only fields, the methods the Python AccessPath class calls, and the
 * __ffi_repr__ hooks that print a path as `<root>.a[2]["k"][<missing:3>]`.
 */
#include <tvm/ffi/any.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/reflection/access_path.h>
#include <tvm/ffi/reflection/registry.h>
#include <tvm/ffi/string.h>

#include <string>
#include <vector>

TVM_FFI_NAMESPACE_BEGIN
namespace reflection {
namespace {

/*! \brief The text of a map key (or missing attribute) through the printer of the traversal. */
std::string KeyRepr(const Any& key, const Function& fn_repr) {
  return std::string(fn_repr(AnyView(key)).cast<String>());
}

std::string StepRepr(const AccessStepObj* step, const Function& fn_repr) {
  switch (step->kind) {
    case AccessKind::kAttr:
      return "." + std::string(step->key.cast<String>());
    case AccessKind::kArrayItem:
      return "[" + std::to_string(step->key.cast<int64_t>()) + "]";
    case AccessKind::kMapItem:
      return "[" + KeyRepr(step->key, fn_repr) + "]";
    case AccessKind::kArrayItemMissing:
      return "[<missing:" + std::to_string(step->key.cast<int64_t>()) + ">]";
    case AccessKind::kAttrMissing:
    case AccessKind::kMapItemMissing:
      return "[<missing:" + KeyRepr(step->key, fn_repr) + ">]";
  }
  return "[<unknown access kind " + std::to_string(static_cast<int32_t>(step->kind)) + ">]";
}

std::string PathRepr(const AccessPathObj* path, const Function& fn_repr) {
  std::string out = "<root>";
  for (const AccessStep& step : path->ToSteps()) out += StepRepr(step.get(), fn_repr);
  return out;
}

}  // namespace

TVM_FFI_STATIC_INIT_BLOCK() {
  ObjectDef<AccessStepObj>(init(false))
      .def_ro("kind", &AccessStepObj::kind)
      .def_ro("key", &AccessStepObj::key)
      .def_type_attr("__ffi_repr__", [](const AccessStepObj* self, Function fn_repr) -> String {
        return String(StepRepr(self, fn_repr));
      });
  ObjectDef<AccessPathObj>(init(false))
      .def_ro("parent", &AccessPathObj::parent)
      .def_ro("step", &AccessPathObj::step)
      .def_ro("depth", &AccessPathObj::depth)
      .def_static("_root", &AccessPath::Root)
      .def("_extend", &AccessPathObj::Extend)
      .def("_attr", &AccessPathObj::Attr)
      .def("_array_item", &AccessPathObj::ArrayItem)
      .def("_map_item", &AccessPathObj::MapItem)
      .def("_attr_missing", &AccessPathObj::AttrMissing)
      .def("_array_item_missing", &AccessPathObj::ArrayItemMissing)
      .def("_map_item_missing", &AccessPathObj::MapItemMissing)
      .def("_is_prefix_of", &AccessPathObj::IsPrefixOf)
      .def("_to_steps", &AccessPathObj::ToSteps)
      .def("_path_equal", &AccessPathObj::PathEqual)
      .def_type_attr("__ffi_repr__", [](const AccessPathObj* self, Function fn_repr) -> String {
        return String(PathRepr(self, fn_repr));
      });
}

}  // namespace reflection
TVM_FFI_NAMESPACE_END
