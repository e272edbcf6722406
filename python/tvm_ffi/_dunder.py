"""Generated members of c_class / py_class types (``_install_dataclass_dunders``).

Comparison and hashing go through the runtime's recursive functions (``ffi.RecursiveEq``,
``ffi.RecursiveLt/Le/Gt/Ge``, ``ffi.RecursiveHash``), repr through ``ffi.ReprPrint``, and
deep copy through ``ffi.DeepCopy``; each global is looked up once.
"""

import copy as _copy

from . import core, registry

_GLOBALS = {}


def _rt(name):
    func = _GLOBALS.get(name)
    if func is None:
        func = registry.get_global_func(name)
        _GLOBALS[name] = func
    return func


def _related(a, b):
    return isinstance(b, type(a)) or isinstance(a, type(b))


def _set_member(cls, name, func):
    func.__name__ = name
    func.__qualname__ = "%s.%s" % (cls.__qualname__, name)
    func.__module__ = cls.__module__
    setattr(cls, name, func)


def _make_compare(global_name):
    def compare(self, other):
        if not _related(self, other):
            return NotImplemented
        return _rt(global_name)(self, other)

    return compare


def _make_ne():
    def __ne__(self, other):
        if not _related(self, other):
            return NotImplemented
        return not _rt("ffi.RecursiveEq")(self, other)

    return __ne__


def _make_init_guard(name):
    def __init__(self, *args, **kwargs):
        raise TypeError(
            "`%s` cannot be constructed directly. Define a custom __init__ or use a factory "
            "method." % name
        )

    return __init__


def _init_chain_fields(type_info):
    """TypeFields of the type and its ancestors, root first."""
    chain = []
    info = type_info
    while info is not None:
        chain.append(info)
        info = info.parent_type_info
    return [f for info in reversed(chain) for f in (info.fields or ())]


def _field_init_kw(tf):
    dc = tf.dataclass_field
    if dc is not None:
        return bool(dc.init), bool(dc.kw_only)
    return tf.c_init, tf.c_kw_only


def _match_args(type_info):
    names = []
    for tf in _init_chain_fields(type_info):
        init, kw_only = _field_init_kw(tf)
        if init and not kw_only:
            names.append(tf.name)
    return tuple(names)


def __repr__(self):
    return core.object_repr(self)


def __copy__(self):
    cls = type(self)
    info = cls.__tvm_ffi_type_info__
    copier = core._lookup_type_attr(self.type_index, "__ffi_shallow_copy__")
    if copier is None:
        raise TypeError(
            "Type `%s` does not support copy. The underlying C++ type is not "
            "copy-constructible." % cls.__name__
        )
    del info
    return copier(self)


def __deepcopy__(self, memo=None):
    return _rt("ffi.DeepCopy")(self)


def __replace__(self, **changes):
    new = _copy.copy(self)
    cls = type(new)
    for name, value in changes.items():
        getattr(cls, name).set(new, value)
    return new


_make_init_signature = registry._make_init_signature


def _make_init(cls, type_info):
    """The reflection-driven ``__init__`` of c_class mode (see registry._install_init)."""
    registry._install_init(cls, type_info)


def _decorator_options(frozen, init, repr, eq, order, unsafe_hash, match_args):
    """The options shared by @c_class and @py_class, by name (see _install_dataclass_dunders)."""
    return {
        "frozen": frozen,
        "init": init,
        "repr": repr,
        "eq": eq,
        "order": order,
        "unsafe_hash": unsafe_hash,
        "match_args": match_args,
    }


def _install_dataclass_dunders(cls, options=None, **kwargs):
    """Install the generated members on cls, as the decorator ``options`` (from
    _decorator_options) ask; members defined in the class body stay. The options may be
    given as keywords instead (``init=``, ``repr=``, ``eq=``, ``order=``, ``unsafe_hash=``;
    ``frozen`` defaults to False and ``match_args`` to True).

    ``__eq__``/``__ne__`` form one family and the four order methods another: a body that
    defines any member of a family keeps the whole family.
    """
    if options is None:
        options = _decorator_options(
            kwargs.pop("frozen", False),
            kwargs.pop("init", True),
            kwargs.pop("repr", True),
            kwargs.pop("eq", False),
            kwargs.pop("order", False),
            kwargs.pop("unsafe_hash", False),
            kwargs.pop("match_args", True),
        )
    if kwargs:
        raise TypeError("unexpected option(s): %s" % ", ".join(sorted(kwargs)))
    own = cls.__dict__
    type_info = cls.__tvm_ffi_type_info__
    if "__init__" not in own:
        if options["init"]:
            _make_init(cls, type_info)
        else:
            _set_member(cls, "__init__", _make_init_guard(cls.__name__))
    if options["repr"] and "__repr__" not in own:
        _set_member(cls, "__repr__", _wrap(__repr__))
    if options["eq"] and "__eq__" not in own and "__ne__" not in own:
        _set_member(cls, "__eq__", _make_compare("ffi.RecursiveEq"))
        _set_member(cls, "__ne__", _make_ne())
    if options["order"]:
        names = ("__lt__", "__le__", "__gt__", "__ge__")
        if not any(n in own for n in names):
            for name, glob in zip(
                names, ("ffi.RecursiveLt", "ffi.RecursiveLe", "ffi.RecursiveGt", "ffi.RecursiveGe")
            ):
                _set_member(cls, name, _make_compare(glob))
    if options["unsafe_hash"] and "__hash__" not in own:

        def __hash__(self):
            return _rt("ffi.RecursiveHash")(self)

        _set_member(cls, "__hash__", __hash__)
    for name, func in (
        ("__copy__", __copy__),
        ("__deepcopy__", __deepcopy__),
        ("__replace__", __replace__),
    ):
        if name not in own:
            _set_member(cls, name, _wrap(func))
    if options["match_args"] and "__match_args__" not in own:
        cls.__match_args__ = _match_args(type_info)
    return cls


def _wrap(func):
    """A fresh function object with func's code, so that naming it per class is safe."""
    import types

    new = types.FunctionType(
        func.__code__, func.__globals__, func.__name__, func.__defaults__, func.__closure__
    )
    new.__kwdefaults__ = func.__kwdefaults__
    return new
