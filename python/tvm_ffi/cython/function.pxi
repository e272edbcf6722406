# tvm_ffi.Function and the global registry: how a call is dispatched
# (function_call_items; the C entry point and its fast path live in
# tvm_ffi_vectorcall.h), Python callables as Functions (TVMFFIPyCallbackSafeCall, then py_safe_call), and
# register_global_func / get_global_func.

# Initial release_gil of every Function (TVM_FFI_RELEASE_GIL_BY_DEFAULT=0 turns it off).
cdef bint _RELEASE_GIL_BY_DEFAULT = _os.environ.get("TVM_FFI_RELEASE_GIL_BY_DEFAULT", "1") != "0"

ctypedef void (*MlirPackedFn)(void** args) noexcept nogil
ctypedef void (*PyDeleter)(void* handle) noexcept nogil

cdef struct MlirPackedCall:
    MlirPackedFn fn
    PyObject* keep_alive


cdef int py_safe_call(void* handle, const TVMFFIAny* args, int32_t num_args,
                      TVMFFIAny* result) noexcept with gil:
    """The general safe_call of Functions that wrap a Python callable (handle is the callable):
    TVMFFIPyCallbackSafeCall (tvm_ffi_vectorcall.h) handles plain arguments itself."""
    cdef int32_t i
    cdef int32_t done = 0
    cdef PyObject* stack_argv[kStackArgs]
    cdef PyObject** argv = stack_argv
    cdef PyObject* rv = NULL
    if PyErr_Occurred() != NULL:
        # Native code swallowed the error of a signal check and called back: the callback
        # does not run under that pending Python error. It stays pending, and the call
        # fails with the kind that says so, so that Python raises it (KeyboardInterrupt)
        # when the error reaches it.
        TVMFFIErrorSetRaisedFromCStr("EnvErrorAlreadySet",
                                     "a Python error is pending; the callback did not run")
        return -1
    try:
        if num_args > kStackArgs:
            argv = <PyObject**>malloc(num_args * sizeof(PyObject*))
            if argv == NULL:
                raise MemoryError("cannot allocate %d callback arguments" % num_args)
        try:
            # argv holds a new reference per converted argument, dropped below.
            for i in range(num_args):
                arg = any_view_to_py(&args[i])
                Py_INCREF(arg)
                argv[i] = <PyObject*>arg
                done += 1
            rv = PyObject_Vectorcall(<PyObject*>handle, argv, <size_t>num_args, NULL)
        finally:
            for i in range(done):
                Py_XDECREF(argv[i])
            if argv != stack_argv:
                free(argv)
        if rv == NULL:
            raise_pending_py_error()
        value = <object>rv
        Py_XDECREF(rv)
        py_to_owned_any(value, result)
        return 0
    except BaseException as exc:
        set_raised_from_py_exception(exc)
        return -1


cdef int callback_result(object value, TVMFFIAny* result) noexcept:
    """The owned cell of a callback's result (TVMFFIPyCallbackSafeCall, GIL held); -1 with
    the FFI error raised when it cannot be converted."""
    try:
        py_to_owned_any(value, result)
        return 0
    except BaseException as exc:
        set_raised_from_py_exception(exc)
        return -1


cdef int callback_error() noexcept:
    """The pending exception of a callback (TVMFFIPyCallbackSafeCall, GIL held) as the raised
    FFI error; -1."""
    try:
        raise_pending_py_error()
    except BaseException as exc:
        set_raised_from_py_exception(exc)
    return -1


cdef TVMFFIObjectHandle py_callable_to_handle(object f) except NULL:
    """A new Function object (owned) calling the Python callable f."""
    cdef TVMFFIObjectHandle out = NULL
    if TVMFFIPyCallableToFunction(f, &out) != 0:
        raise_last_ffi_error()
    return out


cdef extern from "tvm_ffi_limited_api.h":
    # The items of a tuple as an array (a copy under the limited API): release after use.
    ctypedef struct TVMFFIPyTupleItemsView:
        PyObject** data
        Py_ssize_t size
    int TVMFFIPyTupleItemsAcquire(TVMFFIPyTupleItemsView* view, object tup) except -1
    void TVMFFIPyTupleItemsRelease(TVMFFIPyTupleItemsView* view) noexcept

