/*
 * Tensor: a reference-counted n-d array over DLPack's DLTensor, and
 * TensorView, a non-owning view for function parameters.
 *
 * The FFI does not allocate device memory itself: Tensor::FromNDAlloc takes
 * an allocator object (kept inside the tensor for as long as it lives):
 *
 *   struct CPUNDAlloc {
 *     void AllocData(DLTensor* t) { t->data = malloc(tvm::ffi::GetDataSize(*t)); }
 *     void FreeData(DLTensor* t) { free(t->data); }
 *   };
 *   ffi::Tensor t = ffi::Tensor::FromNDAlloc(CPUNDAlloc(), {2, 3}, dtype, device);
 *
 * DLPack exchange (zero copy, both directions):
 *   DLManagedTensorVersioned* dl = t.ToDLPackVersioned();  // holds one reference
 *   ffi::Tensor t2 = ffi::Tensor::FromDLPackVersioned(dl); // calls dl's deleter when done
 *
 * TensorView accepts a Tensor or a borrowed DLTensor* argument without any
 * allocation, so `void Kernel(ffi::TensorView x)` takes both.
 *
 * Layout (docs/abi.md §2.4): the object header, then a full DLTensor at offset 24;
 * implementation-private fields follow. Code only relies on the header and
 * the DLTensor of a tensor object, since it may have been made by another
 * library.
 */
#ifndef TVM_FFI_CONTAINER_TENSOR_H_
#define TVM_FFI_CONTAINER_TENSOR_H_

#include <tvm/ffi/any.h>
#include <tvm/ffi/container/shape.h>
#include <tvm/ffi/device.h>
#include <tvm/ffi/dtype.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/extra/c_env_api.h>
#include <tvm/ffi/memory.h>
#include <tvm/ffi/object.h>
#include <tvm/ffi/type_traits.h>

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <utility>
#include <vector>

TVM_FFI_NAMESPACE_BEGIN

/*! \brief The object behind Tensor: header, then the DLTensor it describes. */
class TensorObj : public Object, public DLTensor {
 public:
  TensorObj() {
    data = nullptr;
    device = DLDevice{kDLCPU, 0};
    ndim = 0;
    dtype = DLDataType{0, 0, 0};
    shape = nullptr;
    strides = nullptr;
    byte_offset = 0;
  }
  static constexpr int32_t _type_index = kTVMFFITensor;
  TVM_FFI_DECLARE_OBJECT_INFO_STATIC("ffi.Tensor", TensorObj, Object);

  /*!
   * \brief Export as a legacy DLPack tensor sharing this memory: a new struct copying the
   *  DLTensor whose manager holds one extra reference to this object, released by its deleter.
   */
  DLManagedTensor* ToDLPack() const {
    DLManagedTensor* out = nullptr;
    TVM_FFI_CHECK_SAFE_CALL(TVMFFITensorToDLPack(Handle(), &out));
    return out;
  }
  /*! \brief Export as a DLPack 1.x tensor (see ToDLPack); the version is this header's. */
  DLManagedTensorVersioned* ToDLPackVersioned() const {
    DLManagedTensorVersioned* out = nullptr;
    TVM_FFI_CHECK_SAFE_CALL(TVMFFITensorToDLPackVersioned(Handle(), &out));
    return out;
  }

 private:
  TVMFFIObjectHandle Handle() const { return detail::ObjectUnsafe::GetHeader(this); }
};

/*!
 * \brief Bytes taken by numel elements of dtype; sub-byte types round up to whole bytes
 *  (computed in 64 bits: GetDataSize(9, uint1) is 2, GetDataSize(9, bool8) is 9).
 */
inline size_t GetDataSize(size_t numel, DLDataType dtype) {
  uint64_t bits = static_cast<uint64_t>(numel) * dtype.bits * dtype.lanes;
  return static_cast<size_t>((bits + 7) / 8);
}

/*!
 * \brief Bytes of the tensor's elements: the product of its shape times the element size. Strides
 *  are ignored, so for a strided tensor this is its element count, not the span it covers.
 */
