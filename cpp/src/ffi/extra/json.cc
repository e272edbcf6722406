/*
 * JSON parser and printer (json::Parse, json::Stringify) and their globals
 * ffi.json.Parse / ffi.json.Stringify.
 *
 * Both work with explicit stacks, so nesting depth is bounded by memory, not
 * by the native call stack (a text of a million '[' parses and prints).
 */
#include "json_impl.h"

#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/list.h>
#include <tvm/ffi/container/map.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/reflection/registry.h>

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>
#include <unordered_set>
#include <utility>
#include <vector>

TVM_FFI_NAMESPACE_BEGIN
namespace detail {
namespace json_impl {
namespace {

/*! \brief A parse failure: what went wrong and the 0-based byte offset where. */
struct ParseError {
  const char* what;
  size_t pos;
};

/*!
 * \brief The JSON grammar, building values through a Sink:
 *  Null(), Bool(b), Int(i), Float(d), Str(view), EmptyArray(), EmptyObject(),
 *  Open(is_object), Key(view), Item(value), Close(is_object). A string view
 *  points into the source text when the literal has no escape, else into a
 *  scratch buffer that the next string overwrites.
 */
template <typename Sink>
class Parser {
 public:
  using Value = typename Sink::Value;

  Parser(const char* data, size_t size, Sink* sink) : p_(data), n_(size), sink_(sink) {}

  /*! \return The value, or false with *err filled. */
  bool Run(Value* out, ParseError* err) {
    err_ = err;
    if (!ParseDocument(out)) return false;
    SkipWhitespace();
    if (i_ != n_) return Fail("Extra data", i_);
    return true;
  }

 private:
  bool Fail(const char* what, size_t pos) {
    *err_ = ParseError{what, pos};
    return false;
  }

  void SkipWhitespace() {
    while (i_ < n_) {
      char c = p_[i_];
      if (c != ' ' && c != '\t' && c != '\n' && c != '\r') break;
      ++i_;
    }
  }

  bool StartsWith(const char* lit) const {
    size_t len = std::strlen(lit);
    return n_ - i_ >= len && std::memcmp(p_ + i_, lit, len) == 0;
  }

  /*!
   * \brief Parse one value at the cursor. Containers are opened in the sink
   *  instead of recursing; `*out` is set only for scalars and empty
   *  containers, `*opened` tells the caller a container was opened.
   */
  bool ParseValueStart(Value* out, bool* opened) {
    *opened = false;
    SkipWhitespace();
    if (i_ >= n_) return Fail("Expecting value", i_);
    char c = p_[i_];
    switch (c) {
      case '{': {
        ++i_;
        SkipWhitespace();
        if (i_ < n_ && p_[i_] == '}') {
          ++i_;
          *out = sink_->EmptyObject();
          return true;
        }
        open_.push_back(true);
        sink_->Open(true);
        *opened = true;
        return ParseKey();
      }
      case '[': {
        ++i_;
        SkipWhitespace();
        if (i_ < n_ && p_[i_] == ']') {
          ++i_;
          *out = sink_->EmptyArray();
          return true;
        }
        open_.push_back(false);
        sink_->Open(false);
        *opened = true;
        return true;
      }
      case '"': {
        std::string_view s;
        if (!ParseString(&s)) return false;
        *out = sink_->Str(s);
        return true;
      }
      case 't':
        if (StartsWith("true")) {
          i_ += 4;
          *out = sink_->Bool(true);
          return true;
        }
        break;
      case 'f':
        if (StartsWith("false")) {
          i_ += 5;
          *out = sink_->Bool(false);
          return true;
        }
        break;
      case 'n':
        if (StartsWith("null")) {
          i_ += 4;
          *out = sink_->Null();
          return true;
        }
        break;
      case 'N':
        if (StartsWith("NaN")) {
          i_ += 3;
          *out = sink_->Float(std::numeric_limits<double>::quiet_NaN());
          return true;
        }
        break;
      case 'I':
        if (StartsWith("Infinity")) {
          i_ += 8;
          *out = sink_->Float(std::numeric_limits<double>::infinity());
          return true;
        }
        break;
      case '-':
        if (StartsWith("-Infinity")) {
          i_ += 9;
          *out = sink_->Float(-std::numeric_limits<double>::infinity());
          return true;
        }
        return ParseNumber(out);
      default:
        if ((c >= '0' && c <= '9') || c == '+' || c == '.') return ParseNumber(out);
        break;
    }
    return Fail("Expecting value", i_);
  }

