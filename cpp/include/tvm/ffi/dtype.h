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
 * The operators ==, != and << on DLDataType are declared in the global
 * namespace, next to the C struct, so that they are found everywhere
 * (including by gtest's EXPECT_EQ).
 *
 *   DTypeIsFloat(f32);                // true
 *   DTypeAbbrev(f32);                 // "f32"
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

/*! \brief Type codes past DLPack's own: codes from kDLExtCustomBegin on are custom types. */
enum DLExtDataTypeCode { kDLExtCustomBegin = 129 };

TVM_FFI_NAMESPACE_BEGIN

namespace detail {
/*!
 * \brief The name of a type code ("int", "bfloat", "float8_e4m3fn", ...;
 *  "custom" for custom codes); ValueError for a code nobody defines.
 */
inline const char* DLDataTypeCodeAsCStr(DLDataTypeCode type_code) {
  switch (static_cast<int>(type_code)) {
    case kDLInt:
      return "int";
    case kDLUInt:
      return "uint";
    case kDLFloat:
      return "float";
    case kDLOpaqueHandle:
      return "handle";
    case kDLBfloat:
      return "bfloat";
    case kDLComplex:
      return "complex";
    case kDLBool:
      return "bool";
    case kDLFloat8_e3m4:
      return "float8_e3m4";
    case kDLFloat8_e4m3:
      return "float8_e4m3";
    case kDLFloat8_e4m3b11fnuz:
      return "float8_e4m3b11fnuz";
    case kDLFloat8_e4m3fn:
      return "float8_e4m3fn";
    case kDLFloat8_e4m3fnuz:
      return "float8_e4m3fnuz";
    case kDLFloat8_e5m2:
      return "float8_e5m2";
    case kDLFloat8_e5m2fnuz:
      return "float8_e5m2fnuz";
    case kDLFloat8_e8m0fnu:
      return "float8_e8m0fnu";
    case kDLFloat6_e2m3fn:
      return "float6_e2m3fn";
    case kDLFloat6_e3m2fn:
      return "float6_e3m2fn";
    case kDLFloat4_e2m1fn:
      return "float4_e2m1fn";
    default:
      if (static_cast<int>(type_code) >= kDLExtCustomBegin) return "custom";
      TVM_FFI_THROW(ValueError) << "DLDataType contains unknown type_code="
                                << static_cast<int>(type_code);
  }
  TVM_FFI_UNREACHABLE();
}

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
}  // namespace detail

/*!
 * \brief DLDataType is stored inline as DataType. Casting also accepts a
 *  string holding a data type's text form.
 */
template <>
struct TypeTraits<DLDataType> : TypeTraitsBase {
  // Reflected DataType members are written inline (as dtype text) by JSON graphs.
  static constexpr int32_t field_static_type_index = kTVMFFIDataType;
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
  // Any text or byte string converts through the parser, whose ValueError ("unknown dtype
  // `<s>`") propagates: a string argument that is not a dtype is bad input, not a type mismatch.
  static std::optional<DLDataType> TryCastFromAnyView(const TVMFFIAny* src) {
    if (src->type_index == kTVMFFIDataType) return src->v_dtype;
    std::string_view text;
    bool is_bytes = false;
    if (!detail::AnyStringView(src, &text, &is_bytes)) return std::nullopt;
    TVMFFIByteArray bytes{text.data(), text.size()};
    DLDataType out;
    TVM_FFI_CHECK_SAFE_CALL(TVMFFIDataTypeFromString(&bytes, &out));
    return out;
  }
  static std::string TypeStr() { return "DataType"; }
  static std::string TypeSchema() { return detail::SchemaOf("DataType"); }
};

/*!
 * \brief Parse a data type ("float32", "int8x4", "bfloat16", "float8_e4m3fn",
 *  "bool", "handle", "void", "custom[name]16" ...).
 * \throws Error ValueError quoting the string when it is not a data type.
 */
inline DLDataType StringToDLDataType(std::string_view str) {
  TVMFFIByteArray bytes{str.data(), str.size()};
  DLDataType out;
  TVM_FFI_CHECK_SAFE_CALL(TVMFFIDataTypeFromString(&bytes, &out));
  return out;
}

/*!
 * \brief The text form of a data type ("float32", "int8x4"; "" for void). Lossy where the
 *  reference is: handle prints as "handle", custom types as "custom[<name>]" without bits.
 * \throws Error ValueError for an unknown type code, or a custom code when no global
 *  "dtype.get_custom_type_name" is registered.
 */
inline String DLDataTypeToString(DLDataType dtype) {
  TVMFFIAny cell;
  cell.type_index = kTVMFFINone;
  cell.zero_padding = 0;
  cell.v_int64 = 0;
  TVM_FFI_CHECK_SAFE_CALL(TVMFFIDataTypeToString(&dtype, &cell));
  return detail::AnyUnsafe::MoveTVMFFIAnyToAny(&cell).cast<String>();
}

/*! \return Whether dtype is a floating-point type (float, bfloat, float8/6/4 kinds). */
inline bool DTypeIsFloat(DLDataType dtype) {
  return dtype.code == kDLFloat || dtype.code == kDLBfloat ||
         (dtype.code >= kDLFloat8_e3m4 && dtype.code <= kDLFloat4_e2m1fn);
}
/*! \return Whether dtype is a signed or unsigned integer type. */
inline bool DTypeIsInt(DLDataType dtype) { return dtype.code == kDLInt || dtype.code == kDLUInt; }
/*! \return Whether dtype is the boolean type. */
inline bool DTypeIsBool(DLDataType dtype) { return dtype.code == kDLBool; }

/*!
 * \brief The short form of a data type: "i32", "u8", "f16", "bf16", "bool",
 *  "f8_e4m3fn", "void", "handle"; lanes as "x4" (or "xvscalex4").
 * \throws Error ValueError for an unknown type code.
 */
inline std::string DTypeAbbrev(DLDataType dtype) {
  if (dtype.code == kDLBool && dtype.bits == 8 && dtype.lanes == 1) return "bool";
  if (dtype.code == kDLOpaqueHandle && dtype.bits == 0 && dtype.lanes == 0) return "void";
  if (dtype.code >= kDLExtCustomBegin) return std::string(DLDataTypeToString(dtype));
  std::string out;
  switch (dtype.code) {
    case kDLInt:
      out = "i";
      break;
    case kDLUInt:
      out = "u";
      break;
    case kDLFloat:
      out = "f";
      break;
    case kDLBfloat:
      out = "bf";
      break;
    case kDLComplex:
      out = "c";
      break;
    case kDLBool:
      out = "bool";
      break;
    case kDLOpaqueHandle:
      return "handle";  // no bits, no lanes, as DLDataTypeToString
    default: {
      // float8/6/4 kinds: "float8_e4m3fn" -> "f8_e4m3fn".
      std::string name = detail::DLDataTypeCodeAsCStr(static_cast<DLDataTypeCode>(dtype.code));
      out = "f" + name.substr(5);
    }
  }
  if (dtype.code < kDLFloat8_e3m4 && !(dtype.code == kDLBool && dtype.bits == 8)) {
    out += std::to_string(static_cast<int>(dtype.bits));
  }
  // Lanes read as int16, as DLDataTypeToString does: 32768..65534 are scalable, 65535 is -1.
  int lanes = static_cast<int16_t>(dtype.lanes);
  if (lanes < -1) {
    out += "xvscalex" + std::to_string(-lanes);
  } else if (lanes > 1) {
    out += "x" + std::to_string(lanes);
  }
  return out;
}

TVM_FFI_NAMESPACE_END

/*! \brief Field-wise equality (code, bits and lanes). */
inline bool operator==(const DLDataType& a, const DLDataType& b) {
  return a.code == b.code && a.bits == b.bits && a.lanes == b.lanes;
}
inline bool operator!=(const DLDataType& a, const DLDataType& b) { return !(a == b); }

/*! \brief Print the text form ("float32"). */
inline std::ostream& operator<<(std::ostream& os, const DLDataType& dtype) {
  return os << ::tvm::ffi::DLDataTypeToString(dtype);
}

#endif  // TVM_FFI_DTYPE_H_
