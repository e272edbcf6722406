/*
 * DLPack 1.3: the common in-memory tensor description shared between
 * frameworks, and the C exchange API through which a consumer talks to a
 * framework's tensors without going through Python.
 *
 * This is the project's own rendition of the DLPack ABI. The guard macro is
 * the one every DLPack copy uses, so whichever copy a translation unit
 * includes first wins and the definitions never clash. Plain C; compiles as
 * C and as C++.
 */
#ifndef DLPACK_DLPACK_H_
#define DLPACK_DLPACK_H_

/*! \brief Major version of the DLPack ABI described here. */
#define DLPACK_MAJOR_VERSION 1
/*! \brief Minor version of the DLPack ABI described here. */
#define DLPACK_MINOR_VERSION 3

#ifdef __cplusplus
#define DLPACK_EXTERN_C extern "C"
#else
#define DLPACK_EXTERN_C
#endif

/* Visibility of symbols of libraries that export DLPack functions. */
#ifdef _WIN32
#ifdef DLPACK_EXPORTS
#define DLPACK_DLL __declspec(dllexport)
#else
#define DLPACK_DLL __declspec(dllimport)
#endif
#else
#define DLPACK_DLL
#endif

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/*!
 * \brief Version of the DLPack ABI a DLManagedTensorVersioned follows. A
 *  consumer must reject a tensor whose major version it does not know.
 */
typedef struct DLPackVersion {
  uint32_t major;
  uint32_t minor;
} DLPackVersion;

