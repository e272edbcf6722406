/*
 * RecursiveHash (global "ffi.RecursiveHash"): a hash consistent with
 * RecursiveEq, computed with an explicit stack of frames.
 *
 * With combine(k, v) = detail::StableHashCombine and bytes_hash =
 * detail::StableHashBytes (so the values agree with other implementations):
 *   None combine(0, 0); bool combine(2, b); int combine(1, v);
 *   float combine(3, bits) with one NaN and -0.0 as +0.0;
 *   DataType combine(combine(combine(5, code), bits), lanes);
 *   Device combine(combine(6, type), id); other PODs combine(type_index, payload);
 *   str/bytes combine(65 or 66, bytes_hash(content));
 *   Shape: h = combine(type_key_hash, size), then h = combine(h, dim);
 *   Array/List: h = combine(type_key_hash, size), then h = combine(h, combine(elem, i));
 *   Map/Dict: h = combine(type_key_hash, size), then h = combine(h, e) for the entry
 *     hashes e = combine(key, value) in ascending order;
 *   objects: __ffi_hash__(obj, fn_hash) if the type has it, else h = type_key_hash,
 *     then h = combine(h, field) over the fields hashed and compared.
 * An object met again while it is being hashed (a cycle) hashes as its
 * type_key_hash; a finished one is remembered (linear time on shared DAGs).
 */
#include <tvm/ffi/any.h>
#include <tvm/ffi/base_detail.h>
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
#include <optional>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "dataclass_support.h"

TVM_FFI_NAMESPACE_BEGIN
namespace detail {
namespace dataclass {
namespace {

uint64_t Combine(uint64_t key, uint64_t value) { return StableHashCombine(key, value); }

uint64_t HashBytes(int32_t kind, const char* data, size_t size) {
  return Combine(static_cast<uint64_t>(kind), StableHashBytes(data, size));
}

class RecursiveHasher {
 public:
  /*! \brief The hash of value; re-entered by fn_hash from __ffi_hash__ hooks. */
  uint64_t Hash(const AnyView& value) {
    uint64_t result = 0;
    if (HashNow(value, &result)) return result;
    size_t base = stack_.size() - 1;
    struct Truncate {
      RecursiveHasher* self;
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
      if (frame.hashes.size() < frame.items.size()) {
        uint64_t h = 0;
        // HashNow may push a frame, which invalidates `frame`.
        if (HashNow(frame.items[frame.hashes.size()], &h)) stack_.back().hashes.push_back(h);
        continue;
      }
      uint64_t h = Finish(frame);
      const Object* obj = frame.obj;
      active_.erase(obj);
      Remember(obj, h);
      stack_.pop_back();
      if (stack_.size() == base) return h;
      stack_.back().hashes.push_back(h);
    }
    return result;
  }

 private:
  enum class Kind { kSeq, kMap, kObject };

  struct Frame {
    const Object* obj;
    Kind kind;
    std::vector<Any> items;
    std::vector<uint64_t> hashes;
  };

  struct Hashed {
    // Keeps the address from being reused by another object during the walk.
    ObjectRef keep;
    uint64_t hash;
  };

  void Remember(const Object* obj, uint64_t h) {
    memo_[obj] =
        Hashed{ObjectRef(ObjectUnsafe::ObjectPtrFromUnowned<Object>(const_cast<Object*>(obj))), h};
  }

  bool HashNow(const AnyView& value, uint64_t* out) {
    const TVMFFIAny* cell = AnyUnsafe::GetTVMFFIAny(value);
    int32_t t = cell->type_index;
    switch (t) {
      case kTVMFFINone:
        *out = Combine(0, 0);
        return true;
      case kTVMFFIBool:
        *out = Combine(kTVMFFIBool, cell->v_int64 != 0 ? 1 : 0);
        return true;
      case kTVMFFIInt:
        *out = Combine(kTVMFFIInt, cell->v_uint64);
        return true;
      case kTVMFFIFloat: {
        double v = cell->v_float64;
        uint64_t bits;
        if (std::isnan(v)) {
          bits = 0x7ff8000000000000ULL;
        } else {
          if (v == 0.0) v = 0.0;
          std::memcpy(&bits, &v, sizeof(bits));
        }
        *out = Combine(kTVMFFIFloat, bits);
        return true;
      }
      case kTVMFFIDataType: {
        DLDataType d = cell->v_dtype;
        *out = Combine(Combine(Combine(kTVMFFIDataType, d.code), d.bits), d.lanes);
        return true;
      }
      case kTVMFFIDevice: {
        DLDevice d = cell->v_device;
        *out = Combine(Combine(kTVMFFIDevice, static_cast<uint64_t>(d.device_type)),
                       static_cast<uint64_t>(static_cast<int64_t>(d.device_id)));
        return true;
      }
      case kTVMFFIRawStr:
        *out = HashBytes(kTVMFFIStr, cell->v_c_str, std::strlen(cell->v_c_str));
        return true;
      case kTVMFFISmallStr:
        *out = HashBytes(kTVMFFIStr, cell->v_bytes, cell->small_str_len);
        return true;
      case kTVMFFISmallBytes:
        *out = HashBytes(kTVMFFIBytes, cell->v_bytes, cell->small_str_len);
        return true;
      case kTVMFFIByteArrayPtr: {
        const TVMFFIByteArray* bytes = static_cast<const TVMFFIByteArray*>(cell->v_ptr);
        *out = HashBytes(kTVMFFIBytes, bytes->data, bytes->size);
        return true;
      }
      default:
        break;
    }
    if (t < kTVMFFIStaticObjectBegin) {
      *out = Combine(static_cast<uint64_t>(t), cell->v_uint64);
      return true;
    }
    const Object* obj = value.as<Object>();
    switch (t) {
      case kTVMFFIStr:
      case kTVMFFIBytes: {
        std::string_view bytes = BytesOf(cell);
        *out = HashBytes(t, bytes.data(), bytes.size());
        return true;
      }
      case kTVMFFIShape: {
        const ShapeObj* shape = static_cast<const ShapeObj*>(obj);
        uint64_t h = Combine(TypeKeyHashOf(t), shape->size);
        for (size_t i = 0; i < shape->size; ++i) {
          h = Combine(h, static_cast<uint64_t>(shape->data[i]));
        }
        *out = h;
        return true;
      }
      default:
        break;
    }
    auto memo = memo_.find(obj);
    if (memo != memo_.end()) {
      *out = memo->second.hash;
      return true;
    }
    if (active_.count(obj)) {
      *out = TypeKeyHashOf(t);
      return true;
    }
    if (t >= kTVMFFIStaticObjectEnd || t == kTVMFFIBigInt) {
      if (std::optional<Function> hook = HookOf(HashHooks(), t)) {
        *out = CallHook(*hook, obj, value);
        Remember(obj, *out);
        return true;
      }
      if (HookOf(EqHooks(), t).has_value() || HookOf(CompareHooks(), t).has_value()) {
        TVM_FFI_THROW(ValueError)
            << "RecursiveHash: type '" << TypeKeyOf(t)
            << "' defines __ffi_eq__ or __ffi_compare__ but not __ffi_hash__. Add a __ffi_hash__ "
               "hook to maintain the invariant RecursiveEq(a,b) => "
               "RecursiveHash(a)==RecursiveHash(b).";
      }
    }
    PushFrame(obj, t);
    return false;
  }

