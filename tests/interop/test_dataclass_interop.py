"""ffi.ReprPrint, ffi.RecursiveHash/Eq/Lt and ffi.DeepCopy give the same results in our runtime
and in the apache-tvm-ffi wheel: on plain values and containers, and on a reflected type from a
library compiled with either implementation's headers (loaded under either runtime)."""

import json
import os

import pytest

LIB_SOURCE = os.path.join(os.path.dirname(__file__), "libs", "dataclass_interop_lib.cc")

VALUES_SCRIPT = r"""
import json, math, tvm_ffi
f = tvm_ffi.get_global_func
R, H = f("ffi.ReprPrint"), f("ffi.RecursiveHash")
cyc = tvm_ffi.List([1])
cyc.append(cyc)
values = [
    None, True, False, 0, -7, 2**62, 1.0, 2.5, 1 / 3, -0.0, 1e20, 1e-7, math.nan, math.inf,
    "", "a", "abcdefghij", "quote\"back\\slash\n\t\x01\x7f", "\u00e9\u4e2d\U0001f600",
    b"", b"ab\"\\\x00\xff ~", tvm_ffi.Array([]), tvm_ffi.Array([1]), tvm_ffi.Array([1, "x", None]),
    tvm_ffi.List([1.5, tvm_ffi.List([])]), tvm_ffi.Map({"a": 1, "b": 2, 1: 3}),
    tvm_ffi.Dict({"k": tvm_ffi.Array([1, 2])}), tvm_ffi.Shape((1, 2, 3)),
    tvm_ffi.dtype("float32"), tvm_ffi.dtype("int8x4"), tvm_ffi.device("cuda:1"), cyc,
]
print(json.dumps([[R(v), H(v)] for v in values]))
"""

OBJECT_SCRIPT = r"""
import json, sys, tvm_ffi
tvm_ffi.load_module(sys.argv[1])
f = tvm_ffi.get_global_func
R, H, D, E, L = (f("ffi." + n) for n in ("ReprPrint", "RecursiveHash", "DeepCopy",
                                         "RecursiveEq", "RecursiveLt"))
make = f("dcinterop.make")
inner = tvm_ffi.List([1, "two"])
p = make(1, "x", inner, 7)
q = make(1, "x", tvm_ffi.List([1, "two"]), 8)
r = make(2, "a", None, 0)
c = D(tvm_ffi.Array([p, p]))
print(json.dumps({
    "repr": R(p), "hash": H(p), "hash_ignoring_hidden": H(q) == H(p), "eq": E(p, q),
    "lt": L(p, r), "array_hash": H(tvm_ffi.Array([p, p, r])), "copy_repr": R(c),
    "copy_is_new": not c[0].same_as(p), "copy_shares": c[0].same_as(c[1]),
}, sort_keys=True))
"""


def _json(proc):
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(proc.stdout.strip().splitlines()[-1])


def _source():
    with open(LIB_SOURCE) as f:
        return f.read()


def test_values_print_and_hash_alike(run_under_peer, run_under_ours):
    assert _json(run_under_ours(VALUES_SCRIPT)) == _json(run_under_peer(VALUES_SCRIPT))


@pytest.mark.parametrize("headers", ["peer", "ours"])
def test_reflected_object_alike_under_both_runtimes(
    headers, build_with_peer_headers, build_with_our_headers, run_under_peer, run_under_ours
):
    build = build_with_peer_headers if headers == "peer" else build_with_our_headers
    lib = build("dataclass_interop", _source())
    ours = _json(run_under_ours(OBJECT_SCRIPT, lib))
    assert ours == _json(run_under_peer(OBJECT_SCRIPT, lib))
    assert ours["repr"] == 'dcinterop.Pair(a=1, name="x", payload=[1, "two"])'
    assert ours["eq"] and ours["lt"] and ours["hash_ignoring_hidden"]
    assert ours["copy_is_new"] and ours["copy_shares"]
