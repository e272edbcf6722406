"""Every row of the Python <-> FFI conversion table, round-tripped through testing.echo."""

import ctypes
import math

import pytest
import tvm_ffi

echo = tvm_ffi.get_global_func("testing.echo")
type_index = tvm_ffi.get_global_func("testing.type_index")

INT64_MAX = (1 << 63) - 1
INT64_MIN = -(1 << 63)


def test_none_round_trips():
    assert echo(None) is None


@pytest.mark.parametrize("value", [True, False])
def test_bool_round_trips_as_bool(value):
    out = echo(value)
    assert out is value


@pytest.mark.parametrize("value", [0, 1, -1, 123456789, INT64_MAX, INT64_MIN])
def test_int_round_trips_including_int64_limits(value):
    out = echo(value)
    assert type(out) is int and out == value


@pytest.mark.parametrize("value", [INT64_MAX + 1, INT64_MIN - 1, 1 << 100])
def test_int_beyond_int64_round_trips_as_big_int(value):
    out = echo(value)
    assert type(out) is int and out == value


def test_int_subclass_and_index_types_convert_as_int():
    import enum

    class Color(enum.IntEnum):
        RED = 3

    assert echo(Color.RED) == 3 and type(echo(Color.RED)) is int


@pytest.mark.parametrize("value", [0.0, -2.5, 1e300, float("inf"), float("-inf")])
def test_float_round_trips(value):
    out = echo(value)
    assert type(out) is float and out == value


def test_float_nan_round_trips():
    assert math.isnan(echo(float("nan")))


@pytest.mark.parametrize(
    "value",
    [
        "",
        "a",
        "hello",
        "seven77",
        "eight888",
        "x" * 1000,
        "héllo wörld",
        "日本語テキスト",
        "emoji \U0001f600",
    ],
)
def test_str_round_trips_small_and_heap_and_non_ascii(value):
    out = echo(value)
    assert type(out) is str and out == value


@pytest.mark.parametrize("value", ["a\0b", "\0", "long string with a \0 inside it"])
def test_str_with_embedded_nul_keeps_every_byte(value):
    assert echo(value) == value


def test_short_str_argument_is_passed_as_small_str():
    # python_api.md §3.1 row 20: a str of at most 7 UTF-8 bytes travels as a SmallStr (11).
    assert type_index("abc") == 11
    assert type_index("") == 11
    assert type_index("a\0b") == 11
    assert type_index("\u00e9\u00e9\u00e9") == 11  # 6 UTF-8 bytes


def test_long_str_argument_is_lent_as_raw_str_view():
    # Longer text is lent without a copy (RawStr, 8); see test_function.py for its mismatch name.
    assert type_index("abcdefgh") == 8


@pytest.mark.parametrize("value", ["", "a", "abcdefg", "a\0b", "\u00e9\u00e9\u00e9", "\u00e9" * 4])
def test_str_around_the_small_limit_round_trips(value):
    assert echo(value) == value


@pytest.mark.parametrize("value", [b"", b"ab", b"\x00\xff\x01", b"x" * 100])
def test_bytes_round_trip(value):
    out = echo(value)
    assert type(out) is bytes and out == value


def test_bytearray_converts_to_bytes():
    assert echo(bytearray(b"abc\0d")) == b"abc\0d"


def test_short_bytes_argument_is_passed_as_small_bytes():
    # python_api.md §3.1 row 21: bytes of at most 7 bytes travel as SmallBytes (12).
    assert type_index(b"abc") == 12
    assert type_index(b"") == 12
    assert type_index(b"a\0b\0c\0d") == 12


def test_long_bytes_argument_is_lent_as_byte_array_view():
    # Longer bytes are lent without a copy (ByteArrayPtr, 9); see test_function.py for its
    # mismatch name.
    assert type_index(b"abcdefgh") == 9


def test_short_bytes_subclass_argument_is_passed_as_small_bytes():
    class Blob(bytes):
        pass

    assert type_index(Blob(b"abc")) == 12
    assert type_index(Blob(b"abcdefgh")) == 9


@pytest.mark.parametrize("value", [b"", b"abcdefg", b"abcdefgh", b"\0" * 7, b"\0" * 8])
def test_bytes_around_the_small_limit_round_trip(value):
    assert echo(value) == value


def test_list_becomes_array():
    out = echo([1, "two", 3.0, None])
    assert isinstance(out, tvm_ffi.Array)
    assert list(out) == [1, "two", 3.0, None]


def test_tuple_becomes_array():
    out = echo((1, 2))
    assert isinstance(out, tvm_ffi.Array) and out == [1, 2]


def test_nested_containers_convert_recursively():
    out = echo([1, [2, [3, {"k": [4]}]], {"a": {"b": 5}}])
    assert out[1][1][0] == 3
    assert out[1][1][1]["k"][0] == 4
    assert out[2]["a"]["b"] == 5
    assert isinstance(out[1], tvm_ffi.Array)
    assert isinstance(out[2], tvm_ffi.Map)


def test_dict_becomes_map():
    out = echo({"a": 1, 2: "b"})
    assert isinstance(out, tvm_ffi.Map)
    assert out["a"] == 1 and out[2] == "b"


def test_empty_list_and_dict():
    assert len(echo([])) == 0
    assert len(echo({})) == 0


def test_object_round_trips_as_same_object():
    arr = tvm_ffi.Array([1, 2])
    out = echo(arr)
    assert out.same_as(arr)


