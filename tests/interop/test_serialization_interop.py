"""JSON object graphs crossing between our package and the apache-tvm-ffi wheel: a graph
written by the wheel (run as a black box in its own process) loads here, and ours loads
there; both write the same graph for the same value."""

import json
import os
import textwrap

import pytest

LIB_SOURCE = os.path.join(os.path.dirname(__file__), "libs", "serialization_interop_lib.cc")

# Values built the same way on both sides: PODs, strings, bytes, containers with sharing,
# BigInt, dtype, device, shape.
BUILD_VALUES = textwrap.dedent(
    """
    import tvm_ffi
    shared = tvm_ffi.convert([1, "a"])
    VALUES = {
        "pods": tvm_ffi.convert([None, True, 3, 1.5, -0.0, float("nan"), float("inf")]),
        "strings": tvm_ffi.convert(["", "short", "a long string " * 4, 'q"\\\\\\n\\x01\u00e9']),
        "bytes": tvm_ffi.convert([b"", b"\\x00\\x01abc", bytes(range(40))]),
        "sharing": tvm_ffi.convert([shared, shared, 1]),
        "map": tvm_ffi.Map({"a": 1, "b": [1, 2]}),
        "dict": tvm_ffi.Dict({"k": shared, 7: None}),
        "list": tvm_ffi.List([1, [2, 3]]),
        "bigint": tvm_ffi.convert([2**70, -(2**65)]),
        "dtype_device": tvm_ffi.convert([tvm_ffi.dtype("int8x4"), tvm_ffi.device("cuda", 1)]),
        "shape": tvm_ffi.Shape((2, 3)),
    }
    """
)

WRITE_ALL = BUILD_VALUES + textwrap.dedent(
    """
    import json, sys
    from tvm_ffi.serialization import to_json_graph_str
    print(json.dumps({k: to_json_graph_str(v) for k, v in VALUES.items()}))
    """
)

# Reads {name: graph text} from argv[1], rebuilds each value, writes it again.
READ_AND_REWRITE = textwrap.dedent(
    """
    import json, sys
    from tvm_ffi.serialization import from_json_graph_str, to_json_graph_str
    graphs = json.loads(open(sys.argv[1]).read())
    print(json.dumps({k: to_json_graph_str(from_json_graph_str(t)) for k, t in graphs.items()}))
    """
)


def _run_ok(proc):
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(proc.stdout.strip().splitlines()[-1])


def _parsed(graphs):
    # NaN != NaN as floats: compare graphs through their text with NaN kept as a token.
    return {k: json.dumps(json.loads(v), sort_keys=False) for k, v in graphs.items()}


def test_both_write_the_same_graphs(run_under_peer, run_under_ours):
    peer = _run_ok(run_under_peer(WRITE_ALL))
    ours = _run_ok(run_under_ours(WRITE_ALL))
    assert _parsed(ours) == _parsed(peer)


def test_peer_graphs_load_here_and_write_back_identically(run_under_peer, run_under_ours, tmp_path):
    peer = _run_ok(run_under_peer(WRITE_ALL))
    path = tmp_path / "peer_graphs.json"
    path.write_text(json.dumps(peer))
    again = _run_ok(run_under_ours(READ_AND_REWRITE, path))
    assert _parsed(again) == _parsed(peer)


def test_our_graphs_load_in_peer_and_write_back_identically(
    run_under_peer, run_under_ours, tmp_path
):
    ours = _run_ok(run_under_ours(WRITE_ALL))
    path = tmp_path / "our_graphs.json"
    path.write_text(json.dumps(ours))
    again = _run_ok(run_under_peer(READ_AND_REWRITE, path))
    assert _parsed(again) == _parsed(ours)


# ---- a reflected object type from a library built with each side's headers ----

NODE_WRITE = textwrap.dedent(
    """
    import sys, tvm_ffi
    from tvm_ffi.serialization import to_json_graph_str
    mod = tvm_ffi.load_module(sys.argv[1])
    leaf = mod["make_node"](1, 0.5, "leaf")
    root = mod["make_node"](2, 2.5, tvm_ffi.convert([leaf, leaf, None]))
    print(to_json_graph_str(root))
    """
)

NODE_READ = textwrap.dedent(
    """
    import json, sys, tvm_ffi
    from tvm_ffi.serialization import from_json_graph_str
    mod = tvm_ffi.load_module(sys.argv[1])
    root = from_json_graph_str(open(sys.argv[2]).read())
    # node_fields gives [] for anything but an interop.serialization.Node.
    i, f, kids = mod["node_fields"](root)
    leaf0 = mod["node_fields"](kids[0])
    print(json.dumps({
        "root": [i, f],
        "leaf": [leaf0[0], leaf0[1], leaf0[2]],
        "shared": kids[0].same_as(kids[1]),
        "last": kids[2],
    }))
    """
)

EXPECTED_NODE = {
    "root": [2, 2.5],
    "leaf": [1, 0.5, "leaf"],
    "shared": True,
    "last": None,
}


