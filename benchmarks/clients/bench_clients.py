#!/usr/bin/env python3
"""Client workloads on this tree's tvm_ffi and on the apache-tvm-ffi wheel, side by side.

Usage: python benchmarks/clients/bench_clients.py [--work DIR] [--rounds N] [--setup-only]

Two venvs under --work (default build/bench-clients), made on first use:
  ours   sees the installed tvm_ffi (--system-site-packages), with the metadata-only
         apache-tvm-ffi stand-in of packaging/apache-tvm-ffi-provider and the clients;
  wheel  holds the apache-tvm-ffi wheel and the same clients (and torch, which xgrammar
         imports), nothing from the system.
Clients: Apache TVM and xgrammar, at the versions tests/clients pins. Each workload
(workloads.py) runs in a child process of each venv, alternating ours / wheel for --rounds
rounds; a figure is the best round. `import tvm` is a fresh process per round (wall time of
`python -c "import tvm"` minus that of `python -c "pass"` in the same venv).

This is a measurement, not a test: nothing collects it.
"""

import argparse
import pathlib
import subprocess
import sys
import time

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parent.parent
PROVIDER = ROOT / "packaging" / "apache-tvm-ffi-provider"
WORKLOADS = HERE / "workloads.py"

TVM = "apache-tvm==0.27.0.post1"
XGRAMMAR = "xgrammar==0.2.8"
# What xgrammar imports, without its pinned triton (a GPU compiler it does not need here).
XGRAMMAR_DEPS = ["pydantic", "transformers>=4.38.0", "typing-extensions>=4.9.0"]
WHEEL = "apache-tvm-ffi==0.1.15.post2"
TORCH = "torch==2.13.0"

ROWS = [
    ("import tvm", None),
    ("TVMScript print + parse (small Relax model)", "tvmscript_roundtrip"),
    ("Relax build, llvm (small Relax model)", "relax_build"),
    ("xgrammar JSON-schema compile + 7 token masks", "xgrammar_json_schema"),
]


def pip(python, *args):
    subprocess.run(
        [str(python), "-m", "pip", "install", "-q", "--disable-pip-version-check", *args],
        check=True,
    )


def make_venv(work, name):
    """The venv's python, created and filled on first use."""
    venv = work / name
    python = venv / "bin" / "python"
    if (venv / ".ready").exists():
        return python
    flags = ["--system-site-packages"] if name == "ours" else []
    subprocess.run([sys.executable, "-m", "venv", *flags, str(venv)], check=True)
    if name == "ours":
        pip(python, str(PROVIDER))
    else:
        # xgrammar imports torch; ours sees the system's (CI installs this CPU build).
        pip(python, WHEEL, "numpy", TORCH)
    pip(python, TVM)
    pip(python, "--no-deps", XGRAMMAR)
    pip(python, *XGRAMMAR_DEPS)
    (venv / ".ready").write_text("")
    return python


def which_tvm_ffi(python):
    return subprocess.check_output(
        [str(python), "-c", "import tvm_ffi, os; print(os.path.dirname(tvm_ffi.__file__))"],
        text=True,
        cwd="/tmp",
    ).strip()


def time_process(python, code):
    start = time.perf_counter()
    subprocess.run([str(python), "-c", code], check=True, cwd="/tmp")
    return time.perf_counter() - start


def time_import(python):
    return time_process(python, "import tvm") - time_process(python, "pass")


def time_workload(python, name, inner):
    out = subprocess.check_output(
        [str(python), str(WORKLOADS), name, str(inner)], text=True, cwd="/tmp"
    )
    return float(out.strip().splitlines()[-1])


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--work", default=str(ROOT / "build" / "bench-clients"))
    parser.add_argument("--rounds", type=int, default=5, help="alternating rounds per row")
    parser.add_argument("--inner", type=int, default=3, help="timings per workload process")
    parser.add_argument("--setup-only", action="store_true")
    args = parser.parse_args()
    work = pathlib.Path(args.work)
    work.mkdir(parents=True, exist_ok=True)
    pythons = {name: make_venv(work, name) for name in ("ours", "wheel")}
    if args.setup_only:
        return
    for name, python in pythons.items():
        print("%-5s tvm_ffi from %s" % (name, which_tvm_ffi(python)))
    print(
        "\nseconds, best of %d alternating rounds (each workload: best of %d runs in one "
        "process after a warm-up)\n" % (args.rounds, args.inner)
    )
    header = "%-48s%10s%10s%8s" % ("workload", "ours", "wheel", "ratio")
    print(header)
    print("-" * len(header))
    slower = 0
    for row, workload in ROWS:
        best = {name: float("inf") for name in pythons}
        for _ in range(args.rounds):
            for name, python in pythons.items():
                t = (
                    time_import(python)
                    if workload is None
                    else time_workload(python, workload, args.inner)
                )
                best[name] = min(best[name], t)
        ratio = best["ours"] / best["wheel"]
        slower += ratio > 1.0
        print("%-48s%10.4f%10.4f%7.2fx" % (row, best["ours"], best["wheel"], ratio), flush=True)
    print("\nrows where ours is slower than the wheel: %d" % slower)


if __name__ == "__main__":
    main()
