/*
 * BigInt: an arbitrary-precision signed integer that is one TVMFFIAny.
 *
 * A value that fits int64 is stored as a plain Int; a larger one as a BigInt
 * object (static type "ffi.BigInt", index 78): the object header, a size_t
 * word count, then that many int64 words, least significant first, in
 * minimal two's complement (no redundant sign word). The runtime makes those
 * objects (TVMFFIBigIntFromByteArray), so every BigInt value crosses library
 * and language boundaries; Python ints beyond int64 arrive as BigInt.
 *
 *   BigInt a = int64_t{1} << 62;
 *   BigInt b = a * a * 16;            // 2^128, a heap value
 *   std::cout << b;                   // 340282366920938463463374607431768211456
 *   std::optional<int64_t> v = (b >> 100).as<int64_t>();   // 2^28
 */
#ifndef TVM_FFI_BIG_INT_H_
#define TVM_FFI_BIG_INT_H_

#include <tvm/ffi/base_detail.h>
#include <tvm/ffi/c_api.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/memory.h>
#include <tvm/ffi/object.h>
#include <tvm/ffi/type_traits.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <istream>
#include <limits>
#include <optional>
#include <ostream>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

TVM_FFI_NAMESPACE_BEGIN

namespace detail {

/*! \brief The object behind a BigInt beyond int64: header, word count, words. */
class BigIntObj : public Object {
 public:
  explicit BigIntObj(size_t n) : num_words(n) {}
  /*! \brief Number of int64 words that follow the object (always >= 2). */
  size_t num_words;
  /*! \return The words, least significant first. */
  const int64_t* words() const { return reinterpret_cast<const int64_t*>(this + 1); }

