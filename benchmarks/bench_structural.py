#!/usr/bin/env python3
"""Structural engines of tvm_ffi on a large tree, next to the apache-tvm-ffi wheel.

Usage: python benchmarks/bench_structural.py --lib-dir DIR [--wheel DIR] [--nodes N]
       [--repeat N] [--processes N] [--clock cpu|wall] [--rss-sizes 10000,100000,300000]

The tree: a random-shaped (seeded) binary tree of N nodes counting leaves. Inner nodes are
"testing.structural.Add" objects (cpp/src/testing/testing_structural.cc), every third level
an ffi.Array of the two children instead; leaves alternate between ints and strings. This tree
loads the fixture from libtvm_ffi_testing.so in --lib-dir (build target tvm_ffi_testlibs); for
the wheel the same source is compiled against the wheel's headers (into
$TMPDIR/tvm_ffi_bench_build).

Times, in ms per operation: structural_hash, structural_equal of two equal trees built apart,
to_json_graph_str, from_json_graph_str of that text, and ffi.DeepCopy. Both packages are named
tvm_ffi, so each runs in its own worker process; every round asks one worker, then the other, to
time the same operation, so both columns see the same phases of a shared machine. A worker's
figure is its best run. Where the trees lie in memory differs from process to process, and so
does the time of a walk over them, so --processes fresh pairs of workers run one after the other
(which of the two goes first alternates) and each row gives the minimum and the median of the
per-process figures, and each side's peak RSS (VmHWM of its worker, the largest over the
processes). --clock cpu (default) times the worker's thread CPU time, which leaves out the time
other processes of a loaded machine take; wall times perf_counter.

Memory: for each size of --rss-sizes, each operation runs once in a fresh process per
implementation, which reports the peak RSS the operation added over the RSS once the trees and
the graph text exist (Linux only: it resets the peak through /proc/self/clear_refs). The free
heap the setup leaves behind is handed back to the system first (glibc's malloc_trim), so that
an operation's allocations count wherever they land: otherwise garbage of the setup (the wheel's
to_json_graph_str frees a whole graph of FFI values) absorbs them and hides them. A
measurement, not a test: never collected by pytest.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
from statistics import median

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURE = os.path.join(HERE, "..", "tests", "cpp", "testing", "testing_structural.cc")

SETUP = r"""
import ctypes, random, sys
import tvm_ffi
from tvm_ffi.serialization import from_json_graph_str, to_json_graph_str
ctypes.CDLL(LIB, mode=ctypes.RTLD_GLOBAL)
sys.setrecursionlimit(100000)

@tvm_ffi.register_object("testing.structural.Add")
class Add(tvm_ffi.Object):
    pass