/*! \brief Kind of device a tensor lives on. Values are part of the ABI. */
#ifdef __cplusplus
typedef enum DLDeviceType : int32_t {
#else
typedef enum DLDeviceType {
#endif
  /*! \brief Host memory. */
  kDLCPU = 1,
  /*! \brief CUDA device memory. */
  kDLCUDA = 2,
  /*! \brief Host memory pinned by the CUDA driver. */
  kDLCUDAHost = 3,
  kDLOpenCL = 4,
  kDLVulkan = 7,
  kDLMetal = 8,
  kDLVPI = 9,
  /*! \brief AMD ROCm device memory. */
  kDLROCM = 10,
  /*! \brief Host memory pinned by ROCm. */
  kDLROCMHost = 11,
  /*! \brief Reserved for out-of-tree extension devices. */
  kDLExtDev = 12,
  /*! \brief CUDA unified (managed) memory. */
  kDLCUDAManaged = 13,
  kDLOneAPI = 14,
  kDLWebGPU = 15,
  kDLHexagon = 16,
  kDLMAIA = 17,
  kDLTrn = 18
} DLDeviceType;

/*! \brief A device: its kind and its ordinal among devices of that kind. */
typedef struct DLDevice {
  DLDeviceType device_type;
  int32_t device_id;
} DLDevice;

/*! \brief Type code of DLDataType::code. Values are part of the ABI. */
typedef enum DLDataTypeCode {
  kDLInt = 0,
  kDLUInt = 1,
  /*! \brief IEEE floating point. */
  kDLFloat = 2,
  /*! \brief Opaque pointer-sized handle; also "void" with 0 bits. */
  kDLOpaqueHandle = 3,
  kDLBfloat = 4,
  /*! \brief Complex number; bits count both components. */
  kDLComplex = 5,
  /*! \brief Boolean, normally stored in 8 bits. */
  kDLBool = 6,
  /* Narrow float formats, named after exponent/mantissa widths and their
   * finite/no-negative-zero variants. */
  kDLFloat8_e3m4 = 7,
  kDLFloat8_e4m3 = 8,
  kDLFloat8_e4m3b11fnuz = 9,
  kDLFloat8_e4m3fn = 10,
  kDLFloat8_e4m3fnuz = 11,
  kDLFloat8_e5m2 = 12,
  kDLFloat8_e5m2fnuz = 13,
  kDLFloat8_e8m0fnu = 14,
  kDLFloat6_e2m3fn = 15,
  kDLFloat6_e3m2fn = 16,
  kDLFloat4_e2m1fn = 17
} DLDataTypeCode;

/*!
 * \brief Element type of a tensor: a DLDataTypeCode, a bit width, and a
 *  number of vector lanes (1 for scalars).
 */
typedef struct DLDataType {
  uint8_t code;
  uint8_t bits;
  uint16_t lanes;
} DLDataType;

/*!
 * \brief A borrowed view of a strided tensor.
 *  The first element lives at (char*)data + byte_offset. strides, counted in
 *  elements, may be NULL for a compact row-major tensor.
 */
typedef struct DLTensor {
  void* data;
  DLDevice device;
  int32_t ndim;
  DLDataType dtype;
  int64_t* shape;
  int64_t* strides;
  uint64_t byte_offset;
} DLTensor;

/*!
 * \brief A tensor handed from a producer to a consumer (the pre-1.0 form,
 *  without version or flags). The consumer calls deleter(self) when done;
 *  deleter may be NULL when nothing needs to be freed.
 */
typedef struct DLManagedTensor {
  DLTensor dl_tensor;
  /*! \brief Producer-private context for the deleter. */
  void* manager_ctx;
  void (*deleter)(struct DLManagedTensor* self);
} DLManagedTensor;

/*! \brief The tensor data must not be written by the consumer. */
#define DLPACK_FLAG_BITMASK_READ_ONLY (1UL << 0)
/*! \brief The producer copied the data for this exchange. */
#define DLPACK_FLAG_BITMASK_IS_COPIED (1UL << 1)
/*! \brief Sub-byte elements are padded to whole bytes. */
#define DLPACK_FLAG_BITMASK_IS_SUBBYTE_TYPE_PADDED (1UL << 2)

/*!
 * \brief A tensor handed from a producer to a consumer (DLPack 1.x form).
 *  The consumer calls deleter(self) when done; deleter may be NULL.
 */
typedef struct DLManagedTensorVersioned {
  DLPackVersion version;
  /*! \brief Producer-private context for the deleter. */
  void* manager_ctx;
  void (*deleter)(struct DLManagedTensorVersioned* self);
  /*! \brief Bitwise OR of the DLPACK_FLAG_BITMASK_* values. */
  uint64_t flags;
  DLTensor dl_tensor;
} DLManagedTensorVersioned;

/* ------------------------------------------------------------------------
 * C exchange API (DLPack 1.2+; published as a capsule since 1.3)
 *
 * A framework publishes one static DLPackExchangeAPI table per tensor class,
 * as the class attribute __dlpack_c_exchange_api__: a PyCapsule named
 * "dlpack_exchange_api" whose pointer is a const DLPackExchangeAPI*. A
 * consumer looks the table up once per type and then exchanges tensors
 * through plain C calls. Every function returns 0 on success and -1 on
 * failure, and never throws a C++ exception.
 * ------------------------------------------------------------------------ */

#ifndef DLPACK_MANAGED_TENSOR_ALLOCATOR_DEFINED
#define DLPACK_MANAGED_TENSOR_ALLOCATOR_DEFINED
/*!
 * \brief Allocate a new tensor owned by the producer framework.
 *  Only dtype, ndim, shape and device of prototype are read. On failure the
 *  allocator calls SetError(error_ctx, kind, message) once (it may need to
 *  take the GIL) and returns nonzero.
 */
typedef int (*DLPackManagedTensorAllocator)(DLTensor* prototype, DLManagedTensorVersioned** out,
                                            void* error_ctx,
                                            void (*SetError)(void* error_ctx, const char* kind,
                                                             const char* message));
#endif  // DLPACK_MANAGED_TENSOR_ALLOCATOR_DEFINED

/*!
 * \brief Export py_object (a tensor of exactly the publishing type) as an
 *  owning managed tensor the caller must delete; no stream synchronisation.
 *  On failure a Python exception is set (BufferError if not representable).
 */
typedef int (*DLPackManagedTensorFromPyObjectNoSync)(void* py_object,
                                                     DLManagedTensorVersioned** out);

/*!
 * \brief Import: takes over tensor and writes a new reference to a framework
 *  tensor sharing its memory to *out_py_object; no synchronisation.
 */
typedef int (*DLPackManagedTensorToPyObjectNoSync)(DLManagedTensorVersioned* tensor,
                                                   void** out_py_object);

/*!
 * \brief Non-owning fill of a caller-provided DLTensor; shape and strides
 *  point into the producer and stay valid only until control returns to the
 *  producer. No allocation, no synchronisation.
 */
typedef int (*DLPackDLTensorFromPyObjectNoSync)(void* py_object, DLTensor* out);

/*!
 * \brief The producer's current work stream for a device; for kDLCPU the
 *  producer may write NULL.
 */
typedef int (*DLPackCurrentWorkStream)(DLDeviceType device_type, int32_t device_id,
                                       void** out_current_stream);

/*!
 * \brief First member of every exchange table; stable across versions.
 *  prev_api points to a table of an older major version (NULL if none) for
 *  consumers that only know that one.
 */
typedef struct DLPackExchangeAPIHeader {
  DLPackVersion version;
  struct DLPackExchangeAPIHeader* prev_api;
} DLPackExchangeAPIHeader;

/*!
 * \brief The exchange table of a framework (56 bytes on LP64).
 *  dltensor_from_py_object_no_sync may be NULL; the others must not.
 */
typedef struct DLPackExchangeAPI {
  DLPackExchangeAPIHeader header;
  DLPackManagedTensorAllocator managed_tensor_allocator;
  DLPackManagedTensorFromPyObjectNoSync managed_tensor_from_py_object_no_sync;
  DLPackManagedTensorToPyObjectNoSync managed_tensor_to_py_object_no_sync;
  DLPackDLTensorFromPyObjectNoSync dltensor_from_py_object_no_sync;
  DLPackCurrentWorkStream current_work_stream;
} DLPackExchangeAPI;

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // DLPACK_DLPACK_H_
