// Calls json::Parse / Stringify, ToJSONGraph / FromJSONGraph, DeepCopy, ReprPrint and the
// Recursive* comparisons from compiled code. Built with the wheel's headers, these link to C++
// entry points of libtvm_ffi, so loading it under our runtime checks that ours exports them under
// the wheel's names.
#include <tvm/ffi/any.h>
#include <tvm/ffi/extra/dataclass.h>
#include <tvm/ffi/extra/json.h>
#include <tvm/ffi/extra/module.h>
#include <tvm/ffi/extra/serialization.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/string.h>

#include <cstdint>

namespace ffi = tvm::ffi;

namespace {

ffi::Any JsonParse(ffi::String text) { return ffi::json::Parse(text); }

// The stored error message of a bad text ("" when it parsed).
ffi::String JsonParseError(ffi::String text) {
  ffi::String error;
  ffi::json::Parse(text, &error);
  return error;
}

ffi::String JsonStringify(ffi::Any value, int64_t indent) {
  if (indent < 0) return ffi::json::Stringify(value);
  return ffi::json::Stringify(value, static_cast<int>(indent));
}

ffi::Any GraphRoundTrip(ffi::Any value) {
  return ffi::FromJSONGraph(ffi::ToJSONGraph(value, ffi::Any(nullptr)));
}

ffi::Any DeepCopyOf(ffi::Any value) { return ffi::DeepCopy(value); }
ffi::String ReprOf(ffi::Any value) { return ffi::ReprPrint(value); }
int64_t RecursiveHashOf(ffi::Any value) { return ffi::RecursiveHash(value); }

// The five comparisons of lhs and rhs as one bit each (Eq, Lt, Le, Gt, Ge).
int64_t CompareBits(ffi::Any lhs, ffi::Any rhs) {
  return int64_t(ffi::RecursiveEq(lhs, rhs)) | int64_t(ffi::RecursiveLt(lhs, rhs)) << 1 |
         int64_t(ffi::RecursiveLe(lhs, rhs)) << 2 | int64_t(ffi::RecursiveGt(lhs, rhs)) << 3 |
         int64_t(ffi::RecursiveGe(lhs, rhs)) << 4;
}

// What this library's own `catch (const Error&)` sees of a json::Parse failure ("none" if none).
ffi::String CaughtJsonParseError(ffi::String text) {
  try {
    ffi::json::Parse(text);
  } catch (const ffi::Error& err) {
    return err.kind() + ": " + err.message() + " | what: " + err.what();
  }
  return "none";
}

// Loading a library that does not exist, through the Module::LoadFromFile entry point.
ffi::Module LoadModule(ffi::String path) { return ffi::Module::LoadFromFile(path); }

}  // namespace

TVM_FFI_DLL_EXPORT_TYPED_FUNC(caught_json_parse_error, CaughtJsonParseError);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(load_module, LoadModule);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(json_parse, JsonParse);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(json_parse_error, JsonParseError);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(json_stringify, JsonStringify);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(graph_round_trip, GraphRoundTrip);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(deep_copy_of, DeepCopyOf);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(repr_of, ReprOf);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(recursive_hash_of, RecursiveHashOf);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(compare_bits, CompareBits);