  static constexpr int32_t _type_index = kTVMFFIBigInt;
  TVM_FFI_DECLARE_OBJECT_INFO_STATIC("ffi.BigInt", BigIntObj, Object);
};
static_assert(sizeof(BigIntObj) == sizeof(TVMFFIObject) + sizeof(size_t),
              "the words follow the header and the word count directly");

/*!
 * \brief Arithmetic on two's complement words (uint64, least significant
 *  first, at least one word) and on magnitudes (unsigned words, no leading
 *  zero word, empty for 0).
 */
namespace bigint {

using Words = std::vector<uint64_t>;
__extension__ typedef unsigned __int128 uint128_t;

inline bool IsNeg(const Words& w) { return static_cast<int64_t>(w.back()) < 0; }
inline uint64_t SignWord(const Words& w) { return IsNeg(w) ? ~uint64_t{0} : 0; }
inline uint64_t At(const Words& w, size_t i) { return i < w.size() ? w[i] : SignWord(w); }

/*! \brief Drop redundant sign words. */
inline void Normalize(Words* w) {
  if (w->empty()) w->push_back(0);
  while (w->size() > 1) {
    uint64_t top = w->back();
    bool below_neg = ((*w)[w->size() - 2] >> 63) != 0;
    if ((top == 0 && !below_neg) || (top == ~uint64_t{0} && below_neg)) {
      w->pop_back();
    } else {
      break;
    }
  }
}

inline Words Add(const Words& a, const Words& b) {
  size_t n = std::max(a.size(), b.size()) + 1;
  Words r(n);
  uint64_t carry = 0;
  for (size_t i = 0; i < n; ++i) {
    uint128_t s = static_cast<uint128_t>(At(a, i)) + At(b, i) + carry;
    r[i] = static_cast<uint64_t>(s);
    carry = static_cast<uint64_t>(s >> 64);
  }
  Normalize(&r);
  return r;
}

inline Words Negate(const Words& a) {
  size_t n = a.size() + 1;
  Words r(n);
  uint64_t carry = 1;
  for (size_t i = 0; i < n; ++i) {
    uint128_t s = static_cast<uint128_t>(~At(a, i)) + carry;
    r[i] = static_cast<uint64_t>(s);
    carry = static_cast<uint64_t>(s >> 64);
  }
  Normalize(&r);
  return r;
}

inline Words Sub(const Words& a, const Words& b) { return Add(a, Negate(b)); }

inline void TrimMag(Words* m) {
  while (!m->empty() && m->back() == 0) m->pop_back();
}

/*! \brief |a| as a magnitude. */
inline Words Mag(const Words& a) {
  Words m = IsNeg(a) ? Negate(a) : a;
  TrimMag(&m);
  return m;
}

/*! \brief The two's complement words of (negative ? -m : m). */
inline Words FromMag(Words m, bool negative) {
  m.push_back(0);
  if (negative) return Negate(m);
  Normalize(&m);
  return m;
}

inline int CompareMag(const Words& a, const Words& b) {
  if (a.size() != b.size()) return a.size() < b.size() ? -1 : 1;
  for (size_t i = a.size(); i-- > 0;) {
    if (a[i] != b[i]) return a[i] < b[i] ? -1 : 1;
  }
  return 0;
}

inline Words MulMag(const Words& a, const Words& b) {
  if (a.empty() || b.empty()) return Words();
  Words r(a.size() + b.size(), 0);
  for (size_t i = 0; i < a.size(); ++i) {
    uint64_t carry = 0;
    for (size_t j = 0; j < b.size(); ++j) {
      uint128_t t = static_cast<uint128_t>(a[i]) * b[j] + r[i + j] + carry;
      r[i + j] = static_cast<uint64_t>(t);
      carry = static_cast<uint64_t>(t >> 64);
    }
    r[i + b.size()] = carry;
  }
  TrimMag(&r);
  return r;
}

/*! \brief m = m * mul + add, in place (single-word factors). */
inline void MulAddSmall(Words* m, uint64_t mul, uint64_t add) {
  uint64_t carry = add;
  for (uint64_t& w : *m) {
    uint128_t t = static_cast<uint128_t>(w) * mul + carry;
    w = static_cast<uint64_t>(t);
    carry = static_cast<uint64_t>(t >> 64);
  }
  if (carry != 0) m->push_back(carry);
}

/*! \brief m /= d in place (d != 0); returns the remainder. */
inline uint64_t DivModSmall(Words* m, uint64_t d) {
  uint128_t rem = 0;
  for (size_t i = m->size(); i-- > 0;) {
    uint128_t cur = (rem << 64) | (*m)[i];
    (*m)[i] = static_cast<uint64_t>(cur / d);
    rem = cur % d;
  }
  TrimMag(m);
  return static_cast<uint64_t>(rem);
}

/*! \brief Quotient and remainder of magnitudes (b non-empty). */
inline void DivModMag(const Words& a, const Words& b, Words* q, Words* r) {
  if (CompareMag(a, b) < 0) {
    *q = Words();
    *r = a;
    return;
  }
  if (b.size() == 1) {
    *q = a;
    uint64_t rem = DivModSmall(q, b[0]);
    *r = rem == 0 ? Words() : Words{rem};
    return;
  }
  // Binary long division: values of a few words are the common case here.
  Words quot(a.size(), 0);
  Words rem;
  for (size_t bit = a.size() * 64; bit-- > 0;) {
    // rem = rem * 2 + bit
    uint64_t carry = (a[bit / 64] >> (bit % 64)) & 1;
    for (uint64_t& w : rem) {
      uint64_t next = w >> 63;
      w = (w << 1) | carry;
      carry = next;
    }
    if (carry != 0) rem.push_back(carry);
    if (CompareMag(rem, b) >= 0) {
      uint64_t borrow = 0;
      for (size_t i = 0; i < rem.size(); ++i) {
        uint64_t bi = i < b.size() ? b[i] : 0;
        uint128_t sub = static_cast<uint128_t>(bi) + borrow;
        borrow = static_cast<uint128_t>(rem[i]) < sub ? 1 : 0;
        rem[i] = static_cast<uint64_t>(static_cast<uint128_t>(rem[i]) - sub);
      }
      TrimMag(&rem);
      quot[bit / 64] |= uint64_t{1} << (bit % 64);
    }
  }
  TrimMag(&quot);
  *q = std::move(quot);
  *r = std::move(rem);
}

inline Words ShiftLeft(const Words& a, uint64_t count) {
  size_t word_shift = static_cast<size_t>(count / 64);
  unsigned bit_shift = static_cast<unsigned>(count % 64);
  Words r(a.size() + word_shift + 1, 0);
  for (size_t i = 0; i < a.size() + 1; ++i) {
    uint64_t cur = At(a, i);
    uint64_t prev = i == 0 ? 0 : At(a, i - 1);
    r[i + word_shift] = bit_shift == 0 ? cur : (cur << bit_shift) | (prev >> (64 - bit_shift));
  }
  Normalize(&r);
  return r;
}

/*! \brief Arithmetic (flooring) right shift. */
inline Words ShiftRight(const Words& a, uint64_t count) {
  uint64_t word_shift = count / 64;
  unsigned bit_shift = static_cast<unsigned>(count % 64);
  if (word_shift >= a.size()) return Words{SignWord(a)};
  size_t n = a.size() - static_cast<size_t>(word_shift);
  Words r(n);
  for (size_t i = 0; i < n; ++i) {
    uint64_t lo = At(a, i + word_shift);
    uint64_t hi = At(a, i + word_shift + 1);
    r[i] = bit_shift == 0 ? lo : (lo >> bit_shift) | (hi << (64 - bit_shift));
  }
  Normalize(&r);
  return r;
}

template <typename Op>
inline Words Bitwise(const Words& a, const Words& b, Op op) {
  size_t n = std::max(a.size(), b.size());
  Words r(n);
  for (size_t i = 0; i < n; ++i) r[i] = op(At(a, i), At(b, i));
  Normalize(&r);
  return r;
}

inline int Compare(const Words& a, const Words& b) {
  bool na = IsNeg(a), nb = IsNeg(b);
  if (na != nb) return na ? -1 : 1;
  // Same sign: two's complement words order like unsigned ones, from the top.
  size_t n = std::max(a.size(), b.size());
  for (size_t i = n; i-- > 0;) {
    uint64_t x = At(a, i), y = At(b, i);
    if (x != y) return x < y ? -1 : 1;
  }
  return 0;
}

}  // namespace bigint
}  // namespace detail

