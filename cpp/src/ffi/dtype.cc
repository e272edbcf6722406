/*
 * Conversion between DLDataType and its text form ("float32", "int8x4",
 * "bfloat16", "float8_e4m3fn", "bool", "handle", "void", ...).
 *
 * Python converts dtypes through these functions on every call that passes
 * one, so parsing is a hand-written scan over a small static table: no regex,
 * no streams, no allocation on the success path.
 *
 * Grammar accepted by TVMFFIDataTypeFromString:
 *   dtype  := base lanes?
 *   base   := fixed-name              (bool, handle, float8_e4m3fn, float4_e2m1fn, ...;
 *                                    "floatN_" may be spelled "fN_" or "fpN_")
 *           | family bits             (int, uint, float, bfloat, complex, followed by 1..255;
 *                                    short spellings i, u, f, bf)
 *           | family                  (int, uint, float: 32 bits; bfloat: 16 bits)
 *           | "custom[" code "]" bits (code and bits 0..255; how the printer spells codes
 *                                    and widths that have no name of their own)
 *           | "custom[" name "]" bits? (a framework's custom type: the code comes from the
 *                                    global "dtype.get_custom_type_code"; bits default to 32)
 *   lanes  := "x" N                   (1 <= N <= 32767)
 *           | "_x" N                  (after float4_e2m1fn only: torch's "float4_e2m1fn_x2")
 *           | "xvscalex" N            (scalable vector: lanes = (uint16_t)(-N), 1 <= N <= 32768)
 * "void" (and the empty string) takes no lanes suffix and means {kDLOpaqueHandle, 0 bits, 0 lanes}.
 */
#include <tvm/ffi/base.h>
#include <tvm/ffi/dtype.h>
#include <tvm/ffi/error.h>

#include <cstdint>
#include <cstring>
#include <exception>
#include <string>

#include "dtype_custom.h"

