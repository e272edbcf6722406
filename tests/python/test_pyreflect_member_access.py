"""The C paths of reflected members: FFIProperty reads a field without calling its fget
(core._FieldProperty), and ``obj.method(...)`` calls the method's Function without making a
bound method (core._MethodDescriptor). Results and errors must equal those of the Python-level
paths (fixtures: testing.TestCxxClass* of cpp/src/testing/testing_reflection.cc and
testing.pyreflect.Pair of testing_pyreflect.cc)."""

import gc
import sys
import weakref

import pytest
import tvm_ffi
from tvm_ffi import core
from tvm_ffi.core import FFIProperty

_LIMITED_API = core.__file__.endswith(".abi3.so")
_METHOD_DESCRIPTOR_FLAG = 1 << 17

FIELDS = ("v_i64", "v_i32", "v_f64", "v_f32", "v_str", "v_bool")


def _make_derived_derived():
    make = tvm_ffi.get_global_func("ffi.MakeObjectFromPackedArgs")
    return make(
        "testing.TestCxxClassDerivedDerived",
        "v_i64",
        -5,
        "v_i32",
        -7,
        "v_f64",
        2.5,
        "v_f32",
        1.5,
        "v_str",
        "hi",
        "v_bool",
        True,
    )


def _prop(cls, name):
    for klass in type.mro(cls):
        if name in klass.__dict__:
            return klass.__dict__[name]
    raise AssertionError(name)


@tvm_ffi.register_object("testing.pyreflect.Pair")
class Pair(tvm_ffi.Object):
    pass


# ---- field reads ---------------------------------------------------------------------------


def test_field_property_is_a_field_property_and_a_property():
    prop = _prop(type(_make_derived_derived()), "v_i64")
    assert isinstance(prop, FFIProperty)
    assert isinstance(prop, core._FieldProperty)
    assert isinstance(prop, property)


@pytest.mark.parametrize("name", FIELDS)
def test_c_read_equals_the_getter_for_every_member_kind(name):
    obj = _make_derived_derived()
    prop = _prop(type(obj), name)
    value = getattr(obj, name)
    assert value == prop.fget(obj)
    assert type(value) is type(prop.fget(obj))


def test_c_read_reaches_fields_declared_by_an_ancestor():
    obj = _make_derived_derived()
    assert "v_i64" not in type(obj).__dict__
    assert obj.v_i64 == _prop(type(obj), "v_i64").fget(obj)


def test_c_read_sees_a_write():
    obj = _make_derived_derived()
    for name, value in (("v_i64", 41), ("v_bool", False), ("v_f64", -0.25)):
        setattr(obj, name, value)
    assert (obj.v_i64, obj.v_bool, obj.v_f64) == (41, False, -0.25)


def test_class_access_returns_the_property():
    cls = type(_make_derived_derived())
    assert _prop(cls, "v_i64").__get__(None, cls) is _prop(cls, "v_i64")


def test_read_on_empty_object_raises_the_getters_error():
    prop = Pair.__dict__["a"]
    empty = Pair.__new__(Pair)
    with pytest.raises(ValueError, match="handle is NULL") as via_get:
        prop.__get__(empty, Pair)
    with pytest.raises(ValueError) as via_fget:
        prop.fget(empty)
    assert str(via_get.value) == str(via_fget.value)


def test_read_on_object_of_other_type_raises_the_getters_error():
    prop = Pair.__dict__["a"]
    other = tvm_ffi.convert([1])
    with pytest.raises(TypeError, match="belongs to testing.pyreflect.Pair"):
        prop.__get__(other, Pair)


def test_read_on_non_object_raises_the_getters_error():
    prop = Pair.__dict__["a"]
    with pytest.raises(TypeError, match="is read from a tvm_ffi.Object"):
        prop.__get__(3, Pair)


def test_bind_reports_whether_fget_is_a_field_getter():
    fget = Pair.__dict__["a"].fget
    assert core._bind_field_property(FFIProperty(fget, None, True), fget) is True
    assert core._bind_field_property(FFIProperty(lambda o: 7, None, True), lambda o: 7) is False


