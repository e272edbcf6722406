"""Array, List, Map, Dict and Shape seen from Python, shared by reference with C++."""

import pytest
import tvm_ffi

list_append = tvm_ffi.get_global_func("testing.list_append")
list_size = tvm_ffi.get_global_func("testing.list_size")
dict_set = tvm_ffi.get_global_func("testing.dict_set")
make_list = tvm_ffi.get_global_func("testing.make_list")


def test_array_len_index_and_negative_index():
    arr = tvm_ffi.Array([10, 20, 30])
    assert len(arr) == 3
    assert arr[0] == 10 and arr[-1] == 30 and arr[-3] == 10


def test_array_out_of_range_raises_index_error():
    arr = tvm_ffi.Array([1])
    with pytest.raises(IndexError, match="3"):
        arr[3]
    with pytest.raises(IndexError):
        arr[-2]


def test_array_slicing_returns_list():
    arr = tvm_ffi.Array(range(6))
    assert arr[1:4] == [1, 2, 3]
    assert arr[::-2] == [5, 3, 1]
    assert isinstance(arr[1:2], list)


def test_array_iteration_and_contains():
    arr = tvm_ffi.Array(["a", "b"])
    assert list(arr) == ["a", "b"]
    assert "a" in arr and "z" not in arr


def test_array_equals_sequences_by_value():
    arr = tvm_ffi.Array([1, 2])
    assert arr == [1, 2] and arr == (1, 2) and arr == tvm_ffi.Array([1, 2])
    assert arr != [2, 1]


def test_array_repr_is_the_ffi_printer_text():
    assert repr(tvm_ffi.Array([1, "x"])) == '(1, "x")'


def test_array_is_immutable():
    arr = tvm_ffi.Array([1])
    with pytest.raises(TypeError):
        arr[0] = 2


def test_array_index_must_be_int():
    with pytest.raises(TypeError, match="str"):
        tvm_ffi.Array([1])["0"]


def test_list_mutations():
    lst = tvm_ffi.List([1, 2])
    lst.append(3)
    lst.extend([4, 5])
    lst.insert(0, 0)
    assert list(lst) == [0, 1, 2, 3, 4, 5]
    assert lst.pop() == 5 and lst.pop(0) == 0
    lst[0] = "one"
    del lst[1]
    assert list(lst) == ["one", 3, 4]
    lst.clear()
    assert len(lst) == 0


def test_list_pop_empty_raises_index_error():
    with pytest.raises(IndexError):
        tvm_ffi.List().pop()


def test_list_setitem_out_of_range_raises_index_error():
    with pytest.raises(IndexError):
        tvm_ffi.List([1])[5] = 0


def test_list_mutated_in_cpp_is_visible_in_python():
    lst = tvm_ffi.List([1])
    list_append(lst, "from c++")
    assert list(lst) == [1, "from c++"]


def test_list_mutated_in_python_is_visible_in_cpp():
    lst = make_list(3)
    assert isinstance(lst, tvm_ffi.List)
    lst.append(99)
    assert list_size(lst) == 4


def test_list_is_not_array():
    assert not isinstance(tvm_ffi.List(), tvm_ffi.Array)


def test_map_lookup_and_views():
    m = tvm_ffi.Map({"a": 1, "b": 2})
    assert m["a"] == 1 and m.get("b") == 2 and m.get("z", 0) == 0
    assert list(m.keys()) == ["a", "b"]
    assert list(m.values()) == [1, 2]
    assert list(m.items()) == [("a", 1), ("b", 2)]
    assert "a" in m and "z" not in m and len(m) == 2


def test_map_iterates_in_insertion_order():
    keys = ["k%d" % i for i in range(20)][::-1]
    m = tvm_ffi.Map({k: i for i, k in enumerate(keys)})
    assert list(m) == keys


def test_map_missing_key_raises_key_error():
    with pytest.raises(KeyError):
        tvm_ffi.Map({"a": 1})["missing"]


@pytest.mark.parametrize("make", [tvm_ffi.Map, tvm_ffi.Dict], ids=["Map", "Dict"])
def test_missing_key_lookup_raises_the_runtime_key_error_carrying_its_ffi_error(make):
    with pytest.raises(KeyError, match="key is not in Map") as info:
        make({"a": 1})["missing"]
    err = info.value.__tvm_ffi_error__
    assert (err.kind, err.message) == ("KeyError", "key is not in Map")


def test_map_equals_map_by_value_but_never_a_plain_dict():
    assert tvm_ffi.Map({"a": 1}) == tvm_ffi.Map({"a": 1})
    assert tvm_ffi.Map({"a": 1}) != tvm_ffi.Map({"a": 2})
    assert tvm_ffi.Map({"a": 1}) != {"a": 1}


def test_dict_mutations():
    d = tvm_ffi.Dict({"a": 1})
    d["b"] = 2
    assert d.setdefault("c", 3) == 3
    d.update({"d": 4})
    del d["a"]
    assert d.pop("b") == 2
    assert d.pop("zz", None) is None
    assert dict(d.items()) == {"c": 3, "d": 4}
    d.clear()
    assert len(d) == 0


def test_dict_missing_key_errors():
    d = tvm_ffi.Dict()
    with pytest.raises(KeyError):
        del d["x"]
    with pytest.raises(KeyError):
        d.pop("x")


def test_dict_mutated_in_cpp_is_visible_in_python():
    d = tvm_ffi.Dict()
    dict_set(d, "k", [1, 2])
    assert list(d["k"]) == [1, 2]


def test_shape_is_tuple_of_ints_and_round_trips():
    shape = tvm_ffi.Shape([2, 3, 4])
    assert isinstance(shape, tuple) and shape == (2, 3, 4)
    out = tvm_ffi.get_global_func("testing.echo")(shape)
    assert isinstance(out, tvm_ffi.Shape) and out == (2, 3, 4)
    assert tvm_ffi.get_global_func("testing.type_index")(shape) == 69


def test_container_init_again_is_refused_and_keeps_its_items():
    arr = tvm_ffi.Array([1, 2])
    with pytest.raises(TypeError, match="already holds an object"):
        arr.__init__([3])
    assert list(arr) == [1, 2]
