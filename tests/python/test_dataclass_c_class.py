"""@c_class over the C++ fixtures of tvm_ffi.testing: generated members, frozen, warnings."""

import copy
import dataclasses
import inspect
import sys
import typing
import warnings

import pytest
import tvm_ffi
import tvm_ffi.testing
from tvm_ffi import core, registry
from tvm_ffi.dataclasses import (
    asdict,
    astuple,
    c_class,
    field,
    fields,
    is_dataclass,
    replace,
)


@c_class("testing.TestCxxClassBase")
class _Base(tvm_ffi.Object):
    v_i64: int
    v_i32: int

    def __init__(self, v_i64, v_i32):
        self.__ffi_init__(v_i64, v_i32)


@c_class("testing.TestCxxClassDerived", eq=True, order=True, unsafe_hash=True)
class _Derived(_Base):
    v_f64: float
    v_f32: float = field(default=8.0)


@c_class("testing.TestFrozenCxx", init=False)
class _NoInit(tvm_ffi.Object):
    pass


@c_class("testing.TestCustomHash")
class _CustomHash(tvm_ffi.Object):
    key: int
    label: str


@pytest.fixture
def non_copyable_cls():
    """A c_class over testing.TestNonCopyable; the testing module's class is bound back after."""
    original = tvm_ffi.testing.TestNonCopyable

    @c_class("testing.TestNonCopyable")
    class NonCopyable(tvm_ffi.Object):
        value: int

    yield NonCopyable
    registry._bind_class(original, original.__tvm_ffi_type_info__)


@pytest.fixture
def frozen_cls():
    """A c_class(frozen=True) over testing.TestCxxClassDerivedDerived. Freezing marks the
    type's field records, which the whole process shares: they and the type's class are put
    back after the test, so that later tests see the type unfrozen."""
    info = core._lookup_or_register_type_info_from_type_key("testing.TestCxxClassDerivedDerived")
    original = info.type_cls
    saved = [(tf, tf.frozen, tf.dataclass_field) for tf in info.fields]

    @c_class("testing.TestCxxClassDerivedDerived", frozen=True)
    class DerivedDerived(_Derived):
        v_str: str
        v_bool: bool

    yield DerivedDerived
    for tf, frozen, dataclass_field in saved:
        tf.frozen = frozen
        tf.dataclass_field = dataclass_field
    if original is None:
        original = registry.register_object("testing.TestCxxClassDerivedDerived")(
            type("TestCxxClassDerivedDerived", (_Derived,), {})
        )
    registry._bind_class(original, info)


def _make_frozen(cls):
    return cls(1, 2, 3.5, v_bool=True, v_f32=4.0, v_str="s")


def test_user_init_calls_explicit_cxx_constructor():
    obj = _Base(1, 2)
    assert (obj.v_i64, obj.v_i32) == (2, 4)


def test_generated_init_fills_parent_fields_and_defaults():
    obj = _Derived(1, 2, 3.5)
    assert (obj.v_i64, obj.v_i32, obj.v_f64, obj.v_f32) == (1, 2, 3.5, 8.0)


def test_generated_init_accepts_keywords():
    obj = _Derived(v_f64=1.5, v_i32=2, v_i64=3, v_f32=4.0)
    assert (obj.v_i64, obj.v_i32, obj.v_f64, obj.v_f32) == (3, 2, 1.5, 4.0)


def test_generated_init_signature_lists_parent_fields_first():
    assert (
        str(inspect.signature(_Derived.__init__)) == "(self, v_i64, v_i32, v_f64, v_f32=<MISSING>)"
    )


def test_generated_init_missing_argument_error_comes_from_runtime():
    with pytest.raises(TypeError, match="missing required argument: 'v_f64'"):
        _Derived(1, 2)


def test_field_value_in_body_is_removed_and_replaced_by_property():
    assert isinstance(_Derived.__dict__["v_f32"], tvm_ffi.core.FFIProperty)


def test_repr_uses_repr_print_and_skips_repr_off_fields():
    assert repr(_Derived(1, 2, 3.5)) == "testing.TestCxxClassDerived(v_f64=3.5, v_f32=8)"


def test_eq_compares_fields_recursively():
    assert _Derived(1, 2, 3.5) == _Derived(1, 2, 3.5)
    assert _Derived(1, 2, 3.5) != _Derived(1, 2, 4.5)


