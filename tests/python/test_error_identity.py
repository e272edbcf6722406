"""A Python exception that crosses native code comes back as the same exception object.

The Error made from it keeps the exception; raising that Error in Python raises the
original object again (type, args, attributes, __cause__), with the native frames in front
of its traceback. C++ callers see the registered kind of its class or of the nearest
registered base class.
"""

import gc
import threading
import traceback
import weakref

import pytest
import tvm_ffi

apply = tvm_ffi.get_global_func("testing.apply")
call_and_catch = tvm_ffi.get_global_func("testing.call_and_catch")


def _exc_info(exc):
    """format_exception's arguments for exc (Python 3.9 takes no single-exception form)."""
    return type(exc), exc, exc.__traceback__


def _raiser(exc):
    def callback():
        raise exc

    return callback


class CodedError(Exception):
    def __init__(self, message, code):
        super().__init__(message)
        self.code = code


@pytest.mark.parametrize(
    "exc",
    [
        ZeroDivisionError("zd"),
        OSError(5, "io"),
        FileNotFoundError(2, "no such file", "x.txt"),
        StopIteration(5),
        CodedError("coded", 7),
        KeyboardInterrupt(),
        SystemExit(3),
    ],
    ids=lambda e: type(e).__name__,
)
def test_exception_from_callback_comes_back_as_the_same_object(exc):
    with pytest.raises(BaseException) as info:
        apply(_raiser(exc))
    assert info.value is exc


def test_keyboard_interrupt_from_callback_is_keyboard_interrupt():
    def callback():
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        apply(callback)


def test_user_exception_keeps_its_attributes():
    with pytest.raises(CodedError) as info:
        apply(_raiser(CodedError("coded", 7)))
    assert info.value.code == 7 and str(info.value) == "coded"


def test_file_not_found_keeps_errno_and_filename():
    with pytest.raises(FileNotFoundError) as info:
        apply(_raiser(FileNotFoundError(2, "no such file", "x.txt")))
    assert (info.value.errno, info.value.filename) == (2, "x.txt")


def test_exception_keeps_its_cause():
    def callback():
        try:
            raise KeyError("inner")
        except KeyError as inner:
            raise CodedError("outer", 1) from inner

    with pytest.raises(CodedError) as info:
        apply(callback)
    assert isinstance(info.value.__cause__, KeyError)


def test_exception_through_two_native_layers_is_the_same_object():
    exc = CodedError("deep", 2)

    def middle():
        return apply(_raiser(exc))

    with pytest.raises(CodedError) as info:
        apply(middle)
    assert info.value is exc


def test_traceback_lists_native_frame_between_caller_and_callback():
    def failing_callback():
        raise CodedError("tb", 0)

    try:
        apply(failing_callback)
    except CodedError:
        text = traceback.format_exc()
    assert text.index("apply(failing_callback)") < text.index("CallPacked")
    assert text.index("CallPacked") < text.index("in failing_callback")


def test_traceback_does_not_grow_when_an_error_is_raised_twice():
    try:
        raise CodedError("twice", 0)
    except CodedError as caught:
        err = tvm_ffi.convert(caught)
    first = len(traceback.format_exception(*_exc_info(err.py_error())))
    second = len(traceback.format_exception(*_exc_info(err.py_error())))
    assert first == second


def test_cpp_sees_nearest_registered_base_kind():
    class MyIndexError(IndexError):
        pass

    assert call_and_catch(_raiser(MyIndexError("i"))) == "IndexError: i"


def test_cpp_sees_runtime_error_kind_for_unregistered_hierarchy():
    assert call_and_catch(_raiser(ZeroDivisionError("z"))) == "RuntimeError: z"


def test_error_value_made_from_exception_gives_it_back():
    exc = CodedError("value", 3)
    err = tvm_ffi.convert(exc)
    assert isinstance(err, tvm_ffi.core.Error) and err.kind == "RuntimeError"
    assert err.py_error() is exc


def test_returned_error_value_raises_the_original_exception():
    exc = CodedError("returned", 4)
    err = tvm_ffi.get_global_func("testing.echo")(exc)
    with pytest.raises(CodedError) as info:
        raise err.py_error()
    assert info.value is exc


def test_exception_is_freed_after_crossing():
    class Tracked(Exception):
        pass

    def run():
        exc = Tracked("gone")
        ref = weakref.ref(exc)
        try:
            apply(_raiser(exc))
        except Tracked:
            pass
        return ref

    ref = run()
    gc.collect()
    assert ref() is None


def test_error_value_frees_the_exception_with_it():
    class Tracked(Exception):
        pass

    exc = Tracked("held")
    ref = weakref.ref(exc)
    err = tvm_ffi.convert(exc)
    del exc
    gc.collect()
    assert ref() is not None
    del err
    gc.collect()
    assert ref() is None


def test_exceptions_cross_from_many_threads():
    errors = []

    def worker(i):
        try:
            for _ in range(50):
                exc = CodedError("t%d" % i, i)
                try:
                    apply(_raiser(exc))
                except CodedError as err:
                    assert err is exc
        except BaseException as err:  # reported below
            errors.append(err)

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []


def test_error_from_native_thread_callback_reports_kind_and_message():
    in_thread = tvm_ffi.get_global_func("testing.call_in_native_thread")

    def callback(x):
        raise CodedError("in thread %d" % x, x)

    with pytest.raises(Exception, match="in thread 5"):
        in_thread(callback, 5)


def test_error_crossing_nested_callbacks_lists_each_level_once_in_its_backtrace():
    # Each crossing adds only the frames it crossed (what keeps a crossing O(1) at any
    # depth): every level's Python frame appears exactly once.
    def level(n):
        if n == 0:
            raise ValueError("bottom")
        return nested(n - 1)

    nested = tvm_ffi.convert(level)
    with pytest.raises(ValueError) as info:
        nested(5)
    backtrace = tvm_ffi.convert(info.value).backtrace
    assert backtrace.count(", in level\n") == 6


def test_error_crossing_many_nested_callbacks_keeps_its_identity():
    sentinel = KeyError("deep")

    def level(n):
        if n == 0:
            raise sentinel
        return nested(n - 1)

    nested = tvm_ffi.convert(level)
    with pytest.raises(KeyError) as info:
        nested(300)
    assert info.value is sentinel