  /*! \brief Inside an object after '{' or ',': read `"key" :`. */
  bool ParseKey() {
    SkipWhitespace();
    if (i_ >= n_ || p_[i_] != '"') {
      return Fail("Expecting property name enclosed in double quotes", i_);
    }
    std::string_view key;
    if (!ParseString(&key)) return false;
    sink_->Key(key);
    SkipWhitespace();
    if (i_ >= n_ || p_[i_] != ':') return Fail("Expecting ':' delimiter", i_);
    ++i_;
    return true;
  }

  bool ParseDocument(Value* result) {
    Value value;
    bool opened;
    if (!ParseValueStart(&value, &opened)) return false;
    if (!opened) {
      *result = std::move(value);
      return true;
    }
    while (true) {
      // Read the next item of the innermost container.
      if (!ParseValueStart(&value, &opened)) return false;
      if (opened) continue;
      // A value is complete: store it and close every container that ends here.
      while (true) {
        sink_->Item(std::move(value));
        SkipWhitespace();
        bool is_object = open_.back();
        char close = is_object ? '}' : ']';
        if (i_ < n_ && p_[i_] == ',') {
          ++i_;
          SkipWhitespace();
          // Text ending right after a comma is reported apart from a missing item.
          if (i_ >= n_) return Fail("Syntax error near", i_);
          if (is_object && !ParseKey()) return false;
          break;
        }
        if (i_ < n_ && p_[i_] == close) {
          ++i_;
          value = sink_->Close(is_object);
          open_.pop_back();
          if (open_.empty()) {
            *result = std::move(value);
            return true;
          }
          continue;
        }
        return Fail("Expecting ',' delimiter", i_);
      }
    }
  }

  static int HexValue(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  }

  /*! \brief Read the 4 hex digits after the 'u' at position u_pos. */
  bool ReadHex4(size_t u_pos, uint32_t* out) {
    if (n_ - u_pos < 5) return Fail("Invalid \\uXXXX escape", u_pos);
    uint32_t v = 0;
    for (size_t k = 1; k <= 4; ++k) {
      int d = HexValue(p_[u_pos + k]);
      if (d < 0) return Fail("Invalid \\uXXXX escape", u_pos);
      v = (v << 4) | static_cast<uint32_t>(d);
    }
    *out = v;
    return true;
  }

  static void AppendUtf8(uint32_t cp, std::string* out) {
    if (cp < 0x80) {
      out->push_back(static_cast<char>(cp));
    } else if (cp < 0x800) {
      out->push_back(static_cast<char>(0xC0 | (cp >> 6)));
      out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    } else if (cp < 0x10000) {
      out->push_back(static_cast<char>(0xE0 | (cp >> 12)));
      out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
      out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    } else {
      out->push_back(static_cast<char>(0xF0 | (cp >> 18)));
      out->push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
      out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
      out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    }
  }

