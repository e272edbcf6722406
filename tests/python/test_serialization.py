"""tvm_ffi.serialization (JSON object graphs), ffi.json.Parse/Stringify seen from Python,
and pickle / copy / deepcopy of objects through the graph (Object.__reduce__)."""

import copy
import json
import math
import pickle

import pytest
import tvm_ffi
import tvm_ffi.testing
from tvm_ffi import serialization
from tvm_ffi.core import _get_global_func


def _graph(value, metadata=None):
    return json.loads(serialization.to_json_graph_str(value, metadata))


def test_module_exports_exactly_the_two_functions():
    assert sorted(serialization.__all__) == ["from_json_graph_str", "to_json_graph_str"]


def test_list_round_trips_as_array():
    text = serialization.to_json_graph_str(tvm_ffi.convert([1, 2, 3]))
    back = serialization.from_json_graph_str(text)
    assert isinstance(back, tvm_ffi.Array)
    assert tuple(back) == (1, 2, 3)


def test_graph_text_layout_of_nested_array():
    assert _graph(tvm_ffi.convert([1, "a", [1, "a"]])) == {
        "root_index": 3,
        "nodes": [
            {"type": "int", "data": 1},
            {"type": "ffi.String", "data": "a"},
            {"type": "ffi.Array", "data": [0, 1]},
            {"type": "ffi.Array", "data": [0, 1, 2]},
        ],
    }


def test_metadata_is_stored_verbatim():
    g = _graph(tvm_ffi.convert([1, 2]), {"version": "1.0"})
    assert g["metadata"] == {"version": "1.0"}
    assert list(g) == ["root_index", "nodes", "metadata"]


def test_scalars_and_strings():
    assert _graph(None) == {"root_index": 0, "nodes": [{"type": "None"}]}
    assert _graph(1.5)["nodes"] == [{"type": "float", "data": 1.5}]
    assert _graph(b"\x00\x01abc")["nodes"] == [{"type": "ffi.Bytes", "data": "AAFhYmM="}]
    assert _graph(tvm_ffi.device("cuda", 1))["nodes"] == [{"type": "Device", "data": [2, 1]}]
    nan = serialization.from_json_graph_str(serialization.to_json_graph_str(float("nan")))
    assert math.isnan(nan)


def test_big_int_written_as_decimal_text():
    v = 2**70
    assert _graph(v)["nodes"] == [{"type": "ffi.BigInt", "data": "1180591620717411303424"}]
    assert serialization.from_json_graph_str(serialization.to_json_graph_str(v)) == v


def test_dict_and_map_round_trip_with_sharing():
    shared = tvm_ffi.List([1, 2])
    d = tvm_ffi.Dict({"a": shared, "b": shared})
    back = serialization.from_json_graph_str(serialization.to_json_graph_str(d))
    assert isinstance(back, tvm_ffi.Dict)
    assert list(back["a"]) == [1, 2]
    assert back["a"].same_as(back["b"])
    assert not back["a"].same_as(shared)


def test_function_cannot_be_serialized():
    f = tvm_ffi.convert(lambda x: x)
    with pytest.raises(TypeError, match="does not support ToJSONGraph"):
        serialization.to_json_graph_str(f)


def test_malformed_graph_text_is_value_error():
    with pytest.raises(ValueError, match="expected `root_index` integer field"):
        serialization.from_json_graph_str('{"nodes": []}')
    with pytest.raises(ValueError, match="invalid node index 3"):
        serialization.from_json_graph_str('{"root_index": 3, "nodes": []}')
    with pytest.raises(ValueError, match=r"Expecting value: line 1 column 2 \(char 1\)"):
        serialization.from_json_graph_str("[")


def test_json_parse_and_stringify_globals():
    parse = _get_global_func("ffi.json.Parse")
    stringify = _get_global_func("ffi.json.Stringify")
    v = parse('{"a": [1, 2.5, null, true]}')
    assert stringify(v, None) == '{"a":[1,2.5,null,true]}'
    assert stringify(v, 2) == '{\n  "a": [\n    1,\n    2.5,\n    null,\n    true\n  ]\n}'
    with pytest.raises(ValueError, match=r"Extra data: line 1 column 3 \(char 2\)"):
        parse("1 2")


