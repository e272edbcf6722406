/*
 * DeepCopy (global "ffi.DeepCopy"): copies containers and reflected objects
 * with an explicit stack of frames, one copy per original object, so shared
 * references and cycles in the original appear the same way in the copy.
 *
 * PODs, strings, bytes, Shape, BigInt and enum singletons are immutable and
 * returned as they are. List, Dict and reflected objects (through their
 * __ffi_shallow_copy__) get their copy when first met, before their
 * children, so a cycle back to them finds the copy. Array and Map are built
 * after their children; a reference to one of them from inside its own
 * subtree (only possible through a mutable value) temporarily holds the
 * original and is fixed up once the pass is over.
 */
#include <tvm/ffi/any.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/dict.h>
#include <tvm/ffi/container/list.h>
#include <tvm/ffi/container/map.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/reflection/registry.h>

#include <cstdint>
#include <optional>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "dataclass_support.h"

TVM_FFI_NAMESPACE_BEGIN
namespace detail {
namespace dataclass {
namespace {

const reflection::TypeAttrColumn& ShallowCopyHooks() {
  static const reflection::TypeAttrColumn column(reflection::type_attr::kShallowCopy);
  return column;
}

class DeepCopier {
 public:
  DeepCopier() : enum_index_(EnumTypeIndex()) {}

  Any Run(const AnyView& root) {
    Any result = Copy(root);
    ApplyFixups();
    return result;
  }

 private:
  enum class Kind { kArray, kMap, kList, kDict, kObject };

  struct Frame {
    const Object* orig;
    Any orig_ref;
    Kind kind;
    // The copy made before the children (List, Dict, objects).
    Any shell;
    std::vector<Any> items;
    std::vector<const TVMFFIFieldInfo*> fields;
    std::vector<Any> copies;
    // Indices of items whose copy is, for now, an unfinished Array/Map original.
    std::vector<size_t> placeholders;
  };

  enum class FixupKind { kSeqSlot, kListSlot, kDictKey, kDictValue, kMapKey, kMapValue, kField };

  struct Fixup {
    FixupKind kind;
    Any holder;
    int64_t index;
    Any key;
    const TVMFFIFieldInfo* field;
    const Object* orig;
  };

  Any Copy(const AnyView& root) {
    Any result;
    bool placeholder = false;
    if (CopyNow(root, &result, &placeholder)) return result;
    while (!stack_.empty()) {
      Frame& frame = stack_.back();
      if (frame.copies.size() < frame.items.size()) {
        Any copy;
        bool is_placeholder = false;
        // CopyNow may push a frame, which invalidates `frame`.
        if (CopyNow(frame.items[frame.copies.size()], &copy, &is_placeholder)) {
          Frame& top = stack_.back();
          if (is_placeholder) top.placeholders.push_back(top.copies.size());
          top.copies.push_back(std::move(copy));
        }
        continue;
      }
      Any done = Finish(&frame);
      const Object* orig = frame.orig;
      pending_.erase(orig);
      memo_[orig] = Copied{frame.orig_ref, done};
      stack_.pop_back();
      if (stack_.empty()) return done;
      stack_.back().copies.push_back(std::move(done));
    }
    return result;
  }

  /*!
   * \brief Set *out to the copy of a value that needs no frame and return true;
   *  otherwise push the frame that copies it and return false.
   */
  bool CopyNow(const AnyView& value, Any* out, bool* placeholder) {
    int32_t t = value.type_index();
    if (t < kTVMFFIStaticObjectBegin || t == kTVMFFIStr || t == kTVMFFIBytes || t == kTVMFFIShape ||
        t == kTVMFFIBigInt || t == kTVMFFIObject) {
      *out = Any(value);
      return true;
    }
    const Object* obj = value.as<Object>();
    auto memo = memo_.find(obj);
    if (memo != memo_.end()) {
      *out = memo->second.copy;
      return true;
    }
    if (pending_.count(obj)) {
      *out = Any(value);
      *placeholder = true;
      return true;
    }
    if (IsInstanceOfIndex(obj, enum_index_)) {
      *out = Any(value);
      return true;
    }
    PushFrame(obj, value, t);
    return false;
  }

