"""The C fast path of calls gives what the general path gives.

Lists and tuples of plain values (ints, floats, bools, None, strs) become their Array in place,
and plain functions passed as callbacks are wrapped and called back without Cython in between
(tvm_ffi_vectorcall.h, tvm_ffi_array_builder.h). Every other argument or result takes the
general path; these tests pin that both paths agree, including on errors.
"""

import sys

import pytest
import tvm_ffi

echo = tvm_ffi.get_global_func("testing.echo")
apply = tvm_ffi.get_global_func("testing.apply")
arr_int = tvm_ffi.get_global_func("testing.schema_id_arr_int")
arr_str = tvm_ffi.get_global_func("testing.schema_id_arr_str")


def test_list_of_ints_becomes_array():
    out = echo([1, 2, 3])
    assert isinstance(out, tvm_ffi.Array) and list(out) == [1, 2, 3]


def test_tuple_of_plain_values_becomes_array():
    assert list(echo((1, 2.5, True, None, "s"))) == [1, 2.5, True, None, "s"]


def test_empty_list_becomes_empty_array():
    out = echo([])
    assert isinstance(out, tvm_ffi.Array) and len(out) == 0


def test_bools_stay_bools_in_array():
    assert [type(x) for x in echo([True, False])] == [bool, bool]


def test_long_and_short_strs_both_round_trip():
    long_text = "a string longer than seven bytes"
    assert list(echo(["ab", long_text, ""])) == ["ab", long_text, ""]


def test_int_beyond_int64_in_list_is_kept_exactly():
    big = 2**70
    assert list(echo([1, big])) == [1, big]


def test_list_mixing_plain_values_and_objects_becomes_array():
    inner = tvm_ffi.Array([7])
    out = echo([1, inner, "x"])
    assert out[0] == 1 and out[1].same_as(inner) and out[2] == "x"


def test_nested_lists_become_nested_arrays():
    assert [list(x) for x in echo([[1, 2], [3]])] == [[1, 2], [3]]


def test_typed_array_parameter_takes_list_of_ints():
    assert list(arr_int([4, 5, 6])) == [4, 5, 6]


def test_typed_array_parameter_names_the_mismatched_element():
    with pytest.raises(TypeError, match="Array"):
        arr_int([1, "two"])


def test_typed_str_array_parameter_takes_list_of_strs():
    assert list(arr_str(["x", "a longer string here"])) == ["x", "a longer string here"]


def test_lone_surrogate_in_list_raises_unicode_error():
    with pytest.raises(UnicodeEncodeError):
        echo(["ok", "\ud800"])


def test_list_argument_is_not_changed_by_the_call():
    items = [1, 2, 3]
    echo(items)
    assert items == [1, 2, 3]


def test_list_argument_holds_no_reference_after_the_call():
    items = [1000001, 1000002]
    first = items[0]
    before = sys.getrefcount(first)
    for _ in range(100):
        echo(items)
    after = sys.getrefcount(first)
    assert after == before


def test_callback_with_int_argument_returns_its_result():
    assert apply(lambda x: x * 2, 21) == 42


def test_plain_function_callback_returns_its_result():
    def double(x):
        return x * 2

    assert apply(double, 4) == 8


def test_callback_receives_plain_values_as_python_values():
    seen = []

    def record(*args):
        seen.extend(args)

    apply(record, 1, 2.5, True, None, "short")
    assert seen == [1, 2.5, True, None, "short"]
    assert type(seen[2]) is bool


def test_callback_receives_objects_through_the_general_path():
    arr = tvm_ffi.Array([1, 2])
    assert apply(lambda a: a, arr).same_as(arr)


def test_callback_receives_long_string():
    text = "a string longer than seven bytes"
    assert apply(lambda s: s + "!", text) == text + "!"


def test_callback_returning_a_list_gives_an_array():
    out = apply(lambda: [1, 2])
    assert list(out) == [1, 2]


def test_callback_returning_an_int_beyond_int64_is_kept_exactly():
    assert apply(lambda: 2**80) == 2**80


def test_callback_with_many_arguments():
    assert apply(lambda *a: sum(a), *range(12)) == sum(range(12))


def test_callback_exception_keeps_its_type_and_identity():
    err = ZeroDivisionError("boom")

    def fail(x):
        raise err

    with pytest.raises(ZeroDivisionError) as info:
        apply(fail, 1)
    assert info.value is err


def test_callback_returning_a_plain_python_object_gives_it_back():
    value = object()
    assert apply(lambda: value) is value


def test_callback_result_that_fails_to_convert_raises_its_error():
    with pytest.raises(UnicodeEncodeError):
        apply(lambda: "\ud800")


def test_callback_wrapper_is_released_after_the_call():
    def cb(x):
        return x

    before = sys.getrefcount(cb)
    for _ in range(100):
        apply(cb, 1)
    after = sys.getrefcount(cb)
    assert after == before


def test_callback_kept_by_callee_stays_callable():
    keep = tvm_ffi.get_global_func("testing.echo")

    def cb(x):
        return x + 1

    f = keep(cb)
    del cb
    assert f(1) == 2


def test_callback_kept_by_callee_holds_the_callable_until_released():
    def cb(x):
        return x

    before = sys.getrefcount(cb)
    f = echo(cb)
    assert sys.getrefcount(cb) == before + 1
    del f
    assert sys.getrefcount(cb) == before


def test_callback_kept_by_callee_survives_later_callbacks():
    kept = echo(lambda x: x + 1)
    for _ in range(3):
        assert apply(lambda x: x * 10, 2) == 20
    assert kept(1) == 2
    assert apply(kept, 5) == 6


def test_converted_callable_holds_the_callable_until_released():
    def cb(x):
        return x * 2

    before = sys.getrefcount(cb)
    f = tvm_ffi.convert(cb)
    assert f(4) == 8
    assert sys.getrefcount(cb) == before + 1
    del f
    assert sys.getrefcount(cb) == before
