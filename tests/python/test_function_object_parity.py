"""Function, Object, Error and registry behaviours of the reference package."""

import ctypes
import os
import pickle
import subprocess
import sys
import types

import pytest
import tvm_ffi
from tvm_ffi import core

echo = tvm_ffi.get_global_func("testing.echo")

# TVMFFIAny: int32 type_index, uint32 padding, 8-byte value.
_SAFE_CALL = ctypes.CFUNCTYPE(
    ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int32, ctypes.c_void_p
)
_K_INT = 1


def _read_int_arg(args, i):
    return ctypes.c_int64.from_address(args + 16 * i + 8).value


def _write_int_result(result, value):
    ctypes.c_int32.from_address(result).value = _K_INT
    ctypes.c_uint32.from_address(result + 4).value = 0
    ctypes.c_int64.from_address(result + 8).value = value


@_SAFE_CALL
def _add_one_safe_call(handle, args, num_args, result):
    _write_int_result(result, _read_int_arg(args, 0) + 1)
    return 0


_MLIR_PACKED = ctypes.CFUNCTYPE(None, ctypes.POINTER(ctypes.c_void_p))


@_MLIR_PACKED
def _mlir_times_two(packed):
    args = ctypes.c_void_p.from_address(packed[1]).value
    num_args = ctypes.c_int32.from_address(packed[2]).value
    result = ctypes.c_void_p.from_address(packed[3]).value
    assert num_args == 1 and ctypes.c_void_p.from_address(packed[0]).value is None
    _write_int_result(result, _read_int_arg(args, 0) * 2)
    ctypes.c_int.from_address(packed[4]).value = 0


def _address(cfunc):
    return ctypes.cast(cfunc, ctypes.c_void_p).value


def test_from_extern_c_calls_the_safe_call():
    f = tvm_ffi.Function.__from_extern_c__(_address(_add_one_safe_call))
    assert isinstance(f, tvm_ffi.Function) and f(41) == 42


def test_from_extern_c_holds_keep_alive_object_until_released():
    keep = object()
    before = sys.getrefcount(keep)
    f = tvm_ffi.Function.__from_extern_c__(_address(_add_one_safe_call), keep_alive_object=keep)
    assert sys.getrefcount(keep) == before + 1
    del f
    assert sys.getrefcount(keep) == before


def test_from_mlir_packed_safe_call():
    keep = object()
    f = tvm_ffi.Function.__from_mlir_packed_safe_call__(
        _address(_mlir_times_two), keep_alive_object=keep
    )
    assert f(21) == 42


def test_from_extern_c_rejects_null():
    with pytest.raises(ValueError):
        tvm_ffi.Function.__from_extern_c__(0)


def test_function_subclass_filled_by_move_handle_from():
    class Mixin:
        def describe(self):
            return "sub"

    class MyFunc(tvm_ffi.Function, Mixin):
        __call__ = tvm_ffi.Function.__call__

        def __init__(self, inner):
            self.__move_handle_from__(tvm_ffi.convert(inner))

    f = MyFunc(lambda x: x + 10)
    assert f(1) == 11 and f.describe() == "sub"
    back = echo(f)
    assert type(back) is tvm_ffi.Function and back.same_as(f)


def test_move_handle_from_empties_the_source():
    src = tvm_ffi.convert(lambda: 0)
    dst = tvm_ffi.Function()
    dst.__move_handle_from__(src)
    assert src.__chandle__() == 0 and dst.__chandle__() != 0


def test_function_instances_take_attributes():
    f = tvm_ffi.convert(lambda: 0)
    f.__name__ = "zero"
    assert f.__name__ == "zero"


def test_function_repr():
    assert repr(tvm_ffi.convert(lambda: 0)) == "ffi.Function"
    assert repr(tvm_ffi.Function()) == "Function(chandle=None)"


def test_release_gil_default_follows_environment_variable():
    code = "import tvm_ffi; print(tvm_ffi.convert(lambda: 0).release_gil)"
    env = dict(os.environ, TVM_FFI_RELEASE_GIL_BY_DEFAULT="0")
    out = subprocess.run(
        [sys.executable, "-c", code],
        env=env,
        cwd="/",
        check=True,
        stdout=subprocess.PIPE,
        text=True,
    ).stdout.strip()
    assert out == "False"


# ---- Object -----------------------------------------------------------------


def test_id_and_ctypes_handle():
    arr = tvm_ffi.Array([1])
    assert arr.id_ == arr.__chandle__()
    assert arr.__ctypes_handle__().value == arr.__chandle__()
    assert tvm_ffi.Object().__ctypes_handle__().value is None


def test_is_alias_of_same_as():
    arr = tvm_ffi.Array([1])
    assert arr.is_(echo(arr)) and not arr.is_(3)


def test_object_equality_with_non_object_is_false():
    f = tvm_ffi.convert(lambda: 0)
    assert (f == 3) is False and (f != 3) is True


# ---- Error ------------------------------------------------------------------


def test_error_constructor_and_fields():
    err = core.Error("ValueError", "bad", 'File "x.cc", line 3, in f\n')
    assert (err.kind, err.message) == ("ValueError", "bad")
    assert "x.cc" in err.backtrace and err.extra_context is None


def test_error_update_backtrace_replaces_it():
    err = core.Error("RuntimeError", "m", "old")
    err.update_backtrace("new text")
    assert err.backtrace == "new text"


def test_error_pickles_by_value():
    err = pickle.loads(pickle.dumps(core.Error("TypeError", "t", "bt")))
    assert (err.kind, err.message, err.backtrace) == ("TypeError", "t", "bt")