def test_without_eq_objects_compare_by_identity():
    a, b = _Base(1, 2), _Base(1, 2)
    assert a != b
    assert a == a


def test_eq_with_unrelated_object_is_false():
    assert (_Derived(1, 2, 3.5) == 5) is False


def test_order_methods_compare_fields():
    small, large = _Derived(1, 2, 3.0), _Derived(1, 2, 4.0)
    assert small < large and small <= large and large > small and large >= small
    assert not (large < small)


def test_order_with_unrelated_object_raises_python_type_error():
    with pytest.raises(TypeError, match="not supported between instances"):
        _ = _Derived(1, 2, 3.0) < 1


def test_unsafe_hash_is_recursive_hash():
    a, b = _Derived(1, 2, 3.5), _Derived(1, 2, 3.5)
    assert hash(a) == hash(b)
    assert hash(a) == tvm_ffi.get_global_func("ffi.RecursiveHash")(a)


def test_copy_makes_new_object_with_same_fields_and_type():
    a = _Derived(1, 2, 3.5)
    b = copy.copy(a)
    assert type(b) is _Derived
    assert not b.same_as(a)
    assert b == a


def test_deepcopy_makes_new_object_with_same_fields():
    a = _Derived(1, 2, 3.5)
    b = copy.deepcopy(a)
    assert type(b) is _Derived and not b.same_as(a) and b == a


def test_copy_of_non_copyable_type_raises(non_copyable_cls):
    obj = non_copyable_cls(3)
    assert obj.value == 3
    with pytest.raises(
        TypeError,
        match="Type `NonCopyable` does not support copy. The underlying "
        "C\\+\\+ type is not copy-constructible.",
    ):
        copy.copy(obj)


def test_deepcopy_of_non_copyable_type_raises_the_runtime_error(non_copyable_cls):
    with pytest.raises(
        RuntimeError,
        match='Cannot deep copy object of type "testing.TestNonCopyable" because it is not '
        "copy-constructible",
    ) as info:
        copy.deepcopy(non_copyable_cls(3))
    assert info.value.__tvm_ffi_error__.kind == "RuntimeError"


def test_replace_changes_named_fields_on_a_copy():
    a = _Derived(1, 2, 3.5)
    b = replace(a, v_f64=9.5)
    assert (b.v_i64, b.v_f64) == (1, 9.5)
    assert a.v_f64 == 3.5


def test_replace_with_unknown_name_raises_attribute_error():
    with pytest.raises(AttributeError, match="type object '_Derived' has no attribute 'nope'"):
        replace(_Derived(1, 2, 3.5), nope=1)


def test_replace_converts_values():
    with pytest.raises(TypeError):
        replace(_Derived(1, 2, 3.5), v_f64="x")


def test_match_args_lists_positional_init_fields_parent_first():
    assert _Derived.__match_args__ == ("v_i64", "v_i32", "v_f64", "v_f32")


def test_init_false_installs_construction_guard():
    with pytest.raises(
        TypeError,
        match="`_NoInit` cannot be constructed directly. Define a "
        "custom __init__ or use a factory method.",
    ):
        _NoInit()


def test_frozen_marks_own_fields_read_only(frozen_cls):
    obj = _make_frozen(frozen_cls)
    with pytest.raises(AttributeError):
        obj.v_str = "t"
    assert obj.v_str == "s"


def test_frozen_does_not_freeze_parent_fields(frozen_cls):
    obj = _make_frozen(frozen_cls)
    obj.v_f64 = 6.5
    assert obj.v_f64 == 6.5


def test_frozen_field_set_escape_hatch_writes(frozen_cls):
    obj = _make_frozen(frozen_cls)
    type(obj).v_str.set(obj, "t")
    assert obj.v_str == "t"


def test_replace_on_frozen_object_writes_frozen_field(frozen_cls):
    obj = replace(_make_frozen(frozen_cls), v_str="r")
    assert obj.v_str == "r"
    with pytest.raises(AttributeError):
        obj.v_str = "q"


def test_frozen_fields_report_frozen_in_fields(frozen_cls):
    by_name = {f.name: f for f in fields(frozen_cls)}
    assert by_name["v_str"].frozen and by_name["v_bool"].frozen
    assert not by_name["v_f64"].frozen