def test_bind_rejects_a_plain_property():
    with pytest.raises(TypeError, match="expects a _FieldProperty"):
        core._bind_field_property(property(lambda o: 1), Pair.__dict__["a"].fget)


def test_property_with_other_fget_reads_through_it():
    prop = FFIProperty(lambda obj: ("fget", obj.a), None, True)
    assert prop.__get__(Pair(3, 4), Pair) == ("fget", 3)


def test_reinitialised_property_reads_through_its_new_fget():
    prop = FFIProperty(Pair.__dict__["a"].fget, None, True)
    core._FieldProperty.__init__(prop, lambda obj: "new")
    assert prop.__get__(Pair(3, 4), Pair) == "new"


def _owned_property(field):
    prop = FFIProperty(Pair.__dict__[field].fget, None, True)
    assert core._set_field_property_owner(prop, Pair) is True
    return prop


def test_installed_field_property_knows_its_class():
    assert Pair in gc.get_referents(Pair.__dict__["a"])


def test_owned_property_reads_an_instance_of_its_class():
    assert _owned_property("b").__get__(Pair(3, 4), Pair) == 4


def test_owned_property_reinitialised_reads_through_its_new_fget():
    prop = _owned_property("a")
    core._FieldProperty.__init__(prop, lambda obj: "new")
    assert prop.__get__(Pair(3, 4), Pair) == "new"
    assert Pair not in gc.get_referents(prop)


def test_owned_property_rebound_reads_its_new_field():
    prop = _owned_property("a")
    core._bind_field_property(prop, Pair.__dict__["b"].fget)
    assert prop.__get__(Pair(3, 4), Pair) == 4


def test_owned_property_on_empty_instance_raises_the_getters_error():
    with pytest.raises(ValueError, match="handle is NULL"):
        _owned_property("a").__get__(Pair.__new__(Pair), Pair)


def test_owner_is_ignored_by_an_unbound_property():
    prop = FFIProperty(lambda obj: "fget", None, True)
    assert core._set_field_property_owner(prop, Pair) is False
    assert prop.__get__(Pair(3, 4), Pair) == "fget"


@pytest.mark.parametrize("owner", [int, 3])
def test_owner_must_be_an_object_class(owner):
    with pytest.raises(TypeError, match="expects a subclass of tvm_ffi.Object"):
        core._set_field_property_owner(_owned_property("a"), owner)


def test_set_owner_rejects_a_plain_property():
    with pytest.raises(TypeError, match="expects a _FieldProperty"):
        core._set_field_property_owner(property(lambda o: 1), Pair)


def test_read_alternating_between_owner_and_subclass_instances():
    class Sub(Pair):
        __slots__ = ()

    sub = Pair(5, 6)
    sub.__class__ = Sub
    plain = Pair(7, 8)
    assert [o.a for o in (plain, sub, plain, sub)] == [7, 5, 7, 5]
    assert [(o.a, o.b) for o in (sub, plain)] == [(5, 6), (7, 8)]


def test_collector_frees_an_owner_class_with_its_properties():
    class Local(tvm_ffi.Object):
        __slots__ = ()

    prop = _owned_property("a")
    core._set_field_property_owner(prop, Local)
    Local.a = prop
    obj = Pair(1, 2)
    obj.__class__ = Local
    assert obj.a == 1
    ref = weakref.ref(Local)
    del obj, Local, prop
    gc.collect()
    assert ref() is None


def test_freed_properties_return_their_class_reference():
    fget = Pair.__dict__["a"].fget
    FFIProperty(fget, None, True)
    before = sys.getrefcount(FFIProperty)
    for _ in range(100):
        FFIProperty(fget, None, False)
    gc.collect()
    assert sys.getrefcount(FFIProperty) == before


def test_property_refers_to_its_class_once_for_the_collector():
    prop = FFIProperty(Pair.__dict__["a"].fget, None, True)
    assert gc.get_referents(prop).count(type(prop)) == 1


# ---- field writes --------------------------------------------------------------------------


def _write_error(write):
    with pytest.raises(Exception) as info:
        write()
    return type(info.value), str(info.value)


