/*
 * The DLPack C exchange table (DLPack 1.3) for torch releases that do not publish one
 * themselves (docs/python_calls.md, "The torch addon"). tvm_ffi._optional_torch_c_dlpack
 * compiles this file against the installed torch (_build_optional_torch_c_dlpack.py), loads the
 * library and stores the table returned by TorchDLPackExchangeAPIPtr() on torch.Tensor as
 * __dlpack_c_exchange_api__.
 *
 * Only ATen API that is stable across torch 2.x is used (getDLDataType / toScalarType, DataPtr,
 * Storage, Tensor::set_, THPVariable_*, the device guard's current stream), so the file builds
 * against the older releases that need it, without the CUDA toolkit headers. Every entry point
 * catches all C++ exceptions: a table function must never throw.
 */
// Our 1.3 header first: it defines the exchange table types, and its include guard is shared
// with ATen's copy (an older torch ships DLPack 0.8 or 1.0 there, without them).
#include <dlpack/dlpack.h>
// Python.h before any standard header, as CPython requires.
#include <torch/csrc/python_headers.h>

#include <ATen/ATen.h>
#include <ATen/DLConvertor.h>
#include <c10/core/Storage.h>
#include <c10/core/Stream.h>
#include <c10/core/impl/DeviceGuardImplInterface.h>
#include <torch/csrc/autograd/python_variable.h>

#include <cstdint>
#include <exception>
#include <memory>
#include <new>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace {

// Thrown for tensors DLPack cannot describe; becomes a Python BufferError, on which consumers
// fall back to __dlpack__.
struct NotRepresentable : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Python exception type and message of a caught C++ exception.
struct ErrorInfo {
  PyObject* type;
  const char* kind;
  std::string message;
};

ErrorInfo DescribeCurrentException() {
  try {
    throw;
  } catch (const NotRepresentable& e) {
    return {PyExc_BufferError, "BufferError", e.what()};
  } catch (const c10::TypeError& e) {
    return {PyExc_TypeError, "TypeError", e.what_without_backtrace()};
  } catch (const c10::ValueError& e) {
    return {PyExc_ValueError, "ValueError", e.what_without_backtrace()};
  } catch (const c10::NotImplementedError& e) {
    return {PyExc_NotImplementedError, "NotImplementedError", e.what_without_backtrace()};
  } catch (const c10::OutOfMemoryError& e) {
    return {PyExc_MemoryError, "MemoryError", e.what_without_backtrace()};
  } catch (const c10::Error& e) {
    return {PyExc_RuntimeError, "RuntimeError", e.what_without_backtrace()};
  } catch (const std::bad_alloc&) {
    return {PyExc_MemoryError, "MemoryError", "out of memory"};
  } catch (const std::exception& e) {
    return {PyExc_RuntimeError, "RuntimeError", e.what()};
  } catch (...) {
    return {PyExc_RuntimeError, "RuntimeError", "unknown C++ exception"};
  }
}

// For the functions called with the GIL held: the caught exception becomes the Python error.
int SetPythonErrorFromCurrentException() {
  ErrorInfo info = DescribeCurrentException();
  PyErr_SetString(info.type, info.message.c_str());
  return -1;
}

DLDevice ToDLDevice(const c10::Device& device) {
  int32_t index = device.has_index() ? device.index() : 0;
  switch (device.type()) {
    case c10::DeviceType::CPU:
      return DLDevice{kDLCPU, 0};
    case c10::DeviceType::CUDA:
#ifdef TVM_FFI_TORCH_ADDON_ROCM
      // ROCm builds of torch present HIP devices as "cuda".
      return DLDevice{kDLROCM, index};
#else
      return DLDevice{kDLCUDA, index};
#endif
    case c10::DeviceType::XPU:
      return DLDevice{kDLOneAPI, index};
    case c10::DeviceType::MPS:
      return DLDevice{kDLMetal, index};
    default:
      throw NotRepresentable("DLPack has no device type for torch device '" + device.str() + "'");
  }
}

c10::Device FromDLDevice(const DLDevice& device) {
  auto index = static_cast<c10::DeviceIndex>(device.device_id);
  switch (device.device_type) {
    case kDLCPU:
    case kDLCUDAHost:
    case kDLROCMHost:
      return c10::Device(c10::DeviceType::CPU);
    case kDLCUDA:
    case kDLCUDAManaged:
    case kDLROCM:
      return c10::Device(c10::DeviceType::CUDA, index);
    case kDLOneAPI:
      return c10::Device(c10::DeviceType::XPU, index);
    case kDLMetal:
      return c10::Device(c10::DeviceType::MPS, index);
    default:
      throw std::invalid_argument("torch has no device for DLPack device type " +
                                  std::to_string(static_cast<int>(device.device_type)));
  }
}

