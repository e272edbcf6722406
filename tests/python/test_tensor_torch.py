"""torch (CPU) interop of tvm_ffi.Tensor: DLPack both ways, arguments, dtypes."""

import gc

import pytest
import tvm_ffi

torch = pytest.importorskip("torch", reason="torch is not installed")

make_tensor = tvm_ffi.get_global_func("testing.make_tensor")
free_count = tvm_ffi.get_global_func("testing.tensor_free_count")
add_one_view = tvm_ffi.get_global_func("testing.tensor_add_one_inplace")
add_one_dltensor = tvm_ffi.get_global_func("testing.dltensor_ptr_add_one")
add_one_tensor = tvm_ffi.get_global_func("testing.tensor_obj_add_one")
tensor_info = tvm_ffi.get_global_func("testing.tensor_info")


def test_from_dlpack_torch_shares_memory():
    x = torch.arange(6, dtype=torch.float32).reshape(2, 3)
    t = tvm_ffi.from_dlpack(x)
    assert t.data_ptr() == x.data_ptr()
    assert t.shape == (2, 3) and t.dtype == "float32"


def test_torch_from_dlpack_of_tensor_shares_memory_both_ways():
    x = torch.zeros(4, dtype=torch.int64)
    y = torch.from_dlpack(tvm_ffi.from_dlpack(x))
    assert y.data_ptr() == x.data_ptr()
    y[1] = 5
    assert x[1].item() == 5
    x[2] = 9
    assert y[2].item() == 9


def test_torch_keeps_cpp_tensor_alive_until_released():
    before_free = free_count()
    t = make_tensor(tvm_ffi.Shape((3,)), tvm_ffi.dtype("float32"))
    y = torch.from_dlpack(t)
    y.fill_(2.0)
    del t
    gc.collect()
    assert free_count() == before_free and y.sum().item() == 6.0
    del y
    gc.collect()
    assert free_count() == before_free + 1


def test_torch_memory_stays_valid_after_torch_tensor_dropped():
    x = torch.full((1000,), 7.0)
    t = tvm_ffi.from_dlpack(x)
    del x
    gc.collect()
    # Fresh allocations must not reuse the memory the Tensor still owns.
    others = [torch.zeros(1000) for _ in range(8)]
    assert torch.from_dlpack(t).sum().item() == 7000.0
    assert all(o.data_ptr() != t.data_ptr() for o in others)


def test_torch_strided_view_carries_strides():
    base = torch.arange(24, dtype=torch.int32).reshape(4, 6)
    view = base[::2, 1:]
    t = tvm_ffi.from_dlpack(view)
    assert t.strides == (12, 1) and t.data_ptr() == view.data_ptr()


@pytest.mark.parametrize(
    "name",
    [
        "bool",
        "int8",
        "int16",
        "int32",
        "int64",
        "uint8",
        "float16",
        "bfloat16",
        "float32",
        "float64",
        "complex64",
        "complex128",
    ],
)
def test_torch_dtype_round_trip(name):
    from tvm_ffi import _dtype_interop

    torch_dtype = getattr(torch, name)
    x = torch.zeros(3, dtype=torch_dtype)
    t = tvm_ffi.from_dlpack(x)
    assert t.dtype == tvm_ffi.dtype(name) == tvm_ffi.dtype(torch_dtype)
    assert _dtype_interop.to_torch_dtype(t.dtype) is torch_dtype
    assert torch.from_dlpack(t).dtype is torch_dtype


def test_torch_tensor_view_parameter_no_copy():
    x = torch.zeros(3, dtype=torch.float32)
    add_one_view(x)
    assert x.tolist() == [1.0, 1.0, 1.0]
    assert tensor_info(x)[0] == x.data_ptr()


def test_torch_dltensor_ptr_parameter_no_copy():
    x = torch.zeros(2, dtype=torch.float64)
    add_one_dltensor(x)
    assert x.tolist() == [1.0, 1.0]


def test_torch_tensor_parameter_no_copy():
    x = torch.zeros(2, 2, dtype=torch.int64)
    add_one_tensor(x)
    assert x.tolist() == [[1, 1], [1, 1]]


def test_torch_tensor_reaches_view_parameter_as_dltensor_view():
    arg_kinds = tvm_ffi.get_global_func("testing.arg_kinds_view_tensor_view")
    x = torch.zeros(3, dtype=torch.float32)
    # Parameters 0 and 2 are declared DLTensor* (views), 1 is a Tensor (an object).
    assert list(arg_kinds(x, x, x)) == [7, 70, 7]


def test_torch_strided_view_parameter_sees_strides():
    x = torch.arange(12, dtype=torch.int32).reshape(3, 4)[:, 1::2]
    data, shape, strides = tensor_info(x)[:3]
    assert data == x.data_ptr() and list(shape) == [3, 2] and list(strides) == [4, 2]


# Lazy torch views whose memory does not hold their values: conj() of a complex tensor (the
# conjugate bit) and conj().imag (the negative bit). DLPack cannot carry either bit, so sharing
# them would hand a kernel other values than the tensor's; they are refused with the fix named.
LAZY_VIEWS = {
    "conj": lambda: torch.tensor([1 + 2j, 3 - 4j]).conj(),
    "conj_imag": lambda: torch.tensor([1 + 2j, 3 - 4j]).conj().imag,
    "conj_imag_slice": lambda: torch.tensor([1 + 2j, 3 - 4j, 5j]).conj().imag[1:],
    "conj_imag_scalar": lambda: torch.tensor([1 + 2j]).conj().imag[0],
}


@pytest.mark.parametrize("make", LAZY_VIEWS.values(), ids=LAZY_VIEWS.keys())
def test_from_dlpack_refuses_lazy_torch_view(make):
    with pytest.raises(BufferError, match=r"resolve_(conj|neg)\(\)"):
        tvm_ffi.from_dlpack(make())


@pytest.mark.parametrize("make", LAZY_VIEWS.values(), ids=LAZY_VIEWS.keys())
def test_tensor_parameter_refuses_lazy_torch_view(make):
    with pytest.raises(BufferError, match=r"bit set"):
        tvm_ffi.get_global_func("testing.echo")(make())


def test_view_parameter_refuses_conjugate_view():
    x = torch.tensor([1 + 2j]).conj()
    with pytest.raises(BufferError, match="conjugate bit"):
        tensor_info(x)


def test_view_parameter_refuses_negative_view():
    x = torch.tensor([1 + 2j]).conj().imag
    with pytest.raises(BufferError, match="negative bit"):
        add_one_view(x)


def test_resolved_conjugate_view_is_shared_with_its_values():
    x = torch.tensor([1 + 2j, 3 - 4j]).conj().resolve_conj()
    assert torch.from_dlpack(tvm_ffi.from_dlpack(x)).tolist() == [1 - 2j, 3 + 4j]


def test_imag_part_of_plain_complex_tensor_is_shared():
    x = torch.tensor([1 + 2j, 3 - 4j]).imag
    assert torch.from_dlpack(tvm_ffi.from_dlpack(x)).tolist() == [2.0, -4.0]


def test_odd_strided_float_view_is_shared():
    # Laid out like an imaginary half (odd element, even stride), but no lazy bit.
    x = torch.arange(6, dtype=torch.float32)[1::2]
    assert torch.from_dlpack(tvm_ffi.from_dlpack(x)).tolist() == [1.0, 3.0, 5.0]
