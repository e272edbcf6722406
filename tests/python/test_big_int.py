"""Python ints beyond int64 cross the FFI as BigInt (type index 78), both ways.

The C++ side is TVM_FFI_TEST_LIB_DIR/big_int_lib.so (tests/cpp/testlib/big_int_lib.cc).
"""

import os

import pytest
import tvm_ffi

echo = tvm_ffi.get_global_func("testing.echo")
type_index = tvm_ffi.get_global_func("testing.type_index")

INT64_MAX = (1 << 63) - 1
INT64_MIN = -(1 << 63)
K_BIG_INT = 78

BIG_VALUES = [
    2**70,
    -(2**70),
    2**64 - 1,
    INT64_MAX + 1,
    INT64_MIN - 1,
    2**200,
    -(2**200) + 12345,
    3**100,
]


@pytest.fixture(scope="module")
def lib():
    lib_dir = os.environ.get("TVM_FFI_TEST_LIB_DIR")
    if not lib_dir:
        pytest.fail("TVM_FFI_TEST_LIB_DIR must name the directory of the compiled test libraries")
    return tvm_ffi.load_module(os.path.join(lib_dir, "big_int_lib.so"))


@pytest.mark.parametrize("value", BIG_VALUES)
def test_int_beyond_int64_round_trips_as_int(value):
    out = echo(value)
    assert type(out) is int and out == value


@pytest.mark.parametrize("value", BIG_VALUES)
def test_int_beyond_int64_is_passed_as_big_int(value):
    assert type_index(value) == K_BIG_INT


@pytest.mark.parametrize("value", [0, 1, -1, INT64_MAX, INT64_MIN])
def test_int64_values_stay_plain_ints(value):
    assert type_index(value) == 1
    assert echo(value) == value


def test_convert_returns_the_int_unchanged():
    assert tvm_ffi.convert(2**70) == 2**70
    assert type(tvm_ffi.convert(-(2**70))) is int


@pytest.mark.parametrize("value", BIG_VALUES + [0, -5, INT64_MAX])
def test_cpp_big_int_parameter_and_result(lib, value):
    assert lib.square(value) == value * value


@pytest.mark.parametrize("value", BIG_VALUES + [7])
def test_cpp_any_parameter_and_result(lib, value):
    assert lib.negate_any(value) == -value


def test_cpp_reads_the_exact_value(lib):
    assert lib.to_decimal(2**70) == str(2**70)
    assert lib.to_decimal(-(2**64) + 1) == str(-(2**64) + 1)


def test_cpp_makes_big_values(lib):
    assert lib.pow2(70) == 2**70
    assert lib.pow2(62) == 2**62
    assert lib.pow2(1000) == 2**1000


def test_big_ints_inside_lists(lib):
    assert lib.sum([2**70, 2**70, -1, 5]) == 2**71 + 4
    out = echo([2**70, 1])
    assert list(out) == [2**70, 1]
    assert all(type(x) is int for x in out)


def test_big_ints_inside_dicts():
    out = echo({"big": 2**80, "neg": -(2**90), "small": 3})
    assert out["big"] == 2**80
    assert out["neg"] == -(2**90)
    assert out["small"] == 3
    assert type(out["big"]) is int


def test_big_int_reaches_python_callbacks_as_int(lib):
    seen = []

    def callback(x):
        seen.append(x)
        return x * 2

    assert lib.call_back(callback, 2**70) == 2**71 + 1
    assert seen == [2**70] and type(seen[0]) is int


@pytest.mark.parametrize("value", [INT64_MAX + 1, INT64_MIN - 1, 2**70])
def test_int64_parameter_rejects_big_int_naming_the_argument(lib, value):
    with pytest.raises(TypeError, match=r"argument #0.*BigInt"):
        lib.take_int64(value)


def test_int64_parameter_accepts_the_limits(lib):
    assert lib.take_int64(INT64_MAX) == INT64_MAX
    assert lib.take_int64(INT64_MIN) == INT64_MIN


def test_numpy_integer_beyond_int64_uses_index():
    import numpy as np

    assert echo(np.uint64(2**64 - 1)) == 2**64 - 1
