/*
 * The environment API of libtvm_ffi: what the host process (usually Python
 * and its array framework) hands to native code - per-thread device streams,
 * a DLPack tensor allocator, a signal checker - and the symbol tables that
 * loaded libraries use to find each other's functions.
 *
 * All functions return 0 on success and -1 with a raised error, unless noted.
 */
#ifndef TVM_FFI_EXTRA_C_ENV_API_H_
#define TVM_FFI_EXTRA_C_ENV_API_H_

#include <tvm/ffi/c_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/*! \brief A device stream (for example a cudaStream_t). */
typedef void* TVMFFIStreamHandle;

/*!
 * \brief Set the calling thread's current stream of a device.
 * \param opt_out_original_stream When not NULL, receives the previous stream.
 */
TVM_FFI_DLL int TVMFFIEnvSetStream(int32_t device_type, int32_t device_id,
                                   TVMFFIStreamHandle stream,
                                   TVMFFIStreamHandle* opt_out_original_stream);

/*! \return The calling thread's current stream of a device; NULL when never set. */
TVM_FFI_DLL TVMFFIStreamHandle TVMFFIEnvGetStream(int32_t device_type, int32_t device_id);

/*!
 * \brief Set the calling thread's DLPack tensor allocator, and the process-wide
 *  one too when write_to_global_context is non-zero.
 * \param opt_out_original When not NULL, receives what the getter returned before.
 */
TVM_FFI_DLL int TVMFFIEnvSetDLPackManagedTensorAllocator(
    DLPackManagedTensorAllocator allocator, int write_to_global_context,
    DLPackManagedTensorAllocator* opt_out_original);

/*! \return The calling thread's allocator if set, else the process-wide one (may be NULL). */
TVM_FFI_DLL DLPackManagedTensorAllocator TVMFFIEnvGetDLPackManagedTensorAllocator(void);

/*!
 * \brief Allocate a tensor with the current DLPack allocator. Only dtype, ndim,
 *  shape and device of the prototype are read.
 * \param out An owned Tensor object (compact strides when the allocator gave none).
 */
TVM_FFI_DLL int TVMFFIEnvTensorAlloc(DLTensor* prototype, TVMFFIObjectHandle* out);

/*!
 * \brief Run the registered signal checker (Python installs one, so Ctrl-C
 *  reaches long native loops). 0 when none is registered.
 */
TVM_FFI_DLL int TVMFFIEnvCheckSignals(void);

/*!
 * \brief Register a C function of the host the runtime may call back: one of
 *  "PyErr_CheckSignals", "PyGILState_Ensure", "PyGILState_Release".
 */
TVM_FFI_DLL int TVMFFIEnvRegisterCAPI(const char* name, void* symbol);

/*!
 * \brief Find a function for a library: in the imports of its module
 *  (recursively), then in the global registry.
 * \param library_ctx The value the loader stored in the library's __tvm_ffi__library_ctx.
 * \param out A borrowed Function handle, kept alive by a per-module cache.
 */
TVM_FFI_DLL int TVMFFIEnvModLookupFromImports(TVMFFIObjectHandle library_ctx, const char* func_name,
                                              TVMFFIObjectHandle* out);

/*!
 * \brief Register a context symbol: a library loaded later that exports a
 *  `void*` variable named name gets symbol written into it.
 */
TVM_FFI_DLL int TVMFFIEnvModRegisterContextSymbol(const char* name, void* symbol);

/*!
 * \brief Register a symbol of the system library (functions linked into the
 *  process), looked up by Module::SystemLib.
 */
TVM_FFI_DLL int TVMFFIEnvModRegisterSystemLibSymbol(const char* name, void* symbol);

/*! \brief Look a symbol of the system library up; *out is NULL when missing. */
TVM_FFI_DLL int TVMFFIEnvModLookupSystemLibSymbol(const char* name, void** out);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // TVM_FFI_EXTRA_C_ENV_API_H_
