"""tvm_ffi.testing._SchemaAllTypes (testing.SchemaAllTypes, cpp/src/testing/testing_schema.cc):
one reflected field per kind of type schema, and methods whose schemas mix them."""

import json

import pytest
import tvm_ffi
from tvm_ffi.testing import _SchemaAllTypes

FIELDS = [
    ("v_bool", "bool", 1, 24),
    ("v_int", "int", 8, 32),
    ("v_float", "float", 8, 40),
    ("v_device", "Device", 8, 48),
    ("v_dtype", "dtype", 4, 56),
    ("v_string", "str", 16, 64),
    ("v_bytes", "bytes", 16, 80),
    ("v_opt_int", "int | None", 16, 96),
    ("v_opt_str", "str | None", 16, 112),
    ("v_arr_int", "Array[int]", 8, 128),
    ("v_arr_str", "Array[str]", 8, 136),
    ("v_map_str_int", "Map[str, int]", 8, 144),
    ("v_map_str_arr_int", "Map[str, Array[int]]", 8, 152),
    ("v_variant", "str | Array[int] | Map[str, int]", 16, 160),
    ("v_opt_arr_variant", "Array[int | str] | None", 8, 176),
]


def _info():
    return _SchemaAllTypes.__tvm_ffi_type_info__


def _fields():
    return {f.name: f for f in _info().fields}


def _make():
    return _SchemaAllTypes.make_with(3, 2.5, "hey")


def test_type_key_and_parent():
    assert _info().type_key == "testing.SchemaAllTypes"
    assert _info().parent_type_info.type_key == "ffi.Object"


def test_fields_in_declaration_order_with_their_schemas_and_layout():
    got = [(f.name, repr(f.ty), f.size, f.offset) for f in _info().fields]
    assert got == FIELDS


def test_every_field_is_documented_and_writable():
    for field in _info().fields:
        assert field.doc
        assert not field.frozen


def test_defaults_of_int_float_and_string():
    fields = _fields()
    defaults = {n: f.c_default for n, f in fields.items() if f.c_has_default}
    assert defaults == {"v_int": 0, "v_float": 0.0, "v_string": "s"}


def test_bool_field_and_add_int_carry_extra_metadata():
    extra = {"bool_attr": True, "int_attr": 1, "str_attr": "hello"}
    meta = _fields()["v_bool"].metadata
    assert {k: meta[k] for k in extra} == extra
    method = next(m for m in _info().methods if m.name == "add_int")
    assert {k: method.metadata[k] for k in extra} == extra


def test_methods_and_their_kinds():
    got = [(m.name, m.is_static) for m in _info().methods]
    assert got == [
        ("add_int", False),
        ("append_int", False),
        ("maybe_concat", False),
        ("merge_map", False),
        ("make_with", True),
    ]


def test_make_with_schema_returns_the_type():
    method = next(m for m in _info().methods if m.name == "make_with")
    text = json.dumps(json.loads(method.metadata["type_schema"]))
    assert '"testing.SchemaAllTypes"' in text


def test_make_with_sets_three_fields_and_leaves_the_rest_at_defaults():
    obj = _make()
    assert isinstance(obj, _SchemaAllTypes)
    assert (obj.v_bool, obj.v_int, obj.v_float, obj.v_string) == (True, 3, 2.5, "hey")
    assert obj.v_device == tvm_ffi.device("cpu", 0)
    assert obj.v_dtype == tvm_ffi.dtype("float32")
    assert obj.v_bytes == b""
    assert (obj.v_opt_int, obj.v_opt_str, obj.v_opt_arr_variant) == (None, None, None)
    assert len(obj.v_arr_int) == len(obj.v_arr_str) == 0
    assert len(obj.v_map_str_int) == len(obj.v_map_str_arr_int) == 0
    assert obj.v_variant == "v"


def test_add_int_adds_to_v_int():
    assert _make().add_int(4) == 7


def test_append_int_returns_the_array_with_the_value_appended():
    assert list(_make().append_int([1, 2], 7)) == [1, 2, 7]


@pytest.mark.parametrize(
    "a, b, expected", [("a", "b", "ab"), (None, "b", "b"), ("a", None, "a"), (None, None, None)]
)
def test_maybe_concat(a, b, expected):
    assert _make().maybe_concat(a, b) == expected


def test_merge_map_concatenates_arrays_of_shared_keys():
    merged = _make().merge_map({"a": [1], "b": [2]}, {"b": [3], "c": [4]})
    assert {k: list(v) for k, v in merged.items()} == {"a": [1], "b": [2, 3], "c": [4]}


def test_append_int_rejects_a_non_int_item_naming_the_argument():
    with pytest.raises(TypeError, match="append_int"):
        _make().append_int([1], "x")


def test_fields_convert_on_assignment():
    obj = _make()
    obj.v_arr_int = [4, 5]
    obj.v_map_str_arr_int = {"k": [1]}
    obj.v_variant = [1, 2]
    obj.v_opt_arr_variant = [1, "x"]
    assert list(obj.v_arr_int) == [4, 5]
    assert list(obj.v_map_str_arr_int["k"]) == [1]
    assert list(obj.v_variant) == [1, 2]
    assert list(obj.v_opt_arr_variant) == [1, "x"]


def test_assigning_a_value_outside_the_variant_raises_type_error():
    obj = _make()
    with pytest.raises(TypeError):
        obj.v_variant = 1.5
    assert obj.v_variant == "v"
