"""The class hierarchy of python_api.md §4.1: CObject is the root of every FFI handle class;
Object (registered types, containers, Module) derives from it, while Function, Tensor, Error
and OpaquePyObject derive from CObject only. Object subclasses get the metaclass
_ObjectSlotsMeta (empty __slots__ unless declared) and FFI objects take no weak references, in
the version-specific build and in the abi3 one alike; Function instances carry a __dict__ (§5)."""

import gc
import weakref

import numpy as np
import pytest
import tvm_ffi
import tvm_ffi.testing
from tvm_ffi import core
from tvm_ffi.core import TypeSchema


def _function():
    return tvm_ffi.get_global_func("testing.echo")


def _error():
    return core.Error("ValueError", "boom", "")


def test_cobject_is_the_root_of_the_handle_classes():
    assert core.CObject.__bases__ == (object,)
    assert issubclass(tvm_ffi.Object, core.CObject)


@pytest.mark.parametrize(
    "cls",
    [tvm_ffi.Function, tvm_ffi.Tensor, core.Error, core.OpaquePyObject],
    ids=lambda cls: cls.__name__,
)
def test_non_object_handle_class_derives_from_cobject_only(cls):
    assert issubclass(cls, core.CObject)
    assert not issubclass(cls, tvm_ffi.Object)


def test_function_instance_is_not_an_object():
    f = _function()
    assert isinstance(f, core.CObject) and not isinstance(f, tvm_ffi.Object)


def test_tensor_instance_is_not_an_object():
    t = tvm_ffi.from_dlpack(np.zeros(2, dtype="float32"))
    assert isinstance(t, core.CObject) and not isinstance(t, tvm_ffi.Object)


def test_error_instance_is_not_an_object():
    err = _error()
    assert isinstance(err, core.CObject) and not isinstance(err, tvm_ffi.Object)


def test_opaque_py_object_instance_is_not_an_object():
    wrapped = tvm_ffi.convert({1, 2})
    assert isinstance(wrapped, core.OpaquePyObject)
    assert isinstance(wrapped, core.CObject) and not isinstance(wrapped, tvm_ffi.Object)


def test_containers_are_objects_with_the_container_base_before_object():
    mro = tvm_ffi.Array.__mro__
    assert mro.index(tvm_ffi.container.CContainerBase) < mro.index(tvm_ffi.Object)
    assert mro.index(tvm_ffi.Object) < mro.index(core.CObject)
    assert isinstance(tvm_ffi.Map({"a": 1}), tvm_ffi.Object)


def test_registered_types_and_modules_are_objects():
    assert isinstance(tvm_ffi.testing.TestIntPair(1, 2), tvm_ffi.Object)
    assert issubclass(tvm_ffi.Module, tvm_ffi.Object)


def test_handle_methods_work_on_a_function():
    f = _function()
    assert f.same_as(f) and f.is_(f)
    assert f.__chandle__() == f.id_ != 0
    assert hash(f) == hash(f.__chandle__())
    assert not f.same_as(tvm_ffi.Array([1]))


def test_function_passed_through_a_call_keeps_its_handle():
    f = _function()
    assert tvm_ffi.testing.echo(f).same_as(f)


def test_error_passes_through_convert_unchanged():
    err = _error()
    assert tvm_ffi.convert(err) is err


def test_container_holding_a_function_compares_by_handle():
    f = _function()
    assert tvm_ffi.Array([f]) == [f]
    assert tvm_ffi.Array([f]) != [_error()]


def test_function_annotation_is_a_callable_schema():
    assert TypeSchema.from_annotation(tvm_ffi.Function).origin == "Callable"


def test_tensor_annotation_is_a_tensor_schema():
    assert TypeSchema.from_annotation(tvm_ffi.Tensor).origin == "Tensor"


def test_function_converts_to_an_object_field_of_type_any_object():
    f = _function()
    assert core._to_py_class_value(TypeSchema("Object").convert(f)).same_as(f)


def test_registering_a_class_outside_the_hierarchy_is_type_error():
    with pytest.raises(TypeError, match="expects a subclass of tvm_ffi.core.CObject, got"):
        core._register_object_class(64, int)


# ---- _ObjectSlotsMeta and weak references (same in both builds) -----------------------------


@pytest.mark.parametrize(
    "cls",
    [tvm_ffi.Object, tvm_ffi.container.CContainerBase, tvm_ffi.Function, tvm_ffi.Tensor],
    ids=lambda cls: cls.__name__,
)
def test_extension_class_has_the_object_slots_metaclass(cls):
    assert type(cls) is core._ObjectSlotsMeta


