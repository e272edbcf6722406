/*
 * Structural equality (ffi.StructuralEqual) and the first mismatch paths
 * (ffi.GetFirstStructuralMismatch).
 *
 * One engine does both: it compares recursively and, when asked for the
 * mismatch, records the access step of every level it leaves with a
 * difference (innermost first), so the two paths are built on the way out.
 * Objects follow their structural kind: identity for unique instances,
 * fields (or the __s_equal__ hook) for trees, plus a lhs<->rhs mapping for
 * DAG nodes and free variables; a free variable binds only inside a
 * definition region (or to itself).
 *
 * Nested Arrays, Lists, Maps and Dicts are walked with an explicit stack (any
 * depth); a pair of containers met inside itself raises ValueError.
 *
 * Equal first tries a walk of plain trees (FastEqual) that keeps several node
 * pairs in flight: a depth-first walk waits for each child it reaches from
 * memory, one cache miss after another, while this one has the next pairs'
 * objects loading while it compares the current ones. It takes only values
 * whose comparison cannot depend on the order of the walk (no variable
 * mapping, hook, getter or error can be involved) and says "equal" only; on
 * anything else, a difference included, the depth-first walk decides from
 * the start, so results and errors are those of that walk.
 */
#include <tvm/ffi/container/map_base.h>
#include <tvm/ffi/container/shape.h>
#include <tvm/ffi/container/tensor.h>
#include <tvm/ffi/extra/structural_equal.h>
#include <tvm/ffi/reflection/access_path.h>
#include <tvm/ffi/reflection/registry.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <unordered_map>
#include <unordered_set>
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
inline constexpr char kSEqualHookAttr[] = "__s_equal__";
namespace {

using reflection::AccessPath;
using reflection::AccessPathPair;
using reflection::AccessStep;

class EqualEngine {
 public:
  EqualEngine(bool map_free_vars, bool skip_tensor_content, bool record_mismatch)
      : region_(map_free_vars ? kTVMFFIDefRegionKindPattern : kTVMFFIDefRegionKindNone),
        skip_tensor_content_(skip_tensor_content),
        record_(record_mismatch) {}

  bool Equal(const TVMFFIAny* lhs, const TVMFFIAny* rhs) {
    int32_t tl = lhs->type_index;
    int32_t tr = rhs->type_index;
    if (tl != tr) {
      int family = StringFamily(tl);
      return family >= 0 && family == StringFamily(tr) && CellBytes(lhs) == CellBytes(rhs);
    }
    if (tl < kTVMFFIStaticObjectBegin) {
      if (tl == kTVMFFIFloat && std::isnan(lhs->v_float64)) return std::isnan(rhs->v_float64);
      return lhs->zero_padding == rhs->zero_padding && lhs->v_uint64 == rhs->v_uint64;
    }
    const Object* l = CellObject(lhs);
    const Object* r = CellObject(rhs);
    switch (tl) {
      case kTVMFFIStr:
      case kTVMFFIBytes:
        return CellBytes(lhs) == CellBytes(rhs);
      case kTVMFFIArray:
      case kTVMFFIList:
      case kTVMFFIMap:
      case kTVMFFIDict:
        return EqualContainers(l, r);
      case kTVMFFIShape:
        return EqualShape(static_cast<const ShapeObj*>(l), static_cast<const ShapeObj*>(r));
      case kTVMFFITensor:
        return EqualTensor(static_cast<const TensorObj*>(l), static_cast<const TensorObj*>(r));
      case kTVMFFIBigInt:
        return BigIntWords(l) == BigIntWords(r);
      default:
        return EqualObject(l, r);
    }
  }

