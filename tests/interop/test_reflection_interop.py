"""A reflected type declared with reflection::ObjectDef crosses implementations:
compiled with the wheel's headers it registers into our runtime (fields,
metadata, methods, the generated __ffi_init__ and the standard type attributes)
and is usable from our Python; compiled with ours it works under the wheel.

Each direction runs in its own process: loading both builds into one process
would register the same type key twice."""

import os
import textwrap

LIB_SOURCE = os.path.join(os.path.dirname(__file__), "libs", "reflection_interop_lib.cc")

SCRIPT = textwrap.dedent(
    """
    import sys
    import tvm_ffi

    lib = tvm_ffi.load_module(sys.argv[1])
    problem = lib["check_reflection"]()
    assert problem == "", problem
    p = lib["make_point"](3)
    assert (p.x, p.y, p.label) == (3, 2.5, "none"), (p.x, p.y, p.label)
    assert p.shifted(2) == 5
    p.y = 4.0
    assert p.y == 4.0
    make = tvm_ffi.get_global_func("ffi.MakeObjectFromPackedArgs")
    q = make("interop.reflection.Point", "x", 9)
    assert (q.x, q.y, q.label) == (9, 2.5, "none"), (q.x, q.y, q.label)
    print("reflection interop ok")
    """
)


def _source():
    with open(LIB_SOURCE) as f:
        return f.read()


def test_peer_built_reflected_type_works_under_our_runtime(build_with_peer_headers, run_under_ours):
    lib = build_with_peer_headers("reflection_interop", _source())
    out = run_under_ours(SCRIPT, lib)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "reflection interop ok" in out.stdout


def test_our_reflected_type_works_under_peer_runtime(build_with_our_headers, run_under_peer):
    lib = build_with_our_headers("reflection_interop", _source())
    out = run_under_peer(SCRIPT, lib)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "reflection interop ok" in out.stdout
