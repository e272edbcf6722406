"""structural_walk / structural_visit / structural_map / structural_mutate over the
testing.visit.* IR of the test library (Var kind FreeVar, Add, Lam with pattern params,
Let with a simple-region var), and the mutation errors of its BadMutateHook, SelfCopy and
NoSetter types."""

import re
import typing

import pytest
import tvm_ffi
from tvm_ffi import Object
from tvm_ffi._structural_visit import (
    InplaceMode,
    StructuralMutator,
    StructuralVisitor,
    VisitInterrupt,
    WalkOrder,
    WalkResult,
    structural_map,
    structural_mutate,
    structural_visit,
    structural_walk,
)


@tvm_ffi.register_object("testing.visit.Var")
class Var(Object):
    pass


@tvm_ffi.register_object("testing.visit.Add")
class Add(Object):
    pass


@tvm_ffi.register_object("testing.visit.Lam")
class Lam(Object):
    pass


@tvm_ffi.register_object("testing.visit.Let")
class Let(Object):
    pass


@tvm_ffi.register_object("testing.visit.BadMutateHook")
class BadMutateHook(Object):
    pass


@tvm_ffi.register_object("testing.visit.SelfCopy")
class SelfCopy(Object):
    pass


@tvm_ffi.register_object("testing.visit.NoSetter")
class NoSetter(Object):
    pass


def describe(value):
    """The class name of an object, else the repr of the plain Python value."""
    if isinstance(value, Object):
        return type(value).__name__
    for ty in (bool, int, float, str, bytes):
        if isinstance(value, ty):
            return repr(ty(value))
    return repr(value)


def sample_tree():
    """Add(a=[1, "a", Var(ty=[1])], b={"k": 2.5, "j": None})"""
    return Add([1, "a", Var("v", [1])], {"k": 2.5, "j": None})


def test_walk_pre_order_visits_parents_before_children():
    seen = []
    assert structural_walk(sample_tree(), lambda v: seen.append(describe(v)), order="pre") is None
    assert seen == ["Add", "Array", "1", "'a'", "Var", "Array", "1", "Map", "2.5"]


def test_walk_post_order_visits_children_before_parents():
    seen = []
    structural_walk(sample_tree(), lambda v: seen.append(describe(v)), order=WalkOrder.POSTORDER)
    assert seen == ["1", "'a'", "1", "Array", "Var", "Array", "2.5", "Map", "Add"]


def test_walk_callbacks_are_selected_by_type():
    seen = []
    root = [1, True, "s", b"b", 2.5, Var("x", None)]
    structural_walk(
        root,
        [
            (int, lambda v: seen.append(("int", v))),
            ((str, bytes), lambda v: seen.append(("text", v))),
            (Var, lambda v: seen.append(("var", describe(v)))),
            (typing.Any, lambda v: seen.append(("any", describe(v)))),
        ],
        order="pre",
    )
    assert seen == [
        ("any", "Array"),
        ("int", 1),
        ("any", "True"),
        ("text", "s"),
        ("text", b"b"),
        ("any", "2.5"),
        ("var", "Var"),
    ]


def test_walk_single_type_pair_and_object_catch_all():
    ints, objects = [], []
    structural_walk([1, [2]], (int, ints.append))
    structural_walk([1, [2]], (object, lambda v: objects.append(describe(v))), order="pre")
    assert ints == [1, 2]
    assert objects == ["Array", "1", "Array", "2"]


def test_walk_skip_prunes_children_in_pre_order():
    seen = []

    def cb(v):
        seen.append(describe(v))
        return WalkResult.SKIP if isinstance(v, tvm_ffi.Array) else WalkResult.ADVANCE

    structural_walk(sample_tree(), cb, order="pre")
    assert seen == ["Add", "Array", "Map", "2.5"]


def test_walk_interrupt_stops_and_is_returned():
    seen = []

    def cb(v):
        seen.append(v)
        return VisitInterrupt(v * 10) if v == 2 else None

    result = structural_walk([1, 2, 3], (int, cb))
    assert isinstance(result, VisitInterrupt)
    assert result.value == 20
    assert seen == [1, 2]


