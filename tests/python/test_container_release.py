"""Freeing containers nested far deeper than the C stack allows frames for: the
release of the outermost one must not recurse once per level (a crash, so each
case runs in a child process)."""

import subprocess
import sys

import pytest
import tvm_ffi

DEPTH = 500000

SCRIPT = r"""
import sys
import tvm_ffi
make = {
    "Array": lambda x: tvm_ffi.Array([x]),
    "List": lambda x: tvm_ffi.List([x]),
    "Map": lambda x: tvm_ffi.Map({"k": x}),
    "Dict": lambda x: tvm_ffi.Dict({"k": x}),
}[sys.argv[1]]
x = None
for _ in range(int(sys.argv[2])):
    x = make(x)
del x
print("freed")
"""


@pytest.mark.parametrize("kind", ["Array", "List", "Map", "Dict"])
def test_deeply_nested_container_is_freed_without_crashing(kind):
    proc = subprocess.run(
        [sys.executable, "-c", SCRIPT, kind, str(DEPTH)], capture_output=True, text=True
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.strip() == "freed"


def test_deep_chain_under_a_live_reference_stays_readable():
    x = None
    for i in range(1000):
        x = tvm_ffi.Array([x, i])
    inner = x[0][0]
    del x
    assert inner[1] == 997
    assert inner[0][1] == 996
