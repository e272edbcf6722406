"""init_property: a py_class field computed once per construction by a function of the
object, stored right after the runtime constructor and before __post_init__."""

import warnings

import pytest
import tvm_ffi
from tvm_ffi.dataclasses import fields, init_property, py_class

CALLS = []


@py_class("test_init_property.Base")
class Base(tvm_ffi.Object):
    x: int

    @init_property
    def double(self) -> int:
        CALLS.append("double")
        return self.x * 2

    def __post_init__(self):
        CALLS.append(("post", self.double))


# Re-declaring a parent's init_property re-registers its field, which warns (as the wheel does).
with warnings.catch_warnings():
    warnings.simplefilter("ignore", UserWarning)

    @py_class("test_init_property.Child")
    class Child(Base):
        y: int = 1

        @init_property
        def double(self) -> int:
            return self.x * 10

        @init_property
        def text(self) -> str:
            return "v%d" % self.double


@pytest.fixture(autouse=True)
def _clear_calls():
    CALLS.clear()


def test_init_property_adds_its_return_annotation():
    assert Base.__annotations__["double"] is int


def test_init_property_without_return_annotation_is_any():
    class Owner:
        @init_property
        def p(self):
            return 1

    assert Owner.__annotations__["p"] is __import__("typing").Any


def test_init_property_rejects_non_callable():
    with pytest.raises(TypeError, match="init_property expects a function, got int"):
        init_property(3)


def test_init_property_becomes_an_init_off_ignored_field():
    f = [f for f in fields(Base) if f.name == "double"][0]
    assert (f.init, f.repr, f.hash, f.compare, f.structural_eq) == (
        False,
        False,
        False,
        False,
        "ignore",
    )
    assert f.type is int


def test_init_property_is_computed_once_before_post_init():
    b = Base(3)
    assert (b.double, b.double) == (6, 6)
    assert CALLS == ["double", ("post", 6)]


def test_init_property_is_not_a_constructor_argument():
    with pytest.raises(TypeError, match="unexpected keyword argument 'double'"):
        Base(1, double=3)


def test_init_property_is_left_out_of_repr():
    assert repr(Base(3)) == "test_init_property.Base(x=3)"


def test_child_init_property_replaces_the_parents():
    c = Child(2)
    assert c.double == 20
    assert "double" not in CALLS


def test_parent_init_properties_run_first():
    assert Child(2).text == "v20"


def test_init_property_value_is_assignable_afterwards():
    b = Base(3)
    b.double = 5
    assert b.double == 5


def test_user_init_does_not_compute_init_properties():
    @py_class("test_init_property.UserInit")
    class UserInit(tvm_ffi.Object):
        x: int

        def __init__(self, x):
            self.x = x

        @init_property
        def d(self) -> int:
            return 5

    assert UserInit(1).d == 0


def test_frozen_class_stores_init_property():
    @py_class("test_init_property.Frozen", frozen=True)
    class Frozen(tvm_ffi.Object):
        x: int

        @init_property
        def neg(self) -> int:
            return -self.x

    assert Frozen(4).neg == -4
