"""Enum singletons shared across languages: ``Enum``, ``IntEnum``, ``StrEnum``.

An enum type is an FFI object type whose instances (variants) are singletons with an integer
and a string index. Its state (the variants in order, the index tables and the extensible
attribute tables) is one ``EnumState`` kept in the type attribute ``__ffi_enum__``, which C++
reads too (``tvm/ffi/enum.h``).

``class Color(Enum, type_key="my.Color")`` defines (or, when C++ registered the key, binds) the
enum type; the class body declares variants with ``entry(...)``/``auto()``, plain values
(IntEnum/StrEnum) or ``ClassVar`` binders naming variants C++ registered.
"""

import typing

from .. import core
from ..container import Dict
from .c_class import c_class
from .py_class import _PY_CLASS_KEYS, py_class

ENUM_STATE_ATTR = "__ffi_enum__"

_INT64_MIN = -(2**63)
_INT64_MAX = 2**63 - 1


class _EnumEntry:
    """One variant declaration: the arguments its object is constructed with."""

    __slots__ = ("args", "kwargs")

    def __init__(self, args, kwargs):
        self.args = tuple(args)
        self.kwargs = dict(kwargs)

    def __repr__(self):
        parts = [repr(a) for a in self.args]
        parts += ["%s=%r" % (k, v) for k, v in self.kwargs.items()]
        return "entry(%s)" % ", ".join(parts)


def entry(*args, **kwargs):
    """Declare a variant whose declared fields are given by the arguments."""
    return _EnumEntry(args, kwargs)


def auto():
    """Declare a variant with default field values (a new declaration on every call)."""
    return _EnumEntry((), {})


@c_class("ffi.EnumState")
class EnumState(core.Object):
    """The per-type enum state: variants in order, index tables and attribute tables."""

    entries: typing.Any
    indexes: typing.Any
    attrs: typing.Any


def _state(cls):
    info = cls.__dict__.get("__tvm_ffi_type_info__")
    if info is None:
        return None
    return core._lookup_type_attr(info.type_index, ENUM_STATE_ATTR)


def _check_int64(value):
    if value < _INT64_MIN or value > _INT64_MAX:
        raise OverflowError("enum integer index %d is outside int64" % value)


class EnumAttrMap:
    """An extensible attribute of an enum's variants (``E.def_attr(name)``), stored in the
    enum state's ``attrs[name]`` so that every language sees it."""

    def __init__(self, enum_cls, name, default=core.MISSING):
        self.enum_cls = enum_cls
        self.name = name
        self.default = default

    def _check(self, variant):
        if not isinstance(variant, self.enum_cls):
            raise TypeError(
                "expected %s, got %s" % (self.enum_cls.__name__, type(variant).__name__)
            )

    def _column(self):
        state = _state(self.enum_cls)
        if state is None:
            return None
        return state.attrs.get(self.name)

    def __getitem__(self, variant):
        self._check(variant)
        column = self._column()
        if column is not None and variant in column:
            return column[variant]
        if self.default is not core.MISSING:
            return self.default
        raise KeyError("%r has no extensible attribute '%s'" % (variant, self.name))

    def __setitem__(self, variant, value):
        self._check(variant)
        attrs = _state(self.enum_cls).attrs
        column = attrs.get(self.name)
        if column is None:
            column = Dict()
            attrs[self.name] = column
        column[variant] = value

    def __contains__(self, variant):
        if not isinstance(variant, self.enum_cls):
            return False
        column = self._column()
        return column is not None and variant in column

    def get(self, variant, default=None):
        """The attribute of variant, or default when it has none."""
        self._check(variant)
        column = self._column()
        if column is not None and variant in column:
            return column[variant]
        return default


class _EnumMeta(type(core.Object)):
    """Iteration, lookup and ``E(index)`` over an enum class's variants."""

    def __iter__(cls):
        state = _state(cls)
        return iter(list(state.entries) if state is not None else [])

    def __len__(cls):
        state = _state(cls)
        return len(state.entries) if state is not None else 0

    def __bool__(cls):
        # A class is truthy even when it has no variants (len() would say otherwise).
        return True

    def __call__(cls, *args, **kwargs):
        if len(args) == 1 and not kwargs:
            value = args[0]
            if isinstance(value, cls):
                return value
            if isinstance(value, (int, str)) and not isinstance(value, core.CObject):
                try:
                    return cls.get(value)
                except KeyError:
                    raise ValueError("%r is not a valid %s" % (value, cls.__name__)) from None
        return super().__call__(*args, **kwargs)

    @property
    def attr_dict(cls):
        """The live attribute tables of the enum (name -> variant -> value)."""
        state = _state(cls)
        return state.attrs if state is not None else Dict()


