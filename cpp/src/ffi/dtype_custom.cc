/*
 * Custom data type names ("custom[name]bits" parsed, "custom[name]" printed). libtvm_ffi defines no
 * custom types itself: a framework registers the two global functions that map its names to codes
 * and back, and the dtype parser and printer consult them here, at the time of each parse or print
 * (so a function registered or replaced later takes effect at once).
 */
#include "dtype_custom.h"

#include <tvm/ffi/any.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/string.h>

#include <optional>

TVM_FFI_NAMESPACE_BEGIN
namespace dtype_custom {

namespace {
Function RequireGlobal(const char* name) {
  Optional<Function> f = Function::GetGlobal(name);
  if (!f.has_value()) TVM_FFI_THROW(ValueError) << "Function " << name << " not found";
  return std::move(f).value();
}
}  // namespace

uint8_t CodeOfName(const char* name, size_t size) {
  Function f = RequireGlobal("dtype.get_custom_type_code");
  Any result = f(String(name, size));
  std::optional<int64_t> code = result.try_cast<int64_t>();
  if (!code.has_value()) {
    TVM_FFI_THROW(TypeError) << "dtype.get_custom_type_code(\"" << std::string(name, size)
                             << "\") must return an int type code, got " << result.GetTypeKey();
  }
  if (*code < 0 || *code > 255) {
    TVM_FFI_THROW(ValueError) << "dtype.get_custom_type_code(\"" << std::string(name, size)
                              << "\") returned " << *code << ", not a type code in 0..255";
  }
  return static_cast<uint8_t>(*code);
}

std::string NameOfCode(uint8_t code) {
  Function f = RequireGlobal("dtype.get_custom_type_name");
  Any result = f(static_cast<int64_t>(code));
  std::optional<String> name = result.try_cast<String>();
  if (!name.has_value()) {
    TVM_FFI_THROW(TypeError) << "dtype.get_custom_type_name(" << static_cast<int>(code)
                             << ") must return a str, got " << result.GetTypeKey();
  }
  return std::string(name->data(), name->size());
}

}  // namespace dtype_custom
TVM_FFI_NAMESPACE_END
