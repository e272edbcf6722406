"""tvm_ffi.utils.unpack_dataclass: dataclass instances to tuples, and the per-class schema."""

import collections
import dataclasses
import typing

import pytest
from tvm_ffi.utils.unpack_dataclass import (
    _extract_dataclass_to_tuple_schema,
    _validate_dataclass_to_tuple_schema,
    unpack_dataclass_to_tuple,
)


@dataclasses.dataclass
class Leafy:
    i: int
    s: str
    t: typing.Tuple[int, str]
    u: typing.Optional[float]


@dataclasses.dataclass
class Inner:
    v: int


@dataclasses.dataclass
class Outer:
    inner: Inner
    items: typing.List[int]
    anything: typing.Any
    me: typing.Optional["Outer"] = None


@dataclasses.dataclass
class Broken:
    x: "NoSuchName"  # noqa: F821


Pair = collections.namedtuple("Pair", ["a", "b"])


def test_instance_becomes_tuple_recursively():
    assert unpack_dataclass_to_tuple(Outer(Inner(1), [2], "z")) == ((1,), [2], "z", None)


def test_containers_keep_their_type():
    value = [Inner(1), (Inner(2),), {"k": Inner(3)}, Pair(Inner(4), 5)]
    out = unpack_dataclass_to_tuple(value)
    assert out == [(1,), ((2,),), {"k": (3,)}, Pair((4,), 5)]
    assert type(out[3]) is Pair


def test_other_values_are_returned_as_is():
    obj = object()
    assert unpack_dataclass_to_tuple(obj) is obj


def test_schema_of_leaf_fields_is_none():
    assert _extract_dataclass_to_tuple_schema(Leafy) == {"i": None, "s": None, "t": None, "u": None}


def test_schema_nests_dataclasses_and_unpacks_the_rest():
    assert _extract_dataclass_to_tuple_schema(Outer) == {
        "inner": {"v": None},
        "items": "unpack",
        "anything": "unpack",
        "me": "unpack",
    }


def test_schema_unpacks_every_field_when_hints_fail():
    assert _extract_dataclass_to_tuple_schema(Broken) == {"x": "unpack"}


def test_schema_of_non_dataclass_is_a_type_error():
    with pytest.raises(TypeError, match="Expected a dataclass class, got <class 'int'>"):
        _extract_dataclass_to_tuple_schema(int)


@pytest.mark.parametrize(
    "schema, error, message",
    [
        ([], TypeError, "DataclassToTupleSchema must be a dict, got list"),
        ({1: None}, TypeError, "Schema field name must be a string, got int"),
        ({"a-b": None}, ValueError, "Schema field name 'a-b' is not a valid Python identifier"),
        ({"class": None}, ValueError, "Schema field name 'class' is a Python keyword"),
        ({"ok": {"class": None}}, ValueError, "'class' is a Python keyword"),
    ],
)
def test_schema_validation_errors(schema, error, message):
    with pytest.raises(error, match=message):
        _validate_dataclass_to_tuple_schema(schema)
