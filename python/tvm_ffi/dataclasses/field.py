"""Field declarations of FFI dataclasses: ``Field``, ``field``, ``KW_ONLY`` and ``init_property``."""

import copy as _copy
import dataclasses as _dataclasses
import typing

from ..core import MISSING


class _KwOnlyMarker:
    """Stands in for ``dataclasses.KW_ONLY`` on Python 3.9, which lacks it."""

    def __repr__(self) -> str:
        return "KW_ONLY"


# The standard marker where it exists, so either spelling works in a class body.
KW_ONLY = getattr(_dataclasses, "KW_ONLY", _KwOnlyMarker())

_STRUCTURAL_EQ_CHOICES = (None, "def", "def-pattern", "def-simple", "ignore")


def _identity_converter(value):
    """Stands for a converter in static analysis only; values are converted by the field's
    type schema."""
    return value


class Field:
    """One declared field of a c_class / py_class type.

    ``name`` and ``type`` are filled in when the decorator resolves the class; the other
    attributes are the declaration's options.
    """

    __slots__ = (
        "name",
        "_ty_schema",
        "default",
        "default_factory",
        "frozen",
        "init",
        "repr",
        "hash",
        "compare",
        "kw_only",
        "metadata",
        "structural_eq",
        "doc",
        "converter",
        "extra_kwargs",
        "type",
    )

    def __init__(
        self,
        name=None,
        _ty_schema=None,
        *,
        default=MISSING,
        default_factory=MISSING,
        frozen=False,
        init=True,
        repr=True,
        hash=True,
        compare=False,
        kw_only=False,
        metadata=None,
        structural_eq=None,
        doc=None,
        converter=_identity_converter,
        **extra_kwargs,
    ):
        if default is not MISSING and default_factory is not MISSING:
            raise ValueError("cannot specify both default and default_factory")
        if default_factory is not MISSING and not callable(default_factory):
            raise TypeError(
                "default_factory must be a callable, got %s" % type(default_factory).__name__
            )
        if structural_eq not in _STRUCTURAL_EQ_CHOICES:
            raise ValueError(
                "structural_eq must be one of [None, 'def', 'def-pattern', 'def-simple', "
                "'ignore'], got %r" % (structural_eq,)
            )
        self.name = name
        self._ty_schema = _ty_schema
        self.default = default
        self.default_factory = default_factory
        self.frozen = frozen
        self.init = init
        self.repr = repr
        self.hash = hash
        self.compare = compare
        self.kw_only = kw_only
        self.metadata = dict(metadata) if metadata is not None else {}
        self.structural_eq = structural_eq
        self.doc = doc
        self.converter = converter
        self.extra_kwargs = dict(extra_kwargs)
        self.type = None

    def __copy__(self):
        new = Field.__new__(Field)
        for slot in Field.__slots__:
            setattr(new, slot, getattr(self, slot))
        new.metadata = dict(self.metadata)
        new.extra_kwargs = dict(self.extra_kwargs)
        return new

    def __repr__(self):
        return (
            "Field(name=%r, type=%r, default=%r, default_factory=%r, init=%r, repr=%r, "
            "hash=%r, compare=%r, kw_only=%r, frozen=%r, structural_eq=%r)"
            % (
                self.name,
                self.type,
                self.default,
                self.default_factory,
                self.init,
                self.repr,
                self.hash,
                self.compare,
                self.kw_only,
                self.frozen,
                self.structural_eq,
            )
        )


def field(
    *,
    default=MISSING,
    default_factory=MISSING,
    frozen=False,
    init=True,
    repr=True,
    hash=None,
    compare=True,
    kw_only=None,
    metadata=None,
    structural_eq=None,
    doc=None,
    converter=_identity_converter,
    **extra_kwargs,
):
    """Declare a field with options, as ``dataclasses.field`` does.

    ``hash=None`` follows ``compare``; ``kw_only=None`` follows the decorator or the
    ``KW_ONLY`` marker. The returned Field has no name until its class is decorated.
    """
    return Field(
        None,
        None,
        default=default,
        default_factory=default_factory,
        frozen=frozen,
        init=init,
        repr=repr,
        hash=hash,
        compare=compare,
        kw_only=kw_only,
        metadata=metadata,
        structural_eq=structural_eq,
        doc=doc,
        converter=converter,
        **extra_kwargs,
    )


class init_property:
    """A field computed once per construction by a one-argument function of the object.

    On ``__set_name__`` it adds ``name: <return annotation>`` to the owner's annotations;
    ``@py_class`` turns it into an init-off, repr/compare/hash-off field whose value the
    generated ``__init__`` stores right after construction.
    """

    def __init__(self, func):
        if not callable(func):
            raise TypeError("init_property expects a function, got %s" % type(func).__name__)
        self.func = func
        self.name = getattr(func, "__name__", None)
        self.__doc__ = getattr(func, "__doc__", None)

    def __set_name__(self, owner, name):
        self.name = name
        ann = getattr(self.func, "__annotations__", {}).get("return", typing.Any)
        annotations = owner.__dict__.get("__annotations__")
        if annotations is None:
            annotations = {}
            try:
                owner.__annotations__ = annotations
            except (AttributeError, TypeError):
                return
        annotations.setdefault(name, ann)

    def __get__(self, obj, objtype=None):
        return self


def _copy_field(f):
    return _copy.copy(f)
