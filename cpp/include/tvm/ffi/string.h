/*
 * String and Bytes: immutable text and byte sequences of the FFI.
 *
 * Both are 16 bytes, the same cell as Any: up to 7 bytes are stored inline
 * (SmallStr/SmallBytes, no allocation), longer content lives in a
 * reference-counted heap object whose data is NUL-terminated. They convert to
 * and from std::string, std::string_view and const char*; std::string and
 * const char* arguments of functions are passed as borrowed views.
 *
 *   String s = "hello world";
 *   std::string t = s;
 *   if (s == "hello world") ...
 *   Bytes b(std::string("\0\1", 2));
 */
#ifndef TVM_FFI_STRING_H_
#define TVM_FFI_STRING_H_

#if defined(_MSC_VER)
#define TVM_FFI_SNPRINTF _snprintf_s
#else
#define TVM_FFI_SNPRINTF snprintf
#endif

#include <tvm/ffi/any.h>
#include <tvm/ffi/memory.h>
#include <tvm/ffi/object.h>
#include <tvm/ffi/type_traits.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <ostream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

TVM_FFI_NAMESPACE_BEGIN

namespace detail {
/*! \brief Common base of the heap objects of String and Bytes: header, then {data, size}. */
class BytesObjBase : public Object, public TVMFFIByteArray {};
}  // namespace detail

/*! \brief Heap storage of a String: header, then {data, size}, then the bytes. */
class StringObj : public detail::BytesObjBase {
 public:
  static constexpr int32_t _type_index = kTVMFFIStr;
  TVM_FFI_DECLARE_OBJECT_INFO_STATIC("ffi.String", StringObj, Object);
};

/*! \brief Heap storage of Bytes; same layout as StringObj. */
class BytesObj : public detail::BytesObjBase {
 public:
  static constexpr int32_t _type_index = kTVMFFIBytes;
  TVM_FFI_DECLARE_OBJECT_INFO_STATIC("ffi.Bytes", BytesObj, Object);
};

namespace detail {
// 0.1.16 code names the heap objects through detail (cpp_api.md §2.6).
using StringObj = ::tvm::ffi::StringObj;
using BytesObj = ::tvm::ffi::BytesObj;
}  // namespace detail

namespace detail {
template <typename StrT, int32_t kSmall, int32_t kHeap, int32_t kBorrowed>
struct ByteStorageTypeTraits;

/*! \brief A String/Bytes heap object that owns a std::string's buffer (moved in). */
template <typename Base>
class BytesObjStdImpl : public Base {
 public:
  explicit BytesObjStdImpl(std::string other) : data_container_(std::move(other)) {
    this->data = data_container_.data();
    this->size = data_container_.size();
  }

 private:
  std::string data_container_;
};

/*!
 * \brief The storage shared by String and Bytes: a TVMFFIAny holding either
 *  the small inline form or the heap object.
 */
template <typename HeapObj, int32_t kSmallIndex>
class ByteStorage {
 public:
  static constexpr size_t kMaxSmallSize = sizeof(TVMFFIAny::v_bytes) - 1;

  ByteStorage() { InitSmall(nullptr, 0); }
  ByteStorage(const char* data, size_t size) { Init(data, size); }
  ByteStorage(const ByteStorage& other) : data_(other.data_) { IncRefIfHeap(); }
  ByteStorage(ByteStorage&& other) noexcept : data_(other.data_) { other.InitSmall(nullptr, 0); }
  ByteStorage& operator=(const ByteStorage& other) {
    ByteStorage(other).swap(*this);
    return *this;
  }
  ByteStorage& operator=(ByteStorage&& other) noexcept {
    ByteStorage(std::move(other)).swap(*this);
    return *this;
  }
  ~ByteStorage() {
    if (is_heap()) ObjectUnsafe::DecRef(data_.v_obj);
  }

