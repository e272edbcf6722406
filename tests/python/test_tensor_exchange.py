"""Framework tensors through the DLPack C exchange API (__dlpack_c_exchange_api__):
how arguments arrive, streams and allocators installed for the callee, results
coming back as the caller's framework type, tvm_ffi.Tensor as a producer, and
bad producers. Kernels live in tests/cpp/testlib/tensor_exchange_lib.cc.
"""

import ctypes
import gc
import os
import subprocess
import sys
import threading

import numpy as np
import pytest
import tvm_ffi
from dlpack_ctypes import (
    DELETER,
    DLDataType,
    DLDevice,
    DLManagedTensorVersioned,
    DLPackVersion,
    DLTensor,
)

torch = pytest.importorskip("torch")

LIB_DIR = os.environ.get("TVM_FFI_TEST_LIB_DIR")
DLTENSOR_PTR = 7
TENSOR = 70
CUDA = 2


@pytest.fixture(scope="module")
def lib():
    if not LIB_DIR:
        pytest.skip("TVM_FFI_TEST_LIB_DIR is not set (the compiled test libraries)")
    return tvm_ffi.load_module(os.path.join(LIB_DIR, "tensor_exchange_lib.so"))


def data_ptr(t):
    """Address of a tvm_ffi.Tensor's first element (data_ptr is becoming a method)."""
    return t.data_ptr() if callable(t.data_ptr) else t.data_ptr


# ---------------------------------------------------------------------------
# A pure-Python producer implementing the exchange API with ctypes
# ---------------------------------------------------------------------------


ALLOCATOR = ctypes.CFUNCTYPE(
    ctypes.c_int,
    ctypes.POINTER(DLTensor),
    ctypes.POINTER(ctypes.POINTER(DLManagedTensorVersioned)),
    ctypes.c_void_p,
    ctypes.c_void_p,
)
FROM_PY = ctypes.CFUNCTYPE(
    ctypes.c_int, ctypes.c_void_p, ctypes.POINTER(ctypes.POINTER(DLManagedTensorVersioned))
)
TO_PY = ctypes.CFUNCTYPE(
    ctypes.c_int, ctypes.POINTER(DLManagedTensorVersioned), ctypes.POINTER(ctypes.c_void_p)
)
DLTENSOR_FROM_PY = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.POINTER(DLTensor))
CURRENT_STREAM = ctypes.CFUNCTYPE(
    ctypes.c_int, ctypes.c_int32, ctypes.c_int32, ctypes.POINTER(ctypes.c_void_p)
)


class DLPackExchangeAPI(ctypes.Structure):
    _fields_ = [
        ("version", DLPackVersion),
        ("prev_api", ctypes.c_void_p),
        ("managed_tensor_allocator", ALLOCATOR),
        ("managed_tensor_from_py_object_no_sync", FROM_PY),
        ("managed_tensor_to_py_object_no_sync", TO_PY),
        ("dltensor_from_py_object_no_sync", DLTENSOR_FROM_PY),
        ("current_work_stream", CURRENT_STREAM),
    ]


_capsule_new = ctypes.pythonapi.PyCapsule_New
_capsule_new.restype = ctypes.py_object
_capsule_new.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]
_capsule_ptr = ctypes.pythonapi.PyCapsule_GetPointer
_capsule_ptr.restype = ctypes.c_void_p
_capsule_ptr.argtypes = [ctypes.py_object, ctypes.c_char_p]
_incref = ctypes.pythonapi.Py_IncRef
_incref.argtypes = [ctypes.py_object]

# The managed tensors a fake producer handed out and that were not deleted yet.
_LIVE = {}
# The stream current_work_stream reports per (device_type, device_id).
FAKE_STREAMS = {}


class FakeTensor:
    """A 1-d float32 tensor a ctypes table exports; device may claim CUDA (the data is
    host memory, only the callee's view of it matters). Its class attribute
    __dlpack_c_exchange_api__ is set per subclass by make_fake_class."""

    def __init__(self, n, device_type=1, device_id=0):
        self.buf = (ctypes.c_float * n)(*range(n))
        self.shape = (ctypes.c_int64 * 1)(n)
        self.strides = (ctypes.c_int64 * 1)(1)
        self.device = (device_type, device_id)

    def fill(self, out):
        out.data = ctypes.addressof(self.buf)
        out.device = DLDevice(*self.device)
        out.ndim = 1
        out.dtype = DLDataType(2, 32, 1)
        out.shape = self.shape
        out.strides = self.strides
        out.byte_offset = 0


def _managed_for(obj):
    m = DLManagedTensorVersioned()
    m.version = DLPackVersion(1, 3)
    m.flags = 0
    obj.fill(m.dl_tensor)
    m.deleter = _delete_managed
    m.manager_ctx = id(m)
    _LIVE[ctypes.addressof(m)] = (m, obj)
    return m


@DELETER
def _delete_managed(ptr):
    _LIVE.pop(ctypes.addressof(ptr.contents), None)


