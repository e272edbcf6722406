"""Dataclass semantics for FFI object types.

``@c_class`` binds a Python class to an object type reflected from C++; fields, defaults and
constructor traits come from the C++ registration, and the decorator generates ``__init__``,
``__repr__``, comparison, hashing, copy and replace. ``field``/``Field``/``KW_ONLY`` declare
fields; ``fields``, ``asdict``, ``astuple``, ``replace`` and ``is_dataclass`` work on both kinds
of dataclass.
"""

from ..core import MISSING, Object
from .c_class import c_class
from .common import asdict, astuple, fields, is_dataclass, replace
from .enum import Enum, EnumAttrMap, EnumState, IntEnum, StrEnum, auto, entry
from .field import KW_ONLY, Field, field, init_property
from .gen_abi_cpp import gen_abi_cpp
from .py_class import method, py_class

c_class.__dataclass_transform__["field_specifiers"] = (Field, field)

__all__ = [
    "KW_ONLY",
    "MISSING",
    "Enum",
    "EnumAttrMap",
    "EnumState",
    "Field",
    "IntEnum",
    "Object",
    "StrEnum",
    "asdict",
    "astuple",
    "auto",
    "c_class",
    "entry",
    "field",
    "fields",
    "gen_abi_cpp",
    "init_property",
    "is_dataclass",
    "py_class",
    "replace",
]
