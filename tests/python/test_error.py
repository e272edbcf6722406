"""Errors across the boundary: kind mapping, native frames, Python exceptions round trips."""

import traceback

import pytest
import tvm_ffi

throw_error = tvm_ffi.get_global_func("testing.throw_error")
apply = tvm_ffi.get_global_func("testing.apply")

MAPPED_KINDS = [
    ("RuntimeError", RuntimeError),
    ("ValueError", ValueError),
    ("TypeError", TypeError),
    ("AttributeError", AttributeError),
    ("KeyError", KeyError),
    ("IndexError", IndexError),
    ("AssertionError", AssertionError),
    ("MemoryError", MemoryError),
]


@pytest.mark.parametrize("kind,cls", MAPPED_KINDS)
def test_cpp_error_kind_maps_to_python_exception(kind, cls):
    with pytest.raises(cls) as info:
        throw_error(kind, "message of " + kind)
    assert type(info.value) is cls
    assert "message of " + kind in str(info.value)


def test_unknown_kind_becomes_runtime_error_with_the_message():
    with pytest.raises(RuntimeError) as info:
        throw_error("WeirdKind", "odd message")
    assert type(info.value) is RuntimeError and str(info.value) == "odd message"
    assert info.value.__tvm_ffi_error__.kind == "WeirdKind"


@pytest.mark.parametrize("kind", ["NotImplementedError", "OverflowError", "ZeroDivisionError"])
def test_kinds_not_registered_by_default_become_runtime_error(kind):
    with pytest.raises(RuntimeError) as info:
        throw_error(kind, "msg")
    assert type(info.value) is RuntimeError and str(info.value) == "msg"


def test_raised_exception_carries_the_error_object():
    with pytest.raises(ValueError) as info:
        throw_error("ValueError", "carried")
    err = info.value.__tvm_ffi_error__
    assert isinstance(err, tvm_ffi.core.Error)
    assert (err.kind, err.message) == ("ValueError", "carried")


def test_unregistered_python_exception_is_runtime_error_kind_in_cpp():
    call_and_catch = tvm_ffi.get_global_func("testing.call_and_catch")

    class Unregistered(Exception):
        pass

    def callback():
        raise Unregistered("mine")

    assert call_and_catch(callback) == "RuntimeError: mine"


def test_register_error_call_adds_mapping():
    class CustomError(Exception):
        pass

    tvm_ffi.register_error("CustomKindForCall", CustomError)
    with pytest.raises(CustomError, match="custom"):
        throw_error("CustomKindForCall", "custom")


def test_register_error_as_decorator_uses_kind():
    @tvm_ffi.register_error("DecoratedKind")
    class DecoratedError(Exception):
        pass

    with pytest.raises(DecoratedError, match="deco"):
        throw_error("DecoratedKind", "deco")


def test_register_error_bare_decorator_uses_class_name():
    @tvm_ffi.register_error
    class BareNamedError(Exception):
        pass

    with pytest.raises(BareNamedError):
        throw_error("BareNamedError", "bare")


def test_native_frames_appear_in_traceback_after_python_frames():
    f = tvm_ffi.get_global_func("testing.throw_value_error_nested")
    try:
        f(2)
    except ValueError:
        text = traceback.format_exc()
    lines = text.splitlines()
    native = [i for i, line in enumerate(lines) if 'testing.cc", line' in line]
    this_test = [i for i, line in enumerate(lines) if "test_native_frames_appear" in line]
    assert native, text
    assert this_test and this_test[0] < native[0]
    assert "ThrowValueErrorInner" in text


def test_native_frames_do_not_repeat_python_interpreter_frames():
    try:
        tvm_ffi.get_global_func("testing.throw_value_error_nested")(0)
    except ValueError:
        text = traceback.format_exc()
    assert "_PyEval_EvalFrameDefault" not in text
    assert "Py_BytesMain" not in text