@FROM_PY
def _from_py(py_object, out):
    obj = ctypes.cast(py_object, ctypes.py_object).value
    out[0] = ctypes.pointer(_managed_for(obj))
    return 0


@DLTENSOR_FROM_PY
def _dltensor_from_py(py_object, out):
    ctypes.cast(py_object, ctypes.py_object).value.fill(out.contents)
    return 0


class Imported:
    """What the fake producer's import returns: owns the managed tensor."""

    def __init__(self, managed):
        self.managed = managed
        self.data = managed.contents.dl_tensor.data

    def __del__(self):
        self.managed.contents.deleter(self.managed)


@TO_PY
def _to_py(managed, out):
    obj = Imported(managed)
    _incref(obj)
    out[0] = id(obj)
    return 0


@CURRENT_STREAM
def _current_stream(device_type, device_id, out):
    out[0] = FAKE_STREAMS.get((device_type, device_id), 0)
    return 0


def make_table(view=True, **overrides):
    api = DLPackExchangeAPI()
    api.version = DLPackVersion(1, 3)
    api.prev_api = None
    api.managed_tensor_from_py_object_no_sync = _from_py
    api.managed_tensor_to_py_object_no_sync = _to_py
    if view:
        api.dltensor_from_py_object_no_sync = _dltensor_from_py
    api.current_work_stream = _current_stream
    for name, value in overrides.items():
        setattr(api, name, value)
    return api


def make_fake_class(api=None, capsule_name=b"dlpack_exchange_api", attr=None):
    """A FakeTensor subclass publishing api (kept alive by the class)."""
    api = make_table() if api is None else api
    if attr is None:
        attr = _capsule_new(ctypes.addressof(api), capsule_name, None)
    return type("FakeTensor", (FakeTensor,), {"__dlpack_c_exchange_api__": attr, "_api": api})


Fake = make_fake_class()
FakeNoView = make_fake_class(make_table(view=False))


# ---------------------------------------------------------------------------
# How arguments arrive
# ---------------------------------------------------------------------------


def test_torch_tensor_goes_as_view_to_tensor_view_and_as_object_elsewhere(lib):
    x = torch.arange(4, dtype=torch.float32)
    assert list(lib.arg_kinds(x, x, x)) == [DLTENSOR_PTR, TENSOR, TENSOR]


def test_numpy_array_goes_as_view_to_tensor_view_and_as_object_elsewhere(lib):
    a = np.arange(4, dtype="float32")
    assert list(lib.arg_kinds(a, a, a)) == [DLTENSOR_PTR, TENSOR, TENSOR]


def test_ctypes_producer_goes_as_view_to_tensor_view_and_as_object_elsewhere(lib):
    x = Fake(4)
    assert list(lib.arg_kinds(x, x, x)) == [DLTENSOR_PTR, TENSOR, TENSOR]
    assert not _LIVE


def test_producer_without_dltensor_fill_passes_tensor_objects(lib):
    x = FakeNoView(4)
    assert list(lib.arg_kinds(x, x, x)) == [TENSOR, TENSOR, TENSOR]
    assert not _LIVE


def test_dlpack_1_2_attribute_with_int_address_is_read(lib):
    api = make_table()
    cls = type(
        "OldFake", (FakeTensor,), {"__c_dlpack_exchange_api__": ctypes.addressof(api), "_api": api}
    )
    x = cls(4)
    assert list(lib.arg_kinds(x, x, x)) == [DLTENSOR_PTR, TENSOR, TENSOR]
    assert data_ptr(tvm_ffi.from_dlpack(x)) == ctypes.addressof(x.buf)


def test_tvm_tensor_argument_is_passed_as_itself(lib):
    t = tvm_ffi.from_dlpack(np.arange(4, dtype="float32"))
    assert list(lib.arg_kinds(t, t, t)) == [TENSOR, TENSOR, TENSOR]


def test_torch_tensor_of_many_dimensions_goes_as_object_to_tensor_view(lib):
    x = torch.zeros([1] * 9)
    assert list(lib.arg_kinds(x, x, x)) == [TENSOR, TENSOR, TENSOR]
    assert lib.data_ptr(x) == x.data_ptr()


def test_torch_view_of_strided_tensor_keeps_its_layout(lib):
    x = torch.arange(24, dtype=torch.float32).reshape(4, 6)[:, ::2].t()
    assert lib.view_info(x) == [list(x.shape), list(x.stride()), x.data_ptr()]


def test_torch_view_shares_memory_including_storage_offset(lib):
    x = torch.arange(10, dtype=torch.float32)[3:]
    assert lib.data_ptr(x) == x.data_ptr()


def test_ctypes_producer_view_shares_memory(lib):
    x = Fake(4)
    assert lib.data_ptr(x) == ctypes.addressof(x.buf)


def test_torch_tensor_in_general_path_call_is_converted(lib):
    # The list sends the call to the general (Cython) path.
    x = torch.zeros(3)
    assert list(lib.arg_kinds(x, x, [x]))[:2] == [DLTENSOR_PTR, TENSOR]


