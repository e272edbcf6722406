"""Test fixtures of tvm_ffi.testing: the Python classes of the test types of libtvm_ffi_testing,
``create_object``, and pytest markers for tests that need a newer Python.

Imported by ``tvm_ffi.testing`` after it has checked that the library is loaded (the classes
bind type keys the library registers).
"""

import sys

from .. import registry

try:
    import pytest as _pytest
except ImportError:  # pytest is only needed to use the markers
    _pytest = None


def _requires_python(major, minor):
    """``pytest.mark.skipif`` marker skipping a test below Python major.minor."""
    reason = "requires Python %d.%d+" % (major, minor)
    condition = sys.version_info < (major, minor)
    if _pytest is None:
        return None
    return _pytest.mark.skipif(condition, reason=reason)


requires_py310 = _requires_python(3, 10)
requires_py312 = _requires_python(3, 12)
requires_py313 = _requires_python(3, 13)


def create_object(type_key, **kwargs):
    """A new object of the registered type type_key with its fields set from kwargs.

    Fields not given take their defaults; a field without a default that is not given, or a
    name that is no field, is a TypeError (through ``ffi.MakeObjectFromPackedArgs``).
    """
    args = [type_key]
    for name, value in kwargs.items():
        args.append(name)
        args.append(value)
    return registry.get_global_func("ffi.MakeObjectFromPackedArgs")(*args)


# Python classes of the reflected test types (tests/cpp/testing/testing_reflection.cc).
from typing import Any, Mapping, Optional, Sequence  # noqa: E402

from .._dunder import _decorator_options, _install_dataclass_dunders  # noqa: E402
from ..core import Object as _Object  # noqa: E402
from ..dataclasses.c_class import _attach_field_objects  # noqa: E402


def _fixture(type_key):
    """``register_object`` plus the dataclass members (``__repr__``, ``__copy__``,
    ``__deepcopy__``, ``__replace__``, ``__match_args__``, ``dataclasses.fields``) without
    generated comparisons; ``__test__ = False`` keeps pytest from collecting the class."""

    def bind(cls):
        cls = registry.register_object(type_key)(cls)
        _attach_field_objects(cls, cls.__tvm_ffi_type_info__)
        options = _decorator_options(False, True, True, False, False, False, True)
        _install_dataclass_dunders(cls, options)
        cls.__ffi_is_dataclass__ = True
        cls.__test__ = False
        return cls

    return bind


def add_one(x):
    """x + 1, computed by the testing library's ``testing.add_one``."""
    return registry.get_global_func("testing.add_one")(x)


def make_unregistered_object():
    """An object of ``testing.TestUnregisteredObject``, a type no Python class is bound to
    (it comes back as an instance of the generated fallback class)."""
    return registry.get_global_func("testing.make_unregistered_object")()


@_fixture("testing.TestObjectBase")
class TestObjectBase(_Object):
    """v_i64 (=10), v_f64 (read-only, =10.0), v_str (="hello"); method add_i64."""

    v_i64: int
    v_f64: float
    v_str: str


@_fixture("testing.TestObjectDerived")
class TestObjectDerived(TestObjectBase):
    """TestObjectBase plus v_map and v_array."""

    v_map: Mapping[Any, Any]
    v_array: Sequence[Any]


@_fixture("testing.TestIntPair")
class TestIntPair(_Object):
    """a, b (read-only); explicit constructor; method sum; __ffi_convert__ registered."""

    a: int
    b: int


@_fixture("testing.TestObjectPtrHolder")
class TestObjectPtrHolder(_Object):
    """value: TestObjectBase, optional_value: TestObjectBase | None (=None)."""

    value: TestObjectBase
    optional_value: Optional[TestObjectBase]


@_fixture("testing.TestNonCopyable")
class TestNonCopyable(_Object):
    """value (read-only); not copy-constructible."""

    value: int


@_fixture("testing.TestCxxInitSubset")
class _TestCxxInitSubset(_Object):
    """required_field; optional_field and note are left out of __init__."""

    required_field: int
    optional_field: int
    note: str


@_fixture("testing.TestCxxKwOnly")
class _TestCxxKwOnly(_Object):
    """x, y, z keyword-only; w keyword-only (=100)."""

    x: int
    y: int
    z: int
    w: int


@_fixture("testing.TestCxxAutoInit")
class _TestCxxAutoInit(_Object):
    """a; b init-off (=42); c keyword-only; d (=99)."""

    a: int
    b: int
    c: int
    d: int


@_fixture("testing.TestCxxAutoInitSimple")
class _TestCxxAutoInitSimple(_Object):
    """x, y."""

    x: int
    y: int


@_fixture("testing.TestCxxAutoInitAllInitOff")
class _TestCxxAutoInitAllInitOff(_Object):
    """x (=7), y (=9), z: all left out of __init__."""

    x: int
    y: int
    z: int


@_fixture("testing.TestCxxAutoInitKwOnlyDefaults")
class _TestCxxAutoInitKwOnlyDefaults(_Object):
    """p_required, p_default=11, k_required (kw-only), k_default=22 (kw-only), hidden=33."""

    p_required: int
    p_default: int
    k_required: int
    k_default: int
    hidden: int


@_fixture("testing.TestCxxAutoInitParent")
class _TestCxxAutoInitParent(_Object):
    """parent_required, parent_default (=5)."""

    parent_required: int
    parent_default: int


