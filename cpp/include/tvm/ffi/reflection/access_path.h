/*
 * AccessPath: where a value sits inside a structure, as a chain of steps from
 * the root (attribute, array item, map item, or the "missing" forms that name
 * a position one side of a comparison lacks). Structural equality reports its
 * first mismatch as a pair of paths; visit error contexts locate nodes with
 * them.
 *
 *   AccessPath p = AccessPath::Root()->Attr("body")->ArrayItem(2)->MapItem(String("k"));
 *   // repr: <root>.body[2]["k"]
 *   Array<AccessStep> steps = p->ToSteps();          // root to leaf
 *   bool prefix = AccessPath::Root()->Attr("body")->IsPrefixOf(p);   // true
 *
 * Both object types ("ffi.reflection.AccessStep", "ffi.reflection.AccessPath")
 * are final const-tree nodes whose layouts are fixed by the ABI: AccessStep
 * holds `kind` (int32 @24) and `key` (Any @32); AccessPath holds `parent`
 * (@24), `step` (@32) and `depth` (int32 @40, 0 at the root). Paths share
 * their prefixes. Every member is defined in this header; the runtime
 * registers the reflection (fields, methods, repr hooks).
 */
#ifndef TVM_FFI_REFLECTION_ACCESS_PATH_H_
#define TVM_FFI_REFLECTION_ACCESS_PATH_H_

#include <tvm/ffi/any.h>
#include <tvm/ffi/c_api.h>
#include <tvm/ffi/cast.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/tuple.h>
#include <tvm/ffi/memory.h>
#include <tvm/ffi/object.h>
#include <tvm/ffi/optional.h>
#include <tvm/ffi/string.h>

#include <cstdint>
#include <utility>
#include <vector>

TVM_FFI_NAMESPACE_BEGIN
namespace reflection {

/*! \brief What one access step does; the values are part of the ABI. */
enum class AccessKind : int32_t {
  kAttr = 0,
  kArrayItem = 1,
  kMapItem = 2,
  /*! \brief The attribute is absent on this side. */
  kAttrMissing = 3,
  /*! \brief The index is past the end of the sequence on this side. */
  kArrayItemMissing = 4,
  /*! \brief The key is absent from the map on this side. */
  kMapItemMissing = 5,
};

class AccessStep;

/*! \brief One step: a kind and its key (a String name, an int64 index or any map key). */
class AccessStepObj : public Object {
 public:
  AccessKind kind = AccessKind::kAttr;
  Any key;

  /*! \brief An attribute step with a None key (reflection creates steps this way, then fills). */
  AccessStepObj() = default;
  AccessStepObj(AccessKind kind, Any key) : kind(kind), key(std::move(key)) {}

  /*! \return Whether both steps have the same kind and equal keys (AnyEqual). */
  inline bool StepEqual(const AccessStep& other) const;

  static constexpr TVMFFISEqHashKind _type_s_eq_hash_kind = kTVMFFISEqHashKindConstTreeNode;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("ffi.reflection.AccessStep", AccessStepObj, Object);
};

/*! \brief Reference to an AccessStepObj (never null). */
class AccessStep : public ObjectRef {
 public:
  AccessStep(AccessKind kind, Any key)
      : ObjectRef(make_object<AccessStepObj>(kind, std::move(key))) {}

  static AccessStep Attr(String name) { return AccessStep(AccessKind::kAttr, std::move(name)); }
  static AccessStep AttrMissing(String name) {
    return AccessStep(AccessKind::kAttrMissing, std::move(name));
  }
  static AccessStep ArrayItem(int64_t index) { return AccessStep(AccessKind::kArrayItem, index); }
  static AccessStep ArrayItemMissing(int64_t index) {
    return AccessStep(AccessKind::kArrayItemMissing, index);
  }
  static AccessStep MapItem(Any key) { return AccessStep(AccessKind::kMapItem, std::move(key)); }
  static AccessStep MapItemMissing(Any key = Any()) {
    return AccessStep(AccessKind::kMapItemMissing, std::move(key));
  }

  TVM_FFI_DEFINE_OBJECT_REF_METHODS_NOTNULLABLE(AccessStep, ObjectRef, AccessStepObj);
};

inline bool AccessStepObj::StepEqual(const AccessStep& other) const {
  return kind == other->kind && AnyEqual()(key, other->key);
}

class AccessPath;

/*!
 * \brief A path: the parent path plus the last step; the root has neither
 *  (`parent` is an ObjectRef because AccessPath is declared after this class).
 */
class AccessPathObj : public Object {
 public:
  Optional<ObjectRef> parent;
  Optional<AccessStep> step;
  int32_t depth = 0;

  /*! \brief The root path (reflection creates paths this way, then fills). */
  AccessPathObj() = default;
  AccessPathObj(Optional<ObjectRef> parent, Optional<AccessStep> step, int32_t depth)
      : parent(std::move(parent)), step(std::move(step)), depth(depth) {}