/*! \brief An arbitrary-precision signed integer (one TVMFFIAny: Int or a BigInt object). */
class BigInt {
 public:
  /*! \brief Zero. */
  BigInt() { SetInt(0); }
  /*! \brief An integer of at most 64 bits; uint64 values above INT64_MAX become heap values. */
  template <typename Int,
            typename = std::enable_if_t<std::is_integral_v<Int> && !std::is_same_v<Int, bool> &&
                                        sizeof(Int) <= sizeof(int64_t)>>
  BigInt(Int value) {  // NOLINT(runtime/explicit)
    if constexpr (std::is_unsigned_v<Int> && sizeof(Int) == sizeof(int64_t)) {
      if (value > static_cast<Int>(std::numeric_limits<int64_t>::max())) {
        SetInt(0);
        Assign(Words{static_cast<uint64_t>(value), 0});
        return;
      }
    }
    SetInt(static_cast<int64_t>(value));
  }
  /*!
   * \brief The integer part of a double (truncated toward zero).
   * \throws Error ValueError for NaN, OverflowError for infinities.
   */
  explicit BigInt(double value) {
    SetInt(0);
    if (std::isnan(value)) TVM_FFI_THROW(ValueError) << "Cannot convert NaN to BigInt";
    if (std::isinf(value)) TVM_FFI_THROW(OverflowError) << "Cannot convert infinity to BigInt";
    double t = std::trunc(value);
    if (t >= -9223372036854775808.0 && t < 9223372036854775808.0) {
      SetInt(static_cast<int64_t>(t));
      return;
    }
    // |t| >= 2^63: an integral 53-bit mantissa times a power of two.
    int exp = 0;
    double frac = std::frexp(std::fabs(t), &exp);
    uint64_t mantissa = static_cast<uint64_t>(std::ldexp(frac, 53));
    Words m = detail::bigint::ShiftLeft(Words{mantissa, 0}, static_cast<uint64_t>(exp - 53));
    Assign(t < 0 ? detail::bigint::Negate(m) : std::move(m));
  }

  BigInt(const BigInt& other) : data_(other.data_) {
    if (is_heap()) TVMFFIObjectIncRef(data_.v_obj);
  }
  /*! \brief Takes other's value; other becomes 0. */
  BigInt(BigInt&& other) noexcept : data_(other.data_) { other.SetInt(0); }
  BigInt& operator=(const BigInt& other) {
    BigInt(other).swap(*this);
    return *this;
  }
  BigInt& operator=(BigInt&& other) noexcept {
    BigInt(std::move(other)).swap(*this);
    return *this;
  }
  ~BigInt() {
    if (is_heap()) TVMFFIObjectDecRef(data_.v_obj);
  }
  void swap(BigInt& other) noexcept { std::swap(data_, other.data_); }

