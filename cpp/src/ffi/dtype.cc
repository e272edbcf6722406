/*
 * Conversion between DLDataType and its text form ("float32", "int8x4",
 * "bfloat16", "float8_e4m3fn", "bool", "handle", ...), as the reference
 * runtime spells and reads it (cpp_api.md §6.5, python_api.md §8.2).
 *
 * Python converts dtypes through these functions on every call that passes
 * one, so parsing is a hand-written scan over small static tables: no regex,
 * no streams, and no allocation on the success path of a text up to 64 bytes.
 *
 * Grammar accepted by TVMFFIDataTypeFromString, after the short spellings are
 * expanded ("i"/"u"/"f"/"bf" before a digit -> "int"/"uint"/"float"/"bfloat",
 * "fp8_"/"f8_" -> "float8_", likewise 6 and 4):
 *   dtype  := "" | "void" | base lanes?
 *   base   := float-kind              (float8_e4m3fn, float6_e2m3fn, float4_e2m1fn, ...)
 *           | family digits?          (int, uint, float, bfloat, bool, handle; missing or zero
 *                                      digits mean the family's width: 32, 32, 32, 16, 8, 64;
 *                                      at most 255. Ours adds complex, width required)
 *           | "custom[" name "]" digits?   (code from global "dtype.get_custom_type_code";
 *                                      width 32 when missing or zero)
 *   lanes  := "x" N                   (1 <= N <= 65535, stored as uint16)
 *           | "xvscalex" N            (scalable: lanes = (uint16_t)(-N)); a bare "xvscale" is one
 * lane | "_x" N                  (after float4_e2m1fn only: torch's "float4_e2m1fn_x2") The
 * reference refuses "xvscalex" after the float8/6/4 kinds although it prints them so; ours reads
 * them, so that every printed text parses back.
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

/*! \brief A float kind whose code and bit width are both fixed by the name. */
struct FloatKind {
  const char* name;
  uint8_t len;
  uint8_t code;
  uint8_t bits;
};

#define TVM_FFI_DTYPE_NAME(str, code, bits) \
  {str, static_cast<uint8_t>(sizeof(str) - 1), static_cast<uint8_t>(code), bits}