// Non-owning description of `tensor`: shape and strides point into its TensorImpl.
void FillDLTensor(const at::Tensor& tensor, DLTensor* out) {
  if (tensor.layout() != c10::Layout::Strided) {
    throw NotRepresentable("DLPack only describes strided tensors; this torch tensor's layout is " +
                           c10::str(tensor.layout()));
  }
  out->device = ToDLDevice(tensor.device());
  out->dtype = at::getDLDataType(tensor);
  // data_ptr() already includes the storage offset (and fails for tensors without storage).
  out->data = tensor.numel() == 0 ? nullptr : tensor.data_ptr();
  out->ndim = static_cast<int32_t>(tensor.dim());
  out->shape = const_cast<int64_t*>(tensor.sizes().data());
  out->strides = const_cast<int64_t*>(tensor.strides().data());
  out->byte_offset = 0;
}

// An owning export: the managed tensor keeps a reference to the torch tensor.
struct ExportedTensor {
  at::Tensor tensor;
  DLManagedTensorVersioned managed;
};

void DeleteExported(DLManagedTensorVersioned* self) {
  delete static_cast<ExportedTensor*>(self->manager_ctx);
}

DLManagedTensorVersioned* Export(const at::Tensor& tensor) {
  auto holder = std::make_unique<ExportedTensor>();
  holder->tensor = tensor;
  DLManagedTensorVersioned& managed = holder->managed;
  managed.version.major = DLPACK_MAJOR_VERSION;
  managed.version.minor = DLPACK_MINOR_VERSION;
  managed.flags = 0;
  managed.deleter = DeleteExported;
  FillDLTensor(holder->tensor, &managed.dl_tensor);
  managed.manager_ctx = holder.get();
  return &holder.release()->managed;
}

void DeleteImported(void* ctx) {
  auto* managed = static_cast<DLManagedTensorVersioned*>(ctx);
  if (managed->deleter != nullptr) managed->deleter(managed);
}

// Takes over `managed` in all cases: its deleter runs when the result dies, or before an
// exception leaves this function.
at::Tensor Import(DLManagedTensorVersioned* managed) {
  bool handed_over = false;  // set once a DataPtr owns `managed`
  try {
    const DLTensor& dl = managed->dl_tensor;
    if (dl.ndim < 0 || (dl.ndim > 0 && dl.shape == nullptr)) {
      throw std::invalid_argument("DLTensor has ndim " + std::to_string(dl.ndim) +
                                  (dl.ndim < 0 ? "" : " but no shape"));
    }
    c10::Device device = FromDLDevice(dl.device);
    at::ScalarType dtype = at::toScalarType(dl.dtype);
    c10::IntArrayRef sizes(dl.shape, static_cast<size_t>(dl.ndim));
    // Producers older than DLPack 1.2 may leave strides NULL for compact row-major tensors.
    std::vector<int64_t> compact;
    c10::IntArrayRef strides;
    if (dl.strides != nullptr || dl.ndim == 0) {
      strides = c10::IntArrayRef(dl.strides, static_cast<size_t>(dl.ndim));
    } else {
      compact.assign(static_cast<size_t>(dl.ndim), 1);
      for (int64_t i = dl.ndim - 1; i > 0; --i) compact[i - 1] = compact[i] * dl.shape[i];
      strides = compact;
    }
    // Bytes from the first element to one past the last one reached (0 when an extent is 0).
    int64_t span = 1;
    for (int64_t i = 0; i < dl.ndim; ++i) {
      if (sizes[i] < 0) throw std::invalid_argument("DLTensor has a negative extent");
      if (sizes[i] == 0) {
        span = 0;
        break;
      }
      span += (sizes[i] - 1) * strides[i];
    }
    auto nbytes = static_cast<size_t>(span) * c10::elementSize(dtype);
    void* data = static_cast<char*>(dl.data) + dl.byte_offset;
    // From here on the DataPtr (then the storage, then the tensor) runs the deleter exactly
    // once, also when a later step throws.
    c10::DataPtr owner(data, managed, DeleteImported, device);
    handed_over = true;
    c10::Storage storage(c10::Storage::use_byte_size_t(), nbytes, std::move(owner),
                         /*allocator=*/nullptr, /*resizable=*/false);
    return at::empty({0}, at::TensorOptions().dtype(dtype).device(device))
        .set_(std::move(storage), 0, sizes, strides);
  } catch (...) {
    if (!handed_over) DeleteImported(managed);
    throw;
  }
}

const at::Tensor& UnpackTensor(void* py_object) {
  auto* obj = static_cast<PyObject*>(py_object);
  if (obj == nullptr || !THPVariable_Check(obj)) {
    throw c10::TypeError({__func__, __FILE__, static_cast<uint32_t>(__LINE__)},
                         std::string("expected a torch.Tensor, got ") +
                             (obj == nullptr ? "NULL" : Py_TYPE(obj)->tp_name));
  }
  return THPVariable_Unpack(obj);
}

// ---- the table functions ---------------------------------------------------------------------

