#!/usr/bin/env python3
"""Per-call overhead of tvm_ffi next to nanobind, pybind11, ctypes and cffi.

Usage: python benchmarks/bench_calls.py [--quick] [--build-dir DIR] [--wheel DIR] [--torch-only]
       [--wheel-only] [--cpu-time]

Builds the peer modules from benchmarks/peers/ into a cache directory (first
run takes about a minute: nanobind's sources are compiled), then times each
call with timeit (min over several repeats) and prints ns per call, the ratio
of tvm_ffi to nanobind, and PASS/MISS for the targets of issues 6 and 7.
This is a measurement, not a test: it is not collected by pytest.

Then come two tables next to the apache-tvm-ffi wheel installed in --wheel DIR
(`pip install --no-deps --target DIR apache-tvm-ffi==0.1.15.post2`): the calls
of benchmarks/peers/tvm_ffi_bench.cc built against each implementation, and,
with torch importable, torch tensors passed to tensor kernels
(benchmarks/peers/tvm_ffi_tensor_kernels.cc). Both packages are named tvm_ffi,
so the wheel runs in a worker process (PYTHONPATH=DIR) that times the same
statement on request; each round times this tree, then the wheel, so both see
the same phases of a shared machine. Their floor columns
(benchmarks/peers/call_floor.cc, torch_floor.c) are the required work alone,
in plain C: see CALL_ROWS and TORCH_ROWS.
"""

import argparse
import ctypes
import hashlib
import importlib.util
import os
import platform
import shlex
import subprocess
import sys
import sysconfig
import tempfile
import time
import timeit
from concurrent.futures import ThreadPoolExecutor

# numpy's OpenBLAS otherwise starts a spinning thread pool that competes for the
# machine's cores with the calls being timed.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

HERE = os.path.dirname(os.path.abspath(__file__))
PEERS = os.path.join(HERE, "peers")
CXX = os.environ.get("CXX", "g++")
CC = os.environ.get("CC", "cc")

# (row, target ratio of tvm_ffi to nanobind); rows without a target are informative.
TARGETS = {
    "f()": 2.5,
    "f(1, 2, 3)": 2.5,
    "add_one(1)": 2.0,
    'echo("hello")': 2.0,
    "TensorView(ndarray)": 1.0,
    "from_dlpack(ndarray)": 1.0,
}


def run(cmd, cwd=None):
    proc = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True)
    if proc.returncode != 0:
        raise RuntimeError("build failed: %s\n%s%s" % (" ".join(cmd), proc.stdout, proc.stderr))


def source_key(*paths, extra=""):
    h = hashlib.sha256(extra.encode())
    for p in paths:
        with open(p, "rb") as f:
            h.update(f.read())
    return h.hexdigest()[:16]


# Read once at import: sysconfig fills its config-var cache lazily and not thread-safely, and the
# peers build in a thread pool.
_EXT_SUFFIX = sysconfig.get_config_var("EXT_SUFFIX")


def ext_suffix():
    return _EXT_SUFFIX


def python_includes():
    return ["-I" + sysconfig.get_paths()["include"]]


def tvm_ffi_flags():
    return shlex.split(
        subprocess.check_output(["tvm-ffi-config", "--cxxflags", "--ldflags", "--libs"], text=True)
    )


def build_tvm_ffi(out_dir):
    return build_kernels(out_dir, tvm_ffi_flags(), "ours", "tvm_ffi_bench.cc")


