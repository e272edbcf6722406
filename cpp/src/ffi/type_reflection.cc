/*
 * Reflection records of the type table: per-type fields, methods and
 * metadata. C functions TVMFFITypeRegisterField/Method/Metadata. Attribute
 * columns live in type_attr_column.cc.
 *
 * Readers use these tables without locks (see type_table.h): field and
 * method arrays are allocated once at their final size and never move; a new
 * element is written before the count that makes it visible is published.
 *
 * Values the registry keeps (field defaults, methods, Function setters) hold
 * a strong reference for the lifetime of the process.
 */
#include "type_table.h"

#include "safe_invoke.h"

#include <tvm/ffi/error.h>

#include <cstdio>
#include <memory>
#include <new>
#include <string>
#include <unordered_map>

TVM_FFI_NAMESPACE_BEGIN
namespace detail {
namespace {

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
        TVM_FFI_THROW(RuntimeError)
            << "Duplicate field name `" + name + "` in type `" + e->key + "`";
      }
    }
    // A subclass may shadow an ancestor's field; that is legal but rarely meant.
    for (const TVMFFITypeInfo* ancestor : e->ancestors) {
      for (int32_t i = 0; i < ancestor->num_fields; ++i) {
        if (ByteArrayToStdString(&ancestor->fields[i].name) == name) {
          std::fprintf(stderr,
                       "Warning: field `%s` of type `%s` shadows the field of the same name in "
                       "its ancestor `%s`\n",
                       name.c_str(), e->key.c_str(),
                       ByteArrayToStdString(&ancestor->type_key).c_str());
        }
      }
    }
    if (e->info.num_fields >= kMaxReflectionEntries) {
      TVM_FFI_THROW(IndexError) << "Type \"" + e->key + "\" cannot have more than " +
                                       std::to_string(kMaxReflectionEntries) + " fields";
    }
    TVMFFIFieldInfo copy = src;
    // The default is only meaningful (and only kept) with the has-default flag.
    if (src.flags & kTVMFFIFieldFlagBitMaskHasDefault) {
      copy.default_value_or_factory = ToOwned(src.default_value_or_factory, "a field default");
    } else {
      copy.default_value_or_factory = TVMFFIAny{};
      copy.default_value_or_factory.type_index = kTVMFFINone;
    }
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
    // Duplicate names are kept: an overloaded method publishes one entry per signature.
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
    if (e->info.metadata != nullptr) {
      TVM_FFI_THROW(RuntimeError) << "Overriding " + e->key +
                                         ", possible causes:\n"
                                         "- two ObjectDef<T>() calls for the same T\n"
                                         "- when we forget to assign _type_key to ObjectRef<Y> "
                                         "that inherits from T\n"
                                         "- another type with the same key";
    }
    std::unique_ptr<TVMFFITypeMetadata> copy(new TVMFFITypeMetadata(src));
    copy->doc = e->Own(src.doc);
    const TVMFFITypeMetadata* published = copy.get();
    e->metadata_records.push_back(std::move(copy));
    __atomic_store_n(&e->info.metadata, published, __ATOMIC_RELEASE);
  }
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
    tvm::ffi::detail::TypeTable::Global().BumpReflectionGeneration();
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
    tvm::ffi::detail::TypeTable::Global().BumpReflectionGeneration();
    return 0;
  });
}

}  // extern "C"
