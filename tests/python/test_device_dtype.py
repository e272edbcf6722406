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


# ---- tables and hooks that clients (Apache TVM) use --------------------------------------------


def test_device_class_tables_map_types_and_names_both_ways():
    assert tvm_ffi.Device._DEVICE_TYPE_TO_NAME[tvm_ffi.DLDeviceType.kDLCUDA] == "cuda"
    assert tvm_ffi.Device._DEVICE_TYPE_TO_NAME[1] == "cpu"
    assert tvm_ffi.Device._DEVICE_NAME_TO_TYPE["mps"] == tvm_ffi.DLDeviceType.kDLMetal
    assert isinstance(tvm_ffi.Device._DEVICE_NAME_TO_TYPE["cuda"], tvm_ffi.DLDeviceType)


def test_device_subclass_names_its_type_through_device_type_name():
    class RemoteDevice(tvm_ffi.Device):
        def __device_type_name__(self):
            return "remote[0]:" + tvm_ffi.Device._DEVICE_TYPE_TO_NAME[self.dlpack_device_type()]

    dev = RemoteDevice("cuda", 1)
    assert dev.type == "remote[0]:cuda"
    assert str(dev) == "remote[0]:cuda:1"
    assert repr(dev) == "device(type='remote[0]:cuda', index=1)"


def test_device_of_unknown_type_code_has_no_name():
    with pytest.raises(KeyError):
        str(tvm_ffi.Device(129, 0))


def test_dtype_numpy_table_maps_numpy_dtypes_to_names():
    np = pytest.importorskip("numpy")
    table = tvm_ffi.dtype._NUMPY_DTYPE_TO_STR
    assert np.dtype("float32") in table
    assert table[np.dtype("int64")] == "int64"
    assert table[np.dtype("bool")] == "bool"
    assert np.dtype("complex64") not in table


def test_dtype_numpy_table_knows_ml_dtypes_types():
    np = pytest.importorskip("numpy")
    ml_dtypes = pytest.importorskip("ml_dtypes")
    assert tvm_ffi.dtype._NUMPY_DTYPE_TO_STR[np.dtype(ml_dtypes.bfloat16)] == "bfloat16"


def test_dtype_integer_and_float_code_sets():
    from tvm_ffi._dtype import DataTypeCode

    assert tvm_ffi.dtype._INTEGER_CODES == {DataTypeCode.INT, DataTypeCode.UINT}
    assert DataTypeCode.FLOAT in tvm_ffi.dtype._FLOAT_CODES
    assert DataTypeCode.BFLOAT in tvm_ffi.dtype._FLOAT_CODES
    assert DataTypeCode.Float8E4M3FN in tvm_ffi.dtype._FLOAT_CODES
    assert DataTypeCode.INT not in tvm_ffi.dtype._FLOAT_CODES
    assert DataTypeCode.HANDLE not in tvm_ffi.dtype._FLOAT_CODES