TVM_FFI_NAMESPACE_BEGIN
namespace {

/*! \brief A spelling whose code and bit width are both fixed by the name. */
struct FixedName {
  const char* name;
  uint8_t len;
  uint8_t code;
  uint8_t bits;
};

#define TVM_FFI_DTYPE_NAME(str, code, bits) \
  {str, static_cast<uint8_t>(sizeof(str) - 1), static_cast<uint8_t>(code), bits}

// Longer names come before their prefixes ("float8_e4m3fnuz" before
// "float8_e4m3fn" before "float8_e4m3") so the first match is the longest.
// The first entry of each code with these bits is also its printed name.
const FixedName kFixedNames[] = {
    TVM_FFI_DTYPE_NAME("bool", kDLBool, 8),
    TVM_FFI_DTYPE_NAME("handle", kDLOpaqueHandle, 64),
    TVM_FFI_DTYPE_NAME("float8_e3m4", kDLFloat8_e3m4, 8),
    TVM_FFI_DTYPE_NAME("float8_e4m3b11fnuz", kDLFloat8_e4m3b11fnuz, 8),
    TVM_FFI_DTYPE_NAME("float8_e4m3fnuz", kDLFloat8_e4m3fnuz, 8),
    TVM_FFI_DTYPE_NAME("float8_e4m3fn", kDLFloat8_e4m3fn, 8),
    TVM_FFI_DTYPE_NAME("float8_e4m3", kDLFloat8_e4m3, 8),
    TVM_FFI_DTYPE_NAME("float8_e5m2fnuz", kDLFloat8_e5m2fnuz, 8),
    TVM_FFI_DTYPE_NAME("float8_e5m2", kDLFloat8_e5m2, 8),
    TVM_FFI_DTYPE_NAME("float8_e8m0fnu", kDLFloat8_e8m0fnu, 8),
    TVM_FFI_DTYPE_NAME("float6_e2m3fn", kDLFloat6_e2m3fn, 6),
    TVM_FFI_DTYPE_NAME("float6_e3m2fn", kDLFloat6_e3m2fn, 6),
    TVM_FFI_DTYPE_NAME("float4_e2m1fn", kDLFloat4_e2m1fn, 4),
};

/*! \brief A spelling that is followed by the bit width in decimal. */
struct FamilyName {
  const char* name;
  uint8_t len;
  uint8_t code;
  /*! \brief Bits of the bare name without a width (0: a width is required). */
  uint8_t default_bits;
};

#define TVM_FFI_DTYPE_FAMILY(str, code, default_bits) \
  {str, static_cast<uint8_t>(sizeof(str) - 1), static_cast<uint8_t>(code), default_bits}

// The full names come first: they are the printed ones, and a short spelling
// is a prefix of its full name ("f" of "float").
const FamilyName kFamilies[] = {
    TVM_FFI_DTYPE_FAMILY("int", kDLInt, 32),        TVM_FFI_DTYPE_FAMILY("uint", kDLUInt, 32),
    TVM_FFI_DTYPE_FAMILY("float", kDLFloat, 32),    TVM_FFI_DTYPE_FAMILY("bfloat", kDLBfloat, 16),
    TVM_FFI_DTYPE_FAMILY("complex", kDLComplex, 0), TVM_FFI_DTYPE_FAMILY("bf", kDLBfloat, 0),
    TVM_FFI_DTYPE_FAMILY("i", kDLInt, 0),           TVM_FFI_DTYPE_FAMILY("u", kDLUInt, 0),
    TVM_FFI_DTYPE_FAMILY("f", kDLFloat, 0),
};

#undef TVM_FFI_DTYPE_NAME
#undef TVM_FFI_DTYPE_FAMILY

/*! \brief True when [p, end) starts with the len bytes of name. */
inline bool StartsWith(const char* p, const char* end, const char* name, size_t len) {
  return static_cast<size_t>(end - p) >= len && std::memcmp(p, name, len) == 0;
}

/*!
 * \brief Read a decimal number of at least one digit at *p, advancing *p.
 * \return false when there is no digit or the value exceeds max_value.
 */
inline bool ParseDecimal(const char** p, const char* end, uint32_t max_value, uint32_t* out) {
  const char* s = *p;
  if (s == end || *s < '0' || *s > '9') return false;
  uint32_t value = 0;
  for (; s != end && *s >= '0' && *s <= '9'; ++s) {
    value = value * 10 + static_cast<uint32_t>(*s - '0');
    if (value > max_value) return false;
  }
  *p = s;
  *out = value;
  return true;
}

/*! \brief Parse the base name (code and bits); advances *p past it. */
bool ParseBase(const char** p, const char* end, DLDataType* out) {
  const char* s = *p;
  // "f8_e4m3fn" / "fp8_e4m3fn" stand for "float8_e4m3fn": compare from the digit on.
  static const char kFloat[] = "float";
  const size_t float_len = sizeof(kFloat) - 1;
  const char* short_float = nullptr;
  if (StartsWith(s, end, "fp", 2) && end - s > 3 && s[2] >= '0' && s[2] <= '9' && s[3] == '_') {
    short_float = s + 2;
  } else if (end - s > 2 && s[0] == 'f' && s[1] >= '0' && s[1] <= '9' && s[2] == '_') {
    short_float = s + 1;
  }
  for (const FixedName& entry : kFixedNames) {
    if (StartsWith(s, end, entry.name, entry.len)) {
      out->code = entry.code;
      out->bits = entry.bits;
      *p = s + entry.len;
      return true;
    }
    if (short_float != nullptr && entry.len > float_len &&
        std::memcmp(entry.name, kFloat, float_len) == 0 &&
        StartsWith(short_float, end, entry.name + float_len, entry.len - float_len)) {
      out->code = entry.code;
      out->bits = entry.bits;
      *p = short_float + (entry.len - float_len);
      return true;
    }
  }
  uint32_t bits = 0;
  for (const FamilyName& family : kFamilies) {
    if (StartsWith(s, end, family.name, family.len)) {
      const char* q = s + family.len;
      if (family.default_bits != 0 && (q == end || *q == 'x')) {
        out->code = family.code;
        out->bits = family.default_bits;
        *p = q;
        return true;
      }
      if (!ParseDecimal(&q, end, 255, &bits) || bits == 0) return false;
      out->code = family.code;
      out->bits = static_cast<uint8_t>(bits);
      *p = q;
      return true;
    }
  }
  static const char kCustom[] = "custom[";
  if (StartsWith(s, end, kCustom, sizeof(kCustom) - 1)) {
    const char* q = s + sizeof(kCustom) - 1;
    const char* close = static_cast<const char*>(std::memchr(q, ']', end - q));
    if (close == nullptr) return false;
    uint32_t code = 0;
    const char* digits_end = q;
    if (!ParseDecimal(&digits_end, close, 255, &code) || digits_end != close) {
      if (q != close && *q >= '0' && *q <= '9') return false;  // a number out of range
      // A name: the framework that defines it supplies the code (errors propagate).
      out->code = dtype_custom::CodeOfName(q, static_cast<size_t>(close - q));
      q = close + 1;
      // A missing (or zero) width means 32 bits, as for "int" and "float".
      if (!ParseDecimal(&q, end, 255, &bits) || bits == 0) bits = 32;
      out->bits = static_cast<uint8_t>(bits);
      *p = q;
      return true;
    }
    q = close + 1;
    // Zero bits is allowed here so that every DLDataType the printer spells
    // as custom[...] parses back.
    if (!ParseDecimal(&q, end, 255, &bits)) return false;
    out->code = static_cast<uint8_t>(code);
    out->bits = static_cast<uint8_t>(bits);
    *p = q;
    return true;
  }
  return false;
}

/*! \brief Parse the whole string; false when it does not follow the grammar. */
bool ParseDataType(const char* s, size_t size, DLDataType* out) {
  const char* end = s + size;
  static const char kVoid[] = "void";
  if (size == 0 || (size == sizeof(kVoid) - 1 && std::memcmp(s, kVoid, size) == 0)) {
    out->code = kDLOpaqueHandle;
    out->bits = 0;
    out->lanes = 0;
    return true;
  }
  DLDataType result;
  if (!ParseBase(&s, end, &result)) return false;
  result.lanes = 1;
  if (result.code == kDLFloat4_e2m1fn && result.bits == 4 && StartsWith(s, end, "_x", 2)) {
    ++s;  // torch names the packed pair "float4_e2m1fn_x2"
  }
  if (s != end) {
    if (*s != 'x') return false;
    ++s;
    static const char kVScale[] = "vscalex";
    uint32_t lanes = 0;
    if (StartsWith(s, end, kVScale, sizeof(kVScale) - 1)) {
      s += sizeof(kVScale) - 1;
      if (!ParseDecimal(&s, end, 32768, &lanes) || lanes == 0) return false;
      // Scalable vectors store minus the vscale multiplier in the uint16 lanes.
      result.lanes = static_cast<uint16_t>(0x10000u - lanes);
    } else {
      // Fixed lanes stay below 32768 so they never read as a scalable vector.
      if (!ParseDecimal(&s, end, 32767, &lanes) || lanes == 0) return false;
      result.lanes = static_cast<uint16_t>(lanes);
    }
    if (s != end) return false;
  }
  *out = result;
  return true;
}

/*! \brief Append the decimal digits of value at p; returns the new end. */
inline char* AppendDecimal(char* p, uint32_t value) {
  char digits[10];
  int n = 0;
  do {
    digits[n++] = static_cast<char>('0' + value % 10);
    value /= 10;
  } while (value != 0);
  while (n > 0) *p++ = digits[--n];
  return p;
}

inline char* AppendText(char* p, const char* text, size_t len) {
  std::memcpy(p, text, len);
  return p + len;
}

/*! \brief Append the lanes suffix ("x4", "xvscalex4", nothing for one lane). */
inline char* AppendLanes(char* p, uint16_t lanes) {
  if (lanes > 32767) {
    p = AppendText(p, "xvscalex", 8);
    p = AppendDecimal(p, 0x10000u - lanes);
  } else if (lanes != 1) {
    *p++ = 'x';
    p = AppendDecimal(p, lanes);
  }
  return p;
}

/*!
 * \brief Room for the longest text FormatDataType writes plus its NUL
 *  ("float8_e4m3b11fnuzxvscalex32768" is 31 bytes).
 */
constexpr size_t kMaxDataTypeText = 48;

/*! \brief Write the text form of dtype into buf; returns its length. */
size_t FormatDataType(const DLDataType& dtype, char* buf) {
  char* p = buf;
  if (dtype.code == kDLOpaqueHandle && dtype.bits == 0 && dtype.lanes == 0) {
    return static_cast<size_t>(AppendText(p, "void", 4) - buf);
  }
  bool named = false;
  for (const FixedName& entry : kFixedNames) {
    if (entry.code == dtype.code && entry.bits == dtype.bits) {
      p = AppendText(p, entry.name, entry.len);
      named = true;
      break;
    }
  }
  if (!named) {
    for (const FamilyName& family : kFamilies) {
      if (family.code == dtype.code) {
        p = AppendText(p, family.name, family.len);
        p = AppendDecimal(p, dtype.bits);
        named = true;
        break;
      }
    }
  }
  if (!named) {
    // Unknown codes, and fixed-width codes at another width, keep every bit
    // of information in a spelling the parser reads back.
    p = AppendText(p, "custom[", 7);
    p = AppendDecimal(p, dtype.code);
    *p++ = ']';
    p = AppendDecimal(p, dtype.bits);
  }
  return static_cast<size_t>(AppendLanes(p, dtype.lanes) - buf);
}

/*!
 * \brief "custom[<name>]<bits>[lanes]" when dtype has a custom code the framework names.
 * \return false when the code is not custom or no name function is registered.
 */
bool FormatNamedCustomType(const DLDataType& dtype, std::string* out) {
  if (dtype.code < kDLExtCustomBegin) return false;
  std::string name;
  if (!dtype_custom::NameOfCode(dtype.code, &name)) return false;
  char suffix[kMaxDataTypeText];
  char* p = AppendDecimal(suffix, dtype.bits);
  p = AppendLanes(p, dtype.lanes);
  *out = "custom[" + name + "]" + std::string(suffix, p);
  return true;
}

/*! \brief The digits at p as a number, saturated just above UINT32_MAX; advances p. */
inline uint64_t ReadDigits(std::string::size_type* p, const std::string& s) {
  uint64_t value = 0;
  for (; *p < s.size() && s[*p] >= '0' && s[*p] <= '9'; ++*p) {
    value = value * 10 + static_cast<uint64_t>(s[*p] - '0');
    if (value > 0xFFFFFFFFull) value = 0x100000000ull;
  }
  return value;
}

/*! \brief "Integer value in dtype string '<digits>' is out of range for uint32_t" */
inline std::string TooLargeInteger(const std::string& s, std::string::size_type begin,
                                   std::string::size_type end) {
  return "Integer value in dtype string '" + s.substr(begin, end - begin) +
         "' is out of range for uint32_t";
}

/*!
 * \brief Why the lanes suffix at s[p] (just after the 'x') does not parse, or "" when the
 *  problem is elsewhere.
 */
std::string LanesError(const std::string& s, std::string::size_type p) {
  static const char kVScale[] = "vscalex";
  bool scalable = s.compare(p, sizeof(kVScale) - 1, kVScale) == 0;
  if (scalable) p += sizeof(kVScale) - 1;
  std::string::size_type digits = p;
  uint64_t lanes = ReadDigits(&p, s);
  if (p == digits || (lanes == 0 && p == s.size())) {
    return "Invalid lanes specification in dtype '" + s + "'. Lanes must be a positive integer.";
  }
  if (p != s.size()) return "";
  if (lanes > 0xFFFFFFFFull) return TooLargeInteger(s, digits, p);
  std::string head = "Lanes value " + std::to_string(lanes) + " is out of range for ";
  if (lanes > 0xFFFF) return head + "uint16_t in dtype '" + s + "'";
  // Within uint16_t, but lanes above 32767 would read back as a scalable vector.
  return head + (scalable ? "scalable lanes (at most 32768)" : "fixed lanes (at most 32767)") +
         " in dtype '" + s + "'";
}

/*!
 * \brief The ValueError message for a string ParseDataType rejected, worded as the reference
 *  words it (cpp_api.md §6.5): "unknown dtype `<s>`", "unknown float8 type `<s>`" (float6 and
 *  float4 likewise), the lanes and bits range messages. Short spellings ("fp8_", "f8_", "i32",
 *  "bf16" ...) are quoted in their long form, as the reference does. Only the error path pays
 *  for this second scan.
 */
std::string DataTypeParseError(const char* data, size_t size) {
  std::string s(data, size);
  for (const char* bits : {"8", "6", "4"}) {
    for (const char* alias : {"fp", "f"}) {
      std::string prefix = std::string(alias) + bits + "_";
      if (s.compare(0, prefix.size(), prefix) == 0) {
        s = std::string("float") + bits + "_" + s.substr(prefix.size());
      }
    }
  }
  // Likewise "i32" ... "bf16": the short family names, when a width follows.
  for (const char* alias : {"bf", "i", "u", "f"}) {
    size_t len = std::strlen(alias);
    if (s.size() > len && s.compare(0, len, alias) == 0 && s[len] >= '0' && s[len] <= '9') {
      static const char* const kLong[] = {"bfloat", "int", "uint", "float"};
      s = std::string(kLong[alias[0] == 'b'   ? 0
                            : alias[0] == 'i' ? 1
                            : alias[0] == 'u' ? 2
                                              : 3]) +
          s.substr(len);
      break;
    }
  }
  std::string unknown = "unknown dtype `" + s + "`";
  for (const char* family : {"float8_", "float6_", "float4_"}) {
    if (s.compare(0, 7, family) != 0) continue;
    std::string::size_type p = std::string::npos;
    for (const FixedName& entry : kFixedNames) {
      if (s.compare(0, entry.len, entry.name) == 0) {
        p = entry.len;
        break;
      }
    }
    std::string unknown_family =
        std::string("unknown ") + std::string(family, 6) + " type `" + s + "`";
    if (p == std::string::npos) return unknown_family;
    if (std::strcmp(family, "float4_") == 0 && s.compare(p, 2, "_x") == 0) ++p;
    if (p < s.size() && s[p] == 'x') {
      std::string lanes = LanesError(s, p + 1);
      return lanes.empty() ? unknown : lanes;
    }
    return unknown_family;
  }
  static const char kCustom[] = "custom[";
  if (s.compare(0, sizeof(kCustom) - 1, kCustom) == 0) {
    if (s.find(']') == std::string::npos) {
      return "expected closing brace after 'custom' type in" + s;
    }
    return unknown;
  }
  for (const char* family : {"bfloat", "float", "uint", "int", "bool", "handle"}) {
    size_t len = std::strlen(family);
    if (s.compare(0, len, family) != 0) continue;
    std::string::size_type p = len;
    uint64_t bits = ReadDigits(&p, s);
    if (p > len && bits > 0xFFFFFFFFull) return TooLargeInteger(s, len, p);
    if (p > len && bits > 255) {
      return "Bits value " + std::to_string(bits) + " is out of range for uint8_t in dtype '" + s +
             "'";
    }
    if (p < s.size() && s[p] == 'x') {
      std::string lanes = LanesError(s, p + 1);
      if (!lanes.empty()) return lanes;
    }
    return unknown;
  }
  return unknown;
}

}  // namespace
TVM_FFI_NAMESPACE_END

