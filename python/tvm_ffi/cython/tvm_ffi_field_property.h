/*
 * tvm_ffi.core._FieldProperty: the base of FFIProperty (a subclass of
 * property), whose reads of a reflected field are done here in C. It is the
 * one read path of every field property, c_class, py_class and
 * register_object alike.
 *
 * A plain property calls its fget through vectorcall, and the FieldGetter
 * then checks the object and calls the field's C getter. Once bound to a
 * FieldGetter (TVMFFIPyFieldPropertyBind), this type's tp_descr_get does the
 * same checks and the same read itself, from data precomputed per property:
 * int64, bool and double members are read at their offset (small ints and
 * bools come from caches, with no call into CPython), every other member
 * through the C getter. Anything the fast path does not take (class access,
 * a non-Object or empty object, an object of an unrelated type) goes to
 * property's own tp_descr_get, which calls fget, so errors keep the
 * FieldGetter's messages.
 *
 * Writes bound to a FieldSetter with a C setter (TVMFFIPyFieldPropertyBindSetter)
 * convert the simplest values (exact int, float, bool, None, a tvm_ffi.Object)
 * to an AnyView here and call the C setter, the same view and the same call
 * as the FieldSetter's. Every other write, and every write the setter refuses,
 * goes to property's tp_descr_set (a call of fset), which converts and
 * calls again, so errors keep the FieldSetter's messages and the setter's
 * texts. A frozen field's property (FFIProperty) is never bound for writes
 * and overrides __set__ in Python.
 *
 * The interpreter's generic attribute lookup that leads here costs more than
 * this function (CPython specializes LOAD_ATTR for __slots__ members, not for
 * a descriptor's __get__), so the code below only keeps its own share small:
 * a bound property knows the class it is installed on (its owner, a subclass
 * of CObject given by TVMFFIPyFieldPropertySetOwner), and a read of an instance
 * of exactly that class checks one pointer instead of walking the class's MRO.
 * A class that derives from CObject can never stop doing so (its instance
 * layout pins the base), so the check stays true.
 *
 * The per-instance read data lives after property's own fields, at an offset
 * found from property.__basicsize__ at import, so the same code serves the
 * limited API (abi3) build.
 */
#ifndef TVM_FFI_PYTHON_FIELD_PROPERTY_H_
#define TVM_FFI_PYTHON_FIELD_PROPERTY_H_

#include <Python.h>
#include <tvm/ffi/c_api.h>

#include <stdint.h>
#include <string.h>

#include "tvm_ffi_layout.h"
#include "tvm_ffi_limited_api.h"
#include "tvm_ffi_plain_values.h"
#include "tvm_ffi_vectorcall.h"

/* How a property reads its member; 0 until bound, when every read goes
 * through fget. */
enum {
  kTVMFFIPyFieldReadUnbound = 0,
  kTVMFFIPyFieldReadGetter = 1, /* through the field's C getter */
  kTVMFFIPyFieldReadInt64 = 2,
  kTVMFFIPyFieldReadBool = 3,
  kTVMFFIPyFieldReadFloat64 = 4,
};

typedef struct TVMFFIPyFieldAccess {
  int32_t kind;
  int32_t type_index; /* the type declaring the field */
  int64_t offset;
  TVMFFIFieldGetter getter;
  int32_t type_depth;
  /* NULL until bound for writes, when every write goes through fset. */
  TVMFFIFieldSetter setter;
  /* NULL, or (once bound) the subclass of CObject the property is installed on;
   * a strong reference (owner and property usually form a cycle). */
  PyObject* owner;
} TVMFFIPyFieldAccess;

/* The ints CPython caches (-5 to 256), held here so that reading a small
 * int64 member makes no call into CPython. */
#define TVMFFI_PY_SMALL_INT_MIN (-5)
#define TVMFFI_PY_SMALL_INT_COUNT 262

/* Set once by TVMFFIPyFieldPropertyTypeCreate. */
static struct {
  Py_ssize_t data_offset;
  descrgetfunc base_get;
  descrsetfunc base_set;
  initproc base_init;
  destructor base_dealloc;
  traverseproc base_traverse;
  inquiry base_clear; /* may be NULL */
  PyObject* small_ints[TVMFFI_PY_SMALL_INT_COUNT];
} tvm_ffi_py_field_property;