# ---------------------------------------------------------------------------
# Results come back as the caller's framework type
# ---------------------------------------------------------------------------


def test_echo_of_torch_tensor_returns_torch_tensor_sharing_memory(lib):
    x = torch.arange(4, dtype=torch.float32)
    y = lib.echo(x)
    assert type(y) is torch.Tensor
    assert y.data_ptr() == x.data_ptr()


def test_echo_of_numpy_array_returns_tvm_tensor(lib):
    a = np.arange(4, dtype="float32")
    assert isinstance(lib.echo(a), tvm_ffi.Tensor)


def test_echo_of_tvm_tensor_returns_tvm_tensor(lib):
    t = tvm_ffi.from_dlpack(torch.arange(4, dtype=torch.float32))
    assert isinstance(lib.echo(t), tvm_ffi.Tensor)


def test_echo_of_ctypes_producer_returns_its_imported_type(lib):
    x = Fake(4)
    y = lib.echo(x)
    assert type(y) is Imported
    assert y.data == ctypes.addressof(x.buf)
    del y
    gc.collect()
    assert not _LIVE


_REFUSE_IMPORT = TO_PY(lambda managed, out: -1)


def test_failed_import_of_result_falls_back_to_tvm_tensor(lib):
    cls = make_fake_class(make_table(managed_tensor_to_py_object_no_sync=_REFUSE_IMPORT))
    x = cls(4)
    y = lib.echo(x)
    assert isinstance(y, tvm_ffi.Tensor)
    assert data_ptr(y) == ctypes.addressof(x.buf)
    del y
    gc.collect()
    assert not _LIVE


def test_container_result_of_torch_call_gives_torch_elements(lib):
    x = torch.arange(4, dtype=torch.float32)
    out = lib.tensor_and_int(x)
    assert type(out[0]) is torch.Tensor
    assert out[0].data_ptr() == x.data_ptr()
    assert out[1] == 1
    assert [type(v) for v in out] == [torch.Tensor, int]


def test_list_with_tvm_tensor_and_torch_tensor_gives_torch_elements(lib):
    x = torch.arange(4, dtype=torch.float32)
    t = tvm_ffi.from_dlpack(np.arange(2, dtype="float32"))
    out = lib.echo_any([t, x])
    assert type(out[0]) is torch.Tensor
    assert type(out[1]) is torch.Tensor


def test_dict_result_of_torch_call_gives_torch_values(lib):
    x = torch.arange(4, dtype=torch.float32)
    out = lib.echo_any({"a": x})
    assert type(out["a"]) is torch.Tensor
    assert type(out.get("a")) is torch.Tensor
    assert [type(v) for v in out.values()] == [torch.Tensor]


def test_nested_containers_are_tagged_in_turn(lib):
    x = torch.arange(4, dtype=torch.float32)
    out = lib.echo_any([[x], {"k": [x]}])
    assert type(out[0][0]) is torch.Tensor
    assert type(out[1]["k"][0]) is torch.Tensor


def test_container_result_of_numpy_call_gives_tvm_tensors(lib):
    out = lib.echo_any([np.zeros(2, dtype="float32")])
    assert isinstance(out[0], tvm_ffi.Tensor)


def test_tagged_container_argument_gives_the_call_its_result_api(lib):
    tagged = lib.echo_any([torch.zeros(2)])
    assert lib.has_env_allocator_with(tagged)
    again = lib.echo_any(tagged)
    assert type(again[0]) is torch.Tensor
    plain = tvm_ffi.convert([tvm_ffi.from_dlpack(np.zeros(2, dtype="float32"))])
    assert not lib.has_env_allocator_with(plain)
    assert isinstance(lib.echo_any(plain)[0], tvm_ffi.Tensor)


def test_container_tags_are_dropped_with_their_wrappers(lib):
    x = torch.zeros(2)
    before = tvm_ffi.core._exchange_tag_count()
    for _ in range(1000):
        lib.echo_any([x])
    gc.collect()
    assert tvm_ffi.core._exchange_tag_count() == before


# ---------------------------------------------------------------------------
# from_dlpack
# ---------------------------------------------------------------------------


def test_from_dlpack_of_torch_shares_memory(lib):
    x = torch.arange(6, dtype=torch.float32).reshape(2, 3)
    t = tvm_ffi.from_dlpack(x)
    assert isinstance(t, tvm_ffi.Tensor)
    assert data_ptr(t) == x.data_ptr()
    assert tuple(t.shape) == (2, 3)


def test_from_dlpack_of_ctypes_producer_uses_the_table(lib):
    x = FakeNoView(5)
    t = tvm_ffi.from_dlpack(x)
    assert data_ptr(t) == ctypes.addressof(x.buf)
    assert len(_LIVE) == 1
    del t
    gc.collect()
    assert not _LIVE


