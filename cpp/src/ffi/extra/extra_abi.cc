/*
 * The C++ entry points of JSON, serialization, DeepCopy, ReprPrint and the recursive comparisons
 * that libraries built against the other tvm-ffi implementation's headers (the apache-tvm-ffi
 * wheel) link to in libtvm_ffi: tvm::ffi::json::Parse / Stringify, tvm::ffi::ToJSONGraph /
 * FromJSONGraph, tvm::ffi::DeepCopy, tvm::ffi::ReprPrint, tvm::ffi::RecursiveEq/Lt/Le/Gt/Ge and
 * tvm::ffi::RecursiveHash, and tvm::ffi::VisitErrorContext::FindAccessPaths. Our own headers reach
 * the same engines through the global functions ("ffi.json.Parse", "ffi.DeepCopy", ...), so each
 * stand-in here calls that global through the C ABI.
 *
 * Those names carry no inline namespace, unlike every class of our headers, so this file declares
 * stand-ins directly in tvm::ffi and must not include our C++ headers (as structural_abi.cc). Any
 * and String are one owned 16-byte TVMFFIAny cell in both implementations, Optional<int> one cell
 * holding None or an Int; results of those types are returned through a hidden pointer, so the
 * stand-ins are non-trivial classes of the same size; an ObjectRef (Array<AccessPath>) is one owned
 * object handle, returned the same way. Errors are thrown as the reference's Error
 * (peer_error.h), so that the callers' handlers see their kind.
 * cmake/libtvm_ffi.map exports the mangled names.
 */
#include <tvm/ffi/c_api.h>

#include <cstdint>
#include <cstring>

#include "../peer_error.h"

namespace tvm {
namespace ffi {

class Any;
class String;
template <typename T, typename Enable>
class Optional;

// Named (not anonymous) so that the functions returning it keep external linkage.
namespace extra_abi_shadow {
/*! \brief An owned value cell returned like Any / String (through a hidden pointer). */
class CellResult {
 public:
  explicit CellResult(const TVMFFIAny& cell) : cell_(cell) {}
  CellResult(CellResult&& other) : cell_(other.cell_) { other.cell_.type_index = kTVMFFINone; }
  CellResult(const CellResult&) = delete;
  ~CellResult() {
    if (cell_.type_index >= kTVMFFIStaticObjectBegin) TVMFFIObjectDecRef(cell_.v_obj);
  }

 private:
  TVMFFIAny cell_;
};
static_assert(sizeof(CellResult) == sizeof(TVMFFIAny), "a value cell is 16 bytes");

/*! \brief An owned object handle returned like an ObjectRef (through a hidden pointer). */
class HandleResult {
 public:
  explicit HandleResult(TVMFFIObjectHandle handle) : handle_(handle) {}
  HandleResult(HandleResult&& other) : handle_(other.handle_) { other.handle_ = nullptr; }
  HandleResult(const HandleResult&) = delete;
  ~HandleResult() {
    if (handle_ != nullptr) TVMFFIObjectDecRef(handle_);
  }

