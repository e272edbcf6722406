"""The names, attributes and small behaviours that code written for apache-tvm-ffi relies on."""

import ctypes
import subprocess
import sys

import pytest
import tvm_ffi


def test_all_names_exist():
    for name in tvm_ffi.__all__:
        assert hasattr(tvm_ffi, name), name


def test_version_matches_the_targeted_release():
    assert tvm_ffi.__version__ == "0.1.15.post2"
    assert tvm_ffi.__version_tuple__ == (0, 1, 15, "post2")


def test_lib_is_the_loaded_library():
    assert isinstance(tvm_ffi.LIB, ctypes.CDLL)


def test_submodules_usable_after_bare_import():
    code = (
        "import tvm_ffi; assert callable(tvm_ffi.cpp.load_inline); "
        "assert callable(tvm_ffi.error.register_error); tvm_ffi.utils.FileLock"
    )
    subprocess.run([sys.executable, "-c", code], check=True, cwd="/")


def test_bare_import_makes_ffi_api_an_attribute():
    # Clients (apache-tvm-ffi-orcjit) call tvm_ffi._ffi_api.X after a plain `import tvm_ffi`.
    code = "import tvm_ffi; assert callable(tvm_ffi._ffi_api.ModuleGetKind)"
    subprocess.run([sys.executable, "-c", code], check=True, cwd="/")


def test_import_loads_no_framework_or_build_machinery():
    # What keeps `import tvm_ffi` fast (benchmarks/ measures it): frameworks
    # and the build helpers' heavy modules load only when first used.
    code = (
        "import sys, tvm_ffi; heavy = ('torch', 'numpy', 'ml_dtypes', 'subprocess', "
        "'hashlib'); print(','.join(m for m in heavy if m in sys.modules))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], check=True, cwd="/", stdout=subprocess.PIPE, text=True
    ).stdout.strip()
    assert out == ""


def test_error_module_registry_aliases():
    assert tvm_ffi.error.register_error is tvm_ffi.register_error
    assert tvm_ffi.error.ERROR_NAME_TO_TYPE["ValueError"] is ValueError
    assert tvm_ffi.core.ERROR_TYPE_TO_NAME[KeyError] == "KeyError"


def test_parse_backtrace():
    text = '  File "a.cc", line 12, in foo  \nnoise\nFile "b.py", line 3, in <module>\n'
    assert tvm_ffi.error._parse_backtrace(text) == [("a.cc", 12, "foo"), ("b.py", 3, "<module>")]


# ---- Tensor -----------------------------------------------------------------

np = pytest.importorskip("numpy")


def test_data_ptr_is_a_method():
    arr = np.arange(6, dtype="int32")
    t = tvm_ffi.from_dlpack(arr)
    assert t.data_ptr() == arr.ctypes.data


def test_numel_and_size():
    t = tvm_ffi.from_dlpack(np.zeros((2, 3, 4), dtype="float32"))
    assert t.numel() == 24 and t.size(0) == 2 and t.size(-1) == 4


def test_numel_of_0d_is_one():
    assert tvm_ffi.from_dlpack(np.array(3.0)).numel() == 1


def test_size_out_of_range_message():
    t = tvm_ffi.from_dlpack(np.zeros((2, 3)))
    with pytest.raises(IndexError, match="Dimension 2 out of range for tensor with 2 dimensions"):
        t.size(2)


def test_is_contiguous():
    base = np.zeros((4, 6), dtype="float32")
    assert tvm_ffi.from_dlpack(base).is_contiguous()
    assert not tvm_ffi.from_dlpack(base[:, ::2]).is_contiguous()
    assert tvm_ffi.from_dlpack(base[1:2, :]).is_contiguous()


def test_shape_is_plain_tuple():
    t = tvm_ffi.from_dlpack(np.zeros((2, 3)))
    assert type(t.shape) is tuple and t.shape == (2, 3)


def test_tensor_repr():
    assert repr(tvm_ffi.from_dlpack(np.zeros((2, 3), dtype="float32"))) == "float32[2, 3]@cpu:0"


def test_to_dlpack_capsules():
    t = tvm_ffi.from_dlpack(np.zeros(3))
    assert "dltensor" in repr(t._to_dlpack())
    assert "dltensor_versioned" in repr(t._to_dlpack_versioned())


def test_dlpack_copy_true_raises_buffer_error():
    t = tvm_ffi.from_dlpack(np.zeros(3))
    with pytest.raises(BufferError, match="copy not yet supported"):
        t.__dlpack__(max_version=(1, 0), copy=True)