inline size_t GetDataSize(const DLTensor& tensor) {
  uint64_t numel = 1;
  for (int32_t i = 0; i < tensor.ndim; ++i) numel *= static_cast<uint64_t>(tensor.shape[i]);
  return GetDataSize(static_cast<size_t>(numel), tensor.dtype);
}

/*!
 * \brief Whether data pointers of the device are plain addresses (CPU, CUDA,
 *  CUDA host/managed memory, ROCm, ROCm host), so that offsets may be folded
 *  into the pointer.
 */
inline bool IsDirectAddressDevice(const DLDevice& device) {
  return device.device_type <= kDLCUDAHost || device.device_type == kDLCUDAManaged ||
         device.device_type == kDLROCM || device.device_type == kDLROCMHost;
}

/*!
 * \brief Whether the layout is compact row-major: NULL strides, an empty
 *  tensor, or strides equal to the running product of the extents (extents of
 *  1 may have any stride).
 */
inline bool IsContiguous(const DLTensor& tensor) {
  if (tensor.strides == nullptr) return true;
  for (int32_t i = 0; i < tensor.ndim; ++i) {
    if (tensor.shape[i] == 0) return true;
  }
  int64_t expected = 1;
  for (int32_t i = tensor.ndim - 1; i >= 0; --i) {
    if (tensor.shape[i] == 1) continue;
    if (tensor.strides[i] != expected) return false;
    expected *= tensor.shape[i];
  }
  return true;
}

/*!
 * \brief Whether the first element is aligned: data + byte_offset on devices
 *  with plain addresses, byte_offset alone on others.
 */
inline bool IsAligned(const DLTensor& tensor, size_t alignment) {
  if (alignment == 0) return true;
  if (IsDirectAddressDevice(tensor.device)) {
    uintptr_t addr =
        reinterpret_cast<uintptr_t>(tensor.data) + static_cast<uintptr_t>(tensor.byte_offset);
    return addr % alignment == 0;
  }
  return tensor.byte_offset % alignment == 0;
}

namespace detail {
/*! \brief Row-major strides of shape into out[0..n). */
inline void FillCompactStrides(const int64_t* shape, int32_t n, int64_t* out) {
  int64_t stride = 1;
  for (int32_t i = n - 1; i >= 0; --i) {
    out[i] = stride;
    stride *= shape[i];
  }
}

inline int64_t TensorNumel(const DLTensor& t) {
  int64_t n = 1;
  for (int32_t i = 0; i < t.ndim; ++i) n *= t.shape[i];
  return n;
}

inline bool TensorIsContiguous(const DLTensor& t) { return IsContiguous(t); }
inline bool TensorIsAligned(const DLTensor& t, size_t alignment) { return IsAligned(t, alignment); }

/*!
 * \brief Index idx of an ndim-dimensional tensor, negative counting from the
 *  end; IndexError naming it when out of range.
 */
inline int32_t NormalizeTensorDim(int64_t idx, int32_t ndim) {
  int64_t i = idx < 0 ? idx + ndim : idx;
  if (TVM_FFI_UNLIKELY(i < 0 || i >= ndim)) {
    TVM_FFI_THROW(IndexError) << "Index " << idx << " out of bounds for tensor with " << ndim
                              << " dimensions";
  }
  return static_cast<int32_t>(i);
}

/*!
 * \brief The description of a strided view of t: shape and strides of the
 *  view, and the element offset turned into bytes (folded into data on
 *  devices with plain addresses).
 */
inline DLTensor MakeStridedPrototype(const DLTensor& t, ShapeView shape, ShapeView strides,
                                     std::optional<int64_t> element_offset) {
  if (TVM_FFI_UNLIKELY(shape.size() != strides.size())) {
    TVM_FFI_THROW(InternalError) << "as_strided: shape " << shape << " and strides " << strides
                                 << " must have the same size";
  }
  DLTensor proto = t;
  proto.ndim = static_cast<int32_t>(shape.size());
  proto.shape = const_cast<int64_t*>(shape.data());
  proto.strides = const_cast<int64_t*>(strides.data());
  if (element_offset.has_value()) {
    if (TVM_FFI_UNLIKELY(*element_offset < 0)) {
      TVM_FFI_THROW(InternalError)
          << "as_strided: element_offset must be non-negative, got " << *element_offset;
    }
    proto.byte_offset += GetDataSize(*element_offset, t.dtype);
  }
  if (proto.byte_offset != 0 && IsDirectAddressDevice(proto.device)) {
    proto.data = static_cast<char*>(proto.data) + proto.byte_offset;
    proto.byte_offset = 0;
  }
  return proto;
}

/*!
 * \brief A tensor over another tensor's memory (as_strided): keeps the
 *  source alive; its own shape and strides follow the object.
 */
class StridedViewTensorObj : public TensorObj {
 public:
  StridedViewTensorObj(ObjectRef source, const DLTensor& proto) : source_(std::move(source)) {
    int64_t* storage = InplaceArrayBase<StridedViewTensorObj, int64_t>(this);
    int32_t n = proto.ndim;
    for (int32_t i = 0; i < n; ++i) {
      storage[i] = proto.shape[i];
      storage[n + i] = proto.strides[i];
    }
    this->data = proto.data;
    this->device = proto.device;
    this->ndim = n;
    this->dtype = proto.dtype;
    this->shape = storage;
    this->strides = storage + n;
    this->byte_offset = proto.byte_offset;
  }

