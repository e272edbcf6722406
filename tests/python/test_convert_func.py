"""tvm_ffi.convert_func: Python callables as Functions, with tensor_cls for framework tensors."""

import pytest
import tvm_ffi

np = pytest.importorskip("numpy")


def _capture(tensor_cls=None):
    seen = []
    f = tvm_ffi.convert_func(lambda *args: seen.append(args), tensor_cls=tensor_cls)
    return f, seen


def test_convert_func_wraps_a_callable():
    f = tvm_ffi.convert_func(lambda a, b: a + b)
    assert isinstance(f, tvm_ffi.Function) and f(2, 3) == 5


def test_without_tensor_cls_tensors_arrive_as_tvm_ffi_tensors():
    f, seen = _capture()
    t = tvm_ffi.from_dlpack(np.arange(3.0))
    f(t)
    assert type(seen[0][0]) is tvm_ffi.Tensor


def test_tensor_cls_without_exchange_api_is_type_error():
    with pytest.raises(TypeError, match="must expose __dlpack_c_exchange_api__"):
        tvm_ffi.convert_func(lambda: 0, tensor_cls=int)


def test_tensor_cls_not_a_class_is_type_error():
    with pytest.raises(TypeError, match="must expose __dlpack_c_exchange_api__"):
        tvm_ffi.convert_func(lambda: 0, tensor_cls=3)


def test_non_callable_is_type_error():
    with pytest.raises(TypeError, match="expects a callable"):
        tvm_ffi.convert_func(5)


torch = pytest.importorskip("torch")


def test_tensor_cls_torch_gives_torch_tensors_sharing_memory():
    f, seen = _capture(torch.Tensor)
    arr = np.arange(4.0)
    t = tvm_ffi.from_dlpack(arr)
    f(t)
    got = seen[0][0]
    assert isinstance(got, torch.Tensor)
    assert got.data_ptr() == arr.ctypes.data


def test_tensor_cls_leaves_other_arguments_alone():
    f, seen = _capture(torch.Tensor)
    f(1, "x", None, 2.5)
    assert seen[0] == (1, "x", None, 2.5)


def test_tensor_cls_containers_yield_torch_tensors():
    f, seen = _capture(torch.Tensor)
    t = tvm_ffi.from_dlpack(np.arange(2.0))
    f([t], {"k": t})
    arr, mapping = seen[0]
    assert isinstance(arr, tvm_ffi.Array) and isinstance(arr[0], torch.Tensor)
    assert isinstance(mapping["k"], torch.Tensor)


def test_tensor_cls_callback_result_goes_back_as_a_tensor():
    g = tvm_ffi.convert_func(lambda x: x + 1, tensor_cls=torch.Tensor)
    out = g(tvm_ffi.from_dlpack(np.arange(3.0)))
    assert np.array_equal(np.from_dlpack(out), np.arange(3.0) + 1)


def test_tensor_cls_callback_error_propagates():
    def fail(x):
        raise ValueError("bad tensor")

    g = tvm_ffi.convert_func(fail, tensor_cls=torch.Tensor)
    with pytest.raises(ValueError, match="bad tensor"):
        g(tvm_ffi.from_dlpack(np.arange(3.0)))
