"""The "testing.*" functions come from libtvm_ffi_testing.so, which tvm_ffi.testing
loads from $TVM_FFI_TEST_LIB_DIR; the runtime alone registers none of them."""

import os
import subprocess
import sys

import tvm_ffi
import tvm_ffi.testing


def _run(code, env_update):
    env = dict(os.environ)
    for key, value in env_update.items():
        if value is None:
            env.pop(key, None)
        else:
            env[key] = value
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)


def test_testing_globals_are_module_functions():
    assert tvm_ffi.testing.add_one(41) == 42
    assert tvm_ffi.testing.echo("x") == "x"


def test_unknown_testing_attribute_raises_attribute_error():
    try:
        tvm_ffi.testing.no_such_function
    except AttributeError as err:
        assert "no_such_function" in str(err)
    else:
        raise AssertionError("expected AttributeError")


def test_runtime_alone_registers_no_testing_function():
    out = _run(
        "import tvm_ffi\n"
        "names = [n for n in tvm_ffi.registry.list_global_func_names() if n.startswith('testing.')]\n"
        "print(len(names), names[:3])\n",
        {},
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("0 "), out.stdout


def test_import_without_env_var_names_the_variable():
    out = _run("import tvm_ffi.testing", {"TVM_FFI_TEST_LIB_DIR": None})
    assert out.returncode != 0
    assert "TVM_FFI_TEST_LIB_DIR" in out.stderr and "is not set" in out.stderr, out.stderr


def test_import_with_wrong_directory_names_the_library_and_directory(tmp_path):
    out = _run("import tvm_ffi.testing", {"TVM_FFI_TEST_LIB_DIR": str(tmp_path)})
    assert out.returncode != 0
    assert "libtvm_ffi_testing.so" in out.stderr and str(tmp_path) in out.stderr, out.stderr
    assert "TVM_FFI_TEST_LIB_DIR" in out.stderr