  /*! \return Whether the value is not zero. */
  explicit operator bool() const { return is_heap() || data_.v_int64 != 0; }
  /*! \throws Error OverflowError when the value does not fit int64_t. */
  explicit operator int64_t() const {
    if (is_heap()) TVM_FFI_THROW(OverflowError) << "BigInt does not fit int64_t";
    return data_.v_int64;
  }
  /*! \throws Error OverflowError when the value exceeds the finite doubles. */
  explicit operator double() const {
    if (!is_heap()) return static_cast<double>(data_.v_int64);
    Words w = ToWords();
    bool negative = detail::bigint::IsNeg(w);
    Words m = detail::bigint::Mag(w);
    // The top 128 bits decide the double (53 bits of mantissa); lower words only round.
    double result = 0;
    for (size_t i = m.size(); i-- > 0;) {
      result = result * 18446744073709551616.0 + static_cast<double>(m[i]);
      if (std::isinf(result)) break;
    }
    if (std::isinf(result)) TVM_FFI_THROW(OverflowError) << "BigInt does not fit finite double";
    return negative ? -result : result;
  }

  /*! \return The value as Int when it fits, else nullopt. */
  template <typename Int = int64_t,
            typename = std::enable_if_t<std::is_integral_v<Int> && !std::is_same_v<Int, bool>>>
  std::optional<Int> as() const {
    if (is_heap()) {
      if constexpr (std::is_same_v<Int, uint64_t>) {
        Words w = ToWords();
        if (w.size() == 2 && w[1] == 0) return w[0];
      }
      return std::nullopt;
    }
    int64_t v = data_.v_int64;
    if constexpr (std::is_unsigned_v<Int>) {
      if (v < 0 || static_cast<uint64_t>(v) > std::numeric_limits<Int>::max()) return std::nullopt;
    } else {
      if (v < static_cast<int64_t>(std::numeric_limits<Int>::min()) ||
          v > static_cast<int64_t>(std::numeric_limits<Int>::max())) {
        return std::nullopt;
      }
    }
    return static_cast<Int>(v);
  }

  /*! \return The int64 value as uint64; for a heap value, the stable hash of its words. */
  uint64_t hash() const {
    if (!is_heap()) return static_cast<uint64_t>(data_.v_int64);
    // The words in memory order are bytes for the stable hash of strings.
    Words words = ToWords();
    return detail::StableHashBytes(words.data(), words.size() * sizeof(uint64_t));
  }

  /*! \return Whether the value is a heap object (does not fit int64). */
  bool is_heap() const { return data_.type_index == kTVMFFIBigInt; }

  /*! \return The decimal text, with a leading '-' when negative. */
  std::string ToString() const {
    if (!is_heap()) return std::to_string(data_.v_int64);
    Words w = ToWords();
    bool negative = detail::bigint::IsNeg(w);
    Words m = detail::bigint::Mag(w);
    std::vector<uint64_t> chunks;  // base 10^18, least significant first
    while (!m.empty()) chunks.push_back(detail::bigint::DivModSmall(&m, kChunkBase));
    std::string out = negative ? "-" : "";
    out += std::to_string(chunks.back());
    for (size_t i = chunks.size() - 1; i-- > 0;) {
      std::string part = std::to_string(chunks[i]);
      out.append(18 - part.size(), '0');
      out += part;
    }
    return out;
  }

  /*!
   * \brief Parse decimal text with an optional sign.
   * \throws Error ValueError when the text is not such a number.
   */
  static BigInt FromString(std::string_view text) {
    size_t pos = 0;
    bool negative = false;
    if (pos < text.size() && (text[pos] == '+' || text[pos] == '-')) {
      negative = text[pos] == '-';
      ++pos;
    }
    if (pos == text.size()) {
      TVM_FFI_THROW(ValueError) << "Invalid BigInt literal: `" << text << "`";
    }
    Words m;
    for (; pos < text.size(); ++pos) {
      char c = text[pos];
      if (c < '0' || c > '9') {
        TVM_FFI_THROW(ValueError) << "Invalid BigInt literal: `" << text << "`";
      }
      detail::bigint::MulAddSmall(&m, 10, static_cast<uint64_t>(c - '0'));
      if (m.size() == 1 && m[0] == 0) m.clear();
    }
    BigInt r;
    r.Assign(detail::bigint::FromMag(std::move(m), negative));
    return r;
  }

