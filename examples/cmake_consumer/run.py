"""Load the library built by this CMake project and call its functions.

python examples/cmake_consumer/run.py <cmake build directory>
"""

import os
import sys

import tvm_ffi

build_dir = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "build")
mod = tvm_ffi.load_module(os.path.join(build_dir, "consumer.so"))

print(mod.greet("CMake"))
print("sum_all([1, 2, 3, 4]) =", mod.sum_all([1, 2, 3, 4]))
print("doc of greet:", mod.get_function_doc("greet"))
assert mod.greet("CMake") == "hello, CMake from C++"
assert mod.sum_all([1, 2, 3, 4]) == 10
