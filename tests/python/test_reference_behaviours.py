"""Behaviours the apache-tvm-ffi wheel's own suite relies on, checked on ours one by one:
py_class registration in two phases, type attributes inherited by py_class children,
forward references,
__ffi_init__, the type converter's error paths, enum
declarations, Error pickling, traceback frames that free the raising frames' locals, and the
optional torch addon with a partial torch module."""

import gc
import numbers
import pickle
import sys
import types
import weakref
from typing import ClassVar

import pytest
import tvm_ffi
import tvm_ffi.testing
from tvm_ffi import core
from tvm_ffi.core import MISSING, TypeSchema
from tvm_ffi.dataclasses import Enum, Field, entry, py_class
from tvm_ffi.registry import _add_class_attrs

_KEYS = iter(range(1_000_000))


def _key(name):
    return "testing.reference_behaviours.%s_%d" % (name, next(_KEYS))


def _object_info():
    return core._type_cls_to_type_info(core.Object)


# ---- py_class in two phases (core._register_py_class, TypeInfo._register_fields) ----


def test_register_py_class_returns_a_pending_type_info():
    cls = type("Pending", (core.Object,), {"__slots__": ()})
    key = _key("Pending")
    info = core._register_py_class(_object_info(), key, cls)
    assert (info.type_key, info.fields, info.type_cls) == (key, None, cls)
    assert info.parent_type_info is _object_info()
    assert 64 in info.type_ancestors


def test_register_py_class_refuses_a_taken_key_and_keeps_the_first():
    key = _key("Taken")
    first = type("First", (core.Object,), {"__slots__": ()})
    core._register_py_class(_object_info(), key, first)
    second = type("Second", (core.Object,), {"__slots__": ()})
    with pytest.raises(ValueError, match="already registered"):
        core._register_py_class(_object_info(), key, second)
    assert core._lookup_or_register_type_info_from_type_key(key).type_cls is first


def test_register_fields_lays_out_fields_that_construct():
    cls = type("Point", (core.Object,), {"__slots__": ()})
    info = core._register_py_class(_object_info(), _key("Point"), cls)
    info._register_fields(
        [
            Field(name="x", _ty_schema=TypeSchema("int"), default=MISSING),
            Field(name="label", _ty_schema=TypeSchema("str"), default="origin"),
        ]
    )
    assert [f.name for f in info.fields] == ["x", "label"]
    assert info.fields[0].offset < info.fields[1].offset
    _add_class_attrs(cls, info)
    obj = cls.__new__(cls)
    obj.__ffi_init__(core.KWARGS, "x", 3)
    assert (obj.x, obj.label) == (3, "origin")


# ---- type attributes a py_class child takes from its parent ------------------------------


def test_py_class_child_takes_the_parents_structural_hooks():
    @py_class(_key("Parity"))
    class Parity(core.Object):
        value: int

        def __s_equal__(self, other, compare):
            return self.value % 2 == other.value % 2

        def __s_hash__(self, seed, hash_value):
            return self.value % 2

    @py_class(_key("ParityChild"))
    class ParityChild(Parity):
        label: str = ""

    assert tvm_ffi.structural_equal(ParityChild(1), ParityChild(5))
    assert tvm_ffi.structural_hash(ParityChild(1)) == tvm_ffi.structural_hash(ParityChild(3))


def test_py_class_child_body_overrides_an_inherited_hook():
    @py_class(_key("Loose"))
    class Loose(core.Object):
        value: int

        def __s_equal__(self, other, compare):
            return True

    @py_class(_key("Strict"))
    class Strict(Loose):
        def __s_equal__(self, other, compare):
            return self.value == other.value

    assert not tvm_ffi.structural_equal(Strict(1), Strict(2))


def test_inherit_list_selects_custom_type_attrs():
    @py_class(_key("Hooked"))
    class Hooked(core.Object):
        __ffi_type_attr_names__ = ("__test_hook__", "__test_data__")
        __ffi_inherit_type_attrs__ = ("__test_hook__",)
        __test_data__ = 42

        def __test_hook__(self):
            return 11

    @py_class(_key("HookedChild"))
    class HookedChild(Hooked):
        value: int

    index = HookedChild.__tvm_ffi_type_info__.type_index
    assert core._lookup_type_attr(index, "__test_hook__")(HookedChild(1)) == 11
    assert core._lookup_type_attr(index, "__test_data__") is None


def test_empty_inherit_list_or_none_in_the_body_opts_out():
    @py_class(_key("Base"))
    class Base(core.Object):
        __ffi_type_attr_names__ = ("__test_hook__",)
        __ffi_inherit_type_attrs__ = ("__test_hook__",)

        def __test_hook__(self):
            return 1

    @py_class(_key("OptOut"))
    class OptOut(Base):
        __ffi_inherit_type_attrs__ = ()

    @py_class(_key("NoneHook"))
    class NoneHook(Base):
        __test_hook__ = None

    @py_class(_key("NoneGrandchild"))
    class NoneGrandchild(NoneHook):
        pass

    for cls in (OptOut, NoneHook, NoneGrandchild):
        assert core._lookup_type_attr(cls.__tvm_ffi_type_info__.type_index, "__test_hook__") is None


# ---- forward references ------------------------------------------------------------------


def test_unresolved_reference_error_lists_annotations_that_fail_to_evaluate():
    body = {"__module__": __name__, "__annotations__": {"gone": "NoSuchType", "bad": "len(1)"}}
    cls = py_class(_key("Broken"))(type("Broken", (core.Object,), body))
    with pytest.raises(TypeError, match="Cannot instantiate Broken") as info:
        cls()
    assert "gone: NoSuchType" in str(info.value)
    assert "bad: len(1) (TypeError" in str(info.value)


