"""Quickstart: compile a C++ kernel from Python and call it on numpy arrays without copying.

    pip install . numpy && python examples/quickstart/run.py

The first run compiles add_one.cc (a few seconds); later runs load the cached library.
"""

import pathlib

import numpy as np
import tvm_ffi.cpp

source = (pathlib.Path(__file__).parent / "add_one.cc").read_text()
mod = tvm_ffi.cpp.load_inline("quickstart_add_one", cpp_sources=source, functions=["add_one"])

x = np.arange(5, dtype=np.float32)
y = np.zeros_like(x)
mod.add_one(x, y)  # the kernel reads x and writes y in place: numpy memory, no copy
print("x          =", x)
print("add_one(x) =", y)
assert np.array_equal(y, x + 1), y

try:
    mod.add_one(x.astype(np.float64), y)
except TypeError as err:  # the kernel's TVM_FFI_CHECK surfaces as a Python exception
    print("float64 input rejected:", str(err).splitlines()[0])