  /*! \return The parent path; empty at the root. */
  inline Optional<AccessPath> GetParent() const;
  /*! \return This path followed by step. */
  inline AccessPath Extend(AccessStep step) const;
  inline AccessPath Attr(String name) const;
  inline AccessPath AttrMissing(String name) const;
  inline AccessPath ArrayItem(int64_t index) const;
  inline AccessPath ArrayItemMissing(int64_t index) const;
  inline AccessPath MapItem(Any key) const;
  inline AccessPath MapItemMissing(Any key = Any()) const;
  /*! \return The steps from the root to this path (empty at the root). */
  inline Array<AccessStep> ToSteps() const;
  /*! \return Whether other has the same depth and step-wise equal steps. */
  inline bool PathEqual(const AccessPath& other) const;
  /*! \return Whether this path is other or one of its ancestors. */
  inline bool IsPrefixOf(const AccessPath& other) const;

  static constexpr TVMFFISEqHashKind _type_s_eq_hash_kind = kTVMFFISEqHashKindConstTreeNode;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("ffi.reflection.AccessPath", AccessPathObj, Object);
};

/*! \brief Reference to an AccessPathObj (never null). */
class AccessPath : public ObjectRef {
 public:
  /*! \return A new root path. */
  static AccessPath Root() { return AccessPath(make_object<AccessPathObj>()); }
  /*! \return Root() extended by each step in order. */
  static AccessPath FromSteps(const Array<AccessStep>& steps) {
    return FromSteps(steps.begin(), steps.end());
  }
  /*! \return Root() extended by each step of [begin, end) in order. */
  template <typename Iter>
  static AccessPath FromSteps(Iter begin, Iter end) {
    AccessPath path = Root();
    for (; begin != end; ++begin) path = path->Extend(*begin);
    return path;
  }

  TVM_FFI_DEFINE_OBJECT_REF_METHODS_NOTNULLABLE(AccessPath, ObjectRef, AccessPathObj);

 private:
  explicit AccessPath(ObjectPtr<AccessPathObj> n) : ObjectRef(std::move(n)) {}
  friend class AccessPathObj;
};

/*! \brief The two paths of a first structural mismatch (lhs, rhs). */
using AccessPathPair = Tuple<AccessPath, AccessPath>;

inline Optional<AccessPath> AccessPathObj::GetParent() const {
  if (!parent.has_value()) return std::nullopt;
  return GetRef<AccessPath>(static_cast<const AccessPathObj*>(parent.value().get()));
}

inline AccessPath AccessPathObj::Extend(AccessStep step) const {
  return AccessPath(
      make_object<AccessPathObj>(GetRef<ObjectRef>(this), std::move(step), depth + 1));
}

inline AccessPath AccessPathObj::Attr(String name) const {
  return Extend(AccessStep::Attr(std::move(name)));
}
inline AccessPath AccessPathObj::AttrMissing(String name) const {
  return Extend(AccessStep::AttrMissing(std::move(name)));
}
inline AccessPath AccessPathObj::ArrayItem(int64_t index) const {
  return Extend(AccessStep::ArrayItem(index));
}
inline AccessPath AccessPathObj::ArrayItemMissing(int64_t index) const {
  return Extend(AccessStep::ArrayItemMissing(index));
}
inline AccessPath AccessPathObj::MapItem(Any key) const {
  return Extend(AccessStep::MapItem(std::move(key)));
}
inline AccessPath AccessPathObj::MapItemMissing(Any key) const {
  return Extend(AccessStep::MapItemMissing(std::move(key)));
}

inline Array<AccessStep> AccessPathObj::ToSteps() const {
  std::vector<AccessStep> steps;
  steps.reserve(depth > 0 ? static_cast<size_t>(depth) : 0);
  for (const AccessPathObj* p = this; p != nullptr && p->step.has_value();
       p = p->parent.has_value() ? static_cast<const AccessPathObj*>(p->parent.value().get())
                                 : nullptr) {
    steps.push_back(p->step.value());
  }
  return Array<AccessStep>(steps.rbegin(), steps.rend());
}

inline bool AccessPathObj::PathEqual(const AccessPath& other) const {
  const AccessPathObj* a = this;
  const AccessPathObj* b = other.get();
  if (a->depth != b->depth) return false;
  // Equal depths walk up in lockstep; a shared ancestor ends the comparison.
  while (a != b) {
    if (a->step.has_value() != b->step.has_value()) return false;
    if (!a->step.has_value()) return true;
    if (!a->step.value()->StepEqual(b->step.value())) return false;
    a = a->parent.has_value() ? static_cast<const AccessPathObj*>(a->parent.value().get())
                              : nullptr;
    b = b->parent.has_value() ? static_cast<const AccessPathObj*>(b->parent.value().get())
                              : nullptr;
    if (a == nullptr || b == nullptr) return a == b;
  }
  return true;
}

inline bool AccessPathObj::IsPrefixOf(const AccessPath& other) const {
  const AccessPathObj* b = other.get();
  if (depth > b->depth) return false;
  while (b->depth > depth) {
    if (!b->parent.has_value()) return false;
    b = static_cast<const AccessPathObj*>(b->parent.value().get());
  }
  return PathEqual(GetRef<AccessPath>(b));
}

}  // namespace reflection
TVM_FFI_NAMESPACE_END

#endif  // TVM_FFI_REFLECTION_ACCESS_PATH_H_
