"""The compiled core is the module tvm_ffi.core: class names, pickles and messages say so."""

import copy
import io
import pickle

import pytest
import tvm_ffi
from tvm_ffi import core

CORE_CLASSES = [
    "Object",
    "Function",
    "Tensor",
    "Error",
    "String",
    "Bytes",
    "DataType",
    "Device",
    "CAny",
    "ObjectRValueRef",
    "OpaquePyObject",
    "ObjectConvertible",
]


def pickled_globals(data):
    """The (module, name) pairs loading the pickle imports."""
    found = []

    class Recorder(pickle.Unpickler):
        def find_class(self, module, name):
            found.append((module, name))
            return super().find_class(module, name)

    Recorder(io.BytesIO(data)).load()
    return found


def test_extension_module_is_named_tvm_ffi_core():
    assert core.__name__ == "tvm_ffi.core"


@pytest.mark.parametrize("name", CORE_CLASSES)
def test_core_class_module_is_tvm_ffi_core(name):
    assert getattr(core, name).__module__ == "tvm_ffi.core"


def test_core_function_module_is_tvm_ffi_core():
    assert core.from_dlpack.__module__ == "tvm_ffi.core"


def test_repr_of_core_class_names_the_package_module():
    assert repr(tvm_ffi.Function) == "<class 'tvm_ffi.core.Function'>"


@pytest.mark.parametrize(
    "value",
    [
        tvm_ffi.core.Error("TypeError", "t", "bt"),
        tvm_ffi.device("cuda", 1),
        tvm_ffi.core.DataType("int32"),
        tvm_ffi.Array([1, 2]),
    ],
    ids=["Error", "Device", "DataType", "Array"],
)
def test_pickle_imports_only_from_package_modules(value):
    modules = {module for module, _ in pickled_globals(pickle.dumps(value))}
    assert modules <= {"tvm_ffi.core", "tvm_ffi.container"}, modules


def test_data_type_pickles_by_its_fields():
    names = pickled_globals(pickle.dumps(core.DataType("float32x4")))
    assert ("tvm_ffi.core", "_create_cdtype_from_tuple") in names


@pytest.mark.parametrize("text", ["int32", "bfloat16", "float32x4", "int32xvscalex4", "bool"])
def test_data_type_pickle_round_trips(text):
    original = core.DataType(text)
    clone = pickle.loads(pickle.dumps(original))
    assert type(clone) is core.DataType and clone == original
    assert (clone.type_code, clone.bits, clone.lanes) == (
        original.type_code,
        original.bits,
        original.lanes,
    )


def test_data_type_copy_keeps_the_value():
    assert copy.deepcopy(core.DataType("float8_e4m3fn")) == core.DataType("float8_e4m3fn")


def test_argument_type_error_names_the_full_class():
    with pytest.raises(TypeError, match=r"expected tvm_ffi\.core\.CObject, got int"):
        core._error_fields(3)
