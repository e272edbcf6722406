/*
 * DLPack exchange of tensors (docs/abi.md §3): import of DLManagedTensor[Versioned]
 * as Tensor objects, export of any Tensor object, and unsafe views.
 *
 * Imported tensors and views are objects of this runtime, which alone knows
 * their private layout; they carry the DLPack flags (read-only, is-copied) so
 * that an export gives them back. Any other tensor object (made inline by a
 * library, maybe against another implementation's headers) is only read
 * through the header and the DLTensor that follows it.
 */
#include <tvm/ffi/container/tensor.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/memory.h>

#include <cstdint>
#include <string>

TVM_FFI_NAMESPACE_BEGIN
namespace {

/*! \brief Tensors made by this runtime: they remember their DLPack flags. */
class RuntimeTensorObj : public TensorObj {
 public:
  uint64_t dlpack_flags = 0;
};

/*!
 * \brief A tensor adopted from a DLPack producer. Shape and strides are copied
 *  right after the object; the data stays the producer's until the deleter.
 */
template <typename TManaged>
class DLPackTensorObj : public RuntimeTensorObj {
 public:
  explicit DLPackTensorObj(TManaged* managed) : managed_(managed) {}
  ~DLPackTensorObj() {
    if (managed_->deleter != nullptr) managed_->deleter(managed_);
  }

 private:
  TManaged* managed_;
};

/*! \brief A tensor over another tensor's memory (TVMFFITensorCreateUnsafeView). */
class ViewTensorObj : public RuntimeTensorObj {
 public:
  explicit ViewTensorObj(ObjectPtr<Object> source) : source_(std::move(source)) {}