  /*! \brief Parse a string literal; the cursor is on the opening quote. */
  bool ParseString(std::string_view* out) {
    size_t begin = i_++;
    // Most literals have no escape: view them in place.
    size_t run = i_;
    while (i_ < n_) {
      unsigned char c = static_cast<unsigned char>(p_[i_]);
      if (c == '"' || c == '\\' || c < 0x20) break;
      ++i_;
    }
    if (i_ < n_ && p_[i_] == '"') {
      *out = std::string_view(p_ + run, i_ - run);
      ++i_;
      return true;
    }
    std::string& buf = scratch_;
    buf.assign(p_ + run, i_ - run);
    while (true) {
      run = i_;
      while (i_ < n_) {
        unsigned char c = static_cast<unsigned char>(p_[i_]);
        if (c == '"' || c == '\\' || c < 0x20) break;
        ++i_;
      }
      buf.append(p_ + run, i_ - run);
      if (i_ >= n_) return Fail("Unterminated string starting at", begin);
      unsigned char c = static_cast<unsigned char>(p_[i_]);
      if (c == '"') {
        ++i_;
        *out = std::string_view(buf);
        return true;
      }
      if (c < 0x20) return Fail("Invalid control character at", i_);
      // A backslash escape.
      size_t esc = i_ + 1;
      if (esc >= n_) return Fail("Invalid \\escape", esc);
      switch (p_[esc]) {
        case '"':
          buf.push_back('"');
          break;
        case '\\':
          buf.push_back('\\');
          break;
        case '/':
          buf.push_back('/');
          break;
        case 'b':
          buf.push_back('\b');
          break;
        case 'f':
          buf.push_back('\f');
          break;
        case 'n':
          buf.push_back('\n');
          break;
        case 'r':
          buf.push_back('\r');
          break;
        case 't':
          buf.push_back('\t');
          break;
        case 'u': {
          uint32_t cp;
          if (!ReadHex4(esc, &cp)) return false;
          size_t next = esc + 5;
          if (cp >= 0xD800 && cp <= 0xDBFF) {
            // A high surrogate must be followed by \u and a low surrogate.
            uint32_t low;
            if (n_ - next < 2 || p_[next] != '\\' || p_[next + 1] != 'u') {
              return Fail("Invalid surrogate pair of \\uXXXX escapes", esc);
            }
            // Errors in the second escape are reported at its first hex digit.
            if (!ReadHex4(next + 1, &low)) return Fail("Invalid \\uXXXX escape", next + 2);
            if (low < 0xDC00 || low > 0xDFFF) {
              return Fail("Invalid surrogate pair of \\uXXXX escapes", next + 2);
            }
            cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
            next += 6;
          } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
            return Fail("Invalid surrogate pair of \\uXXXX escapes", esc);
          }
          AppendUtf8(cp, &buf);
          i_ = next;
          continue;
        }
        default:
          return Fail("Invalid \\escape", esc);
      }
      i_ = esc + 1;
    }
  }

  /*!
   * \brief Scan the run of number characters at the cursor and convert it:
   *  int64 when it has no '.', 'e' or 'E' and fits, else double.
   */
  bool ParseNumber(Value* out) {
    size_t begin = i_;
    bool is_float = false;
    bool plain_digits = true;  // only digits, after an optional leading '-'
    while (i_ < n_) {
      char c = p_[i_];
      if (c == '.' || c == 'e' || c == 'E') {
        is_float = true;
        plain_digits = false;
      } else if (c >= '0' && c <= '9') {
        // a digit
      } else if (c == '+' || c == '-') {
        if (c == '+' || i_ != begin) plain_digits = false;
      } else {
        break;
      }
      ++i_;
    }
    size_t len = i_ - begin;
    // Up to 18 digits always fit in int64: no need for strtoll.
    size_t digits = len - (p_[begin] == '-' ? 1 : 0);
    if (plain_digits && digits > 0 && digits <= 18) {
      int64_t v = 0;
      for (size_t k = len - digits; k < len; ++k) v = v * 10 + (p_[begin + k] - '0');
      *out = sink_->Int(p_[begin] == '-' ? -v : v);
      return true;
    }
    std::string text(p_ + begin, len);
    // strtoll/strtod skip leading spaces and accept hex/inf words: reject those first.
    bool has_digit = false;
    for (char c : text) has_digit |= (c >= '0' && c <= '9');
    if (!has_digit) return Fail("Expecting value", begin);
    char* end = nullptr;
    if (!is_float) {
      errno = 0;
      long long v = std::strtoll(text.c_str(), &end, 10);  // NOLINT(runtime/int)
      if (end != text.c_str() + text.size()) return Fail("Expecting value", begin);
      if (errno != ERANGE) {
        *out = sink_->Int(static_cast<int64_t>(v));
        return true;
      }
      // Out of int64 range: a double.
    }
    errno = 0;
    double d = std::strtod(text.c_str(), &end);
    // A value out of double range (overflow, or underflow to a subnormal/zero) is rejected.
    if (end != text.c_str() + text.size() || errno == ERANGE) return Fail("Expecting value", begin);
    *out = sink_->Float(d);
    return true;
  }