def _payload_kind(cls):
    if issubclass(cls, IntEnum):
        return "int"
    if issubclass(cls, StrEnum):
        return "str"
    return None


def _is_classvar(ann):
    if isinstance(ann, str):
        return ann.startswith("ClassVar") or ann.startswith("typing.ClassVar")
    return ann is typing.ClassVar or typing.get_origin(ann) is typing.ClassVar


def _is_descriptor(value):
    return any(hasattr(type(value), name) for name in ("__get__", "__set__", "__delete__"))


def _collect(cls, kind):
    """The binders and declarations of the class body (removed from it)."""
    namespace = cls.__dict__
    annotations = namespace.get("__annotations__", {})
    if kind is not None and ("value" in namespace or "value" in annotations):
        raise TypeError(
            "%s reserves `value` as its canonical index alias"
            % ("IntEnum" if kind == "int" else "StrEnum")
        )
    binders = [
        name
        for name, ann in annotations.items()
        if not name.startswith("_") and _is_classvar(ann) and name not in namespace
    ]
    for name in binders:
        del annotations[name]
    declarations = []
    for name, value in list(namespace.items()):
        if name.startswith("_"):
            continue
        if name in annotations:
            # `name: ClassVar[Self] = entry(...)` declares a variant, typed for checkers.
            if not (isinstance(value, _EnumEntry) and _is_classvar(annotations[name])):
                continue
            del annotations[name]
        if isinstance(value, _EnumEntry):
            declarations.append((name, value))
        elif kind is not None and not callable(value) and not _is_descriptor(value):
            declarations.append((name, _EnumEntry((), {"value": value})))
        else:
            continue
        delattr(cls, name)
    return binders, declarations


def _indices(cls, name, decl, kind, ordinal):
    """(int index, str index, lookup index, field kwargs) of one declaration."""
    kwargs = dict(decl.kwargs)
    for reserved in ("_int_index", "_str_index"):
        if reserved in kwargs:
            raise TypeError("%s.%s: enum indices are inferred" % (cls.__name__, name))
    if kind is None:
        return ordinal, name, name, kwargs
    if "value" not in kwargs:
        raise TypeError("%s.%s requires a %s value" % (cls.__name__, name, kind))
    value = kwargs.pop("value")
    if kind == "int":
        if type(value) is not int:
            raise TypeError("%s.%s value must be int" % (cls.__name__, name))
        _check_int64(value)
        return value, name, value, kwargs
    if type(value) is not str:
        raise TypeError("%s.%s value must be str" % (cls.__name__, name))
    return ordinal, value, value, kwargs


def _create(cls, decl, int_index, str_index, kwargs, cxx_backed):
    try:
        if not cxx_backed:
            return cls(*decl.args, _int_index=int_index, _str_index=str_index, **kwargs)
        if decl.args:
            raise TypeError("C++-backed enum entries require keyword fields")
        ffi_new = core._lookup_type_attr(cls.__tvm_ffi_type_info__.type_index, "__ffi_new__")
        if ffi_new is None:
            raise TypeError("the C++ type has no __ffi_new__ allocator")
        obj = cls.__new__(cls)
        obj.__init_handle_by_constructor__(ffi_new)
        values = {"_int_index": int_index, "_str_index": str_index, **kwargs}
        for key, value in values.items():
            prop = getattr(cls, key, None)
            if not hasattr(prop, "set"):
                raise TypeError("%s has no field '%s'" % (cls.__name__, key))
            prop.set(obj, value)
        return obj
    except Exception as err:
        raise TypeError("%s.%s: invalid enum entry: %s" % (cls.__name__, str_index, err)) from None