def test_dlpack_old_max_version_gives_legacy_capsule():
    t = tvm_ffi.from_dlpack(np.zeros(3))
    capsule = t.__dlpack__(max_version=(0, 8))
    assert "dltensor_versioned" not in repr(capsule)


# ---- Shape ------------------------------------------------------------------


def test_shape_repr_is_the_tuple_repr_and_keeps_its_object():
    s = tvm_ffi.Shape((1, 2))
    assert repr(s) == "(1, 2)"
    assert s._tvm_ffi_cached_object.same_as(tvm_ffi.convert(lambda x: x)(s)._tvm_ffi_cached_object)


def test_shape_rejects_non_integers():
    with pytest.raises(ValueError, match="Shape must be a tuple of integers"):
        tvm_ffi.Shape((1, 2.5))


# ---- Device -----------------------------------------------------------------


@pytest.mark.parametrize(
    "text, expected",
    [
        ("cpu", "cpu:0"),
        ("cuda:1", "cuda:1"),
        ("mps", "metal:0"),
        ("wgpu:2", "webgpu:2"),
        ("cpu:1 (annotation)", "cpu:1"),
    ],
)
def test_device_names(text, expected):
    assert str(tvm_ffi.device(text)) == expected


@pytest.mark.parametrize("name", ["llvm", "c", "gpu", "CPU", "cuda_host", "oneapi", "test"])
def test_rejected_device_names(name):
    with pytest.raises(ValueError, match="^Unknown device: %s$" % name):
        tvm_ffi.device(name)


def test_string_index_wins_over_argument():
    assert tvm_ffi.device("cuda:1", 2).index == 1


def test_negative_index_accepted():
    assert tvm_ffi.device("cpu", -1).index == -1


def test_float_index_rejected():
    with pytest.raises(TypeError, match="Invalid device index"):
        tvm_ffi.device("cpu", 1.0)


def test_bad_string_index():
    with pytest.raises(ValueError, match="Invalid device index: x"):
        tvm_ffi.device("cuda:x")


def test_two_colons():
    with pytest.raises(ValueError, match="Invalid device: cuda:1:2"):
        tvm_ffi.device("cuda:1:2")


def test_device_repr_and_type_name():
    d = tvm_ffi.device("cuda", 3)
    assert repr(d) == "device(type='cuda', index=3)" and d.__device_type_name__() == "cuda"


def test_device_equality_with_non_device_is_false():
    assert (tvm_ffi.device("cpu") == "cpu:0") is False


def test_device_pickles():
    import pickle

    d = tvm_ffi.device("cuda:2")
    assert pickle.loads(pickle.dumps(d)) == d


def test_set_class_device_changes_returned_devices():
    class MyDevice(tvm_ffi.Device):
        pass

    tvm_ffi.core._set_class_device(MyDevice)
    try:
        assert type(tvm_ffi.device("cpu")) is MyDevice
        assert type(tvm_ffi.convert(lambda x: x)(tvm_ffi.Device("cuda", 1))) is MyDevice
    finally:
        tvm_ffi.core._set_class_device(tvm_ffi.Device)


# ---- value protocols and helpers ---------------------------------------------


def _echo():
    return tvm_ffi.convert(lambda x: x)


def test_tvm_ffi_object_protocol():
    arr = tvm_ffi.Array([1, 2])

    class Wrapper:
        def __tvm_ffi_object__(self):
            return arr

    assert _echo()(Wrapper()).same_as(arr)


def test_tvm_ffi_value_protocol_nests():
    class Inner:
        def __tvm_ffi_value__(self):
            return 7

    class Outer:
        def __tvm_ffi_value__(self):
            return [Inner(), "s"]

    assert list(_echo()(Outer())) == [7, "s"]


def test_opaque_ptr_protocol():
    class Ptr:
        def __tvm_ffi_opaque_ptr__(self):
            return 0x1234

    out = _echo()(Ptr())
    assert isinstance(out, ctypes.c_void_p) and out.value == 0x1234


def test_opaque_ptr_handlers_match_exact_class():
    class Handle:
        pass

    tvm_ffi.core._OPAQUE_PTR_HANDLERS[Handle] = lambda h: 0x40
    try:
        assert _echo()(Handle()).value == 0x40
    finally:
        del tvm_ffi.core._OPAQUE_PTR_HANDLERS[Handle]


