"""The text forms ffi.ToJSONGraphString / ffi.FromJSONGraphString, which write and read
the graph text directly, against their definition: json.Stringify of ffi.ToJSONGraph and
ffi.FromJSONGraph of json.Parse (same text, same values, same errors)."""

import math
from typing import Any

import pytest
import tvm_ffi
import tvm_ffi.testing
from tvm_ffi.core import _get_global_func
from tvm_ffi.dataclasses import py_class

to_graph = _get_global_func("ffi.ToJSONGraph", False)
to_text = _get_global_func("ffi.ToJSONGraphString", False)
from_graph = _get_global_func("ffi.FromJSONGraph", False)
from_text = _get_global_func("ffi.FromJSONGraphString", False)
parse = _get_global_func("ffi.json.Parse", False)
stringify = _get_global_func("ffi.json.Stringify", False)


def _make(type_key, **fields):
    args = [type_key]
    for k, v in fields.items():
        args += [k, v]
    return _get_global_func("ffi.MakeObjectFromPackedArgs")(*args)


def _point(**fields):
    return _make("testing.serialization.Point", **fields)


def _values():
    shared = tvm_ffi.convert([1, "s"])
    return [
        None,
        True,
        -(2**63),
        2.5,
        float("nan"),
        float("-inf"),
        -0.0,
        'quote " slash / back \\ tab \t nl \n \x01 \x7f é',
        "",
        b"\x00\xffbytes",
        tvm_ffi.dtype("float16x4"),
        tvm_ffi.Device(2, 3),
        tvm_ffi.Shape((2, 0, 5)),
        tvm_ffi.convert([]),
        tvm_ffi.convert({}),
        tvm_ffi.convert([shared, shared, {"k": shared, 1: None, 2.5: "v"}]),
        tvm_ffi.List([1, tvm_ffi.List([]), tvm_ffi.Dict({"a": 1})]),
        _point(x=3, dtype=tvm_ffi.dtype("int8"), label=None, payload="s"),
        _point(x=-1, dtype=tvm_ffi.dtype("bool"), label="L", payload=tvm_ffi.convert([1.5])),
        _make("testing.TestObjectBase", v_i64=12, v_f64=float("inf"), v_str="s"),
    ]


@pytest.mark.parametrize("index", range(len(_values())))
def test_text_is_stringify_of_graph(index):
    value = _values()[index]
    for metadata in (None, {"a": [1, 2.5, None, "x/y"], "b": {}}):
        assert to_text(value, metadata) == stringify(to_graph(value, metadata), None)


@pytest.mark.parametrize("index", range(len(_values())))
def test_text_reads_as_its_parsed_graph(index):
    text = to_text(_values()[index], None)
    expected = from_graph(parse(text))
    got = from_text(text)
    assert to_text(got, None) == to_text(expected, None)


def test_big_int_text_goes_through_its_hooks():
    big = -(10**40)
    text = to_text(big, None)
    assert text == stringify(to_graph(big, None), None)
    assert from_text(text) == big


@pytest.mark.parametrize(
    "text",
    [
        # whitespace, members in another order, a repeated member (the last one counts)
        ' { "nodes" : [ {"data": 7, "type": "int"} , {"type":"int","data":8} ] ,'
        ' "root_index" : 0, "root_index": 1 } ',
        # escapes in keys and strings
        '{"root_index":0,"nodes":[{"type":"ffi.Str\\u0069ng","data":"a\\"b\\u00e9\\ud83d\\ude00"}]}',
        # a node no index reaches, and nodes shared by two parents
        '{"root_index":3,"nodes":[{"type":"int","data":1},{"type":"float","data":"bad"},'
        '{"type":"ffi.Array","data":[0,0]},{"type":"ffi.Map","data":[0,2]}]}',
        # an int payload of a float node
        '{"root_index":1,"nodes":[{"type":"float","data":3},{"type":"ffi.List","data":[0,0]}]}',
        # an object with a field written twice and an unknown member
        '{"root_index":1,"nodes":[{"type":"ffi.String","data":"p"},'
        '{"type":"testing.serialization.Point",'
        '"data":{"x":1,"x":2,"dtype":"int8","label":0,"payload":0,"extra":5}}]}',
        # big numbers: past int64 they read as floats
        '{"root_index":0,"nodes":[{"type":"float","data":123456789012345678901}]}',
        '{"root_index":0,"nodes":[{"type":"int","data":-999999999999999999}]}',
    ],
)
def test_handwritten_text_reads_as_its_parsed_graph(text):
    expected = from_graph(parse(text))
    got = from_text(text)
    assert to_text(got, None) == to_text(expected, None)