  void swap(ByteStorage& other) noexcept { std::swap(data_, other.data_); }
  const char* data() const { return is_heap() ? heap()->data : data_.v_bytes; }
  const char* c_str() const { return data(); }
  size_t size() const { return is_heap() ? heap()->size : data_.small_str_len; }
  size_t length() const { return size(); }
  bool empty() const { return size() == 0; }
  /*! \return Byte i; std::out_of_range when i >= size(). */
  char at(size_t i) const {
    if (i >= size()) throw std::out_of_range("tvm::String index out of bounds");
    return data()[i];
  }
  char operator[](size_t i) const { return data()[i]; }
  operator std::string_view() const { return std::string_view(data(), size()); }  // NOLINT
  operator std::string() const { return std::string(data(), size()); }            // NOLINT
  std::string_view view() const { return std::string_view(data(), size()); }
  /*!
   * \brief Three-way comparison: byte-wise as (signed) char, then by length.
   * \return Exactly -1, 0 or 1.
   */
  static int memncmp(const char* lhs, const char* rhs, size_t lhs_size, size_t rhs_size) {
    size_t n = lhs_size < rhs_size ? lhs_size : rhs_size;
    for (size_t i = 0; i < n; ++i) {
      if (lhs[i] != rhs[i]) return lhs[i] < rhs[i] ? -1 : 1;
    }
    if (lhs_size == rhs_size) return 0;
    return lhs_size < rhs_size ? -1 : 1;
  }
  /*! \return Whether the two byte ranges are equal. */
  static bool memequal(const void* lhs, const void* rhs, size_t lhs_size, size_t rhs_size) {
    return lhs_size == rhs_size && (lhs_size == 0 || std::memcmp(lhs, rhs, lhs_size) == 0);
  }

  /*! \brief Whether the content lives in a heap object (longer than 7 bytes). */
  bool is_heap() const { return data_.type_index != kSmallIndex; }

 protected:
  void InitSmall(const char* data, size_t size) {
    data_.type_index = kSmallIndex;
    data_.small_str_len = static_cast<uint32_t>(size);
    std::memset(data_.v_bytes, 0, sizeof(data_.v_bytes));
    if (size != 0) std::memcpy(data_.v_bytes, data, size);
  }
  void Init(const char* data, size_t size) {
    if (size <= kMaxSmallSize) {
      InitSmall(data, size);
      return;
    }
    ObjectPtr<HeapObj> obj = make_inplace_array_object<HeapObj, char>(size + 1);
    char* dest = InplaceArrayBase<HeapObj, char>(obj.get());
    std::memcpy(dest, data, size);
    dest[size] = '\0';
    obj->data = dest;
    obj->size = size;
    data_.type_index = HeapObj::_type_index;
    data_.zero_padding = 0;
    data_.v_obj = ObjectUnsafe::MoveObjectPtrToHandle(std::move(obj));
  }
  /*! \brief Always the heap form: the object takes over the string's buffer. */
  void InitFromStdString(std::string&& str) {
    ObjectPtr<BytesObjStdImpl<HeapObj>> obj = make_object<BytesObjStdImpl<HeapObj>>(std::move(str));
    data_.type_index = HeapObj::_type_index;
    data_.zero_padding = 0;
    data_.v_obj = ObjectUnsafe::MoveObjectPtrToHandle(std::move(obj));
  }
  void IncRefIfHeap() {
    if (is_heap()) ObjectUnsafe::IncRef(data_.v_obj);
  }
  const HeapObj* heap() const {
    return static_cast<const HeapObj*>(reinterpret_cast<const Object*>(data_.v_obj));
  }

  TVMFFIAny data_;
  template <typename, int32_t, int32_t, int32_t>
  friend struct ByteStorageTypeTraits;
};
}  // namespace detail

/*! \brief An immutable UTF-8 string. */
class String : public detail::ByteStorage<StringObj, kTVMFFISmallStr> {
  using Base = detail::ByteStorage<StringObj, kTVMFFISmallStr>;

 public:
  /*! \brief The "not found" result of find(). */
  static constexpr size_t npos = static_cast<size_t>(-1);

  String() = default;
  String(std::nullptr_t) = delete;
  String(const char* s) : Base(s, std::strlen(s)) {}  // NOLINT(runtime/explicit)
  String(const char* s, size_t n) : Base(s, n) {}
  String(const std::string& s) : Base(s.data(), s.size()) {}  // NOLINT(runtime/explicit)
  /*! \brief Takes over the buffer: always the heap form, even for short text. */
  String(std::string&& s) { InitFromStdString(std::move(s)); }  // NOLINT(runtime/explicit)
  String(std::string_view s) : Base(s.data(), s.size()) {}      // NOLINT(runtime/explicit)
  explicit String(TVMFFIByteArray bytes) : Base(bytes.data, bytes.size) {}

