"""Field / field / KW_ONLY and the helpers fields, asdict, astuple, replace, is_dataclass."""

import collections
import copy
import dataclasses as std_dataclasses
import types
import typing

import pytest
import tvm_ffi
import tvm_ffi.testing
from tvm_ffi import registry
from tvm_ffi.core import MISSING
from tvm_ffi.dataclasses import (
    KW_ONLY,
    Field,
    asdict,
    astuple,
    c_class,
    field,
    fields,
    is_dataclass,
    replace,
)


@pytest.fixture(scope="module")
def cls():
    """c_class bindings of testing.TestObjectBase/Derived/PtrHolder; the testing module's
    classes are bound back afterwards."""
    originals = [
        tvm_ffi.testing.TestObjectBase,
        tvm_ffi.testing.TestObjectDerived,
        tvm_ffi.testing.TestObjectPtrHolder,
    ]

    @c_class("testing.TestObjectBase")
    class Base(tvm_ffi.Object):
        v_i64: int
        v_f64: float
        v_str: str

    @c_class("testing.TestObjectDerived")
    class Derived(Base):
        v_map: tvm_ffi.Map
        v_array: tvm_ffi.Array

    @c_class("testing.TestObjectPtrHolder")
    class Holder(tvm_ffi.Object):
        value: Base
        optional_value: typing.Optional[Base]

    yield types.SimpleNamespace(Base=Base, Derived=Derived, Holder=Holder)
    for original in originals:
        registry._bind_class(original, original.__tvm_ffi_type_info__)


@c_class("testing.TestCustomCompare")
class _Pair(tvm_ffi.Object):
    key: int
    label: str


def test_field_low_level_defaults():
    f = Field()
    assert f.name is None and f._ty_schema is None and f.type is None
    assert f.default is MISSING and f.default_factory is MISSING
    assert (f.frozen, f.init, f.repr, f.hash, f.compare, f.kw_only) == (
        False,
        True,
        True,
        True,
        False,
        False,
    )
    assert f.metadata == {} and f.extra_kwargs == {} and f.structural_eq is None


def test_field_function_uses_dataclass_style_defaults():
    f = field()
    assert isinstance(f, Field)
    assert f.hash is None and f.compare is True and f.kw_only is None
    assert f.name is None and f._ty_schema is None


def test_field_rejects_default_and_factory_together():
    with pytest.raises(ValueError, match="cannot specify both default and default_factory"):
        field(default=1, default_factory=list)


@pytest.mark.parametrize("bad, name", [(None, "NoneType"), (3, "int")])
def test_field_rejects_non_callable_factory(bad, name):
    with pytest.raises(TypeError, match="default_factory must be a callable, got %s" % name):
        Field(default_factory=bad)


def test_field_rejects_unknown_structural_eq():
    with pytest.raises(ValueError) as info:
        field(structural_eq="bogus")
    assert str(info.value) == (
        "structural_eq must be one of [None, 'def', 'def-pattern', 'def-simple', 'ignore'], "
        "got 'bogus'"
    )


@pytest.mark.parametrize("kind", [None, "def", "def-pattern", "def-simple", "ignore"])
def test_field_accepts_structural_eq_kinds(kind):
    assert field(structural_eq=kind).structural_eq == kind


def test_field_metadata_is_copied_and_extra_kwargs_kept():
    meta = {"a": 1}
    f = field(metadata=meta, custom=5)
    meta["b"] = 2
    assert f.metadata == {"a": 1}
    assert f.extra_kwargs == {"custom": 5}


def test_copy_of_field_has_own_dicts():
    f = field(default=3, metadata={"a": 1}, custom=1)
    g = copy.copy(f)
    assert g.default == 3 and g.metadata == {"a": 1} and g.extra_kwargs == {"custom": 1}
    assert g.metadata is not f.metadata and g.extra_kwargs is not f.extra_kwargs


def test_field_converter_is_identity():
    f = field()
    obj = object()
    assert f.converter(obj) is obj


def test_kw_only_is_stdlib_marker():
    assert KW_ONLY is std_dataclasses.KW_ONLY


def test_fields_rejects_non_dataclass_class_naming_its_metaclass():
    with pytest.raises(
        TypeError,
        match="fields\\(\\) argument must be a c_class or py_class "
        "type or instance, got _ObjectSlotsMeta",
    ):
        fields(tvm_ffi.access_path.AccessStep)


def test_fields_rejects_non_dataclass_value_naming_its_type():
    with pytest.raises(TypeError, match="type or instance, got int$"):
        fields(1)
    with pytest.raises(TypeError, match="type or instance, got type$"):
        fields(int)


def test_fields_of_instance_equal_fields_of_class():
    obj = _Pair(1, "a")
    assert fields(obj) == fields(_Pair)
    assert [f.name for f in fields(obj)] == ["key", "label"]


def test_fields_mark_optional_default(cls):
    by_name = {f.name: f for f in fields(cls.Holder)}
    assert by_name["optional_value"].default is None
    assert by_name["value"].default is MISSING


def test_replace_returns_modified_copy():
    obj = _Pair(1, "a")
    new = replace(obj, label="b")
    assert (new.key, new.label) == (1, "b") and obj.label == "a"


def test_fields_walk_parent_chain_root_first(cls):
    assert [f.name for f in fields(cls.Derived)] == ["v_i64", "v_f64", "v_str", "v_map", "v_array"]


def test_asdict_converts_nested_objects_and_containers(cls):
    inner = cls.Derived(v_map={"k": 1}, v_array=[1, cls.Base(v_i64=2)])
    holder = cls.Holder(inner, None)
    base = {"v_i64": 2, "v_f64": 10.0, "v_str": "hello"}
    assert asdict(holder) == {
        "value": {
            "v_i64": 10,
            "v_f64": 10.0,
            "v_str": "hello",
            "v_map": {"k": 1},
            "v_array": [1, base],
        },
        "optional_value": None,
    }


def test_asdict_uses_dict_factory():
    result = asdict(_Pair(1, "a"), dict_factory=collections.OrderedDict)
    assert type(result) is collections.OrderedDict and list(result) == ["key", "label"]


def test_asdict_rejects_type_and_non_dataclass():
    for bad in (_Pair, tvm_ffi.Array([1]), 3):
        with pytest.raises(
            TypeError, match="asdict\\(\\) should be called on c_class / py_class instances"
        ):
            asdict(bad)


def test_astuple_converts_nested_objects(cls):
    holder = cls.Holder(cls.Base(1), None)
    assert astuple(holder) == ((1, 10.0, "hello"), None)


def test_astuple_rejects_non_dataclass():
    with pytest.raises(
        TypeError, match="astuple\\(\\) should be called on c_class / py_class instances"
    ):
        astuple(object())


def test_asdict_inner_rebuilds_containers():
    from tvm_ffi.dataclasses.common import _asdict_inner

    Point = collections.namedtuple("Point", "x y")
    dd = collections.defaultdict(list, {"k": [1]})
    assert _asdict_inner(tvm_ffi.Array([1, 2]), dict) == [1, 2]
    assert _asdict_inner(tvm_ffi.Map({"a": 1}), dict) == {"a": 1}
    assert _asdict_inner(Point(1, 2), dict) == Point(1, 2)
    rebuilt = _asdict_inner(dd, dict)
    assert type(rebuilt) is collections.defaultdict and rebuilt.default_factory is list


def test_is_dataclass_false_for_stdlib_dataclass():
    @std_dataclasses.dataclass
    class P:
        x: int = 0

    assert not is_dataclass(P) and not is_dataclass(P())
