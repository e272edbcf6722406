"""Global function registry and object class registration."""

import sys
import types
import warnings

from . import _type_info, core

# Set by clients that may run without the library defining some of the types they
# register (Apache TVM in its runtime-only mode): register_object then leaves a
# class whose type key the runtime does not know unbound instead of raising.
_SKIP_UNKNOWN_OBJECTS = False


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
    """Array of the type key of every registered type, in type-index order (POD names such
    as "None", "int" first)."""
    return get_global_func("ffi.GetRegisteredTypeKeys")()


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


def _add_class_attrs(type_cls, type_info, type_attr_names=()):
    """Install the reflected members of a type on its class.

    Own fields become FFIProperty members (unless the class body defines the name); methods
    are installed under names the class does not have yet (inherited names count);
    ``__ffi_init__`` (the TypeMethod, else the type attribute) becomes a method constructing
    the object in place; each name of ``type_attr_names`` the class lacks is copied from the
    type's attributes.
    """
    own = type_cls.__dict__
    for field in type_info.fields or ():
        if field.name not in own:
            setattr(type_cls, field.name, field.as_property(type_cls))
    for method in type_info.methods:
        if method.name == "__ffi_init__":
            continue
        if not hasattr(type_cls, method.name):
            setattr(type_cls, method.name, method.as_callable(type_cls))
    ffi_init = _find_ffi_init(type_info)
    if ffi_init is not None and "__ffi_init__" not in own:
        _install_ffi_init_attr(type_cls, type_info, ffi_init)
    for name in type_attr_names:
        if hasattr(type_cls, name):
            continue
        value = core._lookup_type_attr(type_info.type_index, name)
        if value is not None:
            setattr(type_cls, name, value)
    return type_cls


def _find_ffi_init(type_info):
    """The constructor Function of a type: its ``__ffi_init__`` method, else type attribute."""
    for method in type_info.methods:
        if method.name == "__ffi_init__":
            return method.func
    return core._lookup_type_attr(type_info.type_index, "__ffi_init__")


def _install_ffi_init_attr(type_cls, type_info, ffi_init):
    """``obj.__ffi_init__(*args, **kwargs)`` constructs obj (an empty handle) through ffi_init;
    keywords go as ``KWARGS, name, value, ...``. An instance of a class bound to another type
    (a subclass calling its parent's constructor) is refused: the object made would be of the
    parent's type."""
    owner = type_info.type_index

    # self is positional-only: a field may be named "self" too.
    def __ffi_init__(self, /, *args, **kwargs):
        info = getattr(type(self), "__tvm_ffi_type_info__", None)
        if info is None or info.type_index != owner:
            raise TypeError(
                "Calling `%s.__ffi_init__` on an instance of `%s` is not supported: it "
                "constructs a %s" % (type_cls.__name__, type(self).__name__, type_info.type_key)
            )
        if kwargs:
            args = args + (core.KWARGS,) + tuple(x for kv in kwargs.items() for x in kv)
        self.__init_handle_by_constructor__(ffi_init, *args)

    __ffi_init__.__qualname__ = "%s.__ffi_init__" % type_cls.__qualname__
    __ffi_init__.__module__ = type_cls.__module__
    type_cls.__ffi_init__ = __ffi_init__


def _init_fields(type_info):
    """Init fields of a type and its ancestors, root first."""
    chain = []
    info = type_info
    while info is not None:
        chain.append(info)
        info = info.parent_type_info
    return [f for info in reversed(chain) for f in (info.fields or ()) if f.c_init]


def _make_init_signature(type_info):
    """``(self, required..., defaulted=MISSING..., *, kw_required..., kw_defaulted=MISSING...)``
    over the init fields of the type's whole ancestor chain."""
    import inspect

    fields = _init_fields(type_info)
    positional = [f for f in fields if not f.c_kw_only]
    keyword = [f for f in fields if f.c_kw_only]
    params = [inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)]
    for group, kind in (
        (positional, inspect.Parameter.POSITIONAL_OR_KEYWORD),
        (keyword, inspect.Parameter.KEYWORD_ONLY),
    ):
        for f in group:
            if not f.c_has_default:
                params.append(inspect.Parameter(f.name, kind))
        for f in group:
            if f.c_has_default:
                params.append(inspect.Parameter(f.name, kind, default=core.MISSING))
    return inspect.Signature(params)