  // Arithmetic. / and % truncate toward zero (see floordiv/floormod).
  friend BigInt operator+(const BigInt& a, const BigInt& b) {
    int64_t r;
    if (!a.is_heap() && !b.is_heap() && !__builtin_add_overflow(a.small(), b.small(), &r)) {
      return BigInt(r);
    }
    return FromWords(detail::bigint::Add(a.ToWords(), b.ToWords()));
  }
  friend BigInt operator-(const BigInt& a, const BigInt& b) {
    int64_t r;
    if (!a.is_heap() && !b.is_heap() && !__builtin_sub_overflow(a.small(), b.small(), &r)) {
      return BigInt(r);
    }
    return FromWords(detail::bigint::Sub(a.ToWords(), b.ToWords()));
  }
  friend BigInt operator*(const BigInt& a, const BigInt& b) {
    int64_t r;
    if (!a.is_heap() && !b.is_heap() && !__builtin_mul_overflow(a.small(), b.small(), &r)) {
      return BigInt(r);
    }
    Words wa = a.ToWords(), wb = b.ToWords();
    bool negative = detail::bigint::IsNeg(wa) != detail::bigint::IsNeg(wb);
    return FromWords(detail::bigint::FromMag(
        detail::bigint::MulMag(detail::bigint::Mag(wa), detail::bigint::Mag(wb)), negative));
  }
  friend BigInt operator/(const BigInt& a, const BigInt& b) { return truncdiv(a, b); }
  friend BigInt operator%(const BigInt& a, const BigInt& b) { return truncmod(a, b); }

  /*! \brief Quotient rounded toward zero. \throws Error ZeroDivisionError when b is 0. */
  friend BigInt truncdiv(const BigInt& a, const BigInt& b) {
    BigInt q, r;
    DivMod(a, b, &q, &r);
    return q;
  }
  /*! \brief Remainder with the sign of a. \throws Error ZeroDivisionError when b is 0. */
  friend BigInt truncmod(const BigInt& a, const BigInt& b) {
    BigInt q, r;
    DivMod(a, b, &q, &r);
    return r;
  }
  /*! \brief Quotient rounded toward negative infinity. */
  friend BigInt floordiv(const BigInt& a, const BigInt& b) {
    BigInt q, r;
    DivMod(a, b, &q, &r);
    if (r && (r.negative() != b.negative())) q -= 1;
    return q;
  }
  /*! \brief Remainder with the sign of b. */
  friend BigInt floormod(const BigInt& a, const BigInt& b) {
    BigInt q, r;
    DivMod(a, b, &q, &r);
    if (r && (r.negative() != b.negative())) r += b;
    return r;
  }
  friend BigInt min(const BigInt& a, const BigInt& b) { return b < a ? b : a; }
  friend BigInt max(const BigInt& a, const BigInt& b) { return a < b ? b : a; }

  // Bitwise operators act on the infinite two's complement form.
  friend BigInt operator&(const BigInt& a, const BigInt& b) {
    if (!a.is_heap() && !b.is_heap()) return BigInt(a.small() & b.small());
    return FromWords(detail::bigint::Bitwise(a.ToWords(), b.ToWords(),
                                             [](uint64_t x, uint64_t y) { return x & y; }));
  }
  friend BigInt operator|(const BigInt& a, const BigInt& b) {
    if (!a.is_heap() && !b.is_heap()) return BigInt(a.small() | b.small());
    return FromWords(detail::bigint::Bitwise(a.ToWords(), b.ToWords(),
                                             [](uint64_t x, uint64_t y) { return x | y; }));
  }
  friend BigInt operator^(const BigInt& a, const BigInt& b) {
    if (!a.is_heap() && !b.is_heap()) return BigInt(a.small() ^ b.small());
    return FromWords(detail::bigint::Bitwise(a.ToWords(), b.ToWords(),
                                             [](uint64_t x, uint64_t y) { return x ^ y; }));
  }
  /*!
   * \brief a * 2^count. \throws Error ValueError for a negative count,
   *  OverflowError when the result would be absurdly large.
   */
  friend BigInt operator<<(const BigInt& a, const BigInt& count) {
    uint64_t n = ShiftCount(count, true);
    if (!a) return BigInt();
    return FromWords(detail::bigint::ShiftLeft(a.ToWords(), n));
  }
  /*! \brief floor(a / 2^count). \throws Error ValueError for a negative count. */
  friend BigInt operator>>(const BigInt& a, const BigInt& count) {
    uint64_t n = ShiftCount(count, false);
    return FromWords(detail::bigint::ShiftRight(a.ToWords(), n));
  }