static inline TVMFFIPyFieldAccess* TVMFFIPyFieldAccessOf(PyObject* self) {
  return (TVMFFIPyFieldAccess*)((char*)self + tvm_ffi_py_field_property.data_offset);
}

/* The kind of a member, from the field record: the direct reads are the
 * members whose storage the static type index and size fix. */
static inline int32_t TVMFFIPyFieldReadKind(int32_t static_type_index, int64_t size) {
  if (static_type_index == kTVMFFIInt && size == 8) return kTVMFFIPyFieldReadInt64;
  if (static_type_index == kTVMFFIBool && size == 1) return kTVMFFIPyFieldReadBool;
  if (static_type_index == kTVMFFIFloat && size == 8) return kTVMFFIPyFieldReadFloat64;
  return kTVMFFIPyFieldReadGetter;
}

/* Whether an object of runtime type `header_index` has the declaring type of f
 * among its ancestors (the exact type is checked by the caller). */
static inline int TVMFFIPyFieldOwnerMatches(const TVMFFIPyFieldAccess* f, int32_t header_index) {
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(header_index);
  return info != NULL && info->type_depth > f->type_depth &&
         info->type_ancestors[f->type_depth]->type_index == f->type_index;
}

/* Every rarer path is kept out of line, so that the direct reads need no stack
 * frame. */
#if defined(__GNUC__)
#define TVMFFI_PY_FIELD_NOINLINE __attribute__((noinline))
#else
#define TVMFFI_PY_FIELD_NOINLINE
#endif

/* Whether obj is a tvm_ffi.Object. The full API walks the MRO here instead of
 * calling PyType_IsSubtype, which keeps the direct reads free of calls. */
static inline int TVMFFIPyFieldIsObject(PyObject* obj) {
  PyTypeObject* tp = Py_TYPE(obj);
  PyTypeObject* base = tvm_ffi_py_call.object_type;
  if (tp == base) return 1;
#if !TVMFFI_PY_LIMITED_API
  PyObject* mro = tp->tp_mro;
  if (mro != NULL) {
    Py_ssize_t n = PyTuple_GET_SIZE(mro);
    for (Py_ssize_t i = 1; i < n; ++i) {
      if (PyTuple_GET_ITEM(mro, i) == (PyObject*)base) return 1;
    }
    return 0;
  }
#endif
  return PyType_IsSubtype(tp, base);
}

static inline PyObject* TVMFFIPyFieldInt64ToPy(int64_t v) {
  uint64_t slot = (uint64_t)v - (uint64_t)TVMFFI_PY_SMALL_INT_MIN;
  if (slot < TVMFFI_PY_SMALL_INT_COUNT) {
    PyObject* out = tvm_ffi_py_field_property.small_ints[slot];
    Py_INCREF(out);
    return out;
  }
  return PyLong_FromLongLong(v);
}

/* Reads a member of any other storage through the field's C getter. */
TVMFFI_PY_FIELD_NOINLINE static PyObject* TVMFFIPyFieldReadThroughGetter(
    const TVMFFIPyFieldAccess* f, const char* addr) {
  TVMFFIAny result;
  result.type_index = kTVMFFINone;
  result.zero_padding = 0;
  result.v_int64 = 0;
  if (f->getter((void*)addr, &result) != 0) {
    TVMFFIObjectHandle err = NULL;
    TVMFFIErrorMoveFromRaised(&err);
    return tvm_ffi_py_call.raise(err);
  }
  return TVMFFIPyResultToPy(&result, NULL);
}

/* The member of f in the object at header, which holds the field. */
static inline PyObject* TVMFFIPyFieldRead(const TVMFFIPyFieldAccess* f,
                                          const TVMFFIObject* header) {
  const char* addr = (const char*)header + f->offset;
  if (f->kind == kTVMFFIPyFieldReadInt64) {
    int64_t v;
    memcpy(&v, addr, sizeof(v));
    return TVMFFIPyFieldInt64ToPy(v);
  }
  switch (f->kind) {
    case kTVMFFIPyFieldReadBool: {
      PyObject* out = *(const uint8_t*)addr != 0 ? Py_True : Py_False;
      Py_INCREF(out);
      return out;
    }
    case kTVMFFIPyFieldReadFloat64: {
      double v;
      memcpy(&v, addr, sizeof(v));
      return PyFloat_FromDouble(v);
    }
    default:
      return TVMFFIPyFieldReadThroughGetter(f, addr);
  }
}

/* An object whose type is not the declaring one: a subtype reads the field,
 * any other type goes to property's path (the FieldGetter's error). */
