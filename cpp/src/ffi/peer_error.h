/*
 * How the C++ entry points exported under the other implementation's names
 * (module_abi.cc, extra/structural_abi.cc, extra/extra_abi.cc) report errors.
 *
 * Their callers are compiled against the apache-tvm-ffi headers, which throw
 * and catch that implementation's tvm::ffi::Error (no inline namespace). Our
 * Error lives in our inline namespace, so it would never match their
 * `catch (const Error&)`: it would reach their TVM_FFI_SAFE_CALL_END as a
 * plain std::exception and turn into an InternalError/RuntimeError, losing
 * its kind (docs/abi.md §0: C++ exception types never match across the two).
 * So these entry points throw a stand-in class named tvm::ffi::Error with
 * the reference's layout (`: ObjectRef, std::exception`, i.e. the vptr of
 * std::exception at offset 0 and the ErrorObj handle at offset 8). The C++
 * runtime matches exception types by their mangled name, so the caller's
 * handlers catch it as its own Error and read kind/message/backtrace inline
 * from the handle. Its typeinfo and vtable stay local to libtvm_ffi
 * (cmake/libtvm_ffi.map exports neither): the caller's code defines its own.
 *
 * Include only from those files: they do not include our C++ headers, whose
 * names would clash with these.
 */
#ifndef TVM_FFI_SRC_FFI_PEER_ERROR_H_
#define TVM_FFI_SRC_FFI_PEER_ERROR_H_

#include <tvm/ffi/base.h>
#include <tvm/ffi/c_api.h>

#include <exception>

TVM_FFI_NAMESPACE_BEGIN
namespace detail {
/*!
 * \brief Call inside a catch block: store the exception being handled as the
 *  thread's raised error (our Error as it is, another std::exception as an
 *  InternalError with its what()). Any other exception is rethrown.
 */
void PeerAbiRaiseCurrentException();
}  // namespace detail
TVM_FFI_NAMESPACE_END

namespace tvm {
namespace ffi {
namespace peer_abi {
/*! \brief Stand-in of the reference's ObjectRef base: one object handle, no vtable. */
class ErrorRefBase {
 protected:
  TVMFFIObjectHandle data_ = nullptr;
};
}  // namespace peer_abi

/*! \brief The reference's tvm::ffi::Error, as its callers catch it (see above). */
class Error : public peer_abi::ErrorRefBase, public std::exception {
 public:
  /*! \brief Takes over an owned ErrorObj handle. */
  explicit Error(TVMFFIObjectHandle owned) { data_ = owned; }
  Error(const Error& other) : peer_abi::ErrorRefBase(other), std::exception(other) {
    if (data_ != nullptr) TVMFFIObjectIncRef(data_);
  }
  Error& operator=(const Error&) = delete;
  ~Error() override {
    if (data_ != nullptr) TVMFFIObjectDecRef(data_);
  }
  /*! \brief The message only, as the reference's what(). */
  const char* what() const noexcept override {
    return data_ == nullptr ? "" : TVMFFIErrorGetCellPtr(data_)->message.data;
  }
};

namespace peer_abi {
/*! \brief Throw the thread's raised error (TVMFFIErrorMoveFromRaised) as the reference's Error. */
[[noreturn]] inline void ThrowRaised() {
  TVMFFIObjectHandle err = nullptr;
  TVMFFIErrorMoveFromRaised(&err);
  if (err == nullptr) {
    TVMFFIErrorSetRaisedFromCStr("InternalError", "an FFI call failed without raising an error");
    TVMFFIErrorMoveFromRaised(&err);
  }
  throw Error(err);
}

/*!
 * \brief f(), with our Error (and other std::exception) thrown inside turned
 *  into the reference's Error; one already of that type (a callee built
 *  against the reference headers threw it) passes unchanged.
 */
template <typename F>
auto Guarded(F&& f) -> decltype(f()) {
  try {
    return f();
  } catch (const Error&) {
    throw;
  } catch (...) {
    ::tvm::ffi::detail::PeerAbiRaiseCurrentException();
  }
  ThrowRaised();
}
}  // namespace peer_abi
}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_SRC_FFI_PEER_ERROR_H_
