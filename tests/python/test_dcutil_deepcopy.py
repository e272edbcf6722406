"""ffi.DeepCopy and copy.deepcopy of containers."""

import copy

import pytest
import tvm_ffi
from tvm_ffi import Array, Dict, List, Map

deep_copy = tvm_ffi.get_global_func("ffi.DeepCopy")


def test_leaves_are_returned_as_they_are():
    assert deep_copy(1) == 1
    assert deep_copy("text") == "text"
    assert deep_copy(b"x") == b"x"


def test_containers_are_new_objects_with_equal_contents():
    inner = List([1])
    for value in (Array([inner]), List([inner]), Map({"k": inner}), Dict({"k": inner})):
        c = deep_copy(value)
        assert type(c) is type(value)
        assert not c.same_as(value)
        assert repr(c) == repr(value)


def test_sharing_is_preserved():
    p = List([1])
    c = deep_copy(Array([p, p]))
    assert c[0].same_as(c[1]) and not c[0].same_as(p)


def test_sharing_below_unshared_containers_is_preserved():
    shared = List([1])
    value = Array([Array([shared]), Map({"k": shared})])
    del shared  # the two inner containers alone hold it now
    c = deep_copy(value)
    assert c[0][0].same_as(c[1]["k"])
    assert not c[0][0].same_as(value[0][0])


def test_cycle_through_an_unshared_array_reaches_the_copy():
    lst = List()
    lst.append(Array([lst]))
    c = deep_copy(lst)
    assert c[0][0].same_as(c) and not c.same_as(lst)
    lst.clear()
    c.clear()


def test_cycle_is_preserved():
    lst = List([1])
    lst.append(lst)
    c = deep_copy(lst)
    assert c[1].same_as(c) and not c.same_as(lst)
    lst.clear()
    c.clear()


def test_back_reference_used_as_map_key():
    d = Dict()
    d[d] = 1
    c = deep_copy(d)
    (key,) = list(c.keys())
    assert key.same_as(c)
    d.clear()
    c.clear()


def test_copy_deepcopy_of_containers_uses_ffi_deep_copy():
    inner = List([1])
    outer = List([inner, inner])
    c = copy.deepcopy(outer)
    assert not c.same_as(outer)
    assert c[0].same_as(c[1]) and not c[0].same_as(inner)
    m = copy.deepcopy(Map({"a": inner}))
    assert not m["a"].same_as(inner)


def test_non_copyable_object_raises_runtime_error():
    f = tvm_ffi.get_global_func("testing.add_one")
    msg = 'Cannot deep copy object of type "ffi.Function" because it is not copy-constructible'
    with pytest.raises(RuntimeError, match=msg):
        deep_copy(f)
    with pytest.raises(RuntimeError, match=msg):
        deep_copy(List([1, f]))
