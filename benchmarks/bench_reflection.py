#!/usr/bin/env python3
"""Reflection hot paths of tvm_ffi next to the apache-tvm-ffi wheel.

Usage: python benchmarks/bench_reflection.py --lib-dir DIR [--wheel DIR] [--repeat N]

Times, in ns per operation: a reflected int field read, a field write, a reflected method call,
and constructing an object with three fields through the generated ``__init__`` (positional and
keyword). The types are the "testing.pyreflect.*" fixtures of
cpp/src/testing/testing_pyreflect.cc: this tree loads them from libtvm_ffi_testing.so in
--lib-dir (build target tvm_ffi_testlibs); for the wheel the same source is compiled against
the wheel's headers (into $TMPDIR/tvm_ffi_bench_build). Both packages are named tvm_ffi, so
the wheel runs in a worker process (PYTHONPATH=DIR); every round times this tree, then asks the
worker to time the same statement, so both columns see the same phases of a shared machine.
Figures are the best round. A measurement, not a test: never collected by pytest.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import timeit

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURE = os.path.join(HERE, "..", "cpp", "src", "testing", "testing_pyreflect.cc")

SETUP = """
import ctypes, tvm_ffi
ctypes.CDLL({lib!r}, mode=ctypes.RTLD_GLOBAL)

@tvm_ffi.register_object("testing.pyreflect.Pair")
class Pair(tvm_ffi.Object):
    pass

@tvm_ffi.register_object("testing.pyreflect.Triple")
class Triple(tvm_ffi.Object):
    pass

p = Pair(1, 2)
t = Triple(1, 2.0, "z")
"""

ROWS = [
    ("field read p.a", "p.a"),
    ("field write t.x = 5", "t.x = 5"),
    ("method p.sum()", "p.sum()"),
    ("Triple(1, 2.0, 'z')", "Triple(1, 2.0, 'z')"),
    ("Triple(x=1, y=2.0, z='z')", "Triple(x=1, y=2.0, z='z')"),
]

WORKER = r"""
import json, sys, timeit
env = {}
exec(sys.argv[1], env)
for line in sys.stdin:
    stmt, number = json.loads(line)
    t = timeit.Timer(stmt, globals=env).timeit(number)
    print(json.dumps(t), flush=True)
"""


def build_wheel_fixture(wheel_dir):
    """The fixture library compiled against the wheel's headers and runtime."""
    inc = os.path.join(wheel_dir, "tvm_ffi", "include")
    libdir = os.path.join(wheel_dir, "tvm_ffi", "lib")
    out_dir = os.path.join(tempfile.gettempdir(), "tvm_ffi_bench_build")
    os.makedirs(out_dir, exist_ok=True)
    out = os.path.join(out_dir, "pyreflect_fixture_wheel.so")
    if not os.path.exists(out) or os.path.getmtime(out) < os.path.getmtime(FIXTURE):
        cmd = [
            os.environ.get("CXX", "g++"),
            "-O2",
            "-std=c++17",
            "-shared",
            "-fPIC",
            "-I",
            inc,
            FIXTURE,
            "-o",
            out,
            "-L",
            libdir,
            "-ltvm_ffi",
            "-Wl,-rpath," + libdir,
        ]
        subprocess.run(cmd, check=True)
    return out


def calibrate(timer):
    number = 1000
    while timer.timeit(number) < 0.05:
        number *= 4
    return number


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lib-dir", required=True, help="directory of libtvm_ffi_testing.so")
    parser.add_argument("--wheel", default="/tmp/tvm_peer", help="where the wheel is installed")
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()

    ours_env = {}
    exec(SETUP.format(lib=os.path.join(args.lib_dir, "libtvm_ffi_testing.so")), ours_env)
    wheel_lib = build_wheel_fixture(args.wheel)
    env = dict(os.environ, PYTHONPATH=args.wheel)
    worker = subprocess.Popen(
        [sys.executable, "-c", WORKER, SETUP.format(lib=wheel_lib)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        env=env,
        cwd="/",
    )

    def wheel_time(stmt, number):
        worker.stdin.write(json.dumps([stmt, number]) + "\n")
        worker.stdin.flush()
        return json.loads(worker.stdout.readline())

    print("| operation | this tree (ns) | wheel (ns) | ratio |")
    print("|---|---|---|---|")
    for label, stmt in ROWS:
        timer = timeit.Timer(stmt, globals=ours_env)
        number = calibrate(timer)
        best_ours = best_wheel = float("inf")
        for _ in range(args.repeat):
            best_ours = min(best_ours, timer.timeit(number) / number * 1e9)
            best_wheel = min(best_wheel, wheel_time(stmt, number) / number * 1e9)
        print(
            "| %s | %.1f | %.1f | %.2fx |" % (label, best_ours, best_wheel, best_ours / best_wheel)
        )
    worker.stdin.close()
    worker.wait()


if __name__ == "__main__":
    main()