 private:
  ObjectRef source_;
};

inline DLTensor* TensorObjAsDLTensor(const TVMFFIObject* obj) {
  // The DLTensor follows the object header (docs/abi.md §2.4).
  return reinterpret_cast<DLTensor*>(const_cast<char*>(reinterpret_cast<const char*>(obj)) +
                                     sizeof(TVMFFIObject));
}

/*! \brief Reject shapes a tensor cannot have (negative extents, too many dims). */
inline void CheckTensorShape(ShapeView shape, const char* what) {
  if (shape.size() > static_cast<size_t>(INT32_MAX)) {
    TVM_FFI_THROW(ValueError) << what << ": too many dimensions (" << shape.size() << ")";
  }
  for (size_t i = 0; i < shape.size(); ++i) {
    if (shape.data()[i] < 0) {
      TVM_FFI_THROW(ValueError) << what << ": dimension #" << i << " has negative extent "
                                << shape.data()[i] << " in shape " << shape;
    }
  }
}

/*!
 * \brief A tensor whose memory comes from a user allocator object, kept
 *  inside the tensor; shape and strides are stored right after the object.
 */
template <typename TNDAlloc>
class TensorObjFromNDAlloc : public TensorObj {
 public:
  template <typename... ExtraArgs>
  TensorObjFromNDAlloc(TNDAlloc alloc, ShapeView shape_in, const int64_t* strides_in,
                       DLDataType dtype_in, DLDevice device_in, ExtraArgs&&... extra_args)
      : alloc_(std::move(alloc)) {
    int64_t* storage = InplaceArrayBase<TensorObjFromNDAlloc, int64_t>(this);
    int32_t n = static_cast<int32_t>(shape_in.size());
    for (int32_t i = 0; i < n; ++i) storage[i] = shape_in.data()[i];
    if (strides_in != nullptr) {
      for (int32_t i = 0; i < n; ++i) storage[n + i] = strides_in[i];
    } else {
      FillCompactStrides(storage, n, storage + n);
    }
    this->ndim = n;
    this->shape = storage;
    this->strides = storage + n;
    this->dtype = dtype_in;
    this->device = device_in;
    this->byte_offset = 0;
    // If this throws, the constructor fails and FreeData is (rightly) never called.
    alloc_.AllocData(static_cast<DLTensor*>(this), std::forward<ExtraArgs>(extra_args)...);
  }
  ~TensorObjFromNDAlloc() { alloc_.FreeData(static_cast<DLTensor*>(this)); }

 private:
  TNDAlloc alloc_;
};
}  // namespace detail

/*!
 * \brief A managed n-d array. Copies share the tensor. A default-constructed
 *  Tensor is undefined (null); conversions from Any reject None (use
 *  Optional<Tensor> for an optional tensor).
 */