  /*! \brief Three-way comparison (see memncmp); returns -1, 0 or 1. */
  int compare(const String& other) const {
    return memncmp(data(), other.data(), size(), other.size());
  }
  int compare(const std::string& other) const {
    return memncmp(data(), other.data(), size(), other.size());
  }
  /*! \brief Compares with the C string up to its NUL. */
  int compare(const char* other) const {
    return memncmp(data(), other, size(), std::strlen(other));
  }
  int compare(const TVMFFIByteArray& other) const {
    return memncmp(data(), other.data, size(), other.size);
  }
  int compare(std::string_view other) const {
    return memncmp(data(), other.data(), size(), other.size());
  }

  /*! \return The first position >= pos where str occurs, or npos. */
  size_t find(const String& str, size_t pos = 0) const { return view().find(str.view(), pos); }
  size_t find(const char* str, size_t pos = 0) const { return view().find(str, pos); }
  size_t find(const char* str, size_t pos, size_t count) const {
    return view().find(str, pos, count);
  }

  /*!
   * \return The bytes [pos, pos + count), count clamped to the end.
   * \throws std::out_of_range when pos > size().
   */
  String substr(size_t pos = 0, size_t count = npos) const {
    if (pos > size()) throw std::out_of_range("tvm::String substr index out of bounds");
    size_t n = count < size() - pos ? count : size() - pos;
    return String(data() + pos, n);
  }

  /*! \return Whether the string begins with prefix. */
  bool starts_with(const String& prefix) const { return starts_with(prefix.view()); }
  bool starts_with(std::string_view prefix) const {
    return prefix.size() <= size() && std::memcmp(data(), prefix.data(), prefix.size()) == 0;
  }
  bool starts_with(const char* prefix) const { return starts_with(std::string_view(prefix)); }
  bool starts_with(const char* prefix, size_t count) const {
    return starts_with(std::string_view(prefix, count));
  }
  /*! \return Whether the string ends with suffix. */
  bool ends_with(const String& suffix) const { return ends_with(suffix.view()); }
  bool ends_with(std::string_view suffix) const {
    return suffix.size() <= size() &&
           std::memcmp(data() + size() - suffix.size(), suffix.data(), suffix.size()) == 0;
  }
  bool ends_with(const char* suffix) const { return ends_with(std::string_view(suffix)); }
  bool ends_with(const char* suffix, size_t count) const {
    return ends_with(std::string_view(suffix, count));
  }

  /*!
   * \return The parts between delimiters, as views into this string; n
   *  delimiters give n + 1 parts, empty parts included ("" gives {""}).
   */
  std::vector<std::string_view> Split(char delim) const {
    std::vector<std::string_view> parts;
    std::string_view text = view();
    size_t begin = 0;
    while (true) {
      size_t end = text.find(delim, begin);
      if (end == std::string_view::npos) {
        parts.push_back(text.substr(begin));
        return parts;
      }
      parts.push_back(text.substr(begin, end - begin));
      begin = end + 1;
    }
  }

  /*! \brief Concatenation. */
  friend String operator+(const String& a, std::string_view b) {
    std::string s(a.view());
    s.append(b.data(), b.size());
    return String(s);
  }
  friend String operator+(std::string_view a, const String& b) {
    std::string s(a);
    s.append(b.data(), b.size());
    return String(s);
  }
  friend String operator+(const String& a, const String& b) { return a + b.view(); }
  friend String operator+(const String& a, const std::string& b) { return a + std::string_view(b); }
  friend String operator+(const std::string& a, const String& b) { return std::string_view(a) + b; }
  friend String operator+(const String& a, const char* b) { return a + std::string_view(b); }
  friend String operator+(const char* a, const String& b) { return std::string_view(a) + b; }

