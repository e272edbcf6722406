"""The native fast path of py_class fields: the per-field converter plan that settles common
values in C, and the direct read of the native slot. Results and error messages must be those
of the field's TypeSchema converter (the slow path)."""

import typing

import pytest
import tvm_ffi
from tvm_ffi.core import FFIProperty, TypeSchema
from tvm_ffi.dataclasses import field, py_class


@py_class("test_py_class_fast.Base")
class Base(tvm_ffi.Object):
    a: int = 0


@py_class("test_py_class_fast.Derived")
class Derived(Base):
    pass


@py_class("test_py_class_fast.Other")
class Other(tvm_ffi.Object):
    x: int = 0


@py_class("test_py_class_fast.Fields")
class Fields(tvm_ffi.Object):
    i: int = 0
    f: float = 0.0
    b: bool = False
    s: str = ""
    oi: typing.Optional[int] = None
    os: typing.Optional[str] = None
    node: Base = field(default_factory=Base)
    maybe: typing.Optional[Base] = None
    anything: tvm_ffi.Object = field(default_factory=Base)


@py_class("test_py_class_fast.Frozen", frozen=True)
class Frozen(tvm_ffi.Object):
    v: int


def _slow_message(annotation, value):
    """The detail the Python converter gives for value: its message less the "type conversion
    failed for <type>: " prefix, which a setter's error leaves out."""
    schema = TypeSchema.from_annotation(annotation)
    with pytest.raises(TypeError) as err:
        schema.convert(value)
    prefix = "type conversion failed for %r: " % (schema,)
    assert str(err.value).startswith(prefix)
    return str(err.value)[len(prefix) :]


def _assign_message(name, value):
    with pytest.raises(TypeError) as err:
        setattr(Fields(), name, value)
    return str(err.value)


def test_int_field_stores_int():
    obj = Fields(i=-(2**63))
    assert obj.i == -(2**63) and type(obj.i) is int


def test_int_field_stores_bool_as_int():
    obj = Fields(i=True)
    assert obj.i == 1 and type(obj.i) is int


def test_float_field_converts_int():
    obj = Fields()
    obj.f = 3
    assert obj.f == 3.0 and type(obj.f) is float


def test_float_field_converts_bool():
    obj = Fields(f=True)
    assert obj.f == 1.0 and type(obj.f) is float


def test_float_field_rounds_large_int_like_python():
    obj = Fields(f=2**53 + 1)
    assert obj.f == float(2**53 + 1)


def test_bool_field_converts_int_by_truth():
    obj = Fields(b=3)
    assert obj.b is True


def test_bool_field_stores_false():
    obj = Fields(b=True)
    obj.b = 0
    assert obj.b is False


def test_str_field_stores_ascii_text():
    obj = Fields(s="a longer ascii string")
    assert obj.s == "a longer ascii string"


def test_str_field_stores_non_ascii_text():
    obj = Fields(s="héllo wörld")
    assert obj.s == "héllo wörld"


def test_str_field_keeps_embedded_nul():
    obj = Fields(s="a\0b")
    assert obj.s == "a\0b"


def test_optional_int_field_takes_none():
    obj = Fields(oi=5)
    obj.oi = None
    assert obj.oi is None


def test_optional_int_field_takes_int():
    obj = Fields(oi=True)
    assert obj.oi == 1 and type(obj.oi) is int


def test_optional_str_field_takes_str():
    assert Fields(os="x").os == "x"


def test_object_field_keeps_the_same_object():
    node = Base(7)
    obj = Fields(node=node)
    assert obj.node.same_as(node)


def test_object_field_takes_subclass_instance():
    obj = Fields(node=Derived(3))
    assert isinstance(obj.node, Derived) and obj.node.a == 3


def test_optional_object_field_takes_none():
    obj = Fields(maybe=Base(1))
    obj.maybe = None
    assert obj.maybe is None


def test_object_typed_field_takes_any_object():
    obj = Fields(anything=Other(2))
    assert isinstance(obj.anything, Other)


def test_object_typed_field_takes_container():
    obj = Fields(anything=tvm_ffi.Array([1, 2]))
    assert list(obj.anything) == [1, 2]


