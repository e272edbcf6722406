"""tvm_ffi.error.TracebackManager: traceback entries for native frames."""

import traceback
import types

import pytest
from tvm_ffi import error


def test_module_has_one_shared_manager():
    assert isinstance(error._TRACEBACK_MANAGER, error.TracebackManager)


def test_append_traceback_entry_names_the_native_location():
    tb = error.TracebackManager().append_traceback(None, "/src/a.cc", 12, "foo")
    assert isinstance(tb, types.TracebackType)
    assert (tb.tb_frame.f_code.co_filename, tb.tb_lineno, tb.tb_frame.f_code.co_name) == (
        "/src/a.cc",
        12,
        "foo",
    )
    assert tb.tb_next is None


def test_append_traceback_places_the_new_frame_as_caller():
    manager = error.TracebackManager()
    inner = manager.append_traceback(None, "a.cc", 1, "inner")
    outer = manager.append_traceback(inner, "b.cc", 2, "outer")
    assert outer.tb_next is inner


def test_code_objects_are_cached_per_location():
    manager = error.TracebackManager()
    first = manager._get_cached_code_object("a.cc", 3, "f")
    assert manager._get_cached_code_object("a.cc", 3, "f") is first
    assert manager._get_cached_code_object("a.cc", 4, "f") is not first
    assert first.co_name == "f" and first.co_filename == "a.cc"


def test_create_frame_runs_the_cached_code():
    manager = error.TracebackManager()
    frame = manager._create_frame("x.cc", 5, "ns::f<int>(int)")
    assert frame.f_code is manager._get_cached_code_object("x.cc", 5, "ns::f<int>(int)")


def test_unknown_location_line_zero_is_accepted():
    tb = error.TracebackManager().append_traceback(None, "<unknown>", 0, "<unknown>")
    assert tb.tb_lineno == 0


def test_negative_line_is_value_error():
    with pytest.raises(ValueError, match="lineno"):
        error.TracebackManager().append_traceback(None, "a.cc", -1, "f")


def test_non_traceback_tail_is_type_error():
    with pytest.raises(TypeError, match="tb must be a traceback"):
        error.TracebackManager().append_traceback("tb", "a.cc", 1, "f")


def test_synthetic_frames_print_in_format_exception():
    exc = error._with_append_backtrace(RuntimeError("x"), 'File "k.cc", line 9, in kernel\n')
    text = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
    assert 'File "k.cc", line 9, in kernel' in text


def test_with_append_backtrace_without_frames_keeps_the_traceback():
    exc = RuntimeError("y")
    assert error._with_append_backtrace(exc, "no frame lines\n").__traceback__ is None


def test_native_error_traceback_ends_in_the_native_frame():
    import tvm_ffi.testing

    throw = tvm_ffi.get_global_func("testing.throw_error")
    with pytest.raises(ValueError) as info:
        throw("ValueError", "boom")
    last = traceback.extract_tb(info.value.__traceback__)[-1]
    assert last.filename.endswith("testing.cc")
