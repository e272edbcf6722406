/*
 * Structural hash (ffi.StructuralHash), bit-exact with the other
 * implementation of the ABI so that cached hashes agree (docs in
 * extra/structural_hash.h). Built from detail::StableHashCombine (c) and
 * detail::StableHashBytes (b):
 *
 *   POD (type t, payload u)   c(t, u); NaN as the canonical quiet NaN; a
 *                             SmallStr as c(65, u mod 2^31-1) (= b of its bytes)
 *   String / Bytes            c(65 / 66, b(content))
 *   Array / List / Shape      c(type_key_hash, size), then each element's hash
 *                             (Shape: each dim as is)
 *   Map / Dict                c(type_key_hash, size), then the entries whose key
 *                             hash is order independent, sorted by key hash
 *   Tensor                    c(type_key_hash, ndim), dims, dtype word, b(data)
 *   BigInt                    c(78, b(words))
 *   object                    type_key_hash folded with each field's hash (or
 *                             the __s_hash__ hook); free variables and DAG
 *                             nodes add a counter; memoised per object
 *
 * Nested Arrays, Lists, Maps and Dicts are walked with an explicit stack (any
 * depth), and one that contains itself raises ValueError.
 */
#include <tvm/ffi/container/map_base.h>
#include <tvm/ffi/container/shape.h>
#include <tvm/ffi/container/tensor.h>
#include <tvm/ffi/extra/structural_hash.h>
#include <tvm/ffi/reflection/registry.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <unordered_map>
#include <utility>
#include <vector>

#include "pointer_map.h"
#include "structural_abi_bridge.h"
#include "structural_common.h"
#include "structural_engines.h"

TVM_FFI_NAMESPACE_BEGIN
namespace detail {
namespace structural {

/*! \brief The type attribute of this engine's hooks (also names its type cache). */
inline constexpr char kSHashHookAttr[] = "__s_hash__";
namespace {

/*! \brief The quiet NaN every NaN hashes as. */
constexpr uint64_t kCanonicalNaNBits = 0x7ff8000000000000ULL;
constexpr uint64_t kStableHashModulus = 2147483647ULL;

class HashEngine {
 public:
  HashEngine(bool map_free_vars, bool skip_tensor_content)
      : region_(map_free_vars ? kTVMFFIDefRegionKindPattern : kTVMFFIDefRegionKindNone),
        skip_tensor_content_(skip_tensor_content) {}

  uint64_t Hash(const TVMFFIAny* value) {
    int32_t t = value->type_index;
    if (t < kTVMFFIStaticObjectBegin) {
      if (t == kTVMFFISmallStr) {
        return StableHashCombine(kTVMFFIStr, value->v_uint64 % kStableHashModulus);
      }
      if (t == kTVMFFIFloat && std::isnan(value->v_float64)) {
        return StableHashCombine(kTVMFFIFloat, kCanonicalNaNBits);
      }
      return StableHashCombine(static_cast<uint64_t>(t), value->v_uint64);
    }
    const Object* obj = CellObject(value);
    switch (t) {
      case kTVMFFIStr: {
        std::string_view s = CellBytes(value);
        return StableHashCombine(kTVMFFIStr, StableHashBytes(s.data(), s.size()));
      }
      case kTVMFFIBytes:
        return HashBytesObject(CellBytes(value));
      case kTVMFFIArray:
      case kTVMFFIList:
      case kTVMFFIMap:
      case kTVMFFIDict:
        return HashContainer(obj);
      case kTVMFFIShape:
        return HashShape(static_cast<const ShapeObj*>(obj));
      case kTVMFFITensor:
        return HashTensor(static_cast<const TensorObj*>(obj));
      case kTVMFFIBigInt: {
        std::string_view words = BigIntWords(obj);
        return StableHashCombine(kTVMFFIBigInt, StableHashBytes(words.data(), words.size()));
      }
      default:
        return HashObject(obj);
    }
  }

 private:
  /*!
   * \brief Bytes held by an object. Up to 7 bytes hash as the SmallBytes cell
   *  of the same content does (a POD: its type index and raw payload), so that
   *  equal values hash equally whatever their storage.
   */
  static uint64_t HashBytesObject(std::string_view s) {
    if (s.size() < sizeof(uint64_t)) {
      uint64_t payload = 0;
      for (size_t i = s.size(); i > 0; --i) {
        payload = (payload << 8) | static_cast<unsigned char>(s[i - 1]);
      }
      return StableHashCombine(kTVMFFISmallBytes, payload);
    }
    return StableHashCombine(kTVMFFIBytes, StableHashBytes(s.data(), s.size()));
  }