// Longer names come before their prefixes ("float8_e4m3fnuz" before
// "float8_e4m3fn" before "float8_e4m3") so the first match is the longest.
const FloatKind kFloatKinds[] = {
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

/*! \brief A name followed by an optional bit width in decimal. */
struct FamilyName {
  const char* name;
  uint8_t len;
  uint8_t code;
  /*! \brief Bits when the width is missing or zero (0: a width is required). */
  uint8_t default_bits;
};

#define TVM_FFI_DTYPE_FAMILY(str, code, default_bits) \
  {str, static_cast<uint8_t>(sizeof(str) - 1), static_cast<uint8_t>(code), default_bits}

// No name here is a prefix of a later one, so the order only sets the printed names.
const FamilyName kFamilies[] = {
    TVM_FFI_DTYPE_FAMILY("int", kDLInt, 32),
    TVM_FFI_DTYPE_FAMILY("uint", kDLUInt, 32),
    TVM_FFI_DTYPE_FAMILY("float", kDLFloat, 32),
    TVM_FFI_DTYPE_FAMILY("bfloat", kDLBfloat, 16),
    TVM_FFI_DTYPE_FAMILY("bool", kDLBool, 8),
    TVM_FFI_DTYPE_FAMILY("handle", kDLOpaqueHandle, 64),
    TVM_FFI_DTYPE_FAMILY("complex", kDLComplex, 0),
};

#undef TVM_FFI_DTYPE_NAME
#undef TVM_FFI_DTYPE_FAMILY

/*! \brief True when [p, end) starts with the len bytes of name. */
inline bool StartsWith(const char* p, const char* end, const char* name, size_t len) {
  return static_cast<size_t>(end - p) >= len && std::memcmp(p, name, len) == 0;
}

inline bool IsDigit(const char* p, const char* end) { return p != end && *p >= '0' && *p <= '9'; }

/*! \brief Why a text is not a data type; the message is only built on failure. */
enum class Failure : uint8_t {
  kNone,
  kUnknown,           // unknown dtype `<s>`
  kUnknownFloatKind,  // unknown float8 type `<s>` (float6, float4 likewise)
  kInvalidLanes,      // Invalid lanes specification in dtype '<s>'. ...
  kLanesRange,        // Lanes value <n> is out of range for uint16_t in dtype '<s>'
  kBitsRange,         // Bits value <n> is out of range for uint8_t in dtype '<s>'
  kIntegerRange,      // Integer value in dtype string '<digits>' is out of range for uint32_t
  kNoOpenBrace,       // expected opening brace after 'custom' type in<s>
  kNoCloseBrace,      // expected closing brace after 'custom' type in<s>
};

/*! \brief A parse over the expanded text [begin, end) and, on failure, what went wrong. */
struct Parser {
  const char* begin;
  const char* end;
  Failure failure = Failure::kNone;
  /*! \brief The digits a range failure names, and their value (saturated above UINT32_MAX). */
  const char* digits = nullptr;
  const char* digits_end = nullptr;
  uint64_t value = 0;

  bool Fail(Failure why) {
    failure = why;
    return false;
  }

  /*!
   * \brief Read the decimal digits at *p (possibly none) into value, advancing *p.
   * \return false (kIntegerRange) when the number does not fit uint32_t.
   */
  bool ReadNumber(const char** p) {
    digits = *p;
    value = 0;
    const char* s = *p;
    for (; IsDigit(s, end); ++s) {
      value = value * 10 + static_cast<uint64_t>(*s - '0');
      if (value > 0xFFFFFFFFull) value = 0x100000000ull;
    }
    digits_end = s;
    *p = s;
    return value <= 0xFFFFFFFFull || Fail(Failure::kIntegerRange);
  }

  /*! \brief An optional bit width at *p; none or zero means default_bits. */
  bool ParseBits(const char** p, uint8_t default_bits, uint8_t* bits) {
    if (!ReadNumber(p)) return false;
    if (value > 255) return Fail(Failure::kBitsRange);
    *bits = value == 0 ? default_bits : static_cast<uint8_t>(value);
    return *bits != 0 || Fail(Failure::kUnknown);
  }

  /*! \brief The lanes suffix from p to the end (nothing: one lane). */
  bool ParseLanes(const char* p, bool allow_vscale, uint16_t* lanes) {
    *lanes = 1;
    if (p == end) return true;
    static const char kVScale[] = "xvscale";
    bool scalable = allow_vscale && StartsWith(p, end, kVScale, sizeof(kVScale) - 1);
    if (scalable) {
      p += sizeof(kVScale) - 1;
      // The reference reads a bare "xvscale" suffix as one lane.
      if (p == end) return true;
    }
    if (*p != 'x') return Fail(Failure::kUnknown);
    ++p;
    if (!IsDigit(p, end)) return Fail(Failure::kInvalidLanes);
    if (!ReadNumber(&p)) return false;
    if (value == 0) return Fail(Failure::kInvalidLanes);
    if (value > 0xFFFF) return Fail(Failure::kLanesRange);
    if (p != end) return Fail(Failure::kUnknown);
    // Scalable vectors store minus the vscale multiplier; lanes above 32767 are kept as
    // written and read back (and print) as scalable, as in the reference.
    uint32_t n = static_cast<uint32_t>(value);
    *lanes = static_cast<uint16_t>(scalable ? 0x10000u - n : n);
    return true;
  }

  bool ParseFloatKind(DLDataType* out) {
    for (const FloatKind& kind : kFloatKinds) {
      if (!StartsWith(begin, end, kind.name, kind.len)) continue;
      const char* p = begin + kind.len;
      bool torch_pair = kind.code == kDLFloat4_e2m1fn && StartsWith(p, end, "_x", 2);
      if (p != end && *p != 'x' && !torch_pair) continue;
      out->code = kind.code;
      out->bits = kind.bits;
      // torch names the packed pair "float4_e2m1fn_x2": plain lanes only.
      return torch_pair ? ParseLanes(p + 1, false, &out->lanes) : ParseLanes(p, true, &out->lanes);
    }
    return Fail(Failure::kUnknownFloatKind);
  }

  bool ParseCustom(DLDataType* out) {
    static const char kCustom[] = "custom";
    const char* p = begin + sizeof(kCustom) - 1;
    if (p == end || *p != '[') return Fail(Failure::kNoOpenBrace);
    ++p;
    const char* close = static_cast<const char*>(std::memchr(p, ']', end - p));
    if (close == nullptr) return Fail(Failure::kNoCloseBrace);
    // The framework that defines the name supplies the code (its errors propagate).
    out->code = dtype_custom::CodeOfName(p, static_cast<size_t>(close - p));
    p = close + 1;
    return ParseBits(&p, 32, &out->bits) && ParseLanes(p, true, &out->lanes);
  }

  bool Parse(DLDataType* out) {
    static const char kVoid[] = "void";
    size_t size = static_cast<size_t>(end - begin);
    if (size == 0 || (size == sizeof(kVoid) - 1 && std::memcmp(begin, kVoid, size) == 0)) {
      out->code = kDLOpaqueHandle;
      out->bits = 0;
      out->lanes = 0;
      return true;
    }
    if (size >= 7 && std::memcmp(begin, "float", 5) == 0 &&
        (begin[5] == '8' || begin[5] == '6' || begin[5] == '4') && begin[6] == '_') {
      return ParseFloatKind(out);
    }
    if (StartsWith(begin, end, "custom", 6)) return ParseCustom(out);
    for (const FamilyName& family : kFamilies) {
      if (!StartsWith(begin, end, family.name, family.len)) continue;
      const char* p = begin + family.len;
      out->code = family.code;
      return ParseBits(&p, family.default_bits, &out->bits) && ParseLanes(p, true, &out->lanes);
    }
    return Fail(Failure::kUnknown);
  }

  /*! \brief The ValueError message of a failed parse, worded as the reference words it. */
  std::string Message() const {
    std::string s(begin, end);
    std::string number = std::to_string(value);
    switch (failure) {
      case Failure::kUnknownFloatKind:
        return "unknown " + s.substr(0, 6) + " type `" + s + "`";
      case Failure::kInvalidLanes:
        return "Invalid lanes specification in dtype '" + s +
               "'. Lanes must be a positive integer.";
      case Failure::kLanesRange:
        return "Lanes value " + number + " is out of range for uint16_t in dtype '" + s + "'";
      case Failure::kBitsRange:
        return "Bits value " + number + " is out of range for uint8_t in dtype '" + s + "'";
      case Failure::kIntegerRange:
        return "Integer value in dtype string '" + std::string(digits, digits_end) +
               "' is out of range for uint32_t";
      case Failure::kNoOpenBrace:
        return "expected opening brace after 'custom' type in" + s;
      case Failure::kNoCloseBrace:
        return "expected closing brace after 'custom' type in" + s;
      default:
        return "unknown dtype `" + s + "`";
    }
  }
};

/*!
 * \brief The long spelling of the short prefix of s, and the length of that prefix: "i32" ->
 *  ("int", 1), "fp8_e4m3fn" -> ("float", 2); (nullptr, 0) when s has no short prefix.
 */
const char* ShortPrefix(const char* s, size_t size, size_t* prefix_len) {
  auto digit_at = [&](size_t i) { return i < size && s[i] >= '0' && s[i] <= '9'; };
  *prefix_len = 0;
  if (size >= 4 && s[0] == 'f' && s[1] == 'p' && digit_at(2) && s[3] == '_') {
    *prefix_len = 2;
    return "float";
  }
  if (size >= 3 && s[0] == 'b' && s[1] == 'f' && digit_at(2)) {
    *prefix_len = 2;
    return "bfloat";
  }
  if (!digit_at(1)) return nullptr;
  *prefix_len = 1;
  switch (s[0]) {
    case 'i':
      return "int";
    case 'u':
      return "uint";
    case 'f':
      return "float";
    default:
      *prefix_len = 0;
      return nullptr;
  }
}

/*!
 * \brief Parse s, expanding a short prefix first. On failure the ValueError message (quoting the
 *  expanded text, as the reference does) is stored in *message.
 */
bool ParseDataType(const char* s, size_t size, DLDataType* out, std::string* message) {
  size_t prefix_len = 0;
  const char* long_prefix = ShortPrefix(s, size, &prefix_len);
  char buf[64];
  std::string heap;
  const char* text = s;
  size_t text_size = size;
  if (long_prefix != nullptr) {
    size_t long_len = std::strlen(long_prefix);
    text_size = long_len + (size - prefix_len);
    char* dst = buf;
    if (text_size > sizeof(buf)) {
      heap.resize(text_size);
      dst = &heap[0];
    }
    std::memcpy(dst, long_prefix, long_len);
    std::memcpy(dst + long_len, s + prefix_len, size - prefix_len);
    text = dst;
  }
  Parser parser{text, text + text_size};
  DLDataType result{0, 0, 1};
  if (TVM_FFI_LIKELY(parser.Parse(&result))) {
    *out = result;
    return true;
  }
  *message = parser.Message();
  return false;
}

/*! \brief Append the decimal digits of value to out. */
inline void AppendDecimal(std::string* out, uint32_t value) {
  char digits[10];
  int n = 0;
  do {
    digits[n++] = static_cast<char>('0' + value % 10);
    value /= 10;
  } while (value != 0);
  while (n > 0) out->push_back(digits[--n]);
}

/*!
 * \brief Append the lanes suffix. Lanes are read as int16, as the reference prints them:
 *  2..32767 -> "x<n>", below -1 -> "xvscalex<-n>", and nothing for 1, 0 and -1.
 */
inline void AppendLanes(std::string* out, uint16_t raw_lanes) {
  int lanes = static_cast<int16_t>(raw_lanes);
  if (lanes > 1) {
    out->push_back('x');
    AppendDecimal(out, static_cast<uint32_t>(lanes));
  } else if (lanes < -1) {
    out->append("xvscalex");
    AppendDecimal(out, static_cast<uint32_t>(-lanes));
  }
}

/*!
 * \brief The text form of dtype (cpp_api.md §6.5). Lossy where the reference is: handle is
 *  "handle" whatever its bits and lanes, void is "", custom types print no bits, and the float
 *  kinds no bits. Ours adds "complex<bits>".
 * \throws Error ValueError for a code nobody defines, or a custom code with no name function.
 */
std::string FormatDataType(const DLDataType& dtype) {
  std::string out;
  if (dtype.code == kDLOpaqueHandle) {
    if (dtype.bits != 0 || dtype.lanes != 0) out = "handle";
    return out;
  }
  if (dtype.code >= kDLExtCustomBegin) {
    out = "custom[" + dtype_custom::NameOfCode(dtype.code) + "]";
    AppendLanes(&out, dtype.lanes);
    return out;
  }
  bool found = false;
  for (const FamilyName& family : kFamilies) {
    if (family.code != dtype.code) continue;
    out.assign(family.name, family.len);
    if (dtype.code != kDLBool || dtype.bits != 8) AppendDecimal(&out, dtype.bits);
    found = true;
    break;
  }
  if (!found) {
    for (const FloatKind& kind : kFloatKinds) {
      if (kind.code != dtype.code) continue;
      out.assign(kind.name, kind.len);
      found = true;
      break;
    }
  }
  if (!found) {
    TVM_FFI_THROW(ValueError) << "DLDataType contains unknown type_code="
                              << static_cast<int>(dtype.code);
  }
  AppendLanes(&out, dtype.lanes);
  return out;
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
    std::string message;
    if (TVM_FFI_LIKELY(::tvm::ffi::ParseDataType(str->data, str->size, out, &message))) return 0;
    // Thrown rather than set from a C string, so that a NUL in the input is kept.
    TVM_FFI_THROW(ValueError) << message;
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
    std::string text = ::tvm::ffi::FormatDataType(*dtype);
    TVMFFIByteArray bytes{text.c_str(), text.size()};
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
