/*
 * Structural hash, consistent with StructuralEqual and identical across
 * implementations of the ABI (cached hashes may be compared between them).
 *
 *   uint64_t h = StructuralHash::Hash(value);                       // or StructuralHash()(value)
 *   uint64_t alpha = StructuralHash::Hash(value, true);  // map_free_vars = true
 *
 * A type without structural metadata (or with kind Unsupported) raises
 * TypeError. The engine lives in the runtime; Hash calls it through the
 * global function ffi.StructuralHash, so code built against this header runs
 * on any runtime of the ABI.
 */
#ifndef TVM_FFI_EXTRA_STRUCTURAL_HASH_H_
#define TVM_FFI_EXTRA_STRUCTURAL_HASH_H_

#include <tvm/ffi/any.h>
#include <tvm/ffi/function.h>

#include <cstdint>

TVM_FFI_NAMESPACE_BEGIN

/*! \brief Structural hash (also usable as a functor, e.g. for hash tables). */
class StructuralHash {
 public:
  /*!
   * \param map_free_vars Start in a pattern definition region: free variables
   *  hash by order of first occurrence instead of by identity.
   * \param skip_tensor_content Hash tensors by shape and dtype only.
   */
  static uint64_t Hash(const Any& value, bool map_free_vars = false,
                       bool skip_tensor_content = false) {
    // Looked up once and kept for the life of the process.
    static const Function* f = new Function(Function::GetGlobalRequired("ffi.StructuralHash"));
    return static_cast<uint64_t>((*f)(value, map_free_vars, skip_tensor_content).cast<int64_t>());
  }

  uint64_t operator()(const Any& value) const { return Hash(value); }
};

TVM_FFI_NAMESPACE_END

#endif  // TVM_FFI_EXTRA_STRUCTURAL_HASH_H_