def test_dlpack_device_protocol():
    class Dev:
        def __dlpack_device__(self):
            return (2, 1)

    assert _echo()(Dev()) == tvm_ffi.device("cuda:1")


def test_int_and_float_protocols():
    class I:
        def __tvm_ffi_int__(self):
            return 5

    class F:
        def __tvm_ffi_float__(self):
            return 2.5

    assert _echo()(I()) == 5 and _echo()(F()) == 2.5


def test_real_numbers_pass_as_float():
    from fractions import Fraction

    out = _echo()(Fraction(1, 4))
    assert type(out) is float and out == 0.25
    assert type(_echo()(np.float32(1.5))) is float


def test_object_convertible():
    arr = tvm_ffi.Array([3])

    class Conv(tvm_ffi.ObjectConvertible):
        def asobject(self):
            return arr

    assert _echo()(Conv()).same_as(arr)
    with pytest.raises(NotImplementedError):
        tvm_ffi.ObjectConvertible().asobject()


def test_convert_func_wraps_callable():
    f = tvm_ffi.convert_func(lambda a, b: a + b)
    assert isinstance(f, tvm_ffi.Function) and f(2, 3) == 5


def test_convert_func_rejects_tensor_cls_without_exchange_api():
    with pytest.raises(TypeError, match="__dlpack_c_exchange_api__"):
        tvm_ffi.convert_func(lambda x: x, tensor_cls=int)


@pytest.mark.parametrize(
    "value, text",
    [
        (None, "CAny(None)"),
        (5, "CAny(int=5)"),
        (1.5, "CAny(float=1.5)"),
        (True, "CAny(bool=True)"),
    ],
)
def test_cany_repr(value, text):
    assert repr(tvm_ffi.CAny(value)) == text


def test_cany_holds_objects_and_converts_back():
    c = tvm_ffi.CAny([1, 2])
    assert "object" in repr(c) and c.type_index >= 64
    assert list(tvm_ffi.core._to_py_class_value(c)) == [1, 2]
    assert type(tvm_ffi.core._to_py_class_value(tvm_ffi.CAny("hi"))) is tvm_ffi.core.String


def test_string_and_bytes_pickle_as_builtins():
    import pickle

    assert type(pickle.loads(pickle.dumps(tvm_ffi.core.String("x")))) is str
    assert type(pickle.loads(pickle.dumps(tvm_ffi.core.Bytes(b"x")))) is bytes


def test_string_passes_as_str():
    assert _echo()(tvm_ffi.core.String("a long string value")) == "a long string value"


# ---- utils.FileLock ---------------------------------------------------------


def test_file_lock_excludes_a_second_holder(tmp_path):
    from tvm_ffi.utils import FileLock

    path = tmp_path / "lock"
    first = FileLock(path)
    assert first.acquire()
    code = (
        "import sys; from tvm_ffi.utils import FileLock; l = FileLock(sys.argv[1]); "
        "print(l.acquire())\n"
        "try:\n    l.blocking_acquire(timeout=0.2)\nexcept TimeoutError:\n    print('timeout')"
    )
    out = subprocess.run(
        [sys.executable, "-c", code, str(path)],
        check=True,
        cwd="/",
        stdout=subprocess.PIPE,
        text=True,
    ).stdout.split()
    assert out == ["False", "timeout"]
    first.release()
    with FileLock(path) as again:
        assert again._file_descriptor is not None


# ---- convert (section 3.4) and class overrides ---------------------------------


def test_convert_returns_objects_and_numbers_unchanged():
    arr = tvm_ffi.Array([1])
    assert tvm_ffi.convert(arr) is arr
    assert tvm_ffi.convert(5) == 5 and tvm_ffi.convert(None) is None
    d = tvm_ffi.dtype("f32")
    assert tvm_ffi.convert(d) is d


def test_convert_str_and_bytes_give_string_and_bytes():
    assert type(tvm_ffi.convert("hello")) is tvm_ffi.core.String
    assert type(tvm_ffi.convert(b"hi")) is tvm_ffi.core.Bytes


def test_convert_containers_and_callables():
    assert isinstance(tvm_ffi.convert([1, 2]), tvm_ffi.Array)
    assert isinstance(tvm_ffi.convert({"a": 1}), tvm_ffi.Map)
    assert isinstance(tvm_ffi.convert(lambda: 1), tvm_ffi.Function)


