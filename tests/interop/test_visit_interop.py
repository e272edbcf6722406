"""Structural walk/map engines compiled with one implementation's headers, running
on the other's runtime: the engines' visitors and mutators reach the runtime's
container hooks, which call back through the visitor/mutator vtables."""

import os
import textwrap

LIB_SOURCE = os.path.join(os.path.dirname(__file__), "libs", "visit_interop_lib.cc")

CHECKS = textwrap.dedent(
    """
    import sys
    import tvm_ffi

    lib = tvm_ffi.load_module(sys.argv[1])
    root = [1, [2, 3], {"k": 4, "j": [5]}, tvm_ffi.List([6])]
    assert lib["sum_ints"](root) == 21
    assert list(lib["ints_until_negative"]([1, [2, -3, 4], 5])) == [1, 2, -3]
    source = tvm_ffi.convert([1, [2], {"k": 3}])
    out = lib["times_ten"](source)
    assert (out[0], list(out[1]), out[2]["k"]) == (10, [20], 30)
    assert (source[0], list(source[1]), source[2]["k"]) == (1, [2], 3)
    print("ok")
    """
)


def _source():
    with open(LIB_SOURCE) as f:
        return f.read()


def test_engines_built_with_peer_headers_use_our_hooks(build_with_peer_headers, run_under_ours):
    lib = build_with_peer_headers("visit_interop", _source())
    out = run_under_ours(CHECKS, lib)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "ok"


def test_engines_built_with_our_headers_use_peer_hooks(build_with_our_headers, run_under_peer):
    lib = build_with_our_headers("visit_interop", _source())
    out = run_under_peer(CHECKS, lib)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "ok"
