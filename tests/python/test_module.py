"""Modules: a library compiled during the test with tvm-ffi-config flags, then loaded."""

import os
import shlex
import subprocess
import sys

import pytest

import tvm_ffi

LIB_SOURCE = r"""
#define TVM_FFI_DLL_EXPORT_INCLUDE_METADATA 1
#include <tvm/ffi/function.h>
#include <tvm/ffi/string.h>

int64_t AddOne(int64_t x) { return x + 1; }
tvm::ffi::String Greet(tvm::ffi::String name) { return tvm::ffi::String("hello " + std::string(name)); }

TVM_FFI_DLL_EXPORT_TYPED_FUNC(add_one, AddOne);
TVM_FFI_DLL_EXPORT_TYPED_FUNC_DOC(add_one, "Add one to x.");
TVM_FFI_DLL_EXPORT_TYPED_FUNC(greet, Greet);
"""


def _config(*flags):
    out = subprocess.run([sys.executable, "-m", "tvm_ffi.config", *flags],
                         check=True, capture_output=True, text=True)
    return out.stdout.strip()


@pytest.fixture(scope="module")
def built_lib(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("module")
    src = tmp / "mylib.cc"
    src.write_text(LIB_SOURCE)
    out = tmp / "mylib.so"
    flags = shlex.split(_config("--cxxflags", "--ldflags", "--libs"))
    cmd = ["g++", "-shared", "-fPIC", "-O1", str(src), "-o", str(out)] + flags
    result = subprocess.run(cmd, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    return str(out)


def test_load_module_and_call_by_item_and_attribute(built_lib):
    mod = tvm_ffi.load_module(built_lib)
    assert isinstance(mod, tvm_ffi.Module)
    assert mod["add_one"](1) == 2
    assert mod.add_one(41) == 42
    assert mod.greet("ffi") == "hello ffi"


def test_get_function_missing_returns_none(built_lib):
    mod = tvm_ffi.load_module(built_lib)
    assert mod.get_function("nope") is None
    assert isinstance(mod.get_function("add_one"), tvm_ffi.Function)


def test_implements_function(built_lib):
    mod = tvm_ffi.load_module(built_lib)
    assert mod.implements_function("add_one")
    assert not mod.implements_function("nope")


def test_missing_function_attribute_error_names_function_and_library(built_lib):
    mod = tvm_ffi.load_module(built_lib)
    with pytest.raises(AttributeError) as info:
        mod.does_not_exist
    assert "does_not_exist" in str(info.value) and "mylib.so" in str(info.value)
    with pytest.raises(AttributeError, match="missing_item"):
        mod["missing_item"]


def test_function_metadata_and_doc(built_lib):
    mod = tvm_ffi.load_module(built_lib)
    meta = mod.get_function_metadata("add_one")
    assert meta is not None and "type_schema" in meta
    assert "Add one" in mod.get_function_doc("add_one")
    assert mod.get_function_doc("greet") is None


def test_function_outlives_module_object(built_lib):
    f = tvm_ffi.load_module(built_lib).add_one
    import gc

    gc.collect()
    assert f(5) == 6


def test_load_missing_file_raises_naming_path(tmp_path):
    path = str(tmp_path / "absent.so")
    with pytest.raises(FileNotFoundError, match="absent.so"):
        tvm_ffi.load_module(path)


def test_load_broken_file_raises_naming_path(tmp_path):
    path = tmp_path / "broken.so"
    path.write_bytes(b"not an elf file")
    with pytest.raises(Exception, match="broken.so"):
        tvm_ffi.load_module(str(path))


def test_system_lib_is_module():
    assert isinstance(tvm_ffi.system_lib(), tvm_ffi.Module)
