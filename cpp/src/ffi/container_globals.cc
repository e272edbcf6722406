/*
 * Runtime globals that search and edit containers in place
 * (docs/runtime_globals.md): ffi.ArrayContains, ffi.ListContains, ffi.ListPop,
 * ffi.ListEraseRange, ffi.ListReplaceSlice, ffi.ListReverse, ffi.ListReserve
 * and ffi.ContainerFindFirstNonCPUDevice. Language bindings implement `in`,
 * `pop`, slice assignment and friends with them.
 *
 * Index arguments are checked here, before the list changes, so that a bad
 * index raises an IndexError naming it and leaves the list as it was.
 */
#include <tvm/ffi/any.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/dict.h>
#include <tvm/ffi/container/list.h>
#include <tvm/ffi/container/map.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/reflection/registry.h>

#include <algorithm>
#include <cstdint>
#include <unordered_set>
#include <utility>
#include <vector>

TVM_FFI_NAMESPACE_BEGIN
namespace {

TVMFFIObject* ObjectOf(const AnyView& arg) {
  return detail::AnyObjectOrNull(detail::AnyUnsafe::GetTVMFFIAny(arg));
}

[[noreturn]] void ThrowNotA(const char* func, int arg_index, const char* expected,
                            const AnyView& arg) {
  TVM_FFI_THROW(TypeError) << func << ": expected argument #" << arg_index << " of type `"
                           << expected << "` but got `"
                           << detail::AnyTypeStr(detail::AnyUnsafe::GetTVMFFIAny(arg)) << "`";
}

// The list an argument refers to, shared (never a converted copy).
List<Any> SharedList(const AnyView& arg, const char* func) {
  TVMFFIObject* obj = ObjectOf(arg);
  if (obj == nullptr || obj->type_index != kTVMFFIList) ThrowNotA(func, 0, "List", arg);
  return List<Any>(detail::ObjectUnsafe::ObjectPtrFromUnowned<Object>(obj));
}

// The Array or List (as type_index says) an argument refers to.
const detail::SeqBaseObj* SeqArg(const AnyView& arg, int32_t type_index, const char* func) {
  TVMFFIObject* obj = ObjectOf(arg);
  if (obj == nullptr || obj->type_index != type_index) {
    ThrowNotA(func, 0, type_index == kTVMFFIList ? "List" : "Array", arg);
  }
  return static_cast<const detail::SeqBaseObj*>(reinterpret_cast<const Object*>(obj));
}

bool SeqContains(const detail::SeqBaseObj* seq, const AnyView& value) {
  for (int64_t i = 0; i < seq->SeqCell()->size; ++i) {
    if (AnyEqual()(AnyView(seq->GetItem(i)), value)) return true;
  }
  return false;
}

[[noreturn]] void ThrowIndex(const char* func, int64_t index, int64_t size) {
  TVM_FFI_THROW(IndexError) << func << ": index " << index << " out of range for a List of size "
                            << size;
}

// [start, stop) must satisfy 0 <= start <= stop <= size.
void CheckRange(const char* func, int64_t start, int64_t stop, int64_t size) {
  if (start < 0 || start > size) ThrowIndex(func, start, size);
  if (stop < start || stop > size) {
    TVM_FFI_THROW(IndexError) << func << ": stop " << stop << " out of range [" << start << ", "
                              << size << "] for a List of size " << size;
  }
}

// Walks nested containers depth first; each container is visited once, so a
// list that contains itself ends the walk.
class NonCPUDeviceFinder {
 public:
  bool Find(const AnyView& value, DLDevice* out) {
    TVMFFIObject* obj = ObjectOf(value);
    if (obj == nullptr) return false;
    switch (obj->type_index) {
      case kTVMFFITensor: {
        const DLTensor* t = reinterpret_cast<const DLTensor*>(reinterpret_cast<const char*>(obj) +
                                                              sizeof(TVMFFIObject));
        if (t->device.device_type == kDLCPU) return false;
        *out = t->device;
        return true;
      }
      case kTVMFFIArray:
      case kTVMFFIList: {
        if (!visited_.insert(obj).second) return false;
        const auto* seq =
            static_cast<const detail::SeqBaseObj*>(reinterpret_cast<const Object*>(obj));
        for (int64_t i = 0; i < seq->SeqCell()->size; ++i) {
          if (Find(AnyView(seq->GetItem(i)), out)) return true;
        }
        return false;
      }
      case kTVMFFIMap: {
        if (!visited_.insert(obj).second) return false;
        return FindInPairs(value.cast<Map<Any, Any>>(), out);
      }
      case kTVMFFIDict: {
        if (!visited_.insert(obj).second) return false;
        return FindInPairs(value.cast<Dict<Any, Any>>(), out);
      }
      default:
        return false;
    }
  }

