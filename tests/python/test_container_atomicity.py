"""A failed mutation leaves a List or Dict exactly as it was; containers hash like they compare."""

import pytest
import tvm_ffi
from tvm_ffi import Array, Dict, List, Map


class Unconvertible:
    """A value whose conversion to an FFI value fails (its DLPack export raises)."""

    def __dlpack__(self, *args, **kwargs):
        raise BufferError("cannot export")


BAD = Unconvertible()


def _list():
    return List([1, "two", 3.0])


def _snapshot(lst):
    return [(type(x), x) for x in lst]


MUTATIONS = {
    "setitem": lambda l: l.__setitem__(0, BAD),
    "slice_assign": lambda l: l.__setitem__(slice(0, 1), [5, BAD]),
    "slice_grow": lambda l: l.__setitem__(slice(1, 1), [7, 8, BAD]),
    "extended_slice": lambda l: l.__setitem__(slice(0, 3, 2), [9, BAD]),
    "append": lambda l: l.append(BAD),
    "insert": lambda l: l.insert(1, BAD),
    "extend": lambda l: l.extend([4, 5, BAD]),
    "iadd": lambda l: l.__iadd__([4, BAD]),
}


@pytest.mark.parametrize("name", sorted(MUTATIONS))
def test_failed_list_mutation_leaves_list_unchanged(name):
    lst = _list()
    before = _snapshot(lst)
    with pytest.raises(BufferError):
        MUTATIONS[name](lst)
    assert _snapshot(lst) == before


def test_remove_of_absent_value_raises_value_error_and_changes_nothing():
    lst = _list()
    before = _snapshot(lst)
    with pytest.raises(ValueError):
        lst.remove(BAD)
    assert _snapshot(lst) == before


def test_slice_assign_of_big_int_never_empties_the_list():
    # Regression: lst[0:1] = [2**70] used to clear the list and then fail.
    lst = List([1, 2, 3])
    try:
        lst[0:1] = [2**70]
    except (OverflowError, TypeError, ValueError):
        assert list(lst) == [1, 2, 3]
    else:
        assert list(lst) == [2**70, 2, 3]


def test_extend_with_big_int_is_all_or_nothing():
    lst = List([1])
    try:
        lst.extend([2, 2**70])
    except (OverflowError, TypeError, ValueError):
        assert list(lst) == [1]
    else:
        assert list(lst) == [1, 2, 2**70]


DICT_MUTATIONS = {
    "setitem_value": lambda d: d.__setitem__("k", BAD),
    "setitem_key": lambda d: d.__setitem__(BAD, 1),
    "update": lambda d: d.update({"x": 1, "y": BAD}),
    "update_pairs": lambda d: d.update([("x", 1), ("y", BAD)]),
    "setdefault": lambda d: d.setdefault("new", BAD),
    "setdefault_key": lambda d: d.setdefault(BAD, 1),
    "pop_key": lambda d: d.pop(BAD),
    "delitem_key": lambda d: d.__delitem__(BAD),
}


@pytest.mark.parametrize("name", sorted(DICT_MUTATIONS))
def test_failed_dict_mutation_leaves_dict_unchanged(name):
    d = Dict({"a": 1, "b": "two"})
    before = list(d.items())
    with pytest.raises(BufferError):
        DICT_MUTATIONS[name](d)
    assert list(d.items()) == before


def test_slice_assignment_replaces_contents():
    lst = List([0, 1, 2, 3])
    lst[1:3] = ["a", "b", "c"]
    assert list(lst) == [0, "a", "b", "c", 3]


def test_self_slice_assignment_uses_a_snapshot():
    lst = List([1, 2, 3])
    lst[1:2] = lst
    assert list(lst) == [1, 1, 2, 3, 3]


def test_extended_slice_size_mismatch_message():
    lst = List([1, 2, 3, 4])
    with pytest.raises(
        ValueError, match="attempt to assign sequence of size 1 to extended slice of size 2"
    ):
        lst[::2] = [9]
    assert list(lst) == [1, 2, 3, 4]


def test_pop_from_empty_list_message():
    with pytest.raises(IndexError, match="pop from empty list"):
        List().pop()


def test_reverse():
    lst = List([1, 2, 3])
    lst.reverse()
    assert list(lst) == [3, 2, 1]


def test_equal_arrays_collapse_in_a_set():
    # Regression: {Array([1]), Array([1])} had two elements.
    assert len({Array([1]), Array([1])}) == 1


