/*
 * ReprPrint: the printed form of any value (global "ffi.ReprPrint"), used by
 * operator<< of extra/dataclass.h and by Python's Object.__repr__.
 *
 * Containers and reflected objects are printed with an explicit stack of
 * frames that write into one output string, so deep values do not overflow
 * the native stack and the time is linear in the output. A value reached
 * again while it is being printed (a cycle) prints as "..."; a shared value
 * is printed in full at every occurrence. A type's __ffi_repr__ hook is
 * called as hook(obj, fn_repr), and fn_repr prints nested values within the
 * same traversal (same cycle marks).
 */
#include <tvm/ffi/any.h>
#include <tvm/ffi/big_int.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/list.h>
#include <tvm/ffi/container/map.h>
#include <tvm/ffi/container/shape.h>
#include <tvm/ffi/container/tensor.h>
#include <tvm/ffi/device.h>
#include <tvm/ffi/dtype.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/reflection/registry.h>
#include <tvm/ffi/string.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_set>
#include <utility>
#include <vector>

#include "../reflection_sentinels.h"
#include "dataclass_support.h"

TVM_FFI_NAMESPACE_BEGIN
namespace detail {
namespace dataclass {
namespace {

const reflection::TypeAttrColumn& ReprHooks() {
  static const reflection::TypeAttrColumn column(reflection::type_attr::kRepr);
  return column;
}

void AppendHexByte(std::string* out, unsigned char c) {
  static const char kHex[] = "0123456789abcdef";
  out->append("\\x");
  out->push_back(kHex[c >> 4]);
  out->push_back(kHex[c & 0xf]);
}

void AppendHex(std::string* out, uint32_t value, int digits) {
  static const char kHex[] = "0123456789abcdef";
  for (int shift = (digits - 1) * 4; shift >= 0; shift -= 4)
    out->push_back(kHex[(value >> shift) & 0xf]);
}

/*!
 * \brief Length of the valid UTF-8 sequence at p (2 to 4 bytes) and its code point,
 *  or 0 when the bytes there are not one (overlong forms and surrogates included).
 */
size_t DecodeUtf8(const unsigned char* p, size_t n, uint32_t* code_point) {
  unsigned char c = p[0];
  size_t len;
  uint32_t cp;
  uint32_t min;
  if (c >= 0xc2 && c <= 0xdf) {
    len = 2, cp = c & 0x1f, min = 0x80;
  } else if (c >= 0xe0 && c <= 0xef) {
    len = 3, cp = c & 0x0f, min = 0x800;
  } else if (c >= 0xf0 && c <= 0xf4) {
    len = 4, cp = c & 0x07, min = 0x10000;
  } else {
    return 0;
  }
  if (n < len) return 0;
  for (size_t i = 1; i < len; ++i) {
    if ((p[i] & 0xc0) != 0x80) return 0;
    cp = (cp << 6) | (p[i] & 0x3f);
  }
  if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return 0;
  *code_point = cp;
  return len;
}

/*! \brief Python-style quoted string: escapes, \xNN for control and invalid bytes, \u for
 * non-ASCII. */
void AppendQuotedString(std::string* out, const char* data, size_t size) {
  const unsigned char* p = reinterpret_cast<const unsigned char*>(data);
  out->push_back('"');
  size_t i = 0;
  while (i < size) {
    unsigned char c = p[i];
    if (c < 0x80) {
      switch (c) {
        case '"':
          out->append("\\\"");
          break;
        case '\\':
          out->append("\\\\");
          break;
        case '\n':
          out->append("\\n");
          break;
        case '\t':
          out->append("\\t");
          break;
        case '\r':
          out->append("\\r");
          break;
        default:
          if (c < 0x20 || c == 0x7f) {
            AppendHexByte(out, c);
          } else {
            out->push_back(static_cast<char>(c));
          }
      }
      ++i;
      continue;
    }
    uint32_t cp = 0;
    size_t len = DecodeUtf8(p + i, size - i, &cp);
    if (len == 0) {
      AppendHexByte(out, c);
      ++i;
    } else if (cp <= 0xffff) {
      out->append("\\u");
      AppendHex(out, cp, 4);
      i += len;
    } else {
      out->append("\\U");
      AppendHex(out, cp, 8);
      i += len;
    }
  }
  out->push_back('"');
}

/*! \brief b"..." with printable ASCII other than `"` and `\` kept, every other byte as \xNN. */
void AppendQuotedBytes(std::string* out, const char* data, size_t size) {
  out->append("b\"");
  for (size_t i = 0; i < size; ++i) {
    unsigned char c = static_cast<unsigned char>(data[i]);
    if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\') {
      out->push_back(static_cast<char>(c));
    } else {
      AppendHexByte(out, c);
    }
  }
  out->push_back('"');
}

/*! \brief A double as C++ iostreams print it by default (%g, 6 significant digits). */
void AppendFloat(std::string* out, double value) {
  char buf[64];
  int n = std::snprintf(buf, sizeof(buf), "%g", value);
  out->append(buf, static_cast<size_t>(n));
}

void AppendDevice(std::string* out, DLDevice device) {
  int32_t type = static_cast<int32_t>(device.device_type);
  const char* name = nullptr;
  if (type >= 0 && type < kNumDeviceTypeNames) name = DeviceTypeNameTable()[type];
  out->append(name != nullptr ? name : "unknown");
  out->push_back(':');
  out->append(std::to_string(device.device_id));
}

void AppendAddress(std::string* out, const void* ptr) {
  char buf[32];
  int n = std::snprintf(buf, sizeof(buf), "@0x%llx",
                        static_cast<unsigned long long>(reinterpret_cast<uintptr_t>(ptr)));
  out->append(buf, static_cast<size_t>(n));
}

/*! \return Whether TVM_FFI_REPR_WITH_ADDR asks for addresses (read on every print). */
bool ReprWithAddr() {
  const char* env = std::getenv("TVM_FFI_REPR_WITH_ADDR");
  return env != nullptr && env[0] != '\0' && std::strcmp(env, "0") != 0;
}

class ReprPrinter {
 public:
  ReprPrinter()
      : with_addr_(ReprWithAddr()),
        enum_index_(EnumTypeIndex()),
        missing_(InvalidObject().get()),
        kwargs_(KwargsObject().get()) {}

