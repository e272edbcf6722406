/*
 * The C++ entry points of structural equality and hashing that libraries
 * built against the other tvm-ffi implementation's headers (the
 * apache-tvm-ffi wheel) link to in libtvm_ffi:
 * tvm::ffi::StructuralEqual::Equal / GetFirstMismatch and
 * tvm::ffi::StructuralHash::Hash (their inline StructuralKey constructor
 * calls the latter).
 *
 * Those names carry no inline namespace, unlike every class of our headers,
 * so this file declares stand-ins directly in tvm::ffi and must not include
 * our C++ headers. Any is only named (a 16-byte TVMFFIAny cell by reference);
 * the Optional<AccessPathPair> result is one owned object pointer returned
 * like the class it stands for. Each member forwards to the engines through
 * structural_abi_bridge.h, whose errors reach the caller as the reference's
 * Error (peer_error.h); cmake/libtvm_ffi.map exports the mangled names.
 */
#include <tvm/ffi/c_api.h>

#include <cstdint>

#include "../peer_error.h"
#include "structural_abi_bridge.h"

namespace tvm {
namespace ffi {

class Any;

// Named (not anonymous) so that the members returning it keep external linkage.
namespace structural_abi_shadow {
/*!
 * \brief Optional<Tuple<AccessPath, AccessPath>>: one owned object pointer,
 *  NULL when empty; non-trivially destructible, so it is returned through a
 *  hidden pointer exactly like the class it stands for.
 */
class RefResult {
 public:
  explicit RefResult(TVMFFIObjectHandle handle) : handle_(handle) {}
  RefResult(RefResult&& other) : handle_(other.handle_) { other.handle_ = nullptr; }
  RefResult(const RefResult&) = delete;
  ~RefResult() {
    if (handle_ != nullptr) TVMFFIObjectDecRef(handle_);
  }

 private:
  TVMFFIObjectHandle handle_;
};
}  // namespace structural_abi_shadow

class TVM_FFI_DLL StructuralEqual {
 public:
  static bool Equal(const Any& lhs, const Any& rhs, bool map_free_vars, bool skip_tensor_content);
  static structural_abi_shadow::RefResult GetFirstMismatch(const Any& lhs, const Any& rhs,
                                                           bool map_free_vars,
                                                           bool skip_tensor_content);
};

class TVM_FFI_DLL StructuralHash {
 public:
  static uint64_t Hash(const Any& value, bool map_free_vars, bool skip_tensor_content);
};

namespace {
const TVMFFIAny* Cell(const Any& value) { return reinterpret_cast<const TVMFFIAny*>(&value); }
}  // namespace

bool StructuralEqual::Equal(const Any& lhs, const Any& rhs, bool map_free_vars,
                            bool skip_tensor_content) {
  return peer_abi::Guarded([&] {
    return detail::StructuralAbiEqual(Cell(lhs), Cell(rhs), map_free_vars, skip_tensor_content);
  });
}

structural_abi_shadow::RefResult StructuralEqual::GetFirstMismatch(const Any& lhs, const Any& rhs,
                                                                   bool map_free_vars,
                                                                   bool skip_tensor_content) {
  return structural_abi_shadow::RefResult(peer_abi::Guarded([&] {
    return detail::StructuralAbiFirstMismatch(Cell(lhs), Cell(rhs), map_free_vars,
                                              skip_tensor_content);
  }));
}

uint64_t StructuralHash::Hash(const Any& value, bool map_free_vars, bool skip_tensor_content) {
  return peer_abi::Guarded(
      [&] { return detail::StructuralAbiHash(Cell(value), map_free_vars, skip_tensor_content); });
}

}  // namespace ffi
}  // namespace tvm
