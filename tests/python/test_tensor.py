"""tvm_ffi.Tensor, tvm_ffi.from_dlpack and numpy interop (zero copy, lifetimes, dtypes)."""

import ctypes
import gc
import weakref

import pytest
import tvm_ffi

np = pytest.importorskip("numpy", reason="numpy is not installed")

make_tensor = tvm_ffi.get_global_func("testing.make_tensor")
alloc_count = tvm_ffi.get_global_func("testing.tensor_alloc_count")
free_count = tvm_ffi.get_global_func("testing.tensor_free_count")
add_one_view = tvm_ffi.get_global_func("testing.tensor_add_one_inplace")
add_one_dltensor = tvm_ffi.get_global_func("testing.dltensor_ptr_add_one")
add_one_tensor = tvm_ffi.get_global_func("testing.tensor_obj_add_one")
tensor_identity = tvm_ffi.get_global_func("testing.tensor_identity")
tensor_info = tvm_ffi.get_global_func("testing.tensor_info")
dltensor_info = tvm_ffi.get_global_func("testing.dltensor_ptr_info")


def _capsule_name_is(capsule, name):
    is_valid = ctypes.pythonapi.PyCapsule_IsValid
    is_valid.argtypes = [ctypes.py_object, ctypes.c_char_p]
    is_valid.restype = ctypes.c_int
    return bool(is_valid(capsule, name))


class CapsuleProducer:
    """A DLPack producer that is not numpy: hands out numpy's capsules, records them."""

    def __init__(self, array, legacy_only=False):
        self.array = array
        self.legacy_only = legacy_only
        self.capsules = []

    def __dlpack__(self, stream=None, max_version=None, dl_device=None, copy=None):
        if self.legacy_only and max_version is not None:
            raise TypeError("__dlpack__() got an unexpected keyword argument 'max_version'")
        capsule = self.array.__dlpack__(max_version=max_version)
        self.capsules.append(capsule)
        return capsule

    def __dlpack_device__(self):
        return self.array.__dlpack_device__()


def test_from_dlpack_numpy_shares_memory():
    arr = np.arange(6, dtype="float32").reshape(2, 3)
    t = tvm_ffi.from_dlpack(arr)
    assert isinstance(t, tvm_ffi.Tensor)
    assert t.data_ptr() == arr.ctypes.data


def test_tensor_properties():
    arr = np.zeros((2, 3, 4), dtype="int16")
    t = tvm_ffi.from_dlpack(arr)
    assert type(t.shape) is tuple and t.shape == (2, 3, 4)
    assert t.strides == (12, 4, 1)
    assert t.dtype == tvm_ffi.dtype("int16") and isinstance(t.dtype, tvm_ffi.dtype)
    assert t.device == tvm_ffi.Device("cpu", 0)
    assert t.ndim == 3 and t.byte_offset == 0
    assert t.__dlpack_device__() == (1, 0)


def test_tensor_repr_names_shape_dtype_device():
    t = tvm_ffi.from_dlpack(np.zeros((2, 5), dtype="float64"))
    text = repr(t)
    assert text == "float64[2, 5]@cpu:0"


def test_round_trip_numpy_tensor_numpy_same_pointer_and_mutation_both_ways():
    arr = np.arange(4, dtype="int64")
    back = np.from_dlpack(tvm_ffi.from_dlpack(arr))
    assert back.ctypes.data == arr.ctypes.data
    arr[0] = 100
    assert back[0] == 100
    back[3] = -7
    assert arr[3] == -7


def test_dlpack_versioned_capsule_when_max_version_given():
    t = tvm_ffi.from_dlpack(np.zeros(3, dtype="float32"))
    assert _capsule_name_is(t.__dlpack__(max_version=(1, 1)), b"dltensor_versioned")