def test_callable_becomes_function_that_calls_back():
    out = echo(lambda x: x * 2)
    assert isinstance(out, tvm_ffi.Function)
    assert out(21) == 42


def test_function_round_trips_as_same_function():
    f = tvm_ffi.get_global_func("testing.add_one")
    assert echo(f).same_as(f)


def test_device_round_trips():
    dev = tvm_ffi.Device("cuda", 3)
    out = echo(dev)
    assert isinstance(out, tvm_ffi.Device)
    assert out == dev and out.index == 3


def test_dtype_round_trips():
    out = echo(tvm_ffi.dtype("float32x4"))
    assert isinstance(out, tvm_ffi.dtype)
    assert out == "float32x4" and out.lanes == 4


def test_c_void_p_round_trips_as_opaque_pointer():
    out = echo(ctypes.c_void_p(0x1234))
    assert isinstance(out, ctypes.c_void_p)
    assert out.value == 0x1234
    assert type_index(ctypes.c_void_p(1)) == 4


def test_exception_instance_becomes_error_object():
    err = ValueError("bad value")
    out = echo(err)
    assert isinstance(out, tvm_ffi.core.Error)
    assert out.kind == "ValueError" and out.message == "bad value"
    # py_error() gives back the exception the Error was made from.
    again = out.py_error()
    assert again is err and str(again) == "bad value"


def test_error_returned_from_cpp_is_an_error_object():
    out = tvm_ffi.get_global_func("testing.return_error")("IndexError", "out of range")
    assert isinstance(out, tvm_ffi.core.Error)
    assert (out.kind, out.message) == ("IndexError", "out of range")
    exc = out.py_error()
    assert isinstance(exc, IndexError) and str(exc) == "out of range"


def test_arbitrary_python_object_round_trips_as_same_object():
    class Thing:
        pass

    thing = Thing()
    assert echo(thing) is thing
    assert type_index(thing) == 74


def test_opaque_object_stays_alive_while_held_by_cpp():
    import gc
    import weakref

    class Thing:
        pass

    thing = Thing()
    ref = weakref.ref(thing)
    holder = echo([thing])
    del thing
    gc.collect()
    assert ref() is not None
    assert holder[0] is ref()
    del holder
    gc.collect()
    assert ref() is None


def test_convert_turns_values_into_ffi_objects():
    assert isinstance(tvm_ffi.convert([1, 2]), tvm_ffi.Array)
    assert isinstance(tvm_ffi.convert({"a": 1}), tvm_ffi.Map)
    assert isinstance(tvm_ffi.convert(lambda: 1), tvm_ffi.Function)
    assert tvm_ffi.convert("s") == "s"
    assert tvm_ffi.convert(5) == 5


def test_long_list_with_mixed_items_becomes_array():
    items = list(range(12)) + ["a string longer than a small one", b"b", None, 2.5, [1]]
    out = echo(items)
    assert isinstance(out, tvm_ffi.Array) and len(out) == len(items)
    assert list(out[:12]) == list(range(12))
    assert out[12] == items[12] and out[13] == b"b" and out[14] is None and out[15] == 2.5
    assert list(out[16]) == [1]


def _depth(value, step):
    depth = 0
    while len(value) > 0:
        value = step(value)
        depth += 1
    return depth


def test_list_nested_100000_deep_converts_to_nested_arrays():
    nested = []
    for _ in range(100_000):
        nested = [nested]
    out = echo(nested)
    assert isinstance(out, tvm_ffi.Array)
    assert _depth(out, lambda v: v[0]) == 100_000


def test_dict_nested_100000_deep_converts_to_nested_maps():
    nested = {}
    for _ in range(100_000):
        nested = {"k": nested}
    out = echo(nested)
    assert isinstance(out, tvm_ffi.Map)
    assert _depth(out, lambda v: v["k"]) == 100_000


def test_deep_mixed_nesting_keeps_every_item():
    nested = [1]
    for i in range(5_000):
        nested = ({"i": i, "next": nested}, "tail") if i % 2 else [nested, i]
    out = echo(nested)
    for i in reversed(range(5_000)):
        if i % 2:
            assert out[1] == "tail" and out[0]["i"] == i
            out = out[0]["next"]
        else:
            assert out[1] == i
            out = out[0]
    assert list(out) == [1]


def test_deeply_nested_lists_compare_and_hash_without_recursion_error():
    nested = [1]
    for _ in range(10_000):
        nested = [nested]
    a, b = tvm_ffi.convert(nested), tvm_ffi.convert(nested)
    assert a == b and hash(a) == hash(b)
    assert a == nested


def test_list_resized_during_conversion_raises_runtime_error():
    items = []

    class Shrinks:
        def __index__(self):
            items.clear()
            return 1

    items.extend([1, Shrinks(), 3])
    with pytest.raises(RuntimeError, match="changed size"):
        echo(items)


def test_many_arguments_beyond_stack_buffer():
    apply = tvm_ffi.get_global_func("testing.apply")
    args = list(range(20)) + ["s", b"b", [1]]
    out = apply(lambda *a: list(a), *args)
    assert list(out[:20]) == list(range(20))
    assert out[20] == "s" and out[21] == b"b" and list(out[22]) == [1]


def test_numpy_integer_scalar_converts_as_int():
    np = pytest.importorskip("numpy")
    out = echo(np.int64(7))
    assert type(out) is int and out == 7
    assert echo(np.float64(0.5)) == 0.5