  /*!
   * \return Whether lhs and rhs are equal plain trees, found without the
   *  depth-first walk; false means that Equal has to decide (see the file comment).
   *  Plain: PODs, strings, bytes, Array, List, Shape, BigInt, and objects of
   *  const-tree, tree or unique-instance kind without a __s_equal__ hook whose
   *  structural fields are all read in place. Their comparison neither binds
   *  variables nor runs user code, so neither the order of the walk nor the
   *  engine's flags (which concern variables and tensors) change it.
   */
  bool FastEqual(const TVMFFIAny* lhs, const TVMFFIAny* rhs) {
    if (lhs->type_index != rhs->type_index || lhs->type_index < kTVMFFIStaticObjectBegin) {
      return false;
    }
    pending_.clear();
    fast_visits_ = 0;
    fast_seen_.clear();
    pending_.push_back(ObjectPair{CellObject(lhs), CellObject(rhs)});
    // A ring of pairs whose objects are loading, refilled from pending_ in
    // depth-first order (the last pushed first: siblings lie close in memory).
    ObjectPair ring[kRingSize];
    size_t head = 0;
    size_t count = 0;
    while (true) {
      while (count < kRingSize && !pending_.empty()) {
        ObjectPair next = pending_.back();
        pending_.pop_back();
        // An object's header and first fields (or elements) span two cache lines.
        PrefetchRead(next.l);
        PrefetchRead(reinterpret_cast<const char*>(next.l) + 64);
        PrefetchRead(next.r);
        PrefetchRead(reinterpret_cast<const char*>(next.r) + 64);
        ring[(head + count) % kRingSize] = next;
        ++count;
      }
      if (count == 0) return true;
      ObjectPair pair = ring[head];
      head = (head + 1) % kRingSize;
      --count;
      if (!FastVisit(pair.l, pair.r)) return false;
    }
  }

  /*! \return The mismatch paths recorded by a failed Equal. */
  AccessPathPair MismatchPaths() const {
    return AccessPathPair(AccessPath::FromSteps(lhs_steps_.rbegin(), lhs_steps_.rend()),
                          AccessPath::FromSteps(rhs_steps_.rbegin(), rhs_steps_.rend()));
  }

 private:
  void Record(AccessStep lhs, AccessStep rhs) {
    if (!record_) return;
    lhs_steps_.push_back(std::move(lhs));
    rhs_steps_.push_back(std::move(rhs));
  }

  /*! \brief Start loading the objects of two cells (the walk reaches them after their elder
   * siblings' subtrees). */
  static void Prefetch(const TVMFFIAny* l, const TVMFFIAny* r) {
    if (l->type_index >= kTVMFFIStaticObjectBegin) PrefetchRead(l->v_obj);
    if (r->type_index >= kTVMFFIStaticObjectBegin) PrefetchRead(r->v_obj);
  }

  /*!
   * \brief Two containers of one kind being compared, and where the walk is:
   *  the next element (Array / List), or the next lhs entry and the keys of
   *  the entry pair being compared (Map / Dict).
   */
  struct PairFrame {
    const Object* l;
    const Object* r;
    bool is_map;
    int64_t next;
    MapBaseObj::iterator entry;
    Any lkey;
    Any rkey;
  };

  /*!
   * \brief Compare two containers of the same kind. Nested containers are
   *  walked with frames_, an explicit stack, so nesting depth costs heap
   *  rather than native frames, and a pair met inside itself is an error
   *  instead of an endless walk. A difference records the step of every level
   *  it leaves, innermost first, as the recursive walk does.
   */
  bool EqualContainers(const Object* l, const Object* r) {
    const size_t base = frames_.size();
    // An error leaves frames_ as this call found it (a hook may catch it and go on).
    struct Unwind {
      EqualEngine* self;
      size_t base;
      ~Unwind() {
        while (self->frames_.size() > base) self->PopFrame();
      }
    } unwind{this, base};
    if (!EnterPair(l, r)) return false;
    while (true) {
      const TVMFFIAny* lc = nullptr;
      const TVMFFIAny* rc = nullptr;
      int step = NextPair(&frames_.back(), &lc, &rc);
      if (step < 0) {
        // The top pair differs at its own level (NextPair recorded the step).
        PopFrame();
        return Differ(base);
      }
      if (step == 0) {
        PopFrame();
        if (frames_.size() == base) return true;
      } else if (lc->type_index == rc->type_index && IsContainerTypeIndex(lc->type_index)) {
        if (!EnterPair(CellObject(lc), CellObject(rc))) return Differ(base);
      } else if (!Equal(lc, rc)) {
        // Equal may re-enter EqualContainers (objects holding containers), which leaves
        // frames_ as it found it.
        return Differ(base);
      }
    }
  }

  /*!
   * \brief A difference met in the child being compared of the top frame: record
   *  the step of every open frame down to base, innermost first, closing each.
   */
  bool Differ(size_t base) {
    while (frames_.size() > base) {
      RecordChildStep(frames_.back());
      PopFrame();
    }
    return false;
  }

