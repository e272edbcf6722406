/*
 * Reflection tables of the type table: per-type fields, methods and metadata,
 * and per-attribute columns of values indexed by type index. C functions
 * TVMFFITypeRegisterField/Method/Metadata/Attr and TVMFFIGetTypeAttrColumn.
 *
 * Readers use these tables without locks (see type_table.h): field and
 * method arrays and attribute columns are allocated once at their final size
 * and never move; a new element is written before the count (or, in a
 * column, the entry's type index) that makes it visible is published.
 *
 * Values the registry keeps (field defaults, methods, attributes, Function
 * setters) hold a strong reference for the lifetime of the process.
 */
#include "type_table.h"

#include "safe_invoke.h"

#include <tvm/ffi/error.h>

#include <cstdlib>
#include <memory>
#include <new>
#include <string>
#include <unordered_map>

TVM_FFI_NAMESPACE_BEGIN
namespace detail {
namespace {

/*! \brief Take an owned copy of a (possibly borrowed) value for the registry to keep. */
TVMFFIAny ToOwned(const TVMFFIAny& view, const std::string& what) {
  TVMFFIAny out = view;
  int32_t tindex = view.type_index;
  if (tindex >= kTVMFFIStaticObjectBegin) {
    if (view.v_obj != nullptr) TVMFFIObjectIncRef(view.v_obj);
  } else if (tindex == kTVMFFIDLTensorPtr || tindex == kTVMFFIRawStr ||
             tindex == kTVMFFIByteArrayPtr || tindex == kTVMFFIObjectRValueRef) {
    // Borrowed kinds: the conversion routine turns them into owned objects.
    if (TVMFFIAnyViewToOwnedAny(&view, &out) != 0) {
      // Replace the conversion error by one naming what was being stored.
      TVMFFIObjectHandle err = nullptr;
      TVMFFIErrorMoveFromRaised(&err);
      if (err != nullptr) TVMFFIObjectDecRef(err);
      TVM_FFI_THROW(TypeError) << "cannot store a value of type index " + std::to_string(tindex) +
                                      " as " + what;
    }
  } else if (tindex < kTVMFFINone || tindex > kTVMFFIUnchanged) {
    TVM_FFI_THROW(TypeError) << "invalid type index " + std::to_string(tindex) +
                                    " in value stored as " + what;
  }
  return out;
}

/*! \brief One attribute column: a value slot for every possible type index. */
struct AttrColumn {
  TVMFFITypeAttrColumn column{nullptr, 0, 0};
};

/*!
 * \brief Append to a reader-visible array of fixed capacity: allocate it on
 *  first use, write the element, then publish the count.
 */
template <typename T>
void AppendFixed(std::unique_ptr<T[]>* storage, const T** data, int32_t* count, const T& value,
                 const std::string& type_key, const char* what) {
  int32_t n = *count;
  if (n >= kMaxReflectionEntries) {
    TVM_FFI_THROW(IndexError) << "Type \"" + type_key + "\" cannot have more than " +
                                     std::to_string(kMaxReflectionEntries) + " " + what;
  }
  if (*storage == nullptr) {
    // Default-initialised: untouched pages cost no memory.
    storage->reset(new T[kMaxReflectionEntries]);
    __atomic_store_n(data, static_cast<const T*>(storage->get()), __ATOMIC_RELEASE);
  }
  (*storage)[n] = value;
  __atomic_store_n(count, n + 1, __ATOMIC_RELEASE);
}

class ReflectionTables {
 public:
  static ReflectionTables& Global() {
    static ReflectionTables* inst = new ReflectionTables();
    return *inst;
  }