@pytest.mark.parametrize(
    "name, annotation, value",
    [
        ("i", int, "x"),
        ("i", int, 1.5),
        ("i", int, None),
        ("i", int, 2**70),
        ("f", float, "x"),
        ("f", float, None),
        ("b", bool, 1.5),
        ("b", bool, "x"),
        ("s", str, b"x"),
        ("s", str, 1),
        ("s", str, None),
        ("oi", typing.Optional[int], "x"),
        ("os", typing.Optional[str], 2),
        ("node", Base, None),
        ("node", Base, 1),
        ("node", Base, Other(1)),
        ("maybe", typing.Optional[Base], Other(1)),
        ("anything", tvm_ffi.Object, None),
        ("anything", tvm_ffi.Object, 1.5),
    ],
)
def test_rejected_assignment_has_slow_path_message(name, annotation, value):
    assert _assign_message(name, value) == _slow_message(annotation, value)


def test_rejected_construction_has_slow_path_message():
    with pytest.raises(TypeError) as err:
        Fields(i="x")
    assert str(err.value) == "test_py_class_fast.Fields.__ffi_init__() field 'i':\n  " + (
        _slow_message(int, "x")
    )


def test_rejected_assignment_keeps_old_value():
    obj = Fields(i=4)
    with pytest.raises(TypeError):
        obj.i = "x"
    assert obj.i == 4


def test_cxx_assignment_uses_fast_conversion():
    make = tvm_ffi.get_global_func("ffi.MakeObjectFromPackedArgs")
    obj = make("test_py_class_fast.Fields", "f", 2, "b", 5, "s", "text")
    assert (obj.f, obj.b, obj.s) == (2.0, True, "text") and type(obj.f) is float


def test_read_on_subclass_instance():
    assert Derived(9).a == 9


def test_read_on_foreign_object_is_rejected():
    with pytest.raises(TypeError, match="field 'a' belongs to test_py_class_fast.Base"):
        Base.__dict__["a"].__get__(Other(1), Other)


def test_read_on_empty_object_is_rejected():
    empty = Base.__new__(Base)
    with pytest.raises(ValueError, match="handle is NULL"):
        empty.a


def test_read_on_non_object_is_rejected():
    with pytest.raises(TypeError, match="field 'a' is read from a tvm_ffi.Object, got int"):
        Base.__dict__["a"].__get__(5, int)


def test_class_access_returns_the_property():
    prop = Fields.i
    assert isinstance(prop, FFIProperty) and prop is Fields.__dict__["i"]


def test_property_fget_reads_the_field():
    assert Fields.__dict__["f"].fget(Fields(f=1.5)) == 1.5


def test_frozen_field_assignment_is_rejected():
    with pytest.raises(AttributeError, match="property 'v' of 'Frozen' object has no setter"):
        Frozen(1).v = 2


def test_frozen_field_set_uses_fast_conversion():
    obj = Frozen(1)
    Frozen.v.set(obj, True)
    assert obj.v == 1 and type(obj.v) is int


def test_field_delete_is_rejected():
    with pytest.raises(AttributeError):
        del Fields().i


@pytest.mark.parametrize(
    "annotation, fast, optional",
    [
        (int, "int", False),
        (float, "float", False),
        (bool, "bool", False),
        (str, "str", False),
        (typing.Optional[int], "int", True),
        (Base, "object", False),
        (typing.Optional[Base], "object", True),
        (typing.List[int], None, False),
        (typing.Optional[typing.List[int]], None, False),
        (typing.Union[int, str], None, False),
        (typing.Any, None, False),
    ],
)
def test_converter_plan_of_annotation(annotation, fast, optional):
    from tvm_ffi.dataclasses.py_class import _field_converter

    conv = _field_converter(TypeSchema.from_annotation(annotation))
    assert (conv.fast, conv.optional) == (fast, optional)


def test_converter_call_gives_the_stored_value():
    from tvm_ffi.dataclasses.py_class import _field_converter

    conv = _field_converter(TypeSchema.from_annotation(float))
    assert repr(conv(2)) == repr(TypeSchema.from_annotation(float).convert(2))


def test_converter_rejects_unknown_plan():
    with pytest.raises(ValueError, match="unknown fast conversion 'complex'"):
        tvm_ffi.core._PyClassFieldConverter(TypeSchema("int").convert, "complex", False)


def test_cxx_made_strings_are_stored_by_fast_conversion():
    from tvm_ffi import serialization

    obj = Fields(s="a long ascii text value", os="hé, not ascii", f=2.5, i=3)
    back = serialization.from_json_graph_str(serialization.to_json_graph_str(obj))
    assert (back.s, back.os, back.f, back.i) == ("a long ascii text value", "hé, not ascii", 2.5, 3)
