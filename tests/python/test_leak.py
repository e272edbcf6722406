"""Reference counts and memory stay flat over many calls."""

import gc
import sys

import pytest
import tvm_ffi

echo = tvm_ffi.get_global_func("testing.echo")
apply = tvm_ffi.get_global_func("testing.apply")

N = 100_000


def _rss_kb():
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def _loop(fn, n=N):
    for _ in range(n):
        fn()


def test_str_arguments_do_not_leak_references():
    s = "a string that is not small" * 3
    before = sys.getrefcount(s)
    _loop(lambda: echo(s))
    assert sys.getrefcount(s) == before


def test_list_arguments_do_not_leak_references():
    item = object()
    lst = [1, "x", item]
    before_item = sys.getrefcount(item)
    before_list = sys.getrefcount(lst)
    _loop(lambda: echo(lst), N // 10)
    gc.collect()
    assert sys.getrefcount(item) == before_item
    assert sys.getrefcount(lst) == before_list


def test_object_arguments_do_not_leak_references():
    arr = tvm_ffi.Array([1, 2])
    before = sys.getrefcount(arr)
    _loop(lambda: echo(arr))
    assert sys.getrefcount(arr) == before


def test_opaque_objects_are_released():
    thing = object()
    before = sys.getrefcount(thing)
    _loop(lambda: echo(thing))
    gc.collect()
    assert sys.getrefcount(thing) == before


def test_callbacks_do_not_leak_references():
    def cb(x):
        return x

    before = sys.getrefcount(cb)
    _loop(lambda: apply(cb, "s"), N // 10)
    assert sys.getrefcount(cb) == before


def test_numpy_arguments_do_not_leak_references():
    np = pytest.importorskip("numpy")
    view_param = tvm_ffi.get_global_func("testing.tensor_info")  # TensorView: stack view
    tensor_param = tvm_ffi.get_global_func("testing.tensor_identity")  # Tensor: an object
    arr = np.zeros((2, 3), dtype="float32")
    before = sys.getrefcount(arr)
    _loop(lambda: view_param(arr), N // 10)
    _loop(lambda: tensor_param(arr), N // 10)
    _loop(lambda: tvm_ffi.from_dlpack(arr), N // 10)
    gc.collect()
    assert sys.getrefcount(arr) == before


def test_capsule_producer_view_arguments_release_the_producer_tensor():
    np = pytest.importorskip("numpy")
    view_param = tvm_ffi.get_global_func("testing.tensor_info")

    class Producer:
        def __init__(self, array):
            self.array = array

        def __dlpack__(self, stream=None, max_version=None, dl_device=None, copy=None):
            return self.array.__dlpack__(max_version=max_version)

    arr = np.zeros(4, dtype="int32")
    producer = Producer(arr)
    before = sys.getrefcount(arr)
    _loop(lambda: view_param(producer), N // 10)
    gc.collect()
    # numpy's capsule holds the array until its deleter runs: every one ran.
    assert sys.getrefcount(arr) == before


def test_rss_stays_flat_over_many_calls():
    payload = ["abc" * 10, b"bytes", 1.5, {"k": [1, 2]}]
    arr = tvm_ffi.Array([1])

    def work():
        echo(payload[0])
        echo(arr)

    _loop(work, 20_000)
    gc.collect()
    start = _rss_kb()
    _loop(work)
    _loop(lambda: echo(payload), N // 10)
    gc.collect()
    grown = _rss_kb() - start
    assert grown < 8 * 1024, "RSS grew by %d kB" % grown


def test_errors_do_not_leak():
    throw = tvm_ffi.get_global_func("testing.throw_error")

    def work():
        try:
            throw("ValueError", "x")
        except ValueError:
            pass

    _loop(work, 2000)
    gc.collect()
    start = _rss_kb()
    _loop(work, 10_000)
    gc.collect()
    assert _rss_kb() - start < 8 * 1024