  uint64_t CallHook(const Function& hook, const Object* obj, const AnyView& value) {
    if (!fn_hash_.has_value()) {
      fn_hash_ = Function::FromTyped(
          [this](AnyView v) -> int64_t { return static_cast<int64_t>(Hash(v)); },
          "ffi.RecursiveHash.fn_hash");
    }
    active_.insert(obj);
    struct Unmark {
      std::unordered_set<const Object*>* active;
      const Object* obj;
      ~Unmark() { active->erase(obj); }
    } unmark{&active_, obj};
    return static_cast<uint64_t>(hook(value, *fn_hash_).cast<int64_t>());
  }

  void PushFrame(const Object* obj, int32_t type_index) {
    if (stack_.size() >= kMaxStackDepth) ThrowStackDepthExceeded("RecursiveHash");
    Frame frame;
    frame.obj = obj;
    if (AppendContainerItems(obj, type_index, &frame.items)) {
      bool is_seq = type_index == kTVMFFIArray || type_index == kTVMFFIList;
      frame.kind = is_seq ? Kind::kSeq : Kind::kMap;
    } else {
      frame.kind = Kind::kObject;
      const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(type_index);
      reflection::ForEachFieldInfo(info, [&](const TVMFFIFieldInfo* field) {
        if (field->flags & (kTVMFFIFieldFlagBitMaskCompareOff | kTVMFFIFieldFlagBitMaskHashOff)) {
          return;
        }
        frame.items.push_back(ReadField(obj, field));
      });
    }
    frame.hashes.reserve(frame.items.size());
    active_.insert(obj);
    stack_.push_back(std::move(frame));
  }

  uint64_t Finish(const Frame& frame) {
    uint64_t type_hash = TypeKeyHashOf(frame.obj->type_index());
    switch (frame.kind) {
      case Kind::kSeq: {
        uint64_t h = Combine(type_hash, frame.hashes.size());
        for (size_t i = 0; i < frame.hashes.size(); ++i) {
          h = Combine(h, Combine(frame.hashes[i], i));
        }
        return h;
      }
      case Kind::kMap: {
        std::vector<uint64_t> entries;
        entries.reserve(frame.hashes.size() / 2);
        for (size_t i = 0; i + 1 < frame.hashes.size(); i += 2) {
          entries.push_back(Combine(frame.hashes[i], frame.hashes[i + 1]));
        }
        std::sort(entries.begin(), entries.end());
        uint64_t h = Combine(type_hash, entries.size());
        for (uint64_t e : entries) h = Combine(h, e);
        return h;
      }
      case Kind::kObject: {
        uint64_t h = type_hash;
        for (uint64_t field_hash : frame.hashes) h = Combine(h, field_hash);
        return h;
      }
    }
    return type_hash;
  }

  std::vector<Frame> stack_;
  std::unordered_map<const Object*, Hashed> memo_;
  std::unordered_set<const Object*> active_;
  std::optional<Function> fn_hash_;
};

/*! \brief BigInt hook: heap BigInts hash by value. */
void RegisterBigIntHashHook() {
  reflection::TypeAttrDef<BigIntObj>().def(
      reflection::type_attr::kHash.name, [](AnyView value, AnyView) -> int64_t {
        return static_cast<int64_t>(Combine(kTVMFFIBigInt, value.cast<BigInt>().hash()));
      });
}

}  // namespace

TVM_FFI_STATIC_INIT_BLOCK() {
  RegisterBigIntHashHook();
  reflection::GlobalDef().def(
      "ffi.RecursiveHash",
      [](Any value) { return static_cast<int64_t>(RecursiveHasher().Hash(value)); },
      "A hash of a value consistent with ffi.RecursiveEq.");
}

}  // namespace dataclass
}  // namespace detail
TVM_FFI_NAMESPACE_END