def test_walk_with_def_region_kind_receives_the_region():
    x = Var("x", None)
    seen = []
    structural_walk(
        [Lam([x], Add(x, 1)), Let(x, 2, x)],
        with_def_region_kind=(Var, lambda v, kind: seen.append(int(kind))),
        order="pre",
    )
    assert seen == [1, 0, 2, 0]


def test_walk_callback_result_must_be_a_walk_result():
    with pytest.raises(TypeError, match="expected WalkResult, but got float"):
        structural_walk([1], (int, lambda v: 1.5))


def test_walk_callback_errors_propagate():
    def cb(v):
        raise ValueError("bad value %d" % v)

    with pytest.raises(ValueError, match="bad value 1"):
        structural_walk([[1]], (int, cb))


def test_walk_rejects_an_unknown_order():
    with pytest.raises(ValueError, match="Unknown structural walk order"):
        structural_walk([1], lambda v: None, order="sideways")


def test_walk_rejects_malformed_callback_specs():
    with pytest.raises(TypeError, match="callbacks within a sequence must be"):
        structural_walk([1], [lambda v: None])
    with pytest.raises(TypeError, match="callbacks must be callbacks"):
        structural_walk([1], 42)
    with pytest.raises(TypeError, match="callback type must be a supported builtin"):
        structural_walk([1], (complex, lambda v: None))


def test_visit_callbacks_own_the_descent():
    seen = []

    def on_add(add, visitor):
        assert isinstance(visitor, StructuralVisitor)
        seen.append("add")
        return visitor.visit(add.b)

    structural_visit([Add(1, [2]), 3], [(Add, on_add), (int, lambda v, _: seen.append(v))])
    assert seen == ["add", 2, 3]


def test_visitor_default_visit_and_region_helpers():
    seen = []

    def on_lam(lam, visitor):
        assert int(visitor.def_region_kind()) == 0
        visitor.with_def_region_kind(2, lambda: seen.append(int(visitor.def_region_kind())))
        return visitor.default_visit(lam)

    structural_visit(Lam([1], 2), [(Lam, on_lam), (int, lambda v, _: seen.append(v))])
    assert seen == [2, 1, 2]


def test_visitor_cannot_be_constructed():
    with pytest.raises(TypeError, match="cannot be constructed directly"):
        StructuralVisitor()
    with pytest.raises(TypeError, match="cannot be constructed directly"):
        StructuralMutator()


def test_visit_interrupt_holds_a_value():
    assert VisitInterrupt().value is None
    assert VisitInterrupt(5).value == 5
    assert VisitInterrupt.__tvm_ffi_type_info__.type_index == 77


def test_enums():
    assert (int(WalkOrder.PREORDER), int(WalkOrder.POSTORDER)) == (0, 1)
    assert (int(WalkResult.ADVANCE), int(WalkResult.SKIP)) == (0, 1)
    assert (int(InplaceMode.DISALLOW), int(InplaceMode.ALLOW)) == (0, 1)


def test_map_rebuilds_changed_parts_and_keeps_the_input():
    x = Var("x", None)
    root = Add([1, 2, x], tvm_ffi.Dict({"k": 3}))
    out = structural_map(root, (int, lambda v: v * 10))
    assert [out.a[0], out.a[1]] == [10, 20]
    assert out.a[2].same_as(x)
    assert out.b["k"] == 30
    assert isinstance(out.b, tvm_ffi.Dict)
    assert [root.a[0], root.a[1]] == [1, 2]
    assert root.b["k"] == 3


def test_map_that_changes_nothing_returns_the_same_object():
    root = Add([1, "s"], {"k": 2.5})
    assert structural_map(root, (str, lambda v: v)).same_as(root)


def test_map_never_maps_keys():
    out = structural_map({1: 2}, (int, lambda v: v + 1))
    assert dict(out.items()) == {1: 3}


