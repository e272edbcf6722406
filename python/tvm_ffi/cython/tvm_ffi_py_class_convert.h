/*
 * Native fast path of py_class field conversion. A field setter calls the
 * converter with a borrowed value before it stores it; for the common field
 * types (int, float, bool, str, an object type, and Optional of these) the
 * plan below decides most values in C, without the GIL and without a call
 * into Python. Every value the plan does not settle, and every value it would
 * reject, goes to the field's Python TypeSchema converter, so results and
 * error messages are those of the Python converter.
 */
#ifndef TVM_FFI_PY_CLASS_CONVERT_H_
#define TVM_FFI_PY_CLASS_CONVERT_H_

#include <tvm/ffi/c_api.h>

#include <stdint.h>
#include <string.h>

/* What the plan checks natively (anything else: the Python converter only). */
enum {
  kTVMFFIPyClassFastNone = 0,
  kTVMFFIPyClassFastInt = 1,
  kTVMFFIPyClassFastFloat = 2,
  kTVMFFIPyClassFastBool = 3,
  kTVMFFIPyClassFastStr = 4,
  kTVMFFIPyClassFastObject = 5,
};

typedef struct {
  int32_t fast;
  /* Optional[...]: None is accepted as None. */
  int32_t optional;
  /* kTVMFFIPyClassFastObject: the target type and its depth. */
  int32_t obj_index;
  int32_t obj_depth;
  /* The Python-side converter object owning this plan. */
  void* owner;
} TVMFFIPyClassFieldPlan;

static inline void TVMFFIPyClassSetPod(TVMFFIAny* out, int32_t type_index) {
  out->type_index = type_index;
  out->zero_padding = 0;
}

/* The bytes of a string view, or 0 when the value is not a string. */
static inline int TVMFFIPyClassStrView(const TVMFFIAny* value, const char** data, size_t* size) {
  switch (value->type_index) {
    case kTVMFFIRawStr:
      *data = value->v_c_str;
      *size = strlen(value->v_c_str);
      return 1;
    case kTVMFFISmallStr:
      *data = value->v_bytes;
      *size = value->small_str_len;
      return 1;
    case kTVMFFIStr: {
      /* The byte array cell follows the 24-byte object header. */
      const TVMFFIByteArray* arr =
          (const TVMFFIByteArray*)((const char*)value->v_obj + sizeof(TVMFFIObject));
      *data = arr->data;
      *size = arr->size;
      return 1;
    }
    default:
      return 0;
  }
}

static inline int TVMFFIPyClassIsAscii(const char* data, size_t size) {
  for (size_t i = 0; i < size; ++i) {
    if ((unsigned char)data[i] >= 0x80) return 0;
  }
  return 1;
}

/* Object values that reach the Python converter as plain Python values
 * (str, bytes, int, the opaque payload, a tuple, an exception), not as the
 * object itself. */
static inline int TVMFFIPyClassObjectIsWrapped(int32_t type_index) {
  return type_index == kTVMFFIStr || type_index == kTVMFFIBytes || type_index == kTVMFFIBigInt ||
         type_index == kTVMFFIOpaquePyObject || type_index == kTVMFFIShape ||
         type_index == kTVMFFIError;
}

static inline int TVMFFIPyClassIsInstance(int32_t type_index, int32_t target, int32_t depth) {
  if (type_index == target || target == kTVMFFIObject) return 1;
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(type_index);
  return info != NULL && info->type_depth > depth &&
         info->type_ancestors[depth]->type_index == target;
}

/*
 * Convert *value by the plan into an owned *result: 1 when done, 0 when the
 * Python converter must decide, -1 with an FFI error raised.
 */
static inline int TVMFFIPyClassFastConvert(const TVMFFIPyClassFieldPlan* plan,
                                           const TVMFFIAny* value, TVMFFIAny* result) {
  int32_t tindex = value->type_index;
  if (tindex == kTVMFFINone && plan->optional) {
    TVMFFIPyClassSetPod(result, kTVMFFINone);
    result->v_int64 = 0;
    return 1;
  }
  switch (plan->fast) {
    case kTVMFFIPyClassFastInt:
      if (tindex == kTVMFFIInt || tindex == kTVMFFIBool) {
        TVMFFIPyClassSetPod(result, kTVMFFIInt);
        result->v_int64 = tindex == kTVMFFIBool ? (value->v_int64 != 0) : value->v_int64;
        return 1;
      }
      return 0;
    case kTVMFFIPyClassFastFloat:
      if (tindex == kTVMFFIFloat) {
        TVMFFIPyClassSetPod(result, kTVMFFIFloat);
        result->v_float64 = value->v_float64;
        return 1;
      }
      if (tindex == kTVMFFIInt || tindex == kTVMFFIBool) {
        /* Round to nearest, as float(int) does. */
        int64_t v = tindex == kTVMFFIBool ? (value->v_int64 != 0) : value->v_int64;
        TVMFFIPyClassSetPod(result, kTVMFFIFloat);
        result->v_float64 = (double)v;
        return 1;
      }
      return 0;
    case kTVMFFIPyClassFastBool:
      if (tindex == kTVMFFIBool || tindex == kTVMFFIInt) {
        TVMFFIPyClassSetPod(result, kTVMFFIBool);
        result->v_int64 = value->v_int64 != 0;
        return 1;
      }
      return 0;
    case kTVMFFIPyClassFastStr: {
      const char* data;
      size_t size;
      /* Non-ASCII text is left to Python, whose decoding defines the result. */
      if (!TVMFFIPyClassStrView(value, &data, &size) || !TVMFFIPyClassIsAscii(data, size)) {
        return 0;
      }
      TVMFFIByteArray arr;
      arr.data = data;
      arr.size = size;
      return TVMFFIStringFromByteArray(&arr, result) == 0 ? 1 : -1;
    }
    case kTVMFFIPyClassFastObject:
      if (tindex >= kTVMFFIStaticObjectBegin && value->v_obj != NULL &&
          !TVMFFIPyClassObjectIsWrapped(tindex) &&
          TVMFFIPyClassIsInstance(tindex, plan->obj_index, plan->obj_depth)) {
        TVMFFIObjectIncRef(value->v_obj);
        *result = *value;
        return 1;
      }
      return 0;
    default:
      return 0;
  }
}

#endif  // TVM_FFI_PY_CLASS_CONVERT_H_