  /*!
   * \brief Push the frame of a container pair; false (nothing pushed) when a
   *  size difference decides at once (without paths to report).
   */
  bool EnterPair(const Object* l, const Object* r) {
    int32_t t = l->type_index();
    bool is_map = t == kTVMFFIMap || t == kTVMFFIDict;
    if (!record_) {
      size_t lsize = is_map ? static_cast<const MapBaseObj*>(l)->size() : SeqCell(l)->size;
      size_t rsize = is_map ? static_cast<const MapBaseObj*>(r)->size() : SeqCell(r)->size;
      if (lsize != rsize) return false;
    }
    if (!open_.Enter(frames_.size() + 1, l, r)) ThrowContainsItself("StructuralEqual", l);
    frames_.emplace_back();
    PairFrame& f = frames_.back();
    f.l = l;
    f.r = r;
    f.is_map = is_map;
    f.next = 0;
    if (is_map) {
      f.entry = static_cast<const MapBaseObj*>(l)->begin();
    } else {
      const TVMFFISeqCell* ls = SeqCell(l);
      const TVMFFISeqCell* rs = SeqCell(r);
      int64_t n = std::min(ls->size, rs->size);
      for (int64_t i = 0; i < std::min(n, kAhead); ++i) {
        Prefetch(static_cast<const TVMFFIAny*>(ls->data) + i,
                 static_cast<const TVMFFIAny*>(rs->data) + i);
      }
    }
    return true;
  }

  void PopFrame() {
    open_.Leave(frames_.size(), frames_.back().l, frames_.back().r);
    frames_.pop_back();
  }

  /*! \brief Record the step of f whose pair just compared unequal. */
  void RecordChildStep(const PairFrame& f) {
    if (f.is_map) {
      Record(AccessStep::MapItem(f.lkey), AccessStep::MapItem(f.rkey));
    } else {
      Record(AccessStep::ArrayItem(f.next - 1), AccessStep::ArrayItem(f.next - 1));
    }
  }

  /*!
   * \brief The next pair of values of f to compare.
   * \return 1 with *lc, *rc set; 0 when f is done and equal; -1 when f is
   *  done and differs at its own level (the step is recorded).
   */
  int NextPair(PairFrame* f, const TVMFFIAny** lc, const TVMFFIAny** rc) {
    if (!f->is_map) {
      const TVMFFISeqCell* ls = SeqCell(f->l);
      const TVMFFISeqCell* rs = SeqCell(f->r);
      int64_t n = std::min(ls->size, rs->size);
      const TVMFFIAny* ld = static_cast<const TVMFFIAny*>(ls->data);
      const TVMFFIAny* rd = static_cast<const TVMFFIAny*>(rs->data);
      if (f->next < n) {
        int64_t i = f->next++;
        if (i + kAhead < n) Prefetch(ld + i + kAhead, rd + i + kAhead);
        *lc = ld + i;
        *rc = rd + i;
        return 1;
      }
      if (ls->size == rs->size) return 0;
      if (ls->size > rs->size) {
        Record(AccessStep::ArrayItem(n), AccessStep::ArrayItemMissing(n));
      } else {
        Record(AccessStep::ArrayItemMissing(n), AccessStep::ArrayItem(n));
      }
      return -1;
    }
    const MapBaseObj* l = static_cast<const MapBaseObj*>(f->l);
    const MapBaseObj* r = static_cast<const MapBaseObj*>(f->r);
    if (f->entry != l->end()) {
      const auto& kv = *f->entry;
      ++f->entry;
      // Translated now: the values compared before may have bound the key's variables.
      Any rkey = TranslateKey(kv.first, lhs_to_rhs_);
      auto it = r->find(rkey);
      if (it == r->end()) {
        Record(AccessStep::MapItem(kv.first), AccessStep::MapItemMissing(rkey));
        return -1;
      }
      f->lkey = kv.first;
      f->rkey = (*it).first;
      *lc = AnyUnsafe::GetTVMFFIAny(kv.second);
      *rc = AnyUnsafe::GetTVMFFIAny((*it).second);
      return 1;
    }
    if (l->size() == r->size()) return 0;
    for (const auto& kv : *r) {
      Any lkey = TranslateKey(kv.first, rhs_to_lhs_);
      if (l->find(lkey) == l->end()) {
        Record(AccessStep::MapItemMissing(lkey), AccessStep::MapItem(kv.first));
        return -1;
      }
    }
    return -1;
  }