def test_dlpack_legacy_capsule_without_max_version():
    t = tvm_ffi.from_dlpack(np.zeros(3, dtype="float32"))
    assert _capsule_name_is(t.__dlpack__(), b"dltensor")
    assert _capsule_name_is(t.__dlpack__(max_version=(0, 8)), b"dltensor")


def test_dlpack_copy_true_raises_buffer_error():
    t = tvm_ffi.from_dlpack(np.zeros(3, dtype="float32"))
    with pytest.raises(BufferError, match="copy not yet supported"):
        t.__dlpack__(max_version=(1, 0), copy=True)


def test_dlpack_other_device_raises_buffer_error():
    t = tvm_ffi.from_dlpack(np.zeros(3, dtype="float32"))
    with pytest.raises(BufferError, match="device"):
        t.__dlpack__(max_version=(1, 0), dl_device=(2, 0))


def test_dlpack_own_device_is_accepted():
    t = tvm_ffi.from_dlpack(np.zeros(3, dtype="float32"))
    assert _capsule_name_is(
        t.__dlpack__(max_version=(1, 0), dl_device=(1, 0)), b"dltensor_versioned"
    )


def test_from_dlpack_of_tensor_is_a_new_tensor_on_the_same_memory():
    arr = np.arange(3, dtype="float32")
    t = tvm_ffi.from_dlpack(arr)
    again = tvm_ffi.from_dlpack(t)
    assert type(again) is tvm_ffi.Tensor and not again.same_as(t)
    assert again.data_ptr() == t.data_ptr() == arr.ctypes.data
    assert (again.shape, again.dtype) == ((3,), "float32")


def test_from_dlpack_of_tensor_keeps_the_memory_alive_alone():
    t = tvm_ffi.from_dlpack(np.arange(3, dtype="int64"))
    again = tvm_ffi.from_dlpack(t)
    del t
    gc.collect()
    assert list(np.from_dlpack(again)) == [0, 1, 2]


def test_convert_of_tensor_is_a_new_tensor_on_the_same_memory():
    t = tvm_ffi.from_dlpack(np.zeros(4, dtype="int8"))
    out = tvm_ffi.convert(t)
    assert isinstance(out, tvm_ffi.Tensor) and not out.same_as(t)
    assert out.data_ptr() == t.data_ptr()


def test_from_dlpack_of_tensor_checks_requirements():
    t = tvm_ffi.from_dlpack(np.zeros((4, 4), dtype="float32")[:, ::2])
    with pytest.raises(RuntimeError, match=r"^FromDLPack: Tensor is not contiguous\.$"):
        tvm_ffi.from_dlpack(t, require_contiguous=True)


def test_from_dlpack_capsule_producer_consumes_versioned_capsule():
    producer = CapsuleProducer(np.arange(5, dtype="int32"))
    t = tvm_ffi.from_dlpack(producer)
    assert t.data_ptr() == producer.array.ctypes.data
    assert _capsule_name_is(producer.capsules[0], b"used_dltensor_versioned")


def test_from_dlpack_falls_back_to_legacy_capsule():
    producer = CapsuleProducer(np.arange(5, dtype="int32"), legacy_only=True)
    t = tvm_ffi.from_dlpack(producer)
    assert t.data_ptr() == producer.array.ctypes.data
    assert _capsule_name_is(producer.capsules[0], b"used_dltensor")


def test_from_dlpack_rejects_non_producer_with_type_error():
    with pytest.raises(TypeError, match="compatible tensor or PyCapsule"):
        tvm_ffi.from_dlpack([1, 2, 3])


def test_numpy_array_lives_while_tensor_holds_it():
    arr = np.arange(3, dtype="float64")
    ref = weakref.ref(arr)
    t = tvm_ffi.from_dlpack(arr)
    del arr
    gc.collect()
    assert ref() is not None
    del t
    gc.collect()
    assert ref() is None