TVMFFI_PY_FIELD_NOINLINE static PyObject* TVMFFIPyFieldReadInherited(PyObject* self, PyObject* obj,
                                                                     PyObject* type) {
  const TVMFFIPyFieldAccess* f = TVMFFIPyFieldAccessOf(self);
  const TVMFFIObject* header = (const TVMFFIObject*)TVMFFIPyObjectHandle(obj);
  if (!TVMFFIPyFieldOwnerMatches(f, header->type_index)) {
    return tvm_ffi_py_field_property.base_get(self, obj, type);
  }
  return TVMFFIPyFieldRead(f, header);
}

/* A read of anything but an instance of the owner holding the field itself. */
TVMFFI_PY_FIELD_NOINLINE static PyObject* TVMFFIPyFieldReadOther(PyObject* self, PyObject* obj,
                                                                 PyObject* type) {
  const TVMFFIPyFieldAccess* f = TVMFFIPyFieldAccessOf(self);
  /* Class access (obj NULL), unbound properties, non-Objects and empty objects
   * take property's path. */
  if (f->kind == kTVMFFIPyFieldReadUnbound || obj == NULL || !TVMFFIPyFieldIsObject(obj)) {
    return tvm_ffi_py_field_property.base_get(self, obj, type);
  }
  const TVMFFIObject* header = (const TVMFFIObject*)TVMFFIPyObjectHandle(obj);
  if (header == NULL) return tvm_ffi_py_field_property.base_get(self, obj, type);
  if (header->type_index != f->type_index) return TVMFFIPyFieldReadInherited(self, obj, type);
  return TVMFFIPyFieldRead(f, header);
}

static PyObject* TVMFFIPyFieldPropertyGet(PyObject* self, PyObject* obj, PyObject* type) {
  const TVMFFIPyFieldAccess* f = TVMFFIPyFieldAccessOf(self);
  /* owner is set only while bound. */
  if (obj != NULL && (PyObject*)Py_TYPE(obj) == f->owner) {
    const TVMFFIObject* header = (const TVMFFIObject*)TVMFFIPyObjectHandle(obj);
    if (header != NULL && header->type_index == f->type_index) return TVMFFIPyFieldRead(f, header);
  }
  return TVMFFIPyFieldReadOther(self, obj, type);
}

/* The AnyView of value as the FieldSetter's conversion makes it, for the
 * values whose view borrows from value and needs no store; 0 when made, 1 for
 * any other value. */
static inline int TVMFFIPyFieldWriteArg(PyObject* value, TVMFFIAny* out) {
  if (TVMFFIPyScalarArg(value, out) == 0) return 0;
  if (Py_TYPE(value) == &PyLong_Type) return 1; /* beyond int64: the general path */
  if (TVMFFIPyFieldIsObject(value)) {
    TVMFFIObject* obj = (TVMFFIObject*)TVMFFIPyObjectHandle(value);
    out->type_index = obj == NULL ? kTVMFFINone : obj->type_index;
    /* A container converted while tags are live records its tag: general path. */
    if (tvm_ffi_py_tag_count > 0 && TVMFFIPyIsContainerIndex(out->type_index)) return 1;
    out->v_int64 = 0;
    out->v_obj = obj;
    return 0;
  }
  return 1;
}

/* A write the setter refused: its error is dropped and property's path
 * converts and calls again, raising the FieldSetter's exception. */
TVMFFI_PY_FIELD_NOINLINE static int TVMFFIPyFieldWriteRefused(PyObject* self, PyObject* obj,
                                                              PyObject* value) {
  TVMFFIObjectHandle err = NULL;
  TVMFFIErrorMoveFromRaised(&err);
  if (err != NULL) TVMFFIObjectDecRef(err);
  return tvm_ffi_py_field_property.base_set(self, obj, value);
}

