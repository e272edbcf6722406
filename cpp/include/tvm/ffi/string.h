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

#include <tvm/ffi/any.h>
#include <tvm/ffi/memory.h>
#include <tvm/ffi/object.h>
#include <tvm/ffi/type_traits.h>

#include <cstring>
#include <functional>
#include <ostream>
#include <string>
#include <string_view>
#include <utility>

TVM_FFI_NAMESPACE_BEGIN

/*! \brief Heap storage of a String: header, then {data, size}, then the bytes. */
class StringObj : public Object, public TVMFFIByteArray {
 public:
  static constexpr int32_t _type_index = kTVMFFIStr;
  TVM_FFI_DECLARE_OBJECT_INFO_STATIC("ffi.String", StringObj, Object);
};

/*! \brief Heap storage of Bytes; same layout as StringObj. */
class BytesObj : public Object, public TVMFFIByteArray {
 public:
  static constexpr int32_t _type_index = kTVMFFIBytes;
  TVM_FFI_DECLARE_OBJECT_INFO_STATIC("ffi.Bytes", BytesObj, Object);
};

namespace details {
template <typename StrT, int32_t kSmall, int32_t kHeap, int32_t kBorrowed>
struct ByteStorageTypeTraits;

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
  char at(size_t i) const {
    if (i >= size()) {
      TVM_FFI_THROW(IndexError) << "index " << i << " out of range for size " << size();
    }
    return data()[i];
  }
  char operator[](size_t i) const { return data()[i]; }
  operator std::string_view() const { return std::string_view(data(), size()); }  // NOLINT
  operator std::string() const { return std::string(data(), size()); }            // NOLINT
  std::string_view view() const { return std::string_view(data(), size()); }
  int compare(std::string_view other) const { return view().compare(other); }

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
}  // namespace details

/*! \brief An immutable UTF-8 string. */
class String : public details::ByteStorage<StringObj, kTVMFFISmallStr> {
  using Base = details::ByteStorage<StringObj, kTVMFFISmallStr>;

 public:
  String() = default;
  String(const char* s) : Base(s, std::strlen(s)) {}              // NOLINT(runtime/explicit)
  String(const char* s, size_t n) : Base(s, n) {}
  String(const std::string& s) : Base(s.data(), s.size()) {}     // NOLINT(runtime/explicit)
  String(std::string_view s) : Base(s.data(), s.size()) {}       // NOLINT(runtime/explicit)

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
  friend String operator+(const String& a, const std::string& b) {
    return a + std::string_view(b);
  }
  friend String operator+(const std::string& a, const String& b) {
    return std::string_view(a) + b;
  }
  friend String operator+(const String& a, const char* b) { return a + std::string_view(b); }
  friend String operator+(const char* a, const String& b) { return std::string_view(a) + b; }

  friend bool operator==(const String& a, const String& b) { return a.view() == b.view(); }
  friend bool operator!=(const String& a, const String& b) { return a.view() != b.view(); }
  friend bool operator<(const String& a, const String& b) { return a.view() < b.view(); }
  friend bool operator>(const String& a, const String& b) { return a.view() > b.view(); }
  friend bool operator<=(const String& a, const String& b) { return a.view() <= b.view(); }
  friend bool operator>=(const String& a, const String& b) { return a.view() >= b.view(); }
  friend bool operator==(const String& a, const char* b) { return a.view() == b; }
  friend bool operator==(const char* a, const String& b) { return b.view() == a; }
  friend bool operator!=(const String& a, const char* b) { return a.view() != b; }
  friend bool operator!=(const char* a, const String& b) { return b.view() != a; }
  friend bool operator==(const String& a, const std::string& b) { return a.view() == b; }
  friend bool operator==(const std::string& a, const String& b) { return b.view() == a; }
  friend bool operator!=(const String& a, const std::string& b) { return a.view() != b; }
  friend bool operator!=(const std::string& a, const String& b) { return b.view() != a; }
  friend bool operator==(const String& a, std::string_view b) { return a.view() == b; }
  friend bool operator==(std::string_view a, const String& b) { return b.view() == a; }
  friend bool operator!=(const String& a, std::string_view b) { return a.view() != b; }
  friend bool operator!=(std::string_view a, const String& b) { return b.view() != a; }
  friend std::ostream& operator<<(std::ostream& os, const String& s) { return os << s.view(); }
};