def build_nanobind(out_dir):
    import nanobind

    root = os.path.dirname(nanobind.__file__)
    src = os.path.join(PEERS, "nanobind_bench.cc")
    key = source_key(src, extra=nanobind.__version__ + sys.version)
    mod_dir = os.path.join(out_dir, "nanobind_" + key)
    out = os.path.join(mod_dir, "nanobind_bench" + ext_suffix())
    if os.path.exists(out):
        return out
    os.makedirs(mod_dir, exist_ok=True)
    incs = python_includes() + [
        "-I" + os.path.join(root, "include"),
        "-I" + os.path.join(root, "ext", "robin_map", "include"),
    ]
    # Compiled like nanobind's own CMake build: optimized, hidden visibility.
    flags = [
        "-std=c++17",
        "-O3",
        "-DNDEBUG",
        "-fPIC",
        "-fvisibility=hidden",
        "-fno-strict-aliasing",
    ]
    objs = []
    for name, path in (
        ("nb_combined", os.path.join(root, "src", "nb_combined.cpp")),
        ("module", src),
    ):
        obj = os.path.join(mod_dir, name + ".o")
        objs.append((path, obj))
    with ThreadPoolExecutor(2) as pool:
        list(pool.map(lambda po: run([CXX] + flags + incs + ["-c", po[0], "-o", po[1]]), objs))
    run([CXX, "-shared"] + [o for _, o in objs] + ["-o", out + ".tmp"])
    os.replace(out + ".tmp", out)
    return out


def build_pybind11(out_dir):
    import pybind11

    src = os.path.join(PEERS, "pybind11_bench.cc")
    key = source_key(src, extra=pybind11.__version__ + sys.version)
    mod_dir = os.path.join(out_dir, "pybind11_" + key)
    out = os.path.join(mod_dir, "pybind11_bench" + ext_suffix())
    if not os.path.exists(out):
        os.makedirs(mod_dir, exist_ok=True)
        run(
            [
                CXX,
                "-std=c++17",
                "-O3",
                "-DNDEBUG",
                "-shared",
                "-fPIC",
                "-fvisibility=hidden",
                src,
                "-o",
                out + ".tmp",
                "-I" + pybind11.get_include(),
            ]
            + python_includes()
        )
        os.replace(out + ".tmp", out)
    return out


def build_clib(out_dir):
    src = os.path.join(PEERS, "cbench.c")
    out = os.path.join(out_dir, "libcbench_%s.so" % source_key(src))
    if not os.path.exists(out):
        run([CC, "-O2", "-shared", "-fPIC", src, "-o", out + ".tmp"])
        os.replace(out + ".tmp", out)
    return out


CFFI_CDEF = """
void nop(void);
int64_t f3(int64_t a, int64_t b, int64_t c);
int64_t add_one(int64_t x);
const char* echo(const char* s);
int64_t sum_list(const int64_t* values, int64_t n);
int64_t call_callback(int64_t (*cb)(int64_t));
"""


def build_cffi_api(out_dir):
    import cffi

    src = os.path.join(PEERS, "cbench.c")
    key = source_key(src, extra=cffi.__version__ + sys.version + CFFI_CDEF)
    mod_dir = os.path.join(out_dir, "cffi_" + key)
    name = "cffi_bench_api"
    existing = [f for f in os.listdir(mod_dir)] if os.path.isdir(mod_dir) else []
    for f in existing:
        if f.startswith(name) and f.endswith(ext_suffix()):
            return os.path.join(mod_dir, f)
    ffi = cffi.FFI()
    ffi.cdef(CFFI_CDEF)
    with open(src) as f:
        ffi.set_source(name, f.read())
    os.makedirs(mod_dir, exist_ok=True)
    return ffi.compile(tmpdir=mod_dir)


def load_ext(name, path):
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def build_all(out_dir):
    os.makedirs(out_dir, exist_ok=True)
    jobs = {
        "tvm_ffi": build_tvm_ffi,
        "nanobind": build_nanobind,
        "pybind11": build_pybind11,
        "clib": build_clib,
        "cffi_api": build_cffi_api,
    }
    with ThreadPoolExecutor(len(jobs)) as pool:
        futures = {k: pool.submit(fn, out_dir) for k, fn in jobs.items()}
        return {k: f.result() for k, f in futures.items()}


# Rows of the tables against the apache-tvm-ffi wheel: (row, statement, target ratio of this tree
# to the wheel, floor statement or None, cap). A row passes when its ratio is within the target,
# or when this tree is within FLOOR_SLACK of the floor and its ratio within the cap. The floor
# (timed in this tree's process) is what any binding must do for the row, in plain C with no
# checks; its share of the wheel's figure shows how much of the target is left for the rest.
FLOOR_SLACK = 1.10