 private:
  template <typename MapLike>
  bool FindInPairs(const MapLike& map, DLDevice* out) {
    for (const auto& kv : map) {
      if (Find(AnyView(kv.first), out) || Find(AnyView(kv.second), out)) return true;
    }
    return false;
  }

  std::unordered_set<const TVMFFIObject*> visited_;
};

TVM_FFI_STATIC_INIT_BLOCK() {
  namespace refl = tvm::ffi::reflection;
  refl::GlobalDef()
      .def(
          "ffi.ArrayContains",
          [](AnyView array, AnyView value) {
            return SeqContains(SeqArg(array, kTVMFFIArray, "ffi.ArrayContains"), value);
          },
          "Whether an Array holds an element equal to value (FFI equality, no conversion).")
      .def(
          "ffi.ListContains",
          [](AnyView list, AnyView value) {
            return SeqContains(SeqArg(list, kTVMFFIList, "ffi.ListContains"), value);
          },
          "Whether a List holds an element equal to value (FFI equality, no conversion).")
      .def(
          "ffi.ListPop",
          [](AnyView list, int64_t index) -> Any {
            List<Any> l = SharedList(list, "ffi.ListPop");
            int64_t size = static_cast<int64_t>(l.size());
            if (index < 0 || index >= size) ThrowIndex("ffi.ListPop", index, size);
            Any value = l[index];
            l.erase(index);
            return value;
          },
          "Remove the element at index (0 <= index < size) and return it.")
      .def(
          "ffi.ListEraseRange",
          [](AnyView list, int64_t start, int64_t stop) {
            List<Any> l = SharedList(list, "ffi.ListEraseRange");
            CheckRange("ffi.ListEraseRange", start, stop, static_cast<int64_t>(l.size()));
            if (start == stop) return;
            l.erase(l.begin() + start, l.begin() + stop);
          },
          "Remove the elements of [start, stop).")
      .def(
          "ffi.ListReplaceSlice",
          [](AnyView list, int64_t start, int64_t stop, AnyView replacement) {
            List<Any> l = SharedList(list, "ffi.ListReplaceSlice");
            CheckRange("ffi.ListReplaceSlice", start, stop, static_cast<int64_t>(l.size()));
            TVMFFIObject* r = ObjectOf(replacement);
            if (r == nullptr || (r->type_index != kTVMFFIList && r->type_index != kTVMFFIArray)) {
              ThrowNotA("ffi.ListReplaceSlice", 3, "List", replacement);
            }
            // A snapshot first: the replacement may be the list itself.
            const auto* seq =
                static_cast<const detail::SeqBaseObj*>(reinterpret_cast<const Object*>(r));
            std::vector<Any> items;
            items.reserve(static_cast<size_t>(seq->SeqCell()->size));
            for (int64_t i = 0; i < seq->SeqCell()->size; ++i) items.emplace_back(seq->GetItem(i));
            int64_t new_size = static_cast<int64_t>(l.size()) - (stop - start) +
                               static_cast<int64_t>(items.size());
            // Reserve before editing so that running out of memory changes nothing.
            if (new_size > static_cast<int64_t>(l.capacity())) l.reserve(new_size);
            if (start != stop) l.erase(l.begin() + start, l.begin() + stop);
            l.insert(l.begin() + start, items.begin(), items.end());
          },
          "Replace the elements of [start, stop) by those of a List or Array.")
      .def(
          "ffi.ListReverse",
          [](AnyView list) {
            List<Any> l = SharedList(list, "ffi.ListReverse");
            int64_t n = static_cast<int64_t>(l.size());
            for (int64_t i = 0, j = n - 1; i < j; ++i, --j) {
              Any a = l[i];
              l.Set(i, l[j]);
              l.Set(j, std::move(a));
            }
          },
          "Reverse a List in place.")
      .def(
          "ffi.ListReserve",
          [](AnyView list, int64_t capacity) {
            List<Any> l = SharedList(list, "ffi.ListReserve");
            if (capacity < 0) {
              TVM_FFI_THROW(ValueError)
                  << "ffi.ListReserve: capacity " << capacity << " must not be negative";
            }
            l.reserve(capacity);
          },
          "Make room for at least capacity elements without changing the List.")
      .def(
          "ffi.ContainerFindFirstNonCPUDevice",
          [](AnyView container) -> DLDevice {
            DLDevice device{kDLCPU, 0};
            NonCPUDeviceFinder().Find(container, &device);
            return device;
          },
          "The device of the first non-CPU Tensor inside nested Array/List/Map/Dict "
          "(depth first, keys before values); cpu:0 when there is none.");
}

}  // namespace
TVM_FFI_NAMESPACE_END