  friend bool operator==(const String& a, const String& b) {
    return memequal(a.data(), b.data(), a.size(), b.size());
  }
  friend bool operator==(const String& a, const std::string& b) {
    return memequal(a.data(), b.data(), a.size(), b.size());
  }
  friend bool operator==(const std::string& a, const String& b) {
    return memequal(a.data(), b.data(), a.size(), b.size());
  }
  friend bool operator==(const String& a, const char* b) { return a.compare(b) == 0; }
  friend bool operator==(const char* a, const String& b) { return b.compare(a) == 0; }
  friend bool operator==(const String& a, std::string_view b) { return a.compare(b) == 0; }
  friend bool operator==(std::string_view a, const String& b) { return b.compare(a) == 0; }
  friend bool operator!=(const String& a, const String& b) {
    return !memequal(a.data(), b.data(), a.size(), b.size());
  }
  friend bool operator!=(const String& a, const std::string& b) {
    return !memequal(a.data(), b.data(), a.size(), b.size());
  }
  friend bool operator!=(const std::string& a, const String& b) {
    return !memequal(a.data(), b.data(), a.size(), b.size());
  }
  friend bool operator!=(const String& a, const char* b) { return a.compare(b) != 0; }
  friend bool operator!=(const char* a, const String& b) { return b.compare(a) != 0; }
  friend bool operator!=(const String& a, std::string_view b) { return a.compare(b) != 0; }
  friend bool operator!=(std::string_view a, const String& b) { return b.compare(a) != 0; }
#define TVM_FFI_STRING_ORDER_OPS_(op)                                                          \
  friend bool operator op(const String& a, const String& b) { return a.compare(b) op 0; }      \
  friend bool operator op(const String& a, const std::string& b) { return a.compare(b) op 0; } \
  friend bool operator op(const std::string& a, const String& b) { return 0 op b.compare(a); } \
  friend bool operator op(const String& a, const char* b) { return a.compare(b) op 0; }        \
  friend bool operator op(const char* a, const String& b) { return 0 op b.compare(a); }
  TVM_FFI_STRING_ORDER_OPS_(<)
  TVM_FFI_STRING_ORDER_OPS_(>)
  TVM_FFI_STRING_ORDER_OPS_(<=)
  TVM_FFI_STRING_ORDER_OPS_(>=)
#undef TVM_FFI_STRING_ORDER_OPS_
  // A null pointer is never a string.
  friend bool operator==(const String&, std::nullptr_t) = delete;
  friend bool operator==(std::nullptr_t, const String&) = delete;
  friend bool operator!=(const String&, std::nullptr_t) = delete;
  friend bool operator!=(std::nullptr_t, const String&) = delete;
  friend bool operator<(const String&, std::nullptr_t) = delete;
  friend bool operator<(std::nullptr_t, const String&) = delete;
  friend bool operator>(const String&, std::nullptr_t) = delete;
  friend bool operator>(std::nullptr_t, const String&) = delete;
  friend bool operator<=(const String&, std::nullptr_t) = delete;
  friend bool operator<=(std::nullptr_t, const String&) = delete;
  friend bool operator>=(const String&, std::nullptr_t) = delete;
  friend bool operator>=(std::nullptr_t, const String&) = delete;
  friend std::ostream& operator<<(std::ostream& os, const String& s) { return os << s.view(); }
};

/*! \brief An immutable byte sequence (distinct from String, maps to Python bytes). */
class Bytes : public detail::ByteStorage<BytesObj, kTVMFFISmallBytes> {
  using Base = detail::ByteStorage<BytesObj, kTVMFFISmallBytes>;

 public:
  Bytes() = default;
  Bytes(const char* s, size_t n) : Base(s, n) {}
  Bytes(TVMFFIByteArray bytes) : Base(bytes.data, bytes.size) {}  // NOLINT(runtime/explicit)
  Bytes(const std::string& s) : Base(s.data(), s.size()) {}       // NOLINT(runtime/explicit)
  /*! \brief Takes over the buffer: always the heap form, even for short content. */
  Bytes(std::string&& s) { InitFromStdString(std::move(s)); }  // NOLINT(runtime/explicit)
  explicit Bytes(std::string_view s) : Base(s.data(), s.size()) {}
  /*! \brief The bytes of a C string, up to its terminator. */
  explicit Bytes(const char* s) : Base(s, std::char_traits<char>::length(s)) {}

  /*! \brief Three-way comparison (see memncmp); returns -1, 0 or 1. */
  int compare(const Bytes& other) const {
    return memncmp(data(), other.data(), size(), other.size());
  }