  /*!
   * \brief Start loading what hashing an object cell reads first (its header
   *  and, when memoised, its memo slot), so that siblings are in cache when
   *  the walk reaches them after the subtrees before them.
   */
  void Prefetch(const TVMFFIAny* cell) const {
    if (cell->type_index >= kTVMFFIStaticObjectBegin) Prefetch(cell->v_obj, cell->type_index);
  }
  void Prefetch(const void* obj, int32_t type_index) const {
    PrefetchRead(obj);
    // Containers, strings and the other built-ins are not memoised.
    if (type_index >= kTVMFFIStaticObjectEnd || type_index == kTVMFFIObject) memo_.Prefetch(obj);
  }

  /*!
   * \brief An Array, List, Map or Dict being hashed: its hash so far and what
   *  of it is left. A Map's entries are folded in key-hash order (see
   *  StartMap); each step is a key hash and the value to hash after it, or
   *  none when the key hash collides with another.
   */
  struct ContainerFrame {
    const Object* obj;
    uint64_t h;
    const TVMFFIAny* items;  // Array / List elements
    int64_t size;
    int64_t next;
    std::vector<std::pair<uint64_t, const TVMFFIAny*>> steps;  // Map / Dict
  };

  /*!
   * \brief Hash a container. Nested containers are walked with frames_, an
   *  explicit stack, so nesting depth costs heap rather than native frames,
   *  and a container met inside itself is an error instead of an endless walk.
   */
  uint64_t HashContainer(const Object* root) {
    const size_t base = frames_.size();
    // An error leaves frames_ as this call found it (a hook may catch it and go on).
    struct Unwind {
      HashEngine* self;
      size_t base;
      ~Unwind() {
        while (self->frames_.size() > base) self->PopFrame();
      }
    } unwind{this, base};
    Enter(root);
    while (true) {
      const TVMFFIAny* child = NextChild(&frames_.back());
      if (child == nullptr) {
        uint64_t done = frames_.back().h;
        PopFrame();
        if (frames_.size() == base) return done;
        frames_.back().h = StableHashCombine(frames_.back().h, done);
      } else if (IsContainerTypeIndex(child->type_index)) {
        Enter(CellObject(child));
      } else {
        // May re-enter HashContainer (an object holding containers), which leaves frames_ as
        // it found it; frames_ may have grown meanwhile, so the frame is looked up again.
        uint64_t ch = Hash(child);
        frames_.back().h = StableHashCombine(frames_.back().h, ch);
      }
    }
  }

  void PopFrame() {
    open_.Leave(frames_.size(), frames_.back().obj);
    frames_.pop_back();
  }

  void Enter(const Object* obj) {
    if (!open_.Enter(frames_.size() + 1, obj)) ThrowContainsItself("StructuralHash", obj);
    frames_.emplace_back();
    ContainerFrame& f = frames_.back();
    f.obj = obj;
    f.items = nullptr;
    f.size = 0;
    f.next = 0;
    int32_t t = obj->type_index();
    if (t == kTVMFFIArray || t == kTVMFFIList) {
      const TVMFFISeqCell* seq = SeqCell(obj);
      f.h = StableHashCombine(obj->GetTypeKeyHash(), static_cast<uint64_t>(seq->size));
      f.items = static_cast<const TVMFFIAny*>(seq->data);
      f.size = seq->size;
      for (int64_t i = 0; i < std::min(f.size, kAhead); ++i) Prefetch(f.items + i);
    } else {
      StartMap(static_cast<const MapBaseObj*>(obj), &f);
    }
  }

  /*! \brief The next value of f to hash (folding a map's key hash first), or nullptr at its end. */
  const TVMFFIAny* NextChild(ContainerFrame* f) {
    if (f->steps.empty()) {
      if (f->next >= f->size) return nullptr;
      if (f->next + kAhead < f->size) Prefetch(f->items + f->next + kAhead);
      return f->items + f->next++;
    }
    while (f->next < static_cast<int64_t>(f->steps.size())) {
      const auto& step = f->steps[f->next++];
      f->h = StableHashCombine(f->h, step.first);
      if (step.second != nullptr) return step.second;
    }
    return nullptr;
  }

  /*!
   * \return Whether a map key has a hash independent of traversal order
   *  (POD, string, bytes, the values BigInt and Shape, or an object already hashed), and
   *  that hash.
   */
  bool OrderIndependentKeyHash(const TVMFFIAny* key, uint64_t* out) {
    int32_t t = key->type_index;
    if (t < kTVMFFIStaticObjectBegin || t == kTVMFFIStr || t == kTVMFFIBytes ||
        t == kTVMFFIBigInt || t == kTVMFFIShape) {
      *out = Hash(key);
      return true;
    }
    ++unstable_seen_;
    const Memo* memo = memo_.Find(CellObject(key));
    if (memo == nullptr || !memo->done) return false;
    *out = memo->hash;
    return true;
  }

