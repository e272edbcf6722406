"""@py_class owner classes (unregistered mixins and intermediate subclasses contribute their
annotations as own fields) and the §4.12 extension points: field markers and
field-resolution hooks."""

import inspect

import pytest
import tvm_ffi
from tvm_ffi.dataclasses import KW_ONLY, field, fields, py_class


class MixA:
    a: int = 1


class MixB:
    b: str = "b"
    _: KW_ONLY
    k: int = 0


@py_class("test_mixins.Base")
class Base(tvm_ffi.Object):
    base: int = 0


class Mid(Base):
    mid: float = 0.5


@py_class("test_mixins.Child")
class Child(MixA, MixB, Mid):
    c: int = 3
    a: int = 9


def test_mixin_annotations_become_own_fields_in_owner_order():
    assert [tf.name for tf in Child.__tvm_ffi_type_info__.fields] == ["mid", "b", "k", "a", "c"]


def test_reannotated_name_keeps_first_position_and_newer_declaration():
    a = [f for f in fields(Child) if f.name == "a"][0]
    assert a.default == 9
    assert Child().a == 9


def test_mixin_class_values_stay_on_the_mixin():
    assert MixA.__dict__["a"] == 1
    assert Mid.__dict__["mid"] == 0.5


def test_kw_only_state_carries_over_later_owners():
    assert str(inspect.signature(Child.__init__)) == (
        "(self, base=<MISSING>, mid=<MISSING>, b=<MISSING>, *, k=<MISSING>, a=<MISSING>, "
        "c=<MISSING>)"
    )


def test_mixin_fields_are_stored_natively():
    obj = Child(mid=1.5, b="q")
    assert (obj.base, obj.mid, obj.b, obj.k, obj.a, obj.c) == (0, 1.5, "q", 0, 9, 3)


def test_mixin_field_object_is_copied_for_each_class():
    class WithField:
        w: int = field(default=4)

    @py_class("test_mixins.UsesField1")
    class One(WithField, tvm_ffi.Object):
        pass

    @py_class("test_mixins.UsesField2")
    class Two(WithField, tvm_ffi.Object):
        pass

    (f1,), (f2,) = fields(One), fields(Two)
    assert f1 is not f2
    assert (One().w, Two().w) == (4, 4)


class Marker:
    pass


CALLS = []


def _record_hook(type_info, own):
    CALLS.append((type_info.type_key, [f.name for f in own]))
    for f in own:
        if "tag" in f.extra_kwargs:
            f.doc = f.extra_kwargs.pop("tag")


_record_hook.__ffi_on_fields_resolved__ = True


class HookBase(tvm_ffi.Object):
    __ffi_field_markers__ = (Marker,)
    on_resolved = _record_hook


@py_class("test_mixins.Hooked")
class Hooked(HookBase):
    x: int = field(default=1, tag="T")
    m: Marker
    y: int = 2


@py_class("test_mixins.Hooked2")
class Hooked2(Hooked):
    m2: Marker
    z: int = 0


def test_marker_annotations_are_not_fields():
    assert [f.name for f in fields(Hooked)] == ["x", "y"]


def test_markers_record_type_owner_name_and_index():
    assert Hooked.__tvm_ffi_type_info__._decorator_args["field_markers"] == (
        (Marker, Hooked, "m", 1),
    )


def test_child_markers_follow_the_parents_and_count_inherited_fields():
    assert Hooked2.__tvm_ffi_type_info__._decorator_args["field_markers"] == (
        (Marker, Hooked, "m", 1),
        (Marker, Hooked2, "m2", 2),
    )


def test_fields_resolved_hook_sees_the_own_fields():
    assert ("test_mixins.Hooked", ["x", "y"]) in CALLS
    assert ("test_mixins.Hooked2", ["z"]) in CALLS


def test_hook_may_consume_extra_field_options():
    assert fields(Hooked)[0].doc == "T"


def test_unconsumed_field_option_is_rejected():
    with pytest.raises(TypeError, match="Bad.x: unrecognized field options: other"):

        @py_class("test_mixins.BadOption")
        class Bad(tvm_ffi.Object):
            x: int = field(default=1, other=2)


def test_bad_field_markers_are_rejected():
    with pytest.raises(TypeError, match="__ffi_field_markers__ must be a tuple or list of types"):

        @py_class("test_mixins.BadMarkers")
        class Bad(tvm_ffi.Object):
            __ffi_field_markers__ = 3
            x: int
