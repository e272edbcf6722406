/*
 * tvm-ffi stable C ABI.
 *
 * This header is the only contract between libtvm_ffi and the libraries and
 * language bindings that use it. Every struct layout, enum value and symbol
 * name here is binary-identical to the apache-tvm-ffi 0.1.x ABI, so libraries
 * built against either implementation's headers run under either runtime.
 *
 * Conventions:
 *  - Functions returning int return 0 on success and -1 on failure; on failure
 *    the error object is stored in thread-local storage and is taken back with
 *    TVMFFIErrorMoveFromRaised.
 *  - A TVMFFIAny passed as an argument is a borrowed view; a TVMFFIAny written
 *    as a result owns one strong reference when it holds an object.
 */
#ifndef TVM_FFI_C_API_H_
#define TVM_FFI_C_API_H_

#include <dlpack/dlpack.h>
#include <stddef.h>
#include <stdint.h>

#define TVM_FFI_VERSION_MAJOR 0
#define TVM_FFI_VERSION_MINOR 1
#define TVM_FFI_VERSION_PATCH 16

#if defined(_MSC_VER)
#define TVM_FFI_DLL_EXPORT __declspec(dllexport)
#else
#define TVM_FFI_DLL_EXPORT __attribute__((visibility("default")))
#endif

/* Symbols of libtvm_ffi itself. */
#ifndef TVM_FFI_DLL
#if defined(_MSC_VER) && defined(TVM_FFI_EXPORTS)
#define TVM_FFI_DLL __declspec(dllexport)
#elif defined(_MSC_VER)
#define TVM_FFI_DLL __declspec(dllimport)
#else
#define TVM_FFI_DLL __attribute__((visibility("default")))
#endif
#endif

/* A weak definition that another library's strong one may replace. */
#ifndef TVM_FFI_WEAK
#if defined(_MSC_VER)
#define TVM_FFI_WEAK
#else
#define TVM_FFI_WEAK __attribute__((weak))
#endif
#endif

/* A function without side effects whose result depends only on its arguments and memory. */
#ifndef TVM_FFI_ATTRIBUTE_PURE
#if defined(__GNUC__) || defined(__clang__)
#define TVM_FFI_ATTRIBUTE_PURE __attribute__((pure))
#else
#define TVM_FFI_ATTRIBUTE_PURE
#endif
#endif

