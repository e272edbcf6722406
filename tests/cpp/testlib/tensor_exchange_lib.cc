/*
 * Kernels for the framework tensor exchange tests and benchmarks (built as
 * tensor_exchange_lib.so in TVM_FFI_TEST_LIB_DIR and loaded with
 * tvm_ffi.load_module): they report how arguments arrived, which stream the
 * callee sees, and allocate through the caller's framework allocator.
 */
#include <tvm/ffi/any.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/tensor.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/function.h>

#include <dlfcn.h>

#include <cstdint>
#include <string>
#include <thread>

namespace tensor_exchange_lib {
namespace ffi = tvm::ffi;

// Kernels with TensorView parameters that do nothing: the cost of passing tensors.
void ViewNop1(ffi::TensorView) {}
void ViewNop2(ffi::TensorView, ffi::TensorView) {}
void ViewNop4(ffi::TensorView, ffi::TensorView, ffi::TensorView, ffi::TensorView) {}
void TensorNop(ffi::Tensor) {}
ffi::Tensor Echo(ffi::Tensor x) { return x; }
ffi::Any EchoAny(ffi::Any x) { return x; }

// The address of x's first element as the callee sees it.
int64_t DataPtr(ffi::TensorView x) {
  return static_cast<int64_t>(reinterpret_cast<uintptr_t>(x.data_ptr()) + x.byte_offset());
}

// [shape, strides, data address] of x as the callee sees it.
ffi::Array<ffi::Any> ViewInfo(ffi::TensorView x) {
  ffi::Array<int64_t> shape, strides;
  for (int64_t i = 0; i < x.ndim(); ++i) {
    shape.push_back(x.shape()[i]);
    strides.push_back(x.strides()[i]);
  }
  return {shape, strides, DataPtr(x)};
}

// The stream the callee sees for x's device (0 when none is set).
int64_t StreamOf(ffi::TensorView x) {
  DLDevice dev = x.device();
  return static_cast<int64_t>(
      reinterpret_cast<uintptr_t>(TVMFFIEnvGetStream(dev.device_type, dev.device_id)));
}

// The stream of (device_type, device_id) on this thread, 0 when none.
int64_t EnvStream(int64_t device_type, int64_t device_id) {
  return static_cast<int64_t>(reinterpret_cast<uintptr_t>(
      TVMFFIEnvGetStream(static_cast<int32_t>(device_type), static_cast<int32_t>(device_id))));
}

// Fails after seeing x: the stream and allocator must still be restored.
void FailWith(ffi::TensorView x, const std::string& message) {
  TVM_FFI_THROW(ValueError) << message << " (stream " << StreamOf(x) << ")";
}

// Whether an environment allocator is installed in this thread right now.
bool HasEnvAllocator() { return TVMFFIEnvGetDLPackManagedTensorAllocator() != nullptr; }

struct AllocError {
  std::string kind;
  std::string message;
};

void SetAllocError(void* ctx, const char* kind, const char* message) {
  static_cast<AllocError*>(ctx)->kind = kind;
  static_cast<AllocError*>(ctx)->message = message;
}

// A new tensor shaped like x, allocated by the installed environment allocator
// (the caller's framework), filled with x's float32 values plus one.
/*! \brief Calls f with x as it arrived: a borrowed DLTensor* (TensorView) argument. */
ffi::Any CallWithView(ffi::Function f, ffi::TensorView x) { return f(x); }

ffi::Tensor AllocAddOne(ffi::TensorView x) {
  DLPackManagedTensorAllocator alloc = TVMFFIEnvGetDLPackManagedTensorAllocator();
  if (alloc == nullptr) {
    TVM_FFI_THROW(RuntimeError) << "alloc_add_one: no environment allocator is installed";
  }
  DLTensor prototype = *x.GetDLTensorPtr();
  prototype.data = nullptr;
  prototype.strides = nullptr;
  prototype.byte_offset = 0;
  DLManagedTensorVersioned* managed = nullptr;
  AllocError err;
  if (alloc(&prototype, &managed, &err, SetAllocError) != 0 || managed == nullptr) {
    TVM_FFI_THROW(RuntimeError) << "alloc_add_one: allocator failed: " << err.kind << ": "
                                << err.message;
  }
  TVMFFIObjectHandle handle = nullptr;
  if (TVMFFITensorFromDLPackVersioned(managed, 0, 0, &handle) != 0) {
    if (managed->deleter != nullptr) managed->deleter(managed);
    TVM_FFI_THROW(RuntimeError) << "alloc_add_one: cannot adopt the allocated tensor";
  }
  ffi::Tensor out = ffi::detail::ObjectUnsafe::ObjectRefFromObjectPtr<ffi::Tensor>(
      ffi::detail::ObjectUnsafe::ObjectPtrFromOwned<ffi::Object>(
          static_cast<TVMFFIObject*>(handle)));
  if (x.dtype().code == kDLFloat && x.dtype().bits == 32 && x.device().device_type == kDLCPU) {
    const DLTensor* src = x.GetDLTensorPtr();
    const DLTensor* dst = out.GetDLTensorPtr();
    int64_t n = x.numel();
    for (int64_t i = 0; i < n; ++i) {
      // Compact source assumed by the tests; the output is compact by construction.
      static_cast<float*>(dst->data)[i] =
          static_cast<const float*>(
              static_cast<const void*>(static_cast<const char*>(src->data) + src->byte_offset))[i] +
          1.0f;
    }
  }
  return out;
}

// [x, 1]: a container result holding a tensor.
ffi::Array<ffi::Any> TensorAndInt(ffi::Tensor x) { return {x, 1}; }

// Whatever `value` is (a list of tensors ...): the stream of (device_type,
// device_id) and whether an allocator is installed while the callee runs.
int64_t EnvStreamWith(ffi::Any value, int64_t device_type, int64_t device_id) {
  (void)value;
  return EnvStream(device_type, device_id);
}
bool HasEnvAllocatorWith(ffi::Any value) {
  (void)value;
  return HasEnvAllocator();
}

// An exchange table whose export fails with a Python RuntimeError, as a
// producer raising inside managed_tensor_from_py_object_no_sync does. The
// Python C API is found in the process (this library does not link Python).
int RaiseFromPy(const char* message, const char* kind = "PyExc_RuntimeError") {
  using SetString = void (*)(void*, const char*);
  auto set_string = reinterpret_cast<SetString>(dlsym(RTLD_DEFAULT, "PyErr_SetString"));
  void** exc_type = static_cast<void**>(dlsym(RTLD_DEFAULT, kind));
  if (set_string != nullptr && exc_type != nullptr) set_string(*exc_type, message);
  return -1;
}
int RaisingManagedFromPy(void*, DLManagedTensorVersioned**) {
  return RaiseFromPy("producer export failed on purpose");
}
int RaisingDLTensorFromPy(void*, DLTensor*) {
  return RaiseFromPy("producer view failed on purpose");
}
int RaisingToPy(DLManagedTensorVersioned*, void**) { return RaiseFromPy("import failed"); }
int NullStream(DLDeviceType, int32_t, void** out) {
  *out = nullptr;
  return 0;
}
const DLPackExchangeAPI kRaisingAPI = {{{1, 3}, nullptr},     nullptr,
                                       RaisingManagedFromPy,  RaisingToPy,
                                       RaisingDLTensorFromPy, NullStream};

int BufferErrorFromPy(void*, DLManagedTensorVersioned**) {
  return RaiseFromPy("not representable", "PyExc_BufferError");
}
const DLPackExchangeAPI kBufferErrorAPI = {{{1, 3}, nullptr}, nullptr, BufferErrorFromPy,
                                           RaisingToPy,       nullptr, NullStream};
int64_t BufferErrorExchangeAPI() {
  return static_cast<int64_t>(reinterpret_cast<uintptr_t>(&kBufferErrorAPI));
}

// The address of kRaisingAPI, for a Python class's __dlpack_c_exchange_api__ (int form).
int64_t RaisingExchangeAPI() {
  return static_cast<int64_t>(reinterpret_cast<uintptr_t>(&kRaisingAPI));
}

// A tensor kept past the call that passed it: it must stay valid after the
// caller drops its own tensor, and it may be released on a thread that has no
// Python thread state, or only when the process exits.
ffi::Tensor& Held() {
  static ffi::Tensor* held = new ffi::Tensor();  // never destroyed: may outlive Python
  return *held;
}
void Hold(ffi::Tensor x) { Held() = std::move(x); }
// The sum of the held float32 tensor's elements (it must still be readable).
double HeldSum() {
  const ffi::Tensor& x = Held();
  const float* data =
      reinterpret_cast<const float*>(static_cast<const char*>(x.data_ptr()) + x.byte_offset());
  double sum = 0;
  for (int64_t i = 0; i < x.numel(); ++i) sum += data[i];
  return sum;
}
void ReleaseHeld() { Held() = ffi::Tensor(); }
void ReleaseHeldOnThread() {
  ffi::Tensor x = std::move(Held());
  std::thread([t = std::move(x)]() mutable { t = ffi::Tensor(); }).join();
}
// Keeps x in a static that is destroyed at exit, after the interpreter finalized.
void HoldUntilExit(ffi::Tensor x) {
  static ffi::Tensor until_exit;
  until_exit = std::move(x);
}

}  // namespace tensor_exchange_lib