class Tensor : public ObjectRef {
 public:
  /*! \brief An undefined (null) tensor; None converts to it. */
  Tensor() = default;
  explicit Tensor(ObjectPtr<TensorObj> n) : ObjectRef(std::move(n)) {}
  explicit Tensor(UnsafeInit tag) : ObjectRef(tag) {}
  TVM_FFI_DEFINE_DEFAULT_COPY_MOVE_AND_ASSIGN(Tensor)

  const TensorObj* get() const { return static_cast<const TensorObj*>(data_.get()); }
  const TensorObj* operator->() const { return get(); }

  /*! \return The extents (a view into the tensor, valid while it lives). */
  ShapeView shape() const {
    const TensorObj* t = checked();
    return ShapeView(t->shape, static_cast<size_t>(t->ndim));
  }
  /*! \return The strides in elements (a view into the tensor). */
  ShapeView strides() const {
    const TensorObj* t = checked();
    if (TVM_FFI_UNLIKELY(t->strides == nullptr && t->ndim != 0)) {
      TVM_FFI_THROW(InternalError) << "Tensor::strides: this tensor object (made by another "
                                      "library) has no strides array; read GetDLTensorPtr()";
    }
    return ShapeView(t->strides, static_cast<size_t>(t->ndim));
  }
  /*! \return Extent idx; negative idx counts from the end; IndexError when out of range. */
  int64_t size(int64_t idx) const {
    const TensorObj* t = checked();
    return t->shape[detail::NormalizeTensorDim(idx, t->ndim)];
  }
  /*! \return Stride idx in elements; negative idx counts from the end. */
  int64_t stride(int64_t idx) const {
    const TensorObj* t = checked();
    int32_t i = detail::NormalizeTensorDim(idx, t->ndim);
    return strides().data()[i];
  }
  /*! \return The number of dimensions (aten spelling of ndim()). */
  int64_t dim() const { return ndim(); }
  /*! \return The extents (aten spelling of shape()). */
  ShapeView sizes() const { return shape(); }
  /*! \return Whether the layout is compact row-major (aten spelling of IsContiguous()). */
  bool is_contiguous() const { return IsContiguous(); }
  /*!
   * \brief A tensor viewing the same memory with another shape and strides
   *  (in elements), starting element_offset elements further; it keeps this
   *  tensor's memory alive.
   */
  Tensor as_strided(ShapeView shape, ShapeView strides,
                    std::optional<int64_t> element_offset = std::nullopt) const {
    const TensorObj* t = checked();
    DLTensor proto = detail::MakeStridedPrototype(*t, shape, strides, element_offset);
    return Tensor(make_inplace_array_object<detail::StridedViewTensorObj, int64_t>(2 * shape.size(),
                                                                                   *this, proto));
  }
  DLDataType dtype() const { return checked()->dtype; }
  DLDevice device() const { return checked()->device; }
  int32_t ndim() const { return checked()->ndim; }
  /*! \return The number of elements (1 for a 0-d tensor). */
  int64_t numel() const { return detail::TensorNumel(*checked()); }
  /*! \return The data pointer; the first element is at data_ptr() + byte_offset(). */
  void* data_ptr() const { return checked()->data; }
  uint64_t byte_offset() const { return checked()->byte_offset; }
  /*! \return Whether the layout is compact row-major. */
  bool IsContiguous() const { return detail::TensorIsContiguous(*checked()); }
  /*! \return Whether the first element's address is a multiple of alignment bytes. */
  bool IsAligned(size_t alignment) const { return detail::TensorIsAligned(*checked(), alignment); }
  /*! \return The DLTensor inside the object (for passing to kernels). */
  DLTensor* GetDLTensorPtr() const { return const_cast<TensorObj*>(checked()); }

  /*!
   * \brief A new compact tensor whose memory comes from alloc.AllocData(DLTensor*,
   *  extra_args...); alloc is stored in the tensor and alloc.FreeData(DLTensor*)
   *  runs when the last reference goes away.
   */
  template <typename TNDAlloc, typename... ExtraArgs>
  static Tensor FromNDAlloc(TNDAlloc alloc, ShapeView shape, DLDataType dtype, DLDevice device,
                            ExtraArgs&&... extra_args) {
    detail::CheckTensorShape(shape, "Tensor::FromNDAlloc");
    return Tensor(make_inplace_array_object<detail::TensorObjFromNDAlloc<TNDAlloc>, int64_t>(
        2 * shape.size(), std::move(alloc), shape, nullptr, dtype, device,
        std::forward<ExtraArgs>(extra_args)...));
  }