#ifdef __cplusplus
extern "C" {
#endif

/*! \brief ABI version triple. */
typedef struct {
  uint32_t major;
  uint32_t minor;
  uint32_t patch;
} TVMFFIVersion;

/*!
 * \brief Type index of a value. Indices below 64 are POD kinds stored inline
 *  in TVMFFIAny; 64 and above are heap objects.
 */
#ifdef __cplusplus
enum TVMFFITypeIndex : int32_t {
#else
typedef enum {
#endif
  kTVMFFIAny = -1,
  kTVMFFINone = 0,
  kTVMFFIInt = 1,
  kTVMFFIBool = 2,
  kTVMFFIFloat = 3,
  kTVMFFIOpaquePtr = 4,
  kTVMFFIDataType = 5,
  kTVMFFIDevice = 6,
  kTVMFFIDLTensorPtr = 7,
  kTVMFFIRawStr = 8,
  kTVMFFIByteArrayPtr = 9,
  kTVMFFIObjectRValueRef = 10,
  kTVMFFISmallStr = 11,
  kTVMFFISmallBytes = 12,
  kTVMFFIUnchanged = 13,
  kTVMFFIStaticObjectBegin = 64,
  kTVMFFIObject = 64,
  kTVMFFIStr = 65,
  kTVMFFIBytes = 66,
  kTVMFFIError = 67,
  kTVMFFIFunction = 68,
  kTVMFFIShape = 69,
  kTVMFFITensor = 70,
  kTVMFFIArray = 71,
  kTVMFFIMap = 72,
  kTVMFFIModule = 73,
  kTVMFFIOpaquePyObject = 74,
  kTVMFFIList = 75,
  kTVMFFIDict = 76,
  kTVMFFIVisitInterrupt = 77,
  kTVMFFIBigInt = 78,
  kTVMFFIStaticObjectEnd,
  kTVMFFIDynObjectBegin = 128
#ifdef __cplusplus
};
#else
} TVMFFITypeIndex;
#endif

/*! \brief Handle to an object: points at its TVMFFIObject header. */
typedef void* TVMFFIObjectHandle;

/*! \brief The flags an object deleter receives. */
#ifdef __cplusplus
enum TVMFFIObjectDeleterFlagBitMask : int32_t {
#else
typedef enum {
#endif
  /*! \brief The strong count reached zero: run the destructor. */
  kTVMFFIObjectDeleterFlagBitMaskStrong = 1 << 0,
  /*! \brief The weak count reached zero: free the memory. */
  kTVMFFIObjectDeleterFlagBitMaskWeak = 1 << 1,
  /*! \brief Both counts reached zero at once. */
  kTVMFFIObjectDeleterFlagBitMaskBoth = (1 << 0) | (1 << 1)
#ifdef __cplusplus
};
#else
} TVMFFIObjectDeleterFlagBitMask;
#endif

/*!
 * \brief The 24-byte header at the start of every heap object.
 *  combined_ref_count holds the strong count in its low 32 bits and the weak
 *  count in its high 32 bits; a new object starts at (1 << 32) | 1.
 */
typedef struct TVMFFIObject {
  uint64_t combined_ref_count;
  int32_t type_index;
  uint32_t __padding;
  union {
    void (*deleter)(void* self, int flags);
    int64_t __ensure_align;
  };
} TVMFFIObject;

/*! \brief The 16-byte value cell of every argument and result. */
typedef struct TVMFFIAny {
  int32_t type_index;
  union {
    uint32_t zero_padding;
    uint32_t small_str_len;
  };
  union {
    int64_t v_int64;
    double v_float64;
    void* v_ptr;
    const char* v_c_str;
    TVMFFIObject* v_obj;
    DLDataType v_dtype;
    DLDevice v_device;
    char v_bytes[8];
    uint64_t v_uint64;
  };
} TVMFFIAny;

/*! \brief A borrowed byte range; string data is NUL-terminated. */
typedef struct TVMFFIByteArray {
  const char* data;
  size_t size;
} TVMFFIByteArray;

/*! \brief Cell of Shape objects. */
typedef struct TVMFFIShapeCell {
  const int64_t* data;
  size_t size;
} TVMFFIShapeCell;

/*!
 * \brief Cell of Array and List objects: capacity slots of owned TVMFFIAny.
 *  data_deleter NULL means the slots live inside the object allocation (never
 *  for a List). A named struct, so that C++ code may forward-declare it and
 *  derive from it.
 */
typedef struct TVMFFISeqCell {
  void* data;
  int64_t size;
  int64_t capacity;
  void (*data_deleter)(void*);
} TVMFFISeqCell;

/*!
 * \brief Sits immediately before an object body that a custom allocator
 *  returned. delete_space(body) reclaims the whole allocation; it may be
 *  NULL when the object's deleter frees the memory itself.
 */
typedef struct {
  void (*delete_space)(void* ptr);
} TVMFFIObjectAllocHeader;

/*!
 * \brief A process-wide allocator of object bodies.
 *  allocate(size, alignment, type_index, context) returns an uninitialised
 *  body of size bytes aligned to alignment, preceded by an initialised
 *  TVMFFIObjectAllocHeader, or NULL after TVMFFIErrorSetRaised. It may be
 *  called from several threads at once.
 */
typedef struct {
  void* (*allocate)(size_t size, size_t alignment, int32_t type_index, void* context);
  void* context;
} TVMFFICustomAllocator;

/*! \brief Backtrace update modes of TVMFFIErrorCell::update_backtrace. */
#ifdef __cplusplus
enum TVMFFIBacktraceUpdateMode : int32_t {
#else
typedef enum {
#endif
  kTVMFFIBacktraceUpdateModeReplace = 0,
  kTVMFFIBacktraceUpdateModeAppend = 1
#ifdef __cplusplus
};
#else
} TVMFFIBacktraceUpdateMode;
#endif

/*! \brief Cell of Error objects; the backtrace is stored most-recent-call first. */
typedef struct TVMFFIErrorCell {
  TVMFFIByteArray kind;
  TVMFFIByteArray message;
  TVMFFIByteArray backtrace;
  void (*update_backtrace)(TVMFFIObjectHandle self, const TVMFFIByteArray* backtrace,
                           int32_t update_mode);
  TVMFFIObjectHandle cause_chain;
  TVMFFIObjectHandle extra_context;
} TVMFFIErrorCell;

/*!
 * \brief The calling convention of every function.
 * \param handle The function object (or a library context for exported symbols).
 * \param args Borrowed argument views.
 * \param num_args Number of arguments.
 * \param result Set to None by the caller; the callee writes an owned value.
 * \return 0 on success, -1 with a raised error on failure.
 */
typedef int (*TVMFFISafeCallType)(void* handle, const TVMFFIAny* args, int32_t num_args,
                                  TVMFFIAny* result);

/*!
 * \brief Cell of Function objects. cpp_call is always NULL for functions this
 *  runtime creates, so every caller goes through safe_call.
 */
typedef struct TVMFFIFunctionCell {
  TVMFFISafeCallType safe_call;
  void* cpp_call;
} TVMFFIFunctionCell;

/*! \brief Cell of opaque objects (for example a wrapped PyObject*). */
typedef struct TVMFFIOpaqueObjectCell {
  void* handle;
} TVMFFIOpaqueObjectCell;

/* ---------------------------------------------------------------------------
 * Type registry and reflection tables
 * ------------------------------------------------------------------------- */

typedef int (*TVMFFIFieldGetter)(void* field, TVMFFIAny* result);
typedef int (*TVMFFIFieldSetter)(void* field, const TVMFFIAny* value);
typedef int (*TVMFFIObjectCreator)(TVMFFIObjectHandle* result);

/*! \brief Bits of TVMFFIFieldInfo::flags. */
#ifdef __cplusplus
enum TVMFFIFieldFlagBitMask : int32_t {
#else
typedef enum {
#endif
  kTVMFFIFieldFlagBitMaskWritable = 1 << 0,
  kTVMFFIFieldFlagBitMaskHasDefault = 1 << 1,
  kTVMFFIFieldFlagBitMaskIsStaticMethod = 1 << 2,
  kTVMFFIFieldFlagBitMaskSEqHashIgnore = 1 << 3,
  /*! \brief The field opens a definition region where free variables are bound by pattern. */
  kTVMFFIFieldFlagBitMaskSEqHashDefPattern = 1 << 4,
  /*! \brief default_value_or_factory is a Function called to make each default. */
  kTVMFFIFieldFlagBitMaskDefaultFromFactory = 1 << 5,
  kTVMFFIFieldFlagBitMaskReprOff = 1 << 6,
  kTVMFFIFieldFlagBitMaskCompareOff = 1 << 7,
  kTVMFFIFieldFlagBitMaskHashOff = 1 << 8,
  kTVMFFIFieldFlagBitMaskInitOff = 1 << 9,
  kTVMFFIFieldFlagBitMaskKwOnly = 1 << 10,
  kTVMFFIFieldFlagBitSetterIsFunctionObj = 1 << 11,
  /*! \brief The field opens a definition region where free variables are bound one by one. */
  kTVMFFIFieldFlagBitMaskSEqHashDefSimple = 1 << 12,
  /* Earlier spellings of the same bits. */
  kTVMFFIFieldFlagBitMaskSEqHashDefRecursive = 1 << 4,
  kTVMFFIFieldFlagBitMaskSEqHashDefNonRecursive = 1 << 12,
  kTVMFFIFieldFlagBitMaskSEqHashDef = 1 << 4,
  kTVMFFIFieldFlagBitMaskDefaultIsFactory = 1 << 5
#ifdef __cplusplus
};
#else
} TVMFFIFieldFlagBitMask;
#endif

/*! \brief How structural equality and hashing treat objects of a type. */
#ifdef __cplusplus
enum TVMFFISEqHashKind : int32_t {
#else
typedef enum {
#endif
  /*! \brief Not comparable structurally. */
  kTVMFFISEqHashKindUnsupported = 0,
  /*! \brief Compared field by field, as a tree. */
  kTVMFFISEqHashKindTreeNode = 1,
  /*! \brief A variable, equal to another once both are bound in a definition region. */
  kTVMFFISEqHashKindFreeVar = 2,
  /*! \brief Compared field by field, with sharing (the same object on both sides) kept. */
  kTVMFFISEqHashKindDAGNode = 3,
  /*! \brief A tree node that is immutable and may be compared by pointer first. */
  kTVMFFISEqHashKindConstTreeNode = 4,
  /*! \brief Equal only to itself. */
  kTVMFFISEqHashKindUniqueInstance = 5
#ifdef __cplusplus
};
#else
} TVMFFISEqHashKind;
#endif

/*! \brief The kind of definition region a field opens for structural equality. */
#ifdef __cplusplus
enum TVMFFIDefRegionKind : int32_t {
#else
typedef enum {
#endif
  kTVMFFIDefRegionKindNone = 0,
  kTVMFFIDefRegionKindPattern = 1,
  kTVMFFIDefRegionKindSimple = 2,
  /* Earlier spellings. */
  kTVMFFIDefRegionKindRecursive = 1,
  kTVMFFIDefRegionKindNonRecursive = 2
#ifdef __cplusplus
};
#else
} TVMFFIDefRegionKind;
#endif

/*! \brief A reflected field of an object type. */
typedef struct {
  TVMFFIByteArray name;
  TVMFFIByteArray doc;
  TVMFFIByteArray metadata;
  int64_t flags;
  int64_t size;
  int64_t alignment;
  int64_t offset;
  TVMFFIFieldGetter getter;
  /*! \brief A TVMFFIFieldSetter, or a Function object when the flag bit 2048 is set. */
  void* setter;
  TVMFFIAny default_value_or_factory;
  int32_t field_static_type_index;
} TVMFFIFieldInfo;

/*! \brief A reflected method (or a global function with metadata). */
typedef struct {
  TVMFFIByteArray name;
  TVMFFIByteArray doc;
  TVMFFIByteArray metadata;
  int64_t flags;
  TVMFFIAny method;
} TVMFFIMethodInfo;

/*! \brief Extra information about a type. */
typedef struct {
  TVMFFIByteArray doc;
  TVMFFIObjectCreator creator;
  int32_t total_size;
  TVMFFISEqHashKind structural_eq_hash_kind;
} TVMFFITypeMetadata;

/*! \brief A column of per-type attribute values indexed by type_index - begin_index. */
typedef struct {
  const TVMFFIAny* data;
  int32_t size;
  int32_t begin_index;
} TVMFFITypeAttrColumn;

/*!
 * \brief A registry entry. type_ancestors[d] is the ancestor at depth d for
 *  d < type_depth, which makes instance checks O(1).
 */
typedef struct TVMFFITypeInfo {
  int32_t type_index;
  int32_t type_depth;
  TVMFFIByteArray type_key;
  const struct TVMFFITypeInfo** type_ancestors;
  uint64_t type_key_hash;
  int32_t num_fields;
  int32_t num_methods;
  const TVMFFIFieldInfo* fields;
  const TVMFFIMethodInfo* methods;
  const TVMFFITypeMetadata* metadata;
} TVMFFITypeInfo;

/* ---------------------------------------------------------------------------
 * Exported functions
 * ------------------------------------------------------------------------- */

TVM_FFI_DLL void TVMFFIGetVersion(TVMFFIVersion* out_version);

/* Objects */
TVM_FFI_DLL int TVMFFIObjectIncRef(TVMFFIObjectHandle obj);
TVM_FFI_DLL int TVMFFIObjectDecRef(TVMFFIObjectHandle obj);
TVM_FFI_DLL int TVMFFIObjectCreateOpaque(void* handle, int32_t type_index,
                                         void (*deleter)(void* handle), TVMFFIObjectHandle* out);

/*!
 * \brief The allocator of object bodies in use; never NULL. The builtin one
 *  allocates alignof(max_align_t) extra leading bytes for the alloc header.
 *  Not synchronised with TVMFFISetCustomAllocator.
 */
TVM_FFI_DLL TVMFFICustomAllocator* TVMFFIGetCustomAllocator(void);
/*!
 * \brief Replace the process-wide allocator of object bodies (NULL restores
 *  the builtin). The struct must stay valid for the rest of the process.
 */
TVM_FFI_DLL int TVMFFISetCustomAllocator(TVMFFICustomAllocator* allocator);

/* Type registry */
/*!
 * \brief The index registered for type_key; an unknown key returns -1 with a
 *  raised InternalError "Check failed: ... Cannot find type `<key>`".
 */
TVM_FFI_DLL int TVMFFITypeKeyToIndex(const TVMFFIByteArray* type_key, int32_t* out_tindex);
TVM_FFI_DLL int32_t TVMFFITypeGetOrAllocIndex(const TVMFFIByteArray* type_key,
                                              int32_t static_type_index, int32_t type_depth,
                                              int32_t num_child_slots,
                                              int32_t child_slots_can_overflow,
                                              int32_t parent_type_index);
/*! \brief The registry entry of a type; type_index must be registered. */
TVM_FFI_DLL TVM_FFI_ATTRIBUTE_PURE const TVMFFITypeInfo* TVMFFIGetTypeInfo(int32_t type_index);
TVM_FFI_DLL int TVMFFITypeRegisterField(int32_t type_index, const TVMFFIFieldInfo* info);
TVM_FFI_DLL int TVMFFITypeRegisterMethod(int32_t type_index, const TVMFFIMethodInfo* info);
TVM_FFI_DLL int TVMFFITypeRegisterMetadata(int32_t type_index, const TVMFFITypeMetadata* metadata);
TVM_FFI_DLL int TVMFFITypeRegisterAttr(int32_t type_index, const TVMFFIByteArray* attr_name,
                                       const TVMFFIAny* attr_value);
TVM_FFI_DLL const TVMFFITypeAttrColumn* TVMFFIGetTypeAttrColumn(const TVMFFIByteArray* attr_name);

/* Functions and the global registry */
TVM_FFI_DLL int TVMFFIFunctionCreate(void* self, TVMFFISafeCallType safe_call,
                                     void (*deleter)(void* self), TVMFFIObjectHandle* out);
TVM_FFI_DLL int TVMFFIFunctionCall(TVMFFIObjectHandle func, TVMFFIAny* args, int32_t num_args,
                                   TVMFFIAny* result);
TVM_FFI_DLL int TVMFFIFunctionSetGlobal(const TVMFFIByteArray* name, TVMFFIObjectHandle f,
                                        int allow_override);
TVM_FFI_DLL int TVMFFIFunctionSetGlobalFromMethodInfo(const TVMFFIMethodInfo* method_info,
                                                      int allow_override);
TVM_FFI_DLL int TVMFFIFunctionGetGlobal(const TVMFFIByteArray* name, TVMFFIObjectHandle* out);
TVM_FFI_DLL int TVMFFIAnyViewToOwnedAny(const TVMFFIAny* any_view, TVMFFIAny* out);

/* Errors */
TVM_FFI_DLL void TVMFFIErrorSetRaised(TVMFFIObjectHandle error);
TVM_FFI_DLL void TVMFFIErrorSetRaisedFromCStr(const char* kind, const char* message);
TVM_FFI_DLL void TVMFFIErrorSetRaisedFromCStrParts(const char* kind, const char** message_parts,
                                                   int32_t num_parts);
TVM_FFI_DLL void TVMFFIErrorMoveFromRaised(TVMFFIObjectHandle* result);
TVM_FFI_DLL int TVMFFIErrorCreate(const TVMFFIByteArray* kind, const TVMFFIByteArray* message,
                                  const TVMFFIByteArray* backtrace, TVMFFIObjectHandle* out);
TVM_FFI_DLL int TVMFFIErrorCreateWithCauseAndExtraContext(
    const TVMFFIByteArray* kind, const TVMFFIByteArray* message, const TVMFFIByteArray* backtrace,
    TVMFFIObjectHandle cause_chain, TVMFFIObjectHandle extra_context, TVMFFIObjectHandle* out);
TVM_FFI_DLL const TVMFFIByteArray* TVMFFIBacktrace(const char* filename, int lineno,
                                                   const char* func, int cross_ffi_boundary);

/* Tensors and DLPack */
/*!
 * \brief Allocator of DLPack tensors provided by the caller's framework: fills
 *  *out with a new tensor of the prototype's shape, dtype and device, or
 *  reports an error through SetError(error_ctx, kind, message) and returns
 *  non-zero. Also typedef'd by dlpack.h (DLPack 1.3); both definitions are
 *  guarded by the same macro so that whichever header comes first wins.
 */
#ifndef DLPACK_MANAGED_TENSOR_ALLOCATOR_DEFINED
#define DLPACK_MANAGED_TENSOR_ALLOCATOR_DEFINED
typedef int (*DLPackManagedTensorAllocator)(DLTensor* prototype, DLManagedTensorVersioned** out,
                                            void* error_ctx,
                                            void (*SetError)(void* error_ctx, const char* kind,
                                                             const char* message));
#endif
TVM_FFI_DLL int TVMFFITensorFromDLPack(DLManagedTensor* from, int32_t require_alignment,
                                       int32_t require_contiguous, TVMFFIObjectHandle* out);
TVM_FFI_DLL int TVMFFITensorFromDLPackVersioned(DLManagedTensorVersioned* from,
                                                int32_t require_alignment,
                                                int32_t require_contiguous,
                                                TVMFFIObjectHandle* out);
TVM_FFI_DLL int TVMFFITensorToDLPack(TVMFFIObjectHandle from, DLManagedTensor** out);
TVM_FFI_DLL int TVMFFITensorToDLPackVersioned(TVMFFIObjectHandle from,
                                              DLManagedTensorVersioned** out);
TVM_FFI_DLL int TVMFFITensorCreateUnsafeView(TVMFFIObjectHandle source, const DLTensor* prototype,
                                             TVMFFIObjectHandle* out);

/* Strings and data types */
TVM_FFI_DLL int TVMFFIStringFromByteArray(const TVMFFIByteArray* input, TVMFFIAny* out);
TVM_FFI_DLL int TVMFFIBytesFromByteArray(const TVMFFIByteArray* input, TVMFFIAny* out);
TVM_FFI_DLL int TVMFFIDataTypeFromString(const TVMFFIByteArray* str, DLDataType* out);
TVM_FFI_DLL int TVMFFIDataTypeToString(const DLDataType* dtype, TVMFFIAny* out);

/* Integers beyond int64 */
/*!
 * \brief An integer from its two's complement 64-bit words, least significant
 *  first, in native byte order (input->size a multiple of 8; redundant sign
 *  words are accepted; no bytes means 0).
 * \param out Owned result: Int when the value fits int64, else a BigInt object.
 */
TVM_FFI_DLL int TVMFFIBigIntFromByteArray(const TVMFFIByteArray* input, TVMFFIAny* out);
/*!
 * \brief The words of an Int (its 8 bytes) or BigInt value, in the format of
 *  TVMFFIBigIntFromByteArray; borrowed, valid while value lives.
 */
TVM_FFI_DLL TVMFFIByteArray TVMFFIBigIntGetContentByteArray(const TVMFFIAny* value);

/*!
 * \brief Thread-safe lazy global: while *handle_addr is NULL, run init once (other threads
 *  wait) and store the handle it gives. Fails, leaving the handle NULL, when init fails or
 *  gives a NULL handle (RuntimeError).
 */
TVM_FFI_DLL int TVMFFIHandleInitOnce(void** handle_addr, int (*init)(void** out));
/*!
 * \brief Run deinit once on a non-NULL *handle_addr and clear it. The handle is cleared even
 *  when deinit fails; deinit's error is then returned.
 */
TVM_FFI_DLL int TVMFFIHandleDeinitOnce(void** handle_addr, int (*deinit)(void* handle));

#ifdef __cplusplus
}  // extern "C"
#endif

