# cython: language_level=3, boundscheck=False, wraparound=False
# distutils: language = c++
"""tvm_ffi.core: the compiled core of the Python binding of the tvm-ffi C ABI.

Loaded by tvm_ffi/__init__.py after libtvm_ffi (RTLD_GLOBAL). The parts:
  base.pxi     C ABI declarations and small helpers
  error.pxi    native errors <-> Python exceptions (with native frames in tracebacks)
  object.pxi   tvm_ffi.Object, class registry, reflection access
  device.pxi   Device, DLDeviceType, dtype
  convert.pxi  value conversion: Python arguments -> FFI values, FFI values -> Python
  function.pxi tvm_ffi.Function, call dispatch, callbacks, global registry
  tensor.pxi   tvm_ffi.Tensor, from_dlpack, DLPack export, tensor arguments
  protocol.pxi value protocols of user classes, ObjectConvertible, CAny, String, Bytes
  stream.pxi   the per-thread FFI stream table
  exchange.pxi containers tagged with a framework's DLPack exchange API
  type_info.pxi reflection access: field getters/setters, type attributes, type table
  member_access.pxi the C paths of reflected field reads and method calls
"""

include "base.pxi"
include "error.pxi"
include "object.pxi"
include "device.pxi"
include "convert.pxi"
include "function.pxi"
include "tensor.pxi"
include "protocol.pxi"
include "stream.pxi"
include "exchange.pxi"
include "type_info.pxi"
include "member_access.pxi"
include "py_class.pxi"


cdef int _register_env_hooks() except -1:
    # The checker takes the GIL itself (and is a no-op while the interpreter
    # finalizes), so the PyGILState hooks are not registered.
    check_call(TVMFFIEnvRegisterCAPI(b"PyErr_CheckSignals", <void*>TVMFFIPyCheckSignals))
    return 0


_register_env_hooks()
_register_object_class(kTVMFFIObject, Object)
_register_object_class(kTVMFFIFunction, Function)
_register_object_class(kTVMFFITensor, Tensor)
_register_object_class(kTVMFFIError, Error)
_register_object_class(kTVMFFIOpaquePyObject, OpaquePyObject)
install_object_metaclass()

# The runtime's sentinels: MISSING marks "no value given", KWARGS separates positional
# constructor arguments from keyword name/value pairs.
MISSING = _get_global_func("ffi.GetInvalidObject")()
KWARGS = _get_global_func("ffi.GetKwargsObject")()
