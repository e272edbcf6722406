/*
 * Reads a numpy.ndarray's C struct directly: the fast path of numpy arguments
 * and of from_dlpack, with no buffer export, no DLPack capsule and no numpy
 * headers at build time.
 *
 * The prefix of numpy's PyArrayObject (data, nd, dimensions, strides, base,
 * descr, flags) and of PyArray_Descr up to type_num is the same in numpy 1.7+
 * and 2.x; the builtin type numbers are fixed by numpy's C API. tensor.pxi
 * still compares this reader with numpy's own description of a probe array
 * once, before the first use, and falls back to the buffer protocol if they
 * disagree.
 */
#ifndef TVM_FFI_PYTHON_NUMPY_H_
#define TVM_FFI_PYTHON_NUMPY_H_

#include <Python.h>
#include <dlpack/dlpack.h>

#include <cstdint>

static_assert(sizeof(Py_ssize_t) == sizeof(int64_t),
              "numpy's npy_intp must be int64_t for shapes to be shared in place");

struct TVMFFIPyNumpyArrayFields {
  PyObject_HEAD char* data;
  int nd;
  Py_ssize_t* dimensions;
  Py_ssize_t* strides;
  PyObject* base;
  PyObject* descr;
  int flags;
};

struct TVMFFIPyNumpyDescrFields {
  PyObject_HEAD PyTypeObject* typeobj;
  char kind;
  char type;
  char byteorder;
  char flags_v1;  // numpy 1.x flags; unused in 2.x
  int type_num;
};

/* Outcomes of TVMFFIPyNumpyFill besides 0 (filled). */
enum {
  kTVMFFIPyNumpyGeneral = 1,     /* needs the general path (user dtype, long double, many dims) */
  kTVMFFIPyNumpyObject = 2,      /* dtype=object */
  kTVMFFIPyNumpyByteSwapped = 3, /* non-native byte order */
  kTVMFFIPyNumpyBadStride = 4,   /* a byte stride that is not a multiple of the item size */
};

/* DLDataType and item size of numpy's builtin type number, or 0 for types a
 * DLTensor cannot hold (object, strings, datetimes, long double) or user types. */
static int TVMFFIPyNumpyTypeNum(int type_num, DLDataType* out) {
  uint8_t code;
  int size;
  switch (type_num) {
    case 0:
      code = kDLBool;
      size = 1;
      break; /* NPY_BOOL */
    case 1:
      code = kDLInt;
      size = 1;
      break; /* NPY_BYTE */
    case 2:
      code = kDLUInt;
      size = 1;
      break; /* NPY_UBYTE */
    case 3:
      code = kDLInt;
      size = 2;
      break; /* NPY_SHORT */
    case 4:
      code = kDLUInt;
      size = 2;
      break; /* NPY_USHORT */
    case 5:
      code = kDLInt;
      size = 4;
      break; /* NPY_INT */
    case 6:
      code = kDLUInt;
      size = 4;
      break; /* NPY_UINT */
    case 7:
      code = kDLInt;
      size = sizeof(long);
      break; /* NPY_LONG */
    case 8:
      code = kDLUInt;
      size = sizeof(long);
      break; /* NPY_ULONG */
    case 9:
      code = kDLInt;
      size = 8;
      break; /* NPY_LONGLONG */
    case 10:
      code = kDLUInt;
      size = 8;
      break; /* NPY_ULONGLONG */
    case 11:
      code = kDLFloat;
      size = 4;
      break; /* NPY_FLOAT */
    case 12:
      code = kDLFloat;
      size = 8;
      break; /* NPY_DOUBLE */
    case 14:
      code = kDLComplex;
      size = 8;
      break; /* NPY_CFLOAT */
    case 15:
      code = kDLComplex;
      size = 16;
      break; /* NPY_CDOUBLE */
    case 23:
      code = kDLFloat;
      size = 2;
      break; /* NPY_HALF */
    default:
      return 0;
  }
  out->code = code;
  out->bits = static_cast<uint8_t>(size * 8);
  out->lanes = 1;
  return size;
}

/* Fills `out` from the ndarray `arr` (exact type numpy.ndarray, checked by the
 * caller): data, CPU device, ndim, dtype, shape (pointing into the array, which
 * the caller keeps alive) and strides in elements (written to strides_buf, of
 * capacity max_dims). *readonly tells whether the array is not writeable;
 * *bad_dim names the dimension of a kTVMFFIPyNumpyBadStride. Returns 0 or one
 * of the outcomes above; never raises. */
static int TVMFFIPyNumpyFill(PyObject* arr, DLTensor* out, int64_t* strides_buf, int max_dims,
                             int* readonly, int* bad_dim) {
  const TVMFFIPyNumpyArrayFields* a = reinterpret_cast<const TVMFFIPyNumpyArrayFields*>(arr);
  const TVMFFIPyNumpyDescrFields* d = reinterpret_cast<const TVMFFIPyNumpyDescrFields*>(a->descr);
  if (d->type_num == 17) return kTVMFFIPyNumpyObject; /* NPY_OBJECT */
  int itemsize = TVMFFIPyNumpyTypeNum(d->type_num, &out->dtype);
  if (itemsize == 0 || a->nd > max_dims) return kTVMFFIPyNumpyGeneral;
  /* numpy writes '=' for native order and '|' where order does not apply. */
  const char swapped = (PY_LITTLE_ENDIAN ? '>' : '<');
  if (d->byteorder == swapped && itemsize > 1) return kTVMFFIPyNumpyByteSwapped;
  for (int i = 0; i < a->nd; ++i) {
    Py_ssize_t s = a->strides[i];
    if (s % itemsize != 0) {
      *bad_dim = i;
      return kTVMFFIPyNumpyBadStride;
    }
    strides_buf[i] = s / itemsize;
  }
  out->data = a->data;
  out->device.device_type = kDLCPU;
  out->device.device_id = 0;
  out->ndim = a->nd;
  out->shape = reinterpret_cast<int64_t*>(a->dimensions);
  out->strides = strides_buf;
  out->byte_offset = 0;
  *readonly = (a->flags & 0x0400) == 0; /* NPY_ARRAY_WRITEABLE */
  return 0;
}

/* The byte stride of dimension `dim` of arr (for error messages). */
static int64_t TVMFFIPyNumpyStrideBytes(PyObject* arr, int dim) {
  return reinterpret_cast<const TVMFFIPyNumpyArrayFields*>(arr)->strides[dim];
}

#endif  // TVM_FFI_PYTHON_NUMPY_H_