#ifdef __cplusplus
/* ---------------------------------------------------------------------------
 * Inline accessors of object layouts (C++ only, global namespace)
 * ------------------------------------------------------------------------- */

/*! \return The type index in the header of an object. */
inline int32_t TVMFFIObjectGetTypeIndex(TVMFFIObjectHandle obj) {
  return static_cast<TVMFFIObject*>(obj)->type_index;
}

/*! \return The content of a SmallStr or SmallBytes value (borrowed from the cell). */
inline TVMFFIByteArray TVMFFISmallBytesGetContentByteArray(const TVMFFIAny* value) {
  return TVMFFIByteArray{value->v_bytes, static_cast<size_t>(value->small_str_len)};
}

/*! \return The byte array of a String or Bytes object. */
inline TVMFFIByteArray* TVMFFIBytesGetByteArrayPtr(TVMFFIObjectHandle obj) {
  return reinterpret_cast<TVMFFIByteArray*>(static_cast<char*>(obj) + sizeof(TVMFFIObject));
}

/*! \return The cell of an Error object. */
inline TVMFFIErrorCell* TVMFFIErrorGetCellPtr(TVMFFIObjectHandle obj) {
  return reinterpret_cast<TVMFFIErrorCell*>(static_cast<char*>(obj) + sizeof(TVMFFIObject));
}