extern "C" {

int TVMFFIDataTypeFromString(const TVMFFIByteArray* str, DLDataType* out) {
  try {
    if (str == nullptr || out == nullptr || (str->data == nullptr && str->size != 0)) {
      TVMFFIErrorSetRaisedFromCStr(
          "ValueError", "TVMFFIDataTypeFromString: the string and the output must not be NULL");
      return -1;
    }
    if (TVM_FFI_LIKELY(::tvm::ffi::ParseDataType(str->data, str->size, out))) return 0;
    // Thrown rather than set from a C string, so that a NUL in the input is kept.
    TVM_FFI_THROW(ValueError) << ::tvm::ffi::DataTypeParseError(str->data, str->size);
  } catch (const ::tvm::ffi::Error& err) {
    // The parse error, or a custom type's name lookup failing with its own kind and message.
    ::tvm::ffi::detail::SetRaisedFromError(err);
    return -1;
  } catch (const std::exception& e) {
    TVMFFIErrorSetRaisedFromCStr("RuntimeError", e.what());
    return -1;
  } catch (...) {
    TVMFFIErrorSetRaisedFromCStr("RuntimeError", "TVMFFIDataTypeFromString: unknown C++ exception");
    return -1;
  }
}

int TVMFFIDataTypeToString(const DLDataType* dtype, TVMFFIAny* out) {
  try {
    if (dtype == nullptr || out == nullptr) {
      TVMFFIErrorSetRaisedFromCStr(
          "ValueError", "TVMFFIDataTypeToString: the data type and the output must not be NULL");
      return -1;
    }
    std::string custom;
    if (TVM_FFI_UNLIKELY(::tvm::ffi::FormatNamedCustomType(*dtype, &custom))) {
      TVMFFIByteArray named{custom.data(), custom.size()};
      return TVMFFIStringFromByteArray(&named, out);
    }
    char buf[::tvm::ffi::kMaxDataTypeText];
    TVMFFIByteArray bytes;
    bytes.data = buf;
    bytes.size = ::tvm::ffi::FormatDataType(*dtype, buf);
    // NUL-terminate for receivers that read data as a C string.
    buf[bytes.size] = '\0';
    return TVMFFIStringFromByteArray(&bytes, out);
  } catch (const ::tvm::ffi::Error& err) {
    ::tvm::ffi::detail::SetRaisedFromError(err);
    return -1;
  } catch (const std::exception& e) {
    TVMFFIErrorSetRaisedFromCStr("RuntimeError", e.what());
    return -1;
  } catch (...) {
    TVMFFIErrorSetRaisedFromCStr("RuntimeError", "TVMFFIDataTypeToString: unknown C++ exception");
    return -1;
  }
}

}  // extern "C"
