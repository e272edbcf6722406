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

class Parser {
 public:
  Parser(const char* data, size_t size) : p_(data), n_(size) {}

  /*! \return The value, or false with *err filled. */
  bool Run(Any* out, ParseError* err) {
    err_ = err;
    if (!ParseDocument(out)) return false;
    SkipWhitespace();
    if (i_ != n_) return Fail("Extra data", i_);
    return true;
  }

 private:
  // One open container: its items so far and, in an object, the pending key.
  struct Frame {
    bool is_object;
    std::vector<Any> items;
    Map<Any, Any> fields;
    String key;
  };

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
   * \brief Parse one value at the cursor. Containers are pushed onto the
   *  stack instead of recursing; `*out` is set only for scalars and empty
   *  containers, `*opened` tells the caller a container was pushed.
   */
  bool ParseValueStart(Any* out, bool* opened) {
    *opened = false;
    SkipWhitespace();
    if (i_ >= n_) return Fail("Expecting value", i_);
    char c = p_[i_];
    switch (c) {
      case '{': {
        size_t at = i_++;
        SkipWhitespace();
        if (i_ < n_ && p_[i_] == '}') {
          ++i_;
          *out = Map<Any, Any>();
          return true;
        }
        stack_.push_back(Frame{true, {}, Map<Any, Any>(), String()});
        *opened = true;
        (void)at;
        return ParseKey();
      }
      case '[': {
        ++i_;
        SkipWhitespace();
        if (i_ < n_ && p_[i_] == ']') {
          ++i_;
          *out = ::tvm::ffi::Array<Any>();
          return true;
        }
        stack_.push_back(Frame{false, {}, Map<Any, Any>(), String()});
        *opened = true;
        return true;
      }
      case '"': {
        String s;
        if (!ParseString(&s)) return false;
        *out = std::move(s);
        return true;
      }
      case 't':
        if (StartsWith("true")) {
          i_ += 4;
          *out = true;
          return true;
        }
        break;
      case 'f':
        if (StartsWith("false")) {
          i_ += 5;
          *out = false;
          return true;
        }
        break;
      case 'n':
        if (StartsWith("null")) {
          i_ += 4;
          *out = nullptr;
          return true;
        }
        break;
      case 'N':
        if (StartsWith("NaN")) {
          i_ += 3;
          *out = std::numeric_limits<double>::quiet_NaN();
          return true;
        }
        break;
      case 'I':
        if (StartsWith("Infinity")) {
          i_ += 8;
          *out = std::numeric_limits<double>::infinity();
          return true;
        }
        break;
      case '-':
        if (StartsWith("-Infinity")) {
          i_ += 9;
          *out = -std::numeric_limits<double>::infinity();
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
    if (!ParseString(&stack_.back().key)) return false;
    SkipWhitespace();
    if (i_ >= n_ || p_[i_] != ':') return Fail("Expecting ':' delimiter", i_);
    ++i_;
    return true;
  }

  /*! \brief Store a finished value into the innermost open container. */
  void Store(Any value) {
    Frame& f = stack_.back();
    if (f.is_object) {
      f.fields.Set(f.key, std::move(value));
    } else {
      f.items.push_back(std::move(value));
    }
  }

  bool ParseDocument(Any* result) {
    Any value;
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
        Store(std::move(value));
        SkipWhitespace();
        Frame& f = stack_.back();
        char close = f.is_object ? '}' : ']';
        if (i_ < n_ && p_[i_] == ',') {
          ++i_;
          SkipWhitespace();
          // Text ending right after a comma is reported apart from a missing item.
          if (i_ >= n_) return Fail("Syntax error near", i_);
          if (f.is_object && !ParseKey()) return false;
          break;
        }
        if (i_ < n_ && p_[i_] == close) {
          ++i_;
          if (f.is_object) {
            value = std::move(f.fields);
          } else {
            value = ::tvm::ffi::Array<Any>(f.items.begin(), f.items.end());
          }
          stack_.pop_back();
          if (stack_.empty()) {
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
  bool ParseString(String* out) {
    size_t begin = i_++;
    std::string buf;
    while (true) {
      size_t run = i_;
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
        *out = String(std::move(buf));
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
  bool ParseNumber(Any* out) {
    size_t begin = i_;
    bool is_float = false;
    while (i_ < n_) {
      char c = p_[i_];
      if (c == '.' || c == 'e' || c == 'E') {
        is_float = true;
      } else if (!((c >= '0' && c <= '9') || c == '+' || c == '-')) {
        break;
      }
      ++i_;
    }
    std::string text(p_ + begin, i_ - begin);
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
        *out = static_cast<int64_t>(v);
        return true;
      }
      // Out of int64 range: a double.
    }
    errno = 0;
    double d = std::strtod(text.c_str(), &end);
    // A value out of double range (overflow, or underflow to a subnormal/zero) is rejected.
    if (end != text.c_str() + text.size() || errno == ERANGE) return Fail("Expecting value", begin);
    *out = d;
    return true;
  }

  const char* p_;
  size_t n_;
  size_t i_ = 0;
  ParseError* err_ = nullptr;
  std::vector<Frame> stack_;
};

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
  Parser parser(s.data(), s.size());
  Any result;
  ParseError err{nullptr, 0};
  if (parser.Run(&result, &err)) return result;
  TVM_FFI_THROW(ValueError) << FormatParseError(s.data(), s.size(), err);
}

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