  const char* p_;
  size_t n_;
  size_t i_ = 0;
  Sink* sink_;
  ParseError* err_ = nullptr;
  // Whether each open container is an object (innermost last).
  std::vector<bool> open_;
  std::string scratch_;
};

/*! \brief Builds the FFI values of json::Parse: Map, Array, String, int, float, bool, None. */
class AnySink {
 public:
  using Value = Any;

  Any Null() { return Any(nullptr); }
  Any Bool(bool b) { return Any(b); }
  Any Int(int64_t v) { return Any(v); }
  Any Float(double d) { return Any(d); }
  Any Str(std::string_view s) { return Any(String(s)); }
  Any EmptyArray() { return Any(::tvm::ffi::Array<Any>()); }
  Any EmptyObject() { return Any(Map<Any, Any>()); }
  void Open(bool is_object) {
    if (depth_ == frames_.size()) frames_.emplace_back();
    Frame& f = frames_[depth_++];
    f.is_object = is_object;
    if (is_object) f.fields = Map<Any, Any>();
  }
  void Key(std::string_view key) { frames_[depth_ - 1].key = String(key); }
  void Item(Any value) {
    Frame& f = frames_[depth_ - 1];
    if (f.is_object) {
      f.fields.Set(f.key, std::move(value));
    } else {
      f.items.push_back(std::move(value));
    }
  }
  Any Close(bool is_object) {
    Frame& f = frames_[--depth_];
    if (is_object) return Any(std::move(f.fields));
    Any out = ::tvm::ffi::Array<Any>(f.items.begin(), f.items.end());
    f.items.clear();
    return out;
  }

 private:
  // One open container: its items so far, or its fields and the pending key.
  // Frames are reused by later containers of the same depth.
  struct Frame {
    bool is_object = false;
    std::vector<Any> items;
    Map<Any, Any> fields;
    String key;
  };
  std::vector<Frame> frames_;
  size_t depth_ = 0;
};

}  // namespace

/*! \brief Builds a Document: finished containers are moved from a pending stack to the tape. */
class DocSink {
 public:
  using Value = DocValue;

  explicit DocSink(Document* doc) : doc_(doc) {}