cdef extern from "tvm_ffi_vectorcall.h":
    void* TVMFFIPyFunctionVectorcallPtr() noexcept
    object TVMFFIPyFunctionCallTuple(object self, object args)
    void TVMFFIPyEnableVectorcall(object type, object object_type, void* call, void* result,
                                  void* raise_, void* callback_call, void* callback_result,
                                  void* callback_error) noexcept
    # A new Function calling f (TVMFFIPyCallbackSafeCall); -1 with the FFI error raised.
    int TVMFFIPyCallableToFunction(object f, TVMFFIObjectHandle* out) noexcept
    # The native call under env (stream and allocator installed, then restored);
    # -1 with the Python exception of a failure set.
    int TVMFFIPyCallWithEnv(void* handle, int release_gil, TVMFFIAny* packed, int32_t n,
                            TVMFFIPyCallEnv* env, TVMFFIAny* result) except -1
    # The Python value of an owned result (tensors through api when non-NULL).
    object TVMFFIPyResultToPy(TVMFFIAny* result, const DLPackExchangeAPI* api)


cdef inline int function_call_raw(Function f, tuple args, TVMFFIAny* result) except -1:
    """Call f with args; leaves the owned result in result."""
    cdef TVMFFIPyTupleItemsView items
    TVMFFIPyTupleItemsAcquire(&items, args)
    try:
        return function_call_items(f, items.data, items.size, result)
    finally:
        TVMFFIPyTupleItemsRelease(&items)


cdef inline int function_call_items(Function f, PyObject** items, Py_ssize_t n,
                                    TVMFFIAny* result) except -1:
    """Call f with the n arguments items[0..n); leaves the owned result in result."""
    cdef TVMFFIPyCallEnv env
    TVMFFIPyCallEnvInit(&env)
    return function_call_env(f, items, n, result, &env, False)


cdef int function_call_env(Function f, PyObject** items, Py_ssize_t n, TVMFFIAny* result,
                           TVMFFIPyCallEnv* env, bint nested) except -1:
    """Call f with the n arguments items[0..n); leaves the owned result in result.

    Framework tensor arguments record their exchange API and stream in env. A
    top-level call installs them for the native call; a nested one (the
    constructor of a container argument) only reports them to the enclosing
    call's env and installs nothing."""
    cdef Py_ssize_t i
    cdef TVMFFIAny stack_args[kStackArgs]
    cdef TVMFFIAny* packed = stack_args
    cdef ArgStore store
    cdef ViewSlots views  # filled only by array arguments to DLTensor* parameters
    cdef TVMFFIPyCallEnv plain
    cdef TVMFFIObjectHandle handle = f.chandle
    if handle == NULL:
        raise ValueError("cannot call an empty tvm_ffi.Function (handle is NULL)")
    args_store_init(&store, n)
    if n > kStackArgs:
        packed = <TVMFFIAny*>malloc(n * sizeof(TVMFFIAny))
        if packed == NULL:
            args_store_release(&store)
            raise MemoryError("cannot allocate %d call arguments" % n)
    store.func = <PyObject*>f
    store.views = &views
    store.env = env
    try:
        for i in range(n):
            store.arg_index = i
            convert_arg(<object>items[i], &packed[i], &store)
        if nested:
            TVMFFIPyCallEnvInit(&plain)
            TVMFFIPyCallWithEnv(handle, f.c_state.release_gil, packed, <int32_t>n, &plain, result)
        else:
            TVMFFIPyCallWithEnv(handle, f.c_state.release_gil, packed, <int32_t>n, env, result)
    finally:
        args_store_release(&store)
        if packed != stack_args:
            free(packed)
    return 0