  friend bool operator==(const Bytes& a, const Bytes& b) {
    return memequal(a.data(), b.data(), a.size(), b.size());
  }
  friend bool operator!=(const Bytes& a, const Bytes& b) {
    return !memequal(a.data(), b.data(), a.size(), b.size());
  }
  /*! \brief Byte-wise equality with a C string (compared up to its terminator). */
  // (No operator calls inside: resolving one here would instantiate TypeTraits<Bytes>
  // before its specialization below.)
  friend bool operator==(const Bytes& a, const char* b) {
    return memequal(a.data(), b, a.size(), std::char_traits<char>::length(b));
  }
  friend bool operator==(const char* a, const Bytes& b) {
    return memequal(b.data(), a, b.size(), std::char_traits<char>::length(a));
  }
  friend bool operator!=(const Bytes& a, const char* b) {
    return !memequal(a.data(), b, a.size(), std::char_traits<char>::length(b));
  }
  friend bool operator!=(const char* a, const Bytes& b) {
    return !memequal(b.data(), a, b.size(), std::char_traits<char>::length(a));
  }
  friend bool operator<(const Bytes& a, const Bytes& b) { return a.compare(b) < 0; }
};

namespace detail {
/*! \brief Traits shared by String and Bytes: small or heap form of one kind. */
template <typename StrT, int32_t kSmall, int32_t kHeap, int32_t kBorrowed>
struct ByteStorageTypeTraits : TypeTraitsBase {
  static void CopyToAnyView(const StrT& src, TVMFFIAny* r) { *r = src.data_; }
  static void MoveToAny(StrT src, TVMFFIAny* r) {
    *r = src.data_;
    src.InitSmall(nullptr, 0);
  }
  static bool CheckAnyStrict(const TVMFFIAny* src) {
    return src->type_index == kSmall || src->type_index == kHeap;
  }
  static StrT CopyFromAnyViewAfterCheck(const TVMFFIAny* src) {
    StrT result;
    result.data_ = *src;
    result.IncRefIfHeap();
    return result;
  }
  static StrT MoveFromAnyAfterCheck(TVMFFIAny* src) {
    StrT result;
    result.data_ = *src;
    SetNone(src);
    return result;
  }
  static std::optional<StrT> TryCastFromAnyView(const TVMFFIAny* src) {
    if (CheckAnyStrict(src)) return CopyFromAnyViewAfterCheck(src);
    if (src->type_index == kBorrowed) {
      std::string_view view;
      bool is_bytes;
      AnyStringView(src, &view, &is_bytes);
      return StrT(view.data(), view.size());
    }
    return std::nullopt;
  }
};
}  // namespace detail

template <>
struct TypeTraits<String>
    : detail::ByteStorageTypeTraits<String, kTVMFFISmallStr, kTVMFFIStr, kTVMFFIRawStr> {
  static std::string TypeStr() { return "str"; }
  static std::string TypeSchema() { return detail::SchemaOf("ffi.String"); }
};

template <>
struct TypeTraits<Bytes>
    : detail::ByteStorageTypeTraits<Bytes, kTVMFFISmallBytes, kTVMFFIBytes, kTVMFFIByteArrayPtr> {
  static std::string TypeStr() { return "bytes"; }
  static std::string TypeSchema() { return detail::SchemaOf("ffi.Bytes"); }
};

/*! \brief The bytes of a TVMFFIByteArray as a string view. */
inline std::string_view ToStringView(TVMFFIByteArray bytes) {
  return std::string_view(bytes.data, bytes.size);
}

namespace detail {
inline void AppendHexByte(std::string* out, const char* prefix, unsigned value, int digits) {
  static const char kHex[] = "0123456789abcdef";
  *out += prefix;
  for (int shift = (digits - 1) * 4; shift >= 0; shift -= 4) *out += kHex[(value >> shift) & 0xF];
}
}  // namespace detail

/*!
 * \brief The text as a double-quoted JSON string: ", \, / and the control
 *  characters \b \f \n \r \t are escaped, other bytes below 0x20 and 0x7f
 *  become \u00XX, bytes from 0x80 up are copied (UTF-8 passes through).
 */
inline String EscapeStringJSON(const String& value) {
  std::string out;
  out.reserve(value.size() + 2);
  out += '"';
  for (char c : value.view()) {
    unsigned char u = static_cast<unsigned char>(c);
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '/':
        out += "\\/";
        break;
      case '\b':
        out += "\\b";
        break;
      case '\f':
        out += "\\f";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        if (u < 0x20 || u == 0x7f) {
          detail::AppendHexByte(&out, "\\u", u, 4);
        } else {
          out += c;
        }
    }
  }
  out += '"';
  return String(std::move(out));
}

/*! \brief Deprecated name of EscapeStringJSON. */
[[deprecated("use EscapeStringJSON")]] inline String EscapeString(const String& value) {
  return EscapeStringJSON(value);
}