  BigInt& operator+=(const BigInt& b) { return *this = *this + b; }
  BigInt& operator-=(const BigInt& b) { return *this = *this - b; }
  BigInt& operator*=(const BigInt& b) { return *this = *this * b; }
  BigInt& operator/=(const BigInt& b) { return *this = *this / b; }
  BigInt& operator%=(const BigInt& b) { return *this = *this % b; }
  BigInt& operator&=(const BigInt& b) { return *this = *this & b; }
  BigInt& operator|=(const BigInt& b) { return *this = *this | b; }
  BigInt& operator^=(const BigInt& b) { return *this = *this ^ b; }
  BigInt& operator<<=(const BigInt& b) { return *this = *this << b; }
  BigInt& operator>>=(const BigInt& b) { return *this = *this >> b; }

  BigInt operator+() const { return *this; }
  BigInt operator-() const { return BigInt() - *this; }
  BigInt operator~() const { return BigInt(-1) - *this; }
  BigInt& operator++() { return *this += 1; }
  BigInt& operator--() { return *this -= 1; }
  BigInt operator++(int) {
    BigInt old = *this;
    *this += 1;
    return old;
  }
  BigInt operator--(int) {
    BigInt old = *this;
    *this -= 1;
    return old;
  }

  friend bool operator==(const BigInt& a, const BigInt& b) { return Cmp(a, b) == 0; }
  friend bool operator!=(const BigInt& a, const BigInt& b) { return Cmp(a, b) != 0; }
  friend bool operator<(const BigInt& a, const BigInt& b) { return Cmp(a, b) < 0; }
  friend bool operator<=(const BigInt& a, const BigInt& b) { return Cmp(a, b) <= 0; }
  friend bool operator>(const BigInt& a, const BigInt& b) { return Cmp(a, b) > 0; }
  friend bool operator>=(const BigInt& a, const BigInt& b) { return Cmp(a, b) >= 0; }

  friend std::ostream& operator<<(std::ostream& os, const BigInt& v) { return os << v.ToString(); }
  /*! \brief Read an optionally signed decimal number; sets failbit when there is none. */
  friend std::istream& operator>>(std::istream& is, BigInt& v) {
    std::istream::sentry sentry(is);
    if (!sentry) return is;
    std::string text;
    int c = is.peek();
    if (c == '+' || c == '-') {
      text.push_back(static_cast<char>(is.get()));
      c = is.peek();
    }
    while (c != std::char_traits<char>::eof() && c >= '0' && c <= '9') {
      text.push_back(static_cast<char>(is.get()));
      c = is.peek();
    }
    if (text.empty() || text == "+" || text == "-") {
      is.setstate(std::ios::failbit);
      return is;
    }
    v = FromString(text);
    return is;
  }

 private:
  using Words = detail::bigint::Words;
  static constexpr uint64_t kChunkBase = 1000000000000000000ULL;  // 10^18
  // Left shifts beyond this many bits are refused rather than exhausting memory.
  static constexpr uint64_t kMaxShift = uint64_t{1} << 30;

  friend struct TypeTraits<BigInt>;

  void SetInt(int64_t v) {
    data_.type_index = kTVMFFIInt;
    data_.zero_padding = 0;
    data_.v_int64 = v;
  }
  int64_t small() const { return data_.v_int64; }
  bool negative() const {
    if (!is_heap()) return data_.v_int64 < 0;
    const auto* obj = reinterpret_cast<const detail::BigIntObj*>(data_.v_obj);
    return obj->words()[obj->num_words - 1] < 0;
  }

