/*
 * RecursiveEq/Lt/Le/Gt/Ge (globals "ffi.RecursiveEq", ...): a three-way
 * comparison of two values that walks containers element by element and
 * reflected objects field by field, with an explicit stack of frames.
 *
 * Two modes: eq-only (RecursiveEq: values of different types are simply
 * unequal, NaN equals NaN, a pair met again on the stack counts as equal)
 * and ordering (the others: such cases raise TypeError/ValueError). The
 * comparison is lexicographic, so the first unequal pair decides and the
 * walk stops there. Types outside the static range (and BigInt) may
 * customise it with __ffi_eq__ / __ffi_compare__ hooks, which receive a
 * callback comparing nested values within the same walk.
 */
#include <tvm/ffi/any.h>
#include <tvm/ffi/big_int.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/list.h>
#include <tvm/ffi/container/map.h>
#include <tvm/ffi/container/shape.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/reflection/registry.h>
#include <tvm/ffi/string.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <optional>
#include <string_view>
#include <tuple>
#include <unordered_set>
#include <utility>
#include <vector>

#include "dataclass_support.h"

TVM_FFI_NAMESPACE_BEGIN
namespace detail {
namespace dataclass {
namespace {

template <typename T>
int ThreeWay(const T& a, const T& b) {
  return a < b ? -1 : (b < a ? 1 : 0);
}

/*! \brief Whether a cell holds an integer: an int or a BigInt too large for one. */
bool IsInteger(int32_t type_index) {
  return type_index == kTVMFFIInt || type_index == kTVMFFIBigInt;
}

/*! \brief Strings are one kind of value (small, heap, borrowed), so are bytes. */
int32_t ValueKind(int32_t type_index) {
  if (type_index == kTVMFFISmallStr || type_index == kTVMFFIRawStr) return kTVMFFIStr;
  if (type_index == kTVMFFISmallBytes || type_index == kTVMFFIByteArrayPtr) return kTVMFFIBytes;
  return type_index;
}

struct PairHash {
  size_t operator()(const std::pair<const Object*, const Object*>& p) const {
    return std::hash<const void*>()(p.first) * 31 + std::hash<const void*>()(p.second);
  }
};

class RecursiveComparer {
 public:
  explicit RecursiveComparer(bool eq_only) : eq_only_(eq_only) {}

  /*! \brief <0, 0 or >0; re-entered by the callbacks handed to hooks. */
  int Compare(const AnyView& lhs, const AnyView& rhs) {
    int result = 0;
    if (CompareNow(lhs, rhs, &result)) return result;
    size_t base = stack_.size() - 1;
    // Frames above base belong to this call, also when it leaves by an exception.
    struct Truncate {
      RecursiveComparer* self;
      size_t base;
      ~Truncate() { self->PopTo(base); }
    } truncate{this, base};
    while (stack_.size() > base) {
      Frame& frame = stack_.back();
      if (frame.next < frame.lhs.size()) {
        size_t i = frame.next;
        int c = 0;
        // CompareNow may push a frame, which invalidates `frame`.
        if (CompareNow(frame.lhs[i], frame.rhs[i], &c)) {
          if (c != 0) return Decided(base, c);
          ++stack_.back().next;
        }
        continue;
      }
      int tail = frame.tail;
      PopTo(stack_.size() - 1);
      if (tail != 0) return Decided(base, tail);
      if (stack_.size() == base) return 0;
      ++stack_.back().next;
    }
    return 0;
  }

 private:
  struct Frame {
    const Object* lhs_obj;
    const Object* rhs_obj;
    bool is_map;
    std::vector<Any> lhs;
    std::vector<Any> rhs;
    size_t next = 0;
    // The result once every pair compared equal (a length difference).
    int tail = 0;
  };

  void PopTo(size_t size) {
    while (stack_.size() > size) {
      active_.erase({stack_.back().lhs_obj, stack_.back().rhs_obj});
      stack_.pop_back();
    }
  }

  /*! \brief A difference was found: in ordering mode, one inside a map cannot order. */
  int Decided(size_t base, int result) {
    if (!eq_only_) {
      for (size_t i = base; i < stack_.size(); ++i) {
        if (stack_[i].is_map) ThrowCannotOrderMaps();
      }
    }
    return result;
  }

  [[noreturn]] void ThrowCannotOrderMaps() {
    TVM_FFI_THROW(TypeError) << "Cannot order Map/Dict values";
    TVM_FFI_UNREACHABLE();
  }

  /*! \brief Unequal values of one type that do not order. */
  int Unordered(int32_t type_index) {
    if (eq_only_) return 1;
    TVM_FFI_THROW(TypeError) << "Cannot order values of type " << TypeKeyOf(type_index);
    TVM_FFI_UNREACHABLE();
  }

