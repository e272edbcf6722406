"""Structural hashing and structural keys across implementations: our hashes equal
the wheel's for the same values (hashes may be cached and compared across them),
and code compiled with either side's headers inserting StructuralKey / BigInt keys
into maps consults the running runtime's __any_hash__/__any_equal__ hooks."""

import json
import os

import pytest

LIB_SOURCE = os.path.join(os.path.dirname(__file__), "libs", "structural_key_lib.cc")
ABI_LIB_SOURCE = os.path.join(os.path.dirname(__file__), "libs", "structural_abi_lib.cc")

# Values built the same way under both implementations; printed as JSON lists of hashes.
HASH_SCRIPT = r"""
import json
import numpy as np
import tvm_ffi
from tvm_ffi import convert, structural_hash as h
from tvm_ffi.access_path import AccessPath
values = [
    None, 0, -1, 1, True, 1.5, float("nan"), -0.0, "a", "", "abcdefg", "hello world!!",
    b"xy", b"0123456789", 2**64, 2**100, -(2**100),
    convert([1, 2]), convert([]), convert([1, [2, "x"], {"k": None}]),
    tvm_ffi.List([1, 2.5]), convert({"a": 1, "b": 2}), convert({}), tvm_ffi.Dict({1: "x"}),
    tvm_ffi.Shape((1, 2, 3)), tvm_ffi.from_dlpack(np.arange(6, dtype="float32").reshape(2, 3)),
    AccessPath.root(), AccessPath.root().attr("a").array_item(2).map_item("k"),
    AccessPath.root().attr_missing("m").map_item_missing(None),
]
print(json.dumps([h(v) for v in values] + [h(values[25], skip_tensor_content=True)]))
"""

KEYS_SCRIPT = r"""
import sys
import tvm_ffi
from tvm_ffi import StructuralKey, convert
lib = tvm_ffi.load_module(sys.argv[1])
skeys = convert([StructuralKey(convert([1, 2])), StructuralKey(convert([1, 2])),
                 StructuralKey(convert({"a": 1})), StructuralKey(convert({"a": 1})),
                 StructuralKey(3)])
bigs = convert([2**100, 2**100 + 0, 2**101])
print(lib["distinct_in_map"](skeys), lib["distinct_in_dict"](skeys),
      lib["distinct_in_map"](bigs), lib["distinct_in_dict"](bigs))
"""


def _last_line(proc):
    assert proc.returncode == 0, proc.stderr[-3000:]
    return proc.stdout.strip().splitlines()[-1]


def test_structural_hashes_match_the_peer(run_under_peer, run_under_ours):
    peer = json.loads(_last_line(run_under_peer(HASH_SCRIPT)))
    ours = json.loads(_last_line(run_under_ours(HASH_SCRIPT)))
    assert ours == peer


@pytest.fixture(scope="module")
def source():
    with open(LIB_SOURCE) as f:
        return f.read()


def test_peer_built_code_uses_our_key_hooks(run_under_ours, build_with_peer_headers, source):
    lib = build_with_peer_headers("structural_key_lib", source)
    assert _last_line(run_under_ours(KEYS_SCRIPT, lib)) == "3 3 2 2"


def test_our_built_code_uses_peer_key_hooks(run_under_peer, build_with_our_headers, source):
    lib = build_with_our_headers("structural_key_lib", source)
    assert _last_line(run_under_peer(KEYS_SCRIPT, lib)) == "3 3 2 2"


ABI_SCRIPT = r"""
import sys
import tvm_ffi
from tvm_ffi import convert
lib = tvm_ffi.load_module(sys.argv[1])
paths = lib["mismatch_of"](convert([1, 2, 3]), convert([1, 2]))
try:
    lib["hash_of"](tvm_ffi.convert(lambda: 1), False)
    error = "none"
except Exception as err:
    error = type(err).__name__
print(
    lib["hash_of"](convert([1, 2]), False) & (2**64 - 1),
    lib["equal_of"](convert({"a": [1]}), convert({"a": [1]}), False),
    lib["equal_of"](convert([1]), convert([2]), False),
    lib["mismatch_of"](convert([1]), convert([1])),
    paths[0] == tvm_ffi.access_path.AccessPath.root().array_item(2),
    paths[1] == tvm_ffi.access_path.AccessPath.root().array_item_missing(2),
    lib["keys_equal"](convert([1, 2]), convert([1, 2])),
    error,
)
"""


def test_peer_built_code_links_our_structural_entry_points(run_under_ours, build_with_peer_headers):
    with open(ABI_LIB_SOURCE) as f:
        lib = build_with_peer_headers("structural_abi_lib", f.read())
    line = _last_line(run_under_ours(ABI_SCRIPT, lib))
    assert line == "2823322240268045181 True False None True True True " + line.split()[-1]
    # The engine's TypeError reaches the caller as an error (its C++ type is ours).
    assert line.split()[-1] != "none"
