#!/usr/bin/env python3
"""Call overhead of the stable-ABI (abi3) build of tvm_ffi.core next to the version-specific one.

Usage:
  python benchmarks/bench_abi3.py --abi3 DIR --specific DIR [--repeat N] [--seconds S] [--wall]
                                  [--build-dir DIR]

Each DIR holds one installed build of the package (`pip install --no-deps --target DIR
<wheel>`): the wheel built with `-C wheel.py-api=cp312` and the default one, built for the
Python running this script. Both packages are named tvm_ffi, so each runs in a worker process
(PYTHONPATH=DIR) that times statements on request; every round times each statement in both
workers one after the other, so both columns see the same phases of a shared machine, and a
figure is the best of N rounds. Timings are of the worker thread's CPU time (time.thread_time)
unless --wall is given: on a loaded machine wall time also counts waiting for a core. The
functions called are those of bench_calls.py
(benchmarks/peers/tvm_ffi_bench.cc), compiled once against the C ABI and loaded by both.
This is a measurement, not a test: it is not collected by pytest.
"""

import argparse
import hashlib
import os
import subprocess
import sys
import tempfile
import time
import timeit

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

HERE = os.path.dirname(os.path.abspath(__file__))
BENCH_SRC = os.path.join(HERE, "peers", "tvm_ffi_bench.cc")
CXX = os.environ.get("CXX", "g++")

# (row label, statement) over the names of worker_namespace().
ROWS = [
    ("f()", "nop()"),
    ("f(1, 2, 3)", "f3(1, 2, 3)"),
    ("add_one(1)", "add_one(1)"),
    ('echo("hello")', 'echo("hello")'),
    ("f(*args) (tuple path), 3 ints", "f3(*args3)"),
    ("sum(list of 10 ints)", "sum_list(ints10)"),
    ("C++ -> Python callback", "call_callback(cb)"),
    ("TensorView(ndarray)", "tensor_data_ptr(arr)"),
    ("from_dlpack(ndarray)", "from_dlpack(arr)"),
    ("Array[i]", "array[3]"),
    ("len(Array)", "len(array)"),
    ("Map[key]", 'fmap["b"]'),
    ("Tensor.shape", "tensor.shape"),
    ("convert([1, 2, 3])", "convert(ints3)"),
]


def build_bench_lib(include_dir, lib_dir, out_dir):
    """The benchmark functions as a loadable library (only the C ABI crosses into libtvm_ffi)."""
    with open(BENCH_SRC, "rb") as f:
        key = hashlib.sha256(f.read() + include_dir.encode()).hexdigest()[:16]
    out = os.path.join(out_dir, "tvm_ffi_bench_abi3_%s.so" % key)
    if not os.path.exists(out):
        os.makedirs(out_dir, exist_ok=True)
        cmd = [
            CXX,
            "-std=c++17",
            "-O2",
            "-shared",
            "-fPIC",
            BENCH_SRC,
            "-o",
            out + ".tmp",
            "-I" + include_dir,
            "-L" + lib_dir,
            "-ltvm_ffi",
            "-Wl,-rpath," + lib_dir,
        ]
        proc = subprocess.run(cmd, capture_output=True, text=True)
        if proc.returncode != 0:
            raise RuntimeError("build failed: %s\n%s" % (" ".join(cmd), proc.stderr))
        os.replace(out + ".tmp", out)
    return out


def worker_namespace(lib):
    import numpy as np
    import tvm_ffi

    m = tvm_ffi.load_module(lib)
    arr = np.zeros(16, dtype=np.float32)
    return {
        "nop": m["nop"],
        "f3": m["f3"],
        "add_one": m["add_one"],
        "echo": m["echo"],
        "sum_list": m["sum_list"],
        "call_callback": m["call_callback"],
        "tensor_data_ptr": m["tensor_data_ptr"],
        "from_dlpack": tvm_ffi.from_dlpack,
        "convert": tvm_ffi.convert,
        "cb": lambda x: x,
        "args3": (1, 2, 3),
        "ints3": [1, 2, 3],
        "ints10": list(range(10)),
        "arr": arr,
        "array": tvm_ffi.convert(list(range(10))),
        "fmap": tvm_ffi.convert({"a": 1, "b": 2, "c": 3}),
        "tensor": tvm_ffi.from_dlpack(arr),
    }