# The floors of the torch rows (peers/torch_floor.c): torch's dltensor_from_py_object_no_sync
# per tensor, torch's allocator installed around the call, the kernel called through
# TVMFFIFunctionCall with the GIL released (a Function's default). For the Tensor parameter the
# fill goes into a reused Tensor object block and the same kernel is called (it takes and drops
# its own reference); for from_dlpack it is the fill alone.
TORCH_ROWS = [
    ("TensorView kernel(1 torch)", "view1(x)", 0.5, "floor_call(h1, x)", 0.55),
    ("TensorView kernel(2 torch)", "view2(x, y)", 0.5, "floor_call(h2, x, y)", 0.55),
    ("TensorView kernel(4 torch)", "view4(x, y, z, w)", 0.5, "floor_call(h4, x, y, z, w)", 0.55),
    ("Tensor param(torch)", "tensor_nop(x)", 0.5, "floor_call_tensor(h_t, x)", 0.55),
    ("from_dlpack(torch)", "from_dlpack(x)", 0.5, "floor_fill(x)", 0.5),
    ("env-alloc kernel -> torch", "alloc_like(x)", 1.0, None, None),
    ("torch.from_dlpack(Tensor)", "torch.from_dlpack(t)", 1.0, None, None),
]

# The call rows (peers/tvm_ffi_bench.cc built against each implementation). Floors
# (peers/call_floor.cc): for the list, one Array allocation and the ten int reads, the call with
# the GIL released and the release; for the callback, wrapping the callable in a Function,
# re-taking the GIL in it, converting the argument and result, the Python call.
CALL_ROWS = [
    ("f()", "nop()", 0.7, None, None),
    ("f(1, 2, 3)", "f3(1, 2, 3)", 0.7, None, None),
    ("add_one(1)", "add_one(1)", 0.7, None, None),
    ('echo("hello")', 'echo("hello")', 0.5, None, None),
    ("sum_list(10 ints)", "sum_list(ints)", 0.5, "floor_sum_list(h_sum, ints)", 1.0),
    ("C++ -> Python callback", "call_callback(cb)", 0.5, "floor_callback(h_cb, cb)", 1.0),
]


def verdict(ours, wheel, floor, target, cap):
    ratio = ours / wheel
    if ratio <= target:
        return "PASS"
    if floor is not None and cap is not None and ours <= FLOOR_SLACK * floor and ratio <= cap:
        return "PASS"
    return "MISS"


def build_floor(out_dir, name, tvm_ffi_flags):
    """peers/<name>.c or .cc (module <name>) as an extension module, imported from out_dir;
    of tvm_ffi_flags it takes the include and library ones."""
    tvm_ffi_flags = [f for f in tvm_ffi_flags if f[:2] in ("-I", "-L", "-l")]
    cxx = os.path.exists(os.path.join(PEERS, name + ".cc"))
    src = os.path.join(PEERS, name + (".cc" if cxx else ".c"))
    key = source_key(src, extra=" ".join(tvm_ffi_flags) + sys.version)
    mod_dir = os.path.join(out_dir, "%s_%s" % (name, key))
    out = os.path.join(mod_dir, name + ext_suffix())
    if not os.path.exists(out):
        os.makedirs(mod_dir, exist_ok=True)
        compiler = [CXX, "-std=c++17"] if cxx else [CC]
        cmd = compiler + ["-O2", "-shared", "-fPIC", src, "-o", out + ".tmp"]
        lib_dirs = ["-Wl,-rpath," + f[2:] for f in tvm_ffi_flags if f.startswith("-L")]
        run(cmd + python_includes() + tvm_ffi_flags + lib_dirs)
        os.replace(out + ".tmp", out)
    return load_ext(name, out)


def build_kernels(out_dir, flags, tag, source="tvm_ffi_tensor_kernels.cc"):
    """A benchmarks/peers/ library of tvm-ffi functions built with the given compiler flags."""
    src = os.path.join(PEERS, source)
    out = os.path.join(
        out_dir,
        "%s_%s_%s.so" % (os.path.splitext(source)[0], tag, source_key(src, extra=" ".join(flags))),
    )
    if not os.path.exists(out):
        run([CXX, "-O2", "-std=c++17", "-shared", "-fPIC", src, "-o", out + ".tmp"] + flags)
        os.replace(out + ".tmp", out)
    return out


