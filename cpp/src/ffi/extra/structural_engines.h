/*
 * The structural engines of the runtime, callable directly by other runtime
 * files (the global functions ffi.StructuralEqual / ffi.StructuralHash /
 * ffi.GetFirstStructuralMismatch wrap them).
 */
#ifndef TVM_FFI_EXTRA_STRUCTURAL_ENGINES_H_
#define TVM_FFI_EXTRA_STRUCTURAL_ENGINES_H_

#include <tvm/ffi/any.h>
#include <tvm/ffi/optional.h>
#include <tvm/ffi/reflection/access_path.h>

#include <cstdint>

TVM_FFI_NAMESPACE_BEGIN
namespace detail {
namespace structural {

/*! \brief StructuralEqual::Equal. */
bool Equal(const Any& lhs, const Any& rhs, bool map_free_vars, bool skip_tensor_content);

/*! \brief StructuralEqual::GetFirstMismatch. */
Optional<reflection::AccessPathPair> FirstMismatch(const Any& lhs, const Any& rhs,
                                                   bool map_free_vars, bool skip_tensor_content);

/*! \brief StructuralHash::Hash. */
uint64_t Hash(const Any& value, bool map_free_vars, bool skip_tensor_content);

}  // namespace structural
}  // namespace detail
TVM_FFI_NAMESPACE_END

#endif  // TVM_FFI_EXTRA_STRUCTURAL_ENGINES_H_