def test_from_dlpack_of_filling_producer_holds_the_producer_object_not_an_export(lib):
    x = Fake(5)
    refs = sys.getrefcount(x)
    t = tvm_ffi.from_dlpack(x)
    assert data_ptr(t) == ctypes.addressof(x.buf)
    assert tuple(t.shape) == (5,)
    assert not _LIVE
    assert sys.getrefcount(x) == refs + 1
    del t
    assert sys.getrefcount(x) == refs


def test_from_dlpack_with_met_requirements_holds_the_producer_object(lib):
    x = Fake(5)
    refs = sys.getrefcount(x)
    t = tvm_ffi.from_dlpack(x, require_contiguous=True, require_alignment=4)
    assert data_ptr(t) == ctypes.addressof(x.buf)
    assert not _LIVE
    assert sys.getrefcount(x) == refs + 1
    del t
    assert sys.getrefcount(x) == refs


def test_from_dlpack_with_failed_requirement_releases_the_producer_object(lib):
    x = Fake(5)
    addr = ctypes.addressof(x.buf)
    align = (addr & -addr) * 2  # the smallest power of two the address is not a multiple of
    refs = sys.getrefcount(x)
    with pytest.raises(RuntimeError, match=f"not aligned to {align} bytes"):
        tvm_ffi.from_dlpack(x, require_alignment=align)
    assert not _LIVE
    assert sys.getrefcount(x) == refs


def test_from_dlpack_of_torch_tensor_of_many_dimensions_keeps_shape_and_strides():
    x = torch.zeros([2, 1, 3, 1, 2, 1, 1, 2, 3]).transpose(0, 8)
    t = tvm_ffi.from_dlpack(x)
    assert tuple(t.shape) == tuple(x.shape)
    assert tuple(t.strides) == tuple(x.stride())
    assert data_ptr(t) == x.data_ptr()


def test_from_dlpack_wrappers_made_after_others_dropped_describe_their_own_tensor():
    xs = [torch.arange(n + 1, dtype=torch.float32) for n in range(20)]
    for _ in range(3):
        ts = [tvm_ffi.from_dlpack(x) for x in xs]
        assert [(tuple(t.shape), data_ptr(t)) for t in ts] == [
            ((len(x),), x.data_ptr()) for x in xs
        ]
        del ts


def test_tensor_argument_not_kept_by_callee_leaves_references_balanced(lib):
    x = torch.zeros(4)
    refs = sys.getrefcount(x)
    for _ in range(100):
        lib.tensor_nop(x)
    assert sys.getrefcount(x) == refs


def test_tensor_argument_kept_by_callee_holds_the_torch_tensor_until_released(lib):
    x = torch.full((4,), 3.0)
    refs = sys.getrefcount(x)
    lib.hold(x)
    assert sys.getrefcount(x) == refs + 1
    assert lib.held_sum() == 12.0
    lib.release_held()
    assert sys.getrefcount(x) == refs


def test_from_dlpack_buffer_error_from_table_falls_back_to_dunder_dlpack(lib):
    class Producer(FakeTensor):
        __dlpack_c_exchange_api__ = lib.buffer_error_exchange_api()

        def __dlpack__(self, **kwargs):
            return np.arange(3, dtype="float32").__dlpack__(**kwargs)

    t = tvm_ffi.from_dlpack(Producer(3))
    assert np.from_dlpack(t).tolist() == [0.0, 1.0, 2.0]


# ---------------------------------------------------------------------------
# Owned torch tensors (Tensor parameters, from_dlpack): layout, lifetime, release
# ---------------------------------------------------------------------------


class _TorchSub(torch.Tensor):
    pass


@pytest.mark.parametrize(
    "make",
    [
        lambda: torch.arange(10.0)[3:7],
        lambda: torch.zeros(4, 4)[:, ::2],
        lambda: torch.zeros(4, 1).expand(4, 5),
        lambda: torch.tensor(3.0),
        lambda: torch.zeros(0, 3),
        lambda: torch.zeros(2, 1, 3, 1, 2, dtype=torch.uint8).transpose(0, 4),
        lambda: torch.zeros([2] * 10, dtype=torch.bfloat16),
        lambda: torch.zeros(3, requires_grad=True),
        lambda: torch.zeros(3).as_subclass(_TorchSub),
    ],
    ids=["offset", "strided", "expanded", "0d", "empty", "5d", "10d", "grad", "subclass"],
)
def test_owned_torch_tensor_keeps_layout_dtype_and_data(make):
    x = make()
    t = tvm_ffi.from_dlpack(x)
    assert tuple(t.shape) == tuple(x.shape)
    assert tuple(t.strides) == x.stride()
    assert data_ptr(t) == x.data_ptr()
    assert str(t.dtype) == str(x.dtype).replace("torch.", "")
    assert t.device.type == "cpu"


def test_tensor_kept_by_callee_stays_valid_after_torch_tensor_dropped(lib):
    x = torch.full((8,), 2.0)
    lib.hold(x)
    del x
    gc.collect()
    others = [torch.zeros(8) for _ in range(8)]
    assert lib.held_sum() == 16.0
    lib.release_held()
    assert others


