"""Test support (import explicitly: ``import tvm_ffi.testing``).

Importing loads ``libtvm_ffi_testing.so``, the library of "testing.*" global
functions and test object types that the test suites call. It is built with
the C++ tests (CMake target ``tvm_ffi_testlibs``) and is never installed, so
it is looked up in the directory named by the environment variable
``TVM_FFI_TEST_LIB_DIR``. Every "testing.*" global is then reachable as a
function of this module: ``tvm_ffi.testing.echo(1)`` calls ``testing.echo``.
"""

import ctypes
import os

from . import registry

ENV_VAR = "TVM_FFI_TEST_LIB_DIR"
LIBRARY_NAME = "libtvm_ffi_testing.so"

_library = None


def load_testing_library():
    """Load libtvm_ffi_testing.so from $TVM_FFI_TEST_LIB_DIR once; returns the ctypes handle.

    Raises RuntimeError naming the variable when it is unset or the library is not there.
    """
    global _library
    if _library is not None:
        return _library
    directory = os.environ.get(ENV_VAR)
    if not directory:
        raise RuntimeError(
            "tvm_ffi.testing: environment variable %s is not set; it must name the directory "
            "holding %s (build it with the CMake target tvm_ffi_testlibs, e.g. "
            "build/tests/tests/testlib)" % (ENV_VAR, LIBRARY_NAME)
        )
    path = os.path.join(directory, LIBRARY_NAME)
    if not os.path.isfile(path):
        raise RuntimeError(
            "tvm_ffi.testing: %s not found in %s=%s (build the CMake target tvm_ffi_testlibs)"
            % (LIBRARY_NAME, ENV_VAR, directory)
        )
    # The library registers its functions and types when loaded; it stays loaded
    # for the life of the process because the registry keeps its code.
    _library = ctypes.CDLL(path, mode=ctypes.RTLD_GLOBAL)
    return _library


load_testing_library()


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


def __getattr__(name):
    func = registry.get_global_func("testing." + name, allow_missing=True)
    if func is None:
        raise AttributeError("module 'tvm_ffi.testing' has no attribute %r" % name)
    return func


# Python classes of the reflected test types (tests/cpp/testing/testing_reflection.cc).
from .core import Object as _Object  # noqa: E402


@registry.register_object("testing.TestObjectBase")
class TestObjectBase(_Object):
    """v_i64 (=10), v_f64 (read-only, =10.0), v_str (="hello"); method add_i64."""


@registry.register_object("testing.TestObjectDerived")
class TestObjectDerived(TestObjectBase):
    """TestObjectBase plus v_map and v_array."""


@registry.register_object("testing.TestIntPair")
class TestIntPair(_Object):
    """a, b (read-only); explicit constructor; method sum; __ffi_convert__ registered."""


@registry.register_object("testing.TestObjectPtrHolder")
class TestObjectPtrHolder(_Object):
    """value: TestObjectBase, optional_value: TestObjectBase | None (=None)."""


@registry.register_object("testing.TestNonCopyable")
class TestNonCopyable(_Object):
    """value (read-only); not copy-constructible."""


@registry.register_object("testing.TestCxxInitSubset")
class _TestCxxInitSubset(_Object):
    """required_field; optional_field and note are left out of __init__."""


@registry.register_object("testing.TestCxxKwOnly")
class _TestCxxKwOnly(_Object):
    """x, y, z keyword-only; w keyword-only (=100)."""


@registry.register_object("testing.TestCxxAutoInit")
class _TestCxxAutoInit(_Object):
    """a; b init-off (=42); c keyword-only; d (=99)."""


@registry.register_object("testing.TestCxxAutoInitSimple")
class _TestCxxAutoInitSimple(_Object):
    """x, y."""


@registry.register_object("testing.TestCxxAutoInitAllInitOff")
class _TestCxxAutoInitAllInitOff(_Object):
    """x (=7), y (=9), z: all left out of __init__."""


@registry.register_object("testing.TestCxxAutoInitKwOnlyDefaults")
class _TestCxxAutoInitKwOnlyDefaults(_Object):
    """p_required, p_default=11, k_required (kw-only), k_default=22 (kw-only), hidden=33."""


@registry.register_object("testing.TestCxxAutoInitParent")
class _TestCxxAutoInitParent(_Object):
    """parent_required, parent_default (=5)."""


@registry.register_object("testing.TestCxxAutoInitChild")
class _TestCxxAutoInitChild(_TestCxxAutoInitParent):
    """The parent's fields plus child_required and child_kw_only (kw-only)."""


@registry.register_object("testing.TestCxxNoAutoInit")
class _TestCxxNoAutoInit(_Object):
    """x, y; no constructor."""


from typing import ClassVar as _ClassVar  # noqa: E402

from .dataclasses import Enum as _Enum  # noqa: E402
from .dataclasses import IntEnum as _IntEnum  # noqa: E402
from .dataclasses import StrEnum as _StrEnum  # noqa: E402
from .dataclasses import c_class as _c_class  # noqa: E402


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

from .core import Device as _Device  # noqa: E402
from .core import dtype as _dtype  # noqa: E402


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