/*!
 * \brief The text as a double-quoted Python-style literal: \n \t \r \\ \"
 *  escaped; ANSI colour sequences (ESC [ digits/; then m or K) kept with ESC
 *  written \x1b; other control bytes and 0x7f as \xNN; valid UTF-8 sequences
 *  as \uXXXX (2 or 3 bytes) or \UXXXXXXXX (4 bytes); a malformed byte as \xNN.
 */
inline String EscapedStringPy(const String& value) {
  std::string_view text = value.view();
  std::string out;
  out.reserve(text.size() + 2);
  out += '"';
  size_t i = 0;
  const size_t n = text.size();
  auto byte_at = [&](size_t k) { return static_cast<unsigned char>(text[k]); };
  while (i < n) {
    unsigned char u = byte_at(i);
    if (u == 0x1b && i + 1 < n && text[i + 1] == '[') {
      size_t k = i + 2;
      while (k < n && ((text[k] >= '0' && text[k] <= '9') || text[k] == ';')) ++k;
      if (k < n && (text[k] == 'm' || text[k] == 'K')) {
        out += "\\x1b";
        out.append(text.data() + i + 1, k - i);
        i = k + 1;
        continue;
      }
    }
    if (u == '\n') {
      out += "\\n";
    } else if (u == '\t') {
      out += "\\t";
    } else if (u == '\r') {
      out += "\\r";
    } else if (u == '\\') {
      out += "\\\\";
    } else if (u == '"') {
      out += "\\\"";
    } else if (u < 0x20 || u == 0x7f) {
      detail::AppendHexByte(&out, "\\x", u, 2);
    } else if (u < 0x80) {
      out += static_cast<char>(u);
    } else {
      size_t len = (u & 0xE0) == 0xC0 ? 2 : (u & 0xF0) == 0xE0 ? 3 : (u & 0xF8) == 0xF0 ? 4 : 0;
      bool valid = len != 0 && i + len <= n;
      for (size_t k = 1; valid && k < len; ++k) valid = (byte_at(i + k) & 0xC0) == 0x80;
      if (!valid) {
        detail::AppendHexByte(&out, "\\x", u, 2);
      } else {
        uint32_t code = u & (len == 2 ? 0x1F : len == 3 ? 0x0F : 0x07);
        for (size_t k = 1; k < len; ++k) code = (code << 6) | (byte_at(i + k) & 0x3F);
        if (len == 4) {
          detail::AppendHexByte(&out, "\\U", code, 8);
        } else {
          detail::AppendHexByte(&out, "\\u", code, 4);
        }
        i += len;
        continue;
      }
    }
    ++i;
  }
  out += '"';
  return String(std::move(out));
}

/*! \brief std::string: passed as a borrowed RawStr view, stored as String. */
template <>
struct TypeTraits<std::string> : TypeTraitsBase {
  static constexpr bool storage_enabled = false;  // converted on every crossing
  static void CopyToAnyView(const std::string& src, TVMFFIAny* r) {
    r->type_index = kTVMFFIRawStr;
    r->zero_padding = 0;
    r->v_c_str = src.c_str();
  }
  // An owned std::string becomes a heap String that takes over its buffer.
  static void MoveToAny(std::string src, TVMFFIAny* r) {
    TypeTraits<String>::MoveToAny(String(std::move(src)), r);
  }
  static bool CheckAnyStrict(const TVMFFIAny* src) {
    return TypeTraits<String>::CheckAnyStrict(src);
  }
  static std::string CopyFromAnyViewAfterCheck(const TVMFFIAny* src) {
    std::string_view view;
    bool is_bytes;
    detail::AnyStringView(src, &view, &is_bytes);
    return std::string(view);
  }
  static std::string MoveFromAnyAfterCheck(TVMFFIAny* src) {
    std::string s = CopyFromAnyViewAfterCheck(src);
    Any owned = detail::AnyUnsafe::MoveTVMFFIAnyToAny(src);
    return s;
  }
  // Reads the bytes of any of the four text forms and of the byte forms alike.
  static std::optional<std::string> TryCastFromAnyView(const TVMFFIAny* src) {
    std::string_view view;
    bool is_bytes = false;
    if (detail::AnyStringView(src, &view, &is_bytes)) return std::string(view);
    return std::nullopt;
  }
  static std::string TypeStr() { return "std::string"; }
  static std::string TypeSchema() { return detail::SchemaOf("ffi.String"); }
};