def test_tensor_released_on_a_thread_without_python_state_keeps_references_balanced(lib):
    x = torch.full((4,), 1.0)
    refs = sys.getrefcount(x)
    lib.hold(x)
    lib.release_held_on_thread()
    gc.collect()
    assert sys.getrefcount(x) == refs
    assert x.sum().item() == 4.0


def test_tensor_kept_until_process_exit_does_not_crash_at_shutdown():
    path = os.path.join(LIB_DIR, "tensor_exchange_lib.so") if LIB_DIR else None
    if path is None:
        pytest.skip("TVM_FFI_TEST_LIB_DIR is not set (the compiled test libraries)")
    code = (
        "import torch, tvm_ffi; lib = tvm_ffi.load_module(%r); "
        "lib.hold_until_exit(torch.ones(4)); print('held')" % path
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "held"


def test_torch_export_failure_leaves_no_reference(lib):
    x = torch.zeros(4, device="meta")
    refs = sys.getrefcount(x)
    with pytest.raises(RuntimeError, match="meta"):
        tvm_ffi.from_dlpack(x)
    with pytest.raises(RuntimeError, match="meta"):
        lib.tensor_nop(x)
    assert sys.getrefcount(x) == refs


def test_rejected_alignment_releases_the_reference():
    x = torch.arange(10.0)[1:]
    refs = sys.getrefcount(x)
    with pytest.raises(RuntimeError, match="^FromDLPack: Data is not aligned to 64 bytes\\.$"):
        tvm_ffi.from_dlpack(x, require_alignment=64)
    assert sys.getrefcount(x) == refs


# ---------------------------------------------------------------------------
# Streams
# ---------------------------------------------------------------------------


def test_callee_sees_producer_stream_and_it_is_restored(lib):
    FAKE_STREAMS[(CUDA, 0)] = 0x1234
    try:
        x = Fake(4, device_type=CUDA)
        assert lib.stream_of(x) == 0x1234
        assert lib.env_stream(CUDA, 0) == 0
    finally:
        FAKE_STREAMS.clear()


def test_stream_restored_after_callee_error(lib):
    FAKE_STREAMS[(CUDA, 0)] = 0x55
    try:
        with pytest.raises(ValueError, match="stream 85"):
            lib.fail_with(Fake(4, device_type=CUDA), "boom")
        assert lib.env_stream(CUDA, 0) == 0
    finally:
        FAKE_STREAMS.clear()


def test_stream_restored_to_outer_stream_context(lib):
    FAKE_STREAMS[(CUDA, 0)] = 0x77
    try:
        with tvm_ffi.use_raw_stream(tvm_ffi.device("cuda", 0), 0x99):
            assert lib.stream_of(Fake(4, device_type=CUDA)) == 0x77
            assert lib.env_stream(CUDA, 0) == 0x99
        assert lib.env_stream(CUDA, 0) == 0
    finally:
        FAKE_STREAMS.clear()


def test_cpu_tensors_record_no_stream(lib):
    with tvm_ffi.use_raw_stream(tvm_ffi.device("cpu", 0), 0x42):
        assert lib.stream_of(torch.zeros(2)) == 0x42


def test_first_non_cpu_tensor_decides_the_stream(lib):
    FAKE_STREAMS[(CUDA, 0)] = 0x10
    FAKE_STREAMS[(CUDA, 1)] = 0x11
    try:
        a, b = Fake(2, CUDA, 1), Fake(2, CUDA, 0)
        assert lib.env_stream_with([a, b], CUDA, 1) == 0x11
        assert lib.env_stream_with([a, b], CUDA, 0) == 0
    finally:
        FAKE_STREAMS.clear()


def test_streams_are_per_thread(lib):
    results = {}

    def worker(device_id):
        with tvm_ffi.use_raw_stream(tvm_ffi.device("cuda", device_id), 0x100 + device_id):
            for _ in range(200):
                got = lib.stream_of(Fake(2, CUDA, device_id))
                if got != 0x200 + device_id:
                    results[device_id] = got
                    return
            results[device_id] = lib.env_stream(CUDA, device_id)

    FAKE_STREAMS[(CUDA, 0)] = 0x200
    FAKE_STREAMS[(CUDA, 1)] = 0x201
    try:
        threads = [threading.Thread(target=worker, args=(i,)) for i in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        FAKE_STREAMS.clear()
    assert results == {0: 0x100, 1: 0x101}
    assert lib.env_stream(CUDA, 0) == 0


def test_stream_context_nests_and_restores():
    dev = tvm_ffi.device("cuda", 3)
    assert tvm_ffi.get_raw_stream(dev) == 0
    with tvm_ffi.StreamContext(dev, 5):
        assert tvm_ffi.get_raw_stream(dev) == 5
        with tvm_ffi.StreamContext(dev, 6):
            assert tvm_ffi.get_raw_stream(dev) == 6
        assert tvm_ffi.get_raw_stream(dev) == 5
    assert tvm_ffi.get_raw_stream(dev) == 0


def test_use_raw_stream_rejects_non_int():
    with pytest.raises(ValueError, match="use_torch_stream"):
        tvm_ffi.use_raw_stream(tvm_ffi.device("cuda", 0), "stream")


def test_use_raw_stream_with_c_void_p_fails_on_enter():
    ctx = tvm_ffi.use_raw_stream(tvm_ffi.device("cuda", 0), ctypes.c_void_p(5))
    with pytest.raises(TypeError):
        with ctx:
            pass


def test_cuda_stream_protocol_argument_is_an_opaque_pointer(lib):
    class Stream:
        def __cuda_stream__(self):
            return (0, 0xABC)

    assert lib.echo_any(Stream()).value == 0xABC


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a visible CUDA device")
def test_torch_cuda_call_sees_torch_current_stream(lib):
    x = torch.zeros(4, device="cuda")
    s = torch.cuda.Stream()
    with torch.cuda.stream(s):
        assert lib.stream_of(x) == s.cuda_stream
    assert lib.env_stream(CUDA, 0) == 0


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a visible CUDA device")
def test_use_torch_stream_installs_torch_stream():
    s = torch.cuda.Stream()
    dev = tvm_ffi.device("cuda", s.device.index or 0)
    with tvm_ffi.use_torch_stream(torch.cuda.stream(s)):
        assert tvm_ffi.get_raw_stream(dev) == s.cuda_stream
    assert tvm_ffi.get_raw_stream(dev) == 0


# ---------------------------------------------------------------------------
# Allocation through the caller's framework
# ---------------------------------------------------------------------------


def test_env_allocation_in_torch_call_returns_torch_tensor(lib):
    x = torch.arange(4, dtype=torch.float32)
    y = lib.alloc_add_one(x)
    assert type(y) is torch.Tensor
    assert y.tolist() == [1.0, 2.0, 3.0, 4.0]
    assert y.data_ptr() != x.data_ptr()


def test_allocator_installed_only_during_a_torch_call(lib):
    assert lib.has_env_allocator_with(torch.zeros(1))
    assert not lib.has_env_allocator_with(np.zeros(1, dtype="float32"))


def test_allocator_found_through_nested_list(lib):
    assert lib.has_env_allocator_with([torch.zeros(1)])
    assert lib.has_env_allocator_with({"x": torch.zeros(1)})
    assert not lib.has_env_allocator_with([np.zeros(1)])


def test_allocator_restored_after_error(lib):
    with pytest.raises(ValueError):
        lib.fail_with(torch.zeros(1), "boom")
    assert not lib.has_env_allocator_with(np.zeros(1, dtype="float32"))


def test_env_allocation_without_framework_fails_clearly(lib):
    with pytest.raises(RuntimeError, match="no environment allocator"):
        lib.alloc_add_one(np.zeros(2, dtype="float32"))


# ---------------------------------------------------------------------------
# tvm_ffi.Tensor as a producer
# ---------------------------------------------------------------------------


def _tensor_table():
    cap = tvm_ffi.Tensor.__dlpack_c_exchange_api__
    return DLPackExchangeAPI.from_address(_capsule_ptr(cap, b"dlpack_exchange_api"))


def test_tensor_publishes_exchange_table_version_1_3():
    api = _tensor_table()
    assert (api.version.major, api.version.minor) == (1, 3)
    assert api.prev_api is None


def test_tensor_table_exports_and_imports():
    api = _tensor_table()
    t = tvm_ffi.from_dlpack(np.arange(6, dtype="float32"))
    out = ctypes.POINTER(DLManagedTensorVersioned)()
    assert api.managed_tensor_from_py_object_no_sync(id(t), ctypes.byref(out)) == 0
    assert out.contents.dl_tensor.data + out.contents.dl_tensor.byte_offset == data_ptr(t)
    py_out = ctypes.c_void_p()
    assert api.managed_tensor_to_py_object_no_sync(out, ctypes.byref(py_out)) == 0
    back = ctypes.cast(py_out, ctypes.py_object).value
    ctypes.pythonapi.Py_DecRef(ctypes.py_object(back))
    assert isinstance(back, tvm_ffi.Tensor)
    assert data_ptr(back) == data_ptr(t)


def test_tensor_table_allocates_cpu_tensors():
    api = _tensor_table()
    shape = (ctypes.c_int64 * 2)(2, 3)
    proto = DLTensor(None, DLDevice(1, 0), 2, DLDataType(2, 32, 1), shape, None, 0)
    out = ctypes.POINTER(DLManagedTensorVersioned)()
    assert api.managed_tensor_allocator(ctypes.byref(proto), ctypes.byref(out), None, None) == 0
    m = out.contents
    assert [m.dl_tensor.shape[i] for i in range(2)] == [2, 3]
    assert [m.dl_tensor.strides[i] for i in range(2)] == [3, 1]
    assert m.dl_tensor.data % 64 == 0
    m.deleter(out)


_ERRORS = []


@ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_char_p, ctypes.c_char_p)
def _record_error(ctx, kind, message):
    _ERRORS.append((kind.decode(), message.decode()))


def test_tensor_table_allocator_rejects_negative_shape():
    api = _tensor_table()
    shape = (ctypes.c_int64 * 1)(-3)
    proto = DLTensor(None, DLDevice(1, 0), 1, DLDataType(2, 32, 1), shape, None, 0)
    out = ctypes.POINTER(DLManagedTensorVersioned)()
    _ERRORS.clear()
    assert (
        api.managed_tensor_allocator(
            ctypes.byref(proto),
            ctypes.byref(out),
            None,
            ctypes.cast(_record_error, ctypes.c_void_p),
        )
        != 0
    )
    assert _ERRORS == [("ValueError", "tvm_ffi.Tensor's allocator: negative or too large shape")]


def test_tensor_argument_does_not_install_its_allocator(lib):
    t = tvm_ffi.from_dlpack(np.zeros(1, dtype="float32"))
    assert not lib.has_env_allocator_with(t)


def test_torch_from_dlpack_of_tvm_tensor_shares_memory():
    t = tvm_ffi.from_dlpack(np.arange(3, dtype="float32"))
    x = torch.from_dlpack(t)
    assert x.data_ptr() == data_ptr(t)


# ---------------------------------------------------------------------------
# Bad producers
# ---------------------------------------------------------------------------


def test_wrong_capsule_name_is_a_type_error(lib):
    cls = make_fake_class(capsule_name=b"not_the_api")
    with pytest.raises(TypeError, match="not_the_api"):
        lib.view_nop1(cls(2))


def test_attribute_of_wrong_type_is_a_value_error(lib):
    cls = make_fake_class(attr="nonsense")
    with pytest.raises(ValueError, match="dlpack_exchange_api"):
        lib.view_nop1(cls(2))


def test_null_required_function_is_named(lib):
    api = make_table()
    api.managed_tensor_from_py_object_no_sync = FROM_PY()
    cls = make_fake_class(api)
    with pytest.raises(TypeError, match="managed_tensor_from_py_object_no_sync"):
        lib.tensor_nop(cls(2))


def test_unknown_major_version_is_rejected(lib):
    api = make_table()
    api.version = DLPackVersion(2, 0)
    cls = make_fake_class(api)
    with pytest.raises(TypeError, match="version 2.0"):
        lib.tensor_nop(cls(2))


def test_older_table_reached_through_prev_api(lib):
    old = make_table()
    new = make_table()
    new.version = DLPackVersion(2, 0)
    new.prev_api = ctypes.addressof(old)
    cls = make_fake_class(new)
    cls._old = old
    assert list(lib.arg_kinds(cls(2), cls(2), cls(2))) == [DLTENSOR_PTR, TENSOR, TENSOR]


def test_producer_raising_in_export_propagates_its_error(lib):
    cls = make_fake_class(attr=lib.raising_exchange_api())
    with pytest.raises(RuntimeError, match="producer export failed on purpose"):
        lib.tensor_nop(cls(2))
    with pytest.raises(RuntimeError, match="producer view failed on purpose"):
        lib.view_nop1(cls(2))
    with pytest.raises(RuntimeError, match="producer export failed on purpose"):
        tvm_ffi.from_dlpack(cls(2))


def test_dunder_dlpack_type_error_is_not_retried():
    calls = []

    class Producer:
        def __dlpack__(self, stream=None, max_version=None, dl_device=None, copy=None):
            calls.append(max_version)
            raise TypeError("unsupported dtype in producer")

        def __dlpack_device__(self):
            return (1, 0)

    with pytest.raises(TypeError, match="unsupported dtype in producer"):
        tvm_ffi.from_dlpack(Producer())
    assert len(calls) == 1


def test_skip_env_var_disables_the_exchange_path(lib):
    code = (
        "import tvm_ffi, torch; f = tvm_ffi.load_module(%r).echo;"
        "print(type(f(torch.zeros(2))).__name__)" % os.path.join(LIB_DIR, "tensor_exchange_lib.so")
    )
    env = dict(os.environ, TVM_FFI_SKIP_DLPACK_C_EXCHANGE_API="1")
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    ).stdout.strip()
    assert out == "Tensor"