def test_frozen_c_class_leaves_the_type_writable_for_later_tests():
    # Runs after the frozen tests above: their fixture put the type back.
    values = {"v_i64": 1, "v_i32": 2, "v_f64": 3.5, "v_f32": 4.0, "v_str": "s", "v_bool": True}
    make = tvm_ffi.get_global_func("ffi.MakeObjectFromPackedArgs")
    obj = make("testing.TestCxxClassDerivedDerived", *[x for kv in values.items() for x in kv])
    obj.v_str = "t"
    assert obj.v_str == "t"
    assert not any(tf.frozen for tf in type(obj).__tvm_ffi_type_info__.fields)


def test_fields_carry_cxx_registration():
    by_name = {f.name: f for f in fields(_Derived)}
    assert [f.name for f in fields(_Derived)] == ["v_i64", "v_i32", "v_f64", "v_f32"]
    assert by_name["v_f32"].default == 8.0
    assert by_name["v_i64"].repr is False
    assert by_name["v_f64"].type is float


def test_type_attrs_of_cxx_type_are_copied_to_class():
    assert callable(_CustomHash.__ffi_hash__)


def test_unannotated_reflected_fields_warn_with_sorted_names():
    with pytest.warns(UserWarning) as record:

        @c_class("testing.TestCompare")
        class _Compare(tvm_ffi.Object):
            key: int

    message = str(record[0].message)
    assert message == (
        "@c_class('testing.TestCompare'): class `test_unannotated_reflected_fields_warn_with_"
        "sorted_names.<locals>._Compare` does not annotate the following reflected field(s): "
        "ignored_field, name. Add type annotations (e.g. `field_name: type`) to the class body "
        "for IDE support and documentation."
    )
    assert record[0].filename == __file__


def test_annotated_class_does_not_warn():
    with warnings.catch_warnings():
        warnings.simplefilter("error")

        @c_class("testing.TestHash")
        class _Hash(tvm_ffi.Object):
            key: int
            name: str
            hash_ignored: int

    assert _Hash(1, "a", 2).key == 1


def test_unknown_type_key_raises_value_error():
    with pytest.raises(ValueError, match="Cannot find object type index for testing.NoSuchType"):

        @c_class("testing.NoSuchType")
        class _Missing(tvm_ffi.Object):
            pass


def test_is_dataclass_true_for_class_and_instance():
    assert is_dataclass(_Derived) and is_dataclass(_Derived(1, 2, 3.5))


def test_is_dataclass_false_for_register_object_and_containers():
    assert not is_dataclass(tvm_ffi.access_path.AccessStep)
    assert not is_dataclass(tvm_ffi.Array([1]))
    assert not is_dataclass(tvm_ffi.Object)


def test_values_returned_from_cxx_come_back_as_c_class():
    obj = tvm_ffi.Array([_Derived(1, 2, 3.5)])[0]
    assert type(obj) is _Derived


def test_dataclass_transform_marker():
    spec = c_class.__dataclass_transform__
    assert spec["eq_default"] is False and spec["order_default"] is False
    assert spec["field_specifiers"] == (tvm_ffi.dataclasses.Field, field)


@pytest.fixture
def holder_cls():
    """c_class bindings of testing.TestObjectBase and testing.TestObjectPtrHolder (value: Base,
    optional_value: Base | None); the testing module's classes are bound back after."""
    originals = [tvm_ffi.testing.TestObjectBase, tvm_ffi.testing.TestObjectPtrHolder]

    @c_class("testing.TestObjectBase")
    class Base(tvm_ffi.Object):
        v_i64: int
        v_f64: float
        v_str: str

    @c_class("testing.TestObjectPtrHolder")
    class Holder(tvm_ffi.Object):
        value: Base
        optional_value: typing.Optional[Base]

    yield Holder, Base
    for original in originals:
        registry._bind_class(original, original.__tvm_ffi_type_info__)


def _use_count(obj):
    return tvm_ffi.testing.object_use_count(obj)


def test_object_field_assignment_stores_the_new_object(holder_cls):
    Holder, Base = holder_cls
    holder = Holder(Base(1, 1.0, "a"))
    new = Base(2, 2.0, "b")
    holder.value = new
    assert holder.value.same_as(new)
    assert type(holder.value) is Base


