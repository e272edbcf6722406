"""register_object over C++-reflected types: properties, methods, the generated __init__,
fallback classes and the Object metaclass (fixtures: cpp/src/testing/testing_pyreflect.cc)."""

import collections.abc
import inspect
import subprocess
import sys

import pytest
import tvm_ffi
from tvm_ffi import core
from tvm_ffi.core import KWARGS, MISSING, FFIProperty, TypeInfo


@tvm_ffi.register_object("testing.pyreflect.Pair")
class Pair(tvm_ffi.Object):
    pass


@tvm_ffi.register_object("testing.pyreflect.AutoInit")
class AutoInit(tvm_ffi.Object):
    pass


@tvm_ffi.register_object("testing.pyreflect.Parent")
class Parent(tvm_ffi.Object):
    pass


@tvm_ffi.register_object("testing.pyreflect.Child")
class Child(Parent):
    pass


@tvm_ffi.register_object("testing.pyreflect.NoInit")
class NoInit(tvm_ffi.Object):
    pass


# ---- decorator forms ----------------------------------------------------------------------


def test_register_object_sets_type_info():
    info = Pair.__tvm_ffi_type_info__
    assert isinstance(info, TypeInfo)
    assert info.type_cls is Pair and info.type_key == "testing.pyreflect.Pair"
    assert info.type_index == core._object_type_key_to_index("testing.pyreflect.Pair")
    assert info.type_ancestors == [64]


def test_bare_decorator_uses_class_name_as_key():
    cls = type("testing.pyreflect.Triple", (tvm_ffi.Object,), {})
    assert tvm_ffi.register_object(cls) is cls
    assert cls.__tvm_ffi_type_info__.type_key == "testing.pyreflect.Triple"


def test_decorator_without_key_uses_class_name():
    cls = type("testing.pyreflect.Triple", (tvm_ffi.Object,), {})
    assert tvm_ffi.register_object()(cls) is cls
    assert cls(1, 2.0, "z").x == 1


def test_register_object_rejects_non_str_key():
    with pytest.raises(TypeError, match="type_key must be a string, type, or None"):
        tvm_ffi.register_object(3)


def test_register_object_unknown_key_is_value_error():
    with pytest.raises(ValueError, match="Cannot find object type index for no.such.Key"):

        @tvm_ffi.register_object("no.such.Key")
        class Missing(tvm_ffi.Object):
            pass


def test_reregistering_with_larger_wrapper_class_is_refused():
    class Wide(tvm_ffi.Object):
        __slots__ = ("extra",)

    with pytest.raises(ValueError, match="larger"):
        tvm_ffi.register_object("testing.pyreflect.Pair")(Wide)
    assert type(Pair(1, 2)) is Pair


def test_values_of_registered_type_come_back_as_the_class():
    assert type(Pair.swap(1, 2)) is Pair


# ---- fields -------------------------------------------------------------------------------


def test_fields_become_ffi_properties_with_field_names():
    prop = Pair.__dict__["a"]
    assert isinstance(prop, FFIProperty)
    assert prop.fget.__name__ == "a"
    assert prop.fget.__qualname__ == "Pair.a"
    assert prop.fget.__module__ == Pair.__module__
    assert prop.__doc__ == "first"


def test_field_read_returns_value():
    p = Pair(3, 4)
    assert (p.a, p.b) == (3, 4)


def test_read_only_field_assignment_raises_attribute_error():
    p = Pair(3, 4)
    with pytest.raises(AttributeError, match="has no setter"):
        p.a = 5
    assert p.a == 3


def test_writable_field_assignment_writes_through_setter():
    obj = AutoInit(1, c=3)
    obj.a = 10
    obj.d = 20
    assert (obj.a, obj.d) == (10, 20)


def test_setting_wrong_type_raises_setters_type_error():
    obj = AutoInit(1, c=3)
    with pytest.raises(TypeError):
        obj.a = "x"
    assert obj.a == 1


