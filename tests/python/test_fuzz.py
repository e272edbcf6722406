"""Randomized inputs to the Python -> FFI conversion and to dtype / device parsing.

Each test draws a few thousand values from a seeded generator (so a failure
reproduces) and checks the library's contract on every one: the value crosses
and comes back equal, or the call raises an ordinary Python exception; the
process never crashes, and no reference is left behind.
"""

import gc
import math
import random
import string
import sys

import pytest
import tvm_ffi

np = pytest.importorskip("numpy")

# ffi.Array(*args) is a runtime global: every argument is converted to an
# owned FFI value and converted back when the Array is read.
make_array = tvm_ffi.get_global_func("ffi.Array")

# What a caller may see for a value that cannot cross.
CLEAN_ERRORS = (TypeError, ValueError, OverflowError, RecursionError, UnicodeError)

SEED = 20261202
ROUNDS = 3000

# A Python object that has no FFI meaning crosses as an opaque object; its
# reference count shows whether the binding released what it took.
SENTINEL = object()


def _odd_string(rng):
    pools = [
        string.printable,
        "\x00\x01\x7f",
        "äöü€漢字🙂",
        "\u200b\ufeff\U0010ffff",
    ]
    n = rng.choice([0, 1, 7, 8, 9, 64])
    s = "".join(rng.choice(rng.choice(pools)) for _ in range(n))
    if rng.random() < 0.05:
        s += "\ud800"  # a lone surrogate cannot be encoded as UTF-8
    return s


def _odd_number(rng):
    return rng.choice(
        [
            0,
            -1,
            2**31,
            2**63 - 1,
            -(2**63),
            2**63,
            -(2**63) - 1,
            2**64,
            2**200,
            -(2**200),
            rng.randint(-(2**70), 2**70),
            0.0,
            -0.0,
            1e308,
            5e-324,
            math.inf,
            -math.inf,
            math.nan,
            True,
            False,
        ]
    )


def _random_value(rng, depth=0):
    kind = rng.randrange(9 if depth < 4 else 5)
    if kind == 0:
        return _odd_number(rng)
    if kind == 1:
        return _odd_string(rng)
    if kind == 2:
        return bytes(rng.randrange(256) for _ in range(rng.choice([0, 3, 7, 8, 40])))
    if kind == 3:
        return None
    if kind == 4:
        return SENTINEL
    if kind == 5:
        return [_random_value(rng, depth + 1) for _ in range(rng.randrange(4))]
    if kind == 6:
        return tuple(_random_value(rng, depth + 1) for _ in range(rng.randrange(4)))
    if kind == 7:
        return {_odd_string(rng): _random_value(rng, depth + 1) for _ in range(rng.randrange(3))}
    return _random_array(rng)


def _random_array(rng):
    dtype = rng.choice(["float32", "int64", "uint8", "bool", "float16", "complex64", "object"])
    shape = tuple(rng.randrange(4) for _ in range(rng.randrange(4)))
    if dtype == "object":
        return np.empty(shape, dtype=object)
    arr = np.zeros(shape, dtype=dtype)
    if arr.ndim >= 1 and arr.shape[0] > 1 and rng.random() < 0.5:
        arr = arr[::2]  # a strided view
    if rng.random() < 0.2:
        arr = arr.astype(arr.dtype.newbyteorder(">"))  # byte-swapped: no DLPack dtype
    return arr


def _same(a, b):
    """Equality of a Python value and what came back from the FFI."""
    if isinstance(a, float) and math.isnan(a):
        return isinstance(b, float) and math.isnan(b)
    if isinstance(a, float):
        return isinstance(b, float) and a == b and math.copysign(1, a) == math.copysign(1, b)
    if isinstance(a, bool) or isinstance(a, int):
        return type(b) is type(a) and a == b
    if isinstance(a, (list, tuple)):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    if isinstance(a, dict):
        return len(a) == len(b) and all(k in b and _same(v, b[k]) for k, v in a.items())
    if isinstance(a, np.ndarray):
        return tuple(b.shape) == a.shape
    if a is SENTINEL:
        return b is SENTINEL
    return a == b


def test_random_values_cross_or_fail_cleanly():
    rng = random.Random(SEED)
    crossed = failed = 0
    for _ in range(ROUNDS):
        value = _random_value(rng)
        try:
            back = make_array(value)[0]
        except CLEAN_ERRORS:
            failed += 1
            continue
        assert _same(value, back), (value, back)
        crossed += 1
    # The generator must exercise both outcomes, or the test proves little.
    assert crossed > ROUNDS // 2 and failed > 0


def test_random_values_leave_no_reference_behind():
    rng = random.Random(SEED + 1)
    gc.collect()
    before = sys.getrefcount(SENTINEL)
    for _ in range(ROUNDS):
        value = [SENTINEL, _random_value(rng), SENTINEL]
        try:
            make_array(*value)
        except CLEAN_ERRORS:
            pass
    del value  # the last list still holds two references
    gc.collect()
    assert sys.getrefcount(SENTINEL) == before


DTYPE_PIECES = [
    "int",
    "uint",
    "float",
    "bfloat",
    "bool",
    "handle",
    "complex",
    "e4m3fn",
    "e5m2",
    "x",
    "_",
    "8",
    "16",
    "32",
    "64",
    "4",
    "0",
    "-1",
    "99999999999",
    "f",
    "i",
    "u",
    "fp",
    "custom[",
    "]",
    " ",
    "\x00",
    "é",
]
DEVICE_PIECES = [
    "cpu",
    "cuda",
    "rocm",
    "metal",
    "gpu",
    ":",
    "0",
    "1",
    "-1",
    "99999999999",
    " ",
    "x",
    "\x00",
    "é",
    "vulkan",
    "opencl",
]


def _random_spelling(rng, pieces):
    return "".join(rng.choice(pieces) for _ in range(rng.randrange(5)))


def test_dtype_strings_parse_or_raise_value_error():
    rng = random.Random(SEED + 2)
    parsed = 0
    for _ in range(ROUNDS):
        text = _random_spelling(rng, DTYPE_PIECES)
        try:
            dt = tvm_ffi.dtype(text)
        except ValueError:
            continue
        # What parses prints back as a spelling that parses to the same dtype.
        assert tvm_ffi.dtype(str(dt)) == dt, text
        parsed += 1
    assert parsed > 0


def test_device_strings_parse_or_raise_value_error():
    rng = random.Random(SEED + 3)
    parsed = 0
    for _ in range(ROUNDS):
        text = _random_spelling(rng, DEVICE_PIECES)
        try:
            dev = tvm_ffi.device(text)
        except ValueError:
            continue
        assert tvm_ffi.device(str(dev)) == dev, text
        parsed += 1
    assert parsed > 0
