"""libinfo paths, the tvm-ffi-config command and import time."""

import os
import shutil
import subprocess
import sys

import pytest
import tvm_ffi
from tvm_ffi import libinfo


def test_find_libtvm_ffi_points_at_loaded_library():
    path = libinfo.find_libtvm_ffi()
    assert os.path.isfile(path) and os.path.basename(path).startswith("libtvm_ffi")


def test_include_paths_hold_headers():
    assert os.path.isfile(os.path.join(libinfo.find_include_path(), "tvm", "ffi", "c_api.h"))
    assert os.path.isfile(os.path.join(libinfo.find_dlpack_include_path(), "dlpack", "dlpack.h"))
    assert libinfo.find_include_path() in libinfo.include_paths()


def _run_config(*args):
    return subprocess.run(
        [sys.executable, "-m", "tvm_ffi.config", *args], capture_output=True, text=True
    )


def test_config_prints_one_line_per_flag_in_fixed_order():
    result = _run_config("--libs", "--includedir")
    assert result.stdout.splitlines() == ["%s" % libinfo.find_include_path(), "-ltvm_ffi"]
    assert result.stderr == ""


def test_config_repeated_flag_prints_once():
    assert _run_config("--libs", "--libs").stdout.splitlines() == ["-ltvm_ffi"]


def test_config_cxxflags_cflags_and_ldflags():
    inc = libinfo.find_include_path()
    dlpack = libinfo.find_dlpack_include_path()
    libdir = os.path.dirname(libinfo.find_libtvm_ffi())
    lines = _run_config("--ldflags", "--cflags", "--cxxflags").stdout.splitlines()
    assert lines == [
        "-I%s -I%s -std=c++17" % (inc, dlpack),
        "-I%s -I%s" % (inc, dlpack),
        "-L" + libdir,
    ]


def test_config_libdir_libfiles_and_cmakedir():
    assert _run_config("--libdir").stdout.strip() == os.path.dirname(libinfo.find_libtvm_ffi())
    assert _run_config("--libfiles").stdout.strip() == libinfo.find_libtvm_ffi()
    cmakedir = _run_config("--cmakedir").stdout.strip()
    assert os.path.isfile(os.path.join(cmakedir, "tvm_ffi-config.cmake"))
    for name in ("Library.cmake", "EmbedCubin.cmake", "ObjectCopyUtil.cmake"):
        assert os.path.isfile(os.path.join(cmakedir, "Utils", name)), name


def test_config_cython_lib_path_names_the_extension():
    path = _run_config("--cython-lib-path").stdout.strip()
    assert os.path.isfile(path) and os.path.basename(path).startswith("core.")
    import tvm_ffi.core

    assert os.path.realpath(tvm_ffi.core.__file__) == path


def test_config_without_flags_prints_help_and_succeeds():
    result = _run_config()
    assert result.returncode == 0 and "usage" in result.stdout.lower()


def test_config_unknown_flag_exits_2():
    result = _run_config("--bogus")
    assert result.returncode == 2
    assert "unrecognized arguments: --bogus" in result.stderr


def test_load_lib_ctypes_finds_our_library_under_any_distribution_name():
    lib = libinfo.load_lib_ctypes("apache-tvm-ffi", "tvm_ffi", "RTLD_GLOBAL")
    assert os.path.realpath(lib._name) == os.path.realpath(libinfo.find_libtvm_ffi())


def test_find_library_in_extra_lib_paths(tmp_path):
    import pathlib

    (tmp_path / "libmy_target.so").write_bytes(b"")
    found = libinfo._find_library_by_basename(
        "no-such-dist", "my_target", [pathlib.Path(tmp_path)], use_env_path=False
    )
    assert found == (tmp_path / "libmy_target.so").resolve()


def test_find_library_rejects_non_path_extra_lib_paths(tmp_path):
    import pytest

    with pytest.raises(TypeError, match=r"extra_lib_paths\[0\] must be a pathlib.Path, got str"):
        libinfo._find_library_by_basename("no-such-dist", "x", [str(tmp_path)])


def test_find_library_missing_lists_the_directories(tmp_path):
    import pathlib

    import pytest

    with pytest.raises(RuntimeError, match="Cannot find library libnothing_here.so") as info:
        libinfo._find_library_by_basename(
            "no-such-dist", "nothing_here", [pathlib.Path(tmp_path)], use_env_path=False
        )
    assert str(tmp_path) in str(info.value)


def test_python_helper_header_is_found():
    path = libinfo.find_python_helper_include_path()
    assert os.path.isfile(os.path.join(path, "tvm_ffi_python_helpers.h"))


def test_python_helper_header_installed_with_the_cxx_headers():
    installed = os.path.join(os.path.dirname(tvm_ffi.__file__), "include")
    if not os.path.isdir(installed):
        pytest.skip("running from a source tree, not an installed package")
    assert libinfo.find_python_helper_include_path() == libinfo.find_include_path()
    assert libinfo.include_paths() == [libinfo.find_include_path()]


def test_find_windows_implib_is_next_to_the_library():
    implib = libinfo.find_windows_implib()
    assert os.path.basename(implib) == "tvm_ffi.lib"
    assert os.path.dirname(implib) == os.path.dirname(libinfo.find_libtvm_ffi())


