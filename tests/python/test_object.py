"""tvm_ffi.Object, register_object, the C++ type hierarchy and reflection."""

import copy
import pickle
import subprocess
import sys

import pytest
import tvm_ffi

make_derived = tvm_ffi.get_global_func("testing.make_derived")
make_base = tvm_ffi.get_global_func("testing.make_base")


@tvm_ffi.register_object("testing.Base")
class Base(tvm_ffi.Object):
    pass


@tvm_ffi.register_object("testing.Derived")
class Derived(Base):
    pass


def test_registered_class_is_returned_for_its_type():
    assert type(make_base(1)) is Base
    assert type(make_derived(1, 2)) is Derived


def test_isinstance_follows_cpp_hierarchy():
    obj = make_derived(1, 2)
    assert isinstance(obj, Base) and isinstance(obj, tvm_ffi.Object)


def test_type_key_of_object():
    assert make_derived(1, 2).type_key == "testing.Derived"


def test_read_only_field_is_property():
    obj = make_base(7)
    assert obj.a == 7
    with pytest.raises(AttributeError):
        obj.a = 3


def test_inherited_field_readable_on_subclass():
    obj = make_derived(3, 4)
    assert obj.a == 3 and obj.b == 4


def test_writable_field_setter_updates_cpp_object():
    obj = make_derived(3, 4)
    obj.b = 40
    assert obj.b == 40
    assert obj.sum() == 43


def test_writable_field_rejects_wrong_type():
    obj = make_derived(3, 4)
    with pytest.raises(TypeError, match="int"):
        obj.b = "no"


def test_method_becomes_python_method():
    assert make_base(5).twice_a() == 10
    assert make_derived(5, 1).twice_a() == 10


def test_static_method_becomes_staticmethod():
    obj = Derived.make_default()
    assert isinstance(obj, Derived) and obj.sum() == 3


def test_ffi_init_becomes_constructor():
    obj = Derived(10, 20)
    assert obj.a == 10 and obj.b == 20
    base = Base(4)
    assert type(base) is Base and base.a == 4


def test_same_as_eq_and_hash_follow_identity():
    echo = tvm_ffi.get_global_func("testing.echo")
    obj = make_base(1)
    again = echo(obj)
    assert again is not obj
    assert again.same_as(obj) and again == obj and hash(again) == hash(obj)
    assert not make_base(1).same_as(obj)
    assert make_base(1) != obj


def test_repr_mentions_type_key():
    assert "testing.Base" in repr(make_base(1))


def test_pickle_of_type_without_creator_is_serializer_type_error():
    # testing.Base has no reflection creator, so its JSON graph cannot be written.
    with pytest.raises(TypeError, match="does not support ToJSONGraph"):
        pickle.dumps(make_base(1))


def test_copy_of_type_without_creator_is_serializer_type_error():
    with pytest.raises(TypeError, match="does not support ToJSONGraph"):
        copy.copy(make_base(1))
    with pytest.raises(TypeError, match="does not support ToJSONGraph"):
        copy.deepcopy(make_base(1))


def test_unregistered_type_comes_back_as_generated_subclass_of_registered_parent():
    # A fresh interpreter where only testing.Base has a Python class.
    code = (
        "import tvm_ffi\n"
        "import tvm_ffi.testing\n"
        "@tvm_ffi.register_object('testing.Base')\n"
        "class Base(tvm_ffi.Object):\n"
        "    pass\n"
        "obj = tvm_ffi.get_global_func('testing.make_derived')(1, 2)\n"
        "cls = type(obj)\n"
        "assert issubclass(cls, Base) and cls is not Base, cls\n"
        "assert cls.__name__ == 'Derived' and cls.__qualname__ == 'testing.Derived'\n"
        "assert cls.__module__ == 'testing'\n"
        "assert cls.__doc__.startswith('Auto-generated fallback class')\n"
        "assert (obj.a, obj.b) == (1, 2)\n"
        "assert type(tvm_ffi.get_global_func('testing.make_derived')(3, 4)) is cls\n"
        "plain = tvm_ffi.get_global_func('testing.make_base')(1)\n"
        "assert type(plain) is Base\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_unregistered_type_without_registered_ancestor_gets_generated_class():
    code = (
        "import tvm_ffi\n"
        "import tvm_ffi.testing\n"
        "obj = tvm_ffi.get_global_func('testing.make_derived')(1, 2)\n"
        "cls = type(obj)\n"
        "assert cls.__qualname__ == 'testing.Derived', cls\n"
        "base = cls.__mro__[1]\n"
        "assert base.__qualname__ == 'testing.Base' and base.__mro__[1] is tvm_ffi.Object\n"
        "assert obj.a == 1 and obj.b == 2\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_register_object_unknown_key_raises_value_error_naming_key():
    with pytest.raises(ValueError, match="no.such.Type"):

        @tvm_ffi.register_object("no.such.Type")
        class Missing(tvm_ffi.Object):
            pass


def test_bare_object_is_an_empty_wrapper():
    obj = tvm_ffi.Object()
    assert obj.__chandle__() == 0 and repr(obj) == "Object(chandle=None)"


def test_object_with_arguments_but_no_constructor_raises_type_error():
    with pytest.raises(TypeError, match="constructor"):
        tvm_ffi.Object(1)


def test_function_is_a_cobject_but_not_an_object():
    f = tvm_ffi.get_global_func("testing.echo")
    assert isinstance(f, tvm_ffi.core.CObject)
    assert not isinstance(f, tvm_ffi.Object)


def test_field_property_on_wrong_object_type_raises_type_error():
    prop = Derived.__dict__["b"]
    with pytest.raises(TypeError, match="testing.Derived"):
        prop.fget(make_base(1))