static int TVMFFIPyFieldPropertySet(PyObject* self, PyObject* obj, PyObject* value) {
  const TVMFFIPyFieldAccess* f = TVMFFIPyFieldAccessOf(self);
  /* Deletion, unbound properties, non-Objects, empty objects, objects of an
   * unrelated type and values that need a store take property's path. */
  if (f->setter == NULL || value == NULL ||
      ((PyObject*)Py_TYPE(obj) != f->owner && !TVMFFIPyFieldIsObject(obj))) {
    return tvm_ffi_py_field_property.base_set(self, obj, value);
  }
  TVMFFIObject* header = (TVMFFIObject*)TVMFFIPyObjectHandle(obj);
  if (header == NULL ||
      (header->type_index != f->type_index && !TVMFFIPyFieldOwnerMatches(f, header->type_index))) {
    return tvm_ffi_py_field_property.base_set(self, obj, value);
  }
  TVMFFIAny view;
  if (TVMFFIPyFieldWriteArg(value, &view) != 0) {
    return tvm_ffi_py_field_property.base_set(self, obj, value);
  }
  if (f->setter((char*)header + f->offset, &view) != 0) {
    return TVMFFIPyFieldWriteRefused(self, obj, value);
  }
  return 0;
}

/* Drops the owner: every read checks the object's class in full. */
static void TVMFFIPyFieldForgetOwner(TVMFFIPyFieldAccess* f) {
  PyObject* old = f->owner;
  f->owner = NULL;
  Py_XDECREF(old);
}

/* property.__init__, after unbinding: a re-initialised property reads through
 * its (new) fget until bound again. */
static int TVMFFIPyFieldPropertyInit(PyObject* self, PyObject* args, PyObject* kwargs) {
  TVMFFIPyFieldAccess* f = TVMFFIPyFieldAccessOf(self);
  f->kind = kTVMFFIPyFieldReadUnbound;
  f->setter = NULL;
  TVMFFIPyFieldForgetOwner(f);
  return tvm_ffi_py_field_property.base_init(self, args, kwargs);
}

/* A heap type's instances own a reference to it (property's dealloc and
 * traverse, written for a static type, leave it out). */
static void TVMFFIPyFieldPropertyDealloc(PyObject* self) {
  PyTypeObject* tp = Py_TYPE(self);
  /* Released after property's dealloc has untracked self. */
  PyObject* owner = TVMFFIPyFieldAccessOf(self)->owner;
  TVMFFIPyFieldAccessOf(self)->owner = NULL;
  tvm_ffi_py_field_property.base_dealloc(self);
  Py_XDECREF(owner);
  Py_DECREF(tp);
}

static int TVMFFIPyFieldPropertyTraverse(PyObject* self, visitproc visit, void* arg) {
  Py_VISIT(Py_TYPE(self));
  Py_VISIT(TVMFFIPyFieldAccessOf(self)->owner);
  return tvm_ffi_py_field_property.base_traverse(self, visit, arg);
}

/* The owner closes a cycle (class -> property -> class). */
static int TVMFFIPyFieldPropertyClear(PyObject* self) {
  TVMFFIPyFieldForgetOwner(TVMFFIPyFieldAccessOf(self));
  return tvm_ffi_py_field_property.base_clear == NULL ? 0
                                                      : tvm_ffi_py_field_property.base_clear(self);
}

/* Reads of prop now take the C path, with the data of its FieldGetter. */
static void TVMFFIPyFieldPropertyBind(PyObject* prop, TVMFFIFieldGetter getter, int64_t offset,
                                      int32_t type_index, int32_t type_depth, int32_t kind) {
  TVMFFIPyFieldAccess* f = TVMFFIPyFieldAccessOf(prop);
  f->offset = offset;
  f->type_index = type_index;
  f->type_depth = type_depth;
  f->getter = getter;
  f->kind = kind;
}

/* Whether reads of prop take the C path. */
static int TVMFFIPyFieldPropertyIsBound(PyObject* prop) {
  return TVMFFIPyFieldAccessOf(prop)->kind != kTVMFFIPyFieldReadUnbound;
}

/* Reads and writes of instances of owner (a subclass of CObject, checked by
 * the caller) skip the class check; prop must be bound for reads. */
static void TVMFFIPyFieldPropertySetOwner(PyObject* prop, PyObject* owner) {
  TVMFFIPyFieldAccess* f = TVMFFIPyFieldAccessOf(prop);
  PyObject* old = f->owner;
  Py_INCREF(owner);
  f->owner = owner;
  Py_XDECREF(old);
}

/* Writes of prop (already bound for reads) now take the C path, calling the
 * field's C setter. */
static void TVMFFIPyFieldPropertyBindSetter(PyObject* prop, TVMFFIFieldSetter setter) {
  TVMFFIPyFieldAccessOf(prop)->setter = setter;
}

