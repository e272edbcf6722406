# Value conversion in both directions: Python -> TVMFFIAny for call arguments
# (convert_arg and the ArgStore that keeps a call's temporaries alive) and
# TVMFFIAny -> Python for results and callback arguments (any_view_to_py).
# The C fast path of calls (tvm_ffi_vectorcall.h) handles the simplest
# argument and result types itself and hands everything else to this file.
#
# Python -> TVMFFIAny (arguments): views, no copies. The ArgStore of a call
# keeps what the views point at alive until the call returns: objects made for
# the call (Array for a list, Function for a callable, ...) and the
# TVMFFIByteArray structs of bytes arguments. Each argument needs at most one of
# each, so a store sized for n arguments never overflows; up to 8 arguments use
# arrays inside the store itself (on the C stack), no heap allocation.
#
# Tensors: a `Tensor` is handled by the Object branch. Any other object with
# __dlpack__ (numpy, torch ...) passed where the function's type schema says
# `DLTensor*` (a TensorView or DLTensor* parameter) becomes a DLTensor in the
# store, on the C stack, passed as a DLTensorPtr view: no object is made. Where
# the parameter is a Tensor, Any, or unknown (no schema), it becomes a Tensor
# object owned by the store, which every tensor parameter accepts with no copy
# (convert_dlpack_arg in tensor.pxi).

import ctypes as _ctypes
import types as _types

cdef object _FunctionType = _types.FunctionType
cdef object _MethodType = _types.MethodType
cdef object _BuiltinFunctionType = _types.BuiltinFunctionType
cdef object _c_void_p = _ctypes.c_void_p

cdef enum:
    kStackArgs = 8
    # DLTensor views held on the stack per call, and the dimensions each can have.
    kStackTensors = 4
    kStackTensorDims = 8


cdef struct ViewSlots:
    # Separate from ArgStore so that stores of nested lists stay small on the C stack.
    DLTensor tensors[kStackTensors]
    int64_t strides[kStackTensors][kStackTensorDims]
    int64_t shapes[kStackTensors][kStackTensorDims]
    PyObject* pyrefs[kStackTensors]
    # Shape then strides of framework tensors passed as views (tvm_ffi_dlpack_exchange.h).
    int64_t exchange_dims[kStackTensors][2 * kTVMFFIPyViewDims]


cdef struct ArgStore:
    int num_owned
    int num_bytes
    TVMFFIObjectHandle* owned
    TVMFFIByteArray* byte_arrays
    bint on_heap
    TVMFFIObjectHandle owned_stack[kStackArgs]
    TVMFFIByteArray bytes_stack[kStackArgs]
    # The arguments passed as DLTensor views: the Function called (borrowed)
    # and the index of the argument being converted, the slots the views live
    # in (NULL: no views, as in nested containers, which must own their values),
    # and how many slots and Python references (DLPack capsules) are in use.
    PyObject* func
    Py_ssize_t arg_index
    ViewSlots* views
    int num_tensors
    int num_pyrefs
    # Where framework tensor arguments record their exchange API and stream: the
    # call's (nested stores of containers share the outer one), else local_env.
    TVMFFIPyCallEnv* env
    TVMFFIPyCallEnv local_env


cdef inline int args_store_init(ArgStore* store, Py_ssize_t n) except -1:
    store.num_owned = 0
    store.num_bytes = 0
    store.func = NULL
    store.arg_index = 0
    store.views = NULL
    store.num_tensors = 0
    store.num_pyrefs = 0
    TVMFFIPyCallEnvInit(&store.local_env)
    store.env = &store.local_env
    if n <= kStackArgs:
        store.on_heap = False
        store.owned = store.owned_stack
        store.byte_arrays = store.bytes_stack
        return 0
    store.on_heap = True
    store.owned = <TVMFFIObjectHandle*>malloc(n * sizeof(TVMFFIObjectHandle))
    store.byte_arrays = <TVMFFIByteArray*>malloc(n * sizeof(TVMFFIByteArray))
    if store.owned == NULL or store.byte_arrays == NULL:
        free(store.owned)
        free(store.byte_arrays)
        store.on_heap = False
        store.owned = store.owned_stack
        store.byte_arrays = store.bytes_stack
        raise MemoryError("cannot allocate argument storage for %d arguments" % n)
    return 0


