"""Python reflection over a type a peer-built library registers: the testing.pyreflect.*
fixtures (cpp/src/testing/testing_pyreflect.cc) compiled with the wheel's headers, loaded
into our runtime and bound with our register_object (TypeInfo from the peer's field and method
records, the generated __init__ with keywords, properties, methods); and the same source built
with our headers under the wheel's Python. Each direction runs in its own process. The keys
are renamed to interop.pyreflect.*: `import tvm_ffi` loads our testing library, which registers
the testing.pyreflect.* types itself."""

import os

FIXTURE = os.path.join(
    os.path.dirname(__file__), "..", "..", "cpp", "src", "testing", "testing_pyreflect.cc"
)

SCRIPT = """
import ctypes, inspect, sys
import tvm_ffi

ctypes.CDLL(sys.argv[1], mode=ctypes.RTLD_GLOBAL)

@tvm_ffi.register_object("interop.pyreflect.AutoInit")
class AutoInit(tvm_ffi.Object):
    pass

@tvm_ffi.register_object("interop.pyreflect.Pair")
class Pair(tvm_ffi.Object):
    pass

obj = AutoInit(1, c=5)
assert (obj.a, obj.b, obj.c, obj.d) == (1, 42, 5, 99), (obj.a, obj.b, obj.c, obj.d)
obj.d = 7
assert obj.d == 7
params = list(inspect.signature(AutoInit.__init__).parameters)
assert params == ["self", "a", "d", "c"], params
info = AutoInit.__tvm_ffi_type_info__
fields = {f.name: f for f in info.fields}
assert not fields["b"].c_init and fields["b"].c_default == 42
assert fields["c"].c_kw_only and repr(fields["a"].ty) == "int"
p = Pair(3, 4)
assert p.sum() == 7 and (Pair.swap(1, 2).a, Pair.swap(1, 2).b) == (2, 1)
try:
    p.a = 1
except AttributeError:
    pass
else:
    raise AssertionError("read-only field accepted an assignment")
print("pyreflect interop ok")
"""


def _source():
    with open(FIXTURE) as f:
        return f.read().replace('"testing.pyreflect.', '"interop.pyreflect.')


def test_peer_built_types_bind_to_our_register_object(build_with_peer_headers, run_under_ours):
    lib = build_with_peer_headers("pyreflect_interop", _source())
    out = run_under_ours(SCRIPT, lib)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "pyreflect interop ok" in out.stdout


def test_our_built_types_bind_to_peer_register_object(build_with_our_headers, run_under_peer):
    lib = build_with_our_headers("pyreflect_interop", _source())
    out = run_under_peer(SCRIPT, lib)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "pyreflect interop ok" in out.stdout