  /*!
   * \brief Compare a pair that needs no frame into *out and return true; otherwise push
   *  the frame that compares it and return false.
   */
  bool CompareNow(const AnyView& lhs, const AnyView& rhs, int* out) {
    const TVMFFIAny* l = AnyUnsafe::GetTVMFFIAny(lhs);
    const TVMFFIAny* r = AnyUnsafe::GetTVMFFIAny(rhs);
    if (l->type_index == kTVMFFINone || r->type_index == kTVMFFINone) {
      *out = (l->type_index == kTVMFFINone ? 0 : 1) - (r->type_index == kTVMFFINone ? 0 : 1);
      return true;
    }
    int32_t kind = ValueKind(l->type_index);
    if (kind != ValueKind(r->type_index) && IsInteger(l->type_index) && IsInteger(r->type_index)) {
      // An int and a heap BigInt are one kind of number: they order by value.
      BigInt a = lhs.cast<BigInt>(), b = rhs.cast<BigInt>();
      *out = a < b ? -1 : (b < a ? 1 : 0);
      return true;
    }
    if (kind != ValueKind(r->type_index)) {
      if (eq_only_) {
        *out = 1;
        return true;
      }
      TVM_FFI_THROW(TypeError) << "Cannot compare values of different types: "
                               << TypeKeyOf(l->type_index) << " vs " << TypeKeyOf(r->type_index);
    }
    switch (kind) {
      case kTVMFFIBool:
      case kTVMFFIInt:
        *out = ThreeWay(l->v_int64, r->v_int64);
        return true;
      case kTVMFFIFloat: {
        double a = l->v_float64, b = r->v_float64;
        if (std::isnan(a) || std::isnan(b)) {
          if (!eq_only_) TVM_FFI_THROW(TypeError) << "Cannot order NaN values";
          *out = std::isnan(a) && std::isnan(b) ? 0 : 1;
          return true;
        }
        *out = ThreeWay(a, b);
        return true;
      }
      case kTVMFFIDataType: {
        DLDataType a = l->v_dtype, b = r->v_dtype;
        *out = ThreeWay(std::make_tuple(a.code, a.bits, a.lanes),
                        std::make_tuple(b.code, b.bits, b.lanes));
        return true;
      }
      case kTVMFFIDevice: {
        DLDevice a = l->v_device, b = r->v_device;
        *out = ThreeWay(std::make_pair(static_cast<int32_t>(a.device_type), a.device_id),
                        std::make_pair(static_cast<int32_t>(b.device_type), b.device_id));
        return true;
      }
      case kTVMFFIStr:
      case kTVMFFIBytes:
        *out = ThreeWay(BytesOf(l), BytesOf(r));
        return true;
      default:
        break;
    }
    if (kind < kTVMFFIStaticObjectBegin) {
      bool same = l->zero_padding == r->zero_padding && l->v_int64 == r->v_int64;
      *out = same ? 0 : Unordered(kind);
      return true;
    }
    const Object* a = lhs.as<Object>();
    const Object* b = rhs.as<Object>();
    if (a == b) {
      *out = 0;
      return true;
    }
    if (kind == kTVMFFIShape) {
      const ShapeObj* sa = static_cast<const ShapeObj*>(a);
      const ShapeObj* sb = static_cast<const ShapeObj*>(b);
      *out = ThreeWay(std::vector<int64_t>(sa->data, sa->data + sa->size),
                      std::vector<int64_t>(sb->data, sb->data + sb->size));
      return true;
    }
    if (active_.count({a, b})) {
      if (!eq_only_) {
        TVM_FFI_THROW(ValueError) << "RecursiveCompare: cyclic reference detected in ordering";
      }
      *out = 0;
      return true;
    }
    if (kind >= kTVMFFIStaticObjectEnd || kind == kTVMFFIBigInt) {
      if (CompareByHook(lhs, rhs, a, b, kind, out)) return true;
    }
    return PushFrame(a, b, kind, out);
  }

  bool CompareByHook(const AnyView& lhs, const AnyView& rhs, const Object* a, const Object* b,
                     int32_t type_index, int* out) {
    std::optional<Function> hook;
    bool is_eq_hook = false;
    if (eq_only_) {
      hook = HookOf(EqHooks(), type_index);
      is_eq_hook = hook.has_value();
    }
    if (!hook.has_value()) hook = HookOf(CompareHooks(), type_index);
    if (!hook.has_value()) return false;
    active_.insert({a, b});
    struct Unmark {
      std::unordered_set<std::pair<const Object*, const Object*>, PairHash>* active;
      std::pair<const Object*, const Object*> key;
      ~Unmark() { active->erase(key); }
    } unmark{&active_, {a, b}};
    if (is_eq_hook) {
      if (!fn_eq_.has_value()) {
        fn_eq_ =
            Function::FromTyped([this](AnyView x, AnyView y) -> bool { return Compare(x, y) == 0; },
                                "ffi.RecursiveEq.fn_eq");
      }
      *out = (*hook)(lhs, rhs, *fn_eq_).cast<bool>() ? 0 : 1;
    } else {
      if (!fn_cmp_.has_value()) {
        fn_cmp_ =
            Function::FromTyped([this](AnyView x, AnyView y) -> int32_t { return Compare(x, y); },
                                "ffi.RecursiveCompare.fn_cmp");
      }
      int64_t c = (*hook)(lhs, rhs, *fn_cmp_).cast<int64_t>();
      *out = c < 0 ? -1 : (c > 0 ? 1 : 0);
    }
    return true;
  }

