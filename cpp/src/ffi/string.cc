/*
 * Runtime entry points that make owned strings and bytes: the C functions
 * TVMFFIStringFromByteArray, TVMFFIBytesFromByteArray and
 * TVMFFIAnyViewToOwnedAny (borrowed views become owned values; a borrowed
 * DLTensor* cannot, and is rejected).
 */
#include <tvm/ffi/any.h>
#include <tvm/ffi/error.h>
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
      TVMFFIObject* obj = *static_cast<TVMFFIObject**>(view->v_ptr);
      if (obj == nullptr) {
        detail::SetNone(out);
      } else {
        detail::ObjectUnsafe::IncRef(obj);
        out->type_index = obj->type_index;
        out->zero_padding = 0;
        out->v_obj = obj;
      }
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