#define TVM_FFI_DLL_EXPORT_INCLUDE_METADATA 1

TVM_FFI_DLL_EXPORT_TYPED_FUNC(view_nop1, tensor_exchange_lib::ViewNop1);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(view_nop2, tensor_exchange_lib::ViewNop2);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(view_nop4, tensor_exchange_lib::ViewNop4);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(tensor_nop, tensor_exchange_lib::TensorNop);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(echo, tensor_exchange_lib::Echo);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(hold, tensor_exchange_lib::Hold);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(held_sum, tensor_exchange_lib::HeldSum);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(release_held, tensor_exchange_lib::ReleaseHeld);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(release_held_on_thread, tensor_exchange_lib::ReleaseHeldOnThread);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(hold_until_exit, tensor_exchange_lib::HoldUntilExit);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(echo_any, tensor_exchange_lib::EchoAny);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(data_ptr, tensor_exchange_lib::DataPtr);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(view_info, tensor_exchange_lib::ViewInfo);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(stream_of, tensor_exchange_lib::StreamOf);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(env_stream, tensor_exchange_lib::EnvStream);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(fail_with, tensor_exchange_lib::FailWith);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(has_env_allocator, tensor_exchange_lib::HasEnvAllocator);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(alloc_add_one, tensor_exchange_lib::AllocAddOne);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(call_with_view, tensor_exchange_lib::CallWithView);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(tensor_and_int, tensor_exchange_lib::TensorAndInt);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(env_stream_with, tensor_exchange_lib::EnvStreamWith);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(has_env_allocator_with, tensor_exchange_lib::HasEnvAllocatorWith);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(raising_exchange_api, tensor_exchange_lib::RaisingExchangeAPI);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(buffer_error_exchange_api,
                              tensor_exchange_lib::BufferErrorExchangeAPI);

