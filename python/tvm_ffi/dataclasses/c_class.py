"""``@c_class``: dataclass semantics for object types reflected from C++."""

import typing

from .. import _type_info, core, registry
from .._dunder import _decorator_options, _install_dataclass_dunders
from ..registry import _warn_missing_field_annotations
from .field import Field, _identity_converter

# Type attributes a C++ type may carry that the class exposes when it lacks them.
_COPIED_TYPE_ATTRS = (
    "__ffi_repr__",
    "__ffi_hash__",
    "__ffi_eq__",
    "__ffi_compare__",
    "__ffi_convert__",
    "__any_hash__",
    "__any_equal__",
    "__s_equal__",
    "__s_hash__",
    "__data_to_json__",
    "__data_from_json__",
)


def _type_hints(cls):
    try:
        return typing.get_type_hints(cls)
    except Exception:
        return {}


def _attach_field_objects(cls, type_info, *, frozen=False):
    """Give each own TypeField of type_info a Field (``tf.dataclass_field``) built from its
    C++ registration; with frozen, mark the fields frozen and reinstall their properties
    (names the class body shadows are left alone)."""
    hints = _type_hints(cls)
    for tf in type_info.fields or ():
        f = Field(
            tf.name,
            tf.ty,
            default=tf.c_default,
            default_factory=tf.c_default_factory,
            frozen=tf.frozen or frozen,
            init=tf.c_init,
            repr=tf.c_repr,
            hash=tf.c_hash,
            compare=tf.c_compare,
            kw_only=tf.c_kw_only,
            structural_eq=tf.c_structural_eq,
            doc=tf.doc,
        )
        f.type = hints.get(tf.name)
        tf.dataclass_field = f
        if frozen and not tf.frozen:
            tf.frozen = True
            attr = cls.__dict__.get(tf.name)
            if attr is None or isinstance(attr, _type_info.FFIProperty):
                setattr(cls, tf.name, tf.as_property(cls))


def c_class(
    type_key,
    *,
    frozen=False,
    init=True,
    repr=True,
    eq=False,
    order=False,
    unsafe_hash=False,
    match_args=True,
):
    """Bind a class to the C++-reflected type ``type_key`` with dataclass semantics.

    Fields, defaults, keyword-only and init/repr/compare/hash flags come from the C++ field
    registration; the options choose which Python members are generated (``__init__``,
    ``__repr__``, ``__eq__``/``__ne__``, ordering, ``__hash__``, ``__match_args__``);
    ``__copy__``, ``__deepcopy__`` and ``__replace__`` are always installed.
    """

    def decorator(cls):
        for name, value in list(cls.__dict__.items()):
            if isinstance(value, Field):
                delattr(cls, name)
        cls = registry.register_object(type_key, init=False)(cls)
        type_info = cls.__tvm_ffi_type_info__
        _warn_missing_field_annotations(cls, type_info, stacklevel=2)
        _attach_field_objects(cls, type_info, frozen=frozen)
        for name in _COPIED_TYPE_ATTRS:
            if name in cls.__dict__:
                continue
            value = core._lookup_type_attr(type_info.type_index, name)
            if value is not None:
                setattr(cls, name, value)
        _install_dataclass_dunders(
            cls, _decorator_options(frozen, init, repr, eq, order, unsafe_hash, match_args)
        )
        cls.__ffi_is_dataclass__ = True
        return cls

    return decorator


c_class.__dataclass_transform__ = {
    "eq_default": False,
    "order_default": False,
    "kw_only_default": False,
    "frozen_default": False,
    "field_specifiers": (Field, None),
    "kwargs": {"converter": _identity_converter},
}