cdef inline void args_store_release(ArgStore* store) noexcept:
    cdef int i
    for i in range(store.num_owned):
        TVMFFIPyDecRefWithGIL(store.owned[i])
    store.num_owned = 0
    for i in range(store.num_pyrefs):
        Py_XDECREF(store.views.pyrefs[i])
    store.num_pyrefs = 0
    if store.on_heap:
        free(store.owned)
        free(store.byte_arrays)
        store.on_heap = False


cdef inline void release_any(TVMFFIAny* value) noexcept:
    if value.type_index >= kTVMFFIStaticObjectBegin and value.v_obj != NULL:
        TVMFFIObjectDecRef(value.v_obj)
    value.type_index = kTVMFFINone
    value.v_int64 = 0


cdef inline void set_owned_object(TVMFFIAny* out, TVMFFIObjectHandle handle, ArgStore* store) noexcept:
    out.type_index = (<TVMFFIObject*>handle).type_index
    out.zero_padding = 0
    out.v_obj = <TVMFFIObject*>handle
    store.owned[store.num_owned] = handle
    store.num_owned += 1


cdef inline int convert_int(object x, TVMFFIAny* out, ArgStore* store) except -1:
    cdef int overflow = 0
    cdef long long value = PyLong_AsLongLongAndOverflow(x, &overflow)
    if overflow != 0:
        return convert_big_int(x, out, store)
    out.type_index = kTVMFFIInt
    out.v_int64 = value
    return 0


