"""ffi.ReprPrint, ffi.Recursive*, ffi.DeepCopy on reflected objects (the testing fixtures)."""

import pytest
import tvm_ffi
from tvm_ffi import List

_f = tvm_ffi.get_global_func
repr_print = _f("ffi.ReprPrint")
deep_copy = _f("ffi.DeepCopy")
req, rlt, rle, rgt, rge, rhash = (
    _f("ffi.Recursive" + n) for n in ("Eq", "Lt", "Le", "Gt", "Ge", "Hash")
)
_make = _f("ffi.MakeObjectFromPackedArgs")


def make(type_key, **fields):
    args = []
    for name, value in fields.items():
        args += [name, value]
    return _make(type_key, *args)


def compare(key, name, ignored_field=0):
    return make("testing.TestCompare", key=key, name=name, ignored_field=ignored_field)


def hashed(key, name, hash_ignored=0):
    return make("testing.TestHash", key=key, name=name, hash_ignored=hash_ignored)


def keyed(type_name, key, label):
    return make("testing." + type_name, key=key, label=label)


def test_repr_lists_fields_parent_first():
    obj = make(
        "testing.TestObjectDerived",
        v_i64=3,
        v_f64=1.5,
        v_str="s",
        v_map=tvm_ffi.Map({"a": 1}),
        v_array=tvm_ffi.Array([1]),
    )
    text = 'testing.TestObjectDerived(v_i64=3, v_f64=1.5, v_str="s", v_map={"a": 1}, v_array=(1,))'
    assert repr_print(obj) == text
    assert repr(obj) == text


def test_repr_skips_repr_off_fields():
    obj = make("testing.TestCxxClassBase", v_i64=1, v_i32=2)
    assert repr_print(obj) == "testing.TestCxxClassBase"


def test_repr_with_addr(monkeypatch):
    monkeypatch.setenv("TVM_FFI_REPR_WITH_ADDR", "1")
    obj = make("testing.TestIntPair", a=1, b=2)
    assert repr_print(obj) == "testing.TestIntPair@0x%x(a=1, b=2)" % obj.__chandle__()


def test_eq_ignores_compare_off_fields():
    assert req(compare(1, "a", 2), compare(1, "a", 3))
    assert not req(compare(1, "a"), compare(1, "b"))
    assert rhash(compare(1, "a", 2)) == rhash(compare(1, "a", 3))


def test_hash_ignores_hash_off_fields_but_eq_does_not():
    assert rhash(hashed(1, "x", 5)) == rhash(hashed(1, "x", 6))
    assert not req(hashed(1, "x", 5), hashed(1, "x", 6))


def test_hash_values_agree_with_the_reference():
    assert rhash(compare(1, "x", 5)) == -5489667494180696104
    assert rhash(hashed(1, "x", 5)) == -2333583975415125541
    assert rhash(make("testing.TestNonCopyable", value=1)) == -120429923095234644


def test_order_compares_fields_lexicographically():
    assert rlt(compare(1, "b"), compare(2, "a"))
    assert rlt(compare(1, "a"), compare(1, "b"))
    assert rge(compare(1, "a", 9), compare(1, "a", 0))


def test_objects_of_different_types():
    assert not req(compare(1, "a"), hashed(1, "a"))
    with pytest.raises(
        TypeError,
        match="Cannot compare values of different types: testing.TestCompare vs testing.TestHash",
    ):
        rlt(compare(1, "a"), hashed(1, "a"))


def test_custom_hash_hook():
    assert rhash(keyed("TestCustomHash", 1, "x")) == rhash(1)
    assert rhash(keyed("TestCustomHash", 1, "x")) == rhash(keyed("TestCustomHash", 1, "y"))
    assert not req(keyed("TestCustomHash", 1, "x"), keyed("TestCustomHash", 1, "y"))


def test_custom_compare_hooks():
    a, b = keyed("TestCustomCompare", 1, "x"), keyed("TestCustomCompare", 1, "y")
    assert req(a, b) and rhash(a) == rhash(b)
    assert rlt(keyed("TestCustomCompare", 1, "z"), keyed("TestCustomCompare", 2, "a"))
    assert not rlt(keyed("TestCustomCompare", 2, "a"), keyed("TestCustomCompare", 1, "z"))


def test_eq_without_hash():
    a, b = keyed("TestEqWithoutHash", 1, "x"), keyed("TestEqWithoutHash", 1, "y")
    assert req(a, b)
    assert rlt(a, b)  # no __ffi_compare__: ordering uses the fields
    msg = "RecursiveHash: type 'testing.TestEqWithoutHash' defines __ffi_eq__ or __ffi_compare__"
    with pytest.raises(ValueError, match=msg):
        rhash(a)
    with pytest.raises(ValueError, match=msg):
        rhash(List([1, a]))


def test_deep_copy_of_object():
    inner = tvm_ffi.Array([1])
    obj = make(
        "testing.TestObjectDerived",
        v_i64=3,
        v_f64=1.5,
        v_str="s",
        v_map=tvm_ffi.Map({"a": List([1])}),
        v_array=inner,
    )
    c = deep_copy(obj)
    assert not c.same_as(obj)
    assert type(c) is type(obj)
    assert repr(c) == repr(obj)
    assert req(c, obj)


def test_deep_copy_keeps_sharing_of_objects():
    p = make("testing.TestIntPair", a=1, b=2)
    c = deep_copy(tvm_ffi.Array([p, p]))
    assert c[0].same_as(c[1]) and not c[0].same_as(p)


def test_deep_copy_of_non_copyable_object_raises():
    n = make("testing.TestNonCopyable", value=1)
    msg = 'Cannot deep copy object of type "testing.TestNonCopyable" because it is not'
    with pytest.raises(RuntimeError, match=msg):
        deep_copy(List([n]))


def test_repr_hook_prints_nested_values_in_the_same_walk():
    obj = make("testing.TestReprHook", child=List([1, "a"]))
    assert repr_print(obj) == 'Hook<[1, "a"]>'
    lst = List([])
    cyc = make("testing.TestReprHook", child=lst)
    lst.append(cyc)
    assert repr(cyc) == "Hook<[...]>"
    lst.clear()


def test_object_repr_never_raises():
    obj = make("testing.TestReprRaises")
    with pytest.raises(ValueError, match="repr failed"):
        repr_print(obj)
    assert repr(obj) == "%s(0x%x)" % (type(obj).__name__, obj.__chandle__())