  Words ToWords() const {
    if (!is_heap()) return Words{static_cast<uint64_t>(data_.v_int64)};
    const auto* obj = reinterpret_cast<const detail::BigIntObj*>(data_.v_obj);
    Words w(obj->num_words);
    std::memcpy(w.data(), obj->words(), obj->num_words * sizeof(int64_t));
    return w;
  }
  /*! \brief Replace the value by normalized words (the runtime makes the object). */
  void Assign(Words w) {
    detail::bigint::Normalize(&w);
    if (w.size() == 1) {
      BigInt(static_cast<int64_t>(w[0])).swap(*this);
      return;
    }
    TVMFFIByteArray bytes{reinterpret_cast<const char*>(w.data()), w.size() * sizeof(uint64_t)};
    TVMFFIAny out;
    TVM_FFI_CHECK_SAFE_CALL(TVMFFIBigIntFromByteArray(&bytes, &out));
    BigInt result;
    result.data_ = out;
    result.swap(*this);
  }
  static BigInt FromWords(Words w) {
    BigInt r;
    r.Assign(std::move(w));
    return r;
  }
  static int Cmp(const BigInt& a, const BigInt& b) {
    if (!a.is_heap() && !b.is_heap()) {
      return a.small() < b.small() ? -1 : (a.small() > b.small() ? 1 : 0);
    }
    return detail::bigint::Compare(a.ToWords(), b.ToWords());
  }
  static void DivMod(const BigInt& a, const BigInt& b, BigInt* q, BigInt* r) {
    if (!b) TVM_FFI_THROW(ZeroDivisionError) << "Division by zero";
    if (!a.is_heap() && !b.is_heap() &&
        !(a.small() == std::numeric_limits<int64_t>::min() && b.small() == -1)) {
      *q = BigInt(a.small() / b.small());
      *r = BigInt(a.small() % b.small());
      return;
    }
    Words wa = a.ToWords(), wb = b.ToWords();
    bool na = detail::bigint::IsNeg(wa), nb = detail::bigint::IsNeg(wb);
    Words mq, mr;
    detail::bigint::DivModMag(detail::bigint::Mag(wa), detail::bigint::Mag(wb), &mq, &mr);
    *q = FromWords(detail::bigint::FromMag(std::move(mq), na != nb));
    *r = FromWords(detail::bigint::FromMag(std::move(mr), na));
  }
  static uint64_t ShiftCount(const BigInt& count, bool left) {
    if (count.negative()) TVM_FFI_THROW(ValueError) << "Negative BigInt shift count";
    if (count.is_heap() || (left && static_cast<uint64_t>(count.small()) > kMaxShift)) {
      if (!left) return std::numeric_limits<uint64_t>::max();
      TVM_FFI_THROW(OverflowError) << "BigInt shift count is too large";
    }
    return static_cast<uint64_t>(count.small());
  }

  TVMFFIAny data_;
};

/*! \brief Exchange two values (found by argument-dependent lookup). */
inline void swap(BigInt& a, BigInt& b) noexcept { a.swap(b); }

/*! \brief BigInt in Any: Int or a BigInt object; casts also accept Bool. */
template <>
struct TypeTraits<BigInt> : TypeTraitsBase {
  static void CopyToAnyView(const BigInt& src, TVMFFIAny* r) { *r = src.data_; }
  static void MoveToAny(BigInt src, TVMFFIAny* r) {
    *r = src.data_;
    src.SetInt(0);
  }
  static bool CheckAnyStrict(const TVMFFIAny* src) {
    return src->type_index == kTVMFFIInt || src->type_index == kTVMFFIBigInt;
  }
  static BigInt CopyFromAnyViewAfterCheck(const TVMFFIAny* src) {
    BigInt r;
    r.data_ = *src;
    if (r.is_heap()) TVMFFIObjectIncRef(r.data_.v_obj);
    return r;
  }
  static BigInt MoveFromAnyAfterCheck(TVMFFIAny* src) {
    BigInt r;
    r.data_ = *src;
    detail::SetNone(src);
    return r;
  }
  static std::optional<BigInt> TryCastFromAnyView(const TVMFFIAny* src) {
    if (CheckAnyStrict(src)) return CopyFromAnyViewAfterCheck(src);
    if (src->type_index == kTVMFFIBool) return BigInt(src->v_int64 != 0 ? 1 : 0);
    return std::nullopt;
  }
  static std::string TypeStr() { return "BigInt"; }
  static std::string TypeSchema() { return detail::SchemaOf("ffi.BigInt"); }
};

TVM_FFI_NAMESPACE_END

namespace std {
/*! \brief Hash of a BigInt, equal for equal values (BigInt::hash). */
template <>
struct hash<::tvm::ffi::BigInt> {
  size_t operator()(const ::tvm::ffi::BigInt& v) const { return static_cast<size_t>(v.hash()); }
};
}  // namespace std

#endif  // TVM_FFI_BIG_INT_H_
