/*!
 * \file dtype_custom.h
 * \brief Names of custom data types (codes >= kDLExtCustomBegin), resolved through the global
 *  functions an embedding framework registers: "dtype.get_custom_type_code" (String -> int)
 *  and "dtype.get_custom_type_name" (int -> String).
 */
#ifndef TVM_FFI_SRC_FFI_DTYPE_CUSTOM_H_
#define TVM_FFI_SRC_FFI_DTYPE_CUSTOM_H_

#include <tvm/ffi/base.h>

#include <cstddef>
#include <cstdint>
#include <string>

TVM_FFI_NAMESPACE_BEGIN
namespace dtype_custom {

/*!
 * \brief The type code of the custom type called name (the text inside "custom[...]").
 * \throws Error ValueError when the framework registered no "dtype.get_custom_type_code" or its
 *  answer is not an int in 0..255; the function's own error propagates.
 */
uint8_t CodeOfName(const char* name, size_t size);

/*!
 * \brief The framework's name of a custom type code.
 * \throws Error ValueError when the framework registered no "dtype.get_custom_type_name"; the
 *  function's own error, or TypeError when it returns no string.
 */
std::string NameOfCode(uint8_t code);

}  // namespace dtype_custom
TVM_FFI_NAMESPACE_END

#endif  // TVM_FFI_SRC_FFI_DTYPE_CUSTOM_H_
