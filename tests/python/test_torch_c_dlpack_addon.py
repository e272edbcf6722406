"""The torch DLPack exchange addon (tensor_exchange.md 2.4 step 4): for a torch without
__dlpack_c_exchange_api__, tvm_ffi._optional_torch_c_dlpack compiles
tvm_ffi/utils/_torch_c_dlpack_addon.cc against the installed torch into the tvm-ffi cache, loads
it and publishes its table.

Compiling against torch's headers takes about half a minute of CPU and 1 GB of memory, so the
addon is built once per session (the `built_addon` fixture, into a temporary cache) and the tests
that need it carry the `torch_addon_build` marker (`-m "not torch_addon_build"` leaves them out).
The table is checked directly through ctypes, and end to end in a subprocess where torch.Tensor's
own table is hidden, as on an older torch.
"""

import ctypes
import hashlib
import json
import os
import subprocess
import sys
import textwrap
import threading
import time
import types
import warnings

import pytest
from dlpack_ctypes import DELETER, DLDataType, DLDevice, DLManagedTensorVersioned, DLTensor
from tvm_ffi import _optional_torch_c_dlpack as optional

torch = pytest.importorskip("torch")

LIB_DIR = os.environ.get("TVM_FFI_TEST_LIB_DIR")
BUILD_FAILED = "Failed to JIT torch c dlpack extension, EnvTensorAllocator will not be enabled"
KDLCPU, KDLCUDA = 1, 2
needs_build = pytest.mark.torch_addon_build


# ---------------------------------------------------------------------------
# The file name
# ---------------------------------------------------------------------------


def expected_name(version, abi, variant, majmin):
    digest = hashlib.sha256(("%s|cxx11abi=%d" % (version, abi)).encode()).hexdigest()[:8]
    return "libtorch_c_dlpack_addon_torch%s-%s-%s.so" % (majmin, variant, digest)


@pytest.mark.parametrize(
    "version, abi, variant, majmin",
    [
        ("2.13.0+cpu", 1, "cpu", "213"),
        ("2.4.1+cu121", 0, "cuda", "24"),
        ("2.9.0a0+git1234", 1, "rocm", "29"),
    ],
)
def test_addon_name_follows_the_spec_formula(version, abi, variant, majmin):
    assert optional.addon_library_name(version, abi, variant) == expected_name(
        version, abi, variant, majmin
    )


def test_addon_name_hash_covers_the_cxx11_abi():
    with_abi = optional.addon_library_name("2.8.0", True, "cpu")
    without = optional.addon_library_name("2.8.0", False, "cpu")
    assert with_abi != without and with_abi[:-12] == without[:-12]


def test_addon_name_rejects_an_unknown_variant():
    with pytest.raises(ValueError, match="variant must be 'cpu', 'cuda' or 'rocm', got 'xpu'"):
        optional.addon_library_name("2.8.0", True, "xpu")


def test_addon_path_is_in_the_cache_dir_from_the_environment(monkeypatch, tmp_path):
    monkeypatch.setenv("TVM_FFI_CACHE_DIR", str(tmp_path))
    variant = "rocm" if torch.version.hip else "cuda" if torch.version.cuda else "cpu"
    major, minor = torch.__version__.split(".")[:2]
    name = expected_name(
        torch.__version__, int(torch._C._GLIBCXX_USE_CXX11_ABI), variant, major + minor
    )
    assert optional.addon_path(torch) == os.path.join(str(tmp_path), name)


# ---------------------------------------------------------------------------
# Cache and lock (no compiler needed: the build step is replaced)
# ---------------------------------------------------------------------------


def test_existing_library_is_reused_without_building(monkeypatch, tmp_path):
    path = optional.addon_path(torch, tmp_path)
    with open(path, "wb") as f:
        f.write(b"built before")

    def must_not_build(lib_path):
        raise AssertionError("rebuilt " + lib_path)

    monkeypatch.setattr(optional, "_run_build_script", must_not_build)
    assert optional.build_addon(torch, tmp_path) == path


