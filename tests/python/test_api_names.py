"""Names of the reference package's API that code written for it uses: core helpers,
tvm_ffi.testing.create_object, the package's __all__, Function schemas in either form."""

import json

import pytest
import tvm_ffi
import tvm_ffi.testing
from tvm_ffi import core


def test_env_set_current_stream_returns_the_previous_one():
    assert core._env_get_current_stream(2, 3) == 0
    assert core._env_set_current_stream(2, 3, 0x55) == 0
    try:
        assert core._env_get_current_stream(2, 3) == 0x55
    finally:
        assert core._env_set_current_stream(2, 3, 0) == 0x55
    assert core._env_get_current_stream(2, 3) == 0


def test_env_set_current_stream_rejects_a_non_int_stream():
    with pytest.raises(TypeError, match="stream must be an int"):
        core._env_set_current_stream(2, 0, "s")


def test_print_debug_info_prints_the_dispatch_cache_size(capsys):
    core._print_debug_info()
    out = capsys.readouterr().out
    assert out.startswith("TVMFFIPyGetArgDispatchMapSize: ") and int(out.split(": ")[1]) >= 0


def test_create_object_sets_the_given_fields():
    pair = tvm_ffi.testing.create_object("testing.TestIntPair", a=1, b=2)
    assert isinstance(pair, tvm_ffi.testing.TestIntPair) and (pair.a, pair.b) == (1, 2)


def test_create_object_missing_field_is_a_type_error():
    with pytest.raises(TypeError, match="b"):
        tvm_ffi.testing.create_object("testing.TestIntPair", a=1)


def test_create_object_unknown_field_is_a_type_error():
    with pytest.raises(TypeError, match="c"):
        tvm_ffi.testing.create_object("testing.TestIntPair", a=1, b=2, c=3)


def test_create_object_unknown_type_key_raises():
    with pytest.raises((KeyError, RuntimeError), match="nonexist.X"):
        tvm_ffi.testing.create_object("nonexist.X")


@pytest.mark.parametrize("name", ["dataclasses", "serialization", "structural", "cpp", "LIB"])
def test_package_all_lists_the_reference_names(name):
    assert name in tvm_ffi.__all__ and hasattr(tvm_ffi, name)


# The exports the spec lists for tvm_ffi.structural (all re-exported at top level).
STRUCTURAL_NAMES = [
    "DefRegionKind",
    "InplaceMode",
    "StructuralKey",
    "StructuralMutator",
    "StructuralVisitor",
    "VisitInterrupt",
    "WalkOrder",
    "WalkResult",
    "get_first_structural_mismatch",
    "structural_equal",
    "structural_hash",
    "structural_map",
    "structural_mutate",
    "structural_visit",
    "structural_walk",
]


def test_structural_all_lists_exactly_the_reference_names():
    assert sorted(tvm_ffi.structural.__all__) == STRUCTURAL_NAMES


@pytest.mark.parametrize("name", STRUCTURAL_NAMES)
def test_structural_name_resolves_in_the_module_and_at_top_level(name):
    value = getattr(tvm_ffi.structural, name)
    assert getattr(tvm_ffi, name) is value


def test_serialization_all_lists_exactly_the_reference_names():
    assert sorted(tvm_ffi.serialization.__all__) == ["from_json_graph_str", "to_json_graph_str"]


def test_star_import_gives_the_submodules():
    namespace = {}
    exec("from tvm_ffi import *", namespace)
    assert namespace["dataclasses"] is tvm_ffi.dataclasses
    assert namespace["serialization"] is tvm_ffi.serialization


def _schema(text):
    return json.dumps({"type_schema": text})


def test_dltensor_parameters_read_from_the_args_form_of_a_schema():
    text = json.dumps(
        {"type": "ffi.Function", "args": [{"type": "None"}, {"type": "int"}, {"type": "DLTensor*"}]}
    )
    assert core._dltensor_param_mask(_schema(text)) == 0b10


def test_dltensor_parameters_read_from_the_named_args_form_of_a_schema():
    text = json.dumps(
        {
            "type": "ffi.Function",
            "named_args": {
                "return": [{"type": "None"}],
                "params": [{"type": "DLTensor*"}, {"type": "int"}, {"type": "DLTensor*"}],
            },
        }
    )
    assert core._dltensor_param_mask(_schema(text)) == 0b101


@pytest.mark.parametrize(
    "text", ['{"type":"ffi.Function"}', "not json", '{"named_args":{"params":3}}']
)
def test_schema_without_parameters_gives_no_dltensor_parameters(text):
    assert core._dltensor_param_mask(_schema(text)) == 0