  void PushFrame(const Object* obj, const AnyView& value, int32_t type_index) {
    if (stack_.size() >= kMaxStackDepth) ThrowStackDepthExceeded("DeepCopy");
    Frame frame;
    frame.orig = obj;
    frame.orig_ref = Any(value);
    if (AppendContainerItems(obj, type_index, &frame.items)) {
      frame.kind = type_index == kTVMFFIArray  ? Kind::kArray
                   : type_index == kTVMFFIList ? Kind::kList
                   : type_index == kTVMFFIMap  ? Kind::kMap
                                               : Kind::kDict;
    } else {
      frame.kind = Kind::kObject;
      std::optional<Function> copy_fn = HookOf(ShallowCopyHooks(), type_index);
      if (!copy_fn.has_value()) {
        TVM_FFI_THROW(RuntimeError) << "Cannot deep copy object of type \"" << TypeKeyOf(type_index)
                                    << "\" because it is not copy-constructible";
      }
      frame.shell = (*copy_fn)(value);
      if (frame.shell.type_index() < kTVMFFIStaticObjectBegin) {
        TVM_FFI_THROW(TypeError) << "__ffi_shallow_copy__ of type \"" << TypeKeyOf(type_index)
                                 << "\" returned `" << frame.shell.GetTypeKey()
                                 << "` instead of an object";
      }
      const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(type_index);
      reflection::ForEachFieldInfo(info, [&](const TVMFFIFieldInfo* field) {
        frame.fields.push_back(field);
        frame.items.push_back(ReadField(obj, field));
      });
    }
    if (frame.kind == Kind::kList) frame.shell = List<Any>();
    if (frame.kind == Kind::kDict) frame.shell = Dict<Any, Any>();
    if (frame.kind == Kind::kArray || frame.kind == Kind::kMap) {
      pending_.insert(obj);
    } else {
      memo_[obj] = Copied{frame.orig_ref, frame.shell};
    }
    frame.copies.reserve(frame.items.size());
    stack_.push_back(std::move(frame));
  }

  bool IsPlaceholder(const Frame& frame, size_t i) const {
    for (size_t p : frame.placeholders) {
      if (p == i) return true;
    }
    return false;
  }

  Any Finish(Frame* frame) {
    std::vector<Any>& copies = frame->copies;
    switch (frame->kind) {
      case Kind::kArray: {
        Any result = Array<Any>(copies.begin(), copies.end());
        for (size_t i : frame->placeholders) {
          AddFixup(FixupKind::kSeqSlot, result, static_cast<int64_t>(i), Any(), nullptr, copies[i]);
        }
        return result;
      }
      case Kind::kList: {
        List<Any> list = frame->shell.cast<List<Any>>();
        list.reserve(static_cast<int64_t>(copies.size()));
        for (Any& c : copies) list.push_back(c);
        for (size_t i : frame->placeholders) {
          AddFixup(FixupKind::kListSlot, frame->shell, static_cast<int64_t>(i), Any(), nullptr,
                   copies[i]);
        }
        return frame->shell;
      }
      case Kind::kMap:
      case Kind::kDict: {
        bool is_map = frame->kind == Kind::kMap;
        Map<Any, Any> map;
        Dict<Any, Any> dict = is_map ? Dict<Any, Any>() : frame->shell.cast<Dict<Any, Any>>();
        for (size_t i = 0; i + 1 < copies.size(); i += 2) {
          if (is_map) {
            map.Set(copies[i], copies[i + 1]);
          } else {
            dict.Set(copies[i], copies[i + 1]);
          }
        }
        Any result = is_map ? Any(map) : frame->shell;
        for (size_t i : frame->placeholders) {
          bool is_key = i % 2 == 0;
          FixupKind kind = is_map ? (is_key ? FixupKind::kMapKey : FixupKind::kMapValue)
                                  : (is_key ? FixupKind::kDictKey : FixupKind::kDictValue);
          AddFixup(kind, result, 0, copies[is_key ? i : i - 1], nullptr, copies[i]);
        }
        return result;
      }
      case Kind::kObject: {
        Object* shell = const_cast<Object*>(frame->shell.as<Object>());
        for (size_t i = 0; i < copies.size(); ++i) {
          if (IsPlaceholder(*frame, i)) {
            AddFixup(FixupKind::kField, frame->shell, 0, Any(), frame->fields[i], copies[i]);
          } else if (!copies[i].same_as(frame->items[i])) {
            WriteField(shell, frame->fields[i], copies[i]);
          }
        }
        return frame->shell;
      }
    }
    return frame->shell;
  }