def wheel_flags(wheel_dir):
    root = os.path.join(wheel_dir, "tvm_ffi")
    lib = os.path.join(root, "lib")
    return ["-I" + os.path.join(root, "include"), "-L" + lib, "-Wl,-rpath," + lib, "-ltvm_ffi"]


def torch_namespace(kernels):
    """The names the statements of TORCH_ROWS use (in whichever tvm_ffi is imported)."""
    import torch
    import tvm_ffi

    m = tvm_ffi.load_module(kernels)
    x, y, z, w = (torch.zeros(16, dtype=torch.float32) for _ in range(4))
    ns = {
        "torch": torch,
        "from_dlpack": tvm_ffi.from_dlpack,
        "x": x,
        "y": y,
        "z": z,
        "w": w,
        "t": tvm_ffi.from_dlpack(x),
        "view1": m["view_nop1"],
        "view2": m["view_nop2"],
        "view4": m["view_nop4"],
        "tensor_nop": m["tensor_nop"],
        "alloc_like": m["env_alloc_like"],
    }
    assert type(ns["alloc_like"](x)) is torch.Tensor
    return ns


def calls_namespace(lib):
    """The names the statements of CALL_ROWS use (in whichever tvm_ffi is imported)."""
    import tvm_ffi

    m = tvm_ffi.load_module(lib)

    def cb(x):
        return x

    ns = {n: m[n] for n in ("nop", "f3", "add_one", "echo", "sum_list", "call_callback")}
    ns.update(ints=list(range(10)), cb=cb)
    assert ns["sum_list"](ns["ints"]) == 45 and ns["call_callback"](cb) == 1
    return ns


NAMESPACES = {"torch": torch_namespace, "calls": calls_namespace}


def row_timer(cpu_time):
    """The clock of the wheel tables: wall time, or this thread's CPU time (--cpu-time), which
    a loaded machine inflates far less (time spent descheduled is not counted)."""
    return time.thread_time if cpu_time else timeit.default_timer


def wheel_worker(kind, lib, cpu_time):
    """Worker loop (in the wheel's process): 'number statement' lines in, ns per call out."""
    clock = row_timer(cpu_time)
    ns = NAMESPACES[kind](lib)
    print("ready", flush=True)
    for line in sys.stdin:
        number, stmt = line.rstrip("\n").split(" ", 1)
        number = int(number)
        timer = timeit.Timer(stmt, timer=clock, globals=ns)
        print(timer.timeit(number) / number * 1e9, flush=True)


