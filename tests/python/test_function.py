"""Functions across the boundary: calls, callbacks, registry, GIL release."""

import threading

import pytest
import tvm_ffi

apply = tvm_ffi.get_global_func("testing.apply")
call_global = tvm_ffi.get_global_func("testing.call_global")


def test_typed_cpp_function_rejects_short_bytes_as_small_bytes():
    # python_api.md §3.1 row 21: bytes cross as Bytes, SmallBytes up to 7 bytes.
    with pytest.raises(TypeError, match=r"Expected `int` but got `ffi\.SmallBytes`$"):
        tvm_ffi.get_global_func("testing.add_one")(b"x")


def test_typed_cpp_function_rejects_long_bytes_as_bytes():
    # Longer bytes are lent as a byte array view, but named as the Bytes object the spec passes.
    add_one = tvm_ffi.get_global_func("testing.add_one")
    with pytest.raises(TypeError, match=r"argument #0 .* Expected `int` but got `ffi\.Bytes`$"):
        add_one(b"bytes longer than seven")


def test_long_bytes_mismatch_at_a_later_argument_is_named_bytes():
    get_item = tvm_ffi.get_global_func("ffi.ArrayGetItem")
    with pytest.raises(TypeError, match=r"argument #1 .* but got `ffi\.Bytes`$"):
        get_item(tvm_ffi.convert([1]), b"bytes longer than seven")


def test_long_bytes_mismatch_on_the_general_path_is_named_bytes():
    # A list argument sends the call through the general path (convert.pxi).
    get_item = tvm_ffi.get_global_func("ffi.ArrayGetItem")
    with pytest.raises(TypeError, match=r"argument #1 .* but got `ffi\.Bytes`$"):
        get_item([1], b"bytes longer than seven")


@pytest.mark.parametrize("value", [b"abc", b"bytes longer than seven"])
def test_bytes_parameter_accepts_short_and_long_bytes(value):
    assert tvm_ffi.get_global_func("ffi.Bytes")(value) == value


def test_cpp_function_called_from_python():
    assert tvm_ffi.get_global_func("testing.add_one")(41) == 42


def test_typed_cpp_function_rejects_short_str_as_small_str():
    # python_api.md §3.1 row 20: the found type is that of a String, a SmallStr up to 7 bytes.
    with pytest.raises(TypeError, match=r"Expected `int` but got `ffi\.SmallStr`$"):
        tvm_ffi.get_global_func("testing.add_one")("x")


def test_typed_cpp_function_rejects_long_str_as_string():
    # A longer str is lent as a C string view, but named as the Str object the spec passes.
    add_one = tvm_ffi.get_global_func("testing.add_one")
    with pytest.raises(TypeError, match=r"argument #0 .* Expected `int` but got `ffi\.String`$"):
        add_one("a string longer than seven bytes")
    with pytest.raises(TypeError, match=r"Expected `int` but got `ffi\.String`$"):
        add_one("with a NUL \0 in it")


def test_long_str_mismatch_at_a_later_argument_is_named_string():
    get_item = tvm_ffi.get_global_func("ffi.ArrayGetItem")
    with pytest.raises(TypeError, match=r"argument #1 .* but got `ffi\.String`$"):
        get_item(tvm_ffi.convert([1]), "a string longer than seven bytes")


def test_cpp_calls_python_callback_with_converted_args():
    seen = []

    def callback(*args):
        seen.append(args)
        return "done"

    assert apply(callback, 1, 2.5, "s", None, True) == "done"
    assert seen == [(1, 2.5, "s", None, True)]


def test_callback_returning_containers_and_objects():
    out = apply(lambda: [1, {"a": 2}])
    assert out[0] == 1 and out[1]["a"] == 2


def test_callback_result_python_object_round_trips():
    marker = object()
    assert apply(lambda: marker) is marker


def test_nested_python_cpp_python_cpp_chain():
    add_one = tvm_ffi.get_global_func("testing.add_one")

    def inner(x):
        return add_one(x)

    def outer(x):
        return apply(inner, x) * 10

    assert apply(outer, 4) == 50


def test_every_function_releases_the_gil_by_default():
    f = tvm_ffi.Function(lambda: 1)
    assert f.release_gil is True
    assert tvm_ffi.get_global_func("testing.echo").release_gil is True
    assert f() == 1


def test_function_constructor_rejects_non_callable():
    with pytest.raises(TypeError, match="callable"):
        tvm_ffi.Function(3)


def test_register_global_func_as_call_visible_to_cpp():
    tvm_ffi.register_global_func("testing_py.mul2", lambda x: x * 2, override=True)
    assert call_global("testing_py.mul2", 8) == 16
    assert tvm_ffi.remove_global_func("testing_py.mul2") is None
    assert tvm_ffi.get_global_func("testing_py.mul2", allow_missing=True) is None


def test_register_global_func_as_decorator():
    @tvm_ffi.register_global_func("testing_py.concat", override=True)
    def concat(a, b):
        return a + b

    assert concat("a", "b") == "ab"
    assert tvm_ffi.get_global_func("testing_py.concat")("x", "y") == "xy"
    tvm_ffi.remove_global_func("testing_py.concat")


def test_register_existing_name_without_override_raises():
    tvm_ffi.register_global_func("testing_py.once", lambda: 1, override=True)
    with pytest.raises(Exception, match="testing_py.once"):
        tvm_ffi.register_global_func("testing_py.once", lambda: 2)
    tvm_ffi.remove_global_func("testing_py.once")


def test_get_missing_global_func_raises_value_error_naming_it():
    with pytest.raises(ValueError, match="^Cannot find global function no.such.function$"):
        tvm_ffi.get_global_func("no.such.function")