def _error_of(fn, *args):
    try:
        fn(*args)
    except Exception as err:
        return type(err), str(err)
    return None


@pytest.mark.parametrize(
    "text",
    [
        "",
        "[1, 2",
        '{"root_index":0}',
        '{"root_index":"0","nodes":[]}',
        '{"root_index":5,"nodes":[{"type":"None"}]}',
        '{"root_index":0,"nodes":[{"type":"no.such.Type","data":1}]}',
        '{"root_index":0,"nodes":[{"data":1}]}',
        '{"root_index":0,"nodes":[[1]]}',
        '{"root_index":0,"nodes":[{"type":"ffi.Array","data":[0]}]}',
        '{"root_index":0,"nodes":[{"type":"ffi.Array","data":[7]}]}',
        '{"root_index":0,"nodes":[{"type":"ffi.Map","data":[0]}]}',
        '{"root_index":0,"nodes":[{"type":"int"}]}',
        '{"root_index":0,"nodes":[{"type":"int","data":"x"}]}',
        '{"root_index":0,"nodes":[{"type":"int","data":1.0}]}',
        '{"root_index":0,"nodes":[{"type":"testing.serialization.Point","data":{}}]}',
        '{"root_index":0,"nodes":[{"type":"testing.serialization.Point","data":[]}]}',
        "[]",
        '{"root_index":0,"nodes":{}}',
        '{"root_index":0,"nodes":[{"type":"ffi.List","data":[0.5]}]}',
        '{"root_index":0,"nodes":[{"type":"ffi.Dict","data":{}}]}',
        '{"root_index":0,"nodes":[{"type":"Device","data":[1]}]}',
        '{"root_index":0,"nodes":[{"type":"ffi.Shape","data":[1,"x"]}]}',
        '{"root_index":1,"nodes":[{"type":"None"},{"type":7}]}',
        '{"root_index":1,"nodes":[{"type":"int","data":1},{"type":"ffi.Array","data":[0,-1]}]}',
        '{"root_index":0,"nodes":[{"type":"testing.serialization.Point",'
        '"data":{"x":1,"dtype":"int8","label":"0","payload":0}}]}',
    ],
)
def test_errors_are_those_of_the_parsed_graph(text):
    def reference(t):
        return from_graph(parse(t))

    expected = _error_of(reference, text)
    assert expected is not None
    assert _error_of(from_text, text) == expected


def test_writer_error_is_that_of_the_graph():
    fn = tvm_ffi.get_global_func("ffi.ToJSONGraph")
    assert _error_of(to_text, fn, None) == _error_of(to_graph, fn, None)


def test_nan_survives_the_text_round_trip():
    back = from_text(to_text(tvm_ffi.convert([float("nan")]), None))
    assert math.isnan(back[0])


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[1]", "Invalid JSON Object Graph, expected an object"),
        ('{"root_index":0,"nodes":[{"type":"ffi.Array","data":[0]}]}', "node 0 refers to itself"),
        ('{"root_index":0,"nodes":[{"type":"ffi.Array","data":[7]}]}', "invalid node index 7"),
        ('{"root_index":0,"nodes":[{"type":"ffi.Map","data":[0]}]}', "even number"),
        ('{"root_index":0,"nodes":[{"type":"ffi.List","data":["1"]}]}', "must be an integer"),
        ('{"root_index":0,"nodes":[3]}', "node 0 must be an object, got `int`"),
    ],
)
def test_malformed_graph_text_names_what_and_where(text, message):
    with pytest.raises(ValueError, match="Invalid JSON Object Graph") as info:
        from_text(text)
    assert message in str(info.value)


