#!/usr/bin/env python3
"""py_class and c_class hot paths of tvm_ffi next to the apache-tvm-ffi wheel.

Usage: python benchmarks/bench_dataclass.py [--wheel DIR] [--rounds N] [--lib-dir DIR]

Times, in ns per operation, for a ``@py_class`` with three typed fields (int, float, str):
construction (positional), reading the int field and assigning it. With --lib-dir (the
directory of libtvm_ffi_testing.so, build target tvm_ffi_testlibs) the same three rows are
timed for a ``@c_class`` over the C++ type "testing.pyreflect.Triple" (fields x: int64,
y: double, z: String); the wheel's side loads that fixture compiled against the wheel's
headers (see bench_reflection.py). The class is defined in Python on both sides.

Every row, on both sides alike, times the bare statement (``timeit.Timer("p.a",
globals=...)``), not a call of a lambda wrapping it: a lambda call costs about as much as the
field read itself and would be added to both columns, pulling every ratio towards 1. Two floor
rows show what the timing loop costs by itself (``pass``) and what a plain ``__slots__`` read
costs in it. Both packages are named tvm_ffi, so each side runs in its own worker process
(the wheel with PYTHONPATH=DIR); rounds alternate between the two so that both see the same
phases of a shared machine. Each round takes the best of 5 short repeats (short, so that a
loaded machine rarely deschedules a whole one); figures are the best round.
A measurement, not a test: never collected by pytest.
"""

import argparse
import json
import os
import subprocess
import sys

WORKER = r"""
import json, sys, timeit
import tvm_ffi
from tvm_ffi.dataclasses import py_class

@py_class("bench.dataclass.P3")
class P3(tvm_ffi.Object):
    a: int
    b: float
    c: str

class Slots:
    __slots__ = ("a",)

s = Slots()
s.a = 1
env = {"P3": P3, "p": P3(1, 2.0, "s"), "s": s}
cases = [
    ("construct P3(1, 2.0, 's')", "P3(1, 2.0, 's')"),
    ("read p.a", "p.a"),
    ("assign p.a = 5", "p.a = 5"),
    ("floor: pass", "pass"),
    ("floor: __slots__ read s.a", "s.a"),
]
if len(sys.argv) > 1:
    import ctypes
    from tvm_ffi.dataclasses import c_class

    ctypes.CDLL(sys.argv[1], mode=ctypes.RTLD_GLOBAL)

    @c_class("testing.pyreflect.Triple")
    class T3(tvm_ffi.Object):
        x: int
        y: float
        z: str

    env["T3"] = T3
    env["t"] = T3(1, 2.0, "s")
    cases += [
        ("c_class T3(1, 2.0, 's')", "T3(1, 2.0, 's')"),
        ("c_class read t.x", "t.x"),
        ("c_class assign t.x = 5", "t.x = 5"),
    ]
timers = [(name, timeit.Timer(stmt, globals=env)) for name, stmt in cases]
number = 20000
for line in sys.stdin:
    out = {}
    for name, timer in timers:
        out[name] = min(timer.repeat(number=number, repeat=5)) / number * 1e9
    print(json.dumps(out), flush=True)
"""


def _worker(env_extra, lib):
    env = dict(os.environ)
    env.update(env_extra)
    return subprocess.Popen(
        [sys.executable, "-c", WORKER] + ([lib] if lib else []),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        env=env,
    )


def _round(proc):
    proc.stdin.write("go\n")
    proc.stdin.flush()
    return json.loads(proc.stdout.readline())


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--wheel", default="/tmp/tvm_peer")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--lib-dir", help="directory of libtvm_ffi_testing.so (c_class rows)")
    args = parser.parse_args()
    ours_lib = wheel_lib = None
    if args.lib_dir:
        sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
        from bench_reflection import build_wheel_fixture

        ours_lib = os.path.join(os.path.abspath(args.lib_dir), "libtvm_ffi_testing.so")
        wheel_lib = build_wheel_fixture(args.wheel)
    ours = _worker({}, ours_lib)
    wheel = _worker({"PYTHONPATH": args.wheel}, wheel_lib)
    best = {"ours": {}, "wheel": {}}
    for _ in range(args.rounds):
        for side, proc in (("ours", ours), ("wheel", wheel)):
            for name, ns in _round(proc).items():
                best[side][name] = min(ns, best[side].get(name, float("inf")))
    for proc in (ours, wheel):
        proc.stdin.close()
        proc.wait()
    print("%-30s %10s %10s %7s" % ("ns/op", "ours", "wheel", "ratio"))
    for name in best["ours"]:
        o, w = best["ours"][name], best["wheel"][name]
        print("%-30s %10.1f %10.1f %7.2f" % (name, o, w, o / w))


if __name__ == "__main__":
    main()
