"""Enums (EnumDef) and overloaded methods (OverloadObjectDef) cross
implementations: a library built with the wheel's headers works under our
runtime, and the same library built with ours works under the wheel.

Each direction runs in its own process: loading both builds into one process
would register the same type keys twice."""

import os
import textwrap

LIB_SOURCE = os.path.join(os.path.dirname(__file__), "libs", "enum_interop_lib.cc")

SCRIPT = textwrap.dedent(
    """
    import sys
    import tvm_ffi

    lib = tvm_ffi.load_module(sys.argv[1])
    green = lib["color"]("green")
    assert (green._int_index, green._str_index, green.value) == (1, "green", "green")
    assert green.same_as(lib["color"]("green"))
    assert lib["level"](20).value == 20 and lib["level"](20)._str_index == "high"
    assert lib["color_defined"]("red") and not lib["color_defined"]("blue")
    assert lib["color_hex"]("red") == "#f00"
    try:
        lib["color"]("blue")
    except ValueError as err:
        assert str(err) == "Enum `interop.enum.Color` has no instance with index blue", str(err)
    else:
        raise AssertionError("expected ValueError")
    assert lib["pick"](4) == 8 and lib["pick"]("s") == "s"
    try:
        lib["pick"](1.5)
    except TypeError as err:
        assert str(err).startswith(
            "No matching overload found when calling: `interop.enum.Over.pick` with 1 arguments:"
        ), str(err)
    else:
        raise AssertionError("expected TypeError")
    assert lib["make_over"](1, "ab").v == 3
    print("enum interop ok")
    """
)


def _source():
    with open(LIB_SOURCE) as f:
        return f.read()


def test_peer_built_enums_and_overloads_work_under_our_runtime(
    build_with_peer_headers, run_under_ours
):
    lib = build_with_peer_headers("enum_interop", _source())
    out = run_under_ours(SCRIPT, lib)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "enum interop ok" in out.stdout


def test_our_enums_and_overloads_work_under_peer_runtime(build_with_our_headers, run_under_peer):
    lib = build_with_our_headers("enum_interop", _source())
    out = run_under_peer(SCRIPT, lib)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "enum interop ok" in out.stdout