  void RegisterField(int32_t type_index, const TVMFFIFieldInfo& src) {
    TypeTable& table = TypeTable::Global();
    std::lock_guard<std::mutex> lock(table.mutex());
    TypeEntry* e = table.RequireLocked(type_index, "register a field");
    std::string name = ByteArrayToStdString(&src.name);
    if (name.empty()) {
      TVM_FFI_THROW(ValueError) << "field name must not be empty (type \"" + e->key + "\")";
    }
    for (int32_t i = 0; i < e->info.num_fields; ++i) {
      if (ByteArrayToStdString(&e->info.fields[i].name) == name) {
        TVM_FFI_THROW(ValueError) << "Field \"" + name + "\" is already registered on type \"" +
                                         e->key + "\"";
      }
    }
    if (e->info.num_fields >= kMaxReflectionEntries) {
      TVM_FFI_THROW(IndexError) << "Type \"" + e->key + "\" cannot have more than " +
                                       std::to_string(kMaxReflectionEntries) + " fields";
    }
    TVMFFIFieldInfo copy = src;
    copy.default_value_or_factory = ToOwned(src.default_value_or_factory, "a field default");
    copy.name = e->Own(src.name);
    copy.doc = e->Own(src.doc);
    copy.metadata = e->Own(src.metadata);
    if ((copy.flags & kTVMFFIFieldFlagBitSetterIsFunctionObj) && copy.setter != nullptr) {
      TVMFFIObjectIncRef(copy.setter);
    }
    AppendFixed(&e->field_storage, &e->info.fields, &e->info.num_fields, copy, e->key, "fields");
  }

  void RegisterMethod(int32_t type_index, const TVMFFIMethodInfo& src) {
    TypeTable& table = TypeTable::Global();
    std::lock_guard<std::mutex> lock(table.mutex());
    TypeEntry* e = table.RequireLocked(type_index, "register a method");
    std::string name = ByteArrayToStdString(&src.name);
    if (name.empty()) {
      TVM_FFI_THROW(ValueError) << "method name must not be empty (type \"" + e->key + "\")";
    }
    for (int32_t i = 0; i < e->info.num_methods; ++i) {
      if (ByteArrayToStdString(&e->info.methods[i].name) == name) {
        TVM_FFI_THROW(ValueError) << "Method \"" + name + "\" is already registered on type \"" +
                                         e->key + "\"";
      }
    }
    if (e->info.num_methods >= kMaxReflectionEntries) {
      TVM_FFI_THROW(IndexError) << "Type \"" + e->key + "\" cannot have more than " +
                                       std::to_string(kMaxReflectionEntries) + " methods";
    }
    TVMFFIMethodInfo copy = src;
    copy.method = ToOwned(src.method, "a method");
    copy.name = e->Own(src.name);
    copy.doc = e->Own(src.doc);
    copy.metadata = e->Own(src.metadata);
    AppendFixed(&e->method_storage, &e->info.methods, &e->info.num_methods, copy, e->key,
                "methods");
  }

  void RegisterMetadata(int32_t type_index, const TVMFFITypeMetadata& src) {
    TypeTable& table = TypeTable::Global();
    std::lock_guard<std::mutex> lock(table.mutex());
    TypeEntry* e = table.RequireLocked(type_index, "register metadata");
    // A later registration replaces the earlier one; the old record stays alive for readers.
    std::unique_ptr<TVMFFITypeMetadata> copy(new TVMFFITypeMetadata(src));
    copy->doc = e->Own(src.doc);
    const TVMFFITypeMetadata* published = copy.get();
    e->metadata_records.push_back(std::move(copy));
    __atomic_store_n(&e->info.metadata, published, __ATOMIC_RELEASE);
  }

  void RegisterAttr(int32_t type_index, const std::string& name, const TVMFFIAny& value) {
    TypeTable& table = TypeTable::Global();
    std::lock_guard<std::mutex> lock(table.mutex());
    TypeEntry* e = table.RequireLocked(type_index, "register attribute \"" + name + "\"");
    if (name.empty()) TVM_FFI_THROW(ValueError) << "attribute name must not be empty";
    auto it = columns_.find(name);
    if (it != columns_.end() && it->second->column.data[type_index].type_index != kTVMFFINone) {
      TVM_FFI_THROW(ValueError) << "Attribute \"" + name + "\" is already registered on type \"" +
                                       e->key + "\"";
    }
    TVMFFIAny owned = ToOwned(value, "attribute \"" + name + "\"");
    if (it == columns_.end()) it = columns_.emplace(name, NewColumn()).first;
    TVMFFIAny* cell = const_cast<TVMFFIAny*>(it->second->column.data) + type_index;
    // The payload first, then the type index that makes the entry visible.
    __atomic_store_n(&cell->v_int64, owned.v_int64, __ATOMIC_RELAXED);
    __atomic_store_n(&cell->zero_padding, owned.zero_padding, __ATOMIC_RELAXED);
    __atomic_store_n(&cell->type_index, owned.type_index, __ATOMIC_RELEASE);
  }