def test_capsule_producer_deleter_runs_once_after_last_holder():
    arr = np.arange(3, dtype="float64")
    ref = weakref.ref(arr)
    producer = CapsuleProducer(arr)
    t = tvm_ffi.from_dlpack(producer)
    view = np.from_dlpack(t)
    del arr, producer
    gc.collect()
    assert ref() is not None
    del t
    gc.collect()
    assert ref() is not None and view[2] == 2.0
    del view
    gc.collect()
    assert ref() is None


def test_cpp_tensor_freed_after_numpy_view_when_tensor_dropped_first():
    before_alloc, before_free = alloc_count(), free_count()
    t = make_tensor(tvm_ffi.Shape((4,)), tvm_ffi.dtype("float32"))
    assert isinstance(t, tvm_ffi.Tensor) and alloc_count() == before_alloc + 1
    view = np.from_dlpack(t)
    view[:] = 3.0
    del t
    gc.collect()
    assert free_count() == before_free
    assert view.sum() == 12.0
    del view
    gc.collect()
    assert free_count() == before_free + 1


def test_cpp_tensor_freed_after_tensor_when_numpy_view_dropped_first():
    before_free = free_count()
    t = make_tensor(tvm_ffi.Shape((2, 2)), tvm_ffi.dtype("int32"))
    view = np.from_dlpack(t)
    del view
    gc.collect()
    assert free_count() == before_free
    del t
    gc.collect()
    assert free_count() == before_free + 1


def test_unconsumed_capsule_releases_tensor_when_collected():
    before_free = free_count()
    t = make_tensor(tvm_ffi.Shape((2,)), tvm_ffi.dtype("float32"))
    capsule = t.__dlpack__(max_version=(1, 0))
    legacy = t.__dlpack__()
    del t
    gc.collect()
    assert free_count() == before_free
    del capsule
    assert free_count() == before_free
    del legacy
    gc.collect()
    assert free_count() == before_free + 1


def test_cpp_tensor_seen_by_numpy_without_copy():
    t = make_tensor(tvm_ffi.Shape((3,)), tvm_ffi.dtype("float64"))
    view = np.from_dlpack(t)
    assert view.ctypes.data == t.data_ptr()
    view[:] = [1.0, 2.0, 3.0]
    add_one_view(t)
    assert list(view) == [2.0, 3.0, 4.0]


NUMPY_DTYPES = [
    "bool",
    "int8",
    "int16",
    "int32",
    "int64",
    "uint8",
    "uint16",
    "uint32",
    "uint64",
    "float16",
    "float32",
    "float64",
    "complex64",
    "complex128",
]


@pytest.mark.parametrize("name", NUMPY_DTYPES)
def test_numpy_dtype_round_trip(name):
    arr = np.zeros((2, 3), dtype=name)
    t = tvm_ffi.from_dlpack(arr)
    assert t.dtype == tvm_ffi.dtype(name)
    back = np.from_dlpack(t)
    assert back.dtype == arr.dtype and back.ctypes.data == arr.ctypes.data


ML_DTYPES = [
    "bfloat16",
    "float8_e4m3fn",
    "float8_e5m2",
    "float8_e4m3fnuz",
    "float8_e5m2fnuz",
    "float8_e4m3b11fnuz",
]


@pytest.mark.parametrize("name", ML_DTYPES)
def test_ml_dtypes_round_trip(name):
    ml_dtypes = pytest.importorskip("ml_dtypes", reason="ml_dtypes is not installed")
    arr = np.zeros(4, dtype=getattr(ml_dtypes, name))
    t = tvm_ffi.from_dlpack(arr)
    assert t.dtype == tvm_ffi.dtype(name) and t.data_ptr() == arr.ctypes.data
    back = t.numpy()
    assert back.dtype == arr.dtype and back.ctypes.data == arr.ctypes.data


def test_dtype_interop_conversions():
    from tvm_ffi import _dtype_interop

    assert _dtype_interop.to_numpy_dtype("float16") == np.dtype("float16")
    assert tvm_ffi.dtype(np.dtype("uint32")) == "uint32"