def _with_enum_payloads(init, type_info):
    """init, preceded by the mapping of raw payloads to IntEnum/StrEnum singletons for the
    fields typed with an enum (positional arguments in signature order, and keywords)."""
    fields = _init_fields(type_info)
    positional = [f for f in fields if not f.c_kw_only]
    positional = [f for f in positional if not f.c_has_default] + [
        f for f in positional if f.c_has_default
    ]
    by_name = {f.name: f for f in fields if f._is_payload_enum_field()}
    if not by_name:
        return init
    slots = [f if f.name in by_name else None for f in positional]
    missing = core.MISSING

    def __init__(self, *args, **kwargs):
        args = tuple(
            slots[i].normalize_value(a) if i < len(slots) and slots[i] is not None else a
            for i, a in enumerate(args)
        )
        for key, value in kwargs.items():
            field = by_name.get(key)
            if field is not None and value is not missing:
                kwargs[key] = field.normalize_value(value)
        init(self, *args, **kwargs)

    return __init__


def _install_init(type_cls, type_info):
    """Give type_cls an ``__init__`` calling the type's ``__ffi_init__`` (positional
    arguments, then ``KWARGS`` and name/value pairs for keywords), followed by
    ``__post_init__`` when the class has one; a type without ``__ffi_init__`` gets an
    ``__init__`` raising TypeError."""
    ffi_init = _find_ffi_init(type_info)
    name = type_cls.__name__
    if ffi_init is None:

        def __init__(self, *args, **kwargs):
            raise TypeError(
                "`%s` cannot be constructed directly. Define a custom __init__ or use a "
                "factory method." % name
            )

    else:
        post_init = hasattr(type_cls, "__post_init__")
        __init__ = core._make_reflected_init(type_info, ffi_init, name, post_init)
        __init__ = _with_enum_payloads(__init__, type_info)
        __init__.__signature__ = _make_init_signature(type_info)
    __init__.__qualname__ = "%s.__init__" % type_cls.__qualname__
    __init__.__module__ = type_cls.__module__
    type_cls.__init__ = __init__


def _warn_missing_field_annotations(cls, type_info, *, stacklevel):
    """Warn (UserWarning) when the class body of a c_class leaves reflected fields of
    type_info unannotated, naming them."""
    own_annotations = cls.__dict__.get("__annotations__", {})
    missing = sorted(tf.name for tf in type_info.fields or () if tf.name not in own_annotations)
    if missing:
        warnings.warn(
            "@c_class(%r): class `%s` does not annotate the following reflected field(s): %s. "
            "Add type annotations (e.g. `field_name: type`) to the class body for IDE support "
            "and documentation." % (type_info.type_key, cls.__qualname__, ", ".join(missing)),
            UserWarning,
            stacklevel=stacklevel + 1,
        )


def _bind_class(type_cls, type_info):
    """Bind type_cls to the type: values of the type (and of its unregistered subtypes) come
    back as type_cls; a larger wrapper class than the one bound already is refused."""
    old = type_info.type_cls
    if old is not None and old is not type_cls and type_cls.__basicsize__ > old.__basicsize__:
        raise ValueError(
            "Cannot register %s for %s: its instances are larger than those of %s, the class "
            "registered for it already"
            % (type_cls.__qualname__, type_info.type_key, old.__qualname__)
        )
    core._register_object_class(type_info.type_index, type_cls)
    _type_info._bind_type_cls(type_info, type_cls)
    type_cls.__tvm_ffi_type_info__ = type_info


