/*
 * Runtime globals of the map containers (docs/runtime_globals.md): the
 * ffi.Map* and ffi.Dict* families. Language bindings build, read and edit
 * Map/Dict objects through these, since the table layout is not ABI.
 *
 * Each function insists on the exact kind it is named for: converting a Dict
 * argument to Map<Any, Any> (or back) would copy it, and a DictSetItem would
 * then silently land on the copy instead of the caller's object.
 */
#include <tvm/ffi/any.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/dict.h>
#include <tvm/ffi/container/map.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/reflection/registry.h>

#include <cstdint>
#include <utility>

TVM_FFI_NAMESPACE_BEGIN
namespace {

// The table of argument #0, which must be a Map or Dict object as type_index says.
const details::MapCore* TableArg(const AnyView& arg, int32_t type_index, const char* func) {
  const TVMFFIAny* cell = details::AnyUnsafe::GetTVMFFIAny(arg);
  TVMFFIObject* obj = details::AnyObjectOrNull(cell);
  if (obj == nullptr || obj->type_index != type_index) {
    TVM_FFI_THROW(TypeError) << func << ": expected argument #0 of type `"
                             << (type_index == kTVMFFIDict ? "Dict" : "Map") << "` but got `"
                             << details::AnyTypeStr(cell) << "`";
  }
  return details::MapCoreOf(obj);
}

// The dict of argument #0 for in-place edits (the caller's object, never a copy).
details::MapCore* MutableDictArg(const AnyView& arg, const char* func) {
  return const_cast<details::MapCore*>(TableArg(arg, kTVMFFIDict, func));
}

// Build a table from alternating key/value arguments; a repeated key keeps its
// first position and its last value, as in a Python dict display.
template <typename ObjT>
ObjectPtr<ObjT> FromArgs(const AnyView* args, int32_t num_args, const char* func) {
  if (num_args % 2 != 0) {
    TVM_FFI_THROW(ValueError) << func << " takes alternating keys and values, got an odd number ("
                              << num_args << ") of arguments";
  }
  ObjectPtr<ObjT> obj = MapBaseObj::Create<ObjT>(static_cast<uint64_t>(num_args / 2));
  for (int32_t i = 0; i < num_args; i += 2) {
    Any key(args[i]), value(args[i + 1]);
    obj->Insert(&key, &value, true);
  }
  return obj;
}

// A lookup key as a plain value: an rvalue-reference argument hashes by its object, not by the
// address of the caller's slot.
AnyView KeyView(const AnyView& key, Any* storage) {
  if (key.type_index() != kTVMFFIObjectRValueRef) return key;
  *storage = Any(key);
  return AnyView(*storage);
}

Any GetItem(const details::MapCore* table, const AnyView& key, const char* container) {
  Any storage;
  AnyView k = KeyView(key, &storage);
  const TVMFFIAny* kcell = details::AnyUnsafe::GetTVMFFIAny(k);
  const TVMFFIAny* v = table->FindValue(kcell);
  if (v == nullptr) details::ThrowMapKeyError(container, kcell);
  return Any(AnyView::CopyFromTVMFFIAny(*v));
}

int64_t Count(const details::MapCore* table, const AnyView& key) {
  Any storage;
  AnyView k = KeyView(key, &storage);
  return table->FindIndex(details::AnyUnsafe::GetTVMFFIAny(k)) != table->EndIndex() ? 1 : 0;
}

Array<Any> Items(const details::MapCore* table) {
  Array<Any> items;
  items.reserve(table->size() * 2);
  for (uint64_t i = table->BeginIndex(); i != table->EndIndex(); i = table->NextIndex(i)) {
    const details::MapEntry& e = table->KVAt(i);
    items.push_back(Any(AnyView::CopyFromTVMFFIAny(e.key)));
    items.push_back(Any(AnyView::CopyFromTVMFFIAny(e.value)));
  }
  return items;
}

TVM_FFI_STATIC_INIT_BLOCK() {
  namespace refl = tvm::ffi::reflection;
  refl::GlobalDef()
      .def_packed("ffi.Map",
                  [](const AnyView* args, int32_t num_args, Any* rv) {
                    *rv = Map<Any, Any>(FromArgs<MapObj>(args, num_args, "ffi.Map"));
                  },
                  "A Map of alternating keys and values k0, v0, k1, v1, ...")
      .def(
          "ffi.MapSize",
          [](AnyView map) -> int64_t { return TableArg(map, kTVMFFIMap, "ffi.MapSize")->size(); },
          "The number of entries of a Map.")
      .def(
          "ffi.MapGetItem",
          [](AnyView map, AnyView key) -> Any {
            return GetItem(TableArg(map, kTVMFFIMap, "ffi.MapGetItem"), key, "Map");
          },
          "The value of key (KeyError when missing).")
      .def(
          "ffi.MapCount",
          [](AnyView map, AnyView key) -> int64_t {
            return Count(TableArg(map, kTVMFFIMap, "ffi.MapCount"), key);
          },
          "1 if key is in the Map, else 0.")
      .def(
          "ffi.MapItems",
          [](AnyView map) -> Array<Any> {
            return Items(TableArg(map, kTVMFFIMap, "ffi.MapItems"));
          },
          "An Array [k0, v0, k1, v1, ...] in insertion order.")
      .def_packed("ffi.Dict",
                  [](const AnyView* args, int32_t num_args, Any* rv) {
                    *rv = Dict<Any, Any>(FromArgs<DictObj>(args, num_args, "ffi.Dict"));
                  },
                  "A new Dict of alternating keys and values k0, v0, k1, v1, ...")
      .def(
          "ffi.DictSize",
          [](AnyView dict) -> int64_t {
            return TableArg(dict, kTVMFFIDict, "ffi.DictSize")->size();
          },
          "The number of entries of a Dict.")
      .def(
          "ffi.DictGetItem",
          [](AnyView dict, AnyView key) -> Any {
            return GetItem(TableArg(dict, kTVMFFIDict, "ffi.DictGetItem"), key, "Dict");
          },
          "The value of key (KeyError when missing).")
      .def(
          "ffi.DictCount",
          [](AnyView dict, AnyView key) -> int64_t {
            return Count(TableArg(dict, kTVMFFIDict, "ffi.DictCount"), key);
          },
          "1 if key is in the Dict, else 0.")
      .def(
          "ffi.DictItems",
          [](AnyView dict) -> Array<Any> {
            return Items(TableArg(dict, kTVMFFIDict, "ffi.DictItems"));
          },
          "An Array [k0, v0, k1, v1, ...] in insertion order.")
      .def(
          "ffi.DictSetItem",
          [](AnyView dict, AnyView key, AnyView value) {
            Any k(key), v(value);
            MutableDictArg(dict, "ffi.DictSetItem")->Insert(&k, &v, true);
          },
          "Insert or replace key in place.")
      .def(
          "ffi.DictErase",
          [](AnyView dict, AnyView key) {
            Any storage;
            AnyView k = KeyView(key, &storage);
            const TVMFFIAny* kcell = details::AnyUnsafe::GetTVMFFIAny(k);
            if (!MutableDictArg(dict, "ffi.DictErase")->Erase(kcell)) {
              details::ThrowMapKeyError("Dict", kcell);
            }
          },
          "Remove key in place (KeyError when missing).")
      .def(
          "ffi.DictClear", [](AnyView dict) { MutableDictArg(dict, "ffi.DictClear")->Clear(); },
          "Remove all entries.");
}

}  // namespace
TVM_FFI_NAMESPACE_END