def test_convert_object_convertible_and_protocol_object():
    arr = tvm_ffi.Array([2])

    class Conv(tvm_ffi.ObjectConvertible):
        def asobject(self):
            return arr

    class Proto:
        def __tvm_ffi_object__(self):
            return arr

    assert tvm_ffi.convert(Conv()).same_as(arr)
    assert tvm_ffi.convert(Proto()) is arr


def test_convert_torch_dtype_gives_dtype():
    torch = pytest.importorskip("torch")
    out = tvm_ffi.convert(torch.float16)
    assert isinstance(out, tvm_ffi.dtype) and str(out) == "float16"


def test_set_class_tensor_changes_returned_tensors():
    class MyTensor(tvm_ffi.Tensor):
        pass

    tvm_ffi.core._set_class_tensor(MyTensor)
    try:
        assert type(tvm_ffi.from_dlpack(np.zeros(2))) is MyTensor
        assert tvm_ffi.core._CLASS_TENSOR is MyTensor
    finally:
        tvm_ffi.core._set_class_tensor(tvm_ffi.Tensor)
    assert type(tvm_ffi.from_dlpack(np.zeros(2))) is tvm_ffi.Tensor


def test_set_class_dtype_changes_returned_dtypes():
    class MyDtype(tvm_ffi.dtype):
        __slots__ = ()

    tvm_ffi.core._set_class_dtype(MyDtype)
    try:
        out = tvm_ffi.convert(lambda x: x)(tvm_ffi.dtype("int8"))
        assert type(out) is MyDtype and str(out) == "int8"
    finally:
        tvm_ffi.core._set_class_dtype(tvm_ffi.dtype)


def test_class_override_hooks_reject_non_subclasses():
    for hook in ("_set_class_tensor", "_set_class_device", "_set_class_dtype", "_set_class_object"):
        with pytest.raises(TypeError):
            getattr(tvm_ffi.core, hook)(int)


def test_dlpack_version():
    assert tvm_ffi.core.__dlpack_version__ >= (1, 0)


def test_empty_tensor_wrapper():
    t = tvm_ffi.Tensor()
    assert t.__chandle__() == 0 and repr(t) == "Tensor(chandle=None)"


def test_with_append_backtrace_puts_native_frames_outside_the_exceptions_own():
    import traceback

    try:
        raise ValueError("v")
    except ValueError as caught:
        exc = caught
    out = tvm_ffi.error._with_append_backtrace(
        exc, 'File "inner.cc", line 7, in inner\nFile "outer.cc", line 3, in outer\n'
    )
    names = [f.name for f in traceback.extract_tb(out.__traceback__)]
    # The native code was running when the exception arose: it is the exception's caller.
    assert names == [
        "outer",
        "inner",
        "test_with_append_backtrace_puts_native_frames_outside_the_exceptions_own",
    ]


def test_traceback_to_backtrace_str_is_innermost_first():
    def inner():
        raise KeyError("k")

    try:
        inner()
    except KeyError as exc:
        text = tvm_ffi.error._traceback_to_backtrace_str(exc.__traceback__)
    frames = tvm_ffi.error._parse_backtrace(text)
    assert frames[0][2] == "inner"


def test_from_dlpack_consumes_a_raw_capsule():
    arr = np.arange(3, dtype="int32")
    capsule = arr.__dlpack__()
    t = tvm_ffi.from_dlpack(capsule)
    assert t.data_ptr() == arr.ctypes.data and t.shape == (3,)
    assert "used_dltensor" in repr(capsule)


def test_from_dlpack_rejects_consumed_capsule_and_non_tensors():
    capsule = np.zeros(2).__dlpack__()
    tvm_ffi.from_dlpack(capsule)
    for value in (capsule, [1, 2], np.float32(1)):
        with pytest.raises(
            TypeError, match="Expect from_dlpack to take either a compatible tensor or PyCapsule"
        ):
            tvm_ffi.from_dlpack(value)


def test_distribution_version_matches_package_version():
    import importlib.metadata

    assert importlib.metadata.version("tvm-ffi") == tvm_ffi.__version__


def test_installed_headers_keep_no_thread_local_state():
    # Inline header code runs inside libraries loaded by JIT linkers (LLVM ORC), which may
    # offer no thread-local storage; the runtime keeps such state instead.
    import pathlib

    include = pathlib.Path(tvm_ffi.libinfo.find_include_path()) / "tvm" / "ffi"
    headers = sorted(include.rglob("*.h"))
    assert headers
    offenders = [str(h) for h in headers if "thread_local" in h.read_text()]
    assert offenders == []