def test_import_does_not_import_torch():
    code = "import sys, tvm_ffi; print('torch' in sys.modules)"
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.strip()
    assert out == "False"


# ---------------------------------------------------------------------------
# Leaks
# ---------------------------------------------------------------------------


def _rss_kb():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * (os.sysconf("SC_PAGE_SIZE") // 1024)


@pytest.mark.parametrize(
    "kernel", ["view_nop1", "tensor_nop", "echo", "alloc_add_one", "from_dlpack"]
)
def test_refcounts_and_memory_flat_over_100k_calls(lib, kernel):
    x = torch.arange(16, dtype=torch.float32)
    f = tvm_ffi.from_dlpack if kernel == "from_dlpack" else getattr(lib, kernel)
    for _ in range(1000):
        f(x)
    gc.collect()
    refs = sys.getrefcount(x)
    rss = _rss_kb()
    for _ in range(100_000):
        f(x)
    gc.collect()
    assert sys.getrefcount(x) == refs
    assert _rss_kb() - rss < 4096


# ---------------------------------------------------------------------------
# Tensor.__dlpack__(stream=...)
# ---------------------------------------------------------------------------


def test_dlpack_of_cpu_tensor_accepts_no_stream():
    t = tvm_ffi.from_dlpack(np.arange(3, dtype="float32"))
    assert np.from_dlpack(t).tolist() == [0.0, 1.0, 2.0]
    t.__dlpack__(stream=None, max_version=(1, 0))
    t.__dlpack__(stream=-1, max_version=(1, 0))


def test_dlpack_of_cpu_tensor_rejects_a_stream():
    t = tvm_ffi.from_dlpack(np.arange(3, dtype="float32"))
    with pytest.raises(BufferError, match="host tensor takes stream=None"):
        t.__dlpack__(stream=5, max_version=(1, 0))


def test_dlpack_stream_of_wrong_type_is_a_type_error():
    t = tvm_ffi.from_dlpack(np.arange(3, dtype="float32"))
    with pytest.raises(TypeError, match="stream must be an int"):
        t.__dlpack__(stream="default")


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a visible CUDA device")
def test_dlpack_of_cuda_tensor_orders_consumer_stream_after_producer_stream():
    x = torch.arange(1 << 20, device="cuda", dtype=torch.float32)
    t = tvm_ffi.from_dlpack(x)
    producer = torch.cuda.Stream()
    consumer = torch.cuda.Stream()
    with tvm_ffi.use_raw_stream(tvm_ffi.device("cuda", x.device.index), producer.cuda_stream):
        with torch.cuda.stream(consumer):
            y = torch.from_dlpack(t)  # torch passes its current stream
            z = y * 2
    torch.cuda.synchronize()
    assert torch.equal(z, x * 2)
    with pytest.raises(BufferError, match="ambiguous"):
        t.__dlpack__(stream=0, max_version=(1, 0))


# ---------------------------------------------------------------------------
# DLTensorTestWrapper (a testing producer with a table of its own)
# ---------------------------------------------------------------------------


def test_test_wrapper_publishes_table_without_allocator_or_fill():
    cap = tvm_ffi.core.DLTensorTestWrapper.__dlpack_c_exchange_api__
    api = DLPackExchangeAPI.from_address(_capsule_ptr(cap, b"dlpack_exchange_api"))
    assert (api.version.major, api.version.minor) == (1, 3)
    assert not api.managed_tensor_allocator
    assert not api.dltensor_from_py_object_no_sync


def test_test_wrapper_argument_goes_through_its_table(lib):
    t = tvm_ffi.from_dlpack(np.arange(4, dtype="float32"))
    w = tvm_ffi.core.DLTensorTestWrapper(t)
    assert list(lib.arg_kinds(w, w, w)) == [TENSOR, TENSOR, TENSOR]
    assert lib.data_ptr(w) == data_ptr(t)
    assert not lib.has_env_allocator_with(w)
    assert isinstance(lib.echo(w), tvm_ffi.Tensor)


def test_test_wrapper_env_stream_is_the_ffi_stream():
    t = tvm_ffi.from_dlpack(np.arange(4, dtype="float32"))
    w = tvm_ffi.core.DLTensorTestWrapper(t)
    with tvm_ffi.use_raw_stream(tvm_ffi.device("cpu", 0), 0x31):
        assert w.__tvm_ffi_env_stream__() == 0x31
    assert np.from_dlpack(w).tolist() == [0.0, 1.0, 2.0, 3.0]


# ---- a borrowed DLTensor* reaching Python -------------------------------------------------------


def test_tensor_view_passed_to_a_python_callback_arrives_as_a_tensor(lib):
    x = np.arange(6, dtype="float32").reshape(2, 3)
    seen = {}

    def callback(t):
        seen["type"] = type(t)
        seen["shape"] = t.shape
        seen["dtype"] = str(t.dtype)
        seen["data"] = np.from_dlpack(t).copy()
        seen["ptr"] = data_ptr(t)
        return 7

    assert lib.call_with_view(callback, x) == 7
    assert issubclass(seen["type"], tvm_ffi.Tensor)
    assert seen["shape"] == (2, 3) and seen["dtype"] == "float32"
    np.testing.assert_array_equal(seen["data"], x)
    # A view of the caller's memory, not a copy.
    assert seen["ptr"] == x.ctypes.data


def test_tensor_view_seen_by_a_callback_writes_through_to_the_caller(lib):
    x = np.zeros(4, dtype="int32")

    def callback(t):
        np.from_dlpack(t)[:] = 5

    lib.call_with_view(callback, x)
    np.testing.assert_array_equal(x, [5, 5, 5, 5])