def test_sliced_view_carries_strides_in_elements():
    base = np.arange(24, dtype="int32").reshape(4, 6)
    view = base[::2, 1:]
    t = tvm_ffi.from_dlpack(view)
    assert t.shape == (2, 5) and t.strides == (12, 1)
    assert t.data_ptr() == view.ctypes.data
    data, shape, strides, byte_offset, _, _ = tensor_info(view)
    assert (data + byte_offset, tuple(shape), tuple(strides)) == (view.ctypes.data, (2, 5), (12, 1))


def test_cpp_writes_through_strided_view_only():
    base = np.zeros((4, 6), dtype="float32")
    add_one_view(base[::2, 1:])
    expected = np.zeros((4, 6), dtype="float32")
    expected[::2, 1:] = 1.0
    assert (base == expected).all()


def test_zero_dim_array():
    arr = np.array(5.0, dtype="float64")
    t = tvm_ffi.from_dlpack(arr)
    assert t.ndim == 0 and t.shape == () and t.strides == ()
    add_one_view(arr)
    assert float(arr) == 6.0


def test_size_zero_array():
    arr = np.zeros((0, 3), dtype="float32")
    t = tvm_ffi.from_dlpack(arr)
    assert t.shape == (0, 3)
    assert np.from_dlpack(t).shape == (0, 3)


def test_read_only_array_keeps_read_only_flag():
    arr = np.arange(3, dtype="float32")
    arr.flags.writeable = False
    back = np.from_dlpack(tvm_ffi.from_dlpack(arr))
    assert not back.flags.writeable


def test_writable_array_stays_writable():
    back = np.from_dlpack(tvm_ffi.from_dlpack(np.zeros(3, dtype="float32")))
    assert back.flags.writeable


def test_byte_swapped_array_rejected_with_reason():
    arr = np.zeros(3, dtype=">i4")
    with pytest.raises(TypeError, match="byte-swapped"):
        tvm_ffi.from_dlpack(arr)


def test_object_array_rejected_with_reason():
    arr = np.array([object(), object()], dtype=object)
    with pytest.raises(TypeError, match="object"):
        tvm_ffi.from_dlpack(arr)


def test_require_contiguous_rejects_strided_view():
    view = np.zeros((4, 4), dtype="float32")[:, ::2]
    with pytest.raises(RuntimeError) as info:
        tvm_ffi.from_dlpack(view, require_contiguous=True)
    assert str(info.value) == "FromDLPack: Tensor is not contiguous."


def test_require_alignment_rejects_misaligned_data():
    view = np.zeros(16, dtype="uint8")[1:]
    with pytest.raises(RuntimeError) as info:
        tvm_ffi.from_dlpack(view, require_alignment=8)
    assert str(info.value) == "FromDLPack: Data is not aligned to 8 bytes."


def test_require_alignment_need_not_be_a_power_of_two():
    arr = np.zeros(16, dtype="uint8")
    skew = next(k for k in range(3) if (arr.ctypes.data + k) % 3 != 0)
    with pytest.raises(RuntimeError, match="aligned to 3 bytes"):
        tvm_ffi.from_dlpack(arr[skew:], require_alignment=3)
    fit = next(k for k in range(3) if (arr.ctypes.data + k) % 3 == 0)
    assert tvm_ffi.from_dlpack(arr[fit:], require_alignment=3).shape == (16 - fit,)


def test_require_alignment_counts_the_byte_offset():
    arr = np.zeros(16, dtype="uint8")
    base = tvm_ffi.from_dlpack(arr, require_alignment=16)
    assert base.data_ptr() % 16 == 0
    with pytest.raises(RuntimeError, match="aligned to 16 bytes"):
        tvm_ffi.from_dlpack(arr[8:], require_alignment=16)


