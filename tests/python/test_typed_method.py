"""tvm_ffi.method: functions of a @py_class body registered as typed TypeMethods."""

import pytest
import tvm_ffi
from tvm_ffi.dataclasses import py_class
from tvm_ffi.dataclasses.py_class import _collect_py_methods


@py_class("test_typed_method.Acc")
class Acc(tvm_ffi.Object):
    x: int

    @tvm_ffi.method
    def add(self, y: int) -> int:
        return self.x + y

    @tvm_ffi.method
    @staticmethod
    def make(v: int) -> "Acc":
        return Acc(v)

    @tvm_ffi.method
    def varargs(self, *a):
        return len(a)

    @tvm_ffi.method
    def untyped(self, y):
        return y

    @tvm_ffi.method
    def __len__(self):
        return self.x

    @tvm_ffi.method
    def __ffi_repr__(self, fn_repr):
        return "Acc!"

    def helper(self):
        return 2


def _methods(cls):
    return {m.name: m for m in cls.__tvm_ffi_type_info__.methods}


def test_method_returns_the_function_marked():
    def f(self):
        return 1

    assert tvm_ffi.method(f) is f
    assert f.__ffi_method__ is True


def test_method_marks_the_function_inside_staticmethod():
    s = staticmethod(lambda: 1)
    assert tvm_ffi.method(s) is s
    assert s.__func__.__ffi_method__ is True


def test_method_rejects_classmethod():
    with pytest.raises(TypeError, match="@tvm_ffi.method: @classmethod is not supported"):
        tvm_ffi.method(classmethod(lambda cls: 1))


def test_method_rejects_non_callable():
    with pytest.raises(TypeError, match="@tvm_ffi.method: expected a callable, got int."):
        tvm_ffi.method(3)


def test_method_is_exported_from_the_package():
    from tvm_ffi.dataclasses.py_class import method

    assert tvm_ffi.method is method


def test_marked_methods_become_type_methods():
    methods = _methods(Acc)
    assert {"add", "make", "varargs", "untyped", "__len__"} <= set(methods)
    assert methods["make"].is_static and not methods["add"].is_static


def test_unmarked_helper_is_not_a_type_method():
    assert "helper" not in _methods(Acc)


def test_type_attr_name_goes_to_the_type_attr_table():
    assert "__ffi_repr__" not in _methods(Acc)
    assert repr(Acc(1)) == "Acc!"


def test_type_method_calls_the_python_function_through_ffi():
    assert _methods(Acc)["add"].func(Acc(2), 3) == 5
    assert _methods(Acc)["make"].func(4).x == 4


def test_python_attribute_stays_callable():
    assert Acc(2).add(3) == 5
    assert len(Acc(6)) == 6


def test_instance_method_metadata_has_self_schema_first():
    schema = _methods(Acc)["add"].metadata["type_schema"]
    assert schema == {
        "type": "Callable",
        "named_args": {
            "return": [{"type": "int"}],
            "params": [{"type": "test_typed_method.Acc"}, {"type": "int"}],
        },
    }


def test_static_method_metadata_resolves_forward_names():
    schema = _methods(Acc)["make"].metadata["type_schema"]
    assert schema["named_args"] == {
        "return": [{"type": "test_typed_method.Acc"}],
        "params": [{"type": "int"}],
    }


def test_missing_hints_are_any():
    schema = _methods(Acc)["untyped"].metadata["type_schema"]
    assert schema["named_args"]["params"][1] == {"type": "Any"}


def test_varargs_method_has_a_bare_callable_schema():
    assert _methods(Acc)["varargs"].metadata == {"type_schema": {"type": "Callable"}}


def test_collect_py_methods_with_globals_adds_metadata():
    entries = {e[0]: e for e in _collect_py_methods(Acc, globals()) or ()}
    assert "helper" not in entries
    assert len(entries["add"]) == 4


def test_classmethod_type_attr_in_body_is_rejected():
    with pytest.raises(TypeError, match="is wrapped by @classmethod"):

        @py_class("test_typed_method.BadCls")
        class Bad(tvm_ffi.Object):
            @classmethod
            def __ffi_repr__(cls, fn):
                return ""