 private:
  // Keeps the viewed memory alive.
  ObjectPtr<Object> source_;
};

using LegacyTensorObj = DLPackTensorObj<DLManagedTensor>;
using VersionedTensorObj = DLPackTensorObj<DLManagedTensorVersioned>;

/*! \brief The DLPack flags of a tensor object: kept by our own objects, 0 for others. */
uint64_t FlagsOf(const TVMFFIObject* obj) {
  // The deleter identifies objects allocated here, and so their layout.
  if (obj->deleter == &detail::SimpleObjDeleter<VersionedTensorObj>::Delete ||
      obj->deleter == &detail::SimpleObjDeleter<LegacyTensorObj>::Delete ||
      obj->deleter == &detail::SimpleObjDeleter<ViewTensorObj>::Delete) {
    return static_cast<const RuntimeTensorObj*>(reinterpret_cast<const Object*>(obj))->dlpack_flags;
  }
  return 0;
}

/*!
 * \brief Check what every tensor description must satisfy, then the
 *  caller's requirements. `who` names the C function in messages.
 */
void CheckImportable(const DLTensor& t, int32_t require_alignment, int32_t require_contiguous,
                     const char* who) {
  if (t.ndim < 0) {
    TVM_FFI_THROW(ValueError) << who << ": ndim is negative (" << t.ndim << ")";
  }
  if (t.ndim > 0 && t.shape == nullptr) {
    TVM_FFI_THROW(ValueError) << who << ": shape is NULL for a " << t.ndim << "-d tensor";
  }
  for (int32_t i = 0; i < t.ndim; ++i) {
    if (t.shape[i] < 0) {
      TVM_FFI_THROW(ValueError) << who << ": dimension #" << i << " has negative extent "
                                << t.shape[i];
    }
  }
  if (require_alignment < 0) {
    TVM_FFI_THROW(ValueError) << who << ": require_alignment must not be negative (got "
                              << require_alignment << ")";
  }
  if (require_alignment > 0 &&
      !detail::TensorIsAligned(t, static_cast<size_t>(require_alignment))) {
    TVM_FFI_THROW(ValueError) << who << ": the data (address " << t.data << " + byte_offset "
                              << t.byte_offset << ") is not aligned to " << require_alignment
                              << " bytes, but alignment to " << require_alignment
                              << " bytes is required";
  }
  if (require_contiguous != 0 && !detail::TensorIsContiguous(t)) {
    TVM_FFI_THROW(ValueError) << who << ": the tensor of shape "
                              << ShapeView(t.shape, static_cast<size_t>(t.ndim)) << " and strides "
                              << ShapeView(t.strides, static_cast<size_t>(t.ndim))
                              << " is not contiguous, but a contiguous tensor is required";
  }
}

/*!
 * \brief Copy the description src into dst, with shape and strides copied to
 *  storage (2 * ndim slots); NULL strides become compact ones.
 */
void CopyDescription(const DLTensor& src, DLTensor* dst, int64_t* storage) {
  int32_t n = src.ndim;
  for (int32_t i = 0; i < n; ++i) storage[i] = src.shape[i];
  if (src.strides != nullptr) {
    for (int32_t i = 0; i < n; ++i) storage[n + i] = src.strides[i];
  } else {
    detail::FillCompactStrides(storage, n, storage + n);
  }
  dst->data = src.data;
  dst->device = src.device;
  dst->ndim = n;
  dst->dtype = src.dtype;
  dst->shape = storage;
  dst->strides = storage + n;
  dst->byte_offset = src.byte_offset;
}

/*! \brief Adopt a producer's tensor; takes ownership only on success. */
template <typename TManaged>
TVMFFIObjectHandle Import(TManaged* from, int32_t require_alignment, int32_t require_contiguous,
                          uint64_t flags, const char* who) {
  CheckImportable(from->dl_tensor, require_alignment, require_contiguous, who);
  int32_t n = from->dl_tensor.ndim;
  ObjectPtr<DLPackTensorObj<TManaged>> obj =
      make_inplace_array_object<DLPackTensorObj<TManaged>, int64_t>(2 * static_cast<size_t>(n),
                                                                    from);
  CopyDescription(from->dl_tensor, obj.get(),
                  InplaceArrayBase<DLPackTensorObj<TManaged>, int64_t>(obj.get()));
  obj->dlpack_flags = flags;
  return detail::ObjectUnsafe::MoveObjectPtrToHandle(std::move(obj));
}

/*! \brief The tensor object behind a handle; TypeError when it is something else. */
TVMFFIObject* CheckTensorHandle(TVMFFIObjectHandle handle, const char* who) {
  TVMFFIObject* obj = static_cast<TVMFFIObject*>(handle);
  if (obj == nullptr) {
    TVM_FFI_THROW(ValueError) << who << ": the tensor handle is NULL";
  }
  if (obj->type_index != kTVMFFITensor) {
    TVM_FFI_THROW(TypeError) << who << ": expected a Tensor object but got `"
                             << TypeIndexToTypeKey(obj->type_index) << "`";
  }
  return obj;
}

// Deleters of exported tensors: manager_ctx holds one strong reference.
void DeleteExportedLegacy(DLManagedTensor* self) {
  TVMFFIObjectDecRef(self->manager_ctx);
  delete self;
}

void DeleteExportedVersioned(DLManagedTensorVersioned* self) {
  TVMFFIObjectDecRef(self->manager_ctx);
  delete self;
}

}  // namespace
TVM_FFI_NAMESPACE_END

namespace ffi = ::tvm::ffi;