  /*! \brief FromNDAlloc with the shape written in braces: FromNDAlloc(alloc, {2, 3}, ...). */
  template <typename TNDAlloc, typename... ExtraArgs>
  static Tensor FromNDAlloc(TNDAlloc alloc, std::initializer_list<int64_t> shape, DLDataType dtype,
                            DLDevice device, ExtraArgs&&... extra_args) {
    return FromNDAlloc(std::move(alloc), ShapeView(shape.begin(), shape.size()), dtype, device,
                       std::forward<ExtraArgs>(extra_args)...);
  }

  /*!
   * \brief Like FromNDAlloc with explicit (non-negative) strides in elements. GetDataSize counts
   *  elements only, so an AllocData for padded strides must size the strided span itself.
   */
  template <typename TNDAlloc, typename... ExtraArgs>
  static Tensor FromNDAllocStrided(TNDAlloc alloc, ShapeView shape, ShapeView strides,
                                   DLDataType dtype, DLDevice device, ExtraArgs&&... extra_args) {
    detail::CheckTensorShape(shape, "Tensor::FromNDAllocStrided");
    if (strides.size() != shape.size()) {
      TVM_FFI_THROW(ValueError) << "Tensor::FromNDAllocStrided: strides " << strides << " have "
                                << strides.size() << " entries but shape " << shape << " has "
                                << shape.size();
    }
    for (size_t i = 0; i < strides.size(); ++i) {
      if (strides.data()[i] < 0) {
        TVM_FFI_THROW(ValueError) << "Tensor::FromNDAllocStrided: stride #" << i << " is negative ("
                                  << strides.data()[i] << ")";
      }
    }
    return Tensor(make_inplace_array_object<detail::TensorObjFromNDAlloc<TNDAlloc>, int64_t>(
        2 * shape.size(), std::move(alloc), shape, strides.data(), dtype, device,
        std::forward<ExtraArgs>(extra_args)...));
  }

  /*! \brief FromNDAllocStrided with shape and strides written in braces. */
  template <typename TNDAlloc, typename... ExtraArgs>
  static Tensor FromNDAllocStrided(TNDAlloc alloc, std::initializer_list<int64_t> shape,
                                   std::initializer_list<int64_t> strides, DLDataType dtype,
                                   DLDevice device, ExtraArgs&&... extra_args) {
    return FromNDAllocStrided(std::move(alloc), ShapeView(shape.begin(), shape.size()),
                              ShapeView(strides.begin(), strides.size()), dtype, device,
                              std::forward<ExtraArgs>(extra_args)...);
  }

  /*!
   * \brief A tensor sharing the memory of a legacy DLPack tensor, which it
   *  owns from then on: from->deleter(from) runs once, when the last
   *  reference goes away.
   * \param require_alignment When > 0, data + byte_offset must be a multiple of it.
   * \param require_contiguous Whether the layout must be compact row-major.
   * \throws Error ValueError naming the unmet requirement; `from` then still
   *  belongs to the caller (its deleter is not called).
   */
  static Tensor FromDLPack(DLManagedTensor* from, int32_t require_alignment = 0,
                           bool require_contiguous = false) {
    TVMFFIObjectHandle out = nullptr;
    TVM_FFI_CHECK_SAFE_CALL(
        TVMFFITensorFromDLPack(from, require_alignment, require_contiguous ? 1 : 0, &out));
    return FromOwnedHandle(out);
  }

  /*!
   * \brief FromDLPack for a DLPack 1.x tensor; its read-only and is-copied
   *  flags are kept and come back from ToDLPackVersioned.
   */
  static Tensor FromDLPackVersioned(DLManagedTensorVersioned* from, int32_t require_alignment = 0,
                                    bool require_contiguous = false) {
    TVMFFIObjectHandle out = nullptr;
    TVM_FFI_CHECK_SAFE_CALL(
        TVMFFITensorFromDLPackVersioned(from, require_alignment, require_contiguous ? 1 : 0, &out));
    return FromOwnedHandle(out);
  }