  DocValue Null() { return Make(DocValue::kNull, 0); }
  DocValue Bool(bool b) {
    DocValue v = Make(DocValue::kBool, 0);
    v.b = b;
    return v;
  }
  DocValue Int(int64_t i) {
    DocValue v = Make(DocValue::kInt, 0);
    v.i = i;
    return v;
  }
  DocValue Float(double d) {
    DocValue v = Make(DocValue::kFloat, 0);
    v.d = d;
    return v;
  }
  DocValue Str(std::string_view s) {
    DocValue v = Make(DocValue::kStr, static_cast<uint32_t>(s.size()));
    const char* src = doc_->source_;
    if (s.data() >= src && s.data() <= src + size_) {
      v.off = static_cast<uint64_t>(s.data() - src);
    } else {
      v.pooled = true;
      v.off = doc_->pool_.size();
      doc_->pool_.append(s.data(), s.size());
    }
    return v;
  }
  DocValue EmptyArray() { return Container(DocValue::kArray, 0, 0); }
  DocValue EmptyObject() { return Container(DocValue::kObject, 0, 0); }
  void Open(bool) { starts_.push_back(pending_.size()); }
  void Key(std::string_view key) { pending_.push_back(Str(key)); }
  void Item(DocValue v) { pending_.push_back(v); }
  DocValue Close(bool is_object) {
    size_t start = starts_.back();
    starts_.pop_back();
    size_t n = pending_.size() - start;
    uint64_t off = doc_->tape_.size();
    doc_->tape_.insert(doc_->tape_.end(), pending_.begin() + static_cast<std::ptrdiff_t>(start),
                       pending_.end());
    pending_.resize(start);
    return is_object ? Container(DocValue::kObject, n / 2, off)
                     : Container(DocValue::kArray, n, off);
  }

  size_t size_ = 0;

 private:
  static DocValue Make(DocValue::Kind kind, uint32_t size) {
    DocValue v;
    v.kind = kind;
    v.pooled = false;
    v.size = size;
    v.off = 0;
    return v;
  }
  static DocValue Container(DocValue::Kind kind, size_t n, uint64_t off) {
    DocValue v = Make(kind, static_cast<uint32_t>(n));
    v.off = off;
    return v;
  }