extern "C" {

TVM_FFI_DLL int TVMFFITensorFromDLPack(DLManagedTensor* from, int32_t require_alignment,
                                       int32_t require_contiguous, TVMFFIObjectHandle* out) {
  TVM_FFI_SAFE_CALL_BEGIN();
  if (from == nullptr || out == nullptr) {
    TVM_FFI_THROW(ValueError)
        << "TVMFFITensorFromDLPack: the tensor and the output must not be NULL";
  }
  *out = ffi::Import(from, require_alignment, require_contiguous, 0, "TVMFFITensorFromDLPack");
  TVM_FFI_SAFE_CALL_END();
}

TVM_FFI_DLL int TVMFFITensorFromDLPackVersioned(DLManagedTensorVersioned* from,
                                                int32_t require_alignment,
                                                int32_t require_contiguous,
                                                TVMFFIObjectHandle* out) {
  TVM_FFI_SAFE_CALL_BEGIN();
  const char* who = "TVMFFITensorFromDLPackVersioned";
  if (from == nullptr || out == nullptr) {
    TVM_FFI_THROW(ValueError) << who << ": the tensor and the output must not be NULL";
  }
  if (from->version.major != DLPACK_MAJOR_VERSION) {
    TVM_FFI_THROW(ValueError) << who << ": unsupported DLPack major version " << from->version.major
                              << " (this runtime reads version " << DLPACK_MAJOR_VERSION << ")";
  }
  *out = ffi::Import(from, require_alignment, require_contiguous, from->flags, who);
  TVM_FFI_SAFE_CALL_END();
}

TVM_FFI_DLL int TVMFFITensorToDLPack(TVMFFIObjectHandle from, DLManagedTensor** out) {
  TVM_FFI_SAFE_CALL_BEGIN();
  TVMFFIObject* obj = ffi::CheckTensorHandle(from, "TVMFFITensorToDLPack");
  if (out == nullptr) TVM_FFI_THROW(ValueError) << "TVMFFITensorToDLPack: out must not be NULL";
  DLManagedTensor* result = new DLManagedTensor();
  result->dl_tensor = *ffi::detail::TensorObjAsDLTensor(obj);
  result->manager_ctx = obj;
  result->deleter = &ffi::DeleteExportedLegacy;
  TVMFFIObjectIncRef(obj);
  *out = result;
  TVM_FFI_SAFE_CALL_END();
}

TVM_FFI_DLL int TVMFFITensorToDLPackVersioned(TVMFFIObjectHandle from,
                                              DLManagedTensorVersioned** out) {
  TVM_FFI_SAFE_CALL_BEGIN();
  TVMFFIObject* obj = ffi::CheckTensorHandle(from, "TVMFFITensorToDLPackVersioned");
  if (out == nullptr) {
    TVM_FFI_THROW(ValueError) << "TVMFFITensorToDLPackVersioned: out must not be NULL";
  }
  DLManagedTensorVersioned* result = new DLManagedTensorVersioned();
  result->version.major = DLPACK_MAJOR_VERSION;
  result->version.minor = DLPACK_MINOR_VERSION;
  result->manager_ctx = obj;
  result->deleter = &ffi::DeleteExportedVersioned;
  result->flags = ffi::FlagsOf(obj);
  result->dl_tensor = *ffi::detail::TensorObjAsDLTensor(obj);
  TVMFFIObjectIncRef(obj);
  *out = result;
  TVM_FFI_SAFE_CALL_END();
}

TVM_FFI_DLL int TVMFFITensorCreateUnsafeView(TVMFFIObjectHandle source, const DLTensor* prototype,
                                             TVMFFIObjectHandle* out) {
  TVM_FFI_SAFE_CALL_BEGIN();
  const char* who = "TVMFFITensorCreateUnsafeView";
  TVMFFIObject* src = ffi::CheckTensorHandle(source, who);
  if (prototype == nullptr || out == nullptr) {
    TVM_FFI_THROW(ValueError) << who << ": the prototype and the output must not be NULL";
  }
  ffi::CheckImportable(*prototype, 0, 0, who);
  const DLTensor* src_tensor = ffi::detail::TensorObjAsDLTensor(src);
  int32_t n = prototype->ndim;
  ffi::ObjectPtr<ffi::ViewTensorObj> obj =
      ffi::make_inplace_array_object<ffi::ViewTensorObj, int64_t>(
          2 * static_cast<size_t>(n),
          ffi::detail::ObjectUnsafe::ObjectPtrFromUnowned<ffi::Object>(src));
  ffi::CopyDescription(*prototype, obj.get(),
                       ffi::InplaceArrayBase<ffi::ViewTensorObj, int64_t>(obj.get()));
  // Memory and device are the source's; the layout is the prototype's.
  obj->data = src_tensor->data;
  obj->device = src_tensor->device;
  obj->dlpack_flags = ffi::FlagsOf(src);
  *out = ffi::detail::ObjectUnsafe::MoveObjectPtrToHandle(std::move(obj));
  TVM_FFI_SAFE_CALL_END();
}

}  // extern "C"
