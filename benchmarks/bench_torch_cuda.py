#!/usr/bin/env python3
"""The torch rows of bench_torch_cpu.py with CUDA tensors: the path a kernel library lives on.

Usage: python benchmarks/bench_torch_cuda.py KERNELS.so
       PYTHONPATH=/tmp/tvm_peer python benchmarks/bench_torch_cuda.py KERNELS_WHEEL.so

KERNELS.so is benchmarks/peers/tvm_ffi_tensor_kernels.cc built against one implementation's
headers (tests/gpu/run_gpu_checks.sh builds both). The kernels do no GPU work: what is timed is
the call itself with CUDA tensor arguments, which also reads torch's current stream for the
callee. Rows marked "(stream)" run inside `with torch.cuda.stream(s)`, where that stream is not
the default one. Each of 25 rounds times every statement over 10 000 calls by wall-clock time; the
best round per statement is printed, in ns per call. Run both sides back to back and compare.
"""

import sys
import time
import timeit

import torch
import tvm_ffi

STATEMENTS = [
    "view1(x)",
    "view2(x, y)",
    "view4(x, y, z, w)",
    "tensor_nop(x)",
    "from_dlpack(x)",
    "env_alloc_like(x)",
]


def _time_rows(ns, statements, rounds=25, number=10000):
    timers = {s: timeit.Timer(s, timer=time.perf_counter, globals=ns) for s in statements}
    best = dict.fromkeys(statements, float("inf"))
    for _ in range(rounds):
        for stmt, timer in timers.items():
            best[stmt] = min(best[stmt], timer.timeit(number) / number * 1e9)
    return best


def main():
    if not torch.cuda.is_available():
        sys.exit("bench_torch_cuda.py needs torch with a visible CUDA device")
    m = tvm_ffi.load_module(sys.argv[1])
    x, y, z, w = (torch.zeros(16, device="cuda") for _ in range(4))
    ns = {
        "view1": m["view_nop1"],
        "view2": m["view_nop2"],
        "view4": m["view_nop4"],
        "tensor_nop": m["tensor_nop"],
        "env_alloc_like": m["env_alloc_like"],
        "from_dlpack": tvm_ffi.from_dlpack,
        "x": x,
        "y": y,
        "z": z,
        "w": w,
    }
    best = _time_rows(ns, STATEMENTS)
    stream = torch.cuda.Stream()
    with torch.cuda.stream(stream):
        in_stream = _time_rows(ns, ["view1(x)", "view4(x, y, z, w)"])
    torch.cuda.synchronize()
    for stmt in STATEMENTS:
        print("%-28s %8.1f" % (stmt, best[stmt]))
    for stmt, value in in_stream.items():
        print("%-28s %8.1f" % (stmt + " (stream)", value))


if __name__ == "__main__":
    main()