  /*!
   * \brief Export as a legacy DLPack tensor sharing this memory. The result
   *  holds one reference to the tensor; its deleter releases exactly that.
   */
  DLManagedTensor* ToDLPack() const {
    DLManagedTensor* out = nullptr;
    TVM_FFI_CHECK_SAFE_CALL(TVMFFITensorToDLPack(detail::ObjectUnsafe::GetHeader(checked()), &out));
    return out;
  }

  /*! \brief Export as a DLPack 1.x tensor (see ToDLPack); carries the tensor's flags. */
  DLManagedTensorVersioned* ToDLPackVersioned() const {
    DLManagedTensorVersioned* out = nullptr;
    TVM_FFI_CHECK_SAFE_CALL(
        TVMFFITensorToDLPackVersioned(detail::ObjectUnsafe::GetHeader(checked()), &out));
    return out;
  }

  /*!
   * \brief A new tensor from a DLPack allocator (such as the caller
   *  framework's, see FromEnvAlloc).
   */
  static Tensor FromDLPackAlloc(DLPackManagedTensorAllocator allocator, ShapeView shape,
                                DLDataType dtype, DLDevice device) {
    detail::CheckTensorShape(shape, "Tensor::FromDLPackAlloc");
    if (allocator == nullptr) {
      TVM_FFI_THROW(RuntimeError) << "Tensor::FromDLPackAlloc: the allocator is NULL";
    }
    DLTensor prototype = AllocPrototype(shape, dtype, device);
    AllocErrorContext ctx;
    DLManagedTensorVersioned* managed = nullptr;
    int rc = allocator(&prototype, &managed, &ctx, &AllocErrorContext::Set);
    if (rc != 0 || managed == nullptr) {
      if (!ctx.set) {
        ctx.kind = "RuntimeError";
        ctx.message = "the DLPack tensor allocator failed without an error message";
      }
      const TVMFFIByteArray* bt = TVMFFIBacktrace(__FILE__, __LINE__, TVM_FFI_FUNC_SIG, 0);
      throw Error(ctx.kind, ctx.message,
                  bt != nullptr ? std::string_view(bt->data, bt->size) : std::string_view());
    }
    try {
      return FromDLPackVersioned(managed);
    } catch (...) {
      // The allocator's tensor was not adopted; hand it back.
      if (managed->deleter != nullptr) managed->deleter(managed);
      throw;
    }
  }

  /*!
   * \brief A new tensor from an environment allocator function, typically
   *  TVMFFIEnvTensorAlloc (which uses the DLPack allocator the host installed
   *  with TVMFFIEnvSetDLPackManagedTensorAllocator; Python installs its
   *  framework's). env_alloc receives a prototype with device, dtype, ndim and
   *  shape set (everything else zero) and returns an owned Tensor handle.
   * \throws Error the error env_alloc raised, kind and message unchanged.
   */
  static Tensor FromEnvAlloc(int (*env_alloc)(DLTensor*, TVMFFIObjectHandle*), ShapeView shape,
                             DLDataType dtype, DLDevice device) {
    detail::CheckTensorShape(shape, "Tensor::FromEnvAlloc");
    if (env_alloc == nullptr) {
      TVM_FFI_THROW(ValueError) << "Tensor::FromEnvAlloc: the allocator function is NULL";
    }
    DLTensor prototype = AllocPrototype(shape, dtype, device);
    TVMFFIObjectHandle out = nullptr;
    TVM_FFI_CHECK_SAFE_CALL(env_alloc(&prototype, &out));
    return FromOwnedHandle(out);
  }

  /*! \brief FromEnvAlloc with the shape written in braces. */
  static Tensor FromEnvAlloc(int (*env_alloc)(DLTensor*, TVMFFIObjectHandle*),
                             std::initializer_list<int64_t> shape, DLDataType dtype,
                             DLDevice device) {
    return FromEnvAlloc(env_alloc, ShapeView(shape.begin(), shape.size()), dtype, device);
  }

  static constexpr bool _type_is_nullable = true;
  using ContainerType = TensorObj;