  /*! \brief Print value; re-entered by fn_repr from __ffi_repr__ hooks. */
  std::string Print(const AnyView& value) {
    std::string out;
    if (PrintNow(value, &out)) return out;
    size_t base = stack_.size() - 1;
    struct Truncate {
      ReprPrinter* self;
      size_t base;
      ~Truncate() {
        while (self->stack_.size() > base) {
          self->active_.erase(self->stack_.back().obj);
          self->stack_.pop_back();
        }
      }
    } truncate{this, base};
    while (stack_.size() > base) {
      Frame& frame = stack_.back();
      if (frame.next < frame.items.size()) {
        AppendSeparator(frame, &out);
        size_t i = frame.next++;
        // PrintNow may push a frame, which invalidates `frame`; the item stays alive
        // until its own frame is popped, because frames below are not touched.
        PrintNow(frame.items[i], &out);
        continue;
      }
      AppendClosing(frame, &out);
      active_.erase(frame.obj);
      stack_.pop_back();
    }
    return out;
  }

 private:
  enum class Kind { kArray, kList, kMap, kObject };

  struct Frame {
    const Object* obj;
    Kind kind;
    std::vector<Any> items;
    std::vector<std::string_view> names;
    size_t next = 0;
  };

  /*!
   * \brief Print a value that needs no frame into *out and return true; otherwise
   *  push the frame that prints it and return false.
   */
  bool PrintNow(const AnyView& value, std::string* out) {
    const TVMFFIAny* cell = AnyUnsafe::GetTVMFFIAny(value);
    switch (cell->type_index) {
      case kTVMFFINone:
        out->append("None");
        return true;
      case kTVMFFIBool:
        out->append(cell->v_int64 != 0 ? "True" : "False");
        return true;
      case kTVMFFIInt:
        out->append(std::to_string(cell->v_int64));
        return true;
      case kTVMFFIFloat:
        AppendFloat(out, cell->v_float64);
        return true;
      case kTVMFFIDataType:
        out->append(DLDataTypeToString(cell->v_dtype));
        return true;
      case kTVMFFIDevice:
        AppendDevice(out, cell->v_device);
        return true;
      case kTVMFFIRawStr:
        AppendQuotedString(out, cell->v_c_str, std::strlen(cell->v_c_str));
        return true;
      case kTVMFFISmallStr:
        AppendQuotedString(out, cell->v_bytes, cell->small_str_len);
        return true;
      case kTVMFFISmallBytes:
        AppendQuotedBytes(out, cell->v_bytes, cell->small_str_len);
        return true;
      case kTVMFFIByteArrayPtr: {
        const TVMFFIByteArray* bytes = static_cast<const TVMFFIByteArray*>(cell->v_ptr);
        AppendQuotedBytes(out, bytes->data, bytes->size);
        return true;
      }
      default:
        break;
    }
    if (cell->type_index < kTVMFFIStaticObjectBegin) {
      out->append(TypeKeyOf(cell->type_index));
      return true;
    }
    const Object* obj = value.as<Object>();
    return PrintObjectNow(obj, value, out);
  }