cdef class Function(CObject):
    """A callable FFI Function (made in C++, in Python, or in any other binding).

    ``Function(pyfunc)`` wraps a Python callable so C++ can call it.
    """
    # What the C call path reads (tvm_ffi_layout.h): the vectorcall entry point
    # (the type's tp_vectorcall_offset points at it), release_gil, and the mask
    # of arguments declared `DLTensor*` (TensorView, DLTensor*), which arrays
    # and framework tensors are passed to as DLTensor views. The mask is read
    # from the type schema the first time an array is passed (view_known), via
    # c_schema_source: (getter, args) returning the metadata JSON, or None.
    cdef TVMFFIPyFunctionState c_state
    cdef object c_schema_source
    # Arbitrary attributes (e.g. __name__ set by init_ffi_api).
    cdef dict __dict__

    # *args/**kwargs: a no-argument __cinit__ on a subclass of CObject makes Cython 3.3.0 emit a
    # call to a vectorcall tp_new of CObject that it never defines (the build then fails).
    def __cinit__(self, *args, **kwargs):
        TVMFFIPyFunctionStateInit(&self.c_state, TVMFFIPyFunctionVectorcallPtr())
        self.c_state.release_gil = 1 if _RELEASE_GIL_BY_DEFAULT else 0
        self.c_schema_source = None

    def __init__(self, func=None):
        cdef TVMFFIObjectHandle handle
        if func is None:
            return  # an empty Function, as Function() is in the reference package
        check_not_initialized(self)
        if isinstance(func, Function):
            handle = (<Function>func).chandle
            TVMFFIObjectIncRef(handle)
            self.c_state.release_gil = (<Function>func).c_state.release_gil
            self.c_schema_source = (<Function>func).c_schema_source
        elif callable(func):
            handle = py_callable_to_handle(func)
        else:
            raise TypeError("Function expects a callable, got %s" % type(func).__name__)
        self.chandle = handle

    @property
    def release_gil(self):
        """Whether calls release the GIL while native code runs."""
        return self.c_state.release_gil != 0

    @release_gil.setter
    def release_gil(self, value):
        self.c_state.release_gil = 1 if value else 0

    def __call__(self, *args):
        # Reached through tp_call (e.g. f(*args, **{})), and by every call of a
        # stable-ABI build, which cannot give the type vectorcall; f(...) takes vectorcall.
        return TVMFFIPyFunctionCallTuple(self, args)

    def __repr__(self):
        if self.chandle == NULL:
            return "%s(chandle=None)" % type(self).__name__
        return "ffi.Function"

    @staticmethod
    def __from_extern_c__(c_symbol, *, keep_alive_object=None):
        """A Function calling the TVMFFISafeCallType function at address c_symbol.

        The function receives keep_alive_object (as a PyObject*, or NULL) as its first
        argument; the Function holds one reference to keep_alive_object until it dies.
        """
        cdef TVMFFIObjectHandle out = NULL
        cdef void* self_ptr = NULL
        cdef uintptr_t addr = int(c_symbol)
        if addr == 0:
            raise ValueError("__from_extern_c__: the symbol address is NULL")
        if keep_alive_object is not None:
            Py_INCREF(keep_alive_object)
            self_ptr = <void*>keep_alive_object
        cdef PyDeleter deleter = NULL
        if self_ptr != NULL:
            deleter = TVMFFIPyDecRefDeleter
        if TVMFFIFunctionCreate(self_ptr, <TVMFFISafeCallType>addr, deleter, &out) != 0:
            if self_ptr != NULL:
                Py_XDECREF(<PyObject*>self_ptr)
            raise_last_ffi_error()
        return owned_object_to_py(out)

    @staticmethod
    def __from_mlir_packed_safe_call__(mlir_packed_symbol, *, keep_alive_object=None):
        """A Function calling an MLIR packed function ``void(void** args)`` at the address.

        Each call passes five pointers: to the handle (NULL), the args pointer, num_args,
        the result pointer and an int return code (0 initially) that becomes the result.
        """
        cdef TVMFFIObjectHandle out = NULL
        cdef MlirPackedCall* packed
        cdef uintptr_t addr = int(mlir_packed_symbol)
        if addr == 0:
            raise ValueError("__from_mlir_packed_safe_call__: the symbol address is NULL")
        packed = <MlirPackedCall*>malloc(sizeof(MlirPackedCall))
        if packed == NULL:
            raise MemoryError()
        packed.fn = <MlirPackedFn>addr
        packed.keep_alive = NULL
        if keep_alive_object is not None:
            Py_INCREF(keep_alive_object)
            packed.keep_alive = <PyObject*>keep_alive_object
        if TVMFFIFunctionCreate(<void*>packed, mlir_packed_safe_call, mlir_packed_deleter,
                                &out) != 0:
            mlir_packed_deleter(packed)
            raise_last_ffi_error()
        return owned_object_to_py(out)

    def _set_schema_source(self, getter, args):
        """Where the metadata JSON of this function comes from: getter(*args)."""
        self.c_schema_source = (getter, tuple(args))
        self.c_state.view_known = 0
        self.c_state.view_mask = 0

    @property
    def _view_args(self):
        """Positions of the arguments that arrays are passed to as DLTensor views."""
        cdef uint64_t mask = function_view_mask(self)
        return tuple([i for i in range(64) if (mask >> i) & 1])