  const TVMFFITypeAttrColumn* GetColumn(const std::string& name) {
    std::lock_guard<std::mutex> lock(TypeTable::Global().mutex());
    auto it = columns_.find(name);
    return it == columns_.end() ? nullptr : &it->second->column;
  }

 private:
  /*!
   * \brief A column covering every type index, all None. calloc leaves the
   *  pages untouched until written (None is all-zero bytes), so the unused
   *  part of a column costs address space only; the column never grows.
   */
  static std::unique_ptr<AttrColumn> NewColumn() {
    static_assert(kTVMFFINone == 0, "a zero-filled cell must read as None");
    void* data = std::calloc(static_cast<size_t>(TypeTable::kMaxTypeIndex), sizeof(TVMFFIAny));
    if (data == nullptr) throw std::bad_alloc();
    std::unique_ptr<AttrColumn> col(new AttrColumn());
    col->column.data = static_cast<const TVMFFIAny*>(data);
    col->column.size = TypeTable::kMaxTypeIndex;
    col->column.begin_index = 0;
    return col;
  }

  std::unordered_map<std::string, std::unique_ptr<AttrColumn>> columns_;
};

}  // namespace
}  // namespace detail
TVM_FFI_NAMESPACE_END

using tvm::ffi::Error;
using tvm::ffi::detail::ByteArrayToStdString;
using tvm::ffi::detail::ReflectionTables;
using tvm::ffi::detail::SafeInvoke;

extern "C" {

TVM_FFI_DLL int TVMFFITypeRegisterField(int32_t type_index, const TVMFFIFieldInfo* info) {
  return SafeInvoke([&]() -> int {
    if (info == nullptr) {
      TVM_FFI_THROW(ValueError) << "TVMFFITypeRegisterField: info must not be NULL";
    }
    ReflectionTables::Global().RegisterField(type_index, *info);
    return 0;
  });
}

TVM_FFI_DLL int TVMFFITypeRegisterMethod(int32_t type_index, const TVMFFIMethodInfo* info) {
  return SafeInvoke([&]() -> int {
    if (info == nullptr) {
      TVM_FFI_THROW(ValueError) << "TVMFFITypeRegisterMethod: info must not be NULL";
    }
    ReflectionTables::Global().RegisterMethod(type_index, *info);
    return 0;
  });
}

TVM_FFI_DLL int TVMFFITypeRegisterMetadata(int32_t type_index, const TVMFFITypeMetadata* metadata) {
  return SafeInvoke([&]() -> int {
    if (metadata == nullptr) {
      TVM_FFI_THROW(ValueError) << "TVMFFITypeRegisterMetadata: metadata must not be NULL";
    }
    ReflectionTables::Global().RegisterMetadata(type_index, *metadata);
    return 0;
  });
}

TVM_FFI_DLL int TVMFFITypeRegisterAttr(int32_t type_index, const TVMFFIByteArray* attr_name,
                                       const TVMFFIAny* attr_value) {
  return SafeInvoke([&]() -> int {
    if (attr_name == nullptr || attr_value == nullptr) {
      TVM_FFI_THROW(ValueError) << "TVMFFITypeRegisterAttr: arguments must not be NULL";
    }
    ReflectionTables::Global().RegisterAttr(type_index, ByteArrayToStdString(attr_name),
                                            *attr_value);
    return 0;
  });
}

TVM_FFI_DLL const TVMFFITypeAttrColumn* TVMFFIGetTypeAttrColumn(const TVMFFIByteArray* attr_name) {
  if (attr_name == nullptr) return nullptr;
  try {
    return ReflectionTables::Global().GetColumn(ByteArrayToStdString(attr_name));
  } catch (...) {
    // This entry point reports "absent" rather than raising.
    return nullptr;
  }
}

}  // extern "C"
