"""The text forms ffi.ToJSONGraphString / ffi.FromJSONGraphString, which write and read
the graph text directly, against their definition: json.Stringify of ffi.ToJSONGraph and
ffi.FromJSONGraph of json.Parse (same text, same values, same errors)."""

import math

import pytest
import tvm_ffi
import tvm_ffi.testing
from tvm_ffi.core import _get_global_func

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