  /*! \return key translated through a variable mapping (objects only). */
  static Any TranslateKey(const Any& key, const PointerMap<const Object*>& mapping) {
    if (key.type_index() < kTVMFFIStaticObjectBegin) return key;
    const Object* const* mapped = mapping.Find(CellObject(AnyUnsafe::GetTVMFFIAny(key)));
    if (mapped == nullptr) return key;
    return Any(GetRef<ObjectRef>(*mapped));
  }

  static bool EqualShape(const ShapeObj* l, const ShapeObj* r) {
    return l->size == r->size &&
           (l->size == 0 || std::memcmp(l->data, r->data, l->size * sizeof(int64_t)) == 0);
  }

  bool EqualTensor(const TensorObj* l, const TensorObj* r) {
    if (l == r) return true;
    if (l->ndim != r->ndim) return false;
    for (int32_t i = 0; i < l->ndim; ++i) {
      if (l->shape[i] != r->shape[i]) return false;
    }
    if (l->dtype.code != r->dtype.code || l->dtype.bits != r->dtype.bits ||
        l->dtype.lanes != r->dtype.lanes) {
      return false;
    }
    if (skip_tensor_content_) return true;
    return TensorBytes(*l, "StructuralEqual") == TensorBytes(*r, "StructuralEqual");
  }

  bool EqualObject(const Object* l, const Object* r) {
    const StructuralType& info = types_.Get(l->type_index());
    TVMFFISEqHashKind kind = info.kind;
    switch (kind) {
      case kTVMFFISEqHashKindUniqueInstance:
        return l == r;
      case kTVMFFISEqHashKindConstTreeNode:
        return l == r || EqualContent(info, l, r);
      case kTVMFFISEqHashKindDAGNode:
      case kTVMFFISEqHashKindFreeVar: {
        if (const Object* const* mapped = lhs_to_rhs_.Find(l)) return *mapped == r;
        if (rhs_to_lhs_.Find(r) != nullptr) return false;
        bool ok;
        if (kind == kTVMFFISEqHashKindFreeVar && region_ == kTVMFFIDefRegionKindSimple) {
          // Defining a variable: its own fields (e.g. its type) are uses.
          ok = WithRegion(kTVMFFIDefRegionKindNone, [&] { return EqualContent(info, l, r); });
        } else {
          ok = EqualContent(info, l, r);
        }
        if (!ok) return false;
        if (kind == kTVMFFISEqHashKindFreeVar && l != r && region_ == kTVMFFIDefRegionKindNone) {
          return false;
        }
        Bind(l, r);
        return true;
      }
      default:
        return EqualContent(info, l, r);
    }
  }

  template <typename F>
  bool WithRegion(TVMFFIDefRegionKind region, F&& f) {
    RegionScope scope(&region_, region);
    return f();
  }

  void Bind(const Object* l, const Object* r) {
    lhs_to_rhs_[l] = r;
    rhs_to_lhs_[r] = l;
    // Field getters may hand out fresh objects: keep mapped ones alive.
    keep_alive_.push_back(GetRef<ObjectRef>(l));
    keep_alive_.push_back(GetRef<ObjectRef>(r));
  }

  /*! \brief Compare two objects of one type by the __s_equal__ hook or by their fields. */
  bool EqualContent(const StructuralType& type, const Object* l, const Object* r) {
    if (const std::optional<Function>& hook = type.hook) {
      return EqualByHook(*hook, l, r);
    }
    for (const StructuralField& field : type.fields) {
      int32_t child_type;
      if (const void* child = PeekFieldObject(l, field, &child_type)) PrefetchRead(child);
      if (const void* child = PeekFieldObject(r, field, &child_type)) PrefetchRead(child);
    }
    for (const StructuralField& field : type.fields) {
      TVMFFIAny lscratch, rscratch;
      Any lowned, rowned;
      const TVMFFIAny* lv = ReadField(l, field, &lscratch, &lowned);
      const TVMFFIAny* rv = ReadField(r, field, &rscratch, &rowned);
      TVMFFIDefRegionKind region = FieldRegion(region_, field.info->flags);
      bool ok =
          region == region_ ? Equal(lv, rv) : WithRegion(region, [&] { return Equal(lv, rv); });
      if (!ok) {
        String name(FieldName(field.info));
        Record(AccessStep::Attr(name), AccessStep::Attr(name));
        return false;
      }
    }
    return true;
  }