 private:
  /*! \brief What an allocator is asked for: device, dtype, ndim and shape; the rest zero. */
  static DLTensor AllocPrototype(ShapeView shape, DLDataType dtype, DLDevice device) {
    DLTensor prototype;
    prototype.data = nullptr;
    prototype.device = device;
    prototype.ndim = static_cast<int32_t>(shape.size());
    prototype.dtype = dtype;
    prototype.shape = const_cast<int64_t*>(shape.data());
    prototype.strides = nullptr;
    prototype.byte_offset = 0;
    return prototype;
  }

  const TensorObj* checked() const {
    const TensorObj* t = get();
    if (TVM_FFI_UNLIKELY(t == nullptr)) {
      TVM_FFI_THROW(ValueError) << "Cannot use an undefined (null) Tensor";
    }
    return t;
  }
  static Tensor FromOwnedHandle(TVMFFIObjectHandle handle) {
    return Tensor(
        detail::ObjectUnsafe::ObjectPtrFromOwned<TensorObj>(static_cast<TVMFFIObject*>(handle)));
  }
  // Collects the error an allocator reports through its set_error callback.
  struct AllocErrorContext {
    bool set = false;
    std::string kind;
    std::string message;
    static void Set(void* self, const char* kind, const char* message) {
      AllocErrorContext* ctx = static_cast<AllocErrorContext*>(self);
      ctx->set = true;
      ctx->kind = kind != nullptr ? kind : "RuntimeError";
      ctx->message = message != nullptr ? message : "";
    }
  };
};

/*!
 * \brief A non-owning view of a tensor: a copy of its DLTensor (the data,
 *  shape and strides stay borrowed). Made from a Tensor or a DLTensor*; as
 *  a function parameter it accepts a Tensor object or a borrowed DLTensor*
 *  argument, with no allocation. The viewed tensor must outlive the view.
 */
class TensorView {
 public:
  /*! \brief A view of a tensor; InternalError when it is undefined. */
  TensorView(const Tensor& tensor) {  // NOLINT(runtime/explicit)
    if (!tensor.defined()) TVM_FFI_THROW(InternalError) << "TensorView: the Tensor is undefined";
    tensor_ = *tensor.GetDLTensorPtr();
  }
  /*! \brief A view of a temporary would dangle at once. */
  TensorView(Tensor&& tensor) = delete;
  /*! \brief A view of a DLTensor; InternalError when it is NULL. */
  TensorView(const DLTensor* tensor) {  // NOLINT(runtime/explicit)
    if (tensor == nullptr) TVM_FFI_THROW(InternalError) << "TensorView: the DLTensor* is NULL";
    tensor_ = *tensor;
  }
  TensorView& operator=(const Tensor& tensor) {
    *this = TensorView(tensor);
    return *this;
  }
  TensorView& operator=(Tensor&& tensor) = delete;
  TensorView(const TensorView&) = default;
  TensorView(TensorView&&) = default;
  TensorView& operator=(const TensorView&) = default;
  TensorView& operator=(TensorView&&) = default;

