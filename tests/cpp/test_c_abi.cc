/*
 * Pins the binary layout of the C ABI (dlpack.h and c_api.h) at compile time:
 * sizes, alignments, field offsets and types, enum values and macros. Any
 * drift from the apache-tvm-ffi 0.1.x ABI breaks the build of this file
 * rather than a foreign library at run time.
 *
 * Only the C headers are used, so this file does not depend on the C++ API.
 */
#include <gtest/gtest.h>
#include <tvm/ffi/c_api.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>

#if !defined(__LP64__) && !defined(_WIN64)
#error "the layout facts below are those of a 64-bit target"
#endif

// Offset and declared type of one field.
#define TVM_FFI_CHECK_FIELD(T, field, off, type)                        \
  static_assert(offsetof(T, field) == (off), #T "::" #field " offset"); \
  static_assert(std::is_same<decltype(T::field), type>::value, #T "::" #field " type")

#define TVM_FFI_CHECK_SIZE(T, size, align)                 \
  static_assert(sizeof(T) == (size), "sizeof(" #T ")");    \
  static_assert(alignof(T) == (align), "alignof(" #T ")"); \
  static_assert(std::is_standard_layout<T>::value, #T " standard layout")

// Named structs (global scope): forward-declarable and usable as base classes.
struct TVMFFISeqCell;
struct TVMFFITypeInfo;
struct TVMFFIAbiTestDerivedSeqCell : public TVMFFISeqCell {
  int extra;
};
static_assert(offsetof(TVMFFIAbiTestDerivedSeqCell, extra) == 32, "TVMFFISeqCell as a base class");

namespace {

// ---------------------------------------------------------------------------
// Macros
// ---------------------------------------------------------------------------
#ifndef DLPACK_DLPACK_H_
#error "dlpack.h must use the DLPACK_DLPACK_H_ guard"
#endif
#if !defined(DLPACK_EXTERN_C) || !defined(DLPACK_DLL)
#error "dlpack.h must define DLPACK_EXTERN_C and DLPACK_DLL"
#endif
#if !defined(TVM_FFI_DLL) || !defined(TVM_FFI_DLL_EXPORT)
#error "c_api.h must define TVM_FFI_DLL and TVM_FFI_DLL_EXPORT"
#endif
static_assert(DLPACK_MAJOR_VERSION == 1, "DLPack major version");
static_assert(DLPACK_MINOR_VERSION >= 1, "DLPack minor version");
static_assert(TVM_FFI_VERSION_MAJOR == 0, "tvm-ffi major version");
static_assert(TVM_FFI_VERSION_MINOR == 1, "tvm-ffi minor version");

static_assert(DLPACK_FLAG_BITMASK_READ_ONLY == 1, "read-only flag");
static_assert(DLPACK_FLAG_BITMASK_IS_COPIED == 2, "is-copied flag");
static_assert(DLPACK_FLAG_BITMASK_IS_SUBBYTE_TYPE_PADDED == 4, "sub-byte padded flag");

static_assert(TVM_FFI_VERSION_PATCH == 16, "tvm-ffi patch version");
#if !defined(TVM_FFI_WEAK) || !defined(TVM_FFI_ATTRIBUTE_PURE)
#error "c_api.h must define TVM_FFI_WEAK and TVM_FFI_ATTRIBUTE_PURE"
#endif
#ifndef DLPACK_MANAGED_TENSOR_ALLOCATOR_DEFINED
#error "DLPackManagedTensorAllocator must be guarded by DLPACK_MANAGED_TENSOR_ALLOCATOR_DEFINED"
#endif
#ifndef TVM_FFI_EXTRA_C_ENV_API_H_
#error "c_api.h gives the environment API of extra/c_env_api.h"
#endif

static_assert(kTVMFFIObjectDeleterFlagBitMaskStrong == 1, "strong deleter flag");
static_assert(kTVMFFIObjectDeleterFlagBitMaskWeak == 2, "weak deleter flag");
static_assert(kTVMFFIObjectDeleterFlagBitMaskBoth == 3, "both deleter flag");
static_assert(
    std::is_same<std::underlying_type<TVMFFIObjectDeleterFlagBitMask>::type, int32_t>::value,
    "deleter flag enum is int32_t");

// ---------------------------------------------------------------------------
// DLPack (docs/abi.md section 1)
// ---------------------------------------------------------------------------
TVM_FFI_CHECK_SIZE(DLPackVersion, 8, 4);
TVM_FFI_CHECK_FIELD(DLPackVersion, major, 0, uint32_t);
TVM_FFI_CHECK_FIELD(DLPackVersion, minor, 4, uint32_t);

static_assert(sizeof(DLDeviceType) == 4, "DLDeviceType is a 4-byte enum");
TVM_FFI_CHECK_SIZE(DLDevice, 8, 4);
TVM_FFI_CHECK_FIELD(DLDevice, device_type, 0, DLDeviceType);
TVM_FFI_CHECK_FIELD(DLDevice, device_id, 4, int32_t);

TVM_FFI_CHECK_SIZE(DLDataType, 4, 2);
TVM_FFI_CHECK_FIELD(DLDataType, code, 0, uint8_t);
TVM_FFI_CHECK_FIELD(DLDataType, bits, 1, uint8_t);
TVM_FFI_CHECK_FIELD(DLDataType, lanes, 2, uint16_t);

TVM_FFI_CHECK_SIZE(DLTensor, 48, 8);
TVM_FFI_CHECK_FIELD(DLTensor, data, 0, void*);
TVM_FFI_CHECK_FIELD(DLTensor, device, 8, DLDevice);
TVM_FFI_CHECK_FIELD(DLTensor, ndim, 16, int32_t);
TVM_FFI_CHECK_FIELD(DLTensor, dtype, 20, DLDataType);
TVM_FFI_CHECK_FIELD(DLTensor, shape, 24, int64_t*);
TVM_FFI_CHECK_FIELD(DLTensor, strides, 32, int64_t*);
TVM_FFI_CHECK_FIELD(DLTensor, byte_offset, 40, uint64_t);

// The struct tags must equal the typedef names: deleters are declared with them.
TVM_FFI_CHECK_SIZE(struct DLManagedTensor, 64, 8);
TVM_FFI_CHECK_FIELD(DLManagedTensor, dl_tensor, 0, DLTensor);
TVM_FFI_CHECK_FIELD(DLManagedTensor, manager_ctx, 48, void*);
TVM_FFI_CHECK_FIELD(DLManagedTensor, deleter, 56, void (*)(struct DLManagedTensor*));

TVM_FFI_CHECK_SIZE(struct DLManagedTensorVersioned, 80, 8);
TVM_FFI_CHECK_FIELD(DLManagedTensorVersioned, version, 0, DLPackVersion);
TVM_FFI_CHECK_FIELD(DLManagedTensorVersioned, manager_ctx, 8, void*);
TVM_FFI_CHECK_FIELD(DLManagedTensorVersioned, deleter, 16,
                    void (*)(struct DLManagedTensorVersioned*));
TVM_FFI_CHECK_FIELD(DLManagedTensorVersioned, flags, 24, uint64_t);
TVM_FFI_CHECK_FIELD(DLManagedTensorVersioned, dl_tensor, 32, DLTensor);

static_assert(kDLCPU == 1 && kDLCUDA == 2 && kDLCUDAHost == 3 && kDLOpenCL == 4, "DLDeviceType");
static_assert(kDLVulkan == 7 && kDLMetal == 8 && kDLVPI == 9 && kDLROCM == 10, "DLDeviceType");
static_assert(kDLROCMHost == 11 && kDLExtDev == 12 && kDLCUDAManaged == 13, "DLDeviceType");
static_assert(kDLOneAPI == 14 && kDLWebGPU == 15 && kDLHexagon == 16, "DLDeviceType");
static_assert(kDLMAIA == 17 && kDLTrn == 18, "DLDeviceType");

static_assert(sizeof(DLDataTypeCode) == 4, "DLDataTypeCode is a 4-byte enum");
static_assert(kDLInt == 0 && kDLUInt == 1 && kDLFloat == 2 && kDLOpaqueHandle == 3, "code");
static_assert(kDLBfloat == 4 && kDLComplex == 5 && kDLBool == 6, "DLDataTypeCode");
static_assert(kDLFloat8_e3m4 == 7 && kDLFloat8_e4m3 == 8 && kDLFloat8_e4m3b11fnuz == 9, "code");
static_assert(kDLFloat8_e4m3fn == 10 && kDLFloat8_e4m3fnuz == 11, "DLDataTypeCode");
static_assert(kDLFloat8_e5m2 == 12 && kDLFloat8_e5m2fnuz == 13, "DLDataTypeCode");
static_assert(kDLFloat8_e8m0fnu == 14 && kDLFloat6_e2m3fn == 15, "DLDataTypeCode");
static_assert(kDLFloat6_e3m2fn == 16 && kDLFloat4_e2m1fn == 17, "DLDataTypeCode");

// ---------------------------------------------------------------------------
// Core types (docs/abi.md section 2)
// ---------------------------------------------------------------------------
TVM_FFI_CHECK_SIZE(TVMFFIVersion, 12, 4);
TVM_FFI_CHECK_FIELD(TVMFFIVersion, major, 0, uint32_t);
TVM_FFI_CHECK_FIELD(TVMFFIVersion, minor, 4, uint32_t);
TVM_FFI_CHECK_FIELD(TVMFFIVersion, patch, 8, uint32_t);

static_assert(sizeof(TVMFFITypeIndex) == 4, "TVMFFITypeIndex is a 4-byte enum");
static_assert(kTVMFFIAny == -1 && kTVMFFINone == 0 && kTVMFFIInt == 1 && kTVMFFIBool == 2,
              "POD type indices");
static_assert(kTVMFFIFloat == 3 && kTVMFFIOpaquePtr == 4 && kTVMFFIDataType == 5,
              "POD type indices");
static_assert(kTVMFFIDevice == 6 && kTVMFFIDLTensorPtr == 7 && kTVMFFIRawStr == 8,
              "POD type indices");
static_assert(kTVMFFIByteArrayPtr == 9 && kTVMFFIObjectRValueRef == 10, "POD type indices");
static_assert(kTVMFFISmallStr == 11 && kTVMFFISmallBytes == 12 && kTVMFFIUnchanged == 13,
              "POD type indices");
static_assert(kTVMFFIStaticObjectBegin == 64 && kTVMFFIObject == 64 && kTVMFFIStr == 65,
              "object type indices");
static_assert(kTVMFFIBytes == 66 && kTVMFFIError == 67 && kTVMFFIFunction == 68,
              "object type indices");
static_assert(kTVMFFIShape == 69 && kTVMFFITensor == 70 && kTVMFFIArray == 71,
              "object type indices");
static_assert(kTVMFFIMap == 72 && kTVMFFIModule == 73 && kTVMFFIOpaquePyObject == 74,
              "object type indices");
static_assert(kTVMFFIList == 75 && kTVMFFIDict == 76 && kTVMFFIVisitInterrupt == 77,
              "object type indices");
static_assert(kTVMFFIBigInt == 78 && kTVMFFIStaticObjectEnd == 79, "object type indices");
static_assert(kTVMFFIDynObjectBegin == 128, "first dynamic type index");

static_assert(std::is_same<TVMFFIObjectHandle, void*>::value, "TVMFFIObjectHandle is void*");

TVM_FFI_CHECK_SIZE(TVMFFIObject, 24, 8);
TVM_FFI_CHECK_FIELD(TVMFFIObject, combined_ref_count, 0, uint64_t);
TVM_FFI_CHECK_FIELD(TVMFFIObject, type_index, 8, int32_t);
TVM_FFI_CHECK_FIELD(TVMFFIObject, __padding, 12, uint32_t);
TVM_FFI_CHECK_FIELD(TVMFFIObject, deleter, 16, void (*)(void*, int));
TVM_FFI_CHECK_FIELD(TVMFFIObject, __ensure_align, 16, int64_t);

TVM_FFI_CHECK_SIZE(TVMFFIAny, 16, 8);
TVM_FFI_CHECK_FIELD(TVMFFIAny, type_index, 0, int32_t);
TVM_FFI_CHECK_FIELD(TVMFFIAny, zero_padding, 4, uint32_t);
TVM_FFI_CHECK_FIELD(TVMFFIAny, small_str_len, 4, uint32_t);
TVM_FFI_CHECK_FIELD(TVMFFIAny, v_int64, 8, int64_t);
TVM_FFI_CHECK_FIELD(TVMFFIAny, v_float64, 8, double);
TVM_FFI_CHECK_FIELD(TVMFFIAny, v_ptr, 8, void*);
TVM_FFI_CHECK_FIELD(TVMFFIAny, v_c_str, 8, const char*);
TVM_FFI_CHECK_FIELD(TVMFFIAny, v_obj, 8, TVMFFIObject*);
TVM_FFI_CHECK_FIELD(TVMFFIAny, v_dtype, 8, DLDataType);
TVM_FFI_CHECK_FIELD(TVMFFIAny, v_device, 8, DLDevice);
TVM_FFI_CHECK_FIELD(TVMFFIAny, v_bytes, 8, char[8]);
TVM_FFI_CHECK_FIELD(TVMFFIAny, v_uint64, 8, uint64_t);

TVM_FFI_CHECK_SIZE(TVMFFIByteArray, 16, 8);
TVM_FFI_CHECK_FIELD(TVMFFIByteArray, data, 0, const char*);
TVM_FFI_CHECK_FIELD(TVMFFIByteArray, size, 8, size_t);

TVM_FFI_CHECK_SIZE(TVMFFIShapeCell, 16, 8);
TVM_FFI_CHECK_FIELD(TVMFFIShapeCell, data, 0, const int64_t*);
TVM_FFI_CHECK_FIELD(TVMFFIShapeCell, size, 8, size_t);

TVM_FFI_CHECK_SIZE(TVMFFISeqCell, 32, 8);
TVM_FFI_CHECK_FIELD(TVMFFISeqCell, data, 0, void*);
TVM_FFI_CHECK_FIELD(TVMFFISeqCell, size, 8, int64_t);
TVM_FFI_CHECK_FIELD(TVMFFISeqCell, capacity, 16, int64_t);
TVM_FFI_CHECK_FIELD(TVMFFISeqCell, data_deleter, 24, void (*)(void*));

static_assert(sizeof(TVMFFIBacktraceUpdateMode) == 4, "TVMFFIBacktraceUpdateMode is 4 bytes");
static_assert(kTVMFFIBacktraceUpdateModeReplace == 0 && kTVMFFIBacktraceUpdateModeAppend == 1,
              "backtrace update modes");

TVM_FFI_CHECK_SIZE(TVMFFIErrorCell, 72, 8);
TVM_FFI_CHECK_FIELD(TVMFFIErrorCell, kind, 0, TVMFFIByteArray);
TVM_FFI_CHECK_FIELD(TVMFFIErrorCell, message, 16, TVMFFIByteArray);
TVM_FFI_CHECK_FIELD(TVMFFIErrorCell, backtrace, 32, TVMFFIByteArray);
TVM_FFI_CHECK_FIELD(TVMFFIErrorCell, update_backtrace, 48,
                    void (*)(TVMFFIObjectHandle, const TVMFFIByteArray*, int32_t));
TVM_FFI_CHECK_FIELD(TVMFFIErrorCell, cause_chain, 56, TVMFFIObjectHandle);
TVM_FFI_CHECK_FIELD(TVMFFIErrorCell, extra_context, 64, TVMFFIObjectHandle);

static_assert(
    std::is_same<TVMFFISafeCallType, int (*)(void*, const TVMFFIAny*, int32_t, TVMFFIAny*)>::value,
    "safe call signature");
TVM_FFI_CHECK_SIZE(TVMFFIFunctionCell, 16, 8);
TVM_FFI_CHECK_FIELD(TVMFFIFunctionCell, safe_call, 0, TVMFFISafeCallType);
TVM_FFI_CHECK_FIELD(TVMFFIFunctionCell, cpp_call, 8, void*);

TVM_FFI_CHECK_SIZE(TVMFFIOpaqueObjectCell, 8, 8);
TVM_FFI_CHECK_FIELD(TVMFFIOpaqueObjectCell, handle, 0, void*);

// Type registry (docs/abi.md section 2.6)
static_assert(std::is_same<TVMFFIFieldGetter, int (*)(void*, TVMFFIAny*)>::value, "getter");
static_assert(std::is_same<TVMFFIFieldSetter, int (*)(void*, const TVMFFIAny*)>::value, "setter");
static_assert(std::is_same<TVMFFIObjectCreator, int (*)(TVMFFIObjectHandle*)>::value, "creator");

static_assert(kTVMFFIFieldFlagBitMaskWritable == 1 && kTVMFFIFieldFlagBitMaskHasDefault == 2,
              "field flags");
static_assert(kTVMFFIFieldFlagBitMaskIsStaticMethod == 4 &&
                  kTVMFFIFieldFlagBitMaskSEqHashIgnore == 8,
              "field flags");
static_assert(kTVMFFIFieldFlagBitMaskSEqHashDefPattern == 16 &&
                  kTVMFFIFieldFlagBitMaskDefaultFromFactory == 32,
              "field flags");
static_assert(kTVMFFIFieldFlagBitMaskSEqHashDefSimple == 4096, "field flags");
static_assert(kTVMFFIFieldFlagBitMaskSEqHashDefRecursive == 16 &&
                  kTVMFFIFieldFlagBitMaskSEqHashDefNonRecursive == 4096 &&
                  kTVMFFIFieldFlagBitMaskSEqHashDef == 16 &&
                  kTVMFFIFieldFlagBitMaskDefaultIsFactory == 32,
              "earlier spellings of the field flags");
static_assert(std::is_same<std::underlying_type<TVMFFIFieldFlagBitMask>::type, int32_t>::value,
              "field flag enum is int32_t");

static_assert(kTVMFFISEqHashKindUnsupported == 0 && kTVMFFISEqHashKindTreeNode == 1 &&
                  kTVMFFISEqHashKindFreeVar == 2 && kTVMFFISEqHashKindDAGNode == 3 &&
                  kTVMFFISEqHashKindConstTreeNode == 4 && kTVMFFISEqHashKindUniqueInstance == 5,
              "structural equal/hash kinds");
static_assert(sizeof(TVMFFISEqHashKind) == 4, "TVMFFISEqHashKind is 4 bytes");
static_assert(kTVMFFIDefRegionKindNone == 0 && kTVMFFIDefRegionKindPattern == 1 &&
                  kTVMFFIDefRegionKindSimple == 2 && kTVMFFIDefRegionKindRecursive == 1 &&
                  kTVMFFIDefRegionKindNonRecursive == 2,
              "definition region kinds");
static_assert(sizeof(TVMFFIDefRegionKind) == 4, "TVMFFIDefRegionKind is 4 bytes");

// Object allocation (custom allocator)
TVM_FFI_CHECK_SIZE(TVMFFIObjectAllocHeader, 8, 8);
TVM_FFI_CHECK_FIELD(TVMFFIObjectAllocHeader, delete_space, 0, void (*)(void*));
TVM_FFI_CHECK_SIZE(TVMFFICustomAllocator, 16, 8);
TVM_FFI_CHECK_FIELD(TVMFFICustomAllocator, allocate, 0, void* (*)(size_t, size_t, int32_t, void*));
TVM_FFI_CHECK_FIELD(TVMFFICustomAllocator, context, 8, void*);

static_assert(kTVMFFIFieldFlagBitMaskReprOff == 64 && kTVMFFIFieldFlagBitMaskCompareOff == 128,
              "field flags");
static_assert(kTVMFFIFieldFlagBitMaskHashOff == 256 && kTVMFFIFieldFlagBitMaskInitOff == 512,
              "field flags");
static_assert(kTVMFFIFieldFlagBitMaskKwOnly == 1024 &&
                  kTVMFFIFieldFlagBitSetterIsFunctionObj == 2048,
              "field flags");

TVM_FFI_CHECK_SIZE(TVMFFITypeInfo, 72, 8);
TVM_FFI_CHECK_FIELD(TVMFFITypeInfo, type_index, 0, int32_t);
TVM_FFI_CHECK_FIELD(TVMFFITypeInfo, type_depth, 4, int32_t);
TVM_FFI_CHECK_FIELD(TVMFFITypeInfo, type_key, 8, TVMFFIByteArray);
TVM_FFI_CHECK_FIELD(TVMFFITypeInfo, type_ancestors, 24, const TVMFFITypeInfo**);
TVM_FFI_CHECK_FIELD(TVMFFITypeInfo, type_key_hash, 32, uint64_t);
TVM_FFI_CHECK_FIELD(TVMFFITypeInfo, num_fields, 40, int32_t);
TVM_FFI_CHECK_FIELD(TVMFFITypeInfo, num_methods, 44, int32_t);
TVM_FFI_CHECK_FIELD(TVMFFITypeInfo, fields, 48, const TVMFFIFieldInfo*);
TVM_FFI_CHECK_FIELD(TVMFFITypeInfo, methods, 56, const TVMFFIMethodInfo*);
TVM_FFI_CHECK_FIELD(TVMFFITypeInfo, metadata, 64, const TVMFFITypeMetadata*);

TVM_FFI_CHECK_SIZE(TVMFFIFieldInfo, 120, 8);
TVM_FFI_CHECK_FIELD(TVMFFIFieldInfo, name, 0, TVMFFIByteArray);
TVM_FFI_CHECK_FIELD(TVMFFIFieldInfo, doc, 16, TVMFFIByteArray);
TVM_FFI_CHECK_FIELD(TVMFFIFieldInfo, metadata, 32, TVMFFIByteArray);
TVM_FFI_CHECK_FIELD(TVMFFIFieldInfo, flags, 48, int64_t);
TVM_FFI_CHECK_FIELD(TVMFFIFieldInfo, size, 56, int64_t);
TVM_FFI_CHECK_FIELD(TVMFFIFieldInfo, alignment, 64, int64_t);
TVM_FFI_CHECK_FIELD(TVMFFIFieldInfo, offset, 72, int64_t);
TVM_FFI_CHECK_FIELD(TVMFFIFieldInfo, getter, 80, TVMFFIFieldGetter);
TVM_FFI_CHECK_FIELD(TVMFFIFieldInfo, setter, 88, void*);
TVM_FFI_CHECK_FIELD(TVMFFIFieldInfo, default_value_or_factory, 96, TVMFFIAny);
TVM_FFI_CHECK_FIELD(TVMFFIFieldInfo, field_static_type_index, 112, int32_t);

TVM_FFI_CHECK_SIZE(TVMFFIMethodInfo, 72, 8);
TVM_FFI_CHECK_FIELD(TVMFFIMethodInfo, name, 0, TVMFFIByteArray);
TVM_FFI_CHECK_FIELD(TVMFFIMethodInfo, doc, 16, TVMFFIByteArray);
TVM_FFI_CHECK_FIELD(TVMFFIMethodInfo, metadata, 32, TVMFFIByteArray);
TVM_FFI_CHECK_FIELD(TVMFFIMethodInfo, flags, 48, int64_t);
TVM_FFI_CHECK_FIELD(TVMFFIMethodInfo, method, 56, TVMFFIAny);

TVM_FFI_CHECK_SIZE(TVMFFITypeMetadata, 32, 8);
TVM_FFI_CHECK_FIELD(TVMFFITypeMetadata, doc, 0, TVMFFIByteArray);
TVM_FFI_CHECK_FIELD(TVMFFITypeMetadata, creator, 16, TVMFFIObjectCreator);
TVM_FFI_CHECK_FIELD(TVMFFITypeMetadata, total_size, 24, int32_t);
TVM_FFI_CHECK_FIELD(TVMFFITypeMetadata, structural_eq_hash_kind, 28, TVMFFISEqHashKind);

TVM_FFI_CHECK_SIZE(TVMFFITypeAttrColumn, 16, 8);
TVM_FFI_CHECK_FIELD(TVMFFITypeAttrColumn, data, 0, const TVMFFIAny*);
TVM_FFI_CHECK_FIELD(TVMFFITypeAttrColumn, size, 8, int32_t);
TVM_FFI_CHECK_FIELD(TVMFFITypeAttrColumn, begin_index, 12, int32_t);

// ---------------------------------------------------------------------------
// Signatures of exported functions (docs/abi.md section 3); decltype needs no link.
// ---------------------------------------------------------------------------
#define TVM_FFI_CHECK_SIGNATURE(fn, sig) \
  static_assert(std::is_same<decltype(&fn), sig>::value, #fn " signature")

using Handle = TVMFFIObjectHandle;
using Bytes = const TVMFFIByteArray*;
TVM_FFI_CHECK_SIGNATURE(TVMFFIGetVersion, void (*)(TVMFFIVersion*));
TVM_FFI_CHECK_SIGNATURE(TVMFFIObjectIncRef, int (*)(Handle));
TVM_FFI_CHECK_SIGNATURE(TVMFFIObjectDecRef, int (*)(Handle));
TVM_FFI_CHECK_SIGNATURE(TVMFFIObjectCreateOpaque,
                        int (*)(void*, int32_t, void (*)(void*), Handle*));
TVM_FFI_CHECK_SIGNATURE(TVMFFITypeKeyToIndex, int (*)(Bytes, int32_t*));
TVM_FFI_CHECK_SIGNATURE(TVMFFITypeGetOrAllocIndex,
                        int32_t (*)(Bytes, int32_t, int32_t, int32_t, int32_t, int32_t));
TVM_FFI_CHECK_SIGNATURE(TVMFFIGetTypeInfo, const TVMFFITypeInfo* (*)(int32_t));
TVM_FFI_CHECK_SIGNATURE(TVMFFITypeRegisterField, int (*)(int32_t, const TVMFFIFieldInfo*));
TVM_FFI_CHECK_SIGNATURE(TVMFFITypeRegisterMethod, int (*)(int32_t, const TVMFFIMethodInfo*));
TVM_FFI_CHECK_SIGNATURE(TVMFFITypeRegisterMetadata, int (*)(int32_t, const TVMFFITypeMetadata*));
TVM_FFI_CHECK_SIGNATURE(TVMFFITypeRegisterAttr, int (*)(int32_t, Bytes, const TVMFFIAny*));
TVM_FFI_CHECK_SIGNATURE(TVMFFIGetTypeAttrColumn, const TVMFFITypeAttrColumn* (*)(Bytes));
TVM_FFI_CHECK_SIGNATURE(TVMFFIFunctionCreate,
                        int (*)(void*, TVMFFISafeCallType, void (*)(void*), Handle*));
TVM_FFI_CHECK_SIGNATURE(TVMFFIFunctionCall, int (*)(Handle, TVMFFIAny*, int32_t, TVMFFIAny*));
TVM_FFI_CHECK_SIGNATURE(TVMFFIFunctionSetGlobal, int (*)(Bytes, Handle, int));
TVM_FFI_CHECK_SIGNATURE(TVMFFIFunctionGetGlobal, int (*)(Bytes, Handle*));
TVM_FFI_CHECK_SIGNATURE(TVMFFIFunctionSetGlobalFromMethodInfo,
                        int (*)(const TVMFFIMethodInfo*, int));
TVM_FFI_CHECK_SIGNATURE(TVMFFIAnyViewToOwnedAny, int (*)(const TVMFFIAny*, TVMFFIAny*));
TVM_FFI_CHECK_SIGNATURE(TVMFFIErrorSetRaised, void (*)(Handle));
TVM_FFI_CHECK_SIGNATURE(TVMFFIErrorSetRaisedFromCStr, void (*)(const char*, const char*));
TVM_FFI_CHECK_SIGNATURE(TVMFFIErrorSetRaisedFromCStrParts,
                        void (*)(const char*, const char**, int32_t));
TVM_FFI_CHECK_SIGNATURE(TVMFFIErrorMoveFromRaised, void (*)(Handle*));
TVM_FFI_CHECK_SIGNATURE(TVMFFIErrorCreate, int (*)(Bytes, Bytes, Bytes, Handle*));
TVM_FFI_CHECK_SIGNATURE(TVMFFIErrorCreateWithCauseAndExtraContext,
                        int (*)(Bytes, Bytes, Bytes, Handle, Handle, Handle*));
TVM_FFI_CHECK_SIGNATURE(TVMFFIBacktrace,
                        const TVMFFIByteArray* (*)(const char*, int, const char*, int));
TVM_FFI_CHECK_SIGNATURE(TVMFFITensorFromDLPack,
                        int (*)(DLManagedTensor*, int32_t, int32_t, Handle*));
TVM_FFI_CHECK_SIGNATURE(TVMFFITensorFromDLPackVersioned,
                        int (*)(DLManagedTensorVersioned*, int32_t, int32_t, Handle*));
TVM_FFI_CHECK_SIGNATURE(TVMFFITensorToDLPack, int (*)(Handle, DLManagedTensor**));
TVM_FFI_CHECK_SIGNATURE(TVMFFITensorToDLPackVersioned, int (*)(Handle, DLManagedTensorVersioned**));
TVM_FFI_CHECK_SIGNATURE(TVMFFITensorCreateUnsafeView, int (*)(Handle, const DLTensor*, Handle*));
TVM_FFI_CHECK_SIGNATURE(TVMFFIStringFromByteArray, int (*)(Bytes, TVMFFIAny*));
TVM_FFI_CHECK_SIGNATURE(TVMFFIBytesFromByteArray, int (*)(Bytes, TVMFFIAny*));
TVM_FFI_CHECK_SIGNATURE(TVMFFIDataTypeFromString, int (*)(Bytes, DLDataType*));
TVM_FFI_CHECK_SIGNATURE(TVMFFIDataTypeToString, int (*)(const DLDataType*, TVMFFIAny*));
TVM_FFI_CHECK_SIGNATURE(TVMFFIHandleInitOnce, int (*)(void**, int (*)(void**)));
TVM_FFI_CHECK_SIGNATURE(TVMFFIHandleDeinitOnce, int (*)(void**, int (*)(void*)));
TVM_FFI_CHECK_SIGNATURE(TVMFFIGetCustomAllocator, TVMFFICustomAllocator* (*)());
TVM_FFI_CHECK_SIGNATURE(TVMFFISetCustomAllocator, int (*)(TVMFFICustomAllocator*));
TVM_FFI_CHECK_SIGNATURE(TVMFFIBigIntFromByteArray, int (*)(Bytes, TVMFFIAny*));
TVM_FFI_CHECK_SIGNATURE(TVMFFIBigIntGetContentByteArray, TVMFFIByteArray (*)(const TVMFFIAny*));

// extra/c_env_api.h (cpp_api section 4.2)
static_assert(std::is_same<TVMFFIStreamHandle, void*>::value, "stream handle");
static_assert(std::is_same<DLPackManagedTensorAllocator,
                           int (*)(DLTensor*, DLManagedTensorVersioned**, void*,
                                   void (*)(void*, const char*, const char*))>::value,
              "DLPack tensor allocator");
TVM_FFI_CHECK_SIGNATURE(TVMFFIEnvSetStream, int (*)(int32_t, int32_t, void*, void**));
TVM_FFI_CHECK_SIGNATURE(TVMFFIEnvGetStream, void* (*)(int32_t, int32_t));
TVM_FFI_CHECK_SIGNATURE(TVMFFIEnvSetDLPackManagedTensorAllocator,
                        int (*)(DLPackManagedTensorAllocator, int, DLPackManagedTensorAllocator*));
TVM_FFI_CHECK_SIGNATURE(TVMFFIEnvGetDLPackManagedTensorAllocator,
                        DLPackManagedTensorAllocator (*)());
TVM_FFI_CHECK_SIGNATURE(TVMFFIEnvTensorAlloc, int (*)(DLTensor*, Handle*));
TVM_FFI_CHECK_SIGNATURE(TVMFFIEnvCheckSignals, int (*)());
TVM_FFI_CHECK_SIGNATURE(TVMFFIEnvRegisterCAPI, int (*)(const char*, void*));
TVM_FFI_CHECK_SIGNATURE(TVMFFIEnvModLookupFromImports, int (*)(Handle, const char*, Handle*));
TVM_FFI_CHECK_SIGNATURE(TVMFFIEnvModRegisterContextSymbol, int (*)(const char*, void*));
TVM_FFI_CHECK_SIGNATURE(TVMFFIEnvModRegisterSystemLibSymbol, int (*)(const char*, void*));

// C++-only inline accessors (cpp_api section 4.3)
TVM_FFI_CHECK_SIGNATURE(TVMFFIObjectGetTypeIndex, int32_t (*)(Handle));
TVM_FFI_CHECK_SIGNATURE(TVMFFISmallBytesGetContentByteArray, TVMFFIByteArray (*)(const TVMFFIAny*));
TVM_FFI_CHECK_SIGNATURE(TVMFFIBytesGetByteArrayPtr, TVMFFIByteArray* (*)(Handle));
TVM_FFI_CHECK_SIGNATURE(TVMFFIErrorGetCellPtr, TVMFFIErrorCell* (*)(Handle));
TVM_FFI_CHECK_SIGNATURE(TVMFFIFunctionGetCellPtr, TVMFFIFunctionCell* (*)(Handle));
TVM_FFI_CHECK_SIGNATURE(TVMFFIOpaqueObjectGetCellPtr, TVMFFIOpaqueObjectCell* (*)(Handle));
TVM_FFI_CHECK_SIGNATURE(TVMFFIShapeGetCellPtr, TVMFFIShapeCell* (*)(Handle));
TVM_FFI_CHECK_SIGNATURE(TVMFFITensorGetDLTensorPtr, DLTensor* (*)(Handle));
TVM_FFI_CHECK_SIGNATURE(TVMFFIDLDeviceFromIntPair, DLDevice (*)(int32_t, int32_t));

#undef TVM_FFI_CHECK_SIGNATURE
#undef TVM_FFI_CHECK_FIELD
#undef TVM_FFI_CHECK_SIZE

// ---------------------------------------------------------------------------
// Run-time checks
// ---------------------------------------------------------------------------
TEST(CABI, VersionIsZeroOne) {
  TVMFFIVersion version;
  version.major = 99;
  version.minor = 99;
  version.patch = 99;
  TVMFFIGetVersion(&version);
  EXPECT_EQ(version.major, 0u);
  EXPECT_EQ(version.minor, 1u);
  EXPECT_EQ(version.major, static_cast<uint32_t>(TVM_FFI_VERSION_MAJOR));
  EXPECT_EQ(version.minor, static_cast<uint32_t>(TVM_FFI_VERSION_MINOR));
  EXPECT_EQ(version.patch, 16u);
}

TEST(CABI, InlineAccessorsReadTheCells) {
  const char text[] = "a string longer than seven bytes";
  TVMFFIByteArray in{text, sizeof(text) - 1};
  TVMFFIAny str;
  ASSERT_EQ(TVMFFIStringFromByteArray(&in, &str), 0);
  ASSERT_EQ(str.type_index, kTVMFFIStr);
  EXPECT_EQ(TVMFFIObjectGetTypeIndex(str.v_obj), kTVMFFIStr);
  TVMFFIByteArray* cell = TVMFFIBytesGetByteArrayPtr(str.v_obj);
  EXPECT_EQ(std::string(cell->data, cell->size), text);
  TVMFFIObjectDecRef(str.v_obj);

  TVMFFIByteArray small_in{"abc", 3};
  TVMFFIAny small;
  ASSERT_EQ(TVMFFIBytesFromByteArray(&small_in, &small), 0);
  ASSERT_EQ(small.type_index, kTVMFFISmallBytes);
  TVMFFIByteArray content = TVMFFISmallBytesGetContentByteArray(&small);
  EXPECT_EQ(std::string(content.data, content.size), "abc");
  EXPECT_EQ(content.data, small.v_bytes);

  TVMFFIByteArray kind{"ValueError", 10};
  TVMFFIByteArray message{"bad", 3};
  TVMFFIByteArray backtrace{"", 0};
  TVMFFIObjectHandle err = nullptr;
  ASSERT_EQ(TVMFFIErrorCreate(&kind, &message, &backtrace, &err), 0);
  TVMFFIErrorCell* err_cell = TVMFFIErrorGetCellPtr(err);
  EXPECT_EQ(std::string(err_cell->kind.data, err_cell->kind.size), "ValueError");
  EXPECT_EQ(std::string(err_cell->message.data, err_cell->message.size), "bad");
  TVMFFIObjectDecRef(err);

  TVMFFIObjectHandle opaque = nullptr;
  int target = 0;
  ASSERT_EQ(TVMFFIObjectCreateOpaque(&target, kTVMFFIOpaquePyObject, nullptr, &opaque), 0);
  EXPECT_EQ(TVMFFIOpaqueObjectGetCellPtr(opaque)->handle, &target);
  TVMFFIObjectDecRef(opaque);

  DLDevice dev = TVMFFIDLDeviceFromIntPair(kDLCUDA, 3);
  EXPECT_EQ(dev.device_type, kDLCUDA);
  EXPECT_EQ(dev.device_id, 3);
}

int NoopSafeCall(void*, const TVMFFIAny*, int32_t, TVMFFIAny*) { return 0; }

TEST(CABI, FunctionCellAccessor) {
  TVMFFIObjectHandle f = nullptr;
  ASSERT_EQ(TVMFFIFunctionCreate(nullptr, NoopSafeCall, nullptr, &f), 0);
  TVMFFIFunctionCell* cell = TVMFFIFunctionGetCellPtr(f);
  EXPECT_NE(cell->safe_call, nullptr);
  EXPECT_EQ(cell->cpp_call, nullptr);
  TVMFFIObjectDecRef(f);
}

TEST(CABI, AnyBytesAreLittleEndianAtFixedOffsets) {
  TVMFFIAny any;
  std::memset(&any, 0, sizeof(any));
  any.type_index = kTVMFFIInt;
  any.v_int64 = 0x0102030405060708LL;
  unsigned char raw[sizeof(TVMFFIAny)];
  std::memcpy(raw, &any, sizeof(any));
  EXPECT_EQ(raw[0], kTVMFFIInt);
  EXPECT_EQ(raw[4], 0u);  // zero_padding stays 0 for non-string values
  EXPECT_EQ(raw[8], 0x08u);
  EXPECT_EQ(raw[15], 0x01u);

  // A small string keeps its length at offset 4 and its bytes at offset 8.
  std::memset(&any, 0, sizeof(any));
  any.type_index = kTVMFFISmallStr;
  any.small_str_len = 3;
  std::memcpy(any.v_bytes, "abc", 4);
  std::memcpy(raw, &any, sizeof(any));
  EXPECT_EQ(raw[4], 3u);
  EXPECT_EQ(std::memcmp(raw + 8, "abc", 4), 0);

  // DLDataType and DLDevice sit in the value slot byte for byte.
  std::memset(&any, 0, sizeof(any));
  any.v_dtype.code = kDLFloat;
  any.v_dtype.bits = 16;
  any.v_dtype.lanes = 4;
  std::memcpy(raw, &any, sizeof(any));
  EXPECT_EQ(raw[8], kDLFloat);
  EXPECT_EQ(raw[9], 16u);
  EXPECT_EQ(raw[10] | (raw[11] << 8), 4);
}

TEST(CABI, ObjectRefCountHalves) {
  // A fresh object holds strong = 1 in the low word and weak = 1 in the high word.
  TVMFFIObject header;
  std::memset(&header, 0, sizeof(header));
  header.combined_ref_count = (uint64_t{1} << 32) | 1u;
  uint32_t halves[2];
  std::memcpy(halves, &header.combined_ref_count, sizeof(halves));
  EXPECT_EQ(halves[0], 1u);
  EXPECT_EQ(halves[1], 1u);
}

void CountingVersionedDeleter(struct DLManagedTensorVersioned* self) {
  ++*static_cast<int*>(self->manager_ctx);
}

TEST(CABI, ManagedTensorDeleterReceivesItself) {
  int calls = 0;
  DLManagedTensorVersioned tensor;
  std::memset(&tensor, 0, sizeof(tensor));
  tensor.version.major = DLPACK_MAJOR_VERSION;
  tensor.version.minor = DLPACK_MINOR_VERSION;
  tensor.manager_ctx = &calls;
  tensor.deleter = CountingVersionedDeleter;
  tensor.flags = DLPACK_FLAG_BITMASK_READ_ONLY | DLPACK_FLAG_BITMASK_IS_COPIED;
  tensor.deleter(&tensor);
  EXPECT_EQ(calls, 1);
  EXPECT_EQ(tensor.flags, 3u);
}

}  // namespace
