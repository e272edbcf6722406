/*
 * Type attributes of built-in object types: the __ffi_convert__ of the core
 * object types, which the Python type converter runs (and reports when it
 * fails) before rejecting a value for a field or parameter of that type.
 * ffi.Shape also takes an Array or List of ints.
 */
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/dict.h>
#include <tvm/ffi/container/list.h>
#include <tvm/ffi/container/map.h>
#include <tvm/ffi/container/shape.h>
#include <tvm/ffi/container/tensor.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/reflection/registry.h>
#include <tvm/ffi/string.h>

#include <optional>
#include <vector>

TVM_FFI_NAMESPACE_BEGIN
namespace {

/*! \brief The extents held by an Array or List whose items are all ints, or nullopt. */
template <typename Seq>
std::optional<Shape> ShapeOfInts(const Seq& items) {
  std::vector<int64_t> extents;
  extents.reserve(items.size());
  for (const Any& item : items) {
    if (item.type_index() != kTVMFFIInt) return std::nullopt;
    extents.push_back(item.cast<int64_t>());
  }
  return Shape(extents);
}

Any ConvertToShape(AnyView value) {
  if (std::optional<Array<Any>> array = value.as<Array<Any>>()) {
    if (std::optional<Shape> shape = ShapeOfInts(*array)) return *shape;
  } else if (std::optional<List<Any>> list = value.as<List<Any>>()) {
    if (std::optional<Shape> shape = ShapeOfInts(*list)) return *shape;
  }
  return detail::FFIConvertFromAnyViewToObjectRef<Shape>(value);
}

}  // namespace

TVM_FFI_STATIC_INIT_BLOCK() {
  namespace refl = tvm::ffi::reflection;
  refl::TypeAttrDef<Object>().def_convert<ObjectRef>();
  refl::TypeAttrDef<FunctionObj>().def_convert<Function>();
  refl::TypeAttrDef<ErrorObj>().def_convert<Error>();
  refl::TypeAttrDef<StringObj>().attr(
      type_attr::kConvert, detail::MakeConvertFunction<String>("ffi.String.__ffi_convert__"));
  refl::TypeAttrDef<BytesObj>().attr(
      type_attr::kConvert, detail::MakeConvertFunction<Bytes>("ffi.Bytes.__ffi_convert__"));
  refl::TypeAttrDef<ArrayObj>().def_convert<Array<Any>>();
  refl::TypeAttrDef<ListObj>().def_convert<List<Any>>();
  refl::TypeAttrDef<MapObj>().def_convert<Map<Any, Any>>();
  refl::TypeAttrDef<DictObj>().def_convert<Dict<Any, Any>>();
  refl::TypeAttrDef<TensorObj>().def_convert<Tensor>();
  refl::TypeAttrDef<ShapeObj>().attr(
      type_attr::kConvert, Function::FromTyped(ConvertToShape, "ffi.Shape.__ffi_convert__"));
}

TVM_FFI_NAMESPACE_END
