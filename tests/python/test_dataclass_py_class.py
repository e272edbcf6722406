"""@py_class: Python-defined FFI object types stored natively and seen by C++."""

import copy
import inspect
import typing

import pytest
import tvm_ffi
import tvm_ffi.testing
from tvm_ffi.core import MISSING
from tvm_ffi.dataclasses import KW_ONLY, field, fields, is_dataclass, py_class, replace


def _make(type_key, *pairs):
    return tvm_ffi.get_global_func("ffi.MakeObjectFromPackedArgs")(type_key, *pairs)


def _offsets(cls):
    return {tf.name: tf.offset for tf in cls.__tvm_ffi_type_info__.fields}


@py_class("test_py_class.Point", eq=True, order=True, unsafe_hash=True)
class Point(tvm_ffi.Object):
    x: int
    y: float = 2.0
    label: str = "p"
    tags: tvm_ffi.List = field(default_factory=list)
    scale: typing.ClassVar[int] = 3


@py_class("test_py_class.Frozen", frozen=True)
class Frozen(tvm_ffi.Object):
    a: int
    b: str = "b"


@py_class("test_py_class.Node")
class Node(tvm_ffi.Object):
    value: int
    next: typing.Optional["Node"] = None


def test_bare_decorator_uses_module_and_qualname_as_key():
    @py_class
    class Bare(tvm_ffi.Object):
        v: int

    assert Bare.__tvm_ffi_type_info__.type_key == (
        "%s.test_bare_decorator_uses_module_and_qualname_as_key.<locals>.Bare" % __name__
    )
    assert Bare(1).v == 1


def test_type_key_keyword_and_options_form():
    @py_class(type_key="test_py_class.KeyKw", eq=True)
    class KeyKw(tvm_ffi.Object):
        v: int

    assert KeyKw(1).type_key == "test_py_class.KeyKw" and KeyKw(1) == KeyKw(1)


def test_order_without_eq_is_rejected():
    with pytest.raises(ValueError, match="order=True requires eq=True"):
        py_class(order=True)


def test_bad_structural_eq_is_rejected():
    with pytest.raises(ValueError) as info:
        py_class(structural_eq="bogus")
    assert str(info.value) == (
        "structural_eq must be one of ['const-tree', 'dag', 'singleton', 'tree', 'var'] or "
        "None, got 'bogus'"
    )


def test_non_str_non_type_argument_is_rejected():
    with pytest.raises(TypeError, match="py_class: expected str or type, got <class 'int'>"):
        py_class(3)


def test_class_without_registered_parent_is_rejected():
    with pytest.raises(TypeError, match="Plain must inherit from a registered FFI Object type"):

        @py_class("test_py_class.Plain")
        class Plain:
            v: int


def test_duplicate_type_key_is_rejected_and_original_kept():
    with pytest.raises(ValueError, match="Type key 'test_py_class.Point' is already registered"):

        @py_class("test_py_class.Point")
        class Again(tvm_ffi.Object):
            v: int

    assert type(Point(1)) is Point


def test_unsupported_annotation_rolls_back_so_key_can_be_reused():
    class Bad(tvm_ffi.Object):
        v: object

    with pytest.raises(TypeError, match="Cannot convert .* to TypeSchema"):
        py_class("test_py_class.Rollback")(Bad)
    assert not hasattr(Bad, "__ffi_is_dataclass__")

    @py_class("test_py_class.Rollback")
    class Good(tvm_ffi.Object):
        v: int

    assert Good(4).v == 4


def test_unrecognized_field_options_are_rejected():
    with pytest.raises(TypeError, match="Opt.v: unrecognized field options: bogus"):

        @py_class("test_py_class.Opt")
        class Opt(tvm_ffi.Object):
            v: int = field(bogus=1)


def test_layout_bool_then_int():
    @py_class("test_py_class.LayoutBI")
    class LayoutBI(tvm_ffi.Object):
        flag: bool
        n: int

    assert _offsets(LayoutBI) == {"flag": 24, "n": 32}
    assert LayoutBI.__tvm_ffi_type_info__.total_size == 40


def test_layout_three_bools_pack():
    @py_class("test_py_class.Layout3B")
    class Layout3B(tvm_ffi.Object):
        a: bool
        b: bool
        c: bool

    assert _offsets(Layout3B) == {"a": 24, "b": 25, "c": 26}
    assert Layout3B.__tvm_ffi_type_info__.total_size == 32


