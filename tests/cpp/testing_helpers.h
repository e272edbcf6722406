// Helpers shared by the gtest files: catching an expected ffi::Error and
// reading the raw cell of an Any.
#ifndef TVM_FFI_TESTS_CPP_TESTING_HELPERS_H_
#define TVM_FFI_TESTS_CPP_TESTING_HELPERS_H_

#include <gtest/gtest.h>
#include <tvm/ffi/any.h>
#include <tvm/ffi/error.h>

#include <functional>
#include <string>

namespace tvm_ffi_testing {

/*! \brief Run f and return the ffi::Error it throws (fails the test if none). */
template <typename F>
tvm::ffi::Error CatchError(F&& f) {
  try {
    f();
  } catch (const tvm::ffi::Error& e) {
    return e;
  }
  ADD_FAILURE() << "expected an ffi::Error";
  return tvm::ffi::Error("None", "no error");
}

/*! \brief Run fn, expect an ffi::Error of `kind`, and return its message. */
inline std::string ErrorMessage(const std::function<void()>& fn,
                                const std::string& kind = "TypeError") {
  try {
    fn();
  } catch (const tvm::ffi::Error& e) {
    EXPECT_EQ(e.kind(), kind);
    return e.message();
  }
  ADD_FAILURE() << "expected a " << kind;
  return "";
}

/*! \brief The raw ABI cell of a value. */
inline const TVMFFIAny* Cell(const tvm::ffi::Any& a) {
  return tvm::ffi::detail::AnyUnsafe::GetTVMFFIAny(a);
}
inline const TVMFFIAny* Cell(const tvm::ffi::AnyView& a) {
  return tvm::ffi::detail::AnyUnsafe::GetTVMFFIAny(a);
}

}  // namespace tvm_ffi_testing

#endif  // TVM_FFI_TESTS_CPP_TESTING_HELPERS_H_
