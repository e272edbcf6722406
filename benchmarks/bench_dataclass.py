#!/usr/bin/env python3
"""py_class hot paths of tvm_ffi next to the apache-tvm-ffi wheel.

Usage: python benchmarks/bench_dataclass.py [--wheel DIR] [--rounds N]

Times, in ns per operation, for a ``@py_class`` with three typed fields (int, float, str):
construction (positional), reading the int field and assigning it; two floor rows (a bare
call and a plain ``__slots__`` read) show what the timing loop itself costs. The class is defined in
Python on both sides, so no test library is needed. Both packages are named tvm_ffi, so each
side runs in its own worker process (the wheel with PYTHONPATH=DIR); rounds alternate between
the two so that both see the same phases of a shared machine. Figures are the best round.
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

p = P3(1, 2.0, "s")
cases = {
    "construct P3(1, 2.0, 's')": lambda: P3(1, 2.0, "s"),
    "read p.a": lambda: p.a,
}
def assign():
    p.a = 5
cases["assign p.a = 5"] = assign

# The floor of the harness: a bare call, and a plain __slots__ attribute read.
class Slots:
    __slots__ = ("a",)
s = Slots()
s.a = 1
cases["floor: lambda: None"] = lambda: None
cases["floor: __slots__ read s.a"] = lambda: s.a
number = 20000
for line in sys.stdin:
    out = {}
    for name, fn in cases.items():
        out[name] = min(timeit.repeat(fn, number=number, repeat=3)) / number * 1e9
    print(json.dumps(out), flush=True)
"""


def _worker(env_extra):
    env = dict(os.environ)
    env.update(env_extra)
    return subprocess.Popen(
        [sys.executable, "-c", WORKER],
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
    args = parser.parse_args()
    ours = _worker({})
    wheel = _worker({"PYTHONPATH": args.wheel})
    best = {"ours": {}, "wheel": {}}
    for _ in range(args.rounds):
        for side, proc in (("ours", ours), ("wheel", wheel)):
            for name, ns in _round(proc).items():
                best[side][name] = min(ns, best[side].get(name, float("inf")))
    for proc in (ours, wheel):
        proc.stdin.close()
        proc.wait()
    print("%-28s %10s %10s %7s" % ("ns/op", "ours", "wheel", "ratio"))
    for name in best["ours"]:
        o, w = best["ours"][name], best["wheel"][name]
        print("%-28s %10.1f %10.1f %7.2f" % (name, o, w, o / w))


if __name__ == "__main__":
    main()
