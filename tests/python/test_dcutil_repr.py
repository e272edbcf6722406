"""ffi.ReprPrint and the reprs built on it (Object.__repr__, containers)."""

import ast
import math

import pytest
import tvm_ffi
from tvm_ffi import Array, Dict, List, Map

repr_print = tvm_ffi.get_global_func("ffi.ReprPrint")


@pytest.mark.parametrize(
    "value, text",
    [
        (None, "None"),
        (True, "True"),
        (42, "42"),
        (3.14, "3.14"),
        (0.0, "0"),
        (-0.0, "-0"),
        (1e10, "1e+10"),
        (123456789.0, "1.23457e+08"),
        (1 / 3, "0.333333"),
        (math.nan, "nan"),
        (math.inf, "inf"),
    ],
)
def test_scalars(value, text):
    assert repr_print(value) == text


def test_str_is_double_quoted_with_escapes():
    assert repr_print('a\nb\t"\\\r\x01\x7f') == '"a\\nb\\t\\"\\\\\\r\\x01\\x7f"'
    assert repr_print("\u00e9\u4e2d\U0001f600") == '"\\u00e9\\u4e2d\\U0001f600"'


@pytest.mark.parametrize("text", ["plain", 'q"uote', "back\\slash", "tab\tnl\n", "\u00e9", "\x00"])
def test_str_repr_parses_back_with_literal_eval(text):
    assert ast.literal_eval(repr_print(text)) == text


def test_bytes_escape_everything_but_printable_ascii():
    assert repr_print(b'ab"\\\x00\xff ~') == 'b"ab\\x22\\x5c\\x00\\xff ~"'


def test_containers():
    assert repr_print(Array([])) == "()"
    assert repr_print(Array([42])) == "(42,)"
    assert repr_print(Array([1, 2])) == "(1, 2)"
    assert repr_print(List([1, "a"])) == '[1, "a"]'
    assert repr_print(Map({"k": 1, 1: 2})) == '{"k": 1, 1: 2}'
    assert repr_print(Dict({})) == "{}"


def test_shape_device_dtype_function():
    assert repr_print(tvm_ffi.Shape((5, 6))) == "Shape(5, 6)"
    assert repr_print(tvm_ffi.device("cuda:1")) == "cuda:1"
    assert repr_print(tvm_ffi.dtype("float16")) == "float16"
    assert repr_print(tvm_ffi.get_global_func("testing.add_one")) == "ffi.Function"


def test_cycles_print_ellipsis():
    lst = List([1])
    lst.append(lst)
    assert repr(lst) == "[1, ...]"
    d = Dict({"a": 1})
    d["self"] = d
    assert repr(d) == '{"a": 1, "self": ...}'
    lst.clear()
    d.clear()


def test_shared_value_printed_in_full():
    x = Array([1])
    assert repr(Array([x, x])) == "((1,), (1,))"


def test_container_repr_is_the_ffi_text():
    assert repr(Array([1, "x"])) == '(1, "x")'
    assert repr(Map({"a": List([None])})) == '{"a": [None]}'


def test_object_repr_uses_reflected_fields():
    assert repr(tvm_ffi.testing.make_base(3)) == "testing.Base(a=3)"


def test_null_object_repr():
    assert repr(tvm_ffi.Object()) == "Object(chandle=None)"


def test_repr_with_addr(monkeypatch):
    monkeypatch.setenv("TVM_FFI_REPR_WITH_ADDR", "1")
    lst = List([1])
    addr = "@0x%x" % lst.__chandle__()
    assert repr(lst) == "[1]" + addr
    obj = tvm_ffi.testing.make_base(3)
    assert repr(obj) == "testing.Base@0x%x(a=3)" % obj.__chandle__()
    assert repr_print(tvm_ffi.Shape((1,))) == "Shape(1)"