@pytest.fixture(scope="module")
def node_libs(build_with_peer_headers, build_with_our_headers):
    with open(LIB_SOURCE) as f:
        source = f.read()
    return (
        build_with_peer_headers("serialization_interop", source),
        build_with_our_headers("serialization_interop", source),
    )


def test_peer_object_graph_loads_here(node_libs, run_under_peer, run_under_ours, tmp_path):
    peer_lib, our_lib = node_libs
    proc = run_under_peer(NODE_WRITE, peer_lib)
    assert proc.returncode == 0, proc.stderr[-3000:]
    path = tmp_path / "peer_node.json"
    path.write_text(proc.stdout.strip().splitlines()[-1])
    assert _run_ok(run_under_ours(NODE_READ, our_lib, path)) == EXPECTED_NODE


def test_our_object_graph_loads_in_peer(node_libs, run_under_peer, run_under_ours, tmp_path):
    peer_lib, our_lib = node_libs
    proc = run_under_ours(NODE_WRITE, our_lib)
    assert proc.returncode == 0, proc.stderr[-3000:]
    path = tmp_path / "our_node.json"
    path.write_text(proc.stdout.strip().splitlines()[-1])
    assert _run_ok(run_under_peer(NODE_READ, peer_lib, path)) == EXPECTED_NODE


def test_object_graphs_of_both_sides_are_identical(node_libs, run_under_peer, run_under_ours):
    peer_lib, our_lib = node_libs
    peer = run_under_peer(NODE_WRITE, peer_lib)
    ours = run_under_ours(NODE_WRITE, our_lib)
    assert peer.returncode == 0, peer.stderr[-3000:]
    assert ours.returncode == 0, ours.stderr[-3000:]
    assert json.loads(ours.stdout.strip().splitlines()[-1]) == json.loads(
        peer.stdout.strip().splitlines()[-1]
    )


# ---- pickles name tvm_ffi.core._new_object and carry the graph text ----

PICKLE_WRITE = textwrap.dedent(
    """
    import pickle, sys, tvm_ffi
    value = [tvm_ffi.convert([1, "a", [2.5]]), tvm_ffi.Map({"k": [1]}), tvm_ffi.List([None])]
    sys.stdout.write(pickle.dumps(value, protocol=4).hex())
    """
)

PICKLE_READ = textwrap.dedent(
    """
    import json, pickle, sys, tvm_ffi
    from tvm_ffi.serialization import to_json_graph_str
    value = pickle.loads(bytes.fromhex(open(sys.argv[1]).read()))
    print(json.dumps([[type(v).__name__, to_json_graph_str(v)] for v in value]))
    """
)


@pytest.mark.parametrize("writer", ["peer", "ours"])
def test_pickles_load_on_the_other_side(writer, run_under_peer, run_under_ours, tmp_path):
    write, read = (
        (run_under_peer, run_under_ours) if writer == "peer" else (run_under_ours, run_under_peer)
    )
    proc = write(PICKLE_WRITE)
    assert proc.returncode == 0, proc.stderr[-3000:]
    path = tmp_path / "value.pickle.hex"
    path.write_text(proc.stdout.strip())
    loaded = _run_ok(read(PICKLE_READ, path))
    assert [name for name, _ in loaded] == ["Array", "Map", "List"]
    assert json.loads(loaded[0][1])["nodes"][-1] == {"type": "ffi.Array", "data": [0, 1, 3]}
    assert json.loads(loaded[2][1]) == {
        "root_index": 1,
        "nodes": [{"type": "None"}, {"type": "ffi.List", "data": [0]}],
    }


# ---- the testing library's reflected fixtures (each side loads its own) ----

FIXTURE_GRAPHS = textwrap.dedent(
    """
    import json, tvm_ffi, tvm_ffi.testing
    from tvm_ffi.serialization import from_json_graph_str, to_json_graph_str
    make = tvm_ffi.get_global_func("ffi.MakeObjectFromPackedArgs")
    arr = tvm_ffi.convert([1, 2])
    base = make("testing.TestObjectBase", "v_i64", 12, "v_f64", 2.5, "v_str", "s")
    derived = make("testing.TestObjectDerived", "v_i64", 1, "v_f64", 0.5, "v_str", "x",
                   "v_map", tvm_ffi.Map({"a": arr}), "v_array", arr)
    empty = '{"root_index":0,"nodes":[{"type":"testing.TestObjectBase","data":{}}]}'
    print(json.dumps([to_json_graph_str(base), to_json_graph_str(derived),
                      to_json_graph_str(from_json_graph_str(empty))]))
    """
)


def test_testing_fixture_graphs_are_identical(run_under_peer, run_under_ours):
    peer = _run_ok(run_under_peer(FIXTURE_GRAPHS))
    ours = _run_ok(run_under_ours(FIXTURE_GRAPHS))
    assert ours == peer