def test_config_command_does_not_import_the_core(tmp_path):
    # A script named like the console script: the package sees argv[0] and stays light.
    script = tmp_path / "tvm-ffi-config"
    script.write_text(
        "import sys\n"
        "from tvm_ffi.config import main\n"
        "main(['--libs'])\n"
        "print(sorted(m for m in ('tvm_ffi.core', 'tvm_ffi.cpp') if m in sys.modules))\n"
    )
    out = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, check=True)
    assert out.stdout.splitlines() == ["-ltvm_ffi", "[]"] and out.stderr == ""


def test_config_module_run_does_not_import_the_core():
    if sys.version_info < (3, 10):
        pytest.skip("sys.orig_argv (how -m is recognised) is new in Python 3.10")
    out = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "tvm_ffi.config", "--libs"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert out.stdout.strip() == "-ltvm_ffi"
    assert "tvm_ffi.libinfo" in out.stderr and "tvm_ffi.core" not in out.stderr


def test_package_import_elsewhere_still_loads_everything():
    code = "import tvm_ffi, sys; print('tvm_ffi.core' in sys.modules, hasattr(tvm_ffi, 'cpp'))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "True True"


def test_include_paths_are_sorted_and_unique():
    paths = libinfo.include_paths()
    assert paths == sorted(set(paths))
    assert libinfo.find_include_path() in paths


def test_console_script_when_installed():
    exe = shutil.which("tvm-ffi-config")
    if exe is None:
        import pytest

        pytest.skip("tvm-ffi-config console script not installed (running from source)")
    out = subprocess.run([exe, "--libs"], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "-ltvm_ffi"


def test_version_string():
    assert isinstance(tvm_ffi.__version__, str)
    assert tvm_ffi.__version__ == ".".join(str(p) for p in tvm_ffi.__version_tuple__)


def test_cmake_find_package_builds_against_shared_target(tmp_path):
    import pytest

    cmake = shutil.which("cmake")
    if cmake is None:
        pytest.skip("cmake not available")
    try:
        cmake_dir = libinfo.find_cmake_path()
    except RuntimeError:
        pytest.skip("no installed CMake config (running from source)")
    (tmp_path / "CMakeLists.txt").write_text(
        "cmake_minimum_required(VERSION 3.18)\n"
        "project(consumer CXX)\n"
        "find_package(tvm_ffi CONFIG REQUIRED)\n"
        "add_library(consumer SHARED consumer.cc)\n"
        "target_link_libraries(consumer PRIVATE tvm_ffi::shared)\n"
    )
    (tmp_path / "consumer.cc").write_text(
        "#include <tvm/ffi/c_api.h>\n"
        'extern "C" int consumer_major() { TVMFFIVersion v; TVMFFIGetVersion(&v);'
        " return static_cast<int>(v.major); }\n"
    )
    build = tmp_path / "build"
    subprocess.run(
        [cmake, "-S", str(tmp_path), "-B", str(build), "-Dtvm_ffi_DIR=" + cmake_dir],
        check=True,
        capture_output=True,
    )
    subprocess.run([cmake, "--build", str(build)], check=True, capture_output=True)
    import ctypes
    import glob

    lib = ctypes.CDLL(glob.glob(str(build / "libconsumer*"))[0])
    assert lib.consumer_major() == 0


def test_sourcedir_holds_the_runtime_sources():
    src = libinfo.find_source_path()
    installed = os.path.join(src, "src", "ffi", "object.cc")
    checkout = os.path.join(src, "cpp", "src", "ffi", "object.cc")
    assert os.path.isfile(installed) or os.path.isfile(checkout)
    assert os.path.isfile(os.path.join(src, "CMakeLists.txt"))


# ---- libinfo._resolve_and_validate (used by Apache TVM's library and include lookup) ----------


def test_resolve_and_validate_returns_first_accepted_resolved_path(tmp_path):
    (tmp_path / "b").mkdir()
    paths = [tmp_path / "a", tmp_path / "x" / ".." / "b"]
    assert libinfo._resolve_and_validate(paths, lambda p: p.is_dir()) == str(tmp_path / "b")


def test_resolve_and_validate_accepts_a_path_without_checking_it_exists(tmp_path):
    path = tmp_path / "missing"
    assert libinfo._resolve_and_validate([path], lambda p: True) == str(path.resolve())


def test_resolve_and_validate_returns_a_path_the_condition_gives():
    import pathlib

    got = libinfo._resolve_and_validate([pathlib.Path("/")], lambda p: pathlib.Path("rel/x"))
    assert got == "rel/x"


def test_resolve_and_validate_returns_none_when_nothing_is_accepted(tmp_path):
    assert libinfo._resolve_and_validate([tmp_path], lambda p: False) is None
    assert libinfo._resolve_and_validate([], lambda p: True) is None


def test_resolve_and_validate_skips_candidates_whose_check_fails_with_os_or_assertion(tmp_path):
    def cond(p):
        if p.name == "first":
            raise OSError("unreadable")
        assert p.name != "second"
        return True

    paths = [tmp_path / "first", tmp_path / "second", tmp_path / "third"]
    assert libinfo._resolve_and_validate(paths, cond) == str(tmp_path / "third")


def test_resolve_and_validate_lets_other_errors_propagate(tmp_path):
    def cond(p):
        raise KeyError("boom")

    with pytest.raises(KeyError):
        libinfo._resolve_and_validate([tmp_path], cond)


def test_resolve_and_validate_rejects_a_non_path_naming_its_index(tmp_path):
    with pytest.raises(TypeError, match=r"paths\[1\]"):
        libinfo._resolve_and_validate([tmp_path, None], lambda p: False)
