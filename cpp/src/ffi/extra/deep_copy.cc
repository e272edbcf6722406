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
 *
 * The memo (original -> copy) is what keeps sharing and cycles, so an object
 * held only by the container or object it was read from (a tree node) gets
 * no entry: the walk meets it once, since its one holder is copied once.
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
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "dataclass_support.h"
#include "pointer_map.h"
#include "structural_common.h"

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

  /*! \brief What copying objects of one type needs, looked up once per pass. */
  struct TypeEntry {
    bool is_enum = false;
    bool has_copy_fn = false;
    Function copy_fn;
    // How each field is read: an Any member or object reference in place, the rest
    // through the getter. The copy goes into an Any member in place, else through the setter.
    std::vector<structural::StructuralField> fields;
  };

  /*!
   * \brief A value to copy. unique: nothing but the container or object it was
   *  read from holds it (read before that holder's shell took references).
   */
  struct Item {
    Any value;
    bool unique;
  };

  // The items of every open frame lie in items_, and the copies made so far in
  // copies_, innermost frame last; a frame's ranges start at its *_begin.
  struct Frame {
    const Object* orig;
    Any orig_ref;
    Kind kind;
    // Whether the copy goes into the memo (not for unique originals).
    bool memoised;
    // The copy made before the children (List, Dict, objects).
    Any shell;
    const TypeEntry* type;  // objects only
    size_t items_begin;
    size_t copies_begin;
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

  /*!
   * \brief The copy of an original; the original is held so that its address is
   *  not reused meanwhile. An Array or Map is pending (no copy yet) while its
   *  children are copied.
   */
  struct Copied {
    Any orig;
    Any copy;
    bool pending = false;
  };

  Any Copy(const AnyView& root) {
    Any result;
    bool placeholder = false;
    // The root is memoised: the caller holds it, so it may be met again.
    if (CopyNow(root, false, &result, &placeholder)) return result;
    while (!stack_.empty()) {
      Frame& frame = stack_.back();
      size_t next = copies_.size() - frame.copies_begin;
      if (next < items_.size() - frame.items_begin) {
        Any copy;
        bool is_placeholder = false;
        // A view: CopyNow may push a frame, which moves items_ and invalidates `frame`.
        const Item& entry = items_[frame.items_begin + next];
        AnyView item = entry.value;
        if (CopyNow(item, entry.unique, &copy, &is_placeholder)) {
          if (is_placeholder) stack_.back().placeholders.push_back(next);
          copies_.push_back(std::move(copy));
        }
        continue;
      }
      Any done = Finish(&frame);
      if (frame.memoised) {
        Copied& entry = memo_[frame.orig];
        entry.orig = std::move(frame.orig_ref);
        entry.copy = done;
        entry.pending = false;
      }
      items_.resize(frame.items_begin);
      copies_.resize(frame.copies_begin);
      stack_.pop_back();
      if (stack_.empty()) return done;
      copies_.push_back(std::move(done));
    }
    return result;
  }

  const TypeEntry& TypeOf(int32_t type_index, const Object* obj) {
    size_t i = static_cast<size_t>(type_index);
    if (i >= types_.size()) types_.resize(i + 1);
    if (types_[i] != nullptr) return *types_[i];
    auto entry = std::make_unique<TypeEntry>();
    entry->is_enum = IsInstanceOfIndex(obj, enum_index_);
    if (std::optional<Function> fn = HookOf(ShallowCopyHooks(), type_index)) {
      entry->has_copy_fn = true;
      entry->copy_fn = *std::move(fn);
    }
    const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(type_index);
    reflection::ForEachFieldInfo(info, [&](const TVMFFIFieldInfo* field) {
      entry->fields.push_back(structural::StructuralField{field, structural::FieldReadOf(field)});
    });
    types_[i] = std::move(entry);
    return *types_[i];
  }

  /*!
   * \brief Set *out to the copy of a value that needs no frame and return true;
   *  otherwise push the frame that copies it and return false.
   */
  bool CopyNow(AnyView value, bool unique, Any* out, bool* placeholder) {
    int32_t t = value.type_index();
    if (t < kTVMFFIStaticObjectBegin || t == kTVMFFIStr || t == kTVMFFIBytes || t == kTVMFFIShape ||
        t == kTVMFFIBigInt || t == kTVMFFIObject) {
      *out = Any(value);
      return true;
    }
    const Object* obj = reinterpret_cast<const Object*>(AnyUnsafe::GetTVMFFIAny(value)->v_obj);
    if (const Copied* memo = unique ? nullptr : memo_.Find(obj)) {
      if (memo->pending) {
        *out = Any(value);
        *placeholder = true;
      } else {
        *out = memo->copy;
      }
      return true;
    }
    bool is_container =
        t == kTVMFFIArray || t == kTVMFFIList || t == kTVMFFIMap || t == kTVMFFIDict;
    const TypeEntry* type = is_container ? nullptr : &TypeOf(t, obj);
    if (type != nullptr && type->is_enum) {
      *out = Any(value);
      return true;
    }
    PushFrame(obj, value, t, type, !unique);
    return false;
  }

  /*!
   * \brief Append a value read from a container or field to items_. Called before
   *  the holder's shell exists, so a use count of 2 (the holder and this item)
   *  means the holder alone has it. A field getter reads the field's storage
   *  (every field has an offset), so it hands out the stored object as well; a
   *  fresh object from a getter (use count 1) is met only here anyway.
   */
  void PushItem(Any value) {
    bool unique =
        value.type_index() >= kTVMFFIStaticObjectBegin &&
        AnyUnsafe::GetTVMFFIAny(value)->v_obj != nullptr &&
        reinterpret_cast<const Object*>(AnyUnsafe::GetTVMFFIAny(value)->v_obj)->use_count() <= 2;
    items_.push_back(Item{std::move(value), unique});
  }

  void PushContainerItems(const Object* obj, int32_t type_index) {
    if (type_index == kTVMFFIArray || type_index == kTVMFFIList) {
      const SeqBaseObj* seq = static_cast<const SeqBaseObj*>(obj);
      int64_t n = seq->SeqCell()->size;
      ReserveMore(&items_, static_cast<size_t>(n));
      for (int64_t i = 0; i < n; ++i) PushItem(Any(AnyView::CopyFromTVMFFIAny(seq->slots()[i])));
      return;
    }
    const MapBaseObj* map = static_cast<const MapBaseObj*>(obj);
    ReserveMore(&items_, map->size() * 2);
    for (const auto& kv : *map) {
      // kv holds its own references while the loop body runs.
      Any key = kv.first;
      Any value = kv.second;
      items_.push_back(Item{std::move(key), false});
      items_.push_back(Item{std::move(value), false});
    }
    // Without the iteration's references, a key or value held by the map alone counts 2.
    for (size_t i = items_.size() - map->size() * 2; i < items_.size(); ++i) {
      const TVMFFIAny* cell = AnyUnsafe::GetTVMFFIAny(items_[i].value);
      items_[i].unique = cell->type_index >= kTVMFFIStaticObjectBegin && cell->v_obj != nullptr &&
                         reinterpret_cast<const Object*>(cell->v_obj)->use_count() <= 2;
    }
  }

  void PushFrame(const Object* obj, AnyView value, int32_t type_index, const TypeEntry* type,
                 bool memoised) {
    if (stack_.size() >= kMaxStackDepth) ThrowStackDepthExceeded("DeepCopy");
    Frame frame;
    frame.orig = obj;
    frame.orig_ref = Any(value);
    frame.memoised = memoised;
    frame.type = type;
    frame.items_begin = items_.size();
    frame.copies_begin = copies_.size();
    if (type == nullptr) {
      PushContainerItems(obj, type_index);
      frame.kind = type_index == kTVMFFIArray  ? Kind::kArray
                   : type_index == kTVMFFIList ? Kind::kList
                   : type_index == kTVMFFIMap  ? Kind::kMap
                                               : Kind::kDict;
    } else {
      frame.kind = Kind::kObject;
      if (!type->has_copy_fn) {
        TVM_FFI_THROW(RuntimeError) << "Cannot deep copy object of type \"" << TypeKeyOf(type_index)
                                    << "\" because it is not copy-constructible";
      }
      // The fields first: the shell takes references to them.
      for (const structural::StructuralField& field : type->fields) {
        TVMFFIAny scratch;
        Any owned;
        const TVMFFIAny* cell = structural::ReadField(obj, field, &scratch, &owned);
        PushItem(cell == AnyUnsafe::GetTVMFFIAny(owned) ? std::move(owned)
                                                        : Any(AnyView::CopyFromTVMFFIAny(*cell)));
      }
      frame.shell = type->copy_fn(value);
      if (frame.shell.type_index() < kTVMFFIStaticObjectBegin) {
        TVM_FFI_THROW(TypeError) << "__ffi_shallow_copy__ of type \"" << TypeKeyOf(type_index)
                                 << "\" returned `" << frame.shell.GetTypeKey()
                                 << "` instead of an object";
      }
    }
    if (frame.kind == Kind::kList) frame.shell = List<Any>();
    if (frame.kind == Kind::kDict) frame.shell = Dict<Any, Any>();
    if (memoised) {
      Copied& entry = memo_[obj];
      entry.orig = frame.orig_ref;
      if (frame.kind == Kind::kArray || frame.kind == Kind::kMap) {
        entry.pending = true;
      } else {
        entry.copy = frame.shell;
      }
    }
    stack_.push_back(std::move(frame));
  }

  static bool IsPlaceholder(const Frame& frame, size_t i) {
    for (size_t p : frame.placeholders) {
      if (p == i) return true;
    }
    return false;
  }

  Any Finish(Frame* frame) {
    Any* copies = copies_.data() + frame->copies_begin;
    size_t n = copies_.size() - frame->copies_begin;
    switch (frame->kind) {
      case Kind::kArray: {
        ObjectPtr<ArrayObj> p = SeqAllocInplace<ArrayObj>(static_cast<int64_t>(n));
        for (size_t i = 0; i < n; ++i) {
          p->AppendCellUnchecked(AnyUnsafe::MoveAnyToTVMFFIAny(Any(copies[i])));
        }
        Any result = Array<Any>(std::move(p));
        for (size_t i : frame->placeholders) {
          AddFixup(FixupKind::kSeqSlot, result, static_cast<int64_t>(i), Any(), nullptr, copies[i]);
        }
        return result;
      }
      case Kind::kList: {
        List<Any> list = frame->shell.cast<List<Any>>();
        list.reserve(static_cast<int64_t>(n));
        for (size_t i = 0; i < n; ++i) list.push_back(copies[i]);
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
        for (size_t i = 0; i + 1 < n; i += 2) {
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
        const Item* items = items_.data() + frame->items_begin;
        const std::vector<structural::StructuralField>& fields = frame->type->fields;
        for (size_t i = 0; i < n; ++i) {
          if (!frame->placeholders.empty() && IsPlaceholder(*frame, i)) {
            AddFixup(FixupKind::kField, frame->shell, 0, Any(), fields[i].info, copies[i]);
          } else if (copies[i].same_as(items[i].value)) {
            continue;
          } else if (fields[i].read == structural::FieldRead::kAny &&
                     shell->type_index() == frame->orig->type_index()) {
            // An Any member of the shell (the original's type, so its layout): the setter
            // would do the same assignment.
            *reinterpret_cast<Any*>(reinterpret_cast<char*>(shell) + fields[i].info->offset) =
                std::move(copies[i]);
          } else {
            WriteField(shell, fields[i].info, copies[i]);
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
    Any copy = memo_.Find(fix.orig)->copy;
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
  std::vector<Item> items_;
  std::vector<Any> copies_;
  std::vector<std::unique_ptr<TypeEntry>> types_;
  PointerMap<Copied> memo_;
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