def test_negative_require_alignment_is_a_value_error():
    with pytest.raises(ValueError, match="require_alignment"):
        tvm_ffi.from_dlpack(np.zeros(2), require_alignment=-1)


def test_requirements_met_give_a_tensor():
    arr = np.zeros((2, 3), dtype="float64")
    t = tvm_ffi.from_dlpack(arr, require_alignment=8, require_contiguous=True)
    assert t.shape == (2, 3) and t.data_ptr() == arr.ctypes.data


def test_require_contiguous_ignores_unit_dimensions():
    view = np.zeros((3, 1), dtype="float32")[:, ::1]
    view = np.lib.stride_tricks.as_strided(view, shape=(3, 1), strides=(4, 400))
    assert tvm_ffi.from_dlpack(view, require_contiguous=True).shape == (3, 1)


def test_refused_numpy_array_keeps_its_reference_count():
    import sys

    view = np.zeros((4, 4), dtype="float32")[:, ::2]
    refs = sys.getrefcount(view)
    with pytest.raises(RuntimeError, match="not contiguous"):
        tvm_ffi.from_dlpack(view, require_contiguous=True)
    assert sys.getrefcount(view) == refs


def test_refused_producer_capsule_stays_unconsumed():
    producer = CapsuleProducer(np.zeros((4, 4), dtype="float32")[:, ::2])
    with pytest.raises(RuntimeError, match="not contiguous"):
        tvm_ffi.from_dlpack(producer, require_contiguous=True)
    assert _capsule_name_is(producer.capsules[-1], b"dltensor_versioned")


def test_refused_raw_capsule_can_still_be_imported():
    capsule = np.zeros(16, dtype="uint8")[1:].__dlpack__()
    with pytest.raises(RuntimeError, match="not aligned"):
        tvm_ffi.from_dlpack(capsule, require_alignment=4)
    assert tvm_ffi.from_dlpack(capsule).shape == (15,)


def test_tensor_view_parameter_from_numpy_no_copy():
    arr = np.arange(4, dtype="int64")
    add_one_view(arr)
    assert list(arr) == [1, 2, 3, 4]
    assert tensor_info(arr)[0] == arr.ctypes.data


def test_dltensor_ptr_parameter_from_numpy_no_copy():
    arr = np.arange(4, dtype="float64")
    add_one_dltensor(arr)
    assert list(arr) == [1.0, 2.0, 3.0, 4.0]
    assert dltensor_info(arr)[0] == arr.ctypes.data


arg_kinds = tvm_ffi.get_global_func("testing.arg_kinds_view_tensor_view")
DLTENSOR_PTR, TENSOR = 7, 70  # type indexes (docs/abi.md)


def test_view_parameters_read_from_the_schema():
    assert add_one_view._view_args == (0,)
    assert add_one_dltensor._view_args == (0,)
    assert add_one_tensor._view_args == ()
    assert arg_kinds._view_args == (0, 2)


def test_numpy_array_reaches_view_parameter_as_dltensor_view_not_object():
    arr = np.zeros(3, dtype="float32")
    # Parameters 0 and 2 are declared DLTensor*, parameter 1 Tensor.
    assert list(arg_kinds(arr, arr, arr)) == [DLTENSOR_PTR, TENSOR, DLTENSOR_PTR]


def test_capsule_producer_reaches_view_parameter_unconsumed():
    producer = CapsuleProducer(np.arange(3, dtype="float32"))
    assert list(arg_kinds(producer)) == [DLTENSOR_PTR]
    # No Tensor adopted the capsule: it still carries its original name and
    # calls numpy's deleter when it goes away.
    (capsule,) = producer.capsules
    assert _capsule_name_is(capsule, b"dltensor_versioned")


def test_view_argument_without_schema_becomes_tensor_object():
    # A Function made from a Python callable has no schema: arrays go as objects.
    apply = tvm_ffi.get_global_func("testing.apply")
    seen = apply(tvm_ffi.Function(lambda t: t), np.zeros(2, dtype="int8"))
    assert isinstance(seen, tvm_ffi.Tensor)