def _resolve(cls, type_key, binders, declarations, kind, cxx_backed, state):
    for name in binders:
        if cxx_backed:
            found = state.indexes.get(name)
            if found is None:
                raise RuntimeError("'%s' has no enum at string index '%s'" % (type_key, name))
            setattr(cls, name, found)
            continue
        if kind == "int":
            raise TypeError("%s.%s requires an integer value" % (cls.__name__, name))
        declarations.insert(
            binders.index(name), (name, _EnumEntry((), {"value": name} if kind else {}))
        )
    for name, decl in declarations:
        int_index, str_index, lookup, kwargs = _indices(cls, name, decl, kind, len(state.entries))
        existing = state.indexes.get(lookup)
        if existing is not None:
            setattr(cls, name, existing)
            continue
        other = str_index if lookup is int_index else int_index
        if state.indexes.get(other) is not None:
            raise ValueError("duplicate enum index in %s.%s" % (cls.__name__, name))
        variant = _create(cls, decl, int_index, str_index, kwargs, cxx_backed)
        state.entries.append(variant)
        state.indexes[int_index] = variant
        state.indexes[str_index] = variant
        setattr(cls, name, variant)


def _payload_eq(kind):
    payload_type = int if kind == "int" else str

    def __eq__(self, other):
        if isinstance(other, core.CObject):
            if type(other) is not type(self):
                return NotImplemented
            return self.value == other.value
        if isinstance(other, payload_type):
            return self.value == other
        return NotImplemented

    def __ne__(self, other):
        result = __eq__(self, other)
        return result if result is NotImplemented else not result

    return __eq__, __ne__


def _install_payload_members(cls, kind, user_names):
    eq, ne = _payload_eq(kind)
    members = {
        "__eq__": eq,
        "__ne__": ne,
        "__hash__": lambda self: hash(self.value),
        "__str__": lambda self: str(self.value),
        "__repr__": lambda self: "%s.%s" % (type(self).__name__, self.name),
        "name": property(lambda self: str(self._str_index), doc="The variant's name."),
    }
    for name, member in members.items():
        if name in user_names:
            continue
        if callable(member):
            member.__name__ = name
            member.__qualname__ = "%s.%s" % (cls.__qualname__, name)
        setattr(cls, name, member)


def _define(cls, type_key, frozen, init, repr):
    kind = _payload_kind(cls)
    user_names = set(cls.__dict__)
    binders, declarations = _collect(cls, kind)
    index = core._object_type_key_to_index(type_key)
    cxx_backed = index is not None and type_key not in _PY_CLASS_KEYS
    if cxx_backed:
        c_class(type_key, init=init, repr=repr)(cls)
    else:
        py_class(type_key, frozen=frozen, structural_eq="singleton")(cls)
    type_index = cls.__tvm_ffi_type_info__.type_index
    state = core._lookup_type_attr(type_index, ENUM_STATE_ATTR)
    if state is None:
        state = EnumState()
        core._register_type_attr(type_index, ENUM_STATE_ATTR, state)
    if kind is not None:
        _install_payload_members(cls, kind, user_names)
    _resolve(cls, type_key, binders, declarations, kind, cxx_backed, state)


@c_class("ffi.Enum", init=False)
class Enum(core.Object, metaclass=_EnumMeta):
    """Base of enums whose variants are indexed by ordinal and name.

    ``class E(Enum, type_key="k", frozen=True, init=True, repr=True)`` defines an enum type;
    a subclass without ``type_key`` is an unregistered intermediate base.
    """

    _int_index: int
    _str_index: str

    def __init_subclass__(cls, type_key=None, frozen=True, init=True, repr=True, **kwargs):
        super().__init_subclass__(**kwargs)
        if type_key is not None:
            _define(cls, type_key, frozen, init, repr)

    @classmethod
    def get(cls, index):
        """The variant with int or str index `index`; KeyError when there is none."""
        if isinstance(index, bool):
            index = int(index)
        if isinstance(index, int):
            _check_int64(index)
        elif not isinstance(index, str):
            raise TypeError("enum index must be int or str, got %s" % type(index).__name__)
        state = _state(cls)
        found = state.indexes.get(index) if state is not None else None
        if found is None:
            raise KeyError(index)
        return found

    @classmethod
    def all_entries(cls):
        """An iterator over the variants in registration order."""
        return iter(cls)

    @classmethod
    def def_attr(cls, name, *, default=core.MISSING):
        """The extensible attribute `name` of the variants."""
        return EnumAttrMap(cls, name, default)


@c_class("ffi.IntEnum", init=False)
class IntEnum(Enum):
    """Base of enums whose variants carry an int ``value`` (their int index)."""

    value: int


@c_class("ffi.StrEnum", init=False)
class StrEnum(Enum):
    """Base of enums whose variants carry a str ``value`` (their str index)."""

    value: str