def run_wheel_table(title, rows, ns, kind, wheel_lib, wheel_dir, repeat, budget, cpu_time):
    """Times each row in this tree (ns) and in the wheel's worker process, round by round, with
    the floor beside them; prints the table and returns the verdicts."""
    import tvm_ffi

    env = dict(os.environ, PYTHONPATH=wheel_dir)
    worker_cmd = [sys.executable, os.path.abspath(__file__), "--worker", kind, wheel_lib]
    worker = subprocess.Popen(
        worker_cmd + (["--cpu-time"] if cpu_time else []),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        env=env,
        cwd=tempfile.gettempdir(),
    )
    verdicts = []
    try:
        if worker.stdout.readline().strip() != "ready":
            raise RuntimeError("the wheel's worker process did not start")
        print(
            "\n%s: this tree (tvm_ffi from %s) vs the apache-tvm-ffi wheel in %s, ns per call "
            "(%s), min of %d interleaved rounds\n"
            % (
                title,
                os.path.dirname(tvm_ffi.__file__),
                wheel_dir,
                "thread CPU time" if cpu_time else "wall time",
                repeat,
            )
        )
        header = "%-28s%11s%9s%8s%9s%8s%9s%9s%6s" % (
            "call",
            "this tree",
            "wheel",
            "ratio",
            "floor",
            "floor/w",
            "us/floor",
            "target",
            "",
        )
        print(header)
        print("-" * len(header))
        for row, stmt, target, floor_stmt, cap in rows:
            timer = timeit.Timer(stmt, timer=row_timer(cpu_time), globals=ns)
            floor_timer = floor_stmt and timeit.Timer(
                floor_stmt, timer=row_timer(cpu_time), globals=ns
            )
            number, _ = timeit.Timer(stmt, globals=ns).autorange()
            number = max(1, int(number * budget / 0.2))
            ours = wheel = least = float("inf")
            for _ in range(repeat):
                ours = min(ours, timer.timeit(number) / number * 1e9)
                if floor_timer:
                    least = min(least, floor_timer.timeit(number) / number * 1e9)
                worker.stdin.write("%d %s\n" % (number, stmt))
                worker.stdin.flush()
                wheel = min(wheel, float(worker.stdout.readline()))
            floor = least if floor_timer else None
            result = verdict(ours, wheel, floor, target, cap)
            verdicts.append(result)
            floor_cols = (
                "%9.1f%7.2fx%8.2fx" % (floor, floor / wheel, ours / floor)
                if floor is not None
                else "%9s%8s%9s" % ("-", "-", "-")
            )
            print(
                "%-28s%11.1f%9.1f%7.2fx%s%9s%6s"
                % (row, ours, wheel, ours / wheel, floor_cols, "<=%.2gx" % target, result),
                flush=True,
            )
        print(
            "%s targets: %d PASS, %d MISS (a row also passes within %.2fx of its floor)"
            % (kind, verdicts.count("PASS"), verdicts.count("MISS"), FLOOR_SLACK)
        )
    finally:
        worker.stdin.close()
        worker.wait()
    return verdicts


def run_torch_table(out_dir, wheel_dir, repeat, budget, cpu_time=False):
    import torch

    ours_flags = tvm_ffi_flags()
    ours_lib = build_kernels(out_dir, ours_flags, "ours")
    wheel_lib = build_kernels(out_dir, wheel_flags(wheel_dir), "wheel")
    ns = torch_namespace(ours_lib)
    floor = build_floor(out_dir, "torch_floor", ours_flags)
    ns["floor_call"] = floor.floor_call
    ns["floor_fill"] = floor.floor_fill
    ns["floor_call_tensor"] = floor.floor_call_tensor
    for name in ("view1", "view2", "view4"):
        ns["h" + name[-1]] = ns[name].__chandle__()
    ns["h_t"] = ns["tensor_nop"].__chandle__()
    title = "torch %s CPU tensors (16 x float32)" % torch.__version__
    return run_wheel_table(
        title, TORCH_ROWS, ns, "torch", wheel_lib, wheel_dir, repeat, budget, cpu_time
    )


def run_calls_table(out_dir, wheel_dir, repeat, budget, cpu_time=False):
    ours_flags = tvm_ffi_flags()
    bench = "tvm_ffi_bench.cc"
    ours_lib = build_kernels(out_dir, ours_flags, "ours", bench)
    wheel_lib = build_kernels(out_dir, wheel_flags(wheel_dir), "wheel", bench)
    ns = calls_namespace(ours_lib)
    floor = build_floor(out_dir, "call_floor", ours_flags)
    ns["floor_sum_list"] = floor.floor_sum_list
    ns["floor_callback"] = floor.floor_callback
    ns["h_sum"] = ns["sum_list"].__chandle__()
    ns["h_cb"] = ns["call_callback"].__chandle__()
    assert ns["floor_sum_list"](ns["h_sum"], ns["ints"]) == 45
    assert ns["floor_callback"](ns["h_cb"], ns["cb"]) == 1
    return run_wheel_table(
        "calls", CALL_ROWS, ns, "calls", wheel_lib, wheel_dir, repeat, budget, cpu_time
    )