def test_object_field_assignment_accepts_a_subtype(holder_cls):
    Holder, Base = holder_cls
    holder = Holder(Base(1, 1.0, "a"))
    derived = tvm_ffi.testing.create_object("testing.TestObjectDerived", v_map={}, v_array=[])
    holder.value = derived
    assert holder.value.same_as(derived)


def test_object_field_assignment_moves_the_reference_counts(holder_cls):
    Holder, Base = holder_cls
    old, new = Base(1, 1.0, "a"), Base(2, 2.0, "b")
    holder = Holder(old)
    assert (_use_count(old), _use_count(new)) == (2, 1)
    holder.value = new
    assert (_use_count(old), _use_count(new)) == (1, 2)


def test_object_field_assigned_object_outlives_the_python_reference(holder_cls):
    Holder, Base = holder_cls
    holder = Holder(Base(1, 1.0, "a"))
    holder.value = Base(7, 7.0, "kept")
    assert (holder.value.v_i64, holder.value.v_str) == (7, "kept")


def test_object_field_assignment_of_another_object_type_is_type_error(holder_cls):
    Holder, Base = holder_cls
    old = Base(1, 1.0, "a")
    holder = Holder(old)
    with pytest.raises(TypeError, match="`testing.TestIntPair` to `testing.TestObjectBase`"):
        holder.value = tvm_ffi.testing.TestIntPair(1, 2)
    assert holder.value.same_as(old)
    assert _use_count(old) == 2


@pytest.mark.parametrize("bad", [1, 2.5, "x", None], ids=["int", "float", "str", "None"])
def test_object_field_assignment_of_a_non_object_is_type_error(holder_cls, bad):
    Holder, Base = holder_cls
    old = Base(1, 1.0, "a")
    holder = Holder(old)
    with pytest.raises(TypeError, match="to `testing.TestObjectBase`"):
        holder.value = bad
    assert holder.value.same_as(old)


def test_optional_object_field_assignment_of_none_releases_the_object(holder_cls):
    Holder, Base = holder_cls
    held = Base(1, 1.0, "a")
    holder = Holder(Base(0, 0.0, ""), optional_value=held)
    assert _use_count(held) == 2
    holder.optional_value = None
    assert holder.optional_value is None
    assert _use_count(held) == 1


# ---- c_class / register_object on a class not deriving from tvm_ffi.Object -------------------


@pytest.fixture
def int_pair_rebound():
    """Lets a test bind its own class to testing.TestIntPair: the type's class and its
    field records' dataclass fields are put back after."""
    info = core._lookup_or_register_type_info_from_type_key("testing.TestIntPair")
    original = info.type_cls
    saved = [(tf, tf.dataclass_field) for tf in info.fields]
    yield info
    for tf, dataclass_field in saved:
        tf.dataclass_field = dataclass_field
    if original is not None:
        registry._bind_class(original, info)


class _Greeter:
    __slots__ = ()

    def greet(self):
        return "hi %d" % self.a


def test_c_class_on_a_plain_class_returns_a_class_deriving_from_object(int_pair_rebound):
    @c_class("testing.TestIntPair")
    class Pair:
        a: int
        b: int

    assert issubclass(Pair, tvm_ffi.Object)
    assert Pair.__tvm_ffi_type_info__ is int_pair_rebound
    assert int_pair_rebound.type_cls is Pair
    assert is_dataclass(Pair)
    assert [f.name for f in fields(Pair)] == ["a", "b"]


def test_c_class_on_a_plain_class_keeps_its_name_body_and_other_bases(int_pair_rebound):
    @c_class("testing.TestIntPair")
    class Pair(_Greeter):
        """Pair doc."""

        a: int
        b: int

        def total(self):
            return self.a + self.b

    assert Pair.__name__ == "Pair" and Pair.__module__ == __name__
    assert Pair.__qualname__.endswith("<locals>.Pair")
    assert Pair.__doc__ == "Pair doc."
    assert Pair.__mro__[1:3] == (_Greeter, tvm_ffi.Object)
    obj = Pair(1, 2)
    assert obj.total() == 3 and obj.greet() == "hi 1" and obj.sum() == 3


def test_c_class_on_a_plain_class_constructs_through_the_cxx_init(int_pair_rebound):
    @c_class("testing.TestIntPair")
    class Pair:
        a: int
        b: int

    obj = Pair(3, 4)
    assert type(obj) is Pair and (obj.a, obj.b) == (3, 4)
    assert repr(obj) == "testing.TestIntPair(a=3, b=4)"