cdef uint64_t view_mask_from_metadata(object text):
    """Bits of the `DLTensor*` parameters in a metadata JSON; 0 when unknown."""
    import json
    try:
        schema = json.loads(json.loads(text)["type_schema"])
        if "named_args" in schema:
            # The reference's form: {"named_args": {"return": [...], "params": [...]}}.
            params = schema["named_args"]["params"]
        else:
            params = schema["args"][1:]  # args[0] is the result
        if not isinstance(params, list):
            return 0
    except Exception:
        return 0
    cdef uint64_t mask = 0
    for i, param in enumerate(params[:64]):
        if isinstance(param, dict) and param.get("type") == "DLTensor*":
            mask |= (<uint64_t>1) << i
    return mask


def _dltensor_param_mask(text):
    """The DLTensor* parameter bits view_mask_from_metadata reads from a metadata JSON."""
    return view_mask_from_metadata(text)


cdef uint64_t function_view_mask(Function f):
    """f.c_state.view_mask, read from f's schema on first use (0: no schema, or none of it)."""
    cdef uint64_t mask = 0
    if f.c_state.view_known:
        return f.c_state.view_mask
    if f.c_schema_source is not None:
        getter, args = f.c_schema_source
        try:
            # A native call: other threads may look meanwhile and compute it too.
            text = getter(*args)
        except Exception:
            text = None
        if text is not None:
            mask = view_mask_from_metadata(text)
    f.c_state.view_mask = mask
    f.c_state.view_known = 1
    return mask


cdef object function_vectorcall_impl(object self, PyObject** args, Py_ssize_t nargs):
    """The general path of vectorcall (any argument types): converts straight from the array."""
    cdef TVMFFIAny result
    cdef TVMFFIPyCallEnv env
    TVMFFIPyCallEnvInit(&env)
    function_call_env(<Function>self, args, nargs, &result, &env, False)
    return TVMFFIPyResultToPy(&result, env.result_api)


cdef object vectorcall_result(TVMFFIAny* result, const DLPackExchangeAPI* api):
    """The C path's conversion of results other than None/int/bool/float/str; a container
    result of a call with a framework's exchange API is tagged with it (exchange.pxi)."""
    cdef bint container = api != NULL and TVMFFIPyIsContainerIndex(result.type_index)
    out = any_to_py_owned(result)
    if container:
        tag_container(out, api)
    return out


cdef object vectorcall_raise(TVMFFIObjectHandle err):
    """The C path's error: raises err (NULL: none was raised)."""
    raise_ffi_error(err)


cdef int _enable_function_vectorcall() except -1:
    # The C call path reads Object and Function through the structs of
    # tvm_ffi_layout.h: check that Cython laid the classes out that way.
    cdef Function probe = <Function>Function.__new__(Function)
    cdef char* base = <char*><PyObject*>probe
    if (<char*>&probe.chandle - base != TVMFFIPyObjectHandleOffset()
            or <char*>&probe.c_state - base != TVMFFIPyFunctionStateOffset()):
        raise ImportError("tvm_ffi.core: the layout of CObject/Function differs from "
                          "tvm_ffi_layout.h (chandle at %d, c_state at %d)"
                          % (<char*>&probe.chandle - base, <char*>&probe.c_state - base))
    TVMFFIPyEnableVectorcall(Function, CObject, <void*>function_vectorcall_impl,
                             <void*>vectorcall_result, <void*>vectorcall_raise,
                             <void*>py_safe_call, <void*>callback_result,
                             <void*>callback_error)
    return 0


_enable_function_vectorcall()


cdef Function make_function_from_callable(object f):
    cdef Function func = <Function>Function.__new__(Function)
    func.chandle = py_callable_to_handle(f)
    return func


cdef int mlir_packed_safe_call(void* handle, const TVMFFIAny* args, int32_t num_args,
                               TVMFFIAny* result) noexcept nogil:
    cdef MlirPackedCall* packed = <MlirPackedCall*>handle
    cdef void* self_handle = NULL
    cdef const TVMFFIAny* c_args = args
    cdef int32_t c_num_args = num_args
    cdef TVMFFIAny* c_result = result
    cdef int ret = 0
    cdef void* call_args[5]
    call_args[0] = &self_handle
    call_args[1] = &c_args
    call_args[2] = &c_num_args
    call_args[3] = &c_result
    call_args[4] = &ret
    packed.fn(call_args)
    return ret