@pytest.fixture
def cxx_base():
    """A register_object class of testing.TestCxxClassBase (plain-data fields ending at 36);
    the class bound before is bound back afterwards."""
    info = tvm_ffi.core._lookup_or_register_type_info_from_type_key("testing.TestCxxClassBase")
    previous = info.type_cls

    @tvm_ffi.register_object("testing.TestCxxClassBase")
    class CxxBase(tvm_ffi.Object):
        pass

    yield CxxBase
    if previous is not None:
        tvm_ffi.registry._bind_class(previous, info)


def test_layout_child_of_cxx_type_reuses_parent_tail(cxx_base):
    @py_class("test_py_class.CxxChild")
    class CxxChild(cxx_base):
        flag: bool

    assert _offsets(CxxChild) == {"flag": 36}
    obj = CxxChild(1, 2, True)
    assert (obj.v_i64, obj.v_i32, obj.flag) == (1, 2, True)


def test_init_applies_defaults_and_factory():
    p = Point(1)
    assert (p.x, p.y, p.label, list(p.tags)) == (1, 2.0, "p", [])


def test_default_factory_gives_fresh_value_per_object():
    a, b = Point(1), Point(1)
    a.tags.append(1)
    assert list(b.tags) == []


def test_init_accepts_keywords():
    p = Point(label="q", x=3)
    assert (p.x, p.label) == (3, "q")


def test_init_signature_puts_required_fields_first():
    @py_class("test_py_class.Sig")
    class Sig(tvm_ffi.Object):
        a: int = 0
        b: int
        _: KW_ONLY
        c: int = 10
        d: int

    assert str(inspect.signature(Sig.__init__)) == "(self, b, a=<MISSING>, *, d, c=<MISSING>)"
    obj = Sig(1, d=2)
    assert (obj.a, obj.b, obj.c, obj.d) == (0, 1, 10, 2)


def test_init_converts_values():
    p = Point(1, 5)
    assert p.y == 5.0 and type(p.y) is float


def test_init_conversion_error_names_field():
    with pytest.raises(TypeError) as info:
        Point("x")
    assert (
        str(info.value) == "test_py_class.Point.__ffi_init__() field 'x':\n  expected int, got str"
    )


def test_assignment_error_is_the_bare_detail():
    p = Point(1)
    with pytest.raises(TypeError) as info:
        p.x = "x"
    assert str(info.value) == "expected int, got str"


def test_assignment_out_of_int64_range_is_the_bare_detail():
    p = Point(1)
    with pytest.raises(TypeError) as info:
        p.x = 2**70
    assert str(info.value) == (
        "integer %d out of int64 range [-9223372036854775808, 9223372036854775807]" % 2**70
    )


def test_init_missing_argument_error_comes_from_runtime():
    with pytest.raises(TypeError, match="missing required argument: 'x'"):
        Point()


def test_classvar_is_not_a_field():
    assert [f.name for f in fields(Point)] == ["x", "y", "label", "tags"]
    assert Point.scale == 3


def test_assignment_converts_value():
    p = Point(1)
    p.y = 4
    assert p.y == 4.0 and type(p.y) is float


def test_rejected_assignment_keeps_old_value():
    p = Point(1)
    with pytest.raises(TypeError):
        p.x = "no"
    assert p.x == 1


def test_str_field_reads_back_as_string():
    assert Point(1, label="hello").label == "hello"


def test_self_referencing_optional_field():
    n = Node(1, Node(2))
    assert type(n.next) is Node and n.next.value == 2 and n.next.next is None


def test_object_field_rejects_other_type():
    with pytest.raises(TypeError):
        Node(1, Point(1))


def test_repr_prints_type_key_and_fields():
    assert repr(Point(1)) == 'test_py_class.Point(x=1, y=2, label="p", tags=[])'


def test_eq_order_and_hash_are_recursive():
    assert Point(1) == Point(1) and Point(1) != Point(2)
    assert Point(1) < Point(2)
    assert hash(Point(1)) == hash(Point(1))


def test_copy_deepcopy_and_replace():
    p = Point(1, tags=[1])
    shallow, deep = copy.copy(p), copy.deepcopy(p)
    assert shallow == p and not shallow.same_as(p) and shallow.tags.same_as(p.tags)
    assert deep == p and not deep.tags.same_as(p.tags)
    changed = replace(p, x=7)
    assert changed.x == 7 and p.x == 1


def test_frozen_class_rejects_assignment():
    obj = Frozen(1)
    with pytest.raises(AttributeError):
        obj.a = 2
    assert obj.a == 1