def test_c_class_on_a_plain_class_receives_the_values_cxx_returns(int_pair_rebound):
    @c_class("testing.TestIntPair")
    class Pair:
        a: int
        b: int

    made = tvm_ffi.Array([tvm_ffi.testing.TestIntPair(5, 6)])[0]
    assert type(made) is Pair and made.a == 5


def test_c_class_on_a_plain_class_keeps_zero_argument_super_working(int_pair_rebound):
    @c_class("testing.TestIntPair")
    class Pair:
        a: int
        b: int

        def __repr__(self):
            return "<" + super().__repr__() + ">"

    assert repr(Pair(1, 2)) == "<testing.TestIntPair(a=1, b=2)>"


def test_register_object_on_a_plain_class_returns_a_class_deriving_from_object(
    int_pair_rebound,
):
    @registry.register_object("testing.TestIntPair")
    class Pair:
        pass

    assert issubclass(Pair, tvm_ffi.Object)
    assert int_pair_rebound.type_cls is Pair
    assert Pair(1, 2).sum() == 3


# ---- __replace__ / copy.replace and the stdlib dataclasses helpers ----------------------------


def test_replace_dunder_is_defined_on_every_python_version():
    assert "__replace__" in _Derived.__dict__
    a = _Derived(1, 2, 3.5)
    b = _Derived.__replace__(a, v_f64=9.5)
    assert type(b) is _Derived and b.v_f64 == 9.5 and a.v_f64 == 3.5


def test_replace_dunder_takes_changes_by_keyword_only():
    with pytest.raises(TypeError, match="takes 1 positional argument but 2 were given"):
        _Derived(1, 2, 3.5).__replace__(9.5)


def test_register_object_classes_have_no_replace_dunder():
    assert not hasattr(tvm_ffi.access_path.AccessStep, "__replace__")
    assert not hasattr(tvm_ffi.Object, "__replace__")
    assert not hasattr(tvm_ffi.Array([1]), "__replace__")


@pytest.mark.skipif(sys.version_info < (3, 13), reason="copy.replace is new in Python 3.13")
def test_copy_replace_returns_a_changed_copy_of_a_c_class_object():
    a = _Derived(1, 2, 3.5)
    b = copy.replace(a, v_i32=7)
    assert type(b) is _Derived and b.v_i32 == 7 and a.v_i32 == 2


@pytest.mark.skipif(sys.version_info < (3, 13), reason="copy.replace is new in Python 3.13")
def test_copy_replace_rejects_objects_of_classes_without_replace_dunder():
    with pytest.raises(TypeError, match="replace\\(\\) does not support Array objects"):
        copy.replace(tvm_ffi.Array([1]))


def test_stdlib_dataclasses_helpers_do_not_treat_c_class_as_a_dataclass():
    obj = _Derived(1, 2, 3.5)
    assert not dataclasses.is_dataclass(_Derived) and not dataclasses.is_dataclass(obj)
    with pytest.raises(TypeError, match="must be called with a dataclass type or instance"):
        dataclasses.fields(_Derived)
    with pytest.raises(TypeError, match="astuple\\(\\) should be called on dataclass instances"):
        dataclasses.astuple(obj)


def test_astuple_and_asdict_of_a_c_class_object_list_its_fields_in_order():
    obj = _Derived(1, 2, 3.5)
    assert astuple(obj) == (1, 2, 3.5, 8.0)
    assert asdict(obj) == {"v_i64": 1, "v_i32": 2, "v_f64": 3.5, "v_f32": 8.0}


# ---- field docs ----------------------------------------------------------------------------


def test_c_class_field_property_and_field_doc_are_the_cxx_field_doc(int_pair_rebound):
    @c_class("testing.TestIntPair")
    class Pair(tvm_ffi.Object):
        a: int
        b: int

    docs = {tf.name: tf.doc for tf in int_pair_rebound.fields}
    assert docs["a"]
    assert Pair.__dict__["a"].__doc__ == docs["a"]
    assert {f.name: f.doc for f in fields(Pair)} == docs


def test_c_class_field_registered_without_doc_has_no_doc():
    holder = tvm_ffi.testing._TestCxxEnumHolder
    assert holder.__dict__["priority"].__doc__ is None
    assert [f.doc for f in fields(holder)] == [None, None]