def test_property_set_writes_frozen_field():
    p = Pair(3, 4)
    Pair.__dict__["a"].set(p, 9)
    assert p.a == 9


def test_getter_rejects_object_of_other_type():
    with pytest.raises(TypeError, match="belongs to testing.pyreflect.Pair"):
        Pair.__dict__["a"].fget(tvm_ffi.Array([1]))


def test_getter_rejects_wrong_argument_count_and_non_object():
    fget = Pair.__dict__["a"].fget
    with pytest.raises(TypeError, match="takes one argument"):
        fget()
    with pytest.raises(TypeError, match="got int"):
        fget(3)


def test_setter_rejects_wrong_argument_count():
    with pytest.raises(TypeError, match="takes two arguments"):
        Pair.__tvm_ffi_type_info__.fields[0].setter(Pair(1, 2))


def test_property_set_converts_like_assignment():
    p = Pair(3, 4)
    with pytest.raises(TypeError):
        Pair.__dict__["a"].set(p, "x")
    assert p.a == 3


def test_getter_on_empty_handle_raises_value_error():
    empty = Pair.__new__(Pair)
    with pytest.raises(ValueError):
        empty.a


def test_class_body_member_is_not_replaced():
    @tvm_ffi.register_object("testing.pyreflect.Pair")
    class PairWithOwnA(tvm_ffi.Object):
        @property
        def a(self):
            return "own"

    try:
        assert PairWithOwnA(1, 2).a == "own"
    finally:
        tvm_ffi.register_object("testing.pyreflect.Pair")(Pair)


# ---- methods ------------------------------------------------------------------------------


def test_instance_method_receives_self():
    assert Pair(3, 4).sum() == 7
    assert Pair.sum.__qualname__ == "Pair.sum" and Pair.sum.__doc__ == "a + b"


def test_static_method_becomes_staticmethod():
    assert isinstance(Pair.__dict__["swap"], staticmethod)
    swapped = Pair.swap(1, 2)
    assert (swapped.a, swapped.b) == (2, 1)


def test_ffi_init_method_constructs_in_place():
    p = Pair.__new__(Pair)
    p.__ffi_init__(5, 6)
    assert (p.a, p.b) == (5, 6)


# ---- generated __init__ ----------------------------------------------------------------------


def test_init_positional_and_keyword_arguments():
    obj = AutoInit(1, c=5)
    assert (obj.a, obj.b, obj.c, obj.d) == (1, 42, 5, 99)
    obj = AutoInit(a=1, c=5, d=7)
    assert (obj.a, obj.d) == (1, 7)


def test_init_drops_missing_keyword_values():
    obj = AutoInit(1, c=5, d=MISSING)
    assert obj.d == 99


def test_init_reports_missing_keyword_only_argument():
    with pytest.raises(TypeError, match="missing required keyword-only argument: 'c'"):
        AutoInit(1)


def test_init_reports_unexpected_keyword():
    with pytest.raises(TypeError, match="got an unexpected keyword argument 'b'"):
        AutoInit(1, c=2, b=3)


def test_init_signature_orders_fields():
    assert str(inspect.signature(AutoInit.__init__)) == "(self, a, d=%r, *, c)" % MISSING


def test_init_signature_walks_ancestors_root_first():
    assert str(inspect.signature(Child.__init__)) == "(self, p_req, c_req, p_def=%r, *, c_kw)" % (
        MISSING,
    )
    obj = Child(1, 2, c_kw=4)
    assert (obj.p_req, obj.c_req, obj.p_def, obj.c_kw) == (1, 2, 5, 4)


def test_init_of_explicit_constructor():
    assert str(inspect.signature(Pair.__init__)) == "(self, a, b)"
    assert Pair.__init__.__qualname__ == "Pair.__init__"


def test_type_without_ffi_init_cannot_be_constructed():
    with pytest.raises(TypeError, match="`NoInit` cannot be constructed directly"):
        NoInit()


