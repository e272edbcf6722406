/*
 * Runtime entry points that make owned strings and bytes: the C functions
 * TVMFFIStringFromByteArray, TVMFFIBytesFromByteArray and
 * TVMFFIAnyViewToOwnedAny (borrowed views become owned values, an
 * ObjectRValueRef gives up its object; a borrowed DLTensor* cannot, and is
 * rejected) - and the globals "ffi.String" and "ffi.Bytes", which return their
 * argument as an owned String/Bytes.
 */
#include <tvm/ffi/any.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/reflection/registry.h>
#include <tvm/ffi/string.h>

TVM_FFI_NAMESPACE_BEGIN
namespace {
template <typename StrT>
void ByteArrayToAny(const TVMFFIByteArray* input, TVMFFIAny* out) {
  if (input == nullptr || (input->data == nullptr && input->size != 0)) {
    TVM_FFI_THROW(ValueError) << "byte array must not be NULL";
  }
  StrT value(input->data == nullptr ? "" : input->data, input->size);
  TypeTraits<StrT>::MoveToAny(std::move(value), out);
}

TVM_FFI_STATIC_INIT_BLOCK() {
  // Typed, so that a non-str (non-bytes) argument raises the usual TypeError
  // naming argument #0 and the signature.
  reflection::GlobalDef()
      .def(
          "ffi.String", [](String s) { return s; }, "Return s as a String: ffi.String(\"abc\").")
      .def("ffi.Bytes", [](Bytes b) { return b; }, "Return b as a Bytes: ffi.Bytes(b\"abc\").");
}
}  // namespace
TVM_FFI_NAMESPACE_END

extern "C" {

TVM_FFI_DLL int TVMFFIStringFromByteArray(const TVMFFIByteArray* input, TVMFFIAny* out) {
  TVM_FFI_SAFE_CALL_BEGIN();
  tvm::ffi::ByteArrayToAny<tvm::ffi::String>(input, out);
  TVM_FFI_SAFE_CALL_END();
}

TVM_FFI_DLL int TVMFFIBytesFromByteArray(const TVMFFIByteArray* input, TVMFFIAny* out) {
  TVM_FFI_SAFE_CALL_BEGIN();
  tvm::ffi::ByteArrayToAny<tvm::ffi::Bytes>(input, out);
  TVM_FFI_SAFE_CALL_END();
}

TVM_FFI_DLL int TVMFFIAnyViewToOwnedAny(const TVMFFIAny* view, TVMFFIAny* out) {
  TVM_FFI_SAFE_CALL_BEGIN();
  using namespace tvm::ffi;
  switch (view->type_index) {
    case kTVMFFIRawStr:
      TypeTraits<String>::MoveToAny(String(view->v_c_str), out);
      break;
    case kTVMFFIByteArrayPtr: {
      const TVMFFIByteArray* b = static_cast<const TVMFFIByteArray*>(view->v_ptr);
      TypeTraits<Bytes>::MoveToAny(Bytes(b->data, b->size), out);
      break;
    }
    case kTVMFFIDLTensorPtr:
      // The view borrows the DLTensor; an owned value would dangle once the
      // view's owner releases it.
      TVM_FFI_THROW(RuntimeError) << "DLTensor* cannot be held in Any as it does not retain "
                                     "ownership, use Tensor instead";
    case kTVMFFIObjectRValueRef: {
      // The caller offered its reference: take it over (its slot becomes null), as
      // Any(const AnyView&) does, so the new owner may be the only one.
      TVMFFIObject** slot = static_cast<TVMFFIObject**>(view->v_ptr);
      if (*slot == nullptr) TVM_FFI_THROW(InternalError) << "RValueRef already moved";
      out->type_index = (*slot)->type_index;
      out->zero_padding = 0;
      out->v_obj = *slot;
      *slot = nullptr;
      break;
    }
    default:
      *out = *view;
      if (view->type_index >= kTVMFFIStaticObjectBegin) detail::ObjectUnsafe::IncRef(view->v_obj);
      break;
  }
  TVM_FFI_SAFE_CALL_END();
}

}  // extern "C"
