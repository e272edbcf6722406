/*
 * The JSON parser and printer inside libtvm_ffi (json.cc), for other runtime
 * files; code outside the runtime uses tvm/ffi/extra/json.h.
 */
#ifndef TVM_FFI_SRC_FFI_EXTRA_JSON_IMPL_H_
#define TVM_FFI_SRC_FFI_EXTRA_JSON_IMPL_H_

#include <tvm/ffi/any.h>
#include <tvm/ffi/optional.h>
#include <tvm/ffi/string.h>

TVM_FFI_NAMESPACE_BEGIN
namespace detail {
namespace json_impl {

/*! \brief json::Parse without the error_msg form: always throws ValueError on bad input. */
Any Parse(const String& s);

/*! \brief json::Stringify. */
String Stringify(const Any& value, const Optional<int>& indent = std::nullopt);

}  // namespace json_impl
}  // namespace detail
TVM_FFI_NAMESPACE_END

#endif  // TVM_FFI_SRC_FFI_EXTRA_JSON_IMPL_H_