@pytest.mark.parametrize(
    "name, value",
    [("v_i64", 41), ("v_i64", -(2**63)), ("v_f64", -0.25), ("v_f64", 3), ("v_bool", False)],
)
def test_c_write_stores_what_the_setter_stores(name, value):
    via_assign = _make_derived_derived()
    via_fset = _make_derived_derived()
    setattr(via_assign, name, value)
    _prop(type(via_fset), name).fset(via_fset, value)
    assert getattr(via_assign, name) == getattr(via_fset, name)
    assert type(getattr(via_assign, name)) is type(getattr(via_fset, name))


@pytest.mark.parametrize("value", [2**63, None, "text", [1]])
def test_c_write_of_a_value_the_setter_refuses_raises_the_fset_error(value):
    obj = _make_derived_derived()
    fset = _prop(type(obj), "v_i64").fset
    expected = _write_error(lambda: fset(obj, value))
    assert _write_error(lambda: setattr(obj, "v_i64", value)) == expected
    assert obj.v_i64 == -5


def test_c_write_of_an_object_to_an_int_field_raises_the_fset_error():
    obj = _make_derived_derived()
    other = tvm_ffi.convert([1])
    expected = _write_error(lambda: _prop(type(obj), "v_i64").fset(obj, other))
    assert _write_error(lambda: setattr(obj, "v_i64", other)) == expected
    assert obj.v_i64 == -5


def test_write_on_object_of_other_type_raises_the_setters_error():
    prop = _prop(type(_make_derived_derived()), "v_i64")
    with pytest.raises(TypeError, match="belongs to testing.TestCxxClassBase"):
        prop.__set__(tvm_ffi.convert([1]), 3)


def test_write_on_non_object_raises_the_setters_error():
    prop = _prop(type(_make_derived_derived()), "v_i64")
    with pytest.raises(TypeError, match="is written on a tvm_ffi.Object"):
        prop.__set__(3, 3)


def test_write_on_empty_object_raises_the_setters_error():
    cls = type(_make_derived_derived())
    with pytest.raises(ValueError, match="handle is NULL"):
        _prop(cls, "v_i64").__set__(cls.__new__(cls), 3)


def test_frozen_property_with_a_field_setter_refuses_assignment():
    obj = _make_derived_derived()
    prop = _prop(type(obj), "v_i64")
    frozen = FFIProperty(prop.fget, prop.fset, True)
    with pytest.raises(AttributeError, match="has no setter"):
        frozen.__set__(obj, 3)
    assert obj.v_i64 == -5


def test_field_property_delete_keeps_propertys_error():
    obj = _make_derived_derived()
    with pytest.raises(AttributeError):
        del obj.v_i64
    assert obj.v_i64 == -5


# ---- method calls --------------------------------------------------------------------------


@pytest.mark.skipif(_LIMITED_API, reason="the limited API cannot set a type's flags")
def test_method_descriptor_type_is_flagged_as_method_descriptor():
    assert core._MethodDescriptor.__flags__ & _METHOD_DESCRIPTOR_FLAG


def test_method_call_passes_the_object_first():
    p = Pair(3, 4)
    assert p.sum() == Pair.__dict__["sum"].func(p)


def test_method_read_without_call_is_a_bound_method():
    p = Pair(3, 4)
    bound = p.sum
    assert bound.__self__ is p
    assert bound() == 7


def test_method_on_class_takes_self_explicitly():
    assert Pair.sum(Pair(3, 4)) == 7


def test_method_call_with_extra_argument_raises_the_functions_error():
    p = Pair(3, 4)
    with pytest.raises(TypeError) as direct:
        p.sum(1)
    with pytest.raises(TypeError) as via_func:
        Pair.__dict__["sum"].func(p, 1)
    assert str(direct.value) == str(via_func.value)


def test_method_call_with_keyword_raises_type_error_naming_it():
    # The message is the Function's: its vectorcall's, or tp_call's in the abi3 build.
    with pytest.raises(TypeError, match="keyword argument 'x'"):
        Pair(3, 4).sum(x=1)


def test_method_descriptor_over_a_python_callable_calls_it():
    descr = core._MethodDescriptor(lambda *args: args)
    assert descr(1, 2) == (1, 2)