def test_frozen_set_escape_hatch_converts():
    obj = Frozen(1)
    Frozen.a.set(obj, 5)
    assert obj.a == 5
    with pytest.raises(TypeError):
        Frozen.a.set(obj, "x")


def test_replace_on_frozen_object():
    obj = replace(Frozen(1), b="z")
    assert obj.b == "z"


def test_init_false_installs_guard():
    @py_class("test_py_class.NoInit", init=False)
    class NoInit(tvm_ffi.Object):
        v: int

    with pytest.raises(TypeError, match="`NoInit` cannot be constructed directly"):
        NoInit()


def test_user_init_gets_zeroed_object_from_ffi_new():
    @py_class("test_py_class.UserInit")
    class UserInit(tvm_ffi.Object):
        a: int
        b: typing.Optional[tvm_ffi.Object]

        def __init__(self, a):
            assert self.a == 0 and self.b is None
            self.a = a * 2

    assert UserInit(3).a == 6
    assert UserInit.__init__.__wrapped__ is not None


def test_post_init_runs_after_construction():
    seen = []

    @py_class("test_py_class.Post")
    class Post(tvm_ffi.Object):
        v: int

        def __post_init__(self):
            seen.append(self.v)

    Post(9)
    assert seen == [9]


def test_py_class_inherits_py_class():
    @py_class("test_py_class.Point3")
    class Point3(Point):
        z: int = 0

    p = Point3(1, z=4)
    assert (p.x, p.z) == (1, 4)
    assert [f.name for f in fields(Point3)] == ["x", "y", "label", "tags", "z"]
    assert _offsets(Point3)["z"] >= 24 + 8 + 8 + 16 + 8


def test_is_dataclass():
    assert is_dataclass(Point) and is_dataclass(Point(1))


def test_cxx_creates_object_through_reflection():
    obj = _make("test_py_class.Point", "x", 5)
    assert type(obj) is Point
    assert (obj.x, obj.y, obj.label) == (5, 2.0, "p")


def test_cxx_reads_fields_through_reflection():
    p = Point(3, 1.5, label="c")
    assert tvm_ffi.testing.py_class_field(p, "x") == 3
    assert tvm_ffi.testing.py_class_field(p, "y") == 1.5
    assert tvm_ffi.testing.py_class_field(p, "label") == "c"
    assert list(tvm_ffi.testing.py_class_field_names(p)) == ["x", "y", "label", "tags"]


def test_cxx_assignment_is_converted_by_field_schema():
    obj = _make("test_py_class.Point", "x", 5, "y", 3)
    assert obj.y == 3.0 and type(obj.y) is float


def test_cxx_assignment_of_wrong_type_is_rejected():
    with pytest.raises(TypeError) as info:
        _make("test_py_class.Node", "value", 1, "next", Point(1))
    assert str(info.value) == "expected test_py_class.Node, got test_py_class.Point"


def test_default_factory_value_is_converted():
    assert type(Point(1).tags) is tvm_ffi.List


def test_type_is_in_runtime_registry():
    assert "test_py_class.Point" in list(tvm_ffi.registry.get_registered_type_keys())


def test_field_defaults_visible_in_type_info():
    by_name = {tf.name: tf for tf in Point.__tvm_ffi_type_info__.fields}
    assert by_name["y"].c_default == 2.0
    assert by_name["x"].c_default is MISSING
    assert by_name["tags"].c_default_factory is not MISSING


def test_type_attr_hooks_in_body_reach_the_runtime():
    @py_class("test_py_class.Hooked")
    class Hooked(tvm_ffi.Object):
        key: int
        note: str

        def __ffi_repr__(self, fn_repr):
            return "Hooked<%d>" % self.key

        def __ffi_eq__(self, other, fn_eq):
            return self.key == other.key

        def __ffi_hash__(self, fn_hash):
            return self.key

    a, b = Hooked(1, "x"), Hooked(1, "y")
    assert repr(a) == "Hooked<1>"
    assert tvm_ffi.get_global_func("ffi.RecursiveEq")(a, b)
    assert tvm_ffi.get_global_func("ffi.ReprPrint")(tvm_ffi.Array([a])) == "(Hooked<1>,)"


def test_classmethod_type_attr_is_rejected():
    class Bad(tvm_ffi.Object):
        v: int

        @classmethod
        def __ffi_repr__(cls, fn_repr):
            return ""

    with pytest.raises(TypeError, match="'__ffi_repr__' is wrapped by @classmethod"):
        py_class("test_py_class.BadClassmethod")(Bad)