# CPU time of the timing thread: on a loaded shared machine wall time also counts the time spent
# waiting for a core, which lands on whichever column was running (--wall: wall time).
TIMER = (
    time.thread_time if os.environ.get("TVM_FFI_BENCH_TIMER", "cpu") == "cpu" else time.perf_counter
)


def worker(lib):
    """Worker loop: 'number statement' lines in, ns per call out."""
    import tvm_ffi.core as core

    ns = worker_namespace(lib)
    print("ready %s" % os.path.basename(core.__file__), flush=True)
    for line in sys.stdin:
        number, stmt = line.rstrip("\n").split(" ", 1)
        number = int(number)
        print(timeit.Timer(stmt, timer=TIMER, globals=ns).timeit(number) / number * 1e9, flush=True)


class Worker:
    def __init__(self, site_dir, lib):
        env = dict(os.environ, PYTHONPATH=site_dir)
        self.proc = subprocess.Popen(
            [sys.executable, os.path.abspath(__file__), "--worker", lib],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env=env,
            cwd=tempfile.gettempdir(),
        )
        ready = self.proc.stdout.readline().split()
        if not ready or ready[0] != "ready":
            raise RuntimeError("worker for %s did not start" % site_dir)
        self.core_file = ready[1]

    def time(self, number, stmt):
        self.proc.stdin.write("%d %s\n" % (number, stmt))
        self.proc.stdin.flush()
        return float(self.proc.stdout.readline())

    def close(self):
        self.proc.stdin.close()
        self.proc.wait()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--abi3", help="site dir of the stable-ABI build")
    parser.add_argument("--specific", help="site dir of the version-specific build")
    parser.add_argument("--repeat", type=int, default=7, help="rounds (best is kept)")
    parser.add_argument(
        "--seconds",
        type=float,
        default=0.05,
        help="length of one timing (shorter and more rounds "
        "find the quiet moments of a loaded machine)",
    )
    parser.add_argument(
        "--build-dir", default=os.path.join(tempfile.gettempdir(), "tvm_ffi_bench_build")
    )
    parser.add_argument("--wall", action="store_true", help="time wall clock, not thread CPU time")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        return worker(args.worker)
    if not args.abi3 or not args.specific:
        parser.error("--abi3 and --specific are required")
    # The workers read the clock choice from their environment.
    os.environ["TVM_FFI_BENCH_TIMER"] = "wall" if args.wall else "cpu"
    pkg = os.path.join(args.abi3, "tvm_ffi")
    lib = build_bench_lib(os.path.join(pkg, "include"), os.path.join(pkg, "lib"), args.build_dir)
    spec = Worker(args.specific, lib)
    abi3 = Worker(args.abi3, lib)
    if ".abi3." not in abi3.core_file or ".abi3." in spec.core_file:
        raise SystemExit(
            "expected an abi3 build in --abi3 and a version-specific one in --specific "
            "(got %s and %s)" % (abi3.core_file, spec.core_file)
        )
    print(
        "Python %s; specific: %s, abi3: %s; best of %d rounds of %g s, ns of %s per call"
        % (
            sys.version.split()[0],
            spec.core_file,
            abi3.core_file,
            args.repeat,
            args.seconds,
            "wall time" if args.wall else "thread CPU time",
        )
    )
    # Calls per timing: enough for --seconds in the version-specific build.
    numbers = {}
    for _, stmt in ROWS:
        per_call = spec.time(1000, stmt)
        numbers[stmt] = max(1000, int(args.seconds * 1e9 / max(per_call, 1.0)))
    best = {stmt: [float("inf"), float("inf")] for _, stmt in ROWS}
    for _ in range(args.repeat):
        for _, stmt in ROWS:
            for i, w in enumerate((spec, abi3)):
                best[stmt][i] = min(best[stmt][i], w.time(numbers[stmt], stmt))
    spec.close()
    abi3.close()
    print("| call | version-specific | abi3 | abi3 / specific |")
    print("|---|---|---|---|")
    for label, stmt in ROWS:
        s, a = best[stmt]
        print("| %s | %.1f | %.1f | %.2fx |" % (label, s, a, a / s))


if __name__ == "__main__":
    sys.exit(main())