def build(n, seed):
    rng = random.Random(seed)
    def node(n, depth):
        if n == 1:
            return depth * 7 if rng.random() < 0.5 else "leaf%d" % depth
        left = 2 * rng.randint(0, (n - 3) // 2) + 1  # odd, so both subtrees are full
        right = n - 1 - left
        kids = (node(left, depth + 1), node(right, depth + 1))
        return tvm_ffi.Array(kids) if depth % 3 == 2 else Add(*kids)
    return node(n if n % 2 else n + 1, 0)

deep_copy = tvm_ffi.get_global_func("ffi.DeepCopy")
tree = build(NODES, 1)
other = build(NODES, 1)
text = to_json_graph_str(tree)
OPS = {
    "hash": lambda: tvm_ffi.structural_hash(tree),
    "equal": lambda: tvm_ffi.structural_equal(tree, other),
    "to_json": lambda: to_json_graph_str(tree),
    "from_json": lambda: from_json_graph_str(text),
    "deepcopy": lambda: deep_copy(tree),
}

def check():
    assert tvm_ffi.structural_equal(from_json_graph_str(text), tree)
    assert tvm_ffi.structural_equal(deep_copy(tree), tree)
    return [tvm_ffi.structural_hash(tree), len(text)]
"""

# Times one operation `number` times per request (a JSON line: [op, number]) and replies with
# the best single run in seconds; the request "rss" replies with the process's peak RSS in KiB.
TIMER = r"""
import json, sys, time
env = {"LIB": sys.argv[1], "NODES": int(sys.argv[2])}
exec(sys.argv[3], env)
clock = time.thread_time if sys.argv[4] == "cpu" else time.perf_counter
print(json.dumps(env["check"]()), flush=True)
for line in sys.stdin:
    request = json.loads(line)
    if request == "rss":
        with open("/proc/self/status") as f:
            peak = [int(x.split()[1]) for x in f if x.startswith("VmHWM:")]
        print(json.dumps(peak[0] if peak else 0), flush=True)
        continue
    op, number = request
    fn = env["OPS"][op]
    best = float("inf")
    for _ in range(number):
        start = clock()
        result = fn()
        best = min(best, clock() - start)
        del result
    print(json.dumps(best), flush=True)
"""

# Runs one operation once and prints the RSS before it and the peak RSS it added, in KiB.
# malloc_trim returns the free heap to the system, so that the operation cannot reuse the
# setup's freed pages unseen; writing 5 to clear_refs then resets the peak (VmHWM) to the
# current RSS, so the tree's build does not mask the operation's own peak.
MEMORY = r"""
import ctypes, ctypes.util, gc, json, sys
env = {"LIB": sys.argv[1], "NODES": int(sys.argv[2])}
exec(sys.argv[3], env)
op = sys.argv[4]
def status_kib(key):
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(key):
                return int(line.split()[1])
gc.collect()
libc = ctypes.CDLL(ctypes.util.find_library("c"))
if hasattr(libc, "malloc_trim"):
    libc.malloc_trim(0)
with open("/proc/self/clear_refs", "w") as f:
    f.write("5")
before = status_kib("VmRSS:")
result = env["OPS"][op]()
print(json.dumps([before, status_kib("VmHWM:") - before]))
"""

OPS = ["hash", "equal", "to_json", "from_json", "deepcopy"]
LABELS = {
    "hash": "structural_hash",
    "equal": "structural_equal (two equal trees)",
    "to_json": "to_json_graph_str",
    "from_json": "from_json_graph_str",
    "deepcopy": "ffi.DeepCopy",
}


def build_wheel_fixture(wheel_dir):
    """The fixture library compiled against the wheel's headers and runtime."""
    inc = os.path.join(wheel_dir, "tvm_ffi", "include")
    libdir = os.path.join(wheel_dir, "tvm_ffi", "lib")
    out_dir = os.path.join(tempfile.gettempdir(), "tvm_ffi_bench_build")
    os.makedirs(out_dir, exist_ok=True)
    out = os.path.join(out_dir, "structural_fixture_wheel.so")
    if not os.path.exists(out) or os.path.getmtime(out) < os.path.getmtime(FIXTURE):
        # The fixture uses this tree's namespace macros, which the wheel's headers lack.
        cmd = [
            os.environ.get("CXX", "g++"),
            "-O2",
            "-std=c++17",
            "-shared",
            "-fPIC",
            "-DTVM_FFI_NAMESPACE_BEGIN=namespace tvm { namespace ffi {",
            "-DTVM_FFI_NAMESPACE_END=}}",
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


def worker_env(pythonpath):
    """The environment of a worker: the wheel's gets its own path and never our library override."""
    env = dict(os.environ)
    if pythonpath:
        env["PYTHONPATH"] = pythonpath
        env.pop("TVM_FFI_LIBRARY_PATH", None)
    else:
        env.pop("PYTHONPATH", None)
    return env


class Worker:
    def __init__(self, lib, nodes, pythonpath, clock):
        env = worker_env(pythonpath)
        self.proc = subprocess.Popen(
            [sys.executable, "-c", TIMER, lib, str(nodes), SETUP, clock],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env=env,
            cwd="/",
        )
        self.check = json.loads(self.proc.stdout.readline())

    def ask(self, request):
        self.proc.stdin.write(json.dumps(request) + "\n")
        self.proc.stdin.flush()
        return json.loads(self.proc.stdout.readline())

    def time(self, op, number):
        return self.ask([op, number])

    def peak_rss_kib(self):
        return self.ask("rss")

    def close(self):
        self.proc.stdin.close()
        self.proc.wait()


def memory(lib, nodes, op, pythonpath):
    env = worker_env(pythonpath)
    out = subprocess.run(
        [sys.executable, "-c", MEMORY, lib, str(nodes), SETUP, op],
        capture_output=True,
        text=True,
        env=env,
        cwd="/",
        check=True,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lib-dir", required=True, help="directory of libtvm_ffi_testing.so")
    parser.add_argument("--wheel", default="/tmp/tvm_peer", help="where the wheel is installed")
    parser.add_argument("--nodes", type=int, default=100000)
    parser.add_argument("--repeat", type=int, default=7, help="rounds per operation")
    parser.add_argument(
        "--processes", type=int, default=3, help="fresh worker pairs, one after the other"
    )
    parser.add_argument("--clock", choices=["cpu", "wall"], default="cpu")
    parser.add_argument("--rss-sizes", default="10000,100000,300000")
    args = parser.parse_args()

    ours_lib = os.path.join(os.path.abspath(args.lib_dir), "libtvm_ffi_testing.so")
    wheel_lib = build_wheel_fixture(args.wheel)
    # Per operation and side, the best time of each process.
    best = {op: ([], []) for op in OPS}
    peak = [0, 0]
    check = None
    for p in range(args.processes):
        ours = Worker(ours_lib, args.nodes, None, args.clock)
        wheel = Worker(wheel_lib, args.nodes, args.wheel, args.clock)
        if ours.check != wheel.check:
            sys.exit("the trees differ: hash/graph length %s vs %s" % (ours.check, wheel.check))
        check = ours.check
        order = [(0, ours), (1, wheel)] if p % 2 == 0 else [(1, wheel), (0, ours)]
        for op in OPS:
            runs = [float("inf"), float("inf")]
            for _ in range(args.repeat):
                for side, worker in order:
                    runs[side] = min(runs[side], worker.time(op, 3))
            for side in (0, 1):
                best[op][side].append(runs[side])
        for side, worker in order:
            peak[side] = max(peak[side], worker.peak_rss_kib())
            worker.close()

    print(
        "%d-node tree; hash %d; graph text %d bytes; %d process pair(s), %s time"
        % (args.nodes, check[0], check[1], args.processes, args.clock)
    )
    print()
    print(
        "| operation | this tree, min / median (ms) | wheel, min / median (ms) | ratio of min / median |"
    )
    print("|---|---|---|---|")
    for op in OPS:
        o, w = best[op]
        o_min, o_med, w_min, w_med = min(o), median(o), min(w), median(w)
        print(
            "| %s | %.2f / %.2f | %.2f / %.2f | %.2fx / %.2fx |"
            % (
                LABELS[op],
                o_min * 1e3,
                o_med * 1e3,
                w_min * 1e3,
                w_med * 1e3,
                o_min / w_min,
                o_med / w_med,
            )
        )
    print()
    print(
        "Peak RSS of the worker (MiB), this tree / wheel: %.1f / %.1f"
        % (peak[0] / 1024, peak[1] / 1024)
    )

    sizes = [int(s) for s in args.rss_sizes.split(",") if s]
    if not sizes:
        return
    print()
    print("Peak RSS an operation adds (MiB), this tree / wheel; RSS with the tree(s) built first:")
    print()
    print("| nodes | " + " | ".join(LABELS[op] for op in OPS) + " | RSS before (hash) |")
    print("|---|" + "---|" * (len(OPS) + 1))
    for n in sizes:
        cells = []
        base = None
        for op in OPS:
            o_before, o_extra = memory(ours_lib, n, op, None)
            w_before, w_extra = memory(wheel_lib, n, op, args.wheel)
            if base is None:
                base = "%.1f / %.1f" % (o_before / 1024, w_before / 1024)
            cells.append("%.1f / %.1f" % (o_extra / 1024, w_extra / 1024))
        print("| %d | %s | %s |" % (n, " | ".join(cells), base))


if __name__ == "__main__":
    main()