@pytest.mark.parametrize(
    "cls",
    [
        ValueError,
        TypeError,
        IndexError,
        AttributeError,
        RuntimeError,
        AssertionError,
    ],
)
def test_callback_exception_of_registered_kind_comes_back_as_that_class(cls):
    def callback():
        raise cls("from python callback")

    with pytest.raises(cls) as info:
        apply(callback)
    assert type(info.value) is cls and str(info.value) == "from python callback"


@pytest.mark.parametrize("cls", [NotImplementedError, ZeroDivisionError, LookupError])
def test_callback_exception_of_unregistered_class_comes_back_as_that_class(cls):
    def callback():
        raise cls("not registered")

    with pytest.raises(cls) as info:
        apply(callback)
    assert type(info.value) is cls and str(info.value) == "not registered"


@pytest.mark.parametrize("cls", [NotImplementedError, ZeroDivisionError, LookupError])
def test_cpp_sees_unregistered_class_as_runtime_error_kind(cls):
    call_and_catch = tvm_ffi.get_global_func("testing.call_and_catch")

    def callback():
        raise cls("not registered")

    assert call_and_catch(callback) == "RuntimeError: not registered"


def test_callback_exception_comes_back_as_the_same_object():
    exc = ValueError("fresh")

    def callback():
        raise exc

    with pytest.raises(ValueError) as info:
        apply(callback)
    assert info.value is exc
    # No reference back to the Error: it holds the exception (an uncollectable cycle).
    assert not hasattr(info.value, "__tvm_ffi_error__")


def test_custom_exception_class_comes_back_as_itself_with_its_message():
    class MyOwnError(Exception):
        pass

    def callback():
        raise MyOwnError("mine")

    with pytest.raises(MyOwnError, match="^mine$"):
        apply(callback)


def test_cpp_sees_subclass_of_a_registered_class_as_its_base_kind():
    call_and_catch = tvm_ffi.get_global_func("testing.call_and_catch")

    class MyValueError(ValueError):
        pass

    def callback():
        raise MyValueError("sub")

    assert call_and_catch(callback) == "ValueError: sub"


def test_subclass_of_a_registered_class_comes_back_as_itself():
    class MyValueError(ValueError):
        pass

    def callback():
        raise MyValueError("sub")

    with pytest.raises(MyValueError, match="^sub$"):
        apply(callback)


def test_callback_exception_keeps_its_args():
    def callback():
        raise ValueError(1, 2)

    with pytest.raises(ValueError) as info:
        apply(callback)
    assert info.value.args == (1, 2)


def test_cpp_sees_str_of_the_exception_as_message():
    call_and_catch = tvm_ffi.get_global_func("testing.call_and_catch")

    def callback():
        raise ValueError(1, 2)

    assert call_and_catch(callback) == "ValueError: (1, 2)"


def test_key_error_keeps_its_key_after_a_round_trip():
    def callback():
        raise KeyError("k")

    with pytest.raises(KeyError) as info:
        apply(callback)
    assert info.value.args == ("k",)


def test_cpp_sees_key_error_message_quoted():
    call_and_catch = tvm_ffi.get_global_func("testing.call_and_catch")

    def callback():
        raise KeyError("k")

    assert call_and_catch(callback) == "KeyError: 'k'"


def test_nested_chain_keeps_exception_type_message_and_frames():
    add_one = tvm_ffi.get_global_func("testing.add_one")

    def innermost():
        raise IndexError("deep")

    def middle():
        return apply(innermost)

    def outer():
        return add_one(apply(middle))

    try:
        apply(outer)
    except IndexError as err:
        assert err.args == ("deep",)
        text = traceback.format_exc()
    else:
        pytest.fail("no IndexError")
    assert text.index("outer") < text.index("middle") < text.index("innermost")


def test_error_crossing_python_twice_lists_each_python_frame_once():
    def innermost():
        raise IndexError("deep")

    def middle():
        return apply(innermost)

    with pytest.raises(IndexError) as info:
        apply(middle)
    text = "".join(
        traceback.format_exception(type(info.value), info.value, info.value.__traceback__)
    )
    assert text.count("in innermost") == 1 and text.count("in middle") == 1