@pytest.mark.parametrize(
    "make",
    [
        lambda: tvm_ffi.convert([1, "a", [2.5, None]]),
        lambda: tvm_ffi.List([1, 2]),
        lambda: tvm_ffi.Map({"k": 1}),
        lambda: tvm_ffi.Dict({"k": [1]}),
    ],
    ids=["Array", "List", "Map", "Dict"],
)
def test_containers_pickle_copy_and_deepcopy_as_new_equal_objects(make):
    value = make()
    for clone in (
        pickle.loads(pickle.dumps(value)),
        copy.copy(value),
        copy.deepcopy(value),
    ):
        assert type(clone) is type(value)
        assert not clone.same_as(value)
        assert serialization.to_json_graph_str(clone) == serialization.to_json_graph_str(value)


def test_pickle_of_function_is_serializer_type_error():
    with pytest.raises(TypeError, match="does not support ToJSONGraph"):
        pickle.dumps(tvm_ffi.convert(lambda: None))


def test_empty_object_pickles_as_empty():
    obj = tvm_ffi.Object()
    clone = pickle.loads(pickle.dumps(obj))
    assert type(clone) is tvm_ffi.Object
    assert clone.__chandle__() == 0


# ---- reflected objects of the testing library ----


def _make(type_key, **fields):
    args = [type_key]
    for k, v in fields.items():
        args += [k, v]
    return _get_global_func("ffi.MakeObjectFromPackedArgs")(*args)


def test_object_graph_matches_reference_layout():
    obj = _make("testing.TestObjectBase", v_i64=12, v_f64=2.5, v_str="s")
    assert serialization.to_json_graph_str(obj) == (
        '{"root_index":1,"nodes":[{"type":"ffi.String","data":"s"},'
        '{"type":"testing.TestObjectBase","data":{"v_i64":12,"v_f64":2.5,"v_str":0}}]}'
    )


def test_object_round_trip_is_a_new_object_with_equal_fields():
    obj = _make("testing.TestObjectBase", v_i64=12, v_f64=2.5, v_str="s")
    text = serialization.to_json_graph_str(obj)
    back = serialization.from_json_graph_str(text)
    assert type(back) is type(obj)
    assert not back.same_as(obj)
    assert serialization.to_json_graph_str(back) == text


def test_derived_object_writes_parent_fields_first_and_keeps_sharing():
    arr = tvm_ffi.convert([1, 2])
    obj = _make(
        "testing.TestObjectDerived", v_i64=1, v_f64=0.5, v_str="x", v_map={"a": arr}, v_array=arr
    )
    g = _graph(obj)
    root = g["nodes"][g["root_index"]]
    assert root["type"] == "testing.TestObjectDerived"
    assert list(root["data"]) == ["v_i64", "v_f64", "v_str", "v_map", "v_array"]
    back = serialization.from_json_graph_str(serialization.to_json_graph_str(obj))
    assert _graph(back) == g


def test_absent_fields_take_their_defaults():
    back = serialization.from_json_graph_str(
        '{"root_index":0,"nodes":[{"type":"testing.TestObjectBase","data":{}}]}'
    )
    assert _graph(back)["nodes"] == [
        {"type": "ffi.String", "data": "hello"},
        {"type": "testing.TestObjectBase", "data": {"v_i64": 10, "v_f64": 10.0, "v_str": 0}},
    ]


def test_object_created_through_unsafe_init_round_trips():
    pair = _make("testing.TestIntPair", a=3, b=4)
    back = serialization.from_json_graph_str(serialization.to_json_graph_str(pair))
    assert _graph(back)["nodes"] == [{"type": "testing.TestIntPair", "data": {"a": 3, "b": 4}}]


def test_object_copy_and_deepcopy_round_trip():
    obj = _make("testing.TestObjectBase", v_i64=7, v_f64=1.5, v_str="long string " * 3)
    text = serialization.to_json_graph_str(obj)
    for clone in (copy.copy(obj), copy.deepcopy(obj)):
        assert type(clone) is type(obj)
        assert not clone.same_as(obj)
        assert serialization.to_json_graph_str(clone) == text


