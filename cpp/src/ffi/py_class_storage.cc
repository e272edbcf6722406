/*
 * Native storage of object types defined in Python (py_class): the field
 * getters and setters the Python layer registers, and the type attributes
 * __ffi_new__, __ffi_init__ and __ffi_shallow_copy__ of such types.
 *
 *   ffi.MakeFieldGetter(kind) -> int         address of a TVMFFIFieldGetter
 *   ffi.MakeFieldSetter(kind, converter, callback) -> Function
 *   ffi._PyClassRegisterTypeAttrColumns(type_index, total_size)
 *   ffi._PyClassSetNativeFieldInit(type_index, offset, init_type_index)
 *
 * `kind` is the field static type index of the storage: 1 int64, 3 double,
 * 2 bool (one byte), 4 void*, 5 DLDataType, 6 DLDevice, -1 an owned Any
 * (16 bytes), 64 a strong object reference (8 bytes, may be null).
 *
 * The setter Function is called as (field address as OpaquePtr, value). When
 * `callback` is non-zero it is a PyClassFieldConvert function called as
 * callback(converter, &value, &converted) first (0 on success, -1 with an
 * error raised); the converted value is then stored with the kind's own
 * rules, and the old value is released only after everything succeeded.
 *
 * Objects made by __ffi_new__ are zero-filled (fields read as 0, 0.0, False
 * or None). Their deleter releases every field stored by these getters
 * (recognised by its getter), and the shallow copy duplicates them.
 *
 * Fields inherited from a C++ parent are released and duplicated by their
 * layout (NativeFieldKind): 8-byte object references, 16-byte Any-shaped
 * values (Any, String, Bytes, Any-backed Optional/Variant) and plain data.
 * Zero bytes are a valid (null/None) value of each, except String and Bytes:
 * for those the Python layer names the offset with _PyClassSetNativeFieldInit
 * (before _PyClassRegisterTypeAttrColumns), and __ffi_new__ stores the empty
 * small-string tag there. The Python layer refuses C++ parents with fields of
 * any other layout. Fields that alias one offset (ffi.IntEnum's `value`) are
 * handled once.
 */
#include <tvm/ffi/any.h>
#include <tvm/ffi/dtype.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/object.h>
#include <tvm/ffi/reflection/accessor.h>
#include <tvm/ffi/reflection/registry.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <new>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

/*!
 * \brief The conversion callback of ffi.MakeFieldSetter: converts *value with
 *  the converter into an owned *result.
 */
typedef int (*PyClassFieldConvert)(void* converter, const TVMFFIAny* value, TVMFFIAny* result);

