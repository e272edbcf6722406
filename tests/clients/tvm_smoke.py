"""Apache TVM on this tvm_ffi: run by tests/clients/test_clients.py in a venv holding TVM's wheel.

Each step prints "ok <name>"; the first failure raises. argv[1] is a scratch directory.
"""

import os
import sys

import numpy as np

out_dir = sys.argv[1]


def step(name):
    print("ok", name, flush=True)


import tvm  # noqa: E402
from tvm import relax, te  # noqa: E402
from tvm.script import ir as I  # noqa: E402
from tvm.script import relax as R  # noqa: E402

# TVM falls back to a runtime-only mode when libtvm_compiler.so cannot load.
assert not tvm.base._RUNTIME_ONLY, "TVM runs runtime-only: libtvm_compiler.so did not load"
assert tvm.get_global_func("relax.transform.LegalizeOps", allow_missing=True) is not None
step("import")

# A TE function compiled for the CPU, run, exported, loaded back.
n = 16
A = te.placeholder((n,), "float32", name="A")
B = te.compute((n,), lambda i: A[i] * 2.0 + 1.0, name="B")
lib = tvm.compile(te.create_prim_func([A, B]).with_attr("global_symbol", "add"), target="llvm")
x = np.arange(n, dtype="float32")
a = tvm.runtime.tensor(x)
b = tvm.runtime.tensor(np.zeros(n, dtype="float32"))
lib["add"](a, b)
np.testing.assert_allclose(b.numpy(), x * 2 + 1)
step("te_compile_run")

path = os.path.join(out_dir, "te_add.so")
lib.export_library(path)
loaded = tvm.runtime.load_module(path)
b2 = tvm.runtime.tensor(np.zeros(n, dtype="float32"))
loaded["add"](a, b2)
np.testing.assert_allclose(b2.numpy(), x * 2 + 1)
step("te_export_load")

# The same function as C source, compiled by export_library.
c_lib = tvm.compile(te.create_prim_func([A, B]).with_attr("global_symbol", "add"), target="c")
assert "add" in c_lib.mod.inspect_source()
c_path = os.path.join(out_dir, "te_add_c.so")
c_lib.export_library(c_path)
c_loaded = tvm.runtime.load_module(c_path)
b3 = tvm.runtime.tensor(np.zeros(n, dtype="float32"))
c_loaded["add"](a, b3)
np.testing.assert_allclose(b3.numpy(), x * 2 + 1)
step("c_source_export_load")


# A small Relax model through the VM, then exported and loaded back.
@I.ir_module
class Model:
    @R.function
    def main(x: R.Tensor((4, 8), "float32"), w: R.Tensor((8, 3), "float32")):
        with R.dataflow():
            y = R.matmul(x, w)
            z = R.nn.relu(y)
            R.output(z)
        return z


ex = tvm.compile(Model, target="llvm")
rng = np.random.default_rng(0)
xv = rng.standard_normal((4, 8)).astype("float32")
wv = rng.standard_normal((8, 3)).astype("float32")
expected = np.maximum(xv @ wv, 0)
vm = relax.VirtualMachine(ex, tvm.cpu())
got = vm["main"](tvm.runtime.tensor(xv), tvm.runtime.tensor(wv))
np.testing.assert_allclose(got.numpy(), expected, rtol=1e-5, atol=1e-5)
step("relax_vm")

vm_path = os.path.join(out_dir, "relax_model.so")
ex.export_library(vm_path)
vm2 = relax.VirtualMachine(tvm.runtime.load_module(vm_path), tvm.cpu())
got2 = vm2["main"](tvm.runtime.tensor(xv), tvm.runtime.tensor(wv))
np.testing.assert_allclose(got2.numpy(), expected, rtol=1e-5, atol=1e-5)
step("relax_export_load")

# TVMScript printing and parsing back.
text = Model.script()
tvm.ir.assert_structural_equal(tvm.script.from_source(text), Model)
step("script_roundtrip")