  bool PushFrame(const Object* a, const Object* b, int32_t type_index, int* out) {
    if (stack_.size() >= kMaxStackDepth) ThrowStackDepthExceeded("RecursiveCompare");
    Frame frame;
    frame.lhs_obj = a;
    frame.rhs_obj = b;
    frame.is_map = false;
    if (type_index == kTVMFFIArray || type_index == kTVMFFIList) {
      const SeqBaseObj* sa = static_cast<const SeqBaseObj*>(a);
      const SeqBaseObj* sb = static_cast<const SeqBaseObj*>(b);
      int64_t n = std::min(sa->SeqCell()->size, sb->SeqCell()->size);
      frame.lhs.reserve(static_cast<size_t>(n));
      frame.rhs.reserve(static_cast<size_t>(n));
      for (int64_t i = 0; i < n; ++i) {
        frame.lhs.push_back(Any(AnyView::CopyFromTVMFFIAny(sa->slots()[i])));
        frame.rhs.push_back(Any(AnyView::CopyFromTVMFFIAny(sb->slots()[i])));
      }
      frame.tail = ThreeWay(sa->SeqCell()->size, sb->SeqCell()->size);
    } else if (type_index == kTVMFFIMap || type_index == kTVMFFIDict) {
      const MapBaseObj* ma = static_cast<const MapBaseObj*>(a);
      const MapBaseObj* mb = static_cast<const MapBaseObj*>(b);
      frame.is_map = true;
      if (ma->size() != mb->size()) return MapsDiffer(out);
      for (const auto& kv : *ma) {
        const TVMFFIAny* other = mb->FindValue(AnyUnsafe::GetTVMFFIAny(kv.first));
        if (other == nullptr) return MapsDiffer(out);
        frame.lhs.push_back(kv.second);
        frame.rhs.push_back(Any(AnyView::CopyFromTVMFFIAny(*other)));
      }
    } else {
      const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(type_index);
      reflection::ForEachFieldInfo(info, [&](const TVMFFIFieldInfo* field) {
        if (field->flags & kTVMFFIFieldFlagBitMaskCompareOff) return;
        frame.lhs.push_back(ReadField(a, field));
        frame.rhs.push_back(ReadField(b, field));
      });
    }
    active_.insert({a, b});
    stack_.push_back(std::move(frame));
    return false;
  }

  bool MapsDiffer(int* out) {
    if (!eq_only_) ThrowCannotOrderMaps();
    *out = 1;
    return true;
  }

  bool eq_only_;
  std::vector<Frame> stack_;
  std::unordered_set<std::pair<const Object*, const Object*>, PairHash> active_;
  std::optional<Function> fn_eq_;
  std::optional<Function> fn_cmp_;
};

int CompareValues(const AnyView& lhs, const AnyView& rhs, bool eq_only) {
  return RecursiveComparer(eq_only).Compare(lhs, rhs);
}

/*! \brief BigInt hooks: heap BigInts compare by value. */
void RegisterBigIntCompareHooks() {
  reflection::TypeAttrDef<BigIntObj>()
      .def(reflection::type_attr::kEq.name,
           [](AnyView a, AnyView b, AnyView) { return a.cast<BigInt>() == b.cast<BigInt>(); })
      .def(reflection::type_attr::kCompare.name, [](AnyView a, AnyView b, AnyView) -> int32_t {
        BigInt x = a.cast<BigInt>(), y = b.cast<BigInt>();
        return x < y ? -1 : (y < x ? 1 : 0);
      });
}

}  // namespace

TVM_FFI_STATIC_INIT_BLOCK() {
  RegisterBigIntCompareHooks();
  reflection::GlobalDef()
      .def(
          "ffi.RecursiveEq", [](Any a, Any b) { return CompareValues(a, b, true) == 0; },
          "Recursive equality of two values (containers element-wise, objects by fields).")
      .def(
          "ffi.RecursiveLt", [](Any a, Any b) { return CompareValues(a, b, false) < 0; },
          "Recursive a < b.")
      .def(
          "ffi.RecursiveLe", [](Any a, Any b) { return CompareValues(a, b, false) <= 0; },
          "Recursive a <= b.")
      .def(
          "ffi.RecursiveGt", [](Any a, Any b) { return CompareValues(a, b, false) > 0; },
          "Recursive a > b.")
      .def(
          "ffi.RecursiveGe", [](Any a, Any b) { return CompareValues(a, b, false) >= 0; },
          "Recursive a >= b.");
}

}  // namespace dataclass
}  // namespace detail
TVM_FFI_NAMESPACE_END
