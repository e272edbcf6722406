"""tvm_ffi.structural_hash: values bit-exact with the reference implementation (figures
observed from it), unsigned result, consistency with equality, and errors."""

import numpy as np
import pytest
import tvm_ffi
from structural_types import Add, DAdd, Lam, Let, NoKind, Var, nest
from tvm_ffi import convert, structural_hash


def test_spec_examples():
    assert structural_hash(None) == 2654435769
    assert structural_hash(1) == 2654435835
    assert structural_hash("a") == 2654439979
    assert structural_hash(convert([1, 2])) == 2823322240268045181


def test_containers_and_leaves_match_the_reference():
    assert structural_hash(convert({"a": 1})) == 8690073498391192266
    assert structural_hash(tvm_ffi.Shape((1, 2))) == 284796581919864599
    assert structural_hash(tvm_ffi.List([1, 2])) == 10056980416207041362
    assert structural_hash(1.5) == 4609434221268138618
    assert structural_hash(float("nan")) == 9221120239695526522
    assert structural_hash("hello world!!") == 4293989463
    assert structural_hash(b"xy") == 2654467640
    assert structural_hash(2**100) == 2654440738


def test_tensor_matches_the_reference():
    t = tvm_ffi.from_dlpack(np.arange(6, dtype="float32").reshape(2, 3))
    assert structural_hash(t) == 9518699746703856482
    assert structural_hash(t, skip_tensor_content=True) == 5983373821381510500


def test_result_is_unsigned():
    assert structural_hash(-1) == 2654435833
    assert all(0 <= structural_hash(v) < 2**64 for v in [None, -5, "x", 2.5, convert([-1])])


def test_free_variables_hash_alike_only_when_mapped():
    x, y = Var("x", 1), Var("y", 1)
    assert structural_hash(x) != structural_hash(y)
    assert structural_hash(x, map_free_vars=True) == structural_hash(y, map_free_vars=True)


def test_equal_values_hash_equally():
    assert structural_hash(Add(1, convert([2]))) == structural_hash(Add(1, convert([2])))
    assert structural_hash(convert({"a": 1, "b": 2})) == structural_hash(convert({"b": 2, "a": 1}))


def test_unsupported_types_raise_type_error():
    with pytest.raises(TypeError, match="_type_s_eq_hash_kind is not set"):
        structural_hash(NoKind(1, 2))
    with pytest.raises(TypeError, match="Type metadata is not set for type `ffi.Function`"):
        structural_hash(tvm_ffi.convert(lambda: 1))


# Tree nodes that only their parent references are hashed without a memo entry; once
# Python holds every node too, the same values take the memoised path. Both must agree.
def _cases():
    k = Var("k", 0)
    x = Var("x", 1)
    # A shared Array met twice, holding a tree whose map key k is hashed between the visits.
    shared = convert([Add(convert({k: 1}), 2)])
    yield Add(Add(shared, k), shared)
    # The same with the key hashed before the first visit.
    shared = convert([Add(convert({k: 1}), 2)])
    yield Add(k, Add(shared, shared))
    # Free variables bound in definition regions, uses inside unreferenced trees.
    yield Lam(convert([x]), Add(Add(x, 1), Add(x, 2)))
    yield Let(x, 1, Add(x, Add(x, x)))
    # DAG nodes and trees shared through an Array.
    d = DAdd(1, Add(2, 3))
    arr = convert([Add(d, 4), d])
    yield Add(arr, Add(arr, d))


@pytest.mark.parametrize("map_free_vars", [False, True])
@pytest.mark.parametrize("index", range(5))
def test_unreferenced_tree_nodes_hash_as_referenced_ones(index, map_free_vars):
    root = list(_cases())[index]
    plain = structural_hash(root, map_free_vars)
    held = []
    tvm_ffi.structural_walk(root, held.append)
    assert len(held) > 5
    assert structural_hash(root, map_free_vars) == plain


# ---- deep and self-containing containers --------------------------------------------------------


@pytest.mark.parametrize(
    "make",
    [
        lambda v: tvm_ffi.Array([v]),
        lambda v: tvm_ffi.List([v]),
        lambda v: tvm_ffi.Map({"k": v}),
        lambda v: tvm_ffi.Dict({"k": v}),
    ],
    ids=["Array", "List", "Map", "Dict"],
)
def test_containers_nested_100000_deep_hash_without_crashing(make):
    a = nest(make, 100000)
    b = nest(make, 100000)
    assert structural_hash(a) == structural_hash(b)


def test_list_containing_itself_raises_value_error_naming_the_list():
    lst = tvm_ffi.List([1])
    lst.append(lst)
    try:
        with pytest.raises(ValueError, match="ffi.List contains itself"):
            structural_hash(lst)
    finally:
        lst.clear()


def test_dict_containing_itself_raises_value_error_naming_the_dict():
    d = tvm_ffi.Dict({})
    d["self"] = d
    try:
        with pytest.raises(ValueError, match="ffi.Dict contains itself"):
            structural_hash(d)
    finally:
        d.clear()
