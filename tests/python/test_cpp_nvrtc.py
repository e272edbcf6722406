"""tvm_ffi.cpp.nvrtc.nvrtc_compile: the missing-package error for real, and its use of
cuda-python's NVRTC bindings through a stand-in ``cuda.bindings.nvrtc`` module (no GPU needed)."""

import ctypes
import enum
import importlib.util
import subprocess
import sys
import types

import pytest
from tvm_ffi.cpp import nvrtc as nvrtc_mod

CUBIN = b"\x7fELF fake cubin\x00tail"


class _Result(enum.IntEnum):
    NVRTC_SUCCESS = 0
    NVRTC_ERROR_INVALID_INPUT = 3
    NVRTC_ERROR_COMPILATION = 6


def _fill(buffer, data):
    """Writes data into a bytes object in place, as cuda-python's char* outputs do."""
    assert isinstance(buffer, bytes) and len(buffer) == len(data)
    ctypes.memmove(ctypes.c_char_p(buffer), data, len(data))


class FakeNVRTC(types.ModuleType):
    """Records the calls nvrtc_compile makes; compile_status/log choose the outcome."""

    nvrtcResult = _Result

    def __init__(self, compile_status=_Result.NVRTC_SUCCESS, log=b"", create_status=None):
        super().__init__("cuda.bindings.nvrtc")
        self.compile_status = compile_status
        self.create_status = create_status or _Result.NVRTC_SUCCESS
        self.log = log + b"\0"
        self.calls = []

    def nvrtcGetErrorString(self, status):
        return (_Result.NVRTC_SUCCESS, _Result(status).name.encode())

    def nvrtcCreateProgram(self, src, name, num_headers, headers, include_names):
        self.calls.append(("create", src, name, num_headers, headers, include_names))
        return (self.create_status, "prog")

    def nvrtcCompileProgram(self, prog, num_options, options):
        self.calls.append(("compile", prog, num_options, list(options)))
        return (self.compile_status,)

    def nvrtcGetProgramLogSize(self, prog):
        return (_Result.NVRTC_SUCCESS, len(self.log))

    def nvrtcGetProgramLog(self, prog, buffer):
        _fill(buffer, self.log)
        return (_Result.NVRTC_SUCCESS,)

    def nvrtcGetCUBINSize(self, prog):
        return (_Result.NVRTC_SUCCESS, len(CUBIN))

    def nvrtcGetCUBIN(self, prog, buffer):
        _fill(buffer, CUBIN)
        return (_Result.NVRTC_SUCCESS,)

    def nvrtcDestroyProgram(self, prog):
        self.calls.append(("destroy", prog))
        return (_Result.NVRTC_SUCCESS,)


def _fake_runtime(major, minor, device=0):
    runtime = types.ModuleType("cuda.bindings.runtime")
    runtime.cudaError_t = types.SimpleNamespace(cudaSuccess=0)
    runtime.cudaDeviceAttr = types.SimpleNamespace(
        cudaDevAttrComputeCapabilityMajor="major", cudaDevAttrComputeCapabilityMinor="minor"
    )
    runtime.queried = []
    runtime.cudaGetDevice = lambda: (0, device)

    def get_attribute(attr, dev):
        runtime.queried.append((attr, dev))
        return (0, major if attr == "major" else minor)

    runtime.cudaDeviceGetAttribute = get_attribute
    return runtime


@pytest.fixture
def install(monkeypatch):
    """Puts stand-ins for cuda.bindings.<name> modules into sys.modules for one test."""

    def put(**modules):
        monkeypatch.setitem(sys.modules, "cuda", types.ModuleType("cuda"))
        monkeypatch.setitem(sys.modules, "cuda.bindings", types.ModuleType("cuda.bindings"))
        for name, module in modules.items():
            monkeypatch.setitem(sys.modules, "cuda.bindings." + name, module)

    return put


def _cuda_python_installed():
    try:
        return importlib.util.find_spec("cuda.bindings.nvrtc") is not None
    except ImportError:
        return False


@pytest.mark.skipif(_cuda_python_installed(), reason="cuda-python is installed here")
def test_missing_cuda_python_raises_import_error_naming_the_package():
    with pytest.raises(ImportError, match="cuda-python"):
        nvrtc_mod.nvrtc_compile("__global__ void k() {}", arch="sm_90")


def test_blocked_cuda_bindings_raise_import_error_naming_the_package(monkeypatch):
    monkeypatch.setitem(sys.modules, "cuda.bindings.nvrtc", None)
    with pytest.raises(ImportError, match=r"pip install cuda-python"):
        nvrtc_mod.nvrtc_compile("__global__ void k() {}", arch="sm_90")