def test_more_view_arguments_than_stack_slots_still_work():
    arrays = [np.arange(4, dtype="int64") for _ in range(6)]
    for arr in arrays:
        add_one_view(arr)
    assert [list(arr) for arr in arrays] == [[1, 2, 3, 4]] * 6
    assert list(arg_kinds(*arrays))[:3] == [DLTENSOR_PTR, TENSOR, DLTENSOR_PTR]


def test_strided_numpy_view_parameter_sees_element_strides_and_data():
    base = np.arange(24, dtype="int32").reshape(4, 6)
    view = base[1:, ::2]
    data, shape, strides, offset = tensor_info(view)[:4]
    assert data == view.ctypes.data and offset == 0
    assert list(shape) == [3, 3] and list(strides) == [6, 2]


def test_high_rank_array_to_view_parameter_uses_object_path():
    arr = np.zeros((1,) * 10, dtype="int64")  # more dimensions than a stack view holds
    assert list(tensor_info(arr)[1]) == [1] * 10


def test_view_parameter_rejects_misaligned_strides():
    raw = np.zeros(16, dtype="uint8")
    odd = np.lib.stride_tricks.as_strided(raw[:12].view("int32"), shape=(3,), strides=(3,))
    with pytest.raises(BufferError, match="not a multiple of the item size"):
        tensor_info(odd)


def test_view_parameter_rejects_byte_swapped_and_object_arrays():
    with pytest.raises(TypeError, match="byte-swapped"):
        tensor_info(np.zeros(3, dtype=">i4"))
    with pytest.raises(TypeError, match="object"):
        tensor_info(np.array([object()], dtype=object))


def test_tensor_parameter_from_numpy_no_copy():
    arr = np.arange(4, dtype="int32")
    add_one_tensor(arr)
    assert list(arr) == [1, 2, 3, 4]


def test_tensor_parameter_from_capsule_producer():
    producer = CapsuleProducer(np.zeros(3, dtype="float32"))
    add_one_tensor(producer)
    assert list(producer.array) == [1.0, 1.0, 1.0]


def test_tensor_argument_round_trips_as_same_object():
    t = tvm_ffi.from_dlpack(np.zeros(2, dtype="float32"))
    assert tensor_identity(t).same_as(t)


def test_tensor_returned_from_numpy_argument_keeps_array_alive():
    arr = np.arange(3, dtype="float32")
    ref = weakref.ref(arr)
    t = tensor_identity(arr)
    del arr
    gc.collect()
    assert ref() is not None and list(np.from_dlpack(t)) == [0.0, 1.0, 2.0]
    del t
    gc.collect()
    assert ref() is None


def test_unsupported_dtype_in_cpp_raises_type_error():
    with pytest.raises(TypeError, match="unsupported dtype"):
        add_one_view(np.zeros(2, dtype="uint8"))


def test_python_callback_receives_numpy_argument_as_tensor():
    apply = tvm_ffi.get_global_func("testing.apply")
    arr = np.arange(3, dtype="float32")
    seen = apply(lambda t: t, arr)
    assert isinstance(seen, tvm_ffi.Tensor) and seen.data_ptr() == arr.ctypes.data


class NotACapsuleProducer:
    def __dlpack__(self, stream=None, max_version=None, dl_device=None, copy=None):
        return "not a capsule"


@pytest.mark.parametrize(
    "use",
    [tvm_ffi.from_dlpack, add_one_view, add_one_tensor],
    ids=["from_dlpack", "view_parameter", "tensor_parameter"],
)
def test_producer_returning_no_capsule_raises_type_error_naming_it(use):
    with pytest.raises(TypeError, match="NotACapsuleProducer returned 'not a capsule'"):
        use(NotACapsuleProducer())