  ShapeView shape() const { return ShapeView(tensor_.shape, static_cast<size_t>(tensor_.ndim)); }
  /*!
   * \return The strides in elements; computed (once per view) when the
   *  DLTensor leaves them NULL for a compact tensor.
   */
  ShapeView strides() const {
    if (tensor_.strides != nullptr || tensor_.ndim == 0) {
      return ShapeView(tensor_.strides, static_cast<size_t>(tensor_.ndim));
    }
    if (compact_strides_.size() != static_cast<size_t>(tensor_.ndim)) {
      compact_strides_.resize(static_cast<size_t>(tensor_.ndim));
      detail::FillCompactStrides(tensor_.shape, tensor_.ndim, compact_strides_.data());
    }
    return ShapeView(compact_strides_);
  }
  DLDataType dtype() const { return tensor_.dtype; }
  DLDevice device() const { return tensor_.device; }
  int32_t ndim() const { return tensor_.ndim; }
  int64_t numel() const { return detail::TensorNumel(tensor_); }
  void* data_ptr() const { return tensor_.data; }
  uint64_t byte_offset() const { return tensor_.byte_offset; }
  bool IsContiguous() const { return detail::TensorIsContiguous(tensor_); }
  bool IsAligned(size_t alignment) const { return detail::TensorIsAligned(tensor_, alignment); }
  /*! \return Extent idx; negative idx counts from the end; IndexError when out of range. */
  int64_t size(int64_t idx) const {
    return tensor_.shape[detail::NormalizeTensorDim(idx, tensor_.ndim)];
  }
  /*! \return Stride idx in elements; negative idx counts from the end. */
  int64_t stride(int64_t idx) const {
    int32_t i = detail::NormalizeTensorDim(idx, tensor_.ndim);
    return strides().data()[i];
  }
  int64_t dim() const { return tensor_.ndim; }
  ShapeView sizes() const { return shape(); }
  bool is_contiguous() const { return IsContiguous(); }
  /*!
   * \brief A view of the same memory with another shape and strides (the two
   *  views must outlive the returned one); InternalError when their sizes differ.
   */
  TensorView as_strided(ShapeView shape, ShapeView strides,
                        std::optional<int64_t> element_offset = std::nullopt) const {
    DLTensor proto = detail::MakeStridedPrototype(tensor_, shape, strides, element_offset);
    return TensorView(&proto);
  }
  /*! \return The view's DLTensor (valid while the view lives). */
  const DLTensor* GetDLTensorPtr() const { return &tensor_; }

 private:
  DLTensor tensor_;
  mutable std::vector<int64_t> compact_strides_;
};

/*! \return The bytes of the tensor's elements (numel-based, as GetDataSize(const DLTensor&)). */
inline size_t GetDataSize(const Tensor& tensor) {
  return GetDataSize(static_cast<size_t>(tensor.numel()), tensor.dtype());
}
/*! \return The bytes of the view's elements (numel-based, as GetDataSize(const DLTensor&)). */
inline size_t GetDataSize(const TensorView& tensor) {
  return GetDataSize(static_cast<size_t>(tensor.numel()), tensor.dtype());
}

/*!
 * \brief TensorView is passed as a borrowed DLTensor* and read from either a
 *  DLTensor* or a Tensor object. It cannot be stored in an owning Any.
 */
template <>
struct TypeTraits<TensorView> : TypeTraitsBase {
  static constexpr bool storage_enabled = false;  // converted on every crossing
  static void CopyToAnyView(const TensorView& src, TVMFFIAny* r) {
    r->type_index = kTVMFFIDLTensorPtr;
    r->zero_padding = 0;
    r->v_int64 = 0;
    r->v_ptr = const_cast<DLTensor*>(src.GetDLTensorPtr());
  }
  static bool CheckAnyStrict(const TVMFFIAny* src) {
    return src->type_index == kTVMFFIDLTensorPtr || src->type_index == kTVMFFITensor;
  }
  static TensorView CopyFromAnyViewAfterCheck(const TVMFFIAny* src) {
    if (src->type_index == kTVMFFIDLTensorPtr) {
      return TensorView(static_cast<const DLTensor*>(src->v_ptr));
    }
    return TensorView(detail::TensorObjAsDLTensor(src->v_obj));
  }
  // The view borrows from the cell's tensor, which the caller keeps alive.
  static TensorView MoveFromAnyAfterCheck(TVMFFIAny* src) { return CopyFromAnyViewAfterCheck(src); }
  static std::optional<TensorView> TryCastFromAnyView(const TVMFFIAny* src) {
    if (CheckAnyStrict(src)) return CopyFromAnyViewAfterCheck(src);
    TVMFFIObject* obj = detail::AnyObjectOrNull(src);
    if (obj != nullptr && obj->type_index == kTVMFFITensor) {
      return TensorView(detail::TensorObjAsDLTensor(obj));
    }
    return std::nullopt;
  }
  static std::string TypeStr() { return "DLTensor*"; }
  // A view travels as a borrowed DLTensor*: bindings read this schema to pass
  // their arrays without making a Tensor object.
  static std::string TypeSchema() { return detail::SchemaOf("DLTensor*"); }
};

TVM_FFI_NAMESPACE_END
#endif  // TVM_FFI_CONTAINER_TENSOR_H_
