"""Global function registry and object class registration."""

import sys

from . import core
from .core import Function


def register_global_func(func_name, f=None, override=False):
    """Register a Python callable (or a Function) as the global function `func_name`.

    Usable as a call, ``register_global_func("my.f", f)``, or a decorator,
    ``@register_global_func("my.f")`` / ``@register_global_func`` (name = function name).
    Returns the registered Function (a decorated name is bound to it). The registered
    function is visible to C++ ``Function::GetGlobal``. A duplicate name without
    ``override`` raises RuntimeError.
    """
    if not isinstance(func_name, str):
        func = func_name
        return _register(func.__name__, func, override)

    def register(func):
        return _register(func_name, func, override)

    if f is not None:
        return register(f)
    return register


def _register(name, func, override):
    if not override and core._get_global_func(name, True) is not None:
        raise RuntimeError("Global Function `%s` is already registered" % name)
    return core._register_global_func(name, func, override)


def get_global_func(name, allow_missing=False):
    """The global Function `name`; None if missing and allow_missing, else ValueError."""
    return core._get_global_func(name, allow_missing)


def list_global_func_names():
    """Names of every registered global function."""
    return list(get_global_func("ffi.FunctionListGlobalNames")())


def remove_global_func(name):
    """Remove the global function `name` (missing names are ignored)."""
    get_global_func("ffi.FunctionRemoveGlobal")(name)


def get_global_func_metadata(name):
    """The metadata dict of the global function `name` (parsed JSON); {} when it has none.

    RuntimeError when no such function is registered.
    """
    if get_global_func(name, allow_missing=True) is None:
        raise RuntimeError("Global Function is not found: %s" % name)
    text = get_global_func("ffi.GetGlobalFuncMetadata")(name)
    if text is None:
        return {}
    import json

    return json.loads(text)


def get_registered_type_keys():
    """Array of the type key of every registered type."""
    from .container import Array

    return Array(core._registered_type_keys())


def init_ffi_api(namespace, target_module_name=None):
    """Put every global function `<namespace>.xyz` into a module as attribute `xyz`.

    The module is ``sys.modules[target_module_name or namespace]``; a leading ``"tvm."`` is
    dropped from the namespace to form the prefix. Each function's ``__name__`` becomes xyz.
    """
    target_module_name = target_module_name if target_module_name is not None else namespace
    module = sys.modules[target_module_name]
    prefix = namespace[len("tvm.") :] if namespace.startswith("tvm.") else namespace
    for name in list_global_func_names():
        if not name.startswith(prefix):
            continue
        short = name[len(prefix) + 1 :]
        if not short or "." in short:
            continue
        func = get_global_func(name)
        try:
            func.__name__ = short
        except AttributeError:
            pass
        setattr(module, short, func)


def _make_property(type_index, field_index, name, doc, writable):
    def fget(self):
        return core._field_get(self, type_index, field_index)

    fset = None
    if writable:

        def fset(self, value):
            core._field_set(self, type_index, field_index, value)

    return property(fget, fset, doc=doc or ("field %s" % name))


def _make_method(func, name, doc):
    def method(self, *args):
        return func(self, *args)

    method.__name__ = name
    method.__qualname__ = name
    method.__doc__ = doc
    return method


def _make_init(func):
    def __init__(self, *args):
        self.__init_handle_by_constructor__(func, *args)

    __init__.__doc__ = "Construct through the registered C++ constructor (__ffi_init__)."
    return __init__


_FIELD_WRITABLE = 1
_METHOD_STATIC = 4


def _install_reflection(cls, type_index, init=True):
    """Turn the registered fields and methods of the type into properties and methods."""
    fields, methods = core._type_info_reflection(type_index)
    own = cls.__dict__
    for name, doc, flags, field_index in fields:
        if name in own:
            continue
        setattr(
            cls,
            name,
            _make_property(type_index, field_index, name, doc, bool(flags & _FIELD_WRITABLE)),
        )
    for name, doc, flags, func in methods:
        if not isinstance(func, Function):
            continue
        if name == "__ffi_init__":
            if init and "__init__" not in own:
                cls.__init__ = _make_init(func)
            continue
        if name in own:
            continue
        if flags & _METHOD_STATIC:
            setattr(cls, name, staticmethod(func))
        else:
            setattr(cls, name, _make_method(func, name, doc))


def _init_guard(type_key):
    def __init__(self, *args, **kwargs):
        raise TypeError(
            "%s cannot be constructed from Python: the type registers no __ffi_init__" % type_key
        )

    return __init__


def register_object(type_key=None, *, init=True):
    """Class decorator binding a Python class to the C++ object type `type_key`.

    Values of that type (and of unregistered subtypes) come back from C++ as
    instances of the class; its reflected fields become properties, its methods
    methods, and, with ``init=True``, ``__ffi_init__`` the constructor (a type without
    one gets an ``__init__`` raising TypeError, unless the class defines its own).
    ``@register_object`` without arguments uses the class name as the key.
    """

    def register(cls):
        key = type_key if isinstance(type_key, str) else cls.__name__
        type_index = core._type_key_to_index(key)
        if type_index is None:
            raise ValueError("Cannot find object type index for %s" % key)
        core._register_object_class(type_index, cls)
        cls.__tvm_ffi_type_key__ = key
        cls.__tvm_ffi_type_index__ = type_index
        had_init = "__init__" in cls.__dict__
        _install_reflection(cls, type_index, init)
        if init and not had_init and "__init__" not in cls.__dict__:
            cls.__init__ = _init_guard(key)
        return cls

    if isinstance(type_key, type):
        cls, type_key = type_key, None
        return register(cls)
    if type_key is not None and not isinstance(type_key, str):
        raise TypeError(
            "register_object expects a type key (str) or a class, got %s" % type(type_key).__name__
        )
    return register


def _make_fallback_class(type_index, type_key, parent):
    """The class of objects of an unregistered type: named after the key, deriving from the
    parent type's class, with the type's reflected fields and methods."""
    module, _, name = type_key.rpartition(".")
    cls = type(
        name,
        (parent,),
        {
            "__slots__": (),
            "__doc__": "Auto-generated fallback class for the unregistered type %s." % type_key,
            "__module__": module,
            "__qualname__": type_key,
        },
    )
    cls.__tvm_ffi_type_key__ = type_key
    cls.__tvm_ffi_type_index__ = type_index
    _install_reflection(cls, type_index)
    return cls


core._set_fallback_class_factory(_make_fallback_class)


__all__ = [
    "get_global_func",
    "get_global_func_metadata",
    "get_registered_type_keys",
    "init_ffi_api",
    "list_global_func_names",
    "register_global_func",
    "register_object",
    "remove_global_func",
]
