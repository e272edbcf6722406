"""tvm_ffi.cpp parameters as in the reference: keyword-only, sources=, output=, C, objects."""

import ctypes
import inspect
import shutil

import pytest
import tvm_ffi
import tvm_ffi.cpp
from gpu_toolchain import nvcc_available

pytestmark = pytest.mark.skipif(
    shutil.which("c++") is None and shutil.which("g++") is None, reason="needs a C++ compiler"
)

SOURCE = """
#include <tvm/ffi/function.h>
int64_t twice(int64_t x) { return 2 * x; }
TVM_FFI_DLL_EXPORT_TYPED_FUNC(twice, twice);
"""


@pytest.fixture(autouse=True)
def _cache(tmp_path, monkeypatch):
    monkeypatch.setenv("TVM_FFI_CACHE_DIR", str(tmp_path / "cache"))


def test_all_names():
    assert set(tvm_ffi.cpp.__all__) == {
        "build",
        "build_inline",
        "load",
        "load_inline",
        "to_cpp_dtype",
    }


@pytest.mark.parametrize("func", ["build", "build_inline", "load", "load_inline"])
def test_parameters_after_name_are_keyword_only(func):
    params = list(inspect.signature(getattr(tvm_ffi.cpp, func)).parameters.values())
    assert params[0].name == "name"
    assert all(p.kind is inspect.Parameter.KEYWORD_ONLY for p in params[1:])


def test_signatures_match_reference():
    sig = inspect.signature(tvm_ffi.cpp.build_inline)
    assert list(sig.parameters) == [
        "name",
        "cpp_sources",
        "cuda_sources",
        "functions",
        "extra_cflags",
        "extra_cuda_cflags",
        "extra_ldflags",
        "extra_include_paths",
        "build_directory",
        "embed_cubin",
        "backend",
        "output",
    ]
    assert list(inspect.signature(tvm_ffi.cpp.load).parameters) == [
        "name",
        "sources",
        "cpp_files",
        "cuda_files",
        "extra_cflags",
        "extra_cuda_cflags",
        "extra_ldflags",
        "extra_include_paths",
        "build_directory",
        "backend",
        "keep_module_alive",
    ]


def test_positional_source_is_rejected():
    with pytest.raises(TypeError):
        tvm_ffi.cpp.build_inline("m", "int x;")


def test_build_with_sources_keyword(tmp_path):
    # Regression: cpp.build(sources=[...]) raised TypeError.
    src = tmp_path / "twice.cc"
    src.write_text(SOURCE)
    mod = tvm_ffi.load_module(tvm_ffi.cpp.build("twice", sources=[str(src)]))
    assert mod["twice"](21) == 42


def test_load_with_sources_str_and_keep_module_alive(tmp_path):
    src = tmp_path / "twice.cc"
    src.write_text(SOURCE)
    mod = tvm_ffi.cpp.load("twice", sources=str(src), keep_module_alive=False)
    assert mod["twice"](4) == 8


def test_build_without_sources_is_assertion_error():
    with pytest.raises(AssertionError):
        tvm_ffi.cpp.build("empty")


def test_load_inline_after_bare_import():
    # Regression: tvm_ffi.cpp raised AttributeError unless imported by hand.
    mod = tvm_ffi.cpp.load_inline(
        "inline_twice", cpp_sources="int64_t twice(int64_t x) { return 2 * x; }", functions="twice"
    )
    assert mod.twice(5) == 10


def test_output_object_file_only_compiles(tmp_path):
    path = tvm_ffi.cpp.build_inline(
        "obj_only", cpp_sources="int seven() { return 7; }", output="obj_only.o"
    )
    assert path.endswith("obj_only.o")
    with open(path, "rb") as f:
        assert f.read(4) == b"\x7fELF"


def test_object_and_c_sources_link_together(tmp_path):
    c_src = tmp_path / "helper.c"
    c_src.write_text("int helper_c(void) { return 11; }\n")
    obj = tvm_ffi.cpp.build("helper", sources=[str(c_src)], output="helper.o")
    cc = tmp_path / "main.cc"
    cc.write_text(
        'extern "C" int helper_c(void);\nextern "C" int call_helper() { return helper_c() + 1; }\n'
    )
    lib = ctypes.CDLL(tvm_ffi.cpp.build("mixed", sources=[str(cc), obj]))
    assert lib.call_helper() == 12


def test_custom_output_name(tmp_path):
    path = tvm_ffi.cpp.build_inline("named", cpp_sources="int x = 1;", output="libcustom.so")
    assert path.endswith("libcustom.so")


def test_cuda_sources_without_nvcc_name_the_compiler(monkeypatch, tmp_path):
    from tvm_ffi.cpp import _toolchain

    monkeypatch.setenv("CXX", shutil.which("c++") or shutil.which("g++"))
    monkeypatch.setenv("CUDA_HOME", str(tmp_path / "no_cuda"))
    monkeypatch.delenv("CUDA_PATH", raising=False)
    monkeypatch.setenv("PATH", str(tmp_path / "empty_bin"))
    monkeypatch.setitem(
        _toolchain._GPU_TOOLS,
        "cuda",
        ("nvcc", ("CUDA_HOME", "CUDA_PATH"), str(tmp_path / "no_default")),
    )
    with pytest.raises(RuntimeError, match="nvcc"):
        tvm_ffi.cpp.build_inline("cuda_mod", cuda_sources="__global__ void k() {}", backend="cuda")


def test_invalid_backend():
    with pytest.raises(ValueError, match="Invalid backend"):
        tvm_ffi.cpp.build_inline("bk", cpp_sources="int x;", backend="metal")


def test_embed_cubin_on_windows_is_not_implemented(monkeypatch):
    import tvm_ffi.cpp as cpp_mod

    monkeypatch.setattr(cpp_mod.os, "name", "nt")
    with pytest.raises(NotImplementedError, match="Windows"):
        tvm_ffi.cpp.build_inline("cubin", cpp_sources="int x;", embed_cubin={"k": b"\0"})


@pytest.mark.parametrize(
    "text, expected",
    [
        ("int8", "int8_t"),
        ("uint64", "uint64_t"),
        ("float32", "float"),
        ("float64", "double"),
        ("bool", "bool"),
        ("torch.int32", "int32_t"),
    ],
)
def test_to_cpp_dtype(text, expected):
    assert tvm_ffi.cpp.to_cpp_dtype(text) == expected


def test_to_cpp_dtype_unknown():
    with pytest.raises(ValueError):
        tvm_ffi.cpp.to_cpp_dtype("complex64")


def test_build_failure_message_starts_with_ninja_status(tmp_path):
    if shutil.which("ninja") is None:
        pytest.skip("needs ninja")
    with pytest.raises(RuntimeError, match="ninja exited with status"):
        tvm_ffi.cpp.build_inline("broken_mod", cpp_sources="int f() { return nope; }")


@pytest.mark.skipif(not nvcc_available(), reason="needs nvcc")
def test_cpp_and_cuda_sources_build_one_module():
    cuda = """
__global__ void bump(int* x) { x[threadIdx.x] += 1; }
int64_t cuda_side(int64_t x) { return x * 3; }
"""
    cpp = """
int64_t cuda_side(int64_t x);
int64_t from_cpp(int64_t x) { return cuda_side(x) + 1; }
"""
    mod = tvm_ffi.cpp.load_inline(
        "cpp_and_cuda", cpp_sources=cpp, cuda_sources=cuda, functions=["from_cpp"]
    )
    assert mod.from_cpp(4) == 13
