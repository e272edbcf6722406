/*
 * The bridge declared in peer_error.h that needs our Error (which the
 * stand-in files including that header cannot see). That header is not
 * included here: its tvm::ffi::Error would clash with ours.
 */
#include <tvm/ffi/error.h>

#include <exception>

TVM_FFI_NAMESPACE_BEGIN
namespace detail {

void PeerAbiRaiseCurrentException() {
  try {
    throw;
  } catch (const Error& err) {
    SetSafeCallRaised(err);
  } catch (const std::exception& ex) {
    TVMFFIErrorSetRaisedFromCStr("InternalError", ex.what());
  }
}

}  // namespace detail
TVM_FFI_NAMESPACE_END