def test_object_slots_metaclass_derives_from_abcmeta():
    import abc

    assert issubclass(core._ObjectSlotsMeta, abc.ABCMeta)


def test_undeclared_subclass_gets_empty_slots():
    class Plain(tvm_ffi.Object):
        pass

    assert Plain.__slots__ == ()


def test_undeclared_subclass_instance_has_no_dict():
    class Plain(tvm_ffi.Object):
        pass

    assert not hasattr(Plain(), "__dict__")


def test_undeclared_subclass_instance_rejects_new_attributes():
    class Plain(tvm_ffi.Object):
        pass

    with pytest.raises(AttributeError):
        Plain().extra = 1


def test_subclass_of_a_container_rejects_new_attributes():
    class MyArray(tvm_ffi.Array):
        pass

    with pytest.raises(AttributeError):
        MyArray([1]).extra = 1


def test_declared_dict_slot_gives_instances_attributes():
    class WithDict(tvm_ffi.Object):
        __slots__ = ("__dict__",)

    obj = WithDict()
    obj.extra = 1
    assert obj.__dict__ == {"extra": 1}


@pytest.mark.parametrize(
    "make",
    [
        _function,
        _error,
        lambda: tvm_ffi.from_dlpack(np.zeros(2, dtype="float32")),
        lambda: tvm_ffi.testing.TestIntPair(1, 2),
        lambda: tvm_ffi.convert({1, 2}),
        lambda: tvm_ffi.Array([1]),
        lambda: tvm_ffi.List([1]),
        lambda: tvm_ffi.Map({"a": 1}),
        lambda: tvm_ffi.Dict({"a": 1}),
        tvm_ffi.Object,
    ],
    ids=[
        "Function",
        "Error",
        "Tensor",
        "registered",
        "OpaquePyObject",
        "Array",
        "List",
        "Map",
        "Dict",
        "Object",
    ],
)
def test_ffi_objects_reject_weak_references(make):
    obj = make()
    with pytest.raises(TypeError, match="cannot create weak reference"):
        weakref.ref(obj)


def test_undeclared_subclass_rejects_weak_references():
    class Plain(tvm_ffi.Object):
        pass

    with pytest.raises(TypeError, match="cannot create weak reference"):
        weakref.ref(Plain())


def test_declared_weakref_slot_gives_weak_references():
    class Weak(tvm_ffi.Object):
        __slots__ = ("__weakref__",)

    obj = Weak()
    assert weakref.ref(obj)() is obj


# ---- exchange-API tags of containers (held by CContainerBase, no weak reference) ---------------


def _exchange_call_result():
    """A container returned by a call that had an exchange-API argument (so it is tagged)."""
    wrapper = core.DLTensorTestWrapper(tvm_ffi.from_dlpack(np.zeros(2, dtype="float32")))
    return tvm_ffi.testing.echo([wrapper])


def test_container_result_of_an_exchange_call_is_tagged():
    before = core._exchange_tag_count()
    out = _exchange_call_result()
    assert core._exchange_tag_count() == before + 1
    del out


def test_container_tag_is_dropped_with_its_wrapper():
    before = core._exchange_tag_count()
    out = _exchange_call_result()
    del out
    gc.collect()
    assert core._exchange_tag_count() == before


def test_container_read_from_a_tagged_container_is_tagged():
    wrapper = core.DLTensorTestWrapper(tvm_ffi.from_dlpack(np.zeros(2, dtype="float32")))
    outer = tvm_ffi.testing.echo([[wrapper]])
    before = core._exchange_tag_count()
    inner = outer[0]
    assert core._exchange_tag_count() == before + 1
    del inner


def test_tagged_container_passed_again_tags_the_result():
    tagged = _exchange_call_result()
    before = core._exchange_tag_count()
    again = tvm_ffi.testing.echo(tagged)
    assert core._exchange_tag_count() == before + 1
    del again


def test_untagged_container_result_is_not_tagged():
    before = core._exchange_tag_count()
    out = tvm_ffi.testing.echo([tvm_ffi.from_dlpack(np.zeros(2, dtype="float32"))])
    assert core._exchange_tag_count() == before
    del out


# ---- Function instances have a __dict__ (python_api.md §5) ------------------------------------


def test_function_instance_takes_new_attributes():
    f = tvm_ffi.convert(lambda: 0)
    f.__name__ = "renamed"
    assert f.__name__ == "renamed"


def test_function_instance_dict_holds_its_attributes():
    f = tvm_ffi.convert(lambda: 0)
    f.note = 1
    assert f.__dict__ == {"note": 1}


def test_function_subclass_instance_takes_new_attributes():
    class MyFunction(tvm_ffi.Function):
        pass

    f = MyFunction()
    f.note = 1
    assert f.note == 1