/*! \brief const char*: passed as a borrowed RawStr view, stored as String. */
template <>
struct TypeTraits<const char*> : TypeTraitsBase {
  static constexpr bool storage_enabled = false;  // converted on every crossing
  static void CopyToAnyView(const char* const& src, TVMFFIAny* r) {
    r->type_index = kTVMFFIRawStr;
    r->zero_padding = 0;
    r->v_c_str = src;
  }
  static void MoveToAny(const char* src, TVMFFIAny* r) {
    TypeTraits<String>::MoveToAny(String(src), r);
  }
  static bool CheckAnyStrict(const TVMFFIAny* src) {
    return src->type_index == kTVMFFIRawStr || src->type_index == kTVMFFIStr ||
           src->type_index == kTVMFFISmallStr;
  }
  // The pointer borrows from the cell's storage (for a small string, the cell
  // itself): it is valid as long as the Any or AnyView it was read from.
  static const char* CopyFromAnyViewAfterCheck(const TVMFFIAny* src) {
    std::string_view view;
    bool is_bytes;
    detail::AnyStringView(src, &view, &is_bytes);
    return view.data();
  }
  static std::optional<const char*> TryCastFromAnyView(const TVMFFIAny* src) {
    if (CheckAnyStrict(src)) return CopyFromAnyViewAfterCheck(src);
    return std::nullopt;
  }
  static std::string TypeStr() { return "const char*"; }
  static std::string TypeSchema() { return detail::SchemaOf("const char*"); }
};

/*!
 * \brief A byte buffer passed by pointer: viewed as kTVMFFIByteArrayPtr (no copy, the caller
 *  keeps it alive), stored as Bytes. Read back only from a ByteArrayPtr cell (no strict form).
 */
template <>
struct TypeTraits<TVMFFIByteArray*> : TypeTraitsBase {
  static constexpr bool storage_enabled = false;  // converted on every crossing
  static void CopyToAnyView(TVMFFIByteArray* const& src, TVMFFIAny* r) {
    TVM_FFI_ICHECK_NOTNULL(src);
    r->type_index = kTVMFFIByteArrayPtr;
    r->zero_padding = 0;
    r->v_int64 = 0;
    r->v_ptr = src;
  }
  static void MoveToAny(TVMFFIByteArray* src, TVMFFIAny* r) {
    TVM_FFI_ICHECK_NOTNULL(src);
    TypeTraits<Bytes>::MoveToAny(Bytes(*src), r);
  }
  static bool CheckAnyStrict(const TVMFFIAny*) { return false; }
  static TVMFFIByteArray* CopyFromAnyViewAfterCheck(const TVMFFIAny* src) {
    return static_cast<TVMFFIByteArray*>(src->v_ptr);
  }
  static std::optional<TVMFFIByteArray*> TryCastFromAnyView(const TVMFFIAny* src) {
    if (src->type_index == kTVMFFIByteArrayPtr) return static_cast<TVMFFIByteArray*>(src->v_ptr);
    return std::nullopt;
  }
  static std::string TypeStr() { return "TVMFFIByteArray*"; }
  static std::string TypeSchema() { return detail::SchemaOf("TVMFFIByteArray*"); }
};

/*! \brief String literals, viewed as const char*. */
template <size_t N>
struct TypeTraits<char[N]> : TypeTraitsBase {
  static constexpr bool storage_enabled = false;  // converted on every crossing
  static void CopyToAnyView(const char (&src)[N], TVMFFIAny* r) {
    TypeTraits<const char*>::CopyToAnyView(src, r);
  }
  static std::string TypeStr() { return "const char*"; }
  static std::string TypeSchema() { return detail::SchemaOf("const char*"); }
};

TVM_FFI_NAMESPACE_END

namespace std {
template <>
struct hash<::tvm::ffi::String> {
  size_t operator()(const ::tvm::ffi::String& s) const {
    return std::hash<std::string_view>()(s.view());
  }
};
template <>
struct hash<::tvm::ffi::Bytes> {
  size_t operator()(const ::tvm::ffi::Bytes& s) const {
    return std::hash<std::string_view>()(s.view());
  }
};
}  // namespace std

#endif  // TVM_FFI_STRING_H_
