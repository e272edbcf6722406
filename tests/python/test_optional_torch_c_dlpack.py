"""tvm_ffi._optional_torch_c_dlpack: torch.Tensor gets __dlpack_c_exchange_api__ when an
older torch lacks it (tensor_exchange.md 2.4), lazily, and never harms a torch that has it.

Older torch releases are simulated in subprocesses by removing the attribute from
torch.Tensor before tvm_ffi sees a torch tensor.
"""

import os
import subprocess
import sys
import textwrap
import types

import pytest
import tvm_ffi
from tvm_ffi import _optional_torch_c_dlpack as optional

torch = pytest.importorskip("torch")

ATTR = "__dlpack_c_exchange_api__"

# Prepended to every subprocess script: hides torch 2.13's table on torch.Tensor, keeping
# its address in `address` (an old torch, as tvm_ffi sees it).
HIDE_TABLE = """
import ctypes, sys, torch
get = ctypes.pythonapi.PyCapsule_GetPointer
get.restype = ctypes.c_void_p
get.argtypes = [ctypes.py_object, ctypes.c_char_p]
capsule = torch.Tensor.__dict__["__dlpack_c_exchange_api__"]
address = get(capsule, b"dlpack_exchange_api")
delattr(torch.Tensor, "__dlpack_c_exchange_api__")
assert not hasattr(torch.Tensor, "__dlpack_c_exchange_api__")
"""


def run_script(body, tmp_path, env_extra=None, ext_module=None):
    """Runs HIDE_TABLE + body in a fresh interpreter; returns its stdout lines. ext_module:
    source of a fake torch_c_dlpack_ext package importable by the script."""
    env = dict(os.environ)
    env.pop("TVM_FFI_DISABLE_TORCH_C_DLPACK", None)
    env.update(env_extra or {})
    if ext_module is not None:
        (tmp_path / "torch_c_dlpack_ext.py").write_text(textwrap.dedent(ext_module))
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(tmp_path), env.get("PYTHONPATH")]))
    proc = subprocess.run(
        [sys.executable, "-c", HIDE_TABLE + textwrap.dedent(body)],
        env=env,
        capture_output=True,
        text=True,
        cwd=str(tmp_path),
    )
    assert proc.returncode == 0, proc.stderr
    return proc.stdout.split()


# An extension package as torch_c_dlpack_ext would be: importing it publishes the table
# (here: torch's own, which the script hid) and leaves a trace in sys.modules["__main__"].
FAKE_EXT = """
import sys, torch
main = sys.modules["__main__"]
main.ext_imported = True
torch.Tensor.__dlpack_c_exchange_api__ = main.capsule
"""


def test_table_of_torch_with_the_attribute_is_left_as_it_is():
    before = torch.Tensor.__dict__[ATTR]
    assert optional.ensure_torch_c_dlpack() is True
    assert torch.Tensor.__dict__[ATTR] is before


def test_ensure_is_idempotent():
    first = optional.ensure_torch_c_dlpack()
    table = torch.Tensor.__dict__[ATTR]
    assert optional.ensure_torch_c_dlpack() is first
    assert torch.Tensor.__dict__[ATTR] is table


def test_torch_tensor_arguments_still_use_the_table():
    echo = tvm_ffi.get_global_func("testing.echo")
    assert type(echo(torch.zeros(2))) is torch.Tensor


def test_import_of_tvm_ffi_does_not_import_torch():
    code = "import sys, tvm_ffi; print('torch' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_v12_int_address_is_published_as_a_13_capsule(tmp_path):
    out = run_script(
        """
        torch.Tensor.__c_dlpack_exchange_api__ = address
        import tvm_ffi
        new = torch.Tensor.__dict__["__dlpack_c_exchange_api__"]
        print(type(new).__name__, get(new, b"dlpack_exchange_api") == address)
        """,
        tmp_path,
    )
    assert out == ["PyCapsule", "True"]


def test_v12_capsule_is_reused(tmp_path):
    out = run_script(
        """
        torch.Tensor.__c_dlpack_exchange_api__ = capsule
        import tvm_ffi
        print(torch.Tensor.__dict__["__dlpack_c_exchange_api__"] is capsule)
        """,
        tmp_path,
    )
    assert out == ["True"]


def test_extension_package_is_imported_when_torch_has_no_table(tmp_path):
    out = run_script(
        """
        import tvm_ffi
        print(getattr(sys.modules["__main__"], "ext_imported", False))
        print(torch.Tensor.__dict__["__dlpack_c_exchange_api__"] is capsule)
        """,
        tmp_path,
        ext_module=FAKE_EXT,
    )
    assert out == ["True", "True"]


def test_torch_imported_after_tvm_ffi_gets_its_table_at_the_first_tensor_argument(tmp_path):
    # HIDE_TABLE imports torch first; dropping it from sys.modules makes tvm_ffi's import
    # see a process without torch, as when torch is imported later.
    out = run_script(
        """
        saved = sys.modules.pop("torch")
        import tvm_ffi, tvm_ffi.testing
        from tvm_ffi import _optional_torch_c_dlpack as optional
        sys.modules["torch"] = saved
        print(getattr(sys.modules["__main__"], "ext_imported", False), optional._result)
        echo = tvm_ffi.get_global_func("testing.echo")
        result = echo(torch.zeros(2))
        print(getattr(sys.modules["__main__"], "ext_imported", False), optional._result)
        print(type(result).__module__)
        """,
        tmp_path,
        ext_module=FAKE_EXT,
    )
    assert out == ["False", "None", "True", "True", "torch"]