  void AddFixup(FixupKind kind, const Any& holder, int64_t index, const Any& key,
                const TVMFFIFieldInfo* field, const Any& orig) {
    fixups_.push_back(Fixup{kind, holder, index, key, field, orig.as<Object>()});
  }

  /*!
   * \brief Replace each placeholder (an original Array/Map) by its finished copy; map
   *  keys last, so that value fixups still find their entries under the original key.
   */
  void ApplyFixups() {
    for (bool keys : {false, true}) {
      for (Fixup& fix : fixups_) {
        bool is_key = fix.kind == FixupKind::kDictKey || fix.kind == FixupKind::kMapKey;
        if (is_key == keys) ApplyFixup(fix);
      }
    }
  }

  void ApplyFixup(const Fixup& fix) {
    Any copy = memo_.at(fix.orig).copy;
    Object* holder = const_cast<Object*>(fix.holder.as<Object>());
    switch (fix.kind) {
      case FixupKind::kSeqSlot: {
        // The Array was built by this pass, so its slots may still be written.
        TVMFFIAny* slot = static_cast<SeqBaseObj*>(holder)->slots() + fix.index;
        Any old = AnyUnsafe::MoveTVMFFIAnyToAny(slot);
        *slot = AnyUnsafe::MoveAnyToTVMFFIAny(Any(copy));
        break;
      }
      case FixupKind::kListSlot:
        List<Any>(fix.holder.cast<List<Any>>()).Set(fix.index, copy);
        break;
      case FixupKind::kDictValue:
        Dict<Any, Any>(fix.holder.cast<Dict<Any, Any>>()).Set(fix.key, copy);
        break;
      case FixupKind::kMapValue: {
        MapBaseObj* map = static_cast<MapBaseObj*>(holder);
        Any key = fix.key;
        Any value = copy;
        map->Insert(&key, &value, true);
        break;
      }
      case FixupKind::kDictKey:
      case FixupKind::kMapKey: {
        MapBaseObj* map = static_cast<MapBaseObj*>(holder);
        const TVMFFIAny* found = map->FindValue(AnyUnsafe::GetTVMFFIAny(fix.key));
        if (found == nullptr) break;
        Any value = Any(AnyView::CopyFromTVMFFIAny(*found));
        // A value that was itself a placeholder has been fixed by an earlier entry.
        map->Erase(AnyUnsafe::GetTVMFFIAny(fix.key));
        Any key = copy;
        map->Insert(&key, &value, true);
        break;
      }
      case FixupKind::kField:
        WriteField(holder, fix.field, copy);
        break;
    }
  }

  int32_t enum_index_;
  std::vector<Frame> stack_;
  /*! \brief A copy; the original is held so that its address is not reused meanwhile. */
  struct Copied {
    Any orig;
    Any copy;
  };

  std::unordered_map<const Object*, Copied> memo_;
  std::unordered_set<const Object*> pending_;
  std::vector<Fixup> fixups_;
};

}  // namespace

TVM_FFI_STATIC_INIT_BLOCK() {
  reflection::GlobalDef().def(
      "ffi.DeepCopy", [](Any value) { return DeepCopier().Run(value); },
      "A deep copy of a value: containers and copyable objects, sharing and cycles kept.");
}

}  // namespace dataclass
}  // namespace detail
TVM_FFI_NAMESPACE_END