cdef int convert_big_int(object x, TVMFFIAny* out, ArgStore* store) except -1:
    """An int beyond int64 as a BigInt object (owned by store)."""
    cdef TVMFFIByteArray arr
    # Two's complement in whole little-endian 64-bit words (one more bit for the sign).
    cdef Py_ssize_t nbytes = (((<object>x).bit_length() + 64) // 64) * 8
    data = (<object>x).to_bytes(nbytes, "little", signed=True)
    arr.data = data
    arr.size = <size_t>nbytes
    check_call(TVMFFIBigIntFromByteArray(&arr, out))
    if out.type_index >= kTVMFFIStaticObjectBegin:
        store.owned[store.num_owned] = out.v_obj
        store.num_owned += 1
    return 0


cdef extern from "tvm_ffi_vectorcall.h":
    # Packs exact int/float/bool/None/str (no NUL)/Object: 0; 1 for any other value
    # (or an int beyond int64, a str holding NUL); -1 with a Python error set.
    int TVMFFIPyFastArg(object x, TVMFFIAny* out) noexcept
    # Bytes as a SmallBytes (up to 7) or a ByteArrayPtr view through *view.
    void TVMFFIPyBytesArg(const char* data, Py_ssize_t size, TVMFFIByteArray* view,
                          TVMFFIAny* out) noexcept


cdef inline int convert_str(object x, TVMFFIAny* out, ArgStore* store) except -1:
    cdef Py_ssize_t size
    cdef const char* data = PyUnicode_AsUTF8AndSize(x, &size)
    cdef TVMFFIByteArray arr
    if memchr(data, 0, size) == NULL:
        out.type_index = kTVMFFIRawStr
        out.v_c_str = data
        return 0
    # RawStr ends at the first NUL; a string holding NULs needs a real String.
    arr.data = data
    arr.size = <size_t>size
    check_call(TVMFFIStringFromByteArray(&arr, out))
    if out.type_index >= kTVMFFIStaticObjectBegin:
        store.owned[store.num_owned] = out.v_obj
        store.num_owned += 1
    return 0


cdef inline int convert_bytes(const char* data, Py_ssize_t size, TVMFFIAny* out,
                              ArgStore* store) except -1:
    # A SmallBytes, or a view of the buffer through the store's next TVMFFIByteArray.
    TVMFFIPyBytesArg(data, size, &store.byte_arrays[store.num_bytes], out)
    if out.type_index == kTVMFFIByteArrayPtr:
        store.num_bytes += 1
    return 0


cdef int convert_bytearray_copy(object x, TVMFFIAny* out, ArgStore* store) except -1:
    cdef TVMFFIByteArray arr
    arr.data = PyByteArray_AS_STRING(x)
    arr.size = <size_t>PyByteArray_GET_SIZE(x)
    check_call(TVMFFIBytesFromByteArray(&arr, out))
    if out.type_index >= kTVMFFIStaticObjectBegin:
        store.owned[store.num_owned] = out.v_obj
        store.num_owned += 1
    return 0


cdef int convert_arg(object x, TVMFFIAny* out, ArgStore* store) except -1:
    """Write the FFI view of x into out (exact-type fast paths first)."""
    # The simple types are converted where the C fast path of calls converts them.
    cdef int rc = TVMFFIPyFastArg(x, out)
    if rc == 0:
        if TVMFFIPyTagCount() > 0 and TVMFFIPyIsContainerIndex(out.type_index):
            record_container_tag(x, store)
        return 0
    if rc < 0:
        return raise_pending_py_error()
    if type(x) is bytes:
        return convert_bytes(PyBytes_AS_STRING(x), PyBytes_GET_SIZE(x), out, store)
    return convert_arg_slow(x, out, store)


# Nested lists, tuples and dicts deeper than this are converted without recursing on the
# C stack (nested_to_object): any depth converts, and the stack stays shallow.
cdef int kRecursiveNesting = 100


cdef bint is_nested_container(object x):
    """Whether convert_arg_slow would convert x as a nested list/tuple or dict."""
    if isinstance(x, dict):
        return True
    return isinstance(x, (list, tuple)) and not hasattr(x, "__tvm_ffi_object__")


cdef object nested_to_object(object root):
    """The Array or Map of a list, tuple or dict, built bottom-up with an explicit stack: each
    container is made from its items once its nested containers are made, so converting any
    depth takes one level of C recursion at a time. Dict keys are converted as they are."""
    make_array = rt_func("ffi.Array")
    make_map = rt_func("ffi.Map")
    # Frames: [container, its items (a dict's as key, value, key, ...), next index, done items].
    stack = [[root, _nested_items(root), 0, []]]
    while True:
        # (This module indexes without wraparound: no negative indices.)
        frame = stack[len(stack) - 1]
        node, items, i, done = frame
        if i < len(items):
            frame[2] = i + 1
            item = items[i]
            if (not isinstance(node, dict) or i % 2 == 1) and is_nested_container(item):
                stack.append([item, _nested_items(item), 0, []])
            else:
                done.append(item)
            continue
        stack.pop()
        built = make_map(*done) if isinstance(node, dict) else make_array(*done)
        if not stack:
            return built
        stack[len(stack) - 1][3].append(built)


cdef list _nested_items(object x):
    if isinstance(x, dict):
        return [part for item in x.items() for part in item]
    return list(x)


cdef int convert_nested_iteratively(object x, TVMFFIAny* out, ArgStore* store) except -1:
    """convert_sequence / the dict conversion of a value nested deeper than kRecursiveNesting."""
    cdef CObject built = <CObject>nested_to_object(x)
    TVMFFIObjectIncRef(built.chandle)
    set_owned_object(out, built.chandle, store)
    return 0


cdef int convert_sequence(object x, TVMFFIAny* out, ArgStore* store) except -1:
    """A list or tuple as a new Array (owned by store), built from its items' views."""
    cdef TVMFFIObjectHandle handle = NULL
    cdef int ret
    if TVMFFIPyNestingDepth() >= kRecursiveNesting:
        return convert_nested_iteratively(x, out, store)
    # Nesting recurses on the C stack up to kRecursiveNesting levels (then iteratively).
    if TVMFFIPyEnterNested(" while converting a nested list or tuple to an ffi.Array") != 0:
        raise_pending_py_error()
    try:
        ret = sequence_to_array(x, &handle, store.env)
    finally:
        TVMFFIPyLeaveNested()
    if ret != 0:
        raise_last_ffi_error()
    set_owned_object(out, handle, store)
    return 0


cdef int sequence_to_array(object x, TVMFFIObjectHandle* out,
                           TVMFFIPyCallEnv* env=NULL) except? -1:
    """TVMFFIPyArrayFromViews over the converted items of x (its return code).
    Framework tensors among the items record into env (when given)."""
    cdef Py_ssize_t n = len(x)
    cdef Py_ssize_t i
    cdef Py_ssize_t num_held = 0
    cdef int ret
    cdef TVMFFIAny stack_items[kStackArgs]
    cdef TVMFFIAny* items = stack_items
    # The views borrow from their items until the Array is built, so each item
    # is held here: converting an item may run Python code that replaces others
    # in the list, and a subclass's __getitem__ may return new objects.
    cdef PyObject* stack_held[kStackArgs]
    cdef PyObject** held = stack_held
    cdef ArgStore inner
    cdef list as_list = x if isinstance(x, list) else None
    cdef type t = type(x)
    if t is list or t is tuple:
        # Plain items (ints, floats, strs ...): built in place, nothing held.
        ret = TVMFFIPyArrayFromPlainItems(x, out)
        if ret <= 0:
            return ret if ret == 0 else raise_pending_py_error()
    args_store_init(&inner, n)
    if env != NULL:
        inner.env = env
    if n > kStackArgs:
        items = <TVMFFIAny*>malloc(n * (sizeof(TVMFFIAny) + sizeof(PyObject*)))
        if items == NULL:
            args_store_release(&inner)
            raise MemoryError("cannot convert a sequence of %d items" % n)
        held = <PyObject**>(items + n)
    try:
        for i in range(n):
            if as_list is not None:
                # Checked before each (unchecked) read: conversion may resize the list.
                if len(as_list) != n:
                    raise RuntimeError("list changed size while being converted to an "
                                       "ffi.Array")
                item = as_list[i]
            else:
                item = x[i]
            Py_INCREF(item)
            held[i] = <PyObject*>item
            num_held = i + 1
            convert_arg(item, &items[i], &inner)
        return TVMFFIPyArrayFromViews(items, n, out)
    finally:
        args_store_release(&inner)
        for i in range(num_held):
            Py_XDECREF(held[i])
        if items != stack_items:
            free(items)


cdef int convert_exchange_arg(object x, const DLPackExchangeAPI* api, TVMFFIAny* out,
                              ArgStore* store) except -1:
    """A tensor of a framework publishing the DLPack C exchange API: a DLTensor view
    where the parameter is declared DLTensor*, else a Tensor object owned by the call."""
    cdef DLTensor* view = NULL
    cdef int64_t* dims = NULL
    cdef TVMFFIObjectHandle owned = NULL
    if (store.views != NULL and store.num_tensors < kStackTensors and store.arg_index < 64
            and (function_view_mask(<Function>store.func) >> store.arg_index) & 1):
        view = &store.views.tensors[store.num_tensors]
        dims = store.views.exchange_dims[store.num_tensors]
    if TVMFFIPyExchangeArg(x, api, view, dims, out, &owned, 0, store.env) != 0:
        return raise_pending_py_error()
    if owned != NULL:
        store.owned[store.num_owned] = owned
        store.num_owned += 1
    elif view != NULL:
        store.num_tensors += 1
    return 0


cdef int convert_arg_slow(object x, TVMFFIAny* out, ArgStore* store) except -1:
    cdef TVMFFIAny tmp
    cdef TVMFFIObjectHandle handle = NULL
    cdef type t = type(x)
    cdef const DLPackExchangeAPI* api = NULL
    cdef TVMFFIPyTupleItemsView flat_items
    if _NUMPY_NDARRAY is not None and t is _NUMPY_NDARRAY:
        # Known once a first numpy array went through the __dlpack__ branch below.
        return convert_dlpack_arg(x, out, store)
    if t is list or t is tuple:
        return convert_sequence(x, out, store)
    if t is _FunctionType or t is _MethodType or t is _BuiltinFunctionType:
        # Plain callables skip the protocol probes below.
        set_owned_object(out, py_callable_to_handle(x), store)
        return 0
    # Framework tensors (torch ...): their class publishes __dlpack_c_exchange_api__.
    if TVMFFIPyExchangeLookup(<PyTypeObject*>t, &api) != 0:
        return raise_pending_py_error()
    if api != NULL:
        return convert_exchange_arg(x, api, out, store)
    if isinstance(x, dtype):
        out.type_index = kTVMFFIDataType
        out.v_uint64 = 0
        out.v_dtype = dtype_to_dl(x)
        return 0
    if isinstance(x, Device):
        out.type_index = kTVMFFIDevice
        out.v_device = (<Device>x).cdevice
        return 0
    if isinstance(x, _c_void_p):
        out.type_index = kTVMFFIOpaquePtr
        out.v_ptr = <void*><uintptr_t>(x.value or 0)
        return 0
    if isinstance(x, bool):
        out.type_index = kTVMFFIBool
        out.v_int64 = 1 if x else 0
        return 0
    if isinstance(x, int):
        return convert_int(x, out, store)
    if isinstance(x, float):
        out.type_index = kTVMFFIFloat
        out.v_float64 = x
        return 0
    if isinstance(x, str):
        return convert_str(x, out, store)
    if isinstance(x, bytes):
        return convert_bytes(PyBytes_AS_STRING(x), PyBytes_GET_SIZE(x), out, store)
    if isinstance(x, bytearray):
        # Mutable: a later argument's conversion (or another thread while the GIL is
        # released) may resize it and free the buffer, so pass a copy.
        return convert_bytearray_copy(x, out, store)
    if isinstance(x, (list, tuple)):
        # Native-backed Python values (tvm_ffi.Shape is a tuple) carry their object.
        backing = getattr(x, "__tvm_ffi_object__", None)
        if callable(backing) and not isinstance(backing, CObject):
            backing = backing()
        if isinstance(backing, CObject) and (<CObject>backing).chandle != NULL:
            return convert_arg(backing, out, store)
        return convert_sequence(x, out, store)
    if isinstance(x, dict):
        if TVMFFIPyNestingDepth() >= kRecursiveNesting:
            return convert_nested_iteratively(x, out, store)
        flat = []
        for key, value in x.items():
            flat.append(key)
            flat.append(value)
        flat_args = tuple(flat)
        TVMFFIPyTupleItemsAcquire(&flat_items, flat_args)
        try:
            if TVMFFIPyEnterNested(" while converting a nested dict to an ffi.Map") != 0:
                raise_pending_py_error()
            try:
                function_call_env(rt_func("ffi.Map"), flat_items.data, flat_items.size,
                                  &tmp, store.env, True)
            finally:
                TVMFFIPyLeaveNested()
        finally:
            TVMFFIPyTupleItemsRelease(&flat_items)
        set_owned_object(out, tmp.v_obj, store)
        return 0
    if isinstance(x, BaseException):
        handle = py_exception_to_error(x)
        set_owned_object(out, handle, store)
        return 0
    if getattr(t, "__dlpack__", None) is not None and not isinstance(x, type):
        # Before __index__: a 0-d numpy array is a tensor, not an int.
        return convert_dlpack_arg(x, out, store)
    index = getattr(type(x), "__index__", None)
    if index is not None and not isinstance(x, type):
        # numpy integer scalars and the like; array types whose __index__
        # refuses (non-scalar arrays) fall through to the generic paths.
        try:
            value = index(x)
        except TypeError:
            value = None
        if value is not None:
            return convert_int(value, out, store)
    if cany_view(x, out):
        return 0
    if convert_protocol_pre(x, out, store):
        return 0
    if callable(x):
        handle = py_callable_to_handle(x)
        set_owned_object(out, handle, store)
        return 0
    if convert_protocol_post(x, out, store):
        return 0
    Py_INCREF(x)
    if TVMFFIObjectCreateOpaque(<void*>x, kTVMFFIOpaquePyObject, TVMFFIPyDecRefDeleter,
                                &handle) != 0:
        Py_XDECREF(<PyObject*>x)
        raise_last_ffi_error()
    set_owned_object(out, handle, store)
    return 0


cdef int py_to_owned_any(object x, TVMFFIAny* out) except -1:
    """An owned FFI value of x (RawStr/bytes views become String/Bytes)."""
    cdef ArgStore store
    cdef TVMFFIAny view
    args_store_init(&store, 1)
    try:
        convert_arg(x, &view, &store)
        check_call(TVMFFIAnyViewToOwnedAny(&view, out))
    finally:
        args_store_release(&store)
    return 0


# ---------------------------------------------------------------------------
# TVMFFIAny -> Python
# ---------------------------------------------------------------------------

# container.py installs the factory of tvm_ffi.Shape (a tuple subclass).
cdef object _SHAPE_FACTORY = None


def _set_shape_factory(factory):
    global _SHAPE_FACTORY
    _SHAPE_FACTORY = factory


cdef object owned_object_to_py(TVMFFIObjectHandle handle):
    """The Python value of an object; steals the reference to handle."""
    cdef int32_t tindex = (<TVMFFIObject*>handle).type_index
    cdef TVMFFIByteArray* arr
    cdef Function func
    if tindex == kTVMFFIStr:
        arr = <TVMFFIByteArray*>TVMFFIPyObjectCell(handle)
        try:
            return bytearray_to_str(arr)
        finally:
            TVMFFIObjectDecRef(handle)
    if tindex == kTVMFFIBytes:
        arr = <TVMFFIByteArray*>TVMFFIPyObjectCell(handle)
        try:
            return bytearray_to_bytes(arr)
        finally:
            TVMFFIObjectDecRef(handle)
    if tindex == kTVMFFIBigInt:
        try:
            return big_int_to_py(handle)
        finally:
            TVMFFIObjectDecRef(handle)
    if tindex == kTVMFFIFunction:
        func = <Function>Function.__new__(Function)
        func.chandle = handle
        return func
    if tindex == kTVMFFIOpaquePyObject:
        value = <object>(<TVMFFIOpaqueObjectCell*>TVMFFIPyObjectCell(handle)).handle
        TVMFFIObjectDecRef(handle)
        return value
    if tindex == kTVMFFIShape and _SHAPE_FACTORY is not None:
        return _SHAPE_FACTORY(wrap_object(handle))
    return wrap_object(handle)


cdef object big_int_to_py(TVMFFIObjectHandle handle):
    """The Python int of a BigInt object (its words, least significant first)."""
    cdef TVMFFIAny view
    view.type_index = kTVMFFIBigInt
    view.zero_padding = 0
    view.v_obj = <TVMFFIObject*>handle
    cdef TVMFFIByteArray words = TVMFFIBigIntGetContentByteArray(&view)
    return int.from_bytes(PyBytes_FromStringAndSize(words.data, <Py_ssize_t>words.size),
                          "little", signed=True)


cdef object any_view_to_py(const TVMFFIAny* value):
    """The Python value of a borrowed view (objects gain a reference)."""
    cdef int32_t tindex = value.type_index
    cdef TVMFFIObject* obj
    if tindex == kTVMFFINone:
        return None
    if tindex == kTVMFFIInt:
        return value.v_int64
    if tindex == kTVMFFIBool:
        return value.v_int64 != 0
    if tindex == kTVMFFIFloat:
        return value.v_float64
    if tindex >= kTVMFFIStaticObjectBegin:
        TVMFFIObjectIncRef(value.v_obj)
        return owned_object_to_py(value.v_obj)
    if tindex == kTVMFFISmallStr:
        return PyUnicode_DecodeUTF8(value.v_bytes, value.small_str_len, "replace")
    if tindex == kTVMFFIRawStr:
        return PyUnicode_DecodeUTF8(value.v_c_str, strlen(value.v_c_str), "replace")
    if tindex == kTVMFFISmallBytes:
        return PyBytes_FromStringAndSize(value.v_bytes, value.small_str_len)
    if tindex == kTVMFFIByteArrayPtr:
        return bytearray_to_bytes(<TVMFFIByteArray*>value.v_ptr)
    if tindex == kTVMFFIOpaquePtr:
        return _ctypes.c_void_p(<uintptr_t>value.v_ptr)
    if tindex == kTVMFFIDataType:
        return dl_to_dtype(value.v_dtype)
    if tindex == kTVMFFIDevice:
        return make_device(value.v_device)
    if tindex == kTVMFFIObjectRValueRef:
        # The caller moved the object in: the Python side takes the reference over, and
        # the caller's handle is left empty.
        obj = (<TVMFFIObject**>value.v_ptr)[0]
        if obj == NULL:
            return None
        (<TVMFFIObject**>value.v_ptr)[0] = NULL
        return owned_object_to_py(obj)
    if tindex == kTVMFFIDLTensorPtr:
        # Lent for the call only: a Tensor that does not own the data.
        return borrowed_dltensor_to_py(<DLTensor*>value.v_ptr)
    raise TypeError("cannot convert an FFI value of type index %d to Python" % tindex)


cdef inline object any_to_py_owned(TVMFFIAny* value):
    """The Python value of an owned result (takes over its object reference)."""
    if value.type_index >= kTVMFFIStaticObjectBegin:
        value.type_index = kTVMFFINone
        return owned_object_to_py(value.v_obj)
    return any_view_to_py(value)


def convert(value):
    """The FFI form of a Python value: list -> Array, dict -> Map, callable -> Function ..."""
    cdef TVMFFIAny owned
    owned.type_index = kTVMFFINone
    owned.zero_padding = 0
    owned.v_int64 = 0
    py_to_owned_any(value, &owned)
    return any_to_py_owned(&owned)