def test_equal_containers_hash_equal():
    assert hash(Array([1, "a", (2,)])) == hash(Array([1, "a", (2,)]))
    assert hash(Map({"k": [1]})) == hash(Map({"k": [1]}))
    assert Array([1, 2]) == List([1, 2]) and hash(Array([1, 2])) == hash(List([1, 2]))


def test_equality_is_type_strict():
    assert Array([1]) != Array([1.0])
    assert Array([True]) != Array([1])


def test_array_equals_python_sequence_but_not_str():
    assert Array([1, 2]) == [1, 2] and Array([1, 2]) == (1, 2)
    assert Array(["a", "b", "c"]).__eq__("abc") is NotImplemented


def test_map_does_not_equal_plain_dict_or_dict():
    assert Map({"a": 1}) == Map({"a": 1})
    assert Map({"a": 1}) != {"a": 1}
    assert Map({"a": 1}) != Dict({"a": 1})


def test_container_as_dict_key():
    table = {Array([1, 2]): "x"}
    assert table[Array([1, 2])] == "x"


def test_contains_uses_ffi_equality_and_sequences():
    arr = Array([[1], 2])
    assert 2 in arr and (1,) in arr and [1] in arr
    assert 2.0 not in arr


def test_array_concatenation():
    assert isinstance(Array([1]) + [2], Array) and list(Array([1]) + [2]) == [1, 2]
    assert list([0] + Array([1])) == [0, 1]
    assert isinstance(List([1]) + (2,), List)


def test_array_requires_an_argument():
    with pytest.raises(TypeError):
        Array()


def test_map_requires_a_mapping():
    with pytest.raises(AttributeError):
        Map([("a", 1)])


def test_index_error_message():
    with pytest.raises(IndexError, match="Index out of range. size: 2, got index 5"):
        Array([1, 2])[5]


def test_non_index_subscript_message():
    with pytest.raises(TypeError, match="indices must be integers or slices, not str"):
        Array([1])["x"]


def test_map_missing_key_message():
    with pytest.raises(KeyError, match="key is not in Map"):
        Map({"a": 1})["b"]


def test_dict_pop_arity():
    d = Dict({"a": 1})
    assert d.pop("zz", 5) == 5
    with pytest.raises(TypeError, match="pop expected at most 2 arguments, got 3"):
        d.pop("a", 1, 2)


def test_values_view_supports_in():
    assert 1 in Map({"a": 1}).values()


def test_missing_sentinel_importable_from_container():
    from tvm_ffi.container import MISSING

    assert repr(MISSING) == "<MISSING>" and tvm_ffi.core.MISSING is MISSING


def test_ffi_style_repr():
    assert repr(Array([1, "x"])) == '(1, "x")'
    assert repr(Array([1])) == "(1,)"
    assert repr(List([1, "a"])) == '[1, "a"]'
    assert repr(Map({"a": 1, "b": (2,)})) == '{"a": 1, "b": (2,)}'


def test_containers_derive_from_ccontainerbase():
    assert issubclass(Array, tvm_ffi.CContainerBase) and issubclass(Dict, tvm_ffi.Object)


# ---- keys converted once per call (a list key becomes a new Array each time) ----


def test_dict_setdefault_with_fresh_object_key_inserts_once_and_returns_the_default():
    d = Dict()
    assert d.setdefault([1], 2) == 2
    assert len(d) == 1


def test_dict_setdefault_returns_the_value_it_stored():
    d = Dict()
    stored = d.setdefault("k", [1, 2])
    assert isinstance(stored, Array) and stored.same_as(d["k"])


def test_dict_setdefault_of_present_key_returns_it_and_changes_nothing():
    d = Dict({"k": 1})
    assert d.setdefault("k", 5) == 1
    assert dict(d.items()) == {"k": 1}


def test_dict_setdefault_with_unconvertible_default_changes_nothing():
    d = Dict({"a": 1})
    with pytest.raises(BufferError):
        d.setdefault("b", BAD)
    assert dict(d.items()) == {"a": 1}


def test_dict_setdefault_with_opaque_object_key_inserts_once():
    class Key:
        pass

    d = Dict()
    assert d.setdefault(Key(), 3) == 3
    assert len(d) == 1


def test_dict_pop_of_fresh_object_key_raises_key_error_and_changes_nothing():
    d = Dict({"a": 1})
    with pytest.raises(KeyError):
        d.pop([1])
    assert dict(d.items()) == {"a": 1}


