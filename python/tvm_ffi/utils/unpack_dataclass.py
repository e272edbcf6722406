"""Turning stdlib dataclass instances into tuples of their field values, recursively.

The unpacking code is generated once per dataclass (from its field types: fields that can
only hold leaf values are copied as they are) and cached per thread.
"""

import dataclasses
import keyword
import threading
import types
import typing

UNPACK = "unpack"
_KNOWN_LEAF_TYPES = (int, float, str, bool, bytes, complex, type(None))
_LEAF_CONTAINER_ORIGINS = (tuple, dict, set, frozenset, typing.Union)
_tls = threading.local()


def _is_leaf(tp):
    if tp is None or tp in _KNOWN_LEAF_TYPES:
        return True
    origin = typing.get_origin(tp)
    if origin in _LEAF_CONTAINER_ORIGINS or _is_union_type(tp):
        args = [a for a in typing.get_args(tp) if a is not Ellipsis]
        return bool(args) and all(_is_leaf(a) for a in args)
    return False


def _is_union_type(tp):
    union_type = getattr(types, "UnionType", None)  # X | Y, Python 3.10+
    return union_type is not None and isinstance(tp, union_type)


def _classify_field_type(tp, owner):
    if tp is owner:
        return UNPACK
    if _is_leaf(tp):
        return None
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        return _extract_dataclass_to_tuple_schema(tp, _seen=(owner,))
    return UNPACK


def _extract_dataclass_to_tuple_schema(cls, _seen=()):
    """``{field: None | "unpack" | nested schema}`` of dataclass ``cls``: None for fields
    that only hold leaves, a nested dict for dataclass-typed fields, "unpack" otherwise
    (also for a self-reference and when the type hints cannot be resolved)."""
    if not (isinstance(cls, type) and dataclasses.is_dataclass(cls)):
        raise TypeError("Expected a dataclass class, got %r" % (cls,))
    fields = dataclasses.fields(cls)
    try:
        hints = typing.get_type_hints(cls)
    except Exception:  # unresolvable forward references: unpack everything
        return {f.name: UNPACK for f in fields}
    out = {}
    for f in fields:
        tp = hints.get(f.name, typing.Any)
        if tp is cls or tp in _seen:
            out[f.name] = UNPACK
        else:
            out[f.name] = _classify_field_type(tp, cls)
    return out


def _validate_dataclass_to_tuple_schema(schema):
    """TypeError/ValueError unless ``schema`` is a dict of identifier names to None,
    "unpack" or a nested schema."""
    if not isinstance(schema, dict):
        raise TypeError("DataclassToTupleSchema must be a dict, got %s" % type(schema).__name__)
    for name, sub in schema.items():
        if not isinstance(name, str):
            raise TypeError("Schema field name must be a string, got %s" % type(name).__name__)
        if keyword.iskeyword(name):
            raise ValueError("Schema field name %r is a Python keyword" % name)
        if not name.isidentifier():
            raise ValueError("Schema field name %r is not a valid Python identifier" % name)
        if isinstance(sub, dict):
            _validate_dataclass_to_tuple_schema(sub)


def _compile_dataclass_to_tuple_schema(cls):
    """A function ``obj -> tuple`` for instances of ``cls`` (generated source)."""
    schema = _extract_dataclass_to_tuple_schema(cls)
    _validate_dataclass_to_tuple_schema(schema)
    parts = []
    for name, kind in schema.items():
        if kind is None:
            parts.append("obj.%s" % name)
        else:
            parts.append("unpack(obj.%s)" % name)
    body = "(%s,)" % ", ".join(parts) if parts else "()"
    namespace = {"unpack": unpack_dataclass_to_tuple}
    exec("def to_tuple(obj):\n    return %s\n" % body, namespace)
    return namespace["to_tuple"]


def _converter(cls):
    cache = getattr(_tls, "cache", None)
    if cache is None:
        cache = _tls.cache = {}
    fn = cache.get(cls)
    if fn is None:
        fn = cache[cls] = _compile_dataclass_to_tuple_schema(cls)
    return fn


def unpack_dataclass_to_tuple(x):
    """``x`` with every dataclass instance replaced by the tuple of its field values,
    recursively; lists and tuples (namedtuples too) keep their type, dict values are
    unpacked, and any other value is returned as is (not copied)."""
    cls = type(x)
    if dataclasses.is_dataclass(cls):
        return _converter(cls)(x)
    if cls is list:
        return [unpack_dataclass_to_tuple(v) for v in x]
    if isinstance(x, tuple):
        items = [unpack_dataclass_to_tuple(v) for v in x]
        return cls(*items) if hasattr(x, "_fields") else cls(items)
    if isinstance(x, list):
        return cls(unpack_dataclass_to_tuple(v) for v in x)
    if isinstance(x, dict):
        return cls((k, unpack_dataclass_to_tuple(v)) for k, v in x.items())
    return x
