"""libtvm_ffi_testing (the "testing.*" functions and test types) is installed next to
libtvm_ffi and loaded by a plain ``import tvm_ffi``, as in the apache-tvm-ffi wheel;
``tvm_ffi.testing`` adds the Python side (classes, create_object, pytest markers)."""

import os
import subprocess
import sys

import pytest
import tvm_ffi
import tvm_ffi.testing


def _run(code, env_update=None):
    env = dict(os.environ)
    for key, value in (env_update or {}).items():
        if value is None:
            env.pop(key, None)
        else:
            env[key] = value
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)


def test_testing_globals_are_module_functions():
    assert tvm_ffi.testing.add_one(41) == 42
    assert tvm_ffi.testing.echo("x") == "x"


def test_unknown_testing_attribute_raises_attribute_error():
    with pytest.raises(AttributeError, match="no_such_function"):
        tvm_ffi.testing.no_such_function


def test_plain_import_registers_echo():
    # A fresh process that imports only tvm_ffi, with no test library directory named.
    out = _run(
        "import tvm_ffi\nprint(tvm_ffi.get_global_func('testing.echo')(7))\n",
        {"TVM_FFI_TEST_LIB_DIR": None},
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "7"


def test_plain_import_registers_test_raise_error():
    out = _run(
        "import tvm_ffi\n"
        "f = tvm_ffi.registry.get_global_func('testing.test_raise_error')\n"
        "try:\n"
        "    f('ValueError', 'boom')\n"
        "except ValueError as err:\n"
        "    print('caught', err)\n",
        {"TVM_FFI_TEST_LIB_DIR": None},
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "caught boom"


def test_plain_import_does_not_import_the_testing_package():
    out = _run(
        "import sys, tvm_ffi\nprint('tvm_ffi.testing' in sys.modules)\n",
        {"TVM_FFI_TEST_LIB_DIR": None},
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "False"


def test_testing_library_is_installed_next_to_libtvm_ffi():
    lib_dir = os.path.dirname(os.path.abspath(tvm_ffi.LIB._name))
    assert os.path.isfile(os.path.join(lib_dir, "libtvm_ffi_testing.so"))


@pytest.mark.parametrize(
    ("kind", "exc_type"),
    [
        ("ValueError", ValueError),
        ("TypeError", TypeError),
        ("RuntimeError", RuntimeError),
        ("IndexError", IndexError),
        ("AttributeError", AttributeError),
        ("AssertionError", AssertionError),
        ("MemoryError", MemoryError),
    ],
)
def test_test_raise_error_maps_builtin_kinds(kind, exc_type):
    f = tvm_ffi.get_global_func("testing.test_raise_error")
    with pytest.raises(exc_type) as info:
        f(kind, "msg here")
    assert type(info.value) is exc_type
    assert str(info.value) == "msg here"


def test_test_raise_error_key_error_message_is_quoted():
    # KeyError's str() quotes its argument, as in the wheel.
    f = tvm_ffi.get_global_func("testing.test_raise_error")
    with pytest.raises(KeyError) as info:
        f("KeyError", "msg here")
    assert str(info.value) == "'msg here'"


@pytest.mark.parametrize(
    "kind", ["NotImplementedError", "InternalError", "MyErr", "RecursionError"]
)
def test_test_raise_error_unregistered_kinds_become_runtime_error(kind):
    f = tvm_ffi.get_global_func("testing.test_raise_error")
    with pytest.raises(RuntimeError) as info:
        f(kind, "msg here")
    assert type(info.value) is RuntimeError
    assert str(info.value) == "msg here"


def test_test_raise_error_checks_argument_count():
    f = tvm_ffi.get_global_func("testing.test_raise_error")
    with pytest.raises(TypeError, match="Expected 2 but got 1 arguments"):
        f("ValueError")


def test_test_raise_error_traceback_names_the_cxx_frame():
    f = tvm_ffi.get_global_func("testing.test_raise_error")
    with pytest.raises(ValueError) as info:
        f("ValueError", "m")
    frames = [entry.name for entry in info.traceback]
    assert any("TestRaiseError" in name for name in frames), frames


def test_requires_python_markers_are_skipif_marks():
    from tvm_ffi.testing import testing

    for name, version in [
        ("requires_py310", (3, 10)),
        ("requires_py312", (3, 12)),
        ("requires_py313", (3, 13)),
    ]:
        mark = getattr(testing, name).mark
        assert mark.name == "skipif"
        assert mark.args == (sys.version_info < version,)
        assert mark.kwargs == {"reason": "requires Python %d.%d+" % version}


def test_testing_package_reexports_the_submodule_classes():
    from tvm_ffi.testing import testing

    assert tvm_ffi.testing.TestIntPair is testing.TestIntPair
    assert tvm_ffi.testing.create_object is testing.create_object
    assert tvm_ffi.testing.requires_py312 is testing.requires_py312


def test_test_int_pair_sum():
    assert tvm_ffi.testing.TestIntPairSum(tvm_ffi.testing.TestIntPair(3, 4)) == 7


def test_import_without_library_names_what_was_searched(tmp_path):
    # A libtvm_ffi copied alone into a directory: no testing library beside it. A plain
    # import still works; importing tvm_ffi.testing says what was searched.
    lib = tmp_path / "libtvm_ffi.so"
    lib.write_bytes(open(tvm_ffi.LIB._name, "rb").read())
    code = (
        "import tvm_ffi\n"
        "print(len([n for n in tvm_ffi.registry.list_global_func_names()"
        " if n.startswith('testing.')]))\n"
        "import tvm_ffi.testing\n"
    )
    out = _run(code, {"TVM_FFI_LIBRARY_PATH": str(lib), "TVM_FFI_TEST_LIB_DIR": None})
    assert out.stdout.strip() == "0", out.stderr
    assert out.returncode != 0
    assert "libtvm_ffi_testing.so" in out.stderr and str(tmp_path) in out.stderr, out.stderr
    assert "TVM_FFI_TEST_LIB_DIR" in out.stderr