/* The slots of property this type builds on; 0, or -1 with an error set. */
static int TVMFFIPyFieldPropertyBaseSlots(void) {
  PyTypeObject* base = &PyProperty_Type;
#if TVMFFI_PY_LIMITED_API
  tvm_ffi_py_field_property.base_get = (descrgetfunc)PyType_GetSlot(base, Py_tp_descr_get);
  tvm_ffi_py_field_property.base_set = (descrsetfunc)PyType_GetSlot(base, Py_tp_descr_set);
  tvm_ffi_py_field_property.base_init = (initproc)PyType_GetSlot(base, Py_tp_init);
  tvm_ffi_py_field_property.base_dealloc = (destructor)PyType_GetSlot(base, Py_tp_dealloc);
  tvm_ffi_py_field_property.base_traverse = (traverseproc)PyType_GetSlot(base, Py_tp_traverse);
  tvm_ffi_py_field_property.base_clear = (inquiry)PyType_GetSlot(base, Py_tp_clear);
#else
  tvm_ffi_py_field_property.base_get = base->tp_descr_get;
  tvm_ffi_py_field_property.base_set = base->tp_descr_set;
  tvm_ffi_py_field_property.base_init = base->tp_init;
  tvm_ffi_py_field_property.base_dealloc = base->tp_dealloc;
  tvm_ffi_py_field_property.base_traverse = base->tp_traverse;
  tvm_ffi_py_field_property.base_clear = base->tp_clear;
#endif
  if (tvm_ffi_py_field_property.base_get == NULL || tvm_ffi_py_field_property.base_set == NULL ||
      tvm_ffi_py_field_property.base_init == NULL ||
      tvm_ffi_py_field_property.base_dealloc == NULL ||
      tvm_ffi_py_field_property.base_traverse == NULL) {
    if (!PyErr_Occurred()) {
      PyErr_SetString(PyExc_ImportError, "tvm_ffi.core: property lacks a slot _FieldProperty uses");
    }
    return -1;
  }
  return 0;
}

/* Makes the type (a new reference) or returns NULL with an error set. */
static PyObject* TVMFFIPyFieldPropertyTypeCreate(void) {
  if (TVMFFIPyFieldPropertyBaseSlots() != 0) return NULL;
  for (int i = 0; i < TVMFFI_PY_SMALL_INT_COUNT; ++i) {
    if (tvm_ffi_py_field_property.small_ints[i] != NULL) continue;
    PyObject* v = PyLong_FromLong(TVMFFI_PY_SMALL_INT_MIN + i);
    if (v == NULL) return NULL;
    tvm_ffi_py_field_property.small_ints[i] = v;
  }
  PyObject* size_obj = PyObject_GetAttrString((PyObject*)&PyProperty_Type, "__basicsize__");
  if (size_obj == NULL) return NULL;
  Py_ssize_t base_size = PyLong_AsSsize_t(size_obj);
  Py_DECREF(size_obj);
  if (base_size < 0) return NULL;
  Py_ssize_t align = (Py_ssize_t)sizeof(int64_t);
  tvm_ffi_py_field_property.data_offset = (base_size + align - 1) / align * align;
  static PyType_Slot slots[] = {
      {Py_tp_descr_get, (void*)TVMFFIPyFieldPropertyGet},
      {Py_tp_descr_set, (void*)TVMFFIPyFieldPropertySet},
      {Py_tp_init, (void*)TVMFFIPyFieldPropertyInit},
      {Py_tp_dealloc, (void*)TVMFFIPyFieldPropertyDealloc},
      {Py_tp_traverse, (void*)TVMFFIPyFieldPropertyTraverse},
      {Py_tp_clear, (void*)TVMFFIPyFieldPropertyClear},
      {Py_tp_doc,
       (void*)"A property reading and writing a reflected field in C (the base of FFIProperty)."},
      {0, NULL},
  };
  static PyType_Spec spec;
  spec.name = "tvm_ffi.core._FieldProperty";
  spec.basicsize =
      (int)(tvm_ffi_py_field_property.data_offset + (Py_ssize_t)sizeof(TVMFFIPyFieldAccess));
  spec.itemsize = 0;
  spec.flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC;
  spec.slots = slots;
  PyObject* bases = PyTuple_Pack(1, (PyObject*)&PyProperty_Type);
  if (bases == NULL) return NULL;
  PyObject* type = PyType_FromSpecWithBases(&spec, bases);
  Py_DECREF(bases);
  return type;
}

#endif  // TVM_FFI_PYTHON_FIELD_PROPERTY_H_