def test_error_py_error_uses_registered_class():
    exc = core.Error("KeyError", "k", "").py_error()
    assert isinstance(exc, KeyError)


def test_convert_exception_gives_error():
    err = tvm_ffi.convert(TypeError("x"))
    assert isinstance(err, core.Error) and err.kind == "TypeError"


# ---- registry ---------------------------------------------------------------


def test_register_global_func_returns_the_registered_function():
    @tvm_ffi.register_global_func("testing_parity.triple", override=True)
    def triple(x):
        return 3 * x

    try:
        assert isinstance(triple, tvm_ffi.Function) and triple(2) == 6
        assert triple.same_as(tvm_ffi.get_global_func("testing_parity.triple"))
    finally:
        tvm_ffi.remove_global_func("testing_parity.triple")


def test_register_duplicate_message():
    tvm_ffi.register_global_func("testing_parity.dup", lambda: 1, override=True)
    try:
        with pytest.raises(
            RuntimeError, match="Global Function `testing_parity.dup` is already registered"
        ):
            tvm_ffi.register_global_func("testing_parity.dup", lambda: 2)
    finally:
        tvm_ffi.remove_global_func("testing_parity.dup")


def test_metadata_of_unknown_function_raises_runtime_error():
    with pytest.raises(RuntimeError, match="Global Function is not found: testing_parity.nope"):
        tvm_ffi.get_global_func_metadata("testing_parity.nope")


def test_init_ffi_api_strips_tvm_prefix_and_names_functions():
    tvm_ffi.register_global_func("testing_parity_ns.hello", lambda: "hi", override=True)
    module = types.ModuleType("tvm.testing_parity_ns")
    sys.modules["tvm.testing_parity_ns"] = module
    try:
        tvm_ffi.init_ffi_api("tvm.testing_parity_ns")
        assert module.hello() == "hi" and module.hello.__name__ == "hello"
    finally:
        del sys.modules["tvm.testing_parity_ns"]
        tvm_ffi.remove_global_func("testing_parity_ns.hello")


def test_get_registered_type_keys():
    keys = tvm_ffi.registry.get_registered_type_keys()
    assert isinstance(keys, tvm_ffi.Array)
    assert {"ffi.Array", "ffi.Function", "ffi.Error"} <= set(keys)


def test_register_object_unknown_key_message():
    with pytest.raises(ValueError, match="Cannot find object type index for no.such.Type"):
        tvm_ffi.register_object("no.such.Type")(type("X", (tvm_ffi.Object,), {}))


def test_register_object_rejects_non_str_key():
    with pytest.raises(TypeError):
        tvm_ffi.register_object(3)


def test_error_from_native_keeps_its_identity_through_nested_calls():
    throw_error = tvm_ffi.get_global_func("testing.throw_error")
    apply = tvm_ffi.get_global_func("testing.apply")
    seen = []

    def inner():
        try:
            throw_error("ValueError", "deep")
        except ValueError as exc:
            seen.append(exc.__tvm_ffi_error__)
            raise

    with pytest.raises(ValueError, match="deep") as info:
        apply(inner)
    assert info.value.__tvm_ffi_error__.same_as(seen[0])


def test_moved_object_is_refused_by_a_plain_typed_parameter():
    # cpp_api.md §2.1: reference-type parameters check the cell strictly, so an ObjectRValueRef
    # is a mismatch (only RValueRef<R> and Any parameters take one), as in the reference.
    lst = tvm_ffi.List([1, 2])
    with pytest.raises(TypeError, match="but got `ObjectRValueRef`"):
        tvm_ffi.get_global_func("testing.list_size")(lst._move())
    assert list(lst) == [1, 2]


def test_moved_object_reaches_a_python_callback_which_takes_it():
    lst = tvm_ffi.List([1, 2])
    seen = []

    def callback(x):
        seen.append(x)
        return len(x)

    assert tvm_ffi.convert(callback)(lst._move()) == 2
    assert lst.__chandle__() == 0
    assert isinstance(seen[0], tvm_ffi.List) and list(seen[0]) == [1, 2]


def test_moved_object_forwarded_by_cpp_is_taken_by_the_final_callee():
    lst = tvm_ffi.List([3])
    out = tvm_ffi.get_global_func("testing.apply")(lambda x: x, lst._move())
    assert lst.__chandle__() == 0 and list(out) == [3]


def test_move_of_an_emptied_object_is_refused():
    lst = tvm_ffi.List([1])
    tvm_ffi.convert(lambda x: None)(lst._move())
    with pytest.raises(ValueError, match="handle is NULL"):
        tvm_ffi.get_global_func("testing.echo")(lst._move())


def test_move_passes_an_object_rvalue_ref():
    lst = tvm_ffi.List([1])
    kind = tvm_ffi.get_global_func("testing.type_index")(lst._move())
    assert kind == 10  # kTVMFFIObjectRValueRef, seen by an AnyView parameter
    assert lst.__chandle__() != 0


def test_object_rvalue_ref_must_hold_an_object():
    with pytest.raises(TypeError):
        echo(core.ObjectRValueRef(3))


def test_convert_of_plain_python_value_is_opaque_wrapper():
    value = {1, 2}
    out = tvm_ffi.convert(value)
    assert isinstance(out, core.OpaquePyObject) and out.pyobject() is value
    # Passing the wrapper hands the original object to callees.
    assert echo(out) is value


def test_native_values_share_the_py_native_object_mixin():
    assert isinstance(core.String("a"), core.PyNativeObject)
    assert isinstance(tvm_ffi.Shape((1,)), core.PyNativeObject)