def test_forward_reference_resolves_to_a_py_class_of_another_module():
    target_ns = {"__name__": "testing.reference_behaviours_b", "py_class": py_class}
    target_ns.update(Object=core.Object, key=_key("Target"))
    exec(
        "from __future__ import annotations\n"
        "@py_class(key)\n"
        "class RefTarget(Object):\n"
        "    x: int\n",
        target_ns,
    )
    holder_ns = {"__name__": "testing.reference_behaviours_a", "py_class": py_class}
    holder_ns.update(Object=core.Object, key=_key("Holder"))
    exec(
        "from __future__ import annotations\n"
        "@py_class(key)\n"
        "class RefHolder(Object):\n"
        "    child: RefTarget\n",
        holder_ns,
    )
    holder = holder_ns["RefHolder"](child=target_ns["RefTarget"](x=7))
    assert holder.child.x == 7


# ---- __ffi_init__ -----------------------------------------------------------------------


def test_ffi_init_takes_keywords():
    cls = tvm_ffi.testing._TestCxxAutoInit
    obj = cls.__new__(cls)
    obj.__ffi_init__(a=1, c=3)
    assert (obj.a, obj.b, obj.c, obj.d) == (1, 42, 3, 99)


def test_ffi_init_of_a_parent_refuses_a_child_instance():
    child = tvm_ffi.testing._TestCxxClassDerivedDerived
    obj = child.__new__(child)
    with pytest.raises(TypeError, match="not supported"):
        tvm_ffi.testing._TestCxxClassDerived.__ffi_init__(obj, 1, 2, 3.0)


def test_ffi_init_accepts_a_field_named_self():
    # init=False: a generated __init__ cannot have a parameter named self besides its own.
    @py_class(_key("SelfField"), init=False)
    class Record(core.Object):
        self: int

    obj = Record.__new__(Record)
    obj.__ffi_init__(self=4)
    assert obj.self == 4


def test_py_class_default_that_does_not_convert_fails_at_construction():
    @py_class(_key("BadDefault"))
    class Holder(core.Object):
        a: int
        b: tvm_ffi.testing.TestIntPair = 5

    with pytest.raises(TypeError, match="default for field 'b'"):
        Holder(a=1)


# ---- the type converter -------------------------------------------------------------------


def _broken_integral(exc):
    class Broken:
        def __int__(self):
            raise exc

        def __bool__(self):
            raise exc

    numbers.Integral.register(Broken)
    return Broken()


def test_integral_whose_int_raises_is_a_type_error_naming_it():
    with pytest.raises(TypeError, match=r"int\(\) failed for .*Broken: too big"):
        TypeSchema("int").convert(_broken_integral(OverflowError("too big")))


def test_integral_whose_bool_raises_is_a_type_error_naming_it():
    with pytest.raises(TypeError, match=r"bool\(\) failed for .*Broken: broken"):
        TypeSchema("bool").check_value(_broken_integral(RuntimeError("broken")))


def test_container_subclass_passes_through_unchanged():
    class MyArray(tvm_ffi.Array):
        pass

    arr = MyArray([1, 2, 3])
    out = core._to_py_class_value(TypeSchema("Array", (TypeSchema("int"),)).convert(arr))
    assert out.same_as(arr)


def test_schema_of_type_index_minus_one_is_any():
    assert TypeSchema.from_type_index(-1).origin == "Any"


def test_shape_schema_converts_a_list_of_ints():
    out = core._to_py_class_value(TypeSchema("ffi.Shape").convert([1, 2, 3]))
    assert isinstance(out, tvm_ffi.Shape)
    assert tuple(out) == (1, 2, 3)


def test_shape_schema_refuses_a_list_of_floats_naming_the_convert():
    with pytest.raises(TypeError, match="__ffi_convert__ failed"):
        TypeSchema("ffi.Shape").convert([1.5])


# ---- enums ---------------------------------------------------------------------------------


def test_enum_entry_annotated_as_classvar_is_a_variant():
    class Activation(Enum, type_key=_key("Activation")):
        arity: int = 0
        relu: ClassVar["Activation"] = entry(arity=1)
        add = entry(arity=2)

    assert list(Activation) == [Activation.relu, Activation.add]
    assert (Activation.relu._int_index, Activation.relu.arity) == (0, 1)


# ---- errors ----------------------------------------------------------------------------------


def test_error_without_handle_pickles_to_an_error_without_handle():
    error = core.Error.__new__(core.Error)
    restored = pickle.loads(pickle.dumps(error))
    assert isinstance(restored, core.Error)
    assert restored.__chandle__() == 0


def test_native_error_leaves_no_cycle_holding_the_callers_locals():
    raise_error = tvm_ffi.get_global_func("testing.test_raise_error")

    class Probe:
        pass

    def raise_and_catch():
        try:
            raise_error("ValueError", "boom")
        except ValueError:
            pass

    def caller():
        probe = Probe()
        raise_and_catch()
        return weakref.ref(probe)

    gc.disable()
    try:
        assert caller()() is None
    finally:
        gc.enable()


# ---- the optional torch addon ------------------------------------------------------------


def test_torch_addon_tolerates_a_torch_module_without_cuda_streams(monkeypatch):
    from tvm_ffi import _optional_torch_c_dlpack

    fake = types.SimpleNamespace(
        cuda=types.SimpleNamespace(is_available=lambda: True),
        version=types.SimpleNamespace(cuda=None, hip="7.2"),
        Tensor=types.SimpleNamespace(__dlpack_c_exchange_api__=object()),
    )
    monkeypatch.setitem(sys.modules, "torch", fake)
    monkeypatch.setitem(sys.modules, "torch.version", fake.version)
    _optional_torch_c_dlpack._patch_cuda_stream(fake)
    assert not hasattr(fake.cuda, "Stream")
