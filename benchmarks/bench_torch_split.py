#!/usr/bin/env python3
"""Timing split of the torch rows of bench_calls.py that torch's own work dominates.

Usage: python benchmarks/bench_torch_split.py KERNELS.so
       PYTHONPATH=/tmp/tvm_peer python benchmarks/bench_torch_split.py KERNELS_WHEEL.so

KERNELS.so is benchmarks/peers/tvm_ffi_tensor_kernels.cc as bench_calls.py builds it
(tensor_kernels_ours_*.so / tensor_kernels_wheel_*.so in its build directory). Prints ns per
call of the env-allocated result next to torch.empty, and of torch.from_dlpack(tvm_ffi.Tensor)
next to the two producer methods torch calls. Run it for both sides back to back.
"""

import sys
import timeit

import torch
import tvm_ffi

STATEMENTS = [
    "view1(x)",
    "alloc_like(x)",
    "torch.empty(16)",
    "torch.from_dlpack(t)",
    "t.__dlpack_device__()",
    "t.__dlpack__(max_version=(1, 0))",
]


def main():
    m = tvm_ffi.load_module(sys.argv[1])
    x = torch.zeros(16)
    ns = {
        "torch": torch,
        "x": x,
        "t": tvm_ffi.from_dlpack(x),
        "view1": m["view_nop1"],
        "alloc_like": m["env_alloc_like"],
    }
    for stmt in STATEMENTS:
        timer = timeit.Timer(stmt, globals=ns)
        best = min(timer.timeit(20000) / 20000 * 1e9 for _ in range(5))
        print("%-36s %10.1f" % (stmt, best))


if __name__ == "__main__":
    main()
