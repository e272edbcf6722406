/*
 * Type attribute columns: one column of values per attribute name, indexed
 * by type index (docs/abi.md §2.6). C functions TVMFFITypeRegisterAttr and
 * TVMFFIGetTypeAttrColumn.
 *
 * Compiled code reads columns inline without locks: a column's data block is
 * allocated once for every possible type index and never moves, begin_index
 * is always 0 and size (highest registered index + 1) only grows, published
 * after the entry it covers. The columns the reflection helpers and compiled
 * code look up eagerly exist from start-up. Values are owned by the column
 * for the lifetime of the process.
 */
#include "type_table.h"

#include "safe_invoke.h"

#include <tvm/ffi/error.h>

#include <cstdlib>
#include <memory>
#include <mutex>
#include <new>
#include <string>
#include <unordered_map>

TVM_FFI_NAMESPACE_BEGIN
namespace detail {
namespace {

/*! \brief Columns that exist in a freshly loaded runtime, even when empty. */
const char* const kStartupColumns[] = {
    "__ffi_new__",          "__ffi_init__",
    "__ffi_shallow_copy__", "__ffi_type_final__",
    "__ffi_convert__",      "__ffi_repr__",
    "__ffi_hash__",         "__ffi_eq__",
    "__ffi_compare__",      "__s_equal__",
    "__s_hash__",           "__s_visit__",
    "__s_mutate__",         "__s_maybe_inplace_mutate__",
    "__data_to_json__",     "__data_from_json__",
    "__any_hash__",         "__any_equal__",
    "__ffi_enum__",
};

class AttrColumns {
 public:
  static AttrColumns& Global() {
    static AttrColumns* inst = new AttrColumns();
    return *inst;
  }

  void Register(int32_t type_index, const std::string& name, const TVMFFIAny& value) {
    if (name.empty()) TVM_FFI_THROW(ValueError) << "attribute name must not be empty";
    std::lock_guard<std::mutex> lock(mutex_);
    TVMFFITypeAttrColumn* column = FindOrCreateLocked(name);
    // Index 0 (None) only asks for the column to exist.
    if (type_index == kTVMFFINone) return;
    const TVMFFITypeInfo* info = TypeTable::Global().Get(type_index);
    if (info == nullptr) {
      TVM_FFI_THROW(ValueError) << "Cannot register attribute `" + name + "`: type index " +
                                       std::to_string(type_index) + " is not registered";
    }
    TVMFFIAny* cell = const_cast<TVMFFIAny*>(column->data) + type_index;
    if (type_index < column->size && cell->type_index != kTVMFFINone) {
      TVM_FFI_THROW(RuntimeError) << "TypeAttr `" + name +
                                         "` is already registered for type index " +
                                         std::to_string(type_index) + ". (type `" +
                                         ByteArrayToStdString(&info->type_key) + "`)";
    }
    if (value.type_index == kTVMFFINone) return;
    TVMFFIAny owned = ToOwned(value, "attribute `" + name + "`");
    __atomic_store_n(&cell->v_int64, owned.v_int64, __ATOMIC_RELAXED);
    __atomic_store_n(&cell->zero_padding, owned.zero_padding, __ATOMIC_RELAXED);
    __atomic_store_n(&cell->type_index, owned.type_index, __ATOMIC_RELEASE);
    if (type_index >= column->size)
      __atomic_store_n(&column->size, type_index + 1, __ATOMIC_RELEASE);
  }

  const TVMFFITypeAttrColumn* Get(const std::string& name) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = columns_.find(name);
    return it == columns_.end() ? nullptr : it->second.get();
  }

 private:
  AttrColumns() {
    for (const char* name : kStartupColumns) FindOrCreateLocked(name);
  }

  TVMFFITypeAttrColumn* FindOrCreateLocked(const std::string& name) {
    auto it = columns_.find(name);
    if (it != columns_.end()) return it->second.get();
    // calloc leaves the pages untouched until written (None is all-zero
    // bytes), so the unused part of a column costs address space only.
    static_assert(kTVMFFINone == 0, "a zero-filled cell must read as None");
    void* data = std::calloc(static_cast<size_t>(TypeTable::kMaxTypeIndex), sizeof(TVMFFIAny));
    if (data == nullptr) throw std::bad_alloc();
    std::unique_ptr<TVMFFITypeAttrColumn> column(new TVMFFITypeAttrColumn());
    column->data = static_cast<const TVMFFIAny*>(data);
    column->size = 0;
    column->begin_index = 0;
    return columns_.emplace(name, std::move(column)).first->second.get();
  }

  std::mutex mutex_;
  std::unordered_map<std::string, std::unique_ptr<TVMFFITypeAttrColumn>> columns_;
};

}  // namespace
}  // namespace detail
TVM_FFI_NAMESPACE_END

using tvm::ffi::Error;
using tvm::ffi::detail::AttrColumns;
using tvm::ffi::detail::ByteArrayToStdString;
using tvm::ffi::detail::SafeInvoke;

extern "C" {

TVM_FFI_DLL int TVMFFITypeRegisterAttr(int32_t type_index, const TVMFFIByteArray* attr_name,
                                       const TVMFFIAny* attr_value) {
  return SafeInvoke([&]() -> int {
    if (attr_name == nullptr || attr_value == nullptr) {
      TVM_FFI_THROW(ValueError) << "TVMFFITypeRegisterAttr: arguments must not be NULL";
    }
    AttrColumns::Global().Register(type_index, ByteArrayToStdString(attr_name), *attr_value);
    tvm::ffi::detail::TypeTable::Global().BumpReflectionGeneration();
    return 0;
  });
}

TVM_FFI_DLL const TVMFFITypeAttrColumn* TVMFFIGetTypeAttrColumn(const TVMFFIByteArray* attr_name) {
  if (attr_name == nullptr) return nullptr;
  try {
    return AttrColumns::Global().Get(ByteArrayToStdString(attr_name));
  } catch (...) {
    // This entry point reports "absent" rather than raising.
    return nullptr;
  }
}

}  // extern "C"