def test_get_missing_global_func_allow_missing_returns_none():
    assert tvm_ffi.get_global_func("no.such.function", allow_missing=True) is None


def test_list_global_func_names_contains_cpp_and_python_functions():
    tvm_ffi.register_global_func("testing_py.listed", lambda: 0, override=True)
    names = tvm_ffi.registry.list_global_func_names()
    assert "testing.echo" in names and "testing_py.listed" in names
    tvm_ffi.remove_global_func("testing_py.listed")
    assert "testing_py.listed" not in tvm_ffi.registry.list_global_func_names()


def test_ffi_string_global_returns_its_str_argument():
    f = tvm_ffi.get_global_func("ffi.String")
    assert f("abc") == "abc"
    long_text = "x" * 100
    assert f(long_text) == long_text
    assert isinstance(f(long_text), str)


def test_ffi_string_global_rejects_a_non_str():
    f = tvm_ffi.get_global_func("ffi.String")
    with pytest.raises(TypeError, match=r"argument #0 .*ffi\.String.*Expected `str` but got `int`"):
        f(1)
    with pytest.raises(TypeError, match="Expected 1 but got 0 arguments"):
        f()


def test_ffi_bytes_global_returns_its_bytes_argument():
    f = tvm_ffi.get_global_func("ffi.Bytes")
    assert f(b"a\x00b") == b"a\x00b"
    assert f(bytearray(b"xy")) == b"xy"


def test_ffi_bytes_global_rejects_a_str():
    with pytest.raises(TypeError, match=r"argument #0 .*ffi\.Bytes.*Expected `bytes`"):
        tvm_ffi.get_global_func("ffi.Bytes")("abc")


def test_remove_missing_global_func_is_ignored():
    assert tvm_ffi.remove_global_func("testing_py.never_registered") is None


def test_global_func_metadata_is_parsed_json():
    meta = tvm_ffi.get_global_func_metadata("testing.echo")
    assert isinstance(meta, dict)
    assert "type_schema" in meta


def test_init_ffi_api_populates_module_attributes():
    import sys
    import types

    mod = types.ModuleType("testing_fake_api")
    sys.modules["testing_fake_api"] = mod
    try:
        tvm_ffi.init_ffi_api("testing", "testing_fake_api")
        assert mod.add_one(1) == 2
    finally:
        del sys.modules["testing_fake_api"]


def test_gil_released_during_native_call_lets_two_threads_meet():
    barrier_wait = tvm_ffi.get_global_func("testing.barrier_wait")
    results = []

    def worker():
        results.append(barrier_wait(5000))

    thread = threading.Thread(target=worker)
    thread.start()
    results.append(barrier_wait(5000))
    thread.join()
    assert results == [True, True]


def test_barrier_wait_times_out_alone():
    assert tvm_ffi.get_global_func("testing.barrier_wait")(50) is False


def test_callbacks_from_native_threads_in_parallel():
    add_one = tvm_ffi.get_global_func("testing.add_one")
    out = []

    def worker(i):
        out.append(apply(lambda x: add_one(x), i))

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(out) == list(range(1, 9))


def test_pending_signal_in_native_code_raises_keyboard_interrupt():
    f = tvm_ffi.get_global_func("testing.raise_sigint_and_check_signals")
    with pytest.raises(KeyboardInterrupt):
        f()


def test_python_callback_called_from_native_thread():
    call_in_thread = tvm_ffi.get_global_func("testing.call_in_native_thread")
    seen = []

    def callback(x):
        seen.append(threading.get_ident())
        return x * 3

    assert call_in_thread(callback, 5) == 15
    assert seen and seen[0] != threading.get_ident()


def test_python_callback_error_in_native_thread_reaches_cpp():
    call_in_thread = tvm_ffi.get_global_func("testing.call_in_native_thread")

    def callback(x):
        raise ValueError("thread failure %d" % x)

    with pytest.raises(RuntimeError, match="ValueError: thread failure 3"):
        call_in_thread(callback, 3)


def test_keyword_arguments_rejected_with_their_name():
    add_one = tvm_ffi.get_global_func("testing.add_one")
    with pytest.raises(TypeError, match="keyword argument 'x'"):
        add_one(x=1)


def test_calls_mixing_plain_and_other_arguments_convert_all():
    # Scalars take the C fast path; a list or a dict in any position sends the
    # whole call through the general path, which must see every argument.
    echo_all = tvm_ffi.get_global_func("testing.apply")
    result = echo_all(lambda *args: list(args), 1, "s", None, [1, 2], 2.5, {"k": 1})
    assert result[0] == 1 and result[1] == "s" and result[2] is None
    assert list(result[3]) == [1, 2] and result[4] == 2.5 and dict(result[5]) == {"k": 1}


def test_empty_function_call_raises_value_error():
    f = tvm_ffi.Function.__new__(tvm_ffi.Function)
    with pytest.raises(ValueError, match="empty"):
        f(1)


def test_release_gil_setting_applies_to_fast_path_calls():
    add_one = tvm_ffi.get_global_func("testing.add_one")
    add_one.release_gil = False
    assert add_one(41) == 42
    add_one.release_gil = True
    assert add_one(41) == 42


def test_result_objects_come_back_through_the_fast_path():
    echo = tvm_ffi.get_global_func("testing.echo")
    arr = tvm_ffi.Array([1, 2])
    assert echo(arr).same_as(arr)
    assert echo("a longer string than the small-string buffer") == (
        "a longer string than the small-string buffer"
    )


def test_function_init_again_is_refused_and_keeps_the_function():
    f = tvm_ffi.Function(lambda: 1)
    with pytest.raises(TypeError, match="already holds an object"):
        f.__init__(lambda: 2)
    assert f() == 1
