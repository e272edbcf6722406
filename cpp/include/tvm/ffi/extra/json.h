/*
 * JSON text <-> FFI values.
 *
 *   json::Value v = json::Parse("{\"a\": [1, 2.5, null]}");  // Map{"a": Array{1, 2.5, None}}
 *   String compact = json::Stringify(v);                    // {"a":[1,2.5,null]}
 *   String pretty = json::Stringify(v, 2);                  // two-space indentation
 *
 * Objects parse to Map<Any, Any> (insertion order; a repeated key keeps its
 * last value), arrays to Array<Any>, strings to String, true/false to bool,
 * null to None, numbers to int64 when written without '.', 'e' or 'E' and in
 * range, otherwise to double. NaN, Infinity and -Infinity are accepted and
 * printed. Errors are ValueError "<what>: line L column C (char P)".
 *
 * Both run in libtvm_ffi (globals ffi.json.Parse / ffi.json.Stringify); these
 * inline wrappers call them, so no C++ symbol crosses the library boundary.
 */
#ifndef TVM_FFI_EXTRA_JSON_H_
#define TVM_FFI_EXTRA_JSON_H_

#include <tvm/ffi/any.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/map.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/optional.h>
#include <tvm/ffi/string.h>

TVM_FFI_NAMESPACE_BEGIN
namespace json {

/*! \brief Any JSON value: None, bool, int, float, String, Array or Map. */
using Value = Any;
/*! \brief A JSON object. */
using Object = ::tvm::ffi::Map<Any, Any>;
/*! \brief A JSON array. */
using Array = ::tvm::ffi::Array<Any>;

/*!
 * \brief Parse JSON text.
 * \param s The text.
 * \param error_msg When non-NULL, a parse error is stored here (and None
 *  returned) instead of being thrown.
 * \return The value.
 * \throws Error ValueError "<what>: line L column C (char P)" on bad input
 *  when error_msg is NULL.
 */
inline Value Parse(const String& s, String* error_msg = nullptr) {
  static const Function parse = Function::GetGlobalRequired("ffi.json.Parse");
  if (error_msg == nullptr) return parse(s);
  try {
    return parse(s);
  } catch (const Error& e) {
    if (e.kind() != "ValueError") throw;
    *error_msg = e.message();
    return Value(nullptr);
  }
}

/*!
 * \brief Print a JSON value.
 * \param value None, bool, int, float, String, Array, List or Map with string keys.
 * \param indent Absent or 0: compact; n > 0: one item per line, n spaces per level.
 * \return The text.
 * \throws Error ValueError for values JSON cannot hold ("Unsupported type: `<key>`",
 *  a non-string key, a List that contains itself).
 */
inline String Stringify(const Value& value, const Optional<int>& indent = std::nullopt) {
  static const Function stringify = Function::GetGlobalRequired("ffi.json.Stringify");
  return stringify(value, indent).cast<String>();
}

}  // namespace json
TVM_FFI_NAMESPACE_END

#endif  // TVM_FFI_EXTRA_JSON_H_
