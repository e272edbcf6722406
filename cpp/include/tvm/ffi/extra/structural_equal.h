/*
 * Structural equality of values: containers by content, objects by their
 * reflected fields according to the type's structural kind (tree, DAG,
 * free variable, ...), with variables mapped inside definition regions.
 *
 *   bool same = StructuralEqual::Equal(lhs, rhs);  // or StructuralEqual()(lhs, rhs)
 *   bool alpha = StructuralEqual::Equal(lhs, rhs, true);  // map_free_vars = true
 *   Optional<reflection::AccessPathPair> where = StructuralEqual::GetFirstMismatch(lhs, rhs);
 *   // e.g. (<root>.body[2], <root>.body[<missing:2>])
 *
 * A type without structural metadata (or with kind Unsupported) raises
 * TypeError. The engine lives in the runtime; these members call it through
 * the global functions ffi.StructuralEqual / ffi.GetFirstStructuralMismatch,
 * so code built against this header runs on any runtime of the ABI.
 */
#ifndef TVM_FFI_EXTRA_STRUCTURAL_EQUAL_H_
#define TVM_FFI_EXTRA_STRUCTURAL_EQUAL_H_

#include <tvm/ffi/any.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/optional.h>
#include <tvm/ffi/reflection/access_path.h>

TVM_FFI_NAMESPACE_BEGIN

/*! \brief Structural equality (also usable as a functor, e.g. for hash tables). */
class StructuralEqual {
 public:
  /*!
   * \param map_free_vars Start in a pattern definition region: free variables
   *  bind to each other on first occurrence instead of comparing by identity.
   * \param skip_tensor_content Compare tensors by shape and dtype only.
   */
  static bool Equal(const Any& lhs, const Any& rhs, bool map_free_vars = false,
                    bool skip_tensor_content = false) {
    // Looked up once and kept for the life of the process.
    static const Function* f = new Function(Function::GetGlobalRequired("ffi.StructuralEqual"));
    return (*f)(lhs, rhs, map_free_vars, skip_tensor_content).cast<bool>();
  }

  /*! \return The paths (lhs, rhs) of the first difference, or nullopt when equal. */
  static Optional<reflection::AccessPathPair> GetFirstMismatch(const Any& lhs, const Any& rhs,
                                                               bool map_free_vars = false,
                                                               bool skip_tensor_content = false) {
    // Looked up once and kept for the life of the process.
    static const Function* f =
        new Function(Function::GetGlobalRequired("ffi.GetFirstStructuralMismatch"));
    return (*f)(lhs, rhs, map_free_vars, skip_tensor_content)
        .cast<Optional<reflection::AccessPathPair>>();
  }

  bool operator()(const Any& lhs, const Any& rhs) const { return Equal(lhs, rhs); }
};

TVM_FFI_NAMESPACE_END

#endif  // TVM_FFI_EXTRA_STRUCTURAL_EQUAL_H_