def make_cases(paths):
    """{row: {binding: (stmt, namespace)}} in table order."""
    import cffi
    import numpy as np
    import tvm_ffi

    cases = {}

    def add(row, binding, stmt, ns):
        cases.setdefault(row, {})[binding] = (stmt, ns)

    ints = list(range(10))
    arr = np.zeros((4, 4), dtype="float32")

    def cb(x):
        return x

    # tvm_ffi, with the default GIL release and with the GIL kept.
    mod = tvm_ffi.load_module(paths["tvm_ffi"])
    for binding, release in (("tvm_ffi", True), ("tvm_ffi nogil=0", False)):
        fns = {}
        for name in (
            "nop",
            "f3",
            "add_one",
            "echo",
            "sum_list",
            "call_callback",
            "tensor_data_ptr",
        ):
            f = mod[name]
            f.release_gil = release
            fns[name] = f
        ns = dict(fns, ints=ints, cb=cb, arr=arr, wrapped_cb=tvm_ffi.Function(cb))
        add("f()", binding, "nop()", ns)
        add("f(1, 2, 3)", binding, "f3(1, 2, 3)", ns)
        add("add_one(1)", binding, "add_one(1)", ns)
        add('echo("hello")', binding, 'echo("hello")', ns)
        add("sum(list of 10 ints)", binding, "sum_list(ints)", ns)
        add("C++ -> Python callback", binding, "call_callback(cb)", ns)
        add("callback, pre-wrapped Function", binding, "call_callback(wrapped_cb)", ns)

    tensor_note = None
    try:
        assert mod["tensor_data_ptr"](arr) == arr.ctypes.data
        ns = {"f": mod["tensor_data_ptr"], "arr": arr}
        add("TensorView(ndarray)", "tvm_ffi", "f(arr)", ns)
        f_keep = mod["tensor_data_ptr"]
        f_keep.release_gil = False
        add("TensorView(ndarray)", "tvm_ffi nogil=0", "f(arr)", {"f": f_keep, "arr": arr})
    except Exception as exc:  # tensors come with issue 7
        tensor_note = "TensorView rows skipped: passing a numpy array failed (%s: %s)" % (
            type(exc).__name__,
            exc,
        )
    if hasattr(tvm_ffi, "from_dlpack"):
        add(
            "from_dlpack(ndarray)",
            "tvm_ffi",
            "from_dlpack(arr)",
            {"from_dlpack": tvm_ffi.from_dlpack, "arr": arr},
        )
    else:
        tensor_note = (
            tensor_note + "; " if tensor_note else ""
        ) + "from_dlpack row skipped: tvm_ffi.from_dlpack does not exist yet"

    nb = load_ext("nanobind_bench", paths["nanobind"])
    ns = {"m": nb, "ints": ints, "cb": cb, "arr": arr}
    add("f()", "nanobind", "m.nop()", ns)
    add("f(1, 2, 3)", "nanobind", "m.f3(1, 2, 3)", ns)
    add("add_one(1)", "nanobind", "m.add_one(1)", ns)
    add('echo("hello")', "nanobind", 'm.echo("hello")', ns)
    add("sum(list of 10 ints)", "nanobind", "m.sum_list(ints)", ns)
    add("C++ -> Python callback", "nanobind", "m.call_callback(cb)", ns)
    add("TensorView(ndarray)", "nanobind", "m.tensor_data_ptr(arr)", ns)
    add("from_dlpack(ndarray)", "nanobind", "m.tensor_data_ptr(arr)", ns)
    add("f()", "nanobind nogil", "m.nop_nogil()", ns)
    add("f(1, 2, 3)", "nanobind nogil", "m.f3_nogil(1, 2, 3)", ns)
    add("add_one(1)", "nanobind nogil", "m.add_one_nogil(1)", ns)
    add('echo("hello")', "nanobind nogil", 'm.echo_nogil("hello")', ns)
    add("TensorView(ndarray)", "nanobind nogil", "m.tensor_data_ptr_nogil(arr)", ns)

    pb = load_ext("pybind11_bench", paths["pybind11"])
    ns = {"m": pb, "ints": ints, "cb": cb}
    add("f()", "pybind11", "m.nop()", ns)
    add("f(1, 2, 3)", "pybind11", "m.f3(1, 2, 3)", ns)
    add("add_one(1)", "pybind11", "m.add_one(1)", ns)
    add('echo("hello")', "pybind11", 'm.echo("hello")', ns)
    add("sum(list of 10 ints)", "pybind11", "m.sum_list(ints)", ns)
    add("C++ -> Python callback", "pybind11", "m.call_callback(cb)", ns)

    # ctypes: C strings are bytes, lists need a C array built per call.
    lib = ctypes.CDLL(paths["clib"])
    i64 = ctypes.c_int64
    lib.nop.argtypes, lib.nop.restype = [], None
    lib.f3.argtypes, lib.f3.restype = [i64, i64, i64], i64
    lib.add_one.argtypes, lib.add_one.restype = [i64], i64
    lib.echo.argtypes, lib.echo.restype = [ctypes.c_char_p], ctypes.c_char_p
    lib.sum_list.argtypes, lib.sum_list.restype = [ctypes.POINTER(i64), i64], i64
    cbtype = ctypes.CFUNCTYPE(i64, i64)
    lib.call_callback.argtypes, lib.call_callback.restype = [cbtype], i64
    ns = {"lib": lib, "ints": ints, "arr10": i64 * 10, "ccb": cbtype(cb)}
    add("f()", "ctypes", "lib.nop()", ns)
    add("f(1, 2, 3)", "ctypes", "lib.f3(1, 2, 3)", ns)
    add("add_one(1)", "ctypes", "lib.add_one(1)", ns)
    add('echo("hello")', "ctypes", 'lib.echo(b"hello")', ns)
    add("sum(list of 10 ints)", "ctypes", "lib.sum_list(arr10(*ints), 10)", ns)
    add("C++ -> Python callback", "ctypes", "lib.call_callback(ccb)", ns)

    ffi = cffi.FFI()
    ffi.cdef(CFFI_CDEF)
    abi = ffi.dlopen(paths["clib"])
    api = load_ext("cffi_bench_api", paths["cffi_api"])
    for binding, m, f in (("cffi ABI", abi, ffi), ("cffi API", api.lib, api.ffi)):
        ns = {"lib": m, "ffi": f, "ints": ints, "fcb": f.callback("int64_t(*)(int64_t)", cb)}
        add("f()", binding, "lib.nop()", ns)
        add("f(1, 2, 3)", binding, "lib.f3(1, 2, 3)", ns)
        add("add_one(1)", binding, "lib.add_one(1)", ns)
        add('echo("hello")', binding, 'ffi.string(lib.echo(b"hello"))', ns)
        add("sum(list of 10 ints)", binding, 'lib.sum_list(ffi.new("int64_t[]", ints), 10)', ns)
        add("C++ -> Python callback", binding, "lib.call_callback(fcb)", ns)
    return cases, tensor_note