def test_parallel_builders_build_once(monkeypatch, tmp_path):
    builds = []

    def slow_build(lib_path):
        builds.append(lib_path)
        time.sleep(0.3)
        with open(lib_path, "wb") as f:
            f.write(b"built")

    monkeypatch.setattr(optional, "_run_build_script", slow_build)
    results = []
    threads = [
        threading.Thread(target=lambda: results.append(optional.build_addon(torch, tmp_path)))
        for _ in range(3)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(builds) == 1
    assert results == [optional.addon_path(torch, tmp_path)] * 3


def test_failing_build_only_warns_with_the_spec_text(monkeypatch, tmp_path):
    monkeypatch.setenv("TVM_FFI_CACHE_DIR", str(tmp_path))
    monkeypatch.setenv("CXX", "/nonexistent/c++")
    with pytest.warns(UserWarning) as record:
        assert optional._jit_addon(torch) is None
    message = str(record[0].message)
    assert message.startswith(BUILD_FAILED + "\n")
    assert "/nonexistent/c++" in message
    assert not os.path.exists(optional.addon_path(torch))


# ---------------------------------------------------------------------------
# A failed build is remembered (no compiler needed: the build step is replaced)
# ---------------------------------------------------------------------------


def failing_build(calls):
    def build(lib_path):
        calls.append(lib_path)
        raise RuntimeError("c++: error: no such compiler")

    return build


def fail_once(monkeypatch, tmp_path, cache_dir=None):
    """Runs one failing build_addon (into cache_dir, default tmp_path); returns the calls list."""
    calls = []
    monkeypatch.setattr(optional, "_run_build_script", failing_build(calls))
    with pytest.raises(RuntimeError, match="no such compiler"):
        optional.build_addon(torch, cache_dir or tmp_path)
    return calls


def test_failed_build_is_remembered_beside_the_library(monkeypatch, tmp_path):
    fail_once(monkeypatch, tmp_path)
    marker = optional.addon_path(torch, tmp_path) + ".failed"
    assert optional.failure_marker_path(optional.addon_path(torch, tmp_path)) == marker
    with open(marker, encoding="utf-8") as f:
        record = json.load(f)
    assert record["output"] == "c++: error: no such compiler"


def test_remembered_failure_is_not_built_again(monkeypatch, tmp_path):
    calls = fail_once(monkeypatch, tmp_path)
    with pytest.raises(optional.AddonBuildFailedBefore, match=r"\.failed"):
        optional.build_addon(torch, tmp_path)
    assert len(calls) == 1


def test_remembered_failure_is_a_runtime_error(monkeypatch, tmp_path):
    fail_once(monkeypatch, tmp_path)
    with pytest.raises(RuntimeError):
        optional.build_addon(torch, tmp_path)


def test_remembered_failure_does_not_warn_again(monkeypatch, tmp_path):
    monkeypatch.setenv("TVM_FFI_CACHE_DIR", str(tmp_path))
    calls = []
    monkeypatch.setattr(optional, "_run_build_script", failing_build(calls))
    with pytest.warns(UserWarning, match=BUILD_FAILED):
        assert optional._jit_addon(torch) is None
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert optional._jit_addon(torch) is None
    assert len(calls) == 1


def test_first_warning_names_the_marker_to_delete(monkeypatch, tmp_path):
    monkeypatch.setenv("TVM_FFI_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(optional, "_run_build_script", failing_build([]))
    with pytest.warns(UserWarning) as record:
        optional._jit_addon(torch)
    assert optional.addon_path(torch) + ".failed exists: delete it" in str(record[0].message)


def test_another_compiler_builds_again(monkeypatch, tmp_path):
    monkeypatch.setenv("CXX", "/first/c++")
    calls = fail_once(monkeypatch, tmp_path)
    monkeypatch.setenv("CXX", "/second/c++")
    with pytest.raises(RuntimeError, match="no such compiler"):
        optional.build_addon(torch, tmp_path)
    assert len(calls) == 2


def test_other_addon_flags_build_again(monkeypatch, tmp_path):
    calls = fail_once(monkeypatch, tmp_path)
    monkeypatch.setenv("TVM_FFI_TORCH_ADDON_CFLAGS", "-I/extra")
    with pytest.raises(RuntimeError, match="no such compiler"):
        optional.build_addon(torch, tmp_path)
    assert len(calls) == 2


def test_another_torch_version_builds_again(monkeypatch, tmp_path):
    calls = fail_once(monkeypatch, tmp_path)
    other = types.SimpleNamespace(
        __version__="9.9.0+cpu", _C=torch._C, version=types.SimpleNamespace(cuda=None, hip=None)
    )
    with pytest.raises(RuntimeError, match="no such compiler"):
        optional.build_addon(other, tmp_path)
    assert calls == [optional.addon_path(torch, tmp_path), optional.addon_path(other, tmp_path)]


def test_unreadable_marker_does_not_block_the_build(monkeypatch, tmp_path):
    marker = optional.addon_path(torch, tmp_path) + ".failed"
    with open(marker, "w") as f:
        f.write("not json")
    calls = fail_once(monkeypatch, tmp_path)
    assert len(calls) == 1


def test_successful_build_removes_a_stale_marker(monkeypatch, tmp_path):
    monkeypatch.setenv("CXX", "/first/c++")
    fail_once(monkeypatch, tmp_path)
    monkeypatch.setenv("CXX", "/second/c++")

    def build(lib_path):
        with open(lib_path, "wb") as f:
            f.write(b"built")

    monkeypatch.setattr(optional, "_run_build_script", build)
    path = optional.build_addon(torch, tmp_path)
    assert os.path.isfile(path)
    assert not os.path.exists(path + ".failed")


def test_parallel_failing_builders_build_once(monkeypatch, tmp_path):
    calls = []

    def slow_failure(lib_path):
        calls.append(lib_path)
        time.sleep(0.3)
        raise RuntimeError("c++: error: no such compiler")

    monkeypatch.setattr(optional, "_run_build_script", slow_failure)
    errors = []

    def builder():
        try:
            optional.build_addon(torch, tmp_path)
        except RuntimeError as err:
            errors.append(type(err))

    threads = [threading.Thread(target=builder) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(calls) == 1
    assert sorted(e.__name__ for e in errors) == [
        "AddonBuildFailedBefore",
        "AddonBuildFailedBefore",
        "RuntimeError",
    ]


IMPORT_WITHOUT_TABLE = """
import warnings, torch
delattr(torch.Tensor, "__dlpack_c_exchange_api__")
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    import tvm_ffi
from tvm_ffi import _optional_torch_c_dlpack as optional
print(optional._result, sum("Failed to JIT torch c dlpack" in str(w.message) for w in caught))
"""


def test_later_imports_neither_build_nor_warn_after_a_failed_build(tmp_path):
    env = dict(os.environ)
    env.pop("TVM_FFI_DISABLE_TORCH_C_DLPACK", None)
    env["TVM_FFI_CACHE_DIR"] = str(tmp_path)
    env["CXX"] = "/nonexistent/c++"

    def import_once():
        proc = subprocess.run(
            [sys.executable, "-c", IMPORT_WITHOUT_TABLE], env=env, capture_output=True, text=True
        )
        assert proc.returncode == 0, proc.stderr
        return proc.stdout.split()

    assert import_once() == ["False", "1"]
    markers = [p for p in os.listdir(tmp_path) if p.endswith(".failed")]
    assert len(markers) == 1
    stamp = os.stat(tmp_path / markers[0]).st_mtime_ns
    assert import_once() == ["False", "0"]
    assert os.stat(tmp_path / markers[0]).st_mtime_ns == stamp


def test_load_addon_of_a_missing_file_raises_oserror(tmp_path):
    with pytest.raises(OSError):
        optional.load_addon(tmp_path / "missing.so")


# ---------------------------------------------------------------------------
# The built addon
# ---------------------------------------------------------------------------


@pytest.fixture(scope="session")
def built_addon(tmp_path_factory):
    """(path, seconds) of the addon built once for the session into a temporary cache."""
    cache = tmp_path_factory.mktemp("torch_addon_cache")
    start = time.monotonic()
    path = optional.build_addon(torch, cache)
    return path, time.monotonic() - start


MANAGED_P = ctypes.POINTER(DLManagedTensorVersioned)
SET_ERROR = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_char_p, ctypes.c_char_p)


class ExchangeAPI(ctypes.Structure):
    _fields_ = [
        ("major", ctypes.c_uint32),
        ("minor", ctypes.c_uint32),
        ("prev_api", ctypes.c_void_p),
        ("managed_tensor_allocator", ctypes.c_void_p),
        ("managed_tensor_from_py_object_no_sync", ctypes.c_void_p),
        ("managed_tensor_to_py_object_no_sync", ctypes.c_void_p),
        ("dltensor_from_py_object_no_sync", ctypes.c_void_p),
        ("current_work_stream", ctypes.c_void_p),
    ]


def capsule_address(capsule):
    get = ctypes.pythonapi.PyCapsule_GetPointer
    get.restype = ctypes.c_void_p
    get.argtypes = [ctypes.py_object, ctypes.c_char_p]
    return get(capsule, b"dlpack_exchange_api")


@pytest.fixture(scope="module")
def api(built_addon):
    """The addon's table, with its functions as ctypes callables."""
    table = ExchangeAPI.from_address(capsule_address(optional.load_addon(built_addon[0])))

    class Api:
        header = table
        # PYFUNCTYPE: called with the GIL, and a Python error set by the callee is raised.
        from_py = ctypes.PYFUNCTYPE(ctypes.c_int, ctypes.py_object, ctypes.POINTER(MANAGED_P))(
            table.managed_tensor_from_py_object_no_sync
        )
        to_py = ctypes.PYFUNCTYPE(ctypes.c_int, MANAGED_P, ctypes.POINTER(ctypes.py_object))(
            table.managed_tensor_to_py_object_no_sync
        )
        fill = ctypes.PYFUNCTYPE(ctypes.c_int, ctypes.py_object, ctypes.POINTER(DLTensor))(
            table.dltensor_from_py_object_no_sync
        )
        stream = ctypes.CFUNCTYPE(
            ctypes.c_int, ctypes.c_int32, ctypes.c_int32, ctypes.POINTER(ctypes.c_void_p)
        )(table.current_work_stream)
        alloc = ctypes.CFUNCTYPE(
            ctypes.c_int,
            ctypes.POINTER(DLTensor),
            ctypes.POINTER(MANAGED_P),
            ctypes.c_void_p,
            SET_ERROR,
        )(table.managed_tensor_allocator)

    return Api


def export(api, obj):
    out = MANAGED_P()
    assert api.from_py(obj, ctypes.byref(out)) == 0
    return out


@needs_build
def test_build_produces_the_named_library_in_the_cache(built_addon):
    path, seconds = built_addon
    print("torch addon build: %.1f s" % seconds)
    assert os.path.basename(path) == os.path.basename(optional.addon_path(torch))
    assert os.path.isfile(path)
    assert [p for p in os.listdir(os.path.dirname(path)) if p.endswith(".tmp")] == []


@needs_build
def test_table_is_dlpack_13_with_every_function(api):
    h = api.header
    assert (h.major, h.minor, h.prev_api) == (1, 3, None)
    for name, _ in ExchangeAPI._fields_[3:]:
        assert getattr(h, name), name


@needs_build
def test_load_addon_returns_the_same_table_each_time(built_addon):
    first = capsule_address(optional.load_addon(built_addon[0]))
    assert capsule_address(optional.load_addon(built_addon[0])) == first


@needs_build
def test_export_describes_a_strided_view_with_its_offset(api):
    base = torch.arange(12, dtype=torch.float32).reshape(3, 4)
    x = base[1:, ::2]
    m = export(api, x).contents
    try:
        t = m.dl_tensor
        assert (m.version.major, m.version.minor, m.flags) == (1, 3, 0)
        assert t.data == x.data_ptr() and t.byte_offset == 0
        assert (t.device.device_type, t.device.device_id) == (KDLCPU, 0)
        assert (t.dtype.code, t.dtype.bits, t.dtype.lanes) == (2, 32, 1)
        assert [t.shape[i] for i in range(t.ndim)] == [2, 2]
        assert [t.strides[i] for i in range(t.ndim)] == [4, 2]
    finally:
        m.deleter(ctypes.pointer(m))


@needs_build
def test_export_keeps_the_tensor_alive(api):
    x = torch.full((3,), 7.0)
    managed = export(api, x)
    del x
    t = managed.contents.dl_tensor
    assert [ctypes.c_float.from_address(t.data + 4 * i).value for i in range(3)] == [7.0] * 3
    managed.contents.deleter(managed)


@needs_build
def test_export_of_a_non_tensor_is_a_type_error(api):
    with pytest.raises(TypeError, match="expected a torch.Tensor, got list"):
        export(api, [1.0])


@needs_build
def test_export_of_a_sparse_tensor_is_a_buffer_error(api):
    with pytest.raises(BufferError, match="only describes strided tensors"):
        export(api, torch.ones(2).to_sparse())


@needs_build
def test_import_returns_a_torch_tensor_sharing_memory(api):
    x = torch.arange(6, dtype=torch.int64).reshape(2, 3).t()
    out = ctypes.py_object()
    assert api.to_py(export(api, x), ctypes.byref(out)) == 0
    y = out.value
    assert type(y) is torch.Tensor
    assert y.data_ptr() == x.data_ptr() and y.stride() == x.stride()
    assert torch.equal(y, x)


@needs_build
def test_import_of_compact_tensor_without_strides(api):
    # A DLPack < 1.2 producer may leave strides NULL; the deleter still runs once.
    x = torch.arange(6, dtype=torch.float32)
    managed = export(api, x)
    managed.contents.dl_tensor.ndim = 2
    shape = (ctypes.c_int64 * 2)(2, 3)
    managed.contents.dl_tensor.shape = shape
    managed.contents.dl_tensor.strides = None
    out = ctypes.py_object()
    assert api.to_py(managed, ctypes.byref(out)) == 0
    assert out.value.stride() == (3, 1) and out.value.tolist() == [[0, 1, 2], [3, 4, 5]]


@needs_build
def test_import_of_unknown_device_deletes_and_raises(api):
    deleted = []
    managed = DLManagedTensorVersioned()
    managed.version.major, managed.version.minor = 1, 3
    managed.deleter = DELETER(lambda m: deleted.append(True))
    managed.dl_tensor.device = DLDevice(12, 0)  # kDLExtDev
    managed.dl_tensor.dtype = DLDataType(2, 32, 1)
    out = ctypes.py_object()
    with pytest.raises(RuntimeError, match="torch has no device for DLPack device type 12"):
        api.to_py(ctypes.pointer(managed), ctypes.byref(out))
    assert deleted == [True]


@needs_build
def test_fill_describes_the_tensor_without_owning_it(api):
    x = torch.zeros(2, 5, dtype=torch.float16)[:, 1:]
    t = DLTensor()
    assert api.fill(x, ctypes.byref(t)) == 0
    assert t.data == x.data_ptr() and (t.dtype.code, t.dtype.bits) == (2, 16)
    assert [t.shape[i] for i in range(2)] == [2, 4] and [t.strides[i] for i in range(2)] == [5, 1]


@needs_build
@pytest.mark.parametrize("device_type", [KDLCPU, KDLCUDA])
def test_cpu_torch_reports_no_stream(api, device_type):
    if device_type == KDLCUDA and torch.cuda.is_available():
        pytest.skip("a CUDA torch has a stream to report")
    stream = ctypes.c_void_p(1)
    assert api.stream(device_type, 0, ctypes.byref(stream)) == 0
    assert stream.value is None


@needs_build
def test_allocator_returns_a_compact_torch_owned_tensor(api):
    shape = (ctypes.c_int64 * 2)(2, 3)
    proto = DLTensor(None, DLDevice(KDLCPU, 0), 2, DLDataType(0, 32, 1), shape, None, 0)
    out = MANAGED_P()
    assert api.alloc(ctypes.byref(proto), ctypes.byref(out), None, SET_ERROR(lambda *a: None)) == 0
    t = out.contents.dl_tensor
    assert (out.contents.version.major, out.contents.version.minor, out.contents.flags) == (
        1,
        3,
        0,
    )
    assert (t.dtype.code, t.dtype.bits) == (0, 32) and t.data
    assert [t.strides[i] for i in range(2)] == [3, 1]
    out.contents.deleter(out)


@needs_build
def test_allocator_reports_a_bad_dtype_through_set_error(api):
    errors = []
    shape = (ctypes.c_int64 * 1)(4)
    proto = DLTensor(None, DLDevice(KDLCPU, 0), 1, DLDataType(2, 13, 1), shape, None, 0)
    out = MANAGED_P()
    set_error = SET_ERROR(lambda ctx, kind, msg: errors.append((ctx, kind, msg)))
    assert api.alloc(ctypes.byref(proto), ctypes.byref(out), 42, set_error) == -1
    assert len(errors) == 1
    ctx, kind, msg = errors[0]
    assert ctx == 42 and kind and msg


# ---------------------------------------------------------------------------
# End to end: a torch without the attribute loads the cached addon at import
# ---------------------------------------------------------------------------

E2E = """
import ctypes, json, os, sys, warnings, torch
get = ctypes.pythonapi.PyCapsule_GetPointer
get.restype = ctypes.c_void_p
get.argtypes = [ctypes.py_object, ctypes.c_char_p]
native = get(torch.Tensor.__dict__["__dlpack_c_exchange_api__"], b"dlpack_exchange_api")
delattr(torch.Tensor, "__dlpack_c_exchange_api__")
with warnings.catch_warnings():
    warnings.simplefilter("error")
    import tvm_ffi
from tvm_ffi import _optional_torch_c_dlpack as optional
addon = ctypes.CDLL(sys.argv[1]).TorchDLPackExchangeAPIPtr
addon.restype = ctypes.c_uint64
published = get(torch.Tensor.__dict__["__dlpack_c_exchange_api__"], b"dlpack_exchange_api")
lib = tvm_ffi.load_module(os.path.join(os.environ["TVM_FFI_TEST_LIB_DIR"], "tensor_exchange_lib.so"))
base = torch.arange(12, dtype=torch.float32).reshape(3, 4)
x = base[1:, 1:]
echoed = lib.echo(x)
imported = tvm_ffi.from_dlpack(x)
allocated = lib.alloc_add_one(torch.arange(4, dtype=torch.float32))
held = torch.full((4,), 2.5)
lib.hold(held)
del held
out = {
    "result": optional._result,
    "published_is_addon": published == addon(),
    "native_differs": published != native,
    "view_info": [list(v) if not isinstance(v, int) else v - x.data_ptr() for v in lib.view_info(x)],
    "echo_type": type(echoed).__module__ + "." + type(echoed).__name__,
    "echo_shares": echoed.data_ptr() == x.data_ptr() and echoed.stride() == x.stride(),
    "from_dlpack": [type(imported).__name__, list(imported.shape), list(imported.strides)],
    "alloc": [type(allocated).__module__, allocated.tolist()],
    "held_sum": lib.held_sum(),
}
lib.release_held()
print(json.dumps(out))
"""


@pytest.fixture(scope="module")
def e2e(built_addon):
    if not LIB_DIR:
        pytest.skip("TVM_FFI_TEST_LIB_DIR is not set (the compiled test libraries)")
    path = built_addon[0]
    before = os.stat(path).st_mtime_ns
    env = dict(os.environ)
    env.pop("TVM_FFI_DISABLE_TORCH_C_DLPACK", None)
    env["TVM_FFI_CACHE_DIR"] = os.path.dirname(path)
    # A rebuild would fail: the cached library must be used as it is.
    env["CXX"] = "/nonexistent/c++"
    proc = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(E2E), path],
        env=env,
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout), before, path


@needs_build
def test_cached_addon_is_published_without_rebuilding(e2e):
    out, mtime_before, path = e2e
    assert out["result"] is True
    assert out["published_is_addon"] and out["native_differs"]
    assert os.stat(path).st_mtime_ns == mtime_before


@needs_build
def test_tensor_view_kernel_sees_the_torch_view(e2e):
    assert e2e[0]["view_info"] == [[2, 3], [4, 1], 0]


@needs_build
def test_tensor_result_comes_back_as_torch_sharing_memory(e2e):
    assert e2e[0]["echo_type"] == "torch.Tensor"
    assert e2e[0]["echo_shares"] is True


@needs_build
def test_from_dlpack_through_the_addon(e2e):
    assert e2e[0]["from_dlpack"] == ["Tensor", [2, 3], [4, 1]]


@needs_build
def test_env_allocator_allocates_torch_tensors(e2e):
    assert e2e[0]["alloc"] == ["torch", [1.0, 2.0, 3.0, 4.0]]


@needs_build
def test_held_tensor_outlives_its_python_object(e2e):
    assert e2e[0]["held_sum"] == 10.0