cdef void mlir_packed_deleter(void* handle) noexcept nogil:
    cdef MlirPackedCall* packed = <MlirPackedCall*>handle
    if packed.keep_alive != NULL:
        TVMFFIPyDecRefDeleter(<void*>packed.keep_alive)
    free(packed)


# ---------------------------------------------------------------------------
# Global registry
# ---------------------------------------------------------------------------

cdef dict _RT_FUNCS = {}


cdef Function rt_func(str name):
    """A runtime global (see docs/runtime_globals.md), looked up once."""
    f = _RT_FUNCS.get(name)
    if f is None:
        f = _get_global_func(name, False)
        _RT_FUNCS[name] = f
    return <Function>f


def _get_global_func(str name, bint allow_missing=False):
    cdef TVMFFIByteArray c_name = str_to_bytearray(name)
    cdef TVMFFIObjectHandle handle = NULL
    check_call(TVMFFIFunctionGetGlobal(&c_name, &handle))
    if handle == NULL:
        if allow_missing:
            return None
        raise ValueError("Cannot find global function %s" % name)
    func = owned_object_to_py(handle)
    if isinstance(func, Function):
        (<Function>func).c_schema_source = (_global_func_metadata_text, (name,))
    return func


def _global_func_metadata_text(str name):
    """The metadata JSON of the global function name, or None."""
    return rt_func("ffi.GetGlobalFuncMetadata")(name)


def _register_global_func(str name, func, bint override=False):
    cdef TVMFFIByteArray c_name = str_to_bytearray(name)
    cdef Function f
    if isinstance(func, Function):
        f = <Function>func
    elif callable(func):
        f = make_function_from_callable(func)
    else:
        raise TypeError("register_global_func(%r): expected a callable, got %s"
                        % (name, type(func).__name__))
    check_call(TVMFFIFunctionSetGlobal(&c_name, f.chandle, 1 if override else 0))
    _RT_FUNCS.pop(name, None)
    return f


def _seq_check(CObject obj):
    obj._check_handle()
    tindex = (<TVMFFIObject*>obj.chandle).type_index
    if tindex != kTVMFFIArray and tindex != kTVMFFIList:
        raise TypeError("expected an ffi.Array or ffi.List, got %s" % obj.type_key)


def _seq_size(CObject obj):
    """Number of elements of an Array or List (read from its cell)."""
    _seq_check(obj)
    return (<TVMFFISeqCell*>TVMFFIPyObjectCell(obj.chandle)).size


def _seq_getitem(CObject obj, int64_t index):
    """Element `index` (negative counts from the end) of an Array or List."""
    cdef TVMFFISeqCell* cell
    cdef int64_t size
    _seq_check(obj)
    cell = <TVMFFISeqCell*>TVMFFIPyObjectCell(obj.chandle)
    size = cell.size
    cdef int64_t given = index
    if index < 0:
        index += size
    if index < 0 or index >= size:
        raise IndexError("index %d out of range for %s of size %d"
                         % (given, obj.type_key, size))
    return element_to_py(&(<TVMFFIAny*>cell.data)[index], container_tag(obj))


def _seq_to_list(CObject obj):
    """All elements of an Array or List as a Python list."""
    cdef TVMFFISeqCell* cell
    cdef int64_t i
    _seq_check(obj)
    cell = <TVMFFISeqCell*>TVMFFIPyObjectCell(obj.chandle)
    cdef const DLPackExchangeAPI* api = container_tag(obj)
    out = []
    for i in range(cell.size):
        out.append(element_to_py(&(<TVMFFIAny*>cell.data)[i], api))
    return out


def _shape_values(CObject obj):
    """The ints of a Shape object (read from its cell)."""
    cdef TVMFFIShapeCell* cell
    cdef size_t i
    obj._check_handle()
    if (<TVMFFIObject*>obj.chandle).type_index != kTVMFFIShape:
        raise TypeError("expected an ffi.Shape, got %s" % obj.type_key)
    cell = <TVMFFIShapeCell*>TVMFFIPyObjectCell(obj.chandle)
    return tuple([cell.data[i] for i in range(cell.size)])