  /*!
   * \brief A map's hash starts from its type and size; then come the entries
   *  whose key hash is order independent, sorted by it. Entries whose key
   *  hashes collide contribute the key hash only: their values cannot be
   *  paired up independently of the order.
   */
  void StartMap(const MapBaseObj* map, ContainerFrame* f) {
    f->h = StableHashCombine(map->GetTypeKeyHash(), static_cast<uint64_t>(map->size()));
    std::vector<std::pair<uint64_t, const TVMFFIAny*>> entries;
    entries.reserve(map->size());
    for (const auto& kv : *map) {
      uint64_t key_hash;
      if (OrderIndependentKeyHash(AnyUnsafe::GetTVMFFIAny(kv.first), &key_hash)) {
        entries.emplace_back(key_hash, AnyUnsafe::GetTVMFFIAny(kv.second));
      }
    }
    std::stable_sort(entries.begin(), entries.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    f->steps.reserve(entries.size());
    for (size_t i = 0; i < entries.size();) {
      size_t j = i + 1;
      while (j < entries.size() && entries[j].first == entries[i].first) ++j;
      f->steps.emplace_back(entries[i].first, j == i + 1 ? entries[i].second : nullptr);
      i = j;
    }
  }

  static uint64_t HashShape(const ShapeObj* shape) {
    uint64_t h = StableHashCombine(shape->GetTypeKeyHash(), static_cast<uint64_t>(shape->size));
    for (size_t i = 0; i < shape->size; ++i) {
      h = StableHashCombine(h, static_cast<uint64_t>(shape->data[i]));
    }
    return h;
  }

  uint64_t HashTensor(const TensorObj* tensor) {
    uint64_t h = StableHashCombine(tensor->GetTypeKeyHash(), static_cast<uint64_t>(tensor->ndim));
    for (int32_t i = 0; i < tensor->ndim; ++i) {
      h = StableHashCombine(h, static_cast<uint64_t>(tensor->shape[i]));
    }
    uint64_t dtype_word = 0;
    std::memcpy(&dtype_word, &tensor->dtype, sizeof(DLDataType));
    h = StableHashCombine(h, dtype_word);
    if (!skip_tensor_content_) {
      std::string_view data = TensorBytes(*tensor, "StructuralHash");
      h = StableHashCombine(h, StableHashBytes(data.data(), data.size()));
    }
    return h;
  }

  template <typename F>
  uint64_t WithRegion(TVMFFIDefRegionKind region, F&& f) {
    RegionScope scope(&region_, region);
    return f();
  }

  uint64_t HashObject(const Object* obj) {
    const StructuralType& type = types_.Get(obj->type_index());
    TVMFFISEqHashKind kind = type.kind;
    if (kind == kTVMFFISEqHashKindTreeNode && !type.hook.has_value() && hook_depth_ == 0 &&
        obj->unique()) {
      // The value being hashed holds the only reference, so the walk meets this tree node
      // again only if it meets that holder again (an unmemoised container), and then it
      // hashes it to the same value: the memoised descendants answer alike and nothing
      // else changed. Unless the subtree holds an unstable value (see unstable_seen_):
      // then the node is memoised as usual.
      if (unstable_seen_ != 0) {
        const Memo* memo = memo_.Find(obj);
        if (memo != nullptr && memo->done) return memo->hash;
      }
      uint64_t unstable = unstable_seen_;
      uint64_t h = HashContent(type, obj);
      if (unstable_seen_ != unstable) memo_[obj] = Memo{h, true};
      return h;
    }
    // One probe finds the object or reserves its entry. An entry still open is
    // an object inside itself: hashed again, as if absent.
    auto [entry, added] = memo_.Insert(obj);
    if (!added && memo_.value(entry).done) return memo_.value(entry).hash;
    uint64_t h;
    if (kind == kTVMFFISEqHashKindFreeVar && region_ == kTVMFFIDefRegionKindSimple) {
      // Defining a variable: its own fields (e.g. its type) are uses.
      h = WithRegion(kTVMFFIDefRegionKindNone, [&] { return HashContent(type, obj); });
    } else {
      h = HashContent(type, obj);
    }
    if (kind == kTVMFFISEqHashKindFreeVar) {
      if (region_ != kTVMFFIDefRegionKindNone) {
        h = StableHashCombine(h, free_var_counter_++);
      } else {
        h = static_cast<uint64_t>(reinterpret_cast<uintptr_t>(obj));
      }
    } else if (kind == kTVMFFISEqHashKindDAGNode) {
      h = StableHashCombine(h, graph_node_counter_++);
    }
    memo_.value(entry) = Memo{h, true};
    return h;
  }

  uint64_t HashContent(const StructuralType& type, const Object* obj) {
    const TVMFFITypeInfo* info = type.info;
    if (const std::optional<Function>& hook = type.hook) {
      Function hash_cb =
          Function::FromTyped([this](AnyView value, int64_t init_hash, int32_t region) -> int64_t {
            TVMFFIDefRegionKind next =
                EnterRegion(region_, static_cast<TVMFFIDefRegionKind>(region));
            uint64_t vh = WithRegion(next, [&] { return Hash(AnyUnsafe::GetTVMFFIAny(value)); });
            // A hook may pass values it just made: keep them (and what they hold) alive.
            if (value.type_index() >= kTVMFFIStaticObjectBegin) keep_alive_.emplace_back(value);
            return static_cast<int64_t>(StableHashCombine(static_cast<uint64_t>(init_hash), vh));
          });
      // What a hook hashes may be referenced by values it just made: always memoised.
      struct HookScope {
        int* depth;
        explicit HookScope(int* d) : depth(d) { ++*depth; }
        ~HookScope() { --*depth; }
      } scope(&hook_depth_);
      return static_cast<uint64_t>(
          (*hook)(GetRef<ObjectRef>(obj), static_cast<int64_t>(info->type_key_hash), hash_cb)
              .cast<int64_t>());
    }
    uint64_t h = info->type_key_hash;
    for (const StructuralField& field : type.fields) {
      int32_t child_type;
      if (const void* child = PeekFieldObject(obj, field, &child_type)) Prefetch(child, child_type);
    }
    for (const StructuralField& field : type.fields) {
      TVMFFIAny scratch;
      Any owned;
      const TVMFFIAny* cell = ReadField(obj, field, &scratch, &owned);
      TVMFFIDefRegionKind region = FieldRegion(region_, field.info->flags);
      uint64_t vh = region == region_ ? Hash(cell) : WithRegion(region, [&] { return Hash(cell); });
      h = StableHashCombine(h, vh);
      // A getter may hand out a fresh object (nobody else holds it): keep it, and so what
      // it holds, alive, so that no memoised address is reused during the pass. Values
      // held elsewhere (fields read in place included) live in the graph anyway.
      if (cell == AnyUnsafe::GetTVMFFIAny(owned) && cell->type_index >= kTVMFFIStaticObjectBegin &&
          CellObject(cell)->use_count() == 1) {
        ++unstable_seen_;
        keep_alive_.push_back(std::move(owned));
      }
    }
    return h;
  }

  TVMFFIDefRegionKind region_;
  bool skip_tensor_content_;
  uint64_t free_var_counter_ = 0;
  uint64_t graph_node_counter_ = 0;
  // Values met whose hash may differ at a second visit: map keys that are objects (they
  // count only once hashed) and fresh objects handed out by field getters.
  uint64_t unstable_seen_ = 0;
  // Hooks running (HashContent's __s_hash__ calls).
  int hook_depth_ = 0;
  /*! \brief The hash of an object; done once it is known (its entry is added on entry). */
  struct Memo {
    uint64_t hash = 0;
    bool done = false;
  };
  PointerMap<Memo> memo_;
  StructuralTypeCache& types_ = StructuralTypeCache::ForThread<kSHashHookAttr>();
  StructuralTypeCache::Run types_run_{&types_};
  std::vector<Any> keep_alive_;
  /*! \brief The containers being hashed, outermost first (all HashContainer calls share it). */
  std::vector<ContainerFrame> frames_;
  OpenContainers open_;
  static constexpr int64_t kAhead = 8;
};

}  // namespace

uint64_t Hash(const Any& value, bool map_free_vars, bool skip_tensor_content) {
  HashEngine engine(map_free_vars, skip_tensor_content);
  return engine.Hash(AnyUnsafe::GetTVMFFIAny(value));
}

}  // namespace structural

uint64_t StructuralAbiHash(const TVMFFIAny* value, bool map_free_vars, bool skip_tensor_content) {
  // The cell is an owned Any value of the caller (same layout as ours); read only.
  return structural::Hash(*reinterpret_cast<const Any*>(value), map_free_vars, skip_tensor_content);
}
}  // namespace detail

TVM_FFI_STATIC_INIT_BLOCK() {
  reflection::GlobalDef().def(
      "ffi.StructuralHash",
      [](const Any& value, bool map_free_vars, bool skip_tensor_content) -> int64_t {
        return static_cast<int64_t>(
            detail::structural::Hash(value, map_free_vars, skip_tensor_content));
      });
}

TVM_FFI_NAMESPACE_END