def test_import_tvm_ffi_cpp_does_not_import_nvrtc():
    code = "import sys, tvm_ffi, tvm_ffi.cpp; print('tvm_ffi.cpp.nvrtc' in sys.modules)"
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert out.strip() == "False"


def test_returns_the_cubin_bytes(install):
    fake = FakeNVRTC()
    install(nvrtc=fake)
    cubin = nvrtc_mod.nvrtc_compile("__global__ void k() {}", arch="sm_80")
    assert type(cubin) is bytes
    assert cubin == CUBIN


def test_source_and_name_reach_create_program_as_bytes(install):
    fake = FakeNVRTC()
    install(nvrtc=fake)
    nvrtc_mod.nvrtc_compile("__global__ void k() {}", name="my.cu", arch="sm_80")
    assert fake.calls[0] == ("create", b"__global__ void k() {}", b"my.cu", 0, [], [])


def test_arch_and_extra_opts_are_passed_in_order(install):
    fake = FakeNVRTC()
    install(nvrtc=fake)
    nvrtc_mod.nvrtc_compile("x", arch="sm_90a", extra_opts=["-std=c++17", "-I/inc"])
    compile_call = fake.calls[1]
    assert compile_call[0] == "compile"
    assert compile_call[2] == 3
    assert compile_call[3] == [b"--gpu-architecture=sm_90a", b"-std=c++17", b"-I/inc"]


def test_default_arch_is_the_current_device_compute_capability(install):
    fake = FakeNVRTC()
    runtime = _fake_runtime(9, 0, device=1)
    install(nvrtc=fake, runtime=runtime)
    nvrtc_mod.nvrtc_compile("x")
    assert fake.calls[1][3] == [b"--gpu-architecture=sm_90"]
    assert runtime.queried == [("major", 1), ("minor", 1)]


def test_failed_device_query_raises_runtime_error_suggesting_arch(install):
    runtime = _fake_runtime(9, 0)
    runtime.cudaGetDevice = lambda: (100, 0)
    install(nvrtc=FakeNVRTC(), runtime=runtime)
    with pytest.raises(RuntimeError, match="pass arch= explicitly"):
        nvrtc_mod.nvrtc_compile("x")


def test_compile_error_raises_runtime_error_with_the_log(install):
    log = b'my.cu(1): error: identifier "y" is undefined'
    fake = FakeNVRTC(compile_status=_Result.NVRTC_ERROR_COMPILATION, log=log)
    install(nvrtc=fake)
    with pytest.raises(RuntimeError) as info:
        nvrtc_mod.nvrtc_compile("x", name="my.cu", arch="sm_80")
    message = str(info.value)
    assert "NVRTC_ERROR_COMPILATION" in message
    assert 'identifier "y" is undefined' in message
    assert "my.cu" in message


def test_program_is_destroyed_after_a_failed_compile(install):
    fake = FakeNVRTC(compile_status=_Result.NVRTC_ERROR_COMPILATION, log=b"bad")
    install(nvrtc=fake)
    with pytest.raises(RuntimeError):
        nvrtc_mod.nvrtc_compile("x", arch="sm_80")
    assert fake.calls[-1] == ("destroy", "prog")


def test_program_is_destroyed_after_success(install):
    fake = FakeNVRTC()
    install(nvrtc=fake)
    nvrtc_mod.nvrtc_compile("x", arch="sm_80")
    assert fake.calls[-1] == ("destroy", "prog")


def test_failed_create_program_raises_runtime_error_naming_the_step(install):
    install(nvrtc=FakeNVRTC(create_status=_Result.NVRTC_ERROR_INVALID_INPUT))
    with pytest.raises(RuntimeError, match="nvrtcCreateProgram failed: NVRTC_ERROR_INVALID_INPUT"):
        nvrtc_mod.nvrtc_compile("x", arch="sm_80")


def test_virtual_arch_is_rejected_with_value_error(install):
    install(nvrtc=FakeNVRTC())
    with pytest.raises(ValueError, match="compute_90"):
        nvrtc_mod.nvrtc_compile("x", arch="compute_90")


def test_extra_opts_as_one_string_is_rejected(install):
    install(nvrtc=FakeNVRTC())
    with pytest.raises(TypeError, match="extra_opts"):
        nvrtc_mod.nvrtc_compile("x", arch="sm_80", extra_opts="-std=c++17")


def test_non_string_option_is_named_by_index(install):
    install(nvrtc=FakeNVRTC())
    with pytest.raises(TypeError, match=r"extra_opts\[1\]"):
        nvrtc_mod.nvrtc_compile("x", arch="sm_80", extra_opts=["-G", 3])