  bool EqualByHook(const Function& hook, const Object* l, const Object* r) {
    size_t recorded = lhs_steps_.size();
    Function eq_cb = Function::FromTyped([this](AnyView lv, AnyView rv, int32_t region,
                                                AnyView field_name) -> bool {
      TVMFFIDefRegionKind next = EnterRegion(region_, static_cast<TVMFFIDefRegionKind>(region));
      bool ok = WithRegion(
          next, [&] { return Equal(AnyUnsafe::GetTVMFFIAny(lv), AnyUnsafe::GetTVMFFIAny(rv)); });
      if (!ok && record_ && field_name.type_index() != kTVMFFINone) {
        String name = field_name.cast<String>();
        Record(AccessStep::Attr(name), AccessStep::Attr(name));
      }
      return ok;
    });
    bool ok = hook(GetRef<ObjectRef>(l), GetRef<ObjectRef>(r), eq_cb).cast<bool>();
    if (ok) {
      // The hook may have accepted after a failed sub-comparison: drop its steps.
      lhs_steps_.erase(lhs_steps_.begin() + recorded, lhs_steps_.end());
      rhs_steps_.erase(rhs_steps_.begin() + recorded, rhs_steps_.end());
    }
    return ok;
  }

  /*! \brief How FastEqual treats an object type. */
  enum class FastKind : uint8_t { kUnknown, kNotPlain, kTree, kConstTree, kUniqueInstance };

  struct ObjectPair {
    const Object* l;
    const Object* r;
  };
  struct PairHash {
    size_t operator()(const std::pair<const Object*, const Object*>& p) const {
      return std::hash<const void*>()(p.first) * 31 + std::hash<const void*>()(p.second);
    }
  };
  /*! \brief FastEqual visits this many pairs before it tracks the Array / List pairs it meets. */
  static constexpr size_t kFastVisitsUntracked = size_t{1} << 16;

  static constexpr size_t kRingSize = 16;

  FastKind FastKindOf(int32_t type_index) {
    size_t i = static_cast<size_t>(type_index);
    if (i < fast_kinds_.size() && fast_kinds_[i] != FastKind::kUnknown) return fast_kinds_[i];
    FastKind kind = FastKind::kNotPlain;
    const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(type_index);
    // A type without a kind raises in the exact walk: left to it.
    if (info != nullptr && info->metadata != nullptr &&
        info->metadata->structural_eq_hash_kind != kTVMFFISEqHashKindUnsupported) {
      const StructuralType& type = types_.Get(type_index);
      bool in_place = !type.hook.has_value();
      for (const StructuralField& field : type.fields) {
        if (field.read == FieldRead::kGetter) in_place = false;
      }
      switch (type.kind) {
        case kTVMFFISEqHashKindUniqueInstance:
          kind = FastKind::kUniqueInstance;
          break;
        case kTVMFFISEqHashKindTreeNode:
          if (in_place) kind = FastKind::kTree;
          break;
        case kTVMFFISEqHashKindConstTreeNode:
          if (in_place) kind = FastKind::kConstTree;
          break;
        default:
          break;
      }
    }
    if (i >= fast_kinds_.size()) fast_kinds_.resize(i + 1, FastKind::kUnknown);
    fast_kinds_[i] = kind;
    return kind;
  }

  /*!
   * \brief Compare two cells that are not objects of the same type now, or
   *  queue the pair of objects.
   * \return false on a difference.
   */
  bool FastCells(const TVMFFIAny* l, const TVMFFIAny* r) {
    int32_t tl = l->type_index;
    if (tl != r->type_index) {
      int family = StringFamily(tl);
      return family >= 0 && family == StringFamily(r->type_index) && CellBytes(l) == CellBytes(r);
    }
    if (tl < kTVMFFIStaticObjectBegin) {
      if (tl == kTVMFFIFloat && std::isnan(l->v_float64)) return std::isnan(r->v_float64);
      return l->zero_padding == r->zero_padding && l->v_uint64 == r->v_uint64;
    }
    pending_.push_back(ObjectPair{CellObject(l), CellObject(r)});
    return true;
  }