def _function_of(value):
    """The plain function inside a class-body value (a function, or one wrapped by
    staticmethod/classmethod), or None."""
    if isinstance(value, (staticmethod, classmethod)):
        value = value.__func__
    return value if isinstance(value, types.FunctionType) else None


def _as_object_class(cls):
    """cls when it derives from CObject; otherwise a class like cls with tvm_ffi.Object added
    to its bases (same name, module, body and other bases), which an FFI type can be bound
    to. Its methods' zero-argument ``super()`` refers to the new class."""
    if issubclass(cls, core.CObject):
        return cls
    namespace = dict(cls.__dict__)
    namespace.pop("__dict__", None)
    namespace.pop("__weakref__", None)
    slots = namespace.get("__slots__", ())
    for name in (slots,) if isinstance(slots, str) else slots:
        namespace.pop(name, None)
    namespace["__qualname__"] = cls.__qualname__
    bases = tuple(base for base in cls.__bases__ if base is not object) + (core.Object,)
    new_cls = types.new_class(cls.__name__, bases, {}, lambda ns: ns.update(namespace))
    for value in namespace.values():
        if isinstance(value, property):
            funcs = (value.fget, value.fset, value.fdel)
        else:
            funcs = (_function_of(value),)
        for func in funcs:
            if func is None or func.__closure__ is None:
                continue
            for name, cell in zip(func.__code__.co_freevars, func.__closure__):
                if name == "__class__" and cell.cell_contents is cls:
                    cell.cell_contents = new_cls
    return new_cls


def register_object(type_key=None, *, init=True):
    """Class decorator binding a Python class to the C++ object type `type_key`.

    Values of that type (and of unregistered subtypes) come back from C++ as instances of the
    class; its own reflected fields become properties (``FFIProperty``), its methods methods
    (static ones staticmethods), and ``cls.__tvm_ffi_type_info__`` the type's ``TypeInfo``.
    With ``init=True`` and no ``__init__`` in the class body, ``__init__`` calls the type's
    ``__ffi_init__`` (keywords go as ``KWARGS, name, value, ...``), or raises TypeError when
    the type has none. ``@register_object`` without arguments uses the class name as the key.
    An unknown type key raises ValueError, unless ``registry._SKIP_UNKNOWN_OBJECTS`` is true:
    then the class is returned unbound. A class not deriving from ``tvm_ffi.Object`` is
    bound through a copy of it that does (the decorator returns that copy).
    """

    def register(cls):
        key = type_key if isinstance(type_key, str) else cls.__name__
        if _SKIP_UNKNOWN_OBJECTS and core._object_type_key_to_index(key) is None:
            return cls
        type_info = _type_info._lookup_or_register_type_info_from_type_key(key)
        cls = _as_object_class(cls)
        _bind_class(cls, type_info)
        _add_class_attrs(cls, type_info)
        if init and "__init__" not in cls.__dict__:
            _install_init(cls, type_info)
        return cls

    if isinstance(type_key, type):
        cls, type_key = type_key, None
        return register(cls)
    if type_key is not None and not isinstance(type_key, str):
        raise TypeError("type_key must be a string, type, or None")
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
    type_info = _type_info._type_index_to_type_info(type_index)
    _type_info._bind_type_cls(type_info, cls)
    cls.__tvm_ffi_type_info__ = type_info
    _add_class_attrs(cls, type_info)
    _install_init(cls, type_info)
    return cls


core._set_fallback_class_factory(_make_fallback_class)
# The classes of the core types (the POD kinds DataType and Device included), for
# _type_cls_to_type_info; ffi.Shape is bound where its class is defined.
for _cls, _index in (
    (core.DataType, 5),
    (core.Device, 6),
    (core.Object, 64),
    (core.String, 65),
    (core.Bytes, 66),
    (core.Error, 67),
    (core.Function, 68),
    (core.Tensor, 70),
    (core.OpaquePyObject, 74),
):
    _type_info._bind_type_cls(_type_info._type_index_to_type_info(_index), _cls)


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
