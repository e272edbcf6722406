/*
 * Runtime globals of the sequence containers (docs/runtime_globals.md):
 * ffi.Array, ffi.ArrayGetItem, ffi.ArraySize and the ffi.List* family.
 * Language bindings build and edit Array/List objects through these.
 *
 * The List mutators insist on an actual List object: converting an Array
 * argument to List<Any> would copy it, and the edit would silently land on
 * the copy instead of the caller's object.
 */
#include <tvm/ffi/any.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/list.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/reflection/registry.h>

#include <cstdint>
#include <utility>

TVM_FFI_NAMESPACE_BEGIN
namespace {

// The list an argument refers to, shared (never a converted copy).
List<Any> SharedList(const AnyView& arg, const char* func) {
  const TVMFFIAny* cell = detail::AnyUnsafe::GetTVMFFIAny(arg);
  TVMFFIObject* obj = detail::AnyObjectOrNull(cell);
  if (obj == nullptr || obj->type_index != kTVMFFIList) {
    TVM_FFI_THROW(TypeError) << func << ": expected argument #0 of type `ffi.List` but got `"
                             << detail::AnyTypeStr(cell) << "`";
  }
  return List<Any>(detail::ObjectUnsafe::ObjectPtrFromUnowned<Object>(obj));
}

// The sequence (Array or List, as named) an argument refers to.
const detail::SeqBaseObj* SeqArg(const AnyView& arg, int32_t type_index, const char* func) {
  const TVMFFIAny* cell = detail::AnyUnsafe::GetTVMFFIAny(arg);
  TVMFFIObject* obj = detail::AnyObjectOrNull(cell);
  if (obj == nullptr || obj->type_index != type_index) {
    TVM_FFI_THROW(TypeError) << func << ": expected argument #0 of type `"
                             << (type_index == kTVMFFIList ? "ffi.List" : "ffi.Array")
                             << "` but got `" << detail::AnyTypeStr(cell) << "`";
  }
  return static_cast<const detail::SeqBaseObj*>(reinterpret_cast<const Object*>(obj));
}

TVM_FFI_STATIC_INIT_BLOCK() {
  namespace refl = tvm::ffi::reflection;
  refl::GlobalDef()
      .def_packed(
          "ffi.Array",
          [](const AnyView* args, int32_t num_args, Any* rv) {
            Array<Any> result;
            result.reserve(num_args);
            for (int32_t i = 0; i < num_args; ++i) result.push_back(Any(args[i]));
            *rv = std::move(result);
          },
          "An Array of the arguments.")
      .def(
          "ffi.ArrayGetItem",
          [](AnyView array, int64_t index) -> Any {
            return Any(SeqArg(array, kTVMFFIArray, "ffi.ArrayGetItem")->GetItem(index));
          },
          "The element at index (IndexError when out of range).")
      .def(
          "ffi.ArraySize",
          [](AnyView array) -> int64_t {
            return SeqArg(array, kTVMFFIArray, "ffi.ArraySize")->SeqCell()->size;
          },
          "The number of elements of an Array.")
      .def_packed(
          "ffi.List",
          [](const AnyView* args, int32_t num_args, Any* rv) {
            List<Any> result;
            result.reserve(num_args);
            for (int32_t i = 0; i < num_args; ++i) result.push_back(Any(args[i]));
            *rv = std::move(result);
          },
          "A new List of the arguments.")
      .def(
          "ffi.ListGetItem",
          [](AnyView list, int64_t index) -> Any {
            return Any(SeqArg(list, kTVMFFIList, "ffi.ListGetItem")->GetItem(index));
          },
          "The element at index (IndexError when out of range).")
      .def(
          "ffi.ListSize",
          [](AnyView list) -> int64_t {
            return SeqArg(list, kTVMFFIList, "ffi.ListSize")->SeqCell()->size;
          },
          "The number of elements of a List.")
      .def(
          "ffi.ListSetItem",
          [](AnyView list, int64_t index, Any value) {
            SharedList(list, "ffi.ListSetItem").Set(index, std::move(value));
          },
          "Replace the element at index.")
      .def(
          "ffi.ListAppend",
          [](AnyView list, Any value) {
            SharedList(list, "ffi.ListAppend").push_back(std::move(value));
          },
          "Append a value.")
      .def(
          "ffi.ListInsert",
          [](AnyView list, int64_t index, Any value) {
            SharedList(list, "ffi.ListInsert").insert(index, value);
          },
          "Insert a value before index (0 <= index <= size).")
      .def(
          "ffi.ListErase",
          [](AnyView list, int64_t index) { SharedList(list, "ffi.ListErase").erase(index); },
          "Remove the element at index.")
      .def(
          "ffi.ListClear", [](AnyView list) { SharedList(list, "ffi.ListClear").clear(); },
          "Remove all elements.");
}

}  // namespace
TVM_FFI_NAMESPACE_END