def test_map_bound_var_and_uses_become_one_new_var():
    x = Var("x", 1)
    out = structural_map(Lam([x], Add(x, x)), (int, lambda v: v + 1))
    param = out.params[0]
    assert not param.same_as(x)
    assert param.ty == 2
    assert out.body.a.same_as(param)
    assert out.body.b.same_as(param)


def test_map_pre_order_descends_into_replacements():
    def grow(arr):
        return [5, 6] if len(arr) == 1 else arr

    out = structural_map(Add([1], 2), [(tvm_ffi.Array, grow), (int, lambda v: v * 10)], order="pre")
    assert list(out.a) == [50, 60]
    assert out.b == 20


def test_map_with_def_region_kind():
    x = Var("x", 1)
    seen = []

    def on_var(v, kind):
        seen.append(int(kind))
        return v

    structural_map(Lam([x], x), with_def_region_kind=(Var, on_var))
    assert seen == [1, 0]


def test_mutate_callbacks_own_the_recursion():
    def on_add(add, mutator):
        assert isinstance(mutator, StructuralMutator)
        return Add(add.b, mutator.mutate(add.a))

    def on_int(v, mutator, mode):
        # A plain int, as the reference passes it; it compares equal to InplaceMode members.
        assert type(mode) is int and mode == InplaceMode.DISALLOW
        return v * 100

    out = structural_mutate([Add(1, [2]), 3], [(Add, on_add), (int, on_int)])
    assert list(out[0].a) == [2]
    assert out[0].b == 100
    assert out[1] == 300


def test_mutator_default_mutate_and_var_remap():
    x = Var("x", None)
    y = Var("y", None)

    def on_lam(lam, mutator):
        assert mutator.var_remap_get(x) is None
        mutator.var_remap_set(x, y)
        assert mutator.var_remap_get(x).same_as(y)
        return mutator.default_mutate(lam)

    out = structural_mutate(Lam([1], x), (Lam, on_lam))
    assert out.body.same_as(y)


def test_mutate_rejects_callbacks_of_the_wrong_arity():
    with pytest.raises(TypeError, match="must accept \\(value, mutator\\)"):
        structural_mutate([1], (int, lambda v: v))


def test_mutator_var_remap_keys_must_be_objects():
    def on_int(v, mutator):
        mutator.var_remap_set(v, 1)
        return v

    with pytest.raises(TypeError, match="Variable-remap key must be an object-backed value"):
        structural_mutate([1], (int, on_int))


def test_map_of_a_moved_root_reuses_it_in_place():
    root = tvm_ffi.convert([1, [2, 3]])
    handle = root.__chandle__()
    modes = []

    def on_int(v, mutator, mode):
        modes.append(mode)
        return v + 1

    out = structural_map(root._move(), (int, lambda v: v + 1))
    assert out.__chandle__() == handle
    assert [out[0], list(out[1])] == [2, [3, 4]]
    out = structural_mutate(out._move(), (int, on_int))
    assert out.__chandle__() == handle
    assert out[0] == 3


def test_map_rejects_a_mutate_hook_that_is_neither_a_hook_pointer_nor_a_function():
    message = "__s_mutate__ must be a direct hook pointer or ffi.Function"
    with pytest.raises(TypeError, match="^" + re.escape(message) + "$"):
        structural_map([BadMutateHook(1)], (int, lambda v: v + 1))


def test_map_rejects_a_shallow_copy_that_returns_its_input():
    obj = SelfCopy(1)
    message = "Shallow copy callback must return a distinct object with the same type as its input"
    with pytest.raises(TypeError, match="^" + re.escape(message) + "$"):
        structural_map(obj, (int, lambda v: v + 1))
    assert obj.x == 1


def test_map_rejects_changing_a_field_without_setter():
    message = (
        "Cannot structurally mutate field `x` of type `testing.visit.NoSetter` "
        "because it does not define a setter"
    )
    with pytest.raises(TypeError, match="^" + re.escape(message) + "$"):
        structural_map(NoSetter(1), (int, lambda v: v + 1))


def test_map_accepts_an_unchanged_field_without_setter():
    obj = NoSetter("s")
    assert structural_map(obj, (int, lambda v: v + 1)).same_as(obj)