@_fixture("testing.TestCxxAutoInitChild")
class _TestCxxAutoInitChild(_TestCxxAutoInitParent):
    """The parent's fields plus child_required and child_kw_only (kw-only)."""

    child_required: int
    child_kw_only: int


@_fixture("testing.TestCxxNoAutoInit")
class _TestCxxNoAutoInit(_Object):
    """x, y; no constructor."""

    x: int
    y: int


from typing import ClassVar as _ClassVar  # noqa: E402

from ..dataclasses import Enum as _Enum  # noqa: E402
from ..dataclasses import IntEnum as _IntEnum  # noqa: E402
from ..dataclasses import StrEnum as _StrEnum  # noqa: E402
from ..dataclasses import c_class as _c_class  # noqa: E402


# c_class bindings of the dataclass fixtures (testing_reflection.cc, testing_compare.cc).
@_c_class("testing.TestCxxClassBase")
class _TestCxxClassBase(_Object):
    """v_i64, v_i32 (both repr off); the C++ constructor stores v_i64 + 1 and v_i32 + 2."""

    v_i64: int
    v_i32: int

    def __init__(self, v_i64, v_i32):
        self.__ffi_init__(v_i64, v_i32)


@_c_class("testing.TestCxxClassDerived", eq=True, order=True, unsafe_hash=True)
class _TestCxxClassDerived(_TestCxxClassBase):
    """The base's fields plus v_f64 and v_f32 (=8.0); eq, order and hash generated."""

    v_f64: float
    v_f32: float


@_c_class("testing.TestCxxClassDerivedDerived")
class _TestCxxClassDerivedDerived(_TestCxxClassDerived):
    """The parents' fields plus v_str (="default") and v_bool."""

    v_str: str
    v_bool: bool


@_c_class("testing.TestFrozenCxx", frozen=True)
class TestFrozenCxx(_Object):
    """Declared with value and tag; the C++ type reflects neither, so it has no fields."""

    value: int
    tag: str


@_c_class("testing.TestCompare")
class TestCompare(_Object):
    """key, name; ignored_field is left out of comparisons."""

    key: int
    name: str
    ignored_field: int


@_c_class("testing.TestHash")
class TestHash(_Object):
    """key, name; hash_ignored is left out of hashing."""

    key: int
    name: str
    hash_ignored: int


@_c_class("testing.TestCustomHash")
class TestCustomHash(_Object):
    """key, label; C++ __ffi_hash__."""

    key: int
    label: str


@_c_class("testing.TestCustomCompare")
class TestCustomCompare(_Object):
    """key, label; C++ __ffi_hash__, __ffi_eq__ and __ffi_compare__."""

    key: int
    label: str


@_c_class("testing.TestEqWithoutHash")
class TestEqWithoutHash(_Object):
    """key, label; C++ __ffi_eq__ only."""

    key: int
    label: str


# The C++ enums of tests/cpp/testing/testing_enum.cc. Their variants are registered in C++,
# so the declarations below bind those singletons (they register nothing new).
class TestEnumVariant(_Enum, type_key="testing.TestEnumVariant"):
    """Alpha, Beta, with the extensible attribute code (10, 20)."""

    Alpha: _ClassVar["TestEnumVariant"]
    Beta: _ClassVar["TestEnumVariant"]


class _TestCxxIntEnum(_IntEnum, type_key="testing.TestCxxIntEnum"):
    """low = 10, high = 20."""

    low = 10
    high = 20


class _TestCxxStrEnum(_StrEnum, type_key="testing.TestCxxStrEnum"):
    """add = "+", mul = "*"."""

    add = "+"
    mul = "*"


@_c_class("testing.TestCxxEnumHolder")
class _TestCxxEnumHolder(_Object):
    """priority: _TestCxxIntEnum, opcode: _TestCxxStrEnum (both writable; payloads accepted)."""

    priority: _TestCxxIntEnum
    opcode: _TestCxxStrEnum


from typing import Mapping as _Mapping  # noqa: E402
from typing import Optional as _Optional  # noqa: E402
from typing import Sequence as _Sequence  # noqa: E402
from typing import Union as _Union  # noqa: E402

from ..core import Device as _Device  # noqa: E402
from ..core import dtype as _dtype  # noqa: E402


@_c_class("testing.SchemaAllTypes")
class _SchemaAllTypes(_Object):
    """One field of each kind of type schema (tests/cpp/testing/testing_schema.cc); v_int,
    v_float and v_string default to 0, 0.0 and "s". Methods: ``add_int(x)`` (v_int + x),
    ``append_int(arr, x)``, ``maybe_concat(a, b)`` (None only when both are), ``merge_map(a,
    b)`` (arrays of a shared key are concatenated) and the static ``make_with(v_int, v_float,
    v_string)`` (v_bool True, the rest at their defaults)."""

    v_bool: bool
    v_int: int
    v_float: float
    v_device: _Device
    v_dtype: _dtype
    v_string: str
    v_bytes: bytes
    v_opt_int: _Optional[int]
    v_opt_str: _Optional[str]
    v_arr_int: _Sequence[int]
    v_arr_str: _Sequence[str]
    v_map_str_int: _Mapping[str, int]
    v_map_str_arr_int: _Mapping[str, _Sequence[int]]
    v_variant: _Union[str, _Sequence[int], _Mapping[str, int]]
    v_opt_arr_variant: _Optional[_Sequence[_Union[int, str]]]