TVM_FFI_NAMESPACE_BEGIN
namespace detail {
namespace {

template <typename T>
T& FieldRef(void* field) {
  return *static_cast<T*>(field);
}

int GetInt64(void* field, TVMFFIAny* result) {
  result->type_index = kTVMFFIInt;
  result->zero_padding = 0;
  result->v_int64 = FieldRef<int64_t>(field);
  return 0;
}

int GetFloat64(void* field, TVMFFIAny* result) {
  result->type_index = kTVMFFIFloat;
  result->zero_padding = 0;
  result->v_float64 = FieldRef<double>(field);
  return 0;
}

int GetBool(void* field, TVMFFIAny* result) {
  result->type_index = kTVMFFIBool;
  result->zero_padding = 0;
  result->v_int64 = FieldRef<uint8_t>(field) != 0;
  return 0;
}

int GetOpaquePtr(void* field, TVMFFIAny* result) {
  result->v_int64 = 0;
  result->zero_padding = 0;
  void* ptr = FieldRef<void*>(field);
  result->type_index = ptr == nullptr ? kTVMFFINone : kTVMFFIOpaquePtr;
  result->v_ptr = ptr;
  return 0;
}

int GetDataType(void* field, TVMFFIAny* result) {
  result->v_int64 = 0;
  result->type_index = kTVMFFIDataType;
  result->zero_padding = 0;
  result->v_dtype = FieldRef<DLDataType>(field);
  return 0;
}

int GetDevice(void* field, TVMFFIAny* result) {
  result->v_int64 = 0;
  result->type_index = kTVMFFIDevice;
  result->zero_padding = 0;
  result->v_device = FieldRef<DLDevice>(field);
  return 0;
}

int GetAny(void* field, TVMFFIAny* result) {
  TVM_FFI_SAFE_CALL_BEGIN();
  *result = AnyUnsafe::MoveAnyToTVMFFIAny(Any(FieldRef<Any>(field)));
  TVM_FFI_SAFE_CALL_END();
}

int GetObject(void* field, TVMFFIAny* result) {
  TVMFFIObject* obj = FieldRef<TVMFFIObject*>(field);
  result->zero_padding = 0;
  if (obj == nullptr) {
    result->type_index = kTVMFFINone;
    result->v_int64 = 0;
  } else {
    TVMFFIObjectIncRef(obj);
    result->type_index = obj->type_index;
    result->v_obj = obj;
  }
  return 0;
}

TVMFFIFieldGetter GetterOfKind(int64_t kind) {
  switch (kind) {
    case kTVMFFIInt:
      return GetInt64;
    case kTVMFFIFloat:
      return GetFloat64;
    case kTVMFFIBool:
      return GetBool;
    case kTVMFFIOpaquePtr:
      return GetOpaquePtr;
    case kTVMFFIDataType:
      return GetDataType;
    case kTVMFFIDevice:
      return GetDevice;
    case kTVMFFIAny:
      return GetAny;
    case kTVMFFIObject:
      return GetObject;
    default:
      TVM_FFI_THROW(ValueError) << "no py_class field storage for field static type index " << kind;
  }
  TVM_FFI_UNREACHABLE();
}

/*! \brief Store value into the field of the given storage kind (converting with its rules). */
void StoreField(int64_t kind, void* field, AnyView value) {
  switch (kind) {
    case kTVMFFIInt:
      FieldRef<int64_t>(field) = value.cast<int64_t>();
      break;
    case kTVMFFIFloat:
      FieldRef<double>(field) = value.cast<double>();
      break;
    case kTVMFFIBool:
      FieldRef<uint8_t>(field) = value.cast<bool>() ? 1 : 0;
      break;
    case kTVMFFIOpaquePtr:
      FieldRef<void*>(field) = value.cast<void*>();
      break;
    case kTVMFFIDataType:
      FieldRef<DLDataType>(field) = value.cast<DLDataType>();
      break;
    case kTVMFFIDevice:
      FieldRef<DLDevice>(field) = value.cast<DLDevice>();
      break;
    case kTVMFFIAny:
      FieldRef<Any>(field) = Any(value);
      break;
    case kTVMFFIObject: {
      TVMFFIObject* next = nullptr;
      if (value.type_index() != kTVMFFINone) {
        ObjectRef ref = value.cast<ObjectRef>();
        next = ObjectUnsafe::MoveObjectRefToHandle(std::move(ref));
      }
      TVMFFIObject* old = FieldRef<TVMFFIObject*>(field);
      FieldRef<TVMFFIObject*>(field) = next;
      if (old != nullptr) TVMFFIObjectDecRef(old);
      break;
    }
    default:
      TVM_FFI_THROW(ValueError) << "no py_class field storage for field static type index " << kind;
  }
}

Function MakeFieldSetter(int64_t kind, int64_t converter_addr, int64_t callback_addr) {
  GetterOfKind(kind);  // validates the kind
  void* converter = reinterpret_cast<void*>(converter_addr);
  PyClassFieldConvert callback = reinterpret_cast<PyClassFieldConvert>(callback_addr);
  return Function::FromPacked(
      [kind, converter, callback](const AnyView* args, int32_t num_args, Any* rv) {
        if (num_args != 2) {
          TVM_FFI_THROW(TypeError) << "a py_class field setter takes (field address, value), got "
                                   << num_args << " arguments";
        }
        void* field = args[0].cast<void*>();
        if (callback == nullptr) {
          StoreField(kind, field, args[1]);
          return;
        }
        TVMFFIAny converted;
        converted.type_index = kTVMFFINone;
        converted.zero_padding = 0;
        converted.v_int64 = 0;
        if (callback(converter, AnyUnsafe::GetTVMFFIAny(args[1]), &converted) != 0) {
          throw MoveFromRaised();
        }
        Any owned = AnyUnsafe::MoveTVMFFIAnyToAny(&converted);
        StoreField(kind, field, owned);
      });
}

bool IsPyClassGetter(TVMFFIFieldGetter getter) {
  return getter == GetInt64 || getter == GetFloat64 || getter == GetBool ||
         getter == GetOpaquePtr || getter == GetDataType || getter == GetDevice ||
         getter == GetAny || getter == GetObject;
}

/*! \brief How a field's storage is released and copied. */
enum class StorageKind { kPlain, kAny, kObject, kUnsupported };

/*! \brief The storage of a field written by a C++ parent's own accessors, from its layout. */
StorageKind NativeFieldKind(const TVMFFIFieldInfo* f) {
  int32_t index = f->field_static_type_index;
  if (index > 0 && index < kTVMFFIStaticObjectBegin) return StorageKind::kPlain;
  if (f->size == 8 && (index >= kTVMFFIStaticObjectBegin || index == kTVMFFIAny)) {
    return StorageKind::kObject;
  }
  if (f->size == static_cast<int64_t>(sizeof(TVMFFIAny)) && index == kTVMFFIAny) {
    return StorageKind::kAny;
  }
  return StorageKind::kUnsupported;
}

StorageKind FieldKind(const TVMFFIFieldInfo* f) {
  if (f->getter == GetAny) return StorageKind::kAny;
  if (f->getter == GetObject) return StorageKind::kObject;
  if (IsPyClassGetter(f->getter)) return StorageKind::kPlain;
  return NativeFieldKind(f);
}

/*!
 * \brief Call fn(field_info, kind, field address) once per offset for every field of obj
 *  whose storage needs releasing or copying.
 */
template <typename Fn>
void ForEachStoredField(TVMFFIObject* obj, Fn fn) {
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(obj->type_index);
  if (info == nullptr) return;
  // Offsets of the reference-holding native fields seen so far (aliases are skipped).
  std::vector<int64_t> seen;
  reflection::ForEachFieldInfo(info, [&](const TVMFFIFieldInfo* f) {
    StorageKind kind = FieldKind(f);
    if (kind == StorageKind::kUnsupported) return;
    if (!IsPyClassGetter(f->getter) && kind != StorageKind::kPlain) {
      if (std::find(seen.begin(), seen.end(), f->offset) != seen.end()) return;
      seen.push_back(f->offset);
    }
    fn(f, kind, reinterpret_cast<char*>(obj) + f->offset);
  });
}

void PyClassObjectDeleter(void* self, int flags) {
  TVMFFIObject* obj = static_cast<TVMFFIObject*>(self);
  if (flags & kTVMFFIObjectDeleterFlagBitMaskStrong) {
    ForEachStoredField(obj, [](const TVMFFIFieldInfo*, StorageKind kind, void* field) {
      if (kind == StorageKind::kAny) {
        FieldRef<Any>(field).~Any();
        std::memset(field, 0, sizeof(TVMFFIAny));
      } else if (kind == StorageKind::kObject) {
        TVMFFIObject* ref = FieldRef<TVMFFIObject*>(field);
        FieldRef<TVMFFIObject*>(field) = nullptr;
        if (ref != nullptr) TVMFFIObjectDecRef(ref);
      }
    });
  }
  if (flags & kTVMFFIObjectDeleterFlagBitMaskWeak) std::free(self);
}

/*! \brief A zero-filled object of total_size bytes with the py_class deleter. */
TVMFFIObject* AllocPyClassObject(int32_t type_index, int64_t total_size) {
  void* mem = std::calloc(1, static_cast<size_t>(total_size));
  if (mem == nullptr) throw std::bad_alloc();
  TVMFFIObject* obj = static_cast<TVMFFIObject*>(mem);
  obj->combined_ref_count = (uint64_t(1) << 32) | 1;
  obj->type_index = type_index;
  obj->deleter = PyClassObjectDeleter;
  return obj;
}

/*! \brief (offset, type index) of the empty value stored in a fresh object, per type. */
using NativeInits = std::vector<std::pair<int64_t, int32_t>>;

std::mutex& NativeInitMutex() {
  static std::mutex mutex;
  return mutex;
}

std::unordered_map<int32_t, NativeInits>& NativeInitTable() {
  static std::unordered_map<int32_t, NativeInits> table;
  return table;
}

void PyClassSetNativeFieldInit(int32_t type_index, int64_t offset, int32_t init_type_index) {
  if (init_type_index != kTVMFFISmallStr && init_type_index != kTVMFFISmallBytes) {
    TVM_FFI_THROW(ValueError) << "ffi._PyClassSetNativeFieldInit: the empty value of type index "
                              << init_type_index << " is not supported";
  }
  if (offset < static_cast<int64_t>(sizeof(TVMFFIObject))) {
    TVM_FFI_THROW(ValueError) << "ffi._PyClassSetNativeFieldInit: offset " << offset
                              << " lies in the object header";
  }
  std::lock_guard<std::mutex> lock(NativeInitMutex());
  NativeInitTable()[type_index].emplace_back(offset, init_type_index);
}

void PyClassRegisterTypeAttrColumns(int32_t type_index, int64_t total_size) {
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(type_index);
  if (info == nullptr || type_index < kTVMFFIStaticObjectBegin) {
    TVM_FFI_THROW(ValueError) << "ffi._PyClassRegisterTypeAttrColumns: type index " << type_index
                              << " is not a registered object type";
  }
  if (total_size < static_cast<int64_t>(sizeof(TVMFFIObject))) {
    TVM_FFI_THROW(ValueError) << "ffi._PyClassRegisterTypeAttrColumns: total_size " << total_size
                              << " is smaller than the object header";
  }
  std::string key(info->type_key.data, info->type_key.size);
  NativeInits inits;
  {
    std::lock_guard<std::mutex> lock(NativeInitMutex());
    auto it = NativeInitTable().find(type_index);
    if (it != NativeInitTable().end()) inits = it->second;
  }
  for (const auto& init : inits) {
    if (init.first + static_cast<int64_t>(sizeof(TVMFFIAny)) > total_size) {
      TVM_FFI_THROW(ValueError) << "ffi._PyClassRegisterTypeAttrColumns: a String/Bytes field at "
                                << init.first << " does not fit in total_size " << total_size;
    }
  }
  Function new_fn = Function::FromTyped(
      [type_index, total_size, inits]() -> ObjectRef {
        TVMFFIObject* obj = AllocPyClassObject(type_index, total_size);
        for (const auto& init : inits) {
          reinterpret_cast<TVMFFIAny*>(reinterpret_cast<char*>(obj) + init.first)->type_index =
              init.second;
        }
        return ObjectRef(ObjectUnsafe::ObjectPtrFromOwned<Object>(obj));
      },
      key + ".__ffi_new__");
  Function copy_fn = Function::FromTyped(
      [total_size](const Object* self) -> ObjectRef {
        const TVMFFIObject* src = reinterpret_cast<const TVMFFIObject*>(self);
        TVMFFIObject* dst = AllocPyClassObject(src->type_index, total_size);
        ObjectRef result(ObjectUnsafe::ObjectPtrFromOwned<Object>(dst));
        ForEachStoredField(dst, [&](const TVMFFIFieldInfo* f, StorageKind kind, void* field) {
          const void* from = reinterpret_cast<const char*>(src) + f->offset;
          if (kind == StorageKind::kAny) {
            new (field) Any(*static_cast<const Any*>(from));
          } else if (kind == StorageKind::kObject) {
            TVMFFIObject* ref = *static_cast<TVMFFIObject* const*>(from);
            if (ref != nullptr) TVMFFIObjectIncRef(ref);
            FieldRef<TVMFFIObject*>(field) = ref;
          } else {
            std::memcpy(field, from, static_cast<size_t>(f->size));
          }
        });
        return result;
      },
      key + ".__ffi_shallow_copy__");
  RegisterTypeAttrValue(type_index, key, "__ffi_new__", new_fn);
  RegisterTypeAttrValue(type_index, key, "__ffi_shallow_copy__", copy_fn);
  Function::GetGlobalRequired("ffi._RegisterFFIInit")(type_index);
}

TVM_FFI_STATIC_INIT_BLOCK() {
  namespace refl = tvm::ffi::reflection;
  refl::GlobalDef()
      .def(
          "ffi.MakeFieldGetter",
          [](int64_t kind) { return reinterpret_cast<int64_t>(GetterOfKind(kind)); },
          "Address of the C getter of a py_class field stored as the given kind.")
      .def("ffi.MakeFieldSetter", MakeFieldSetter,
           "Setter Function of a py_class field: (kind, converter, convert callback).")
      .def("ffi._PyClassSetNativeFieldInit", PyClassSetNativeFieldInit,
           "Name a C++ parent's String/Bytes field that a fresh py_class object holds empty.")
      .def("ffi._PyClassRegisterTypeAttrColumns", PyClassRegisterTypeAttrColumns,
           "Register __ffi_new__, __ffi_init__ and __ffi_shallow_copy__ of a py_class type.");
}

}  // namespace
}  // namespace detail
TVM_FFI_NAMESPACE_END
