/*
 * StructuralKey: a value wrapped so that hash tables compare it structurally.
 *
 *   Map<StructuralKey, int> m;
 *   m.Set(StructuralKey(Array<int>{1, 2}), 1);
 *   m.count(StructuralKey(Array<int>{1, 2}));            // 1: a different but equal array
 *   std::unordered_set<StructuralKey> seen;              // std::hash uses hash_i64
 *
 * The object ("ffi.StructuralKey", final) holds the key (Any @24) and its
 * structural hash (int64 @40), computed once. Its type registers the
 * __any_hash__ / __any_equal__ hooks, so Map and Dict (AnyHash / AnyEqual)
 * treat structurally equal keys as one key. The type itself has structural
 * kind Unsupported: structural equality of StructuralKey objects raises.
 */
#ifndef TVM_FFI_EXTRA_STRUCTURAL_KEY_H_
#define TVM_FFI_EXTRA_STRUCTURAL_KEY_H_

#include <tvm/ffi/any.h>
#include <tvm/ffi/extra/structural_equal.h>
#include <tvm/ffi/extra/structural_hash.h>
#include <tvm/ffi/memory.h>
#include <tvm/ffi/object.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <utility>

TVM_FFI_NAMESPACE_BEGIN

/*! \brief The key and its structural hash. */
class StructuralKeyObj : public Object {
 public:
  Any key;
  int64_t hash_i64 = 0;

  StructuralKeyObj() = default;
  /*! \brief Wrap key and compute its structural hash (TypeError for unsupported types). */
  explicit StructuralKeyObj(Any key)
      : key(std::move(key)), hash_i64(static_cast<int64_t>(StructuralHash::Hash(this->key))) {}

  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("ffi.StructuralKey", StructuralKeyObj, Object);
};

/*! \brief Reference to a StructuralKeyObj (never null). */
class StructuralKey : public ObjectRef {
 public:
  explicit StructuralKey(Any key) : ObjectRef(make_object<StructuralKeyObj>(std::move(key))) {}

  /*! \return Whether both are the same object, or have equal hashes and equal keys. */
  bool operator==(const StructuralKey& other) const {
    if (same_as(other)) return true;
    return get()->hash_i64 == other->hash_i64 && StructuralEqual::Equal(get()->key, other->key);
  }
  bool operator!=(const StructuralKey& other) const { return !(*this == other); }

  TVM_FFI_DEFINE_OBJECT_REF_METHODS_NOTNULLABLE(StructuralKey, ObjectRef, StructuralKeyObj);
};

TVM_FFI_NAMESPACE_END

namespace std {
template <>
struct hash<::tvm::ffi::StructuralKey> {
  size_t operator()(const ::tvm::ffi::StructuralKey& key) const {
    return static_cast<size_t>(key->hash_i64);
  }
};
}  // namespace std

#endif  // TVM_FFI_EXTRA_STRUCTURAL_KEY_H_
