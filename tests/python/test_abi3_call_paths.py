"""Paths that the stable-ABI (abi3) build of tvm_ffi.core takes in place of a fast path of the
version-specific build (python/tvm_ffi/cython/tvm_ffi_limited_api.h): calls through tp_call,
tuple arguments copied to an array, type names rebuilt for error messages, and the
interpreter-finalizing check found at run time. Both builds must behave the same, so these run
under either (tests/ci/python_versions.sh runs the abi3 wheel under every 3.12+)."""

import ctypes
import subprocess
import sys

import pytest
import tvm_ffi


def _array():
    return tvm_ffi.get_global_func("ffi.Array")


def test_call_through_tp_call_converts_every_fast_path_type():
    obj = tvm_ffi.convert([1])
    out = tvm_ffi.Function.__call__(_array(), 1, 2.5, True, None, "s", obj)
    assert list(out[:5]) == [1, 2.5, True, None, "s"]
    assert out[5].same_as(obj)


def test_call_through_tp_call_with_more_arguments_than_inline_storage():
    args = list(range(20))
    assert list(tvm_ffi.Function.__call__(_array(), *args)) == args


def test_call_through_tp_call_with_general_path_arguments():
    out = tvm_ffi.Function.__call__(_array(), [1, 2], {"k": 3}, 1)
    assert list(out[0]) == [1, 2] and out[1]["k"] == 3 and out[2] == 1


def test_call_through_tp_call_rejects_keyword_arguments():
    with pytest.raises(TypeError, match="keyword argument"):
        tvm_ffi.Function.__call__(_array(), 1, x=2)


def test_call_through_tp_call_of_a_python_callback():
    f = tvm_ffi.convert(lambda *xs: sum(xs))
    assert tvm_ffi.Function.__call__(f, *range(12)) == sum(range(12))


def test_dict_argument_with_many_items_becomes_a_map():
    d = {"k%d" % i: i for i in range(12)}
    out = tvm_ffi.convert(d)
    assert len(out) == 12 and all(out["k%d" % i] == i for i in range(12))


def test_constructor_with_many_arguments_through_init_handle():
    class Holder(tvm_ffi.Object):
        def __init__(self, *items):
            self.__init_handle_by_constructor__(_array(), *items)

    h = Holder(*range(10))
    # Passed back through the runtime, the handle comes out as the Array it is.
    assert list(_array()(h)[0]) == list(range(10))


def _capsule(name):
    new = ctypes.pythonapi.PyCapsule_New
    new.restype = ctypes.py_object
    new.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]
    return new(ctypes.c_void_p(1), name, None)


def test_exchange_error_names_the_producer_class_and_attribute_type():
    class MyTensor:
        __dlpack_c_exchange_api__ = "not a table"

    with pytest.raises(ValueError, match=r"^MyTensor\.__dlpack_c_exchange_api__: .* got str$"):
        _array()(MyTensor())


def test_exchange_error_names_a_wrongly_named_capsule():
    name = b"not_the_exchange_api"

    class OtherTensor:
        __dlpack_c_exchange_api__ = _capsule(name)

    with pytest.raises(
        TypeError,
        match=r"^OtherTensor\.__dlpack_c_exchange_api__ is a capsule "
        r"named 'not_the_exchange_api'",
    ):
        _array()(OtherTensor())


def test_python_callbacks_held_by_the_runtime_survive_interpreter_exit():
    # The runtime still holds Python callables (a global function, an Array of Functions) when
    # the interpreter finalizes: their deleters must leave them alone rather than crash.
    code = (
        "import tvm_ffi\n"
        "tvm_ffi.register_global_func('testing.abi3.exit_hold', lambda x: x, override=True)\n"
        "keep = tvm_ffi.convert([tvm_ffi.convert(lambda: 1) for _ in range(3)])\n"
        "print(tvm_ffi.get_global_func('testing.abi3.exit_hold')(7))\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "7"
    assert proc.stderr == ""