@tvm_ffi.register_object("testing.serialization.Point")
class Point(tvm_ffi.Object):
    """Importable class of testing.serialization.Point, so that pickle can name it."""

    __slots__ = ()


def _point(**fields):
    return _make("testing.serialization.Point", **fields)


def test_registered_object_pickles_as_new_object_of_its_class():
    p = _point(x=3, dtype=tvm_ffi.dtype("int8"), label="L", payload=tvm_ffi.convert([1.5]))
    assert type(p) is Point
    text = serialization.to_json_graph_str(p)
    for clone in (pickle.loads(pickle.dumps(p)), copy.copy(p), copy.deepcopy(p)):
        assert type(clone) is Point
        assert not clone.same_as(p)
        assert serialization.to_json_graph_str(clone) == text


def test_point_graph_writes_int_and_dtype_inline_others_as_nodes():
    p = _point(x=3, dtype=tvm_ffi.dtype("int8"), label=None, payload="s")
    assert _graph(p) == {
        "root_index": 2,
        "nodes": [
            {"type": "None"},
            {"type": "ffi.String", "data": "s"},
            {
                "type": "testing.serialization.Point",
                "data": {"x": 3, "dtype": "int8", "label": 0, "payload": 1},
            },
        ],
    }


def test_object_reached_again_through_its_payload_is_value_error():
    p = _point(x=1, dtype=tvm_ffi.dtype("float32"), label=None)
    p.payload = tvm_ffi.List([p])
    try:
        with pytest.raises(
            ValueError,
            match="Cycle detected during serialization: an object of type "
            "`testing.serialization.Point` contains itself",
        ):
            serialization.to_json_graph_str(p)
    finally:
        p.payload = None  # break the cycle so both can be freed


def test_required_field_missing_is_type_error():
    with pytest.raises(TypeError, match="Required field `x` not set in type"):
        serialization.from_json_graph_str(
            '{"root_index":0,"nodes":[{"type":"testing.serialization.Point","data":{}}]}'
        )


def test_object_referring_to_itself_in_graph_is_value_error():
    text = (
        '{"root_index":1,"nodes":[{"type":"None"},{"type":"testing.serialization.Point",'
        '"data":{"x":1,"dtype":"int8","label":0,"payload":1}}]}'
    )
    with pytest.raises(ValueError, match="Invalid JSON Object Graph"):
        serialization.from_json_graph_str(text)


# ---- object graphs that contain themselves ----------------------------------------------------


def test_list_containing_itself_is_value_error_naming_the_list():
    lst = tvm_ffi.List([1])
    lst.append(lst)
    try:
        with pytest.raises(
            ValueError, match="Cycle detected during serialization: a List contains itself"
        ):
            serialization.to_json_graph_str(lst)
    finally:
        lst.clear()


def test_dict_containing_itself_is_value_error_naming_the_dict():
    d = tvm_ffi.Dict({"a": 1})
    d["self"] = d
    try:
        with pytest.raises(
            ValueError, match="Cycle detected during serialization: a Dict contains itself"
        ):
            serialization.to_json_graph_str(d)
    finally:
        d.clear()


def test_lists_containing_each_other_are_value_error():
    inner = tvm_ffi.List()
    outer = tvm_ffi.List([inner])
    inner.append(outer)
    try:
        with pytest.raises(ValueError, match="a List contains itself"):
            serialization.to_json_graph_str(outer)
    finally:
        inner.clear()


def test_pickling_a_list_containing_itself_is_the_serialization_value_error():
    lst = tvm_ffi.List([1])
    lst.append(lst)
    try:
        with pytest.raises(ValueError, match="a List contains itself") as info:
            pickle.dumps(lst)
        assert hasattr(info.value, "__tvm_ffi_error__")
    finally:
        lst.clear()


def test_deepcopy_of_a_list_containing_itself_keeps_the_cycle_in_the_copy():
    lst = tvm_ffi.List([1])
    lst.append(lst)
    dup = copy.deepcopy(lst)
    try:
        assert not dup.same_as(lst) and dup[1].same_as(dup) and dup[0] == 1
    finally:
        lst.clear()
        dup.clear()