  /*! \return false on a difference or a value FastEqual does not take. */
  bool FastVisit(const Object* l, const Object* r) {
    int32_t t = l->type_index();
    if (t != r->type_index()) return false;
    switch (t) {
      case kTVMFFIStr:
      case kTVMFFIBytes: {
        TVMFFIAny lc{}, rc{};
        lc.type_index = rc.type_index = t;
        lc.v_obj = const_cast<TVMFFIObject*>(reinterpret_cast<const TVMFFIObject*>(l));
        rc.v_obj = const_cast<TVMFFIObject*>(reinterpret_cast<const TVMFFIObject*>(r));
        return CellBytes(&lc) == CellBytes(&rc);
      }
      case kTVMFFIArray:
      case kTVMFFIList: {
        // A list that holds itself would be visited forever. After many visits, a pair met
        // again (a cycle, or a list shared within the value) leaves the answer to the
        // depth-first walk, which finds cycles.
        if (++fast_visits_ > kFastVisitsUntracked && !fast_seen_.emplace(l, r).second) {
          return false;
        }
        const TVMFFISeqCell* ls = SeqCell(l);
        const TVMFFISeqCell* rs = SeqCell(r);
        if (ls->size != rs->size) return false;
        const TVMFFIAny* ld = static_cast<const TVMFFIAny*>(ls->data);
        const TVMFFIAny* rd = static_cast<const TVMFFIAny*>(rs->data);
        // Pushed last to first, so that the first element comes out first.
        for (int64_t i = ls->size; i > 0; --i) {
          if (!FastCells(ld + i - 1, rd + i - 1)) return false;
        }
        return true;
      }
      case kTVMFFIShape:
        return EqualShape(static_cast<const ShapeObj*>(l), static_cast<const ShapeObj*>(r));
      case kTVMFFIBigInt:
        return BigIntWords(l) == BigIntWords(r);
      default:
        break;
    }
    if (t < kTVMFFIStaticObjectEnd) return false;
    switch (FastKindOf(t)) {
      case FastKind::kUniqueInstance:
        return l == r;
      case FastKind::kConstTree:
        if (l == r) return true;
        break;
      case FastKind::kTree:
        break;
      default:
        return false;
    }
    const std::vector<StructuralField>& fields = types_.Get(t).fields;
    for (size_t i = fields.size(); i > 0; --i) {
      if (!FastField(l, r, fields[i - 1])) return false;
    }
    return true;
  }

  /*!
   * \brief Compare one field of two objects of a plain type, read in place
   *  (as ReadField would, without touching a referenced object).
   */
  bool FastField(const Object* l, const Object* r, const StructuralField& field) {
    const char* la = reinterpret_cast<const char*>(l) + field.info->offset;
    const char* ra = reinterpret_cast<const char*>(r) + field.info->offset;
    switch (field.read) {
      case FieldRead::kAny: {
        const TVMFFIAny* lc = reinterpret_cast<const TVMFFIAny*>(la);
        const TVMFFIAny* rc = reinterpret_cast<const TVMFFIAny*>(ra);
        // Views, which the getter would convert: left to the exact walk.
        if (IsViewCell(lc->type_index) || IsViewCell(rc->type_index)) return false;
        return FastCells(lc, rc);
      }
      case FieldRead::kObject: {
        const Object* lp;
        const Object* rp;
        std::memcpy(&lp, la, sizeof(lp));
        std::memcpy(&rp, ra, sizeof(rp));
        if (lp == nullptr || rp == nullptr) return lp == rp;
        pending_.push_back(ObjectPair{lp, rp});
        return true;
      }
      case FieldRead::kInt64:
      case FieldRead::kFloat64: {
        uint64_t lb, rb;
        std::memcpy(&lb, la, sizeof(lb));
        std::memcpy(&rb, ra, sizeof(rb));
        if (field.read == FieldRead::kFloat64) {
          double ld, rd;
          std::memcpy(&ld, la, sizeof(ld));
          std::memcpy(&rd, ra, sizeof(rd));
          if (std::isnan(ld)) return std::isnan(rd);
        }
        return lb == rb;
      }
      case FieldRead::kBool:
        return (*reinterpret_cast<const uint8_t*>(la) != 0) ==
               (*reinterpret_cast<const uint8_t*>(ra) != 0);
      case FieldRead::kGetter:
        break;
    }
    return false;
  }

