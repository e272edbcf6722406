/*
 * Base64 (standard alphabet A-Z a-z 0-9 + /, '=' padding) of byte strings.
 *
 *   String text = Base64Encode(Bytes("hello", 5));   // "aGVsbG8="
 *   Bytes raw = Base64Decode(text);                  // "hello"
 *   Base64Decode(String("abc"));                     // InternalError: invalid base64 encoding
 *   Base64Decode(String("Zm!v"));                    // no validation: '!' reads as digit 0
 */
#ifndef TVM_FFI_EXTRA_BASE64_H_
#define TVM_FFI_EXTRA_BASE64_H_

#include <tvm/ffi/error.h>
#include <tvm/ffi/string.h>

#include <cstdint>
#include <string>

TVM_FFI_NAMESPACE_BEGIN

namespace detail {
/*! \return The 6-bit value of a base64 digit, or -1 when c is not one ('=' included). */
inline int Base64DigitValue(unsigned char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '+') return 62;
  if (c == '/') return 63;
  return -1;
}
}  // namespace detail

/*! \return The base64 text of the bytes, padded with '=' to a multiple of 4. */
inline String Base64Encode(TVMFFIByteArray data) {
  static constexpr char kAlphabet[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  const unsigned char* p = reinterpret_cast<const unsigned char*>(data.data);
  std::string out;
  out.reserve((data.size + 2) / 3 * 4);
  size_t i = 0;
  for (; i + 3 <= data.size; i += 3) {
    uint32_t v = (uint32_t{p[i]} << 16) | (uint32_t{p[i + 1]} << 8) | p[i + 2];
    out += kAlphabet[(v >> 18) & 63];
    out += kAlphabet[(v >> 12) & 63];
    out += kAlphabet[(v >> 6) & 63];
    out += kAlphabet[v & 63];
  }
  size_t rest = data.size - i;
  if (rest != 0) {
    uint32_t v = uint32_t{p[i]} << 16;
    if (rest == 2) v |= uint32_t{p[i + 1]} << 8;
    out += kAlphabet[(v >> 18) & 63];
    out += kAlphabet[(v >> 12) & 63];
    out += rest == 2 ? kAlphabet[(v >> 6) & 63] : '=';
    out += '=';
  }
  return String(out);
}

/*! \return The base64 text of the bytes. */
inline String Base64Encode(const Bytes& data) {
  return Base64Encode(TVMFFIByteArray{data.data(), data.size()});
}

/*!
 * \brief Decode base64 text, without validating the digits (as the JSON
 *  graph readers of every implementation do): empty text gives empty bytes; a
 *  length that is not a multiple of 4 throws InternalError "invalid base64
 *  encoding"; a character outside the alphabet counts as digit 0; '=' in the
 *  third or fourth place of a group of four drops that group's second or
 *  third byte.
 */
inline Bytes Base64Decode(TVMFFIByteArray text) {
  if (text.size % 4 != 0) {
    TVM_FFI_THROW(InternalError) << "invalid base64 encoding: length " << text.size
                                 << " is not a multiple of 4";
  }
  const unsigned char* p = reinterpret_cast<const unsigned char*>(text.data);
  std::string out;
  out.reserve(text.size / 4 * 3);
  for (size_t g = 0; g < text.size; g += 4) {
    uint32_t v = 0;
    for (int k = 0; k < 4; ++k) {
      int d = detail::Base64DigitValue(p[g + k]);
      v |= static_cast<uint32_t>(d < 0 ? 0 : d) << (18 - 6 * k);
    }
    out += static_cast<char>((v >> 16) & 0xFF);
    if (p[g + 2] != '=') out += static_cast<char>((v >> 8) & 0xFF);
    if (p[g + 3] != '=') out += static_cast<char>(v & 0xFF);
  }
  return Bytes(out.data(), out.size());
}

/*! \return The bytes of base64 text. */
inline Bytes Base64Decode(const String& text) {
  return Base64Decode(TVMFFIByteArray{text.data(), text.size()});
}

TVM_FFI_NAMESPACE_END
#endif  // TVM_FFI_EXTRA_BASE64_H_