// arg_kinds(view, tensor, any): the type index each argument arrived with, under
// the schema (TensorView, Tensor, Any) — a packed body with a declared schema.
extern "C" TVM_FFI_DLL_EXPORT int __tvm_ffi_arg_kinds(void*, const TVMFFIAny* args,
                                                      int32_t num_args, TVMFFIAny* result) {
  TVM_FFI_SAFE_CALL_BEGIN();
  tvm::ffi::Array<int64_t> kinds;
  for (int32_t i = 0; i < num_args; ++i) kinds.push_back(args[i].type_index);
  tvm::ffi::TypeTraits<tvm::ffi::Array<int64_t>>::MoveToAny(std::move(kinds), result);
  TVM_FFI_SAFE_CALL_END();
}

extern "C" TVM_FFI_DLL_EXPORT int __tvm_ffi__metadata_arg_kinds(void*, const TVMFFIAny*, int32_t,
                                                                TVMFFIAny* result) {
  TVM_FFI_SAFE_CALL_BEGIN();
  std::string schema =
      R"({"type":"ffi.Function","args":[{"type":"ffi.Array"},{"type":"DLTensor*"},)"
      R"({"type":"ffi.Tensor"},{"type":"Any"}]})";
  tvm::ffi::TypeTraits<tvm::ffi::String>::MoveToAny(
      tvm::ffi::String(tvm::ffi::detail::MakeFuncMetadata(schema)), result);
  TVM_FFI_SAFE_CALL_END();
}