  static bool IsViewCell(int32_t type_index) {
    return type_index == kTVMFFIRawStr || type_index == kTVMFFIByteArrayPtr ||
           type_index == kTVMFFIObjectRValueRef;
  }

  TVMFFIDefRegionKind region_;
  bool skip_tensor_content_;
  bool record_;
  std::vector<ObjectPair> pending_;
  std::vector<FastKind> fast_kinds_;
  PointerMap<const Object*> lhs_to_rhs_;
  PointerMap<const Object*> rhs_to_lhs_;
  StructuralTypeCache& types_ = StructuralTypeCache::ForThread<kSEqualHookAttr>();
  StructuralTypeCache::Run types_run_{&types_};
  std::vector<ObjectRef> keep_alive_;
  std::vector<AccessStep> lhs_steps_;
  std::vector<AccessStep> rhs_steps_;
  /*! \brief The container pairs being compared, outermost first (shared by all walks). */
  std::vector<PairFrame> frames_;
  OpenContainers open_;
  // FastEqual's visits, and the Array / List pairs it met once it made many (see FastVisit).
  size_t fast_visits_ = 0;
  std::unordered_set<std::pair<const Object*, const Object*>, PairHash> fast_seen_;
  static constexpr int64_t kAhead = 8;
};

}  // namespace

bool Equal(const Any& lhs, const Any& rhs, bool map_free_vars, bool skip_tensor_content) {
  EqualEngine engine(map_free_vars, skip_tensor_content, false);
  const TVMFFIAny* l = AnyUnsafe::GetTVMFFIAny(lhs);
  const TVMFFIAny* r = AnyUnsafe::GetTVMFFIAny(rhs);
  return engine.FastEqual(l, r) || engine.Equal(l, r);
}

Optional<reflection::AccessPathPair> FirstMismatch(const Any& lhs, const Any& rhs,
                                                   bool map_free_vars, bool skip_tensor_content) {
  EqualEngine engine(map_free_vars, skip_tensor_content, true);
  if (engine.Equal(AnyUnsafe::GetTVMFFIAny(lhs), AnyUnsafe::GetTVMFFIAny(rhs))) {
    return std::nullopt;
  }
  return engine.MismatchPaths();
}

}  // namespace structural

bool StructuralAbiEqual(const TVMFFIAny* lhs, const TVMFFIAny* rhs, bool map_free_vars,
                        bool skip_tensor_content) {
  // The cells are owned Any values of the caller (same layout as ours); read only.
  return structural::Equal(*reinterpret_cast<const Any*>(lhs), *reinterpret_cast<const Any*>(rhs),
                           map_free_vars, skip_tensor_content);
}

TVMFFIObjectHandle StructuralAbiFirstMismatch(const TVMFFIAny* lhs, const TVMFFIAny* rhs,
                                              bool map_free_vars, bool skip_tensor_content) {
  Optional<reflection::AccessPathPair> paths = structural::FirstMismatch(
      *reinterpret_cast<const Any*>(lhs), *reinterpret_cast<const Any*>(rhs), map_free_vars,
      skip_tensor_content);
  if (!paths.has_value()) return nullptr;
  Any owned = std::move(paths.value());
  TVMFFIAny cell = AnyUnsafe::MoveAnyToTVMFFIAny(std::move(owned));
  return cell.v_obj;
}
}  // namespace detail

TVM_FFI_STATIC_INIT_BLOCK() {
  reflection::GlobalDef()
      .def("ffi.StructuralEqual",
           [](const Any& lhs, const Any& rhs, bool map_free_vars, bool skip_tensor_content) {
             return detail::structural::Equal(lhs, rhs, map_free_vars, skip_tensor_content);
           })
      .def("ffi.GetFirstStructuralMismatch",
           [](const Any& lhs, const Any& rhs, bool map_free_vars, bool skip_tensor_content) {
             return detail::structural::FirstMismatch(lhs, rhs, map_free_vars, skip_tensor_content);
           });
}

TVM_FFI_NAMESPACE_END