def test_dict_del_of_fresh_object_key_raises_key_error_and_changes_nothing():
    d = Dict({"a": 1})
    with pytest.raises(KeyError):
        del d[[1]]
    assert dict(d.items()) == {"a": 1}


def test_dict_get_of_fresh_object_key_is_the_default():
    d = Dict({"a": 1})
    assert d.get([1], "dflt") == "dflt"


def test_dict_popitem_removes_an_opaque_object_key():
    class Key:
        pass

    key = Key()
    d = Dict()
    d.setdefault(key, 1)
    assert d.popitem() == (key, 1)
    assert len(d) == 0


def test_dict_popitem_of_empty_dict_raises_key_error():
    with pytest.raises(KeyError):
        Dict().popitem()


def test_dict_update_with_unconvertible_value_changes_nothing():
    d = Dict({"a": 1})
    with pytest.raises(BufferError):
        d.update([("b", 2), ("c", BAD)])
    assert dict(d.items()) == {"a": 1}


def test_dict_update_with_malformed_pair_changes_nothing():
    d = Dict({"a": 1})
    with pytest.raises((TypeError, ValueError)):
        d.update([("b", 2), ("c",)])
    assert dict(d.items()) == {"a": 1}


def test_dict_update_takes_keyword_arguments():
    d = Dict()
    d.update({"a": 1}, b=2)
    assert dict(d.items()) == {"a": 1, "b": 2}


def test_list_pop_returns_the_removed_element():
    lst = List([1, "two", 3.0])
    assert lst.pop(1) == "two"
    assert list(lst) == [1, 3.0]


def test_list_extend_with_itself_doubles_it():
    lst = List([1, 2])
    lst.extend(lst)
    assert list(lst) == [1, 2, 1, 2]


def test_list_slice_assign_of_itself_uses_a_snapshot():
    lst = List([1, 2, 3])
    lst[1:2] = lst
    assert list(lst) == [1, 1, 2, 3, 3]


def test_list_slice_operations_match_python_list():
    import random

    rng = random.Random(0)
    bounds = [None, -9, -3, -1, 0, 1, 2, 5, 9]
    for _ in range(300):
        n = rng.randint(0, 8)
        expected, lst = list(range(n)), List(range(n))
        sl = slice(rng.choice(bounds), rng.choice(bounds), rng.choice([None, 1, 2, -1, -2, 3]))
        values = list(range(100, 100 + rng.randint(0, 4)))
        delete = rng.random() < 0.5
        outcomes = []
        for target in (expected, lst):
            try:
                if delete:
                    del target[sl]
                else:
                    target[sl] = values
                outcomes.append(None)
            except ValueError:
                outcomes.append(ValueError)
        assert outcomes[0] == outcomes[1] and list(lst) == expected


# ---- index arguments that are not integers --------------------------------


@pytest.mark.parametrize(
    "call",
    [
        lambda s: s["a"],
        lambda s: s.__setitem__("a", 1),
        lambda s: s.__delitem__("a"),
    ],
    ids=["getitem", "setitem", "delitem"],
)
def test_list_subscript_with_str_raises_type_error_naming_str(call):
    lst = List([1, 2, 3])
    with pytest.raises(TypeError, match="List indices must be integers or slices, not str"):
        call(lst)
    assert list(lst) == [1, 2, 3]


def test_array_subscript_with_str_raises_type_error_naming_str():
    with pytest.raises(TypeError, match="Array indices must be integers or slices, not str"):
        Array([1])["a"]


def test_list_insert_with_str_index_raises_type_error_and_changes_nothing():
    lst = List([1, 2, 3])
    with pytest.raises(TypeError, match=r"List.insert\(\) index must be an integer, not str"):
        lst.insert("a", 1)
    assert list(lst) == [1, 2, 3]


def test_list_pop_with_str_index_raises_type_error_and_changes_nothing():
    lst = List([1, 2, 3])
    with pytest.raises(TypeError, match=r"List.pop\(\) index must be an integer, not str"):
        lst.pop("a")
    assert list(lst) == [1, 2, 3]


def test_list_pop_of_empty_list_with_bad_index_is_type_error():
    with pytest.raises(TypeError, match="not float"):
        List().pop(1.5)


def test_list_index_accepts_objects_with_dunder_index():
    class Two:
        def __index__(self):
            return 2

    lst = List([1, 2, 3])
    assert lst[Two()] == 3
    assert lst.pop(Two()) == 3
    lst.insert(Two(), 9)
    assert list(lst) == [1, 2, 9]