def test_without_any_table_torch_tensors_go_through_dlpack(tmp_path):
    # No compiler: the addon build fails (with a warning) and nothing else can publish a table.
    out = run_script(
        """
        import warnings
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            import tvm_ffi, tvm_ffi.testing
        from tvm_ffi import _optional_torch_c_dlpack as optional
        echo = tvm_ffi.get_global_func("testing.echo")
        result = echo(torch.arange(3.0))
        print(optional._result, type(result) is tvm_ffi.Tensor)
        print(sum(str(w.message).startswith(
            "Failed to JIT torch c dlpack extension, EnvTensorAllocator will not be enabled")
            for w in caught))
        """,
        tmp_path,
        env_extra={"CXX": "/nonexistent/c++", "TVM_FFI_CACHE_DIR": str(tmp_path / "cache")},
    )
    assert out == ["False", "True", "1"]


def test_disable_switch_skips_everything(tmp_path):
    out = run_script(
        """
        torch.Tensor.__c_dlpack_exchange_api__ = address
        import tvm_ffi, tvm_ffi.testing
        from tvm_ffi import _optional_torch_c_dlpack as optional
        echo = tvm_ffi.get_global_func("testing.echo")
        echo(torch.zeros(2))
        print(getattr(sys.modules["__main__"], "ext_imported", False))
        print(hasattr(torch.Tensor, "__dlpack_c_exchange_api__"), optional._result)
        """,
        tmp_path,
        env_extra={
            "TVM_FFI_DISABLE_TORCH_C_DLPACK": "1",
            "TVM_FFI_CACHE_DIR": str(tmp_path / "cache"),
        },
        ext_module=FAKE_EXT,
    )
    assert out == ["False", "False", "None"]
    # Nor is the addon built.
    assert not (tmp_path / "cache").exists()


def test_ensure_returns_none_when_disabled(monkeypatch):
    monkeypatch.setenv("TVM_FFI_DISABLE_TORCH_C_DLPACK", "1")
    assert optional.ensure_torch_c_dlpack() is None


def test_hook_that_raises_is_reported_and_dropped():
    seen = []

    def hook(cls):
        seen.append(cls)
        raise RuntimeError("hook failed")

    echo = tvm_ffi.get_global_func("testing.echo")
    reported = []
    old_unraisable = sys.unraisablehook
    sys.unraisablehook = reported.append
    tvm_ffi.core._set_exchange_missing_hook(hook)
    try:
        first = type("Fresh1", (), {})
        echo(first())
        echo(type("Fresh2", (), {})())
    finally:
        tvm_ffi.core._set_exchange_missing_hook(None)
        sys.unraisablehook = old_unraisable
    assert seen == [first]
    assert len(reported) == 1 and isinstance(reported[0].exc_value, RuntimeError)


def fake_torch(cuda_available, stream_cls):
    """A stand-in for the torch module as _patch_cuda_stream sees it (no CUDA here)."""
    cuda = types.SimpleNamespace(is_available=lambda: cuda_available, Stream=stream_cls)
    return types.SimpleNamespace(cuda=cuda)


def test_cuda_stream_gets_cuda_stream_protocol_when_cuda_is_available():
    class Stream:
        cuda_stream = 0x1234

    optional._patch_cuda_stream(fake_torch(True, Stream))
    assert Stream().__cuda_stream__() == (0, 0x1234)


def test_cuda_stream_is_not_patched_without_cuda():
    class Stream:
        cuda_stream = 1

    optional._patch_cuda_stream(fake_torch(False, Stream))
    assert not hasattr(Stream, "__cuda_stream__")


def test_existing_cuda_stream_protocol_is_kept():
    class Stream:
        cuda_stream = 2

        def __cuda_stream__(self):
            return "own"

    optional._patch_cuda_stream(fake_torch(True, Stream))
    assert Stream().__cuda_stream__() == "own"


# ---- the reference module's function names, which clients call -------------------------------


def _fake_torch(cuda_available, hip=None, cuda_version="12.4"):
    return types.SimpleNamespace(
        cuda=types.SimpleNamespace(is_available=lambda: cuda_available),
        version=types.SimpleNamespace(hip=hip, cuda=cuda_version),
    )


def test_torch_extension_device_is_cpu_unless_a_gpu_is_available():
    assert optional._torch_extension_device(_fake_torch(False)) == "cpu"
    assert optional._torch_extension_device(_fake_torch(True)) == "cuda"
    assert (
        optional._torch_extension_device(_fake_torch(True, hip="6.0", cuda_version=None)) == "rocm"
    )
    assert optional._torch_extension_device(_fake_torch(False, hip="6.0")) == "cpu"


def test_load_torch_c_dlpack_extension_leaves_torch_tensor_with_a_table():
    # torch 2.13 publishes its own table: nothing is loaded, and the table stays.
    assert optional.load_torch_c_dlpack_extension() is None
    assert hasattr(torch.Tensor, ATTR)


def test_check_and_update_publishes_a_v12_address_under_the_new_name():
    cls = type("OldTensor", (), {"__c_dlpack_exchange_api__": 1234})
    assert optional._check_and_update_dlpack_c_exchange_api(cls) is True
    assert type(getattr(cls, ATTR)).__name__ == "PyCapsule"


def test_check_and_update_is_false_for_a_class_without_a_table():
    assert optional._check_and_update_dlpack_c_exchange_api(type("Plain", (), {})) is False


def test_create_dlpack_exchange_api_capsule_names_the_capsule():
    capsule = optional._create_dlpack_exchange_api_capsule(1234)
    assert "dlpack_exchange_api" in repr(capsule)