def test_cpp_error_through_python_callback_keeps_kind():
    def callback():
        throw_error("UnregisteredKind", "kept")

    with pytest.raises(RuntimeError, match="kept") as info:
        apply(callback)
    assert info.value.__tvm_ffi_error__.kind == "UnregisteredKind"


def test_native_error_traceback_of_callback_shows_python_frame():
    def failing_callback():
        raise ValueError("cb")

    try:
        apply(failing_callback)
    except ValueError:
        text = traceback.format_exc()
    assert "failing_callback" in text


def test_cpp_sees_python_exception_class_name_as_kind():
    call_and_catch = tvm_ffi.get_global_func("testing.call_and_catch")

    def callback():
        raise IndexError("bad index 7")

    assert call_and_catch(callback) == "IndexError: bad index 7"


def test_cpp_sees_registered_kind_of_python_exception():
    call_and_catch = tvm_ffi.get_global_func("testing.call_and_catch")

    @tvm_ffi.register_error("MyRegisteredKind")
    class RegisteredError(Exception):
        pass

    def callback():
        raise RegisteredError("registered")

    assert call_and_catch(callback) == "MyRegisteredKind: registered"


def test_cpp_sees_original_kind_of_cpp_error_passing_through_python():
    call_and_catch = tvm_ffi.get_global_func("testing.call_and_catch")

    def callback():
        throw_error("OriginalKind", "through python")

    assert call_and_catch(callback) == "OriginalKind: through python"


def test_native_source_line_printed_without_caret_markers():
    try:
        tvm_ffi.get_global_func("testing.throw_value_error_nested")(0)
    except ValueError:
        lines = traceback.format_exc().splitlines()
    idx = [i for i, line in enumerate(lines) if 'testing.cc", line' in line][0]
    following = lines[idx + 2] if idx + 2 < len(lines) else ""
    assert not set(following.strip()) <= set("^~") or not following.strip()


def test_native_frame_on_an_unindented_source_line_is_built(tmp_path):
    # A backtrace may point at a line with no indentation (e.g. a function at
    # file scope of a library); building its Python frame must not fail.
    src = tmp_path / "lib.cc"
    src.write_text("int f();\nint g() { return f(); }\n")
    code, first_line = tvm_ffi.core._native_frame_code(str(src), 2)
    assert first_line == 1
    with pytest.raises(NameError):
        exec(code, {})


def test_native_frame_named_after_a_binary_file_is_built(tmp_path):
    # Frames without source info carry the shared library's path; reading it
    # as source must not fail (Python 3.9's linecache raises on binary files).
    lib = tmp_path / "libthing.so"
    lib.write_bytes(b"\x7fELF\x02\x01\x01\x03" + bytes(range(128, 256)) + b"\n" * 4)
    code, _ = tvm_ffi.core._native_frame_code(str(lib), 3)
    # What a traceback printer does with the frame: read its line, no error.
    import linecache

    assert linecache.getline(code.co_filename, 3) == ""


# ---- __tvm_ffi_error__ on exceptions raised by C++ --------------------------------------------


@pytest.mark.parametrize(
    "kind,cls",
    [("ValueError", ValueError), ("NotImplementedError", RuntimeError), ("Odd", RuntimeError)],
)
def test_cpp_raised_exception_carries_its_ffi_error_with_the_cpp_kind(kind, cls):
    raise_error = tvm_ffi.get_global_func("testing.test_raise_error")
    with pytest.raises(cls) as info:
        raise_error(kind, "msg")
    err = info.value.__tvm_ffi_error__
    assert isinstance(err, tvm_ffi.core.Error)
    assert (err.kind, err.message) == (kind, "msg")


def test_argument_mismatch_raised_by_cpp_carries_its_ffi_error():
    with pytest.raises(TypeError) as info:
        tvm_ffi.get_global_func("testing.add_one")("x")
    assert info.value.__tvm_ffi_error__.kind == "TypeError"


def test_python_side_lookup_error_carries_no_ffi_error():
    with pytest.raises(ValueError, match="Cannot find global function") as info:
        tvm_ffi.get_global_func("testing.no_such_function")
    assert not hasattr(info.value, "__tvm_ffi_error__")
