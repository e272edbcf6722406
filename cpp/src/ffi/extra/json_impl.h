/*
 * The JSON parser and printer inside libtvm_ffi (json.cc), for other runtime
 * files; code outside the runtime uses tvm/ffi/extra/json.h.
 */
#ifndef TVM_FFI_SRC_FFI_EXTRA_JSON_IMPL_H_
#define TVM_FFI_SRC_FFI_EXTRA_JSON_IMPL_H_

#include <tvm/ffi/any.h>
#include <tvm/ffi/optional.h>
#include <tvm/ffi/string.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

TVM_FFI_NAMESPACE_BEGIN
namespace detail {
namespace json_impl {

/*! \brief json::Parse without the error_msg form: always throws ValueError on bad input. */
Any Parse(const String& s);

/*! \brief One value of a Document (16 bytes). */
struct DocValue {
  enum Kind : uint8_t { kNull, kBool, kInt, kFloat, kStr, kArray, kObject };
  Kind kind;
  /*! \brief kStr: the text is in the document's pool (it had escapes), else in the source. */
  bool pooled;
  /*! \brief kStr: bytes; kArray: items; kObject: members (key, value pairs). */
  uint32_t size;
  union {
    bool b;
    int64_t i;
    double d;
    /*! \brief kStr: byte offset of the text; containers: index of the first item. */
    uint64_t off;
  };
};

/*!
 * \brief JSON text parsed into a compact read-only tree: strings stay views of
 *  the source (which must outlive the document) unless they had escapes, and
 *  container items lie contiguous in one array. Much cheaper to build and to
 *  read than the FFI values of Parse; ToAny gives those values for a subtree.
 */
class Document {
 public:
  /*! \return Whether text is valid JSON (and under 4 GiB); Parse gives the error otherwise. */
  bool Parse(const char* data, size_t size);
  const DocValue& root() const { return root_; }
  /*! \return The items of an array, or key, value, key, value... of an object. */
  const DocValue* items(const DocValue& v) const { return tape_.data() + v.off; }
  std::string_view str(const DocValue& v) const {
    return std::string_view((v.pooled ? pool_.data() : source_) + v.off, v.size);
  }
  /*! \return The value of the last member of obj named key (the one Parse keeps), or null. */
  const DocValue* Find(const DocValue& obj, std::string_view key) const;
  /*! \return What Parse returns for the subtree v. */
  Any ToAny(const DocValue& v) const;

 private:
  friend class DocSink;
  const char* source_ = nullptr;
  std::string pool_;
  std::vector<DocValue> tape_;
  DocValue root_{};
};

/*! \brief Append a JSON string literal of s (Stringify's escapes). */
void AppendString(std::string_view s, std::string* out);

/*! \brief Append a number as Stringify writes it. */
void AppendFloat(double v, std::string* out);

/*! \brief Append Stringify(value) (compact). */
void AppendCompact(const Any& value, std::string* out);

/*! \brief json::Stringify. */
String Stringify(const Any& value, const Optional<int>& indent = std::nullopt);

}  // namespace json_impl
}  // namespace detail
TVM_FFI_NAMESPACE_END

#endif  // TVM_FFI_SRC_FFI_EXTRA_JSON_IMPL_H_