  Document* doc_;
  std::vector<DocValue> pending_;
  std::vector<size_t> starts_;
};

bool Document::Parse(const char* data, size_t size) {
  // Sizes and counts are stored in 32 bits.
  if (size >= (size_t{1} << 32)) return false;
  source_ = data;
  pool_.clear();
  tape_.clear();
  // Reserve the tape of a typical object graph (6 to 7 bytes of text per value) up front:
  // each doubling on the way held the old and the new tape at once. Reserved pages that
  // are never written are never touched.
  tape_.reserve(size / 4);
  DocSink sink(this);
  sink.size_ = size;
  Parser<DocSink> parser(data, size, &sink);
  ParseError err{nullptr, 0};
  return parser.Run(&root_, &err);
}

const DocValue* Document::Find(const DocValue& obj, std::string_view key) const {
  if (obj.kind != DocValue::kObject) return nullptr;
  const DocValue* members = items(obj);
  for (size_t k = obj.size; k > 0; --k) {
    const DocValue& name = members[2 * (k - 1)];
    if (name.size == key.size() && str(name) == key) return &members[2 * (k - 1) + 1];
  }
  return nullptr;
}

Any Document::ToAny(const DocValue& root) const {
  // The same values AnySink builds, in the same order, with an explicit stack.
  struct Frame {
    const DocValue* value;
    uint32_t next;
  };
  AnySink sink;
  std::vector<Frame> stack;
  auto scalar = [&](const DocValue& v) -> Any {
    switch (v.kind) {
      case DocValue::kNull:
        return sink.Null();
      case DocValue::kBool:
        return sink.Bool(v.b);
      case DocValue::kInt:
        return sink.Int(v.i);
      case DocValue::kFloat:
        return sink.Float(v.d);
      case DocValue::kStr:
        return sink.Str(str(v));
      case DocValue::kArray:
        return sink.EmptyArray();
      default:
        return sink.EmptyObject();
    }
  };
  auto is_open = [](const DocValue& v) {
    return (v.kind == DocValue::kArray || v.kind == DocValue::kObject) && v.size != 0;
  };
  if (!is_open(root)) return scalar(root);
  sink.Open(root.kind == DocValue::kObject);
  stack.push_back(Frame{&root, 0});
  Any done;
  while (true) {
    Frame& f = stack.back();
    bool is_object = f.value->kind == DocValue::kObject;
    if (f.next == f.value->size) {
      done = sink.Close(is_object);
      stack.pop_back();
      if (stack.empty()) return done;
      sink.Item(std::move(done));
      continue;
    }
    const DocValue* item = items(*f.value) + (is_object ? 2 * f.next : f.next);
    ++f.next;
    if (is_object) {
      sink.Key(str(item[0]));
      ++item;
    }
    if (is_open(*item)) {
      sink.Open(item->kind == DocValue::kObject);
      stack.push_back(Frame{item, 0});
    } else {
      sink.Item(scalar(*item));
    }
  }
}

namespace {

/*! \brief "<what>: line L column C (char P)" for an error at byte offset pos. */
std::string FormatParseError(const char* data, size_t size, const ParseError& err) {
  size_t pos = err.pos < size ? err.pos : size;
  size_t line = 1;
  size_t line_start = 0;
  for (size_t k = 0; k < pos; ++k) {
    if (data[k] == '\n') {
      ++line;
      line_start = k + 1;
    }
  }
  return std::string(err.what) + ": line " + std::to_string(line) + " column " +
         std::to_string(pos - line_start + 1) + " (char " + std::to_string(pos) + ")";
}

void AppendEscaped(std::string_view s, std::string* out) {
  static constexpr char kHex[] = "0123456789abcdef";
  out->push_back('"');
  for (char ch : s) {
    unsigned char c = static_cast<unsigned char>(ch);
    switch (c) {
      case '"':
        out->append("\\\"");
        break;
      case '\\':
        out->append("\\\\");
        break;
      case '/':
        out->append("\\/");
        break;
      case '\b':
        out->append("\\b");
        break;
      case '\f':
        out->append("\\f");
        break;
      case '\n':
        out->append("\\n");
        break;
      case '\r':
        out->append("\\r");
        break;
      case '\t':
        out->append("\\t");
        break;
      default:
        if (c < 0x20 || c == 0x7f) {
          out->append("\\u00");
          out->push_back(kHex[c >> 4]);
          out->push_back(kHex[c & 15]);
        } else {
          out->push_back(ch);
        }
    }
  }
  out->push_back('"');
}

void AppendDouble(double v, std::string* out) {
  if (std::isnan(v)) {
    out->append("NaN");
    return;
  }
  if (std::isinf(v)) {
    out->append(v > 0 ? "Infinity" : "-Infinity");
    return;
  }
  char buf[64];
  if (std::fabs(v) < 9007199254740992.0 && v == std::trunc(v)) {
    std::snprintf(buf, sizeof(buf), "%.1f", v);
  } else {
    std::snprintf(buf, sizeof(buf), "%.17g", v);
  }
  out->append(buf);
}

class Printer {
 public:
  explicit Printer(int indent) : indent_(indent > 0 ? indent : 0) {}

  std::string Run(const Any& root) {
    Emit(root);
    while (!stack_.empty()) {
      Frame& f = stack_.back();
      if (f.next == f.size) {
        if (f.size != 0 || indent_ != 0) Newline(stack_.size() - 1);
        out_.push_back(f.is_map ? '}' : ']');
        if (f.list != nullptr) open_lists_.erase(f.list);
        stack_.pop_back();
        continue;
      }
      size_t k = f.next++;
      if (k != 0) out_.push_back(',');
      Newline(stack_.size());
      if (f.is_map) {
        const Any& key = f.map_it->first;
        const Any& value = f.map_it->second;
        ++f.map_it;
        std::string_view s;
        bool is_bytes;
        if (!detail::AnyStringView(detail::AnyUnsafe::GetTVMFFIAny(key), &s, &is_bytes) ||
            is_bytes) {
          TVM_FFI_THROW(ValueError) << "Expect key to be string, got `" << key.GetTypeKey() << "`";
        }
        AppendEscaped(s, &out_);
        out_.append(indent_ != 0 ? ": " : ":");
        Emit(value);
      } else {
        // An Any is laid out exactly as the TVMFFIAny cell it owns.
        Emit(*reinterpret_cast<const Any*>(f.items + k));
      }
    }
    return std::move(out_);
  }