  bool PrintObjectNow(const Object* obj, const AnyView& value, std::string* out) {
    int32_t type_index = obj->type_index();
    switch (type_index) {
      case kTVMFFIStr: {
        const StringObj* s = static_cast<const StringObj*>(obj);
        AppendQuotedString(out, s->data, s->size);
        return true;
      }
      case kTVMFFIBytes: {
        const BytesObj* b = static_cast<const BytesObj*>(obj);
        AppendQuotedBytes(out, b->data, b->size);
        return true;
      }
      case kTVMFFIShape: {
        const ShapeObj* shape = static_cast<const ShapeObj*>(obj);
        out->append("Shape(");
        for (size_t i = 0; i < shape->size; ++i) {
          if (i != 0) out->append(", ");
          out->append(std::to_string(shape->data[i]));
        }
        out->push_back(')');
        return true;
      }
      case kTVMFFITensor: {
        const TensorObj* tensor = static_cast<const TensorObj*>(obj);
        out->append(DLDataTypeToString(tensor->dtype));
        out->push_back('[');
        for (int i = 0; i < tensor->ndim; ++i) {
          if (i != 0) out->append(", ");
          out->append(std::to_string(tensor->shape[i]));
        }
        out->append("]@");
        AppendDevice(out, tensor->device);
        if (with_addr_) AppendAddress(out, obj);
        return true;
      }
      case kTVMFFIBigInt:
        out->append(value.cast<BigInt>().ToString());
        return true;
      default:
        break;
    }
    if (obj == missing_) {
      out->append("<MISSING>");
      return true;
    }
    if (obj == kwargs_) {
      out->append("<KWARGS>");
      return true;
    }
    if (active_.count(obj)) {
      out->append("...");
      if (with_addr_) AppendAddress(out, obj);
      return true;
    }
    if (std::optional<Function> hook = HookOf(ReprHooks(), type_index)) {
      out->append(CallHook(*hook, obj, value));
      return true;
    }
    if (IsInstanceOfIndex(obj, enum_index_)) {
      out->append(TypeKeyOf(type_index));
      out->push_back('.');
      out->append(EnumName(obj).view());
      if (with_addr_) AppendAddress(out, obj);
      return true;
    }
    PushFrame(obj, type_index, out);
    return false;
  }

