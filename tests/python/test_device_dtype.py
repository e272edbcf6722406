"""tvm_ffi.Device, tvm_ffi.device, DLDeviceType and tvm_ffi.dtype."""

import pytest
import tvm_ffi


def test_device_from_type_name_and_index():
    dev = tvm_ffi.Device("cuda", 1)
    assert dev.device_type == tvm_ffi.DLDeviceType.kDLCUDA and dev.index == 1
    assert str(dev) == "cuda:1"


def test_device_from_string():
    dev = tvm_ffi.device("cuda:2")
    assert dev == tvm_ffi.Device("cuda", 2)
    assert tvm_ffi.device("cpu").index == 0


def test_device_from_enum():
    assert tvm_ffi.Device(tvm_ffi.DLDeviceType.kDLCPU, 0) == tvm_ffi.device("cpu:0")


def test_device_unknown_type_raises_value_error_naming_it():
    with pytest.raises(ValueError, match="tpu9"):
        tvm_ffi.device("tpu9")


def test_device_hashable_and_repr():
    assert len({tvm_ffi.device("cpu"), tvm_ffi.Device("cpu", 0)}) == 1
    assert "cuda" in repr(tvm_ffi.device("cuda:0"))


def test_dtype_is_str_with_fields():
    dt = tvm_ffi.dtype("float32")
    assert isinstance(dt, str) and dt == "float32"
    assert (dt.type_code, dt.bits, dt.lanes, dt.itemsize) == (2, 32, 1, 4)


def test_dtype_vector_lanes():
    dt = tvm_ffi.dtype("int8x4")
    assert dt.lanes == 4 and dt.itemsize == 4
    assert tvm_ffi.int8.with_lanes(4) == dt


def test_dtype_literals():
    assert tvm_ffi.float32 == "float32"
    assert tvm_ffi.int64.bits == 64
    assert tvm_ffi.bfloat16.type_code == 4
    assert tvm_ffi.float8_e4m3fn.bits == 8


def test_dtype_invalid_raises():
    with pytest.raises(Exception, match="notatype"):
        tvm_ffi.dtype("notatype")


def test_dtype_from_numpy():
    np = pytest.importorskip("numpy")
    assert tvm_ffi.dtype(np.float32) == "float32"
    assert tvm_ffi.dtype(np.dtype("int16")) == "int16"
    assert tvm_ffi.dtype("float64").to_numpy() == np.float64


def test_dtype_bfloat16_to_numpy_with_ml_dtypes():
    pytest.importorskip("ml_dtypes")
    assert tvm_ffi.bfloat16.to_numpy().name == "bfloat16"


def test_device_string_with_index_beyond_int32_raises_value_error():
    with pytest.raises(ValueError, match="99999999999"):
        tvm_ffi.device("cuda:99999999999")
