"""Read-only arrays (numpy's writeable=False, broadcast_to, frombuffer over bytes).

tvm_ffi.from_dlpack imports them as Tensors that stay read-only (versioned DLPack exports
carry the flag, legacy ones are refused). Passed to a function, where the callee may write,
they are refused with a BufferError naming the argument, as numpy's own legacy __dlpack__
refuses them.
"""

import pytest
import tvm_ffi

np = pytest.importorskip("numpy", reason="numpy is not installed")

add_one_inplace = tvm_ffi.get_global_func("testing.tensor_add_one_inplace")
dltensor_ptr_add_one = tvm_ffi.get_global_func("testing.dltensor_ptr_add_one")
echo = tvm_ffi.get_global_func("testing.echo")
apply = tvm_ffi.get_global_func("testing.apply")


def _read_only():
    arr = np.arange(4, dtype="float32")
    arr.flags.writeable = False
    return arr


READ_ONLY_ARRAYS = {
    "writeable_false": _read_only,
    "broadcast_to": lambda: np.broadcast_to(np.arange(3, dtype="float32"), (2, 3)),
    "frombuffer_bytes": lambda: np.frombuffer(b"\0" * 16, dtype="float32"),
}


class VersionedProducer:
    """A DLPack producer (not numpy) that hands out numpy's versioned capsules."""

    def __init__(self, arr):
        self.arr = arr

    def __dlpack__(self, stream=None, max_version=None, **kwargs):
        return self.arr.__dlpack__(max_version=(1, 0))

    def __dlpack_device__(self):
        return self.arr.__dlpack_device__()


@pytest.mark.parametrize("make", READ_ONLY_ARRAYS.values(), ids=READ_ONLY_ARRAYS.keys())
def test_from_dlpack_keeps_read_only_arrays_read_only(make):
    tensor = tvm_ffi.from_dlpack(make())
    assert np.from_dlpack(tensor).flags.writeable is False


def test_from_dlpack_of_writable_array_stays_writable():
    tensor = tvm_ffi.from_dlpack(np.zeros(3, dtype="float32"))
    assert np.from_dlpack(tensor).flags.writeable is True


def test_legacy_export_of_read_only_tensor_raises_buffer_error():
    tensor = tvm_ffi.from_dlpack(_read_only())
    with pytest.raises(BufferError, match="read-only"):
        tensor.__dlpack__()


def test_versioned_export_of_read_only_tensor_succeeds():
    tensor = tvm_ffi.from_dlpack(_read_only())
    capsule = tensor.__dlpack__(max_version=(1, 0))
    assert "dltensor_versioned" in repr(capsule)


@pytest.mark.parametrize("make", READ_ONLY_ARRAYS.values(), ids=READ_ONLY_ARRAYS.keys())
def test_read_only_array_argument_raises_buffer_error_naming_it(make):
    arr = make()
    before = arr.copy()
    with pytest.raises(BufferError, match="argument #0 is a read-only ndarray"):
        add_one_inplace(arr)
    np.testing.assert_array_equal(arr, before)


def test_read_only_array_to_dltensor_pointer_parameter_raises_buffer_error():
    arr = _read_only()
    with pytest.raises(BufferError, match="argument #0 is a read-only ndarray"):
        dltensor_ptr_add_one(arr)
    np.testing.assert_array_equal(arr, np.arange(4, dtype="float32"))


def test_read_only_array_error_names_a_later_argument():
    with pytest.raises(BufferError, match="argument #1 "):
        apply(lambda x: x, _read_only())


def test_read_only_array_nested_in_a_list_raises_buffer_error():
    with pytest.raises(BufferError, match="read-only ndarray"):
        echo([1, _read_only()])


def test_convert_of_read_only_array_raises_buffer_error():
    with pytest.raises(BufferError, match="read-only ndarray"):
        tvm_ffi.convert(_read_only())


def test_read_only_versioned_capsule_argument_raises_buffer_error():
    producer = VersionedProducer(_read_only())
    with pytest.raises(BufferError, match="argument #0 is a read-only VersionedProducer"):
        add_one_inplace(producer)
    np.testing.assert_array_equal(producer.arr, np.arange(4, dtype="float32"))


def test_from_dlpack_of_read_only_versioned_capsule_stays_read_only():
    tensor = tvm_ffi.from_dlpack(VersionedProducer(_read_only()))
    assert np.from_dlpack(tensor).flags.writeable is False


def test_writable_copy_of_read_only_array_is_accepted():
    arr = _read_only().copy()
    add_one_inplace(arr)
    np.testing.assert_array_equal(arr, np.arange(1, 5, dtype="float32"))


def test_writable_array_argument_is_still_written_in_place():
    arr = np.zeros(3, dtype="float32")
    dltensor_ptr_add_one(arr)
    np.testing.assert_array_equal(arr, np.ones(3, dtype="float32"))