 private:
  TVMFFIObjectHandle handle_;
};
static_assert(sizeof(HandleResult) == sizeof(void*), "an ObjectRef is one handle");
}  // namespace extra_abi_shadow

using extra_abi_shadow::CellResult;
using extra_abi_shadow::HandleResult;

class ObjectRef;

/*! \brief Stand-in of the reference's VisitErrorContext (an ObjectRef): its one static member. */
class VisitErrorContext {
 public:
  TVM_FFI_DLL static HandleResult FindAccessPaths(const ObjectRef& root,
                                                  const VisitErrorContext& ctx,
                                                  bool allow_prefix_match);
};

namespace {

const TVMFFIAny* Cell(const void* value) { return static_cast<const TVMFFIAny*>(value); }

TVMFFIAny NoneCell() {
  TVMFFIAny cell;
  std::memset(&cell, 0, sizeof(cell));
  cell.type_index = kTVMFFINone;
  return cell;
}

/*! \brief The function registered as `name` (kept for the process, like a static Function). */
TVMFFIObjectHandle LookupGlobal(const char* name) {
  TVMFFIByteArray bytes{name, std::strlen(name)};
  TVMFFIObjectHandle handle = nullptr;
  if (TVMFFIFunctionGetGlobal(&bytes, &handle) != 0) peer_abi::ThrowRaised();
  if (handle == nullptr) {
    TVMFFIErrorSetRaisedFromCStr("RuntimeError", name);
    peer_abi::ThrowRaised();
  }
  return handle;
}

/*! \brief Call f on borrowed argument cells; the owned result, or -1 with the error raised. */
int CallRaw(TVMFFIObjectHandle f, const TVMFFIAny* args, int32_t num_args, TVMFFIAny* result) {
  *result = NoneCell();
  return TVMFFIFunctionCall(f, const_cast<TVMFFIAny*>(args), num_args, result);
}

TVMFFIAny Call(TVMFFIObjectHandle f, const TVMFFIAny* args, int32_t num_args) {
  TVMFFIAny result;
  if (CallRaw(f, args, num_args, &result) != 0) peer_abi::ThrowRaised();
  return result;
}

TVMFFIAny Call1(TVMFFIObjectHandle f, const void* a) { return Call(f, Cell(a), 1); }

TVMFFIAny Call2(TVMFFIObjectHandle f, const void* a, const void* b) {
  TVMFFIAny args[2] = {*Cell(a), *Cell(b)};
  return Call(f, args, 2);
}

bool CallBool(TVMFFIObjectHandle f, const Any& lhs, const Any& rhs) {
  return Call2(f, &lhs, &rhs).v_int64 != 0;
}

}  // namespace

TVM_FFI_DLL CellResult DeepCopy(const Any& value);
TVM_FFI_DLL CellResult ReprPrint(const Any& value);
TVM_FFI_DLL int64_t RecursiveHash(const Any& value);
TVM_FFI_DLL bool RecursiveEq(const Any& lhs, const Any& rhs);
TVM_FFI_DLL bool RecursiveLt(const Any& lhs, const Any& rhs);
TVM_FFI_DLL bool RecursiveLe(const Any& lhs, const Any& rhs);
TVM_FFI_DLL bool RecursiveGt(const Any& lhs, const Any& rhs);
TVM_FFI_DLL bool RecursiveGe(const Any& lhs, const Any& rhs);
TVM_FFI_DLL CellResult ToJSONGraph(const Any& value, const Any& metadata);
TVM_FFI_DLL CellResult FromJSONGraph(const Any& value);

CellResult DeepCopy(const Any& value) {
  static TVMFFIObjectHandle f = LookupGlobal("ffi.DeepCopy");
  return CellResult(Call1(f, &value));
}

CellResult ReprPrint(const Any& value) {
  static TVMFFIObjectHandle f = LookupGlobal("ffi.ReprPrint");
  return CellResult(Call1(f, &value));
}

int64_t RecursiveHash(const Any& value) {
  static TVMFFIObjectHandle f = LookupGlobal("ffi.RecursiveHash");
  return Call1(f, &value).v_int64;
}

bool RecursiveEq(const Any& lhs, const Any& rhs) {
  static TVMFFIObjectHandle f = LookupGlobal("ffi.RecursiveEq");
  return CallBool(f, lhs, rhs);
}

bool RecursiveLt(const Any& lhs, const Any& rhs) {
  static TVMFFIObjectHandle f = LookupGlobal("ffi.RecursiveLt");
  return CallBool(f, lhs, rhs);
}

bool RecursiveLe(const Any& lhs, const Any& rhs) {
  static TVMFFIObjectHandle f = LookupGlobal("ffi.RecursiveLe");
  return CallBool(f, lhs, rhs);
}

bool RecursiveGt(const Any& lhs, const Any& rhs) {
  static TVMFFIObjectHandle f = LookupGlobal("ffi.RecursiveGt");
  return CallBool(f, lhs, rhs);
}

bool RecursiveGe(const Any& lhs, const Any& rhs) {
  static TVMFFIObjectHandle f = LookupGlobal("ffi.RecursiveGe");
  return CallBool(f, lhs, rhs);
}

CellResult ToJSONGraph(const Any& value, const Any& metadata) {
  static TVMFFIObjectHandle f = LookupGlobal("ffi.ToJSONGraph");
  return CellResult(Call2(f, &value, &metadata));
}

CellResult FromJSONGraph(const Any& value) {
  static TVMFFIObjectHandle f = LookupGlobal("ffi.FromJSONGraph");
  return CellResult(Call1(f, &value));
}

namespace {
/*! \brief An ObjectRef argument (one handle, possibly null) as a borrowed value cell. */
TVMFFIAny ObjectRefCell(const void* ref) {
  TVMFFIAny cell = NoneCell();
  TVMFFIObjectHandle handle = *static_cast<const TVMFFIObjectHandle*>(ref);
  if (handle != nullptr) {
    cell.type_index = static_cast<TVMFFIObject*>(handle)->type_index;
    cell.v_obj = static_cast<TVMFFIObject*>(handle);
  }
  return cell;
}
}  // namespace

HandleResult VisitErrorContext::FindAccessPaths(const ObjectRef& root, const VisitErrorContext& ctx,
                                                bool allow_prefix_match) {
  static TVMFFIObjectHandle f = LookupGlobal("ffi.VisitErrorContext.FindAccessPaths");
  TVMFFIAny args[3] = {ObjectRefCell(&root), ObjectRefCell(&ctx), NoneCell()};
  args[2].type_index = kTVMFFIBool;
  args[2].v_int64 = allow_prefix_match ? 1 : 0;
  TVMFFIAny result = Call(f, args, 3);
  // The global returns an Array (never None); anything else would not be an ObjectRef.
  if (result.type_index < kTVMFFIStaticObjectBegin) return HandleResult(nullptr);
  return HandleResult(result.v_obj);
}

namespace json {

TVM_FFI_DLL CellResult Parse(const String& text, String* error_msg);
TVM_FFI_DLL CellResult Stringify(const Any& value, const Optional<int, void>& indent);

namespace {
bool ByteArrayEquals(const TVMFFIByteArray& bytes, const char* text) {
  return bytes.size == std::strlen(text) && std::memcmp(bytes.data, text, bytes.size) == 0;
}
}  // namespace

/*
 * With error_msg, a ValueError of the parser is stored there (a String cell, released first) and
 * None returned; any other error is thrown.
 */
CellResult Parse(const String& text, String* error_msg) {
  static TVMFFIObjectHandle f = LookupGlobal("ffi.json.Parse");
  TVMFFIAny result;
  if (CallRaw(f, Cell(&text), 1, &result) == 0) return CellResult(result);
  if (error_msg == nullptr) peer_abi::ThrowRaised();
  TVMFFIObjectHandle err = nullptr;
  TVMFFIErrorMoveFromRaised(&err);
  const TVMFFIErrorCell* cell = TVMFFIErrorGetCellPtr(err);
  if (!ByteArrayEquals(cell->kind, "ValueError")) {
    TVMFFIErrorSetRaised(err);
    TVMFFIObjectDecRef(err);
    peer_abi::ThrowRaised();
  }
  TVMFFIAny message;
  int rc = TVMFFIStringFromByteArray(&cell->message, &message);
  TVMFFIObjectDecRef(err);
  if (rc != 0) peer_abi::ThrowRaised();
  TVMFFIAny* slot = reinterpret_cast<TVMFFIAny*>(error_msg);
  if (slot->type_index >= kTVMFFIStaticObjectBegin) TVMFFIObjectDecRef(slot->v_obj);
  *slot = message;
  return CellResult(NoneCell());
}

CellResult Stringify(const Any& value, const Optional<int, void>& indent) {
  static TVMFFIObjectHandle f = LookupGlobal("ffi.json.Stringify");
  return CellResult(Call2(f, &value, &indent));
}

}  // namespace json
}  // namespace ffi
}  // namespace tvm