def test_super_init_from_registered_subclass_is_refused():
    with pytest.raises(TypeError, match=r"Calling `super\(\).__init__\(\)` is not supported"):
        Parent.__init__(Child.__new__(Child), 1)


def test_plain_python_subclass_uses_parent_init():
    class Sub(Pair):
        pass

    obj = Sub(1, 2)
    assert obj.sum() == 3 and type(obj) is Sub


def test_post_init_runs_after_construction():
    seen = []

    @tvm_ffi.register_object("testing.pyreflect.Triple")
    class Triple(tvm_ffi.Object):
        def __post_init__(self):
            seen.append((self.x, self.y, self.z))

    Triple(1, 2.0, "z")
    assert seen == [(1, 2.0, "z")]


def test_user_init_in_class_body_is_kept():
    @tvm_ffi.register_object("testing.pyreflect.Triple")
    class Triple(tvm_ffi.Object):
        def __init__(self, x):
            self.__ffi_init__(x, 0.5, "own")

    assert Triple(3).z == "own"


def test_init_false_keeps_object_init():
    @tvm_ffi.register_object("testing.pyreflect.Triple", init=False)
    class Triple(tvm_ffi.Object):
        pass

    assert Triple.__init__ is tvm_ffi.Object.__init__


def test_kwargs_marker_is_separate_sentinel():
    assert isinstance(KWARGS, tvm_ffi.Object) and isinstance(MISSING, tvm_ffi.Object)
    assert not KWARGS.same_as(MISSING)
    assert KWARGS.same_as(tvm_ffi.get_global_func("ffi.GetKwargsObject")())


# ---- fallback classes and slots ------------------------------------------------------------


def test_unregistered_type_gets_fallback_class_with_members():
    code = (
        "import tvm_ffi, tvm_ffi.testing\n"
        "obj = tvm_ffi.get_global_func('testing.pyreflect.make_no_init')()\n"
        "cls = type(obj)\n"
        "assert cls.__name__ == 'NoInit' and cls.__qualname__ == 'testing.pyreflect.NoInit'\n"
        "assert cls.__mro__[1] is tvm_ffi.Object\n"
        "assert obj.note == 'made' and list(obj.items) == []\n"
        "assert cls.__tvm_ffi_type_info__.type_cls is cls\n"
        "assert not hasattr(obj, '__dict__')\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_object_subclasses_get_empty_slots():
    class Plain(tvm_ffi.Object):
        pass

    assert Plain.__slots__ == ()
    assert not hasattr(Plain(), "__dict__")


def test_declared_dict_slot_opts_out():
    class WithDict(tvm_ffi.Object):
        __slots__ = ("__dict__",)

    obj = WithDict()
    obj.x = 1
    assert obj.x == 1


def test_object_mixes_with_abc_bases():
    class Seq(tvm_ffi.Object, collections.abc.Sized):
        def __len__(self):
            return 0

    assert isinstance(Seq(), collections.abc.Sized)
    assert isinstance(Seq(), tvm_ffi.Object)


# ---- registry._SKIP_UNKNOWN_OBJECTS (clients running without some of their types) -------------


def test_register_object_of_an_unknown_key_raises_value_error_naming_it():
    with pytest.raises(ValueError, match="test.no.SuchType"):

        @tvm_ffi.register_object("test.no.SuchType")
        class _Missing(tvm_ffi.Object):
            pass


def test_register_object_skips_unknown_keys_when_asked(monkeypatch):
    from tvm_ffi import registry

    monkeypatch.setattr(registry, "_SKIP_UNKNOWN_OBJECTS", True)

    @tvm_ffi.register_object("test.no.SuchType")
    class Missing(tvm_ffi.Object):
        pass

    assert Missing.__name__ == "Missing"
    assert "__tvm_ffi_type_info__" not in Missing.__dict__
