#!/usr/bin/env python3
"""The torch rows of bench_calls.py timed for a loaded machine: thread CPU time, many short rounds.

Usage: python benchmarks/bench_torch_cpu.py KERNELS.so
       PYTHONPATH=/tmp/tvm_peer python benchmarks/bench_torch_cpu.py KERNELS_WHEEL.so

KERNELS.so is benchmarks/peers/tvm_ffi_tensor_kernels.cc as bench_calls.py builds it
(tensor_kernels_ours_*.so / tensor_kernels_wheel_*.so in its build directory). Each of 25 rounds
times every statement over 10 000 calls by this thread's CPU time (time spent descheduled is not
counted); the best round per statement is printed, in ns per call. Run both sides back to back,
a few times, and compare the same statement's figures.
"""

import sys
import time
import timeit

import torch
import tvm_ffi

STATEMENTS = ["view1(x)", "view2(x, y)", "view4(x, y, z, w)", "tensor_nop(x)", "from_dlpack(x)"]


def main():
    m = tvm_ffi.load_module(sys.argv[1])
    x, y, z, w = (torch.zeros(16) for _ in range(4))
    ns = {
        "view1": m["view_nop1"],
        "view2": m["view_nop2"],
        "view4": m["view_nop4"],
        "tensor_nop": m["tensor_nop"],
        "from_dlpack": tvm_ffi.from_dlpack,
        "x": x,
        "y": y,
        "z": z,
        "w": w,
    }
    timers = {s: timeit.Timer(s, timer=time.thread_time, globals=ns) for s in STATEMENTS}
    best = dict.fromkeys(STATEMENTS, float("inf"))
    for _ in range(25):
        for stmt, timer in timers.items():
            best[stmt] = min(best[stmt], timer.timeit(10000) / 10000 * 1e9)
    for stmt in STATEMENTS:
        print("%-24s %8.1f" % (stmt, best[stmt]))


if __name__ == "__main__":
    main()
