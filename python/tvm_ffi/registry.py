"""Global function registry and object class registration."""

import sys

from . import core
from .core import Object, Function


def register_global_func(func_name, f=None, override=False):
    """Register a Python callable (or a Function) as the global function `func_name`.

    Usable as a call, ``register_global_func("my.f", f)``, or a decorator,
    ``@register_global_func("my.f")`` / ``@register_global_func`` (name = function name).
    The registered function is visible to C++ ``Function::GetGlobal``.
    """
    if callable(func_name) and f is None and not isinstance(func_name, str):
        func = func_name
        core._register_global_func(func.__name__, func, override)
        return func
    if not isinstance(func_name, str):
        raise TypeError("register_global_func: name must be a str, got %s"
                        % type(func_name).__name__)

    def register(func):
        core._register_global_func(func_name, func, override)
        return func

    if f is not None:
        return register(f)
    return register


def get_global_func(name, allow_missing=False):
    """The global Function `name`; None if missing and allow_missing, else ValueError."""
    return core._get_global_func(name, allow_missing)


def list_global_func_names():
    """Names of every registered global function."""
    return list(get_global_func("ffi.FunctionListGlobalNames")())


def remove_global_func(name):
    """Remove the global function `name`; returns whether it existed."""
    return bool(get_global_func("ffi.FunctionRemoveGlobal")(name))


def get_global_func_metadata(name):
    """The metadata dict of the global function `name` (parsed JSON); {} when it has none."""
    text = get_global_func("ffi.GetGlobalFuncMetadata")(name)
    if text is None:
        if get_global_func(name, allow_missing=True) is None:
            raise ValueError("Cannot find global function %r" % name)
        return {}
    import json

    return json.loads(text)


def init_ffi_api(namespace, target_module_name=None):
    """Put every global function `namespace.xyz` into a module as attribute `xyz`.

    The module is `target_module_name` (default: the namespace itself).
    """
    target_module_name = target_module_name if target_module_name is not None else namespace
    module = sys.modules[target_module_name]
    prefix = namespace + "."
    for name in list_global_func_names():
        if not name.startswith(prefix):
            continue
        short = name[len(prefix):]
        if "." in short:
            continue
        func = get_global_func(name)
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


def _install_reflection(cls, type_index):
    """Turn the registered fields and methods of the type into properties and methods."""
    fields, methods = core._type_info_reflection(type_index)
    own = cls.__dict__
    for name, doc, flags, field_index in fields:
        if name in own:
            continue
        setattr(cls, name, _make_property(type_index, field_index, name, doc,
                                          bool(flags & _FIELD_WRITABLE)))
    for name, doc, flags, func in methods:
        if not isinstance(func, Function):
            continue
        if name == "__ffi_init__":
            if "__init__" not in own:
                cls.__init__ = _make_init(func)
            continue
        if name in own:
            continue
        if flags & _METHOD_STATIC:
            setattr(cls, name, staticmethod(func))
        else:
            setattr(cls, name, _make_method(func, name, doc))


def register_object(type_key=None):
    """Class decorator binding a Python class to the C++ object type `type_key`.

    Values of that type (and of unregistered subtypes) come back from C++ as
    instances of the class; its reflected fields become properties, its methods
    methods, and ``__ffi_init__`` the constructor. ``@register_object`` without
    arguments uses the class name as the key.
    """

    def register(cls):
        key = type_key if isinstance(type_key, str) else cls.__name__
        type_index = core._type_key_to_index(key)
        if type_index is None:
            raise ValueError("register_object(%r): no object type with this key is registered "
                             "(is the library that defines it loaded?)" % key)
        core._register_object_class(type_index, cls)
        cls.__tvm_ffi_type_key__ = key
        cls.__tvm_ffi_type_index__ = type_index
        _install_reflection(cls, type_index)
        return cls

    if isinstance(type_key, type):
        cls, type_key = type_key, None
        return register(cls)
    return register
