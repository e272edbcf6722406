/*
 * Type attributes: per-type values stored in named columns indexed by type
 * index (TVMFFITypeRegisterAttr / TVMFFIGetTypeAttrColumn, docs/abi.md §2.6).
 *
 *   static reflection::TypeAttrColumn repr_col(reflection::type_attr::kRepr);
 *   AnyView hook = repr_col[obj->type_index()];   // None when the type has none
 *
 * Attributes are not inherited: a column holds only each type's own value.
 * The columns named in type_attr exist from the moment libtvm_ffi is loaded,
 * so compiled code may build a TypeAttrColumn for them eagerly.
 */
#ifndef TVM_FFI_REFLECTION_TYPE_ATTR_H_
#define TVM_FFI_REFLECTION_TYPE_ATTR_H_

#include <tvm/ffi/any.h>
#include <tvm/ffi/base.h>
#include <tvm/ffi/c_api.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/reflection/native_function.h>

#include <optional>
#include <string>
#include <type_traits>

TVM_FFI_NAMESPACE_BEGIN
namespace reflection {

/*!
 * \brief The name of an attribute column together with the type of its values.
 * \tparam T the value type; ValueFrom casts an entry to it.
 */
template <typename T>
struct AttrKey {
  /*! \brief The column name. */
  const char* name;

  /*! \brief nullopt for None (no value), else the entry cast strictly to T (TypeError otherwise).
   */
  std::optional<T> ValueFrom(AnyView value) const {
    if (value == nullptr) return std::nullopt;
    if constexpr (std::is_same_v<T, Any>) {
      return Any(value);
    } else if constexpr (std::is_same_v<T, AnyView>) {
      return value;
    } else {
      return value.as_or_throw<T>();
    }
  }
};

}  // namespace reflection

/*!
 * \brief Names of the attribute columns the runtime and the reflection helpers use.
 *
 * Declared in tvm::ffi::type_attr (where code written for the reference library
 * looks for them) and reachable as reflection::type_attr too.
 */
namespace type_attr {
/*! \brief Function () -> ObjectRef: a new, zero-initialised object. */
inline constexpr reflection::AttrKey<Function> kNew{"__ffi_new__"};
/*! \brief Packed constructor; keyword arguments follow the KWARGS sentinel. */
inline constexpr reflection::AttrKey<Function> kInit{"__ffi_init__"};
/*! \brief Function (const Object*) -> ObjectRef: a shallow copy. */
inline constexpr reflection::AttrKey<Function> kShallowCopy{"__ffi_shallow_copy__"};
/*! \brief bool: whether the type is final. */
inline constexpr reflection::AttrKey<bool> kTypeFinal{"__ffi_type_final__"};
/*! \brief Function Any(AnyView): converts a value to the type. */
inline constexpr reflection::AttrKey<Function> kConvert{"__ffi_convert__"};
/*! \brief JSON schema (string or dict) of the values __ffi_convert__ accepts. */
inline constexpr reflection::AttrKey<Any> kConvertTypeSchema{"__ffi_convert_type_schema__"};
/*! \brief Function String(const Object*, fn_repr). */
inline constexpr reflection::AttrKey<Function> kRepr{"__ffi_repr__"};
/*! \brief Function int64(const Object*, fn_hash). */
inline constexpr reflection::AttrKey<Function> kHash{"__ffi_hash__"};
/*! \brief Function bool(const Object*, const Object*, fn_eq). */
inline constexpr reflection::AttrKey<Function> kEq{"__ffi_eq__"};
/*! \brief Function int32(const Object*, const Object*, fn_cmp). */
inline constexpr reflection::AttrKey<Function> kCompare{"__ffi_compare__"};
/*! \brief Function bool(const Object*, const Object*, eq_cb): structural equality hook. */
inline constexpr reflection::AttrKey<Function> kSEqual{"__s_equal__"};
/*! \brief Function int64(const Object*, int64 init, hash_cb): structural hash hook. */
inline constexpr reflection::AttrKey<Function> kSHash{"__s_hash__"};
/*! \brief Function Any(AnyView obj): a JSON-compatible value of the object. */
inline constexpr reflection::AttrKey<Function> kDataToJson{"__data_to_json__"};
/*! \brief Function Any(AnyView json): the object back from __data_to_json__'s value. */
inline constexpr reflection::AttrKey<Function> kDataFromJson{"__data_from_json__"};
/*! \brief Key hash of an object type's values in Map/Dict (a native hook or a Function). */
inline constexpr reflection::AttrKey<reflection::NativeFunctionView<int64_t(const Any&)>> kAnyHash{
    "__any_hash__"};
/*! \brief Key equality of two values of an object type in Map/Dict (matches kAnyHash). */
inline constexpr reflection::AttrKey<reflection::NativeFunctionView<bool(const Any&, const Any&)>>
    kAnyEqual{"__any_equal__"};
}  // namespace type_attr

namespace reflection {
namespace type_attr = ::tvm::ffi::type_attr;

/*! \brief Make sure the column exists (TVMFFITypeRegisterAttr with type index 0). */
inline void EnsureTypeAttrColumn(std::string_view name) {
  TVMFFIByteArray name_bytes{name.data(), name.size()};
  TVMFFIAny none;
  none.type_index = kTVMFFINone;
  none.zero_padding = 0;
  none.v_int64 = 0;
  TVM_FFI_CHECK_SAFE_CALL(TVMFFITypeRegisterAttr(kTVMFFINone, &name_bytes, &none));
}

template <typename T>
inline void EnsureTypeAttrColumn(const AttrKey<T>& key) {
  EnsureTypeAttrColumn(key.name);
}

/*!
 * \brief A looked-up attribute column. Construction fails with RuntimeError
 *  "Cannot find type attribute <name>" when the column does not exist.
 */
class TypeAttrColumn {
 public:
  explicit TypeAttrColumn(std::string_view name) {
    TVMFFIByteArray name_bytes{name.data(), name.size()};
    column_ = TVMFFIGetTypeAttrColumn(&name_bytes);
    if (column_ == nullptr) {
      TVM_FFI_THROW(RuntimeError) << "Cannot find type attribute " << name;
    }
  }
  template <typename T>
  explicit TypeAttrColumn(const AttrKey<T>& key) : TypeAttrColumn(std::string_view(key.name)) {}

  /*! \brief The value of type_index, None when it has none (or is out of the column's range). */
  AnyView operator[](int32_t type_index) const {
    // The column may grow concurrently: read its extent before its data.
    int32_t begin = column_->begin_index;
    int32_t size = __atomic_load_n(&column_->size, __ATOMIC_ACQUIRE);
    size_t offset = static_cast<size_t>(type_index) - static_cast<size_t>(begin);
    if (type_index < begin || offset >= static_cast<size_t>(size)) return AnyView();
    const TVMFFIAny* data = __atomic_load_n(&column_->data, __ATOMIC_ACQUIRE);
    return AnyView::CopyFromTVMFFIAny(data[offset]);
  }
  /*! \brief The underlying C column (never NULL). */
  const TVMFFITypeAttrColumn* get() const { return column_; }

 private:
  const TVMFFITypeAttrColumn* column_;
};

}  // namespace reflection
TVM_FFI_NAMESPACE_END

#endif  // TVM_FFI_REFLECTION_TYPE_ATTR_H_