 private:
  struct Frame {
    bool is_map;
    size_t size;
    size_t next;
    const Object* list;  // the List being printed, for cycle detection
    const TVMFFIAny* items;
    MapBaseObj::iterator map_it;
    ObjectRef map;  // keeps map_it's container alive
  };

  void Newline(size_t depth) {
    if (indent_ == 0) return;
    out_.push_back('\n');
    out_.append(depth * static_cast<size_t>(indent_), ' ');
  }

  /*! \brief Print a scalar, or open a container (pushed onto the stack). */
  void Emit(const Any& value) {
    const TVMFFIAny* cell = detail::AnyUnsafe::GetTVMFFIAny(value);
    switch (cell->type_index) {
      case kTVMFFINone:
        out_.append("null");
        return;
      case kTVMFFIBool:
        out_.append(cell->v_int64 != 0 ? "true" : "false");
        return;
      case kTVMFFIInt:
        out_.append(std::to_string(cell->v_int64));
        return;
      case kTVMFFIFloat:
        AppendDouble(cell->v_float64, &out_);
        return;
      case kTVMFFISmallStr:
      case kTVMFFIStr: {
        std::string_view s;
        bool is_bytes;
        detail::AnyStringView(cell, &s, &is_bytes);
        AppendEscaped(s, &out_);
        return;
      }
      case kTVMFFIArray:
      case kTVMFFIList: {
        const auto* seq = reinterpret_cast<const detail::SeqBaseObj*>(cell->v_obj);
        Frame f{false, static_cast<size_t>(seq->SeqCell()->size), 0, nullptr, seq->slots(), {}, {}};
        if (cell->type_index == kTVMFFIList) {
          const Object* obj = reinterpret_cast<const Object*>(cell->v_obj);
          if (!open_lists_.insert(obj).second) {
            TVM_FFI_THROW(ValueError) << "Cycle detected: List contains itself";
          }
          f.list = obj;
        }
        out_.push_back('[');
        stack_.push_back(std::move(f));
        return;
      }
      case kTVMFFIMap: {
        const auto* map = reinterpret_cast<const MapBaseObj*>(cell->v_obj);
        Frame f{true, map->size(), 0, nullptr, nullptr, map->begin(), value.cast<ObjectRef>()};
        out_.push_back('{');
        stack_.push_back(std::move(f));
        return;
      }
      default:
        TVM_FFI_THROW(ValueError) << "Unsupported type: `" << value.GetTypeKey() << "`";
    }
  }

  int indent_;
  std::string out_;
  std::vector<Frame> stack_;
  std::unordered_set<const Object*> open_lists_;
};

}  // namespace

Any Parse(const String& s) {
  AnySink sink;
  Parser<AnySink> parser(s.data(), s.size(), &sink);
  Any result;
  ParseError err{nullptr, 0};
  if (parser.Run(&result, &err)) return result;
  TVM_FFI_THROW(ValueError) << FormatParseError(s.data(), s.size(), err);
}

void AppendString(std::string_view s, std::string* out) { AppendEscaped(s, out); }

void AppendFloat(double v, std::string* out) { AppendDouble(v, out); }

void AppendCompact(const Any& value, std::string* out) { out->append(Printer(0).Run(value)); }

String Stringify(const Any& value, const Optional<int>& indent) {
  int n = indent.has_value() ? *indent : 0;
  return String(Printer(n).Run(value));
}

}  // namespace json_impl
}  // namespace detail

TVM_FFI_STATIC_INIT_BLOCK() {
  reflection::GlobalDef()
      .def("ffi.json.Parse", [](const String& s) { return detail::json_impl::Parse(s); })
      .def("ffi.json.Stringify", [](const Any& value, Optional<int> indent) {
        return detail::json_impl::Stringify(value, indent);
      });
}

TVM_FFI_NAMESPACE_END
