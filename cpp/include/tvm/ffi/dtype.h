/*
 * DLDataType helpers: text form, comparison, printing, and the Any conversion.
 *
 *   DLDataType f32 = StringToDLDataType("float32");   // ValueError on bad text
 *   String s = DLDataTypeToString(f32);                // "float32"
 *   Any a = f32;                                       // stored inline as DataType
 *   DLDataType d = AnyView("int8x4").cast<DLDataType>();  // strings parse
 *
 * The text grammar lives in the runtime (TVMFFIDataTypeFromString /
 * TVMFFIDataTypeToString) so every language binding agrees on it.
 *
 * The operators ==, != and << on DLDataType are declared in tvm::ffi (the
 * project keeps every C++ declaration in its own namespace, so they cannot
 * clash with other libraries' global operators on this C struct). Outside
 * tvm::ffi, bring them in with `using tvm::ffi::operator==;` etc.
 */
#ifndef TVM_FFI_DTYPE_H_
#define TVM_FFI_DTYPE_H_

#include <tvm/ffi/any.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/string.h>
#include <tvm/ffi/type_traits.h>

#include <optional>
#include <ostream>
#include <string>
#include <string_view>

TVM_FFI_NAMESPACE_BEGIN

namespace details {
/*!
 * \brief Parse without throwing: false (and no raised error left behind)
 *  when the text is not a data type.
 */
inline bool TryParseDLDataType(std::string_view str, DLDataType* out) {
  TVMFFIByteArray bytes{str.data(), str.size()};
  if (TVMFFIDataTypeFromString(&bytes, out) == 0) return true;
  // Drop the raised error: the caller reports the failure in its own words.
  TVMFFIObjectHandle err = nullptr;
  TVMFFIErrorMoveFromRaised(&err);
  if (err != nullptr) TVMFFIObjectDecRef(err);
  return false;
}
}  // namespace details

/*!
 * \brief DLDataType is stored inline as DataType. Casting also accepts a
 *  string holding a data type's text form.
 */
template <>
struct TypeTraits<DLDataType> : TypeTraitsBase {
  static void CopyToAnyView(const DLDataType& src, TVMFFIAny* r) {
    r->type_index = kTVMFFIDataType;
    r->zero_padding = 0;
    r->v_int64 = 0;
    r->v_dtype = src;
  }
  static void MoveToAny(DLDataType src, TVMFFIAny* r) { CopyToAnyView(src, r); }
  static bool CheckAnyStrict(const TVMFFIAny* src) { return src->type_index == kTVMFFIDataType; }
  static DLDataType CopyFromAnyViewAfterCheck(const TVMFFIAny* src) { return src->v_dtype; }
  static DLDataType MoveFromAnyAfterCheck(TVMFFIAny* src) { return src->v_dtype; }
  static std::optional<DLDataType> TryCastFromAnyView(const TVMFFIAny* src) {
    if (src->type_index == kTVMFFIDataType) return src->v_dtype;
    std::string_view text;
    if (StringOf(src, &text)) {
      DLDataType out;
      if (details::TryParseDLDataType(text, &out)) return out;
    }
    return std::nullopt;
  }
  static std::string GetMismatchTypeInfo(const TVMFFIAny* src) {
    std::string_view text;
    if (StringOf(src, &text)) {
      // The string was the right kind of value; say why it did not convert.
      std::string info = "str (not a valid dtype: \"";
      info.append(text.data(), text.size());
      info += "\")";
      return info;
    }
    return details::AnyTypeStr(src);
  }
  static std::string TypeStr() { return "dtype"; }
  static std::string TypeSchema() { return details::SchemaOf("DataType"); }

 private:
  // The text of a string cell (borrowed, small or heap); bytes do not count.
  static bool StringOf(const TVMFFIAny* src, std::string_view* out) {
    if (src->type_index != kTVMFFIRawStr && src->type_index != kTVMFFISmallStr &&
        src->type_index != kTVMFFIStr) {
      return false;
    }
    bool is_bytes = false;
    return details::AnyStringView(src, out, &is_bytes);
  }
};

/*!
 * \brief Parse a data type ("float32", "int8x4", "bfloat16", "float8_e4m3fn",
 *  "bool", "handle", "void" ...).
 * \throws Error ValueError quoting the string when it is not a data type.
 */
inline DLDataType StringToDLDataType(std::string_view str) {
  TVMFFIByteArray bytes{str.data(), str.size()};
  DLDataType out;
  TVM_FFI_CHECK_SAFE_CALL(TVMFFIDataTypeFromString(&bytes, &out));
  return out;
}

/*! \brief The text form of a data type; parses back to the same value. */
inline String DLDataTypeToString(DLDataType dtype) {
  TVMFFIAny cell;
  cell.type_index = kTVMFFINone;
  cell.zero_padding = 0;
  cell.v_int64 = 0;
  TVM_FFI_CHECK_SAFE_CALL(TVMFFIDataTypeToString(&dtype, &cell));
  return details::AnyUnsafe::MoveTVMFFIAnyToAny(&cell).cast<String>();
}

/*! \brief Field-wise equality (code, bits and lanes). */
inline bool operator==(const DLDataType& a, const DLDataType& b) {
  return a.code == b.code && a.bits == b.bits && a.lanes == b.lanes;
}
inline bool operator!=(const DLDataType& a, const DLDataType& b) { return !(a == b); }

/*! \brief Print the text form ("float32"). */
inline std::ostream& operator<<(std::ostream& os, const DLDataType& dtype) {
  return os << DLDataTypeToString(dtype);
}

TVM_FFI_NAMESPACE_END
#endif  // TVM_FFI_DTYPE_H_