def test_unknown_type_key_in_graph_text_is_named():
    with pytest.raises(Exception, match="no.such.Type"):
        from_text('{"root_index":0,"nodes":[{"type":"no.such.Type","data":1}]}')


# A type whose JSON form comes from its __data_to_json__ / __data_from_json__ hooks; the
# hooks count their calls, so that a path that decodes or encodes a node twice shows.
CALLS = {"to": 0, "from": 0}


@py_class("test_serialization_text.Hooked")
class Hooked(tvm_ffi.Object):
    payload: Any

    def __data_to_json__(self):
        CALLS["to"] += 1
        return self.payload

    @staticmethod
    def __data_from_json__(data):
        CALLS["from"] += 1
        if data == "raise":
            raise RuntimeError("hook refused its data")
        return Hooked(data)


def _hooked_node(data):
    return '{"type":"test_serialization_text.Hooked","data":%s}' % data


def _reset_calls():
    CALLS["to"] = CALLS["from"] = 0


def test_from_json_hook_runs_once_per_node():
    _reset_calls()
    back = from_text(
        '{"root_index":1,"nodes":[%s,{"type":"ffi.Array","data":[0,0]}]}' % _hooked_node('"p"')
    )
    assert CALLS["from"] == 1
    assert back[0].same_as(back[1]) and back[0].payload == "p"


def test_from_json_hook_runs_once_when_a_later_node_fails():
    text = (
        '{"root_index":2,"nodes":[%s,{"type":"int","data":"x"},{"type":"ffi.Array","data":[0,1]}]}'
        % _hooked_node("1")
    )
    _reset_calls()
    with pytest.raises(TypeError) as info:
        from_text(text)
    assert CALLS["from"] == 1
    assert (type(info.value), str(info.value)) == _error_of(lambda t: from_graph(parse(t)), text)


def test_from_json_hook_error_is_raised_after_one_call():
    _reset_calls()
    with pytest.raises(RuntimeError, match="hook refused its data"):
        from_text('{"root_index":0,"nodes":[%s]}' % _hooked_node('"raise"'))
    assert CALLS["from"] == 1


def test_to_json_hook_runs_once_per_node():
    obj = Hooked([1, "a"])
    _reset_calls()
    text = to_text(tvm_ffi.convert([obj, obj]), None)
    assert CALLS["to"] == 1
    _reset_calls()
    assert from_text(text)[1].payload == [1, "a"]
    assert CALLS["from"] == 1


def test_to_json_hook_runs_once_when_the_printer_refuses_its_data():
    value = tvm_ffi.convert([Hooked(b"bytes")])
    _reset_calls()
    got = _error_of(to_text, value, None)
    assert CALLS["to"] == 1
    assert got == _error_of(lambda v: stringify(to_graph(v, None), None), value)
    assert got[0] is ValueError and "Unsupported type" in got[1]


def test_graph_error_after_a_refused_hook_value_wins():
    fn = tvm_ffi.get_global_func("ffi.ToJSONGraph")
    value = tvm_ffi.convert([Hooked(b"bytes"), fn])
    _reset_calls()
    got = _error_of(to_text, value, None)
    assert CALLS["to"] == 1
    assert got == _error_of(to_graph, value, None)
    assert got[0] is TypeError and "does not support ToJSONGraph" in got[1]


def test_text_is_read_from_a_str_or_a_string_object():
    text = to_text(tvm_ffi.convert([1, "s"]), None)
    assert list(from_text(text)) == [1, "s"]
    assert list(from_text(tvm_ffi.convert(text))) == [1, "s"]
    # A str holding a NUL reaches the function as a String object: the error names the byte.
    with pytest.raises(ValueError, match="Extra data"):
        from_text(text + "\x00")
    with pytest.raises(TypeError, match="Expected `str` but got `int`"):
        from_text(1)