def time_row(per_binding, repeat, budget):
    """ns per call of each binding's statement: the minimum over `repeat` rounds.

    Each round times every binding once, one after the other, so slow phases of
    a shared machine hit all columns of a row alike instead of one binding's
    whole series.
    """
    timers = {}
    for b, (stmt, ns) in per_binding.items():
        timer = timeit.Timer(stmt, globals=ns)
        number, _ = timer.autorange()  # >= 0.2 s per run
        timers[b] = (timer, max(1, int(number * budget / 0.2)))
    best = {b: float("inf") for b in timers}
    for _ in range(repeat):
        for b, (timer, number) in timers.items():
            best[b] = min(best[b], timer.timeit(number) / number * 1e9)
    return best


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer repeats (noisier)")
    parser.add_argument(
        "--build-dir", default=os.path.join(tempfile.gettempdir(), "tvm_ffi_bench_build")
    )
    parser.add_argument(
        "--wheel",
        default=os.path.join(tempfile.gettempdir(), "tvm_peer"),
        help="directory the apache-tvm-ffi wheel is installed in (--target)",
    )
    parser.add_argument("--torch-only", action="store_true", help="only the torch table")
    parser.add_argument(
        "--wheel-only", action="store_true", help="only the tables against the wheel (calls, torch)"
    )
    parser.add_argument(
        "--repeat", type=int, default=None, help="rounds per row (default 7, 3 with --quick)"
    )
    parser.add_argument(
        "--cpu-time",
        action="store_true",
        help="torch table: time each round by this thread's CPU time instead of wall time",
    )
    parser.add_argument("--worker", nargs=2, metavar=("KIND", "LIB"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        return wheel_worker(args.worker[0], args.worker[1], args.cpu_time)
    repeat, budget = (3, 0.05) if args.quick else (7, 0.1)
    if args.repeat:
        repeat = args.repeat

    import tvm_ffi

    if args.torch_only or args.wheel_only:
        os.makedirs(args.build_dir, exist_ok=True)
        if args.wheel_only:
            run_calls_table(args.build_dir, args.wheel, repeat, budget, args.cpu_time)
        return run_torch_table(args.build_dir, args.wheel, repeat, budget, args.cpu_time)

    print("building peers in %s ..." % args.build_dir, flush=True)
    paths = build_all(args.build_dir)
    cases, tensor_note = make_cases(paths)
    bindings = [
        "tvm_ffi",
        "tvm_ffi nogil=0",
        "nanobind",
        "nanobind nogil",
        "pybind11",
        "ctypes",
        "cffi ABI",
        "cffi API",
    ]
    print(
        "Python %s, %s, tvm_ffi from %s"
        % (platform.python_version(), platform.machine(), os.path.dirname(tvm_ffi.__file__))
    )
    print(
        "ns per call, min of %d runs; 'tvm_ffi' releases the GIL (the default), "
        "'tvm_ffi nogil=0' has release_gil=False; 'nanobind nogil' releases it too "
        "(nb::gil_scoped_release)\n" % repeat
    )
    row_w = max(len(r) for r in cases) + 2
    header = "%-*s" % (row_w, "call") + "".join("%17s" % b for b in bindings)
    header += "%10s%10s%12s%8s%7s" % ("tvm/nb", "keep/nb", "tvm/nb-rel", "target", "")
    print(header)
    print("-" * len(header))
    results = []
    for row, per in cases.items():
        times = time_row(per, repeat, budget)
        line = "%-*s" % (row_w, row)
        line += "".join("%17s" % ("%.1f" % times[b] if b in times else "-") for b in bindings)
        nb = times.get("nanobind")
        ratio = times["tvm_ffi"] / nb if nb and "tvm_ffi" in times else None
        keep = times["tvm_ffi nogil=0"] / nb if nb and "tvm_ffi nogil=0" in times else None
        line += "%10s" % ("%.2fx" % ratio if ratio else "-")
        line += "%10s" % ("%.2fx" % keep if keep else "-")
        nb_rel = times.get("nanobind nogil")
        both_rel = times["tvm_ffi"] / nb_rel if nb_rel and "tvm_ffi" in times else None
        line += "%12s" % ("%.2fx" % both_rel if both_rel else "-")
        target = TARGETS.get(row)
        if target is not None and ratio is not None:
            verdict = "PASS" if ratio <= target else "MISS"
            line += "%7s%7s" % ("<=%.1fx" % target, verdict)
            results.append((row, verdict))
        print(line, flush=True)
    print()
    if tensor_note:
        print("note:", tensor_note)
    print(
        "note: ctypes/cffi pass echo's string as bytes (C char*), and build a C array "
        "for the list per call"
    )
    print(
        "note: 'from_dlpack(ndarray)' compares tvm_ffi.from_dlpack(arr) with nanobind's "
        "nb::ndarray<> call on the same array"
    )
    print(
        "targets: %d PASS, %d MISS"
        % (sum(v == "PASS" for _, v in results), sum(v == "MISS" for _, v in results))
    )
    if not os.path.isdir(os.path.join(args.wheel, "tvm_ffi")):
        print("wheel tables skipped: no apache-tvm-ffi wheel in %s (--wheel)" % args.wheel)
        return
    run_calls_table(args.build_dir, args.wheel, repeat, budget, args.cpu_time)
    try:
        import torch  # noqa: F401
    except ImportError:
        print("torch table skipped: torch is not importable")
        return
    run_torch_table(args.build_dir, args.wheel, repeat, budget, args.cpu_time)


if __name__ == "__main__":
    main()