/*! \brief An immutable byte sequence (distinct from String, maps to Python bytes). */
class Bytes : public details::ByteStorage<BytesObj, kTVMFFISmallBytes> {
  using Base = details::ByteStorage<BytesObj, kTVMFFISmallBytes>;

 public:
  Bytes() = default;
  Bytes(const char* s, size_t n) : Base(s, n) {}
  explicit Bytes(const std::string& s) : Base(s.data(), s.size()) {}
  explicit Bytes(std::string_view s) : Base(s.data(), s.size()) {}

  friend bool operator==(const Bytes& a, const Bytes& b) { return a.view() == b.view(); }
  friend bool operator!=(const Bytes& a, const Bytes& b) { return a.view() != b.view(); }
  friend bool operator<(const Bytes& a, const Bytes& b) { return a.view() < b.view(); }
};

namespace details {
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
}  // namespace details

template <>
struct TypeTraits<String>
    : details::ByteStorageTypeTraits<String, kTVMFFISmallStr, kTVMFFIStr, kTVMFFIRawStr> {
  static std::string TypeStr() { return "str"; }
  static std::string TypeSchema() { return details::SchemaOf("ffi.String"); }
};

template <>
struct TypeTraits<Bytes>
    : details::ByteStorageTypeTraits<Bytes, kTVMFFISmallBytes, kTVMFFIBytes,
                                     kTVMFFIByteArrayPtr> {
  static std::string TypeStr() { return "bytes"; }
  static std::string TypeSchema() { return details::SchemaOf("ffi.Bytes"); }
};

/*! \brief std::string: passed as a borrowed RawStr view, stored as String. */
template <>
struct TypeTraits<std::string> : TypeTraitsBase {
  static constexpr bool storage_enabled = false;  // converted on every crossing
  static void CopyToAnyView(const std::string& src, TVMFFIAny* r) {
    r->type_index = kTVMFFIRawStr;
    r->zero_padding = 0;
    r->v_c_str = src.c_str();
  }
  static void MoveToAny(std::string src, TVMFFIAny* r) {
    TypeTraits<String>::MoveToAny(String(src), r);
  }
  static bool CheckAnyStrict(const TVMFFIAny* src) {
    return TypeTraits<String>::CheckAnyStrict(src);
  }
  static std::string CopyFromAnyViewAfterCheck(const TVMFFIAny* src) {
    std::string_view view;
    bool is_bytes;
    details::AnyStringView(src, &view, &is_bytes);
    return std::string(view);
  }
  static std::string MoveFromAnyAfterCheck(TVMFFIAny* src) {
    std::string s = CopyFromAnyViewAfterCheck(src);
    Any owned = details::AnyUnsafe::MoveTVMFFIAnyToAny(src);
    return s;
  }
  static std::optional<std::string> TryCastFromAnyView(const TVMFFIAny* src) {
    if (CheckAnyStrict(src) || src->type_index == kTVMFFIRawStr) {
      return CopyFromAnyViewAfterCheck(src);
    }
    return std::nullopt;
  }
  static std::string TypeStr() { return "str"; }
  static std::string TypeSchema() { return details::SchemaOf("ffi.String"); }
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
    details::AnyStringView(src, &view, &is_bytes);
    return view.data();
  }
  static std::optional<const char*> TryCastFromAnyView(const TVMFFIAny* src) {
    if (CheckAnyStrict(src)) return CopyFromAnyViewAfterCheck(src);
    return std::nullopt;
  }
  static std::string TypeStr() { return "str"; }
  static std::string TypeSchema() { return details::SchemaOf("const char*"); }
};

/*! \brief String literals, viewed as const char*. */
template <size_t N>
struct TypeTraits<char[N]> : TypeTraitsBase {
  static constexpr bool storage_enabled = false;  // converted on every crossing
  static void CopyToAnyView(const char (&src)[N], TVMFFIAny* r) {
    TypeTraits<const char*>::CopyToAnyView(src, r);
  }
  static std::string TypeStr() { return "str"; }
  static std::string TypeSchema() { return details::SchemaOf("const char*"); }
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
