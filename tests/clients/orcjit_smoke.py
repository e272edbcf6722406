"""apache-tvm-ffi-orcjit on this tvm_ffi: JIT-loads object files built against a set of tvm-ffi
headers (argv[1]: include directory, argv[2]: scratch directory, argv[3]: a label), calls
functions that build and release containers, and prints "ok <label> <step>" per step."""

import os
import subprocess
import sys

include_dir, out_dir, label = sys.argv[1], sys.argv[2], sys.argv[3]

SOURCE = r"""
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/map.h>
#include <tvm/ffi/container/tuple.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/string.h>

namespace ffi = tvm::ffi;

int64_t AddOne(int64_t x) { return x + 1; }

int64_t SumNested(int64_t n) {
  // Nested containers built and released inside the JIT-loaded code.
  ffi::Array<ffi::Any> outer;
  for (int64_t i = 0; i < n; ++i) {
    ffi::Map<ffi::String, ffi::Any> m{{"v", i}, {"arr", ffi::Array<int64_t>{i, i}}};
    outer.push_back(ffi::Tuple<int64_t, ffi::Any>(i, m));
  }
  int64_t total = 0;
  for (const ffi::Any& item : outer) {
    auto t = item.cast<ffi::Tuple<int64_t, ffi::Any>>();
    auto m = t.get<1>().cast<ffi::Map<ffi::String, ffi::Any>>();
    total += t.get<0>() + m["arr"].cast<ffi::Array<int64_t>>()[1];
  }
  return total;
}

ffi::Array<int64_t> MakeArray(int64_t n) {
  ffi::Array<int64_t> out;
  for (int64_t i = 0; i < n; ++i) out.push_back(i * i);
  return out;
}

TVM_FFI_DLL_EXPORT_TYPED_FUNC(add_one, AddOne);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(sum_nested, SumNested);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(make_array, MakeArray);
"""

src = os.path.join(out_dir, "jit_%s.cc" % label)
obj = os.path.join(out_dir, "jit_%s.o" % label)
with open(src, "w") as f:
    f.write(SOURCE)
subprocess.run(
    ["g++", "-std=c++17", "-O1", "-fPIC", "-c", src, "-o", obj, "-I", include_dir], check=True
)

import tvm_ffi_orcjit  # noqa: E402

session = tvm_ffi_orcjit.ExecutionSession()
# Kept alive: the Array returned below is made by the JIT-loaded code.
mod = session.load_module(obj, keep_module_alive=True)
assert mod.get_function("add_one")(41) == 42
print("ok", label, "call", flush=True)
assert mod.get_function("sum_nested")(100) == 2 * sum(range(100))
print("ok", label, "containers", flush=True)
assert list(mod.get_function("make_array")(5)) == [0, 1, 4, 9, 16]
print("ok", label, "array_result", flush=True)