/*! \return The cell of a Function object. */
inline TVMFFIFunctionCell* TVMFFIFunctionGetCellPtr(TVMFFIObjectHandle obj) {
  return reinterpret_cast<TVMFFIFunctionCell*>(static_cast<char*>(obj) + sizeof(TVMFFIObject));
}

/*! \return The cell of an opaque object. */
inline TVMFFIOpaqueObjectCell* TVMFFIOpaqueObjectGetCellPtr(TVMFFIObjectHandle obj) {
  return reinterpret_cast<TVMFFIOpaqueObjectCell*>(static_cast<char*>(obj) + sizeof(TVMFFIObject));
}

/*! \return The cell of a Shape object. */
inline TVMFFIShapeCell* TVMFFIShapeGetCellPtr(TVMFFIObjectHandle obj) {
  return reinterpret_cast<TVMFFIShapeCell*>(static_cast<char*>(obj) + sizeof(TVMFFIObject));
}

/*! \return The DLTensor of a Tensor object. */
inline DLTensor* TVMFFITensorGetDLTensorPtr(TVMFFIObjectHandle obj) {
  return reinterpret_cast<DLTensor*>(static_cast<char*>(obj) + sizeof(TVMFFIObject));
}

/*! \return A DLDevice from its two integers. */
inline DLDevice TVMFFIDLDeviceFromIntPair(int32_t device_type, int32_t device_id) {
  return DLDevice{static_cast<DLDeviceType>(device_type), device_id};
}
#endif  // __cplusplus

/* The environment API (streams, tensor allocator, module context) lives in its own header. */
#include <tvm/ffi/extra/c_env_api.h>

#endif  // TVM_FFI_C_API_H_
