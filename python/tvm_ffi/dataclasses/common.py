"""Helpers shared by c_class and py_class types: ``is_dataclass``, ``fields``, ``replace``,
``asdict`` and ``astuple``."""

import copy as _copy

from .. import core

_ATOMIC_TYPES = frozenset(
    {bool, bytes, complex, float, int, str, type(None), type(Ellipsis), type(NotImplemented)}
)


def is_dataclass(obj):
    """Whether obj (a class, or the class of an instance) was made by c_class or py_class."""
    cls = obj if isinstance(obj, type) else type(obj)
    return getattr(cls, "__ffi_is_dataclass__", False) is True


def _type_info_chain(cls):
    """TypeInfo of cls and its ancestors, root first."""
    chain = []
    info = getattr(cls, "__tvm_ffi_type_info__", None)
    while info is not None:
        chain.append(info)
        info = info.parent_type_info
    chain.reverse()
    return chain


def fields(obj_or_cls):
    """The Fields of a c_class / py_class type or instance, inherited ones first."""
    if not is_dataclass(obj_or_cls):
        raise TypeError(
            "fields() argument must be a c_class or py_class type or instance, got %s"
            % type(obj_or_cls).__name__
        )
    cls = obj_or_cls if isinstance(obj_or_cls, type) else type(obj_or_cls)
    result = []
    for info in _type_info_chain(cls):
        for tf in info.fields or ():
            if tf.dataclass_field is not None:
                result.append(tf.dataclass_field)
    return tuple(result)


def replace(obj, /, **changes):
    """A copy of obj with the given fields changed (frozen fields included)."""
    return obj.__replace__(**changes)


def _is_instance_dataclass(obj):
    return not isinstance(obj, type) and is_dataclass(obj)


def asdict(obj, *, dict_factory=dict):
    """The fields of a dataclass instance as a dict, converted recursively."""
    if not _is_instance_dataclass(obj):
        raise TypeError("asdict() should be called on c_class / py_class instances")
    return _asdict_inner(obj, dict_factory)


def astuple(obj, *, tuple_factory=tuple):
    """The field values of a dataclass instance as a tuple, converted recursively."""
    if not _is_instance_dataclass(obj):
        raise TypeError("astuple() should be called on c_class / py_class instances")
    return _astuple_inner(obj, tuple_factory)


def _is_ffi_sequence(obj):
    from ..container import Array, List

    return isinstance(obj, (Array, List))


def _is_ffi_mapping(obj):
    from ..container import Dict, Map

    return isinstance(obj, (Map, Dict))


def _asdict_inner(obj, dict_factory):
    if type(obj) in _ATOMIC_TYPES:
        return obj
    if _is_instance_dataclass(obj):
        return dict_factory(
            [(f.name, _asdict_inner(getattr(obj, f.name), dict_factory)) for f in fields(obj)]
        )
    if _is_ffi_sequence(obj):
        return [_asdict_inner(v, dict_factory) for v in obj]
    if _is_ffi_mapping(obj):
        return dict_factory(
            [
                (_asdict_inner(k, dict_factory), _asdict_inner(v, dict_factory))
                for k, v in obj.items()
            ]
        )
    if isinstance(obj, tuple) and hasattr(obj, "_fields"):
        return type(obj)(*[_asdict_inner(v, dict_factory) for v in obj])
    if isinstance(obj, (list, tuple)):
        return type(obj)(_asdict_inner(v, dict_factory) for v in obj)
    if isinstance(obj, dict):
        items = [
            (_asdict_inner(k, dict_factory), _asdict_inner(v, dict_factory)) for k, v in obj.items()
        ]
        if hasattr(type(obj), "default_factory"):
            result = type(obj)(obj.default_factory)
            result.update(items)
            return result
        return type(obj)(items)
    return _copy.deepcopy(obj)


def _astuple_inner(obj, tuple_factory):
    if type(obj) in _ATOMIC_TYPES:
        return obj
    if _is_instance_dataclass(obj):
        return tuple_factory(
            [_astuple_inner(getattr(obj, f.name), tuple_factory) for f in fields(obj)]
        )
    if _is_ffi_sequence(obj):
        return [_astuple_inner(v, tuple_factory) for v in obj]
    if _is_ffi_mapping(obj):
        return {
            _astuple_inner(k, tuple_factory): _astuple_inner(v, tuple_factory)
            for k, v in obj.items()
        }
    if isinstance(obj, tuple) and hasattr(obj, "_fields"):
        return type(obj)(*[_astuple_inner(v, tuple_factory) for v in obj])
    if isinstance(obj, (list, tuple)):
        return type(obj)(_astuple_inner(v, tuple_factory) for v in obj)
    if isinstance(obj, dict):
        items = [
            (_astuple_inner(k, tuple_factory), _astuple_inner(v, tuple_factory))
            for k, v in obj.items()
        ]
        if hasattr(type(obj), "default_factory"):
            result = type(obj)(obj.default_factory)
            result.update(items)
            return result
        return type(obj)(items)
    return _copy.deepcopy(obj)


__all__ = ["asdict", "astuple", "fields", "is_dataclass", "replace", "core"]