int ManagedTensorAllocator(DLTensor* prototype, DLManagedTensorVersioned** out, void* error_ctx,
                           void (*SetError)(void* error_ctx, const char* kind,
                                            const char* message)) {
  try {
    if (prototype == nullptr || out == nullptr) {
      throw std::invalid_argument("the allocator needs a prototype and an output");
    }
    if (prototype->ndim < 0 || (prototype->ndim > 0 && prototype->shape == nullptr)) {
      throw std::invalid_argument("the prototype has ndim " + std::to_string(prototype->ndim) +
                                  (prototype->ndim < 0 ? "" : " but no shape"));
    }
    c10::IntArrayRef shape(prototype->shape, static_cast<size_t>(prototype->ndim));
    auto options = at::TensorOptions()
                       .dtype(at::toScalarType(prototype->dtype))
                       .device(FromDLDevice(prototype->device));
    *out = Export(at::empty(shape, options));
    return 0;
  } catch (...) {
    ErrorInfo info = DescribeCurrentException();
    if (SetError != nullptr) SetError(error_ctx, info.kind, info.message.c_str());
    return -1;
  }
}

int ManagedTensorFromPyObjectNoSync(void* py_object, DLManagedTensorVersioned** out) {
  try {
    *out = Export(UnpackTensor(py_object));
    return 0;
  } catch (...) {
    return SetPythonErrorFromCurrentException();
  }
}

int ManagedTensorToPyObjectNoSync(DLManagedTensorVersioned* tensor, void** out_py_object) {
  try {
    if (tensor == nullptr) throw std::invalid_argument("no managed tensor to import");
    at::Tensor imported = Import(tensor);
    PyObject* obj = THPVariable_Wrap(imported);
    if (obj == nullptr) return -1;  // THPVariable_Wrap set the Python error
    *out_py_object = obj;
    return 0;
  } catch (...) {
    return SetPythonErrorFromCurrentException();
  }
}

int DLTensorFromPyObjectNoSync(void* py_object, DLTensor* out) {
  try {
    FillDLTensor(UnpackTensor(py_object), out);
    return 0;
  } catch (...) {
    return SetPythonErrorFromCurrentException();
  }
}

// c10::Stream::native_handle() (torch 2.4 and later) gives the raw CUDA/HIP stream without the
// toolkit headers. Older releases have no such C++ call; there the addon asks Python for
// torch.cuda.current_stream(device).cuda_stream.
template <typename S, typename = void>
struct HasNativeHandle : std::false_type {};
template <typename S>
struct HasNativeHandle<S, std::void_t<decltype(std::declval<const S&>().native_handle())>>
    : std::true_type {};

// On failure the Python error stays set (the caller may not hold the GIL).
int StreamFromPython(int32_t device_id, void** out) {
  PyGILState_STATE state = PyGILState_Ensure();
  PyObject* module = PyImport_ImportModule("torch.cuda");
  PyObject* stream =
      module == nullptr ? nullptr : PyObject_CallMethod(module, "current_stream", "i", device_id);
  PyObject* handle = stream == nullptr ? nullptr : PyObject_GetAttrString(stream, "cuda_stream");
  void* result = handle == nullptr ? nullptr : PyLong_AsVoidPtr(handle);
  int status = PyErr_Occurred() != nullptr ? -1 : 0;
  Py_XDECREF(handle);
  Py_XDECREF(stream);
  Py_XDECREF(module);
  PyGILState_Release(state);
  if (status == 0) *out = result;
  return status;
}

template <typename S>
int RawStream(const S& stream, int32_t device_id, void** out) {
  if constexpr (HasNativeHandle<S>::value) {
    *out = stream.native_handle();
    return 0;
  } else {
    return StreamFromPython(device_id, out);
  }
}

int CurrentWorkStream(DLDeviceType device_type, int32_t device_id, void** out_current_stream) {
  try {
#ifdef TVM_FFI_TORCH_ADDON_ROCM
    const bool gpu = device_type == kDLROCM;
#else
    const bool gpu = device_type == kDLCUDA;
#endif
    // A CPU-only torch has no CUDA device guard, and no streams to report.
    if (!gpu || !c10::impl::hasDeviceGuardImpl(c10::DeviceType::CUDA)) {
      *out_current_stream = nullptr;
      return 0;
    }
    c10::Device device(c10::DeviceType::CUDA, static_cast<c10::DeviceIndex>(device_id));
    c10::Stream stream = c10::impl::getDeviceGuardImpl(c10::DeviceType::CUDA)->getStream(device);
    return RawStream(stream, device_id, out_current_stream);
  } catch (...) {
    // Callers may not hold the GIL here.
    PyGILState_STATE state = PyGILState_Ensure();
    SetPythonErrorFromCurrentException();
    PyGILState_Release(state);
    return -1;
  }
}

const DLPackExchangeAPI kExchangeAPI = {
    {{DLPACK_MAJOR_VERSION, DLPACK_MINOR_VERSION}, nullptr},
    ManagedTensorAllocator,
    ManagedTensorFromPyObjectNoSync,
    ManagedTensorToPyObjectNoSync,
    DLTensorFromPyObjectNoSync,
    CurrentWorkStream,
};

}  // namespace

/*! \brief Address of the process-wide exchange table (a const DLPackExchangeAPI*). */
extern "C" __attribute__((visibility("default"))) uint64_t TorchDLPackExchangeAPIPtr() {
  return static_cast<uint64_t>(reinterpret_cast<uintptr_t>(&kExchangeAPI));
}