  std::string CallHook(const Function& hook, const Object* obj, const AnyView& value) {
    if (!fn_repr_.has_value()) {
      fn_repr_ = Function::FromTyped([this](AnyView v) -> String { return String(Print(v)); },
                                     "ffi.ReprPrint.fn_repr");
    }
    active_.insert(obj);
    struct Unmark {
      std::unordered_set<const Object*>* active;
      const Object* obj;
      ~Unmark() { active->erase(obj); }
    } unmark{&active_, obj};
    return std::string(hook(value, *fn_repr_).cast<String>());
  }

  /*! \brief Push the frame of a container or reflected object and print its opening. */
  void PushFrame(const Object* obj, int32_t type_index, std::string* out) {
    if (stack_.size() >= kMaxStackDepth) ThrowStackDepthExceeded("ReprPrint");
    Frame frame;
    frame.obj = obj;
    if (AppendContainerItems(obj, type_index, &frame.items)) {
      frame.kind = type_index == kTVMFFIArray  ? Kind::kArray
                   : type_index == kTVMFFIList ? Kind::kList
                                               : Kind::kMap;
    } else {
      frame.kind = Kind::kObject;
      const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(type_index);
      reflection::ForEachFieldInfo(info, [&](const TVMFFIFieldInfo* field) {
        if (field->flags & kTVMFFIFieldFlagBitMaskReprOff) return;
        std::string_view name(field->name.data, field->name.size);
        for (std::string_view seen : frame.names) {
          if (seen == name) return;
        }
        frame.names.push_back(name);
        frame.items.push_back(ReadField(obj, field));
      });
    }
    switch (frame.kind) {
      case Kind::kArray:
        out->push_back('(');
        break;
      case Kind::kList:
        out->push_back('[');
        break;
      case Kind::kMap:
        out->push_back('{');
        break;
      case Kind::kObject:
        out->append(TypeKeyOf(type_index));
        if (with_addr_) AppendAddress(out, obj);
        if (!frame.names.empty()) out->push_back('(');
        break;
    }
    active_.insert(obj);
    stack_.push_back(std::move(frame));
  }

  /*! \brief What comes before item frame.next: ", ", ": ", or "name=". */
  void AppendSeparator(const Frame& frame, std::string* out) {
    size_t i = frame.next;
    if (frame.kind == Kind::kMap) {
      if (i % 2 == 1) {
        out->append(": ");
        return;
      }
    }
    if (i != 0) out->append(", ");
    if (frame.kind == Kind::kObject) {
      out->append(frame.names[i]);
      out->push_back('=');
    }
  }

  void AppendClosing(const Frame& frame, std::string* out) {
    switch (frame.kind) {
      case Kind::kArray:
        if (frame.items.size() == 1) out->push_back(',');
        out->push_back(')');
        break;
      case Kind::kList:
        out->push_back(']');
        break;
      case Kind::kMap:
        out->push_back('}');
        break;
      case Kind::kObject:
        if (!frame.names.empty()) out->push_back(')');
        return;
    }
    if (with_addr_) AppendAddress(out, frame.obj);
  }

  bool with_addr_;
  int32_t enum_index_;
  const Object* missing_;
  const Object* kwargs_;
  std::vector<Frame> stack_;
  std::unordered_set<const Object*> active_;
  std::optional<Function> fn_repr_;
};

}  // namespace

/*! \brief The text of value (see extra/dataclass.h). */
String ReprPrintValue(const AnyView& value) { return String(ReprPrinter().Print(value)); }

TVM_FFI_STATIC_INIT_BLOCK() {
  reflection::GlobalDef().def(
      "ffi.ReprPrint", [](Any value) { return ReprPrintValue(value); },
      "The printed form of a value: containers, reflected fields, __ffi_repr__ hooks.");
}

}  // namespace dataclass
}  // namespace detail
TVM_FFI_NAMESPACE_END
