/*
 * Runtime globals of the map containers (docs/runtime_globals.md): the
 * ffi.Map* and ffi.Dict* families. Language bindings build, read and edit
 * Map/Dict objects through these rather than through the table layout.
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
#include <memory>
#include <utility>

TVM_FFI_NAMESPACE_BEGIN
namespace {

// The table of argument #0, which must be a Map or Dict object as type_index says.
const detail::MapCore* TableArg(const AnyView& arg, int32_t type_index, const char* func) {
  const TVMFFIAny* cell = detail::AnyUnsafe::GetTVMFFIAny(arg);
  TVMFFIObject* obj = detail::AnyObjectOrNull(cell);
  if (obj == nullptr || obj->type_index != type_index) {
    TVM_FFI_THROW(TypeError) << func << ": expected argument #0 of type `"
                             << (type_index == kTVMFFIDict ? "ffi.Dict" : "ffi.Map")
                             << "` but got `" << detail::AnyTypeStr(cell) << "`";
  }
  return detail::MapCoreOf(obj);
}

// The dict of argument #0 for in-place edits (the caller's object, never a copy).
detail::MapCore* MutableDictArg(const AnyView& arg, const char* func) {
  return const_cast<detail::MapCore*>(TableArg(arg, kTVMFFIDict, func));
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

Any GetItem(const detail::MapCore* table, const AnyView& key) {
  Any storage;
  AnyView k = KeyView(key, &storage);
  const TVMFFIAny* kcell = detail::AnyUnsafe::GetTVMFFIAny(k);
  const TVMFFIAny* v = table->FindValue(kcell);
  if (v == nullptr) detail::ThrowMapKeyError();
  return Any(AnyView::CopyFromTVMFFIAny(*v));
}

int64_t Count(const detail::MapCore* table, const AnyView& key) {
  Any storage;
  AnyView k = KeyView(key, &storage);
  return table->FindIndex(detail::AnyUnsafe::GetTVMFFIAny(k)) != table->EndIndex() ? 1 : 0;
}

Array<Any> Items(const detail::MapCore* table) {
  Array<Any> items;
  items.reserve(table->size() * 2);
  for (uint64_t i = table->BeginIndex(); i != table->EndIndex(); i = table->NextIndex(i)) {
    const detail::MapEntry& e = table->KVAt(i);
    items.push_back(Any(AnyView::CopyFromTVMFFIAny(e.key)));
    items.push_back(Any(AnyView::CopyFromTVMFFIAny(e.value)));
  }
  return items;
}

// The "missing" sentinel of *GetItemOrMissing: the object of ffi.GetInvalidObject when that
// global exists (one sentinel per process), else an object of our own.
Any MissingSentinel() {
  static Any sentinel = [] {
    Optional<Function> get = Function::GetGlobal("ffi.GetInvalidObject");
    if (get.has_value()) return (*get)();
    return Any(ObjectRef(make_object<Object>()));
  }();
  return sentinel;
}

Any GetItemOrMissing(const detail::MapCore* table, const AnyView& key) {
  Any storage;
  AnyView k = KeyView(key, &storage);
  const TVMFFIAny* v = table->FindValue(detail::AnyUnsafe::GetTVMFFIAny(k));
  if (v == nullptr) return MissingSentinel();
  return Any(AnyView::CopyFromTVMFFIAny(*v));
}

// A cursor over the entries in insertion order: f(0) is the current key, f(1) its value, f(2)
// steps to the next entry and returns whether there is one. The function keeps the map alive.
Function ForwardIterFunctor(const AnyView& map, int32_t type_index, const char* func) {
  const detail::MapCore* table = TableArg(map, type_index, func);
  ObjectRef keep = map.cast<ObjectRef>();
  auto index = std::make_shared<uint64_t>(table->BeginIndex());
  return Function::FromTyped([keep, table, index](int64_t command) -> Any {
    if (command == 2) {
      // A stale cursor (the Dict changed underneath) ends rather than following old links.
      if (*index != table->EndIndex()) {
        *index = table->IsLiveIndex(*index) ? table->NextIndex(*index) : table->EndIndex();
      }
      return *index != table->EndIndex();
    }
    if (command != 0 && command != 1) {
      TVM_FFI_THROW(ValueError) << "map iterator: unknown command " << command
                                << " (0 = key, 1 = value, 2 = advance)";
    }
    if (!table->IsLiveIndex(*index)) {
      TVM_FFI_THROW(IndexError) << "map iterator: no current entry (at the end)";
    }
    const detail::MapEntry& e = table->KVAt(*index);
    return Any(AnyView::CopyFromTVMFFIAny(command == 0 ? e.key : e.value));
  });
}

TVM_FFI_STATIC_INIT_BLOCK() {
  namespace refl = tvm::ffi::reflection;
  refl::GlobalDef()
      .def_packed(
          "ffi.Map",
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
            return GetItem(TableArg(map, kTVMFFIMap, "ffi.MapGetItem"), key);
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
      .def(
          "ffi.MapGetItemOrMissing",
          [](AnyView map, AnyView key) -> Any {
            return GetItemOrMissing(TableArg(map, kTVMFFIMap, "ffi.MapGetItemOrMissing"), key);
          },
          "The value of key, or the missing sentinel (ffi.GetInvalidObject) when absent.")
      .def(
          "ffi.MapForwardIterFunctor",
          [](AnyView map) -> Function {
            return ForwardIterFunctor(map, kTVMFFIMap, "ffi.MapForwardIterFunctor");
          },
          "A cursor function over the Map: f(0) key, f(1) value, f(2) advance -> has next.")
      .def_packed(
          "ffi.Dict",
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
            return GetItem(TableArg(dict, kTVMFFIDict, "ffi.DictGetItem"), key);
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
          "ffi.DictGetItemOrMissing",
          [](AnyView dict, AnyView key) -> Any {
            return GetItemOrMissing(TableArg(dict, kTVMFFIDict, "ffi.DictGetItemOrMissing"), key);
          },
          "The value of key, or the missing sentinel (ffi.GetInvalidObject) when absent.")
      .def(
          "ffi.DictForwardIterFunctor",
          [](AnyView dict) -> Function {
            return ForwardIterFunctor(dict, kTVMFFIDict, "ffi.DictForwardIterFunctor");
          },
          "A cursor function over the Dict: f(0) key, f(1) value, f(2) advance -> has next.")
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
            const TVMFFIAny* kcell = detail::AnyUnsafe::GetTVMFFIAny(k);
            if (!MutableDictArg(dict, "ffi.DictErase")->Erase(kcell)) {
              detail::ThrowMapKeyError();
            }
          },
          "Remove key in place (KeyError when missing).")
      .def(
          "ffi.DictClear", [](AnyView dict) { MutableDictArg(dict, "ffi.DictClear")->Clear(); },
          "Remove all entries.");
}

}  // namespace
TVM_FFI_NAMESPACE_END
