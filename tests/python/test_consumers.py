"""Consumer projects of tests/consumers, built and run against the installed package.

Each test copies its project to a scratch directory, builds it the way an
outside user would (CMake's find_package, tvm-ffi-config flags, a
scikit-build-core package installed with pip), and runs the result.
"""

import os
import pathlib
import shlex
import shutil
import subprocess
import sys

import pytest
import tvm_ffi
from tvm_ffi import libinfo

CONSUMERS = pathlib.Path(__file__).resolve().parents[1] / "consumers"

needs_cmake = pytest.mark.skipif(shutil.which("cmake") is None, reason="cmake is not on PATH")


def _run(cmd, **kwargs):
    proc = subprocess.run(
        cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, **kwargs
    )
    return proc


def _check(cmd, **kwargs):
    proc = _run(cmd, **kwargs)
    assert proc.returncode == 0, "%s\n%s" % (" ".join(map(str, cmd)), proc.stdout)
    return proc.stdout


def _cmake_dir():
    path = libinfo.find_cmake_path()
    if not os.path.isfile(os.path.join(path, "tvm_ffi-config.cmake")):
        pytest.skip("no installed CMake package in %s: run `pip install .`" % path)
    return path


def _generator():
    return ["-G", "Ninja"] if shutil.which("ninja") else []


def _project(tmp_path, name):
    dst = tmp_path / name
    shutil.copytree(str(CONSUMERS / name), str(dst))
    return dst


@needs_cmake
def test_cmake_find_package_and_configure_target_build_a_loadable_module(tmp_path):
    src = _project(tmp_path, "cmake_module")
    build = tmp_path / "build"
    _check(
        ["cmake", "-S", str(src), "-B", str(build), "-Dtvm_ffi_DIR=" + _cmake_dir()] + _generator()
    )
    _check(["cmake", "--build", str(build)])
    mod = tvm_ffi.load_module(str(build / "cmake_module.so"))
    assert mod.triple(14) == 42
    # -ffile-prefix-map=<source dir>/= from tvm_ffi_configure_target.
    assert mod.source_file() == "module.cc"


@pytest.fixture(scope="module")
def api_build_dir(tmp_path_factory):
    """One build tree for every configure of cmake_api: compiler checks run once."""
    return tmp_path_factory.mktemp("cmake_api_build")


def _configure_api(build, *extra):
    src = CONSUMERS / "cmake_api"
    # -UCASE: a previous configure's case must not linger in the shared cache.
    return _run(
        [
            "cmake",
            "-UCASE",
            "-S",
            str(src),
            "-B",
            str(build),
            "-Dtvm_ffi_ROOT=" + _cmake_dir(),
            "-DPython_EXECUTABLE=" + sys.executable,
        ]
        + list(extra)
        + _generator()
    )


@needs_cmake
def test_cmake_package_variables_commands_and_targets(api_build_dir):
    proc = _configure_api(api_build_dir)
    assert proc.returncode == 0, proc.stdout
    checks = {}
    for line in proc.stdout.splitlines():
        if "CHECK " in line:
            key, _, value = line.split("CHECK ", 1)[1].partition("=")
            checks[key] = value
    cmake_dir = _cmake_dir()
    assert checks["tvm_ffi_INCLUDE_DIR"] == libinfo.find_include_path()
    assert checks["tvm_ffi_DLPACK_INCLUDE_DIR"] == libinfo.find_dlpack_include_path()
    assert checks["tvm_ffi_LIB_FILES"] == libinfo.find_libtvm_ffi()
    assert checks["Python_EXECUTABLE"] == sys.executable
    assert checks["OBJECT_COPY_UTIL"] == os.path.join(cmake_dir, "Utils", "ObjectCopyUtil.cmake")
    assert checks["CMAKE_CUDA_RUNTIME_LIBRARY"] == "Shared"
    assert checks["tvm_ffi_CONFIG"] == os.path.join(cmake_dir, "tvm_ffi-config.cmake")
    for cmd in [
        "tvm_ffi_configure_target",
        "tvm_ffi_install",
        "tvm_ffi_add_prefix_map",
        "tvm_ffi_add_apple_dsymutil",
        "tvm_ffi_add_msvc_flags",
        "tvm_ffi_hide_static_linked_lib_symbols",
        "tvm_ffi_add_target_from_obj",
        "add_tvm_ffi_cubin",
        "add_tvm_ffi_fatbin",
        "tvm_ffi_embed_bin_into",
    ]:
        assert "command " + cmd in checks, cmd
    assert "target tvm_ffi::header" in checks and "target tvm_ffi::shared" in checks
    assert "Finding libfiles " + libinfo.find_libtvm_ffi() in proc.stdout
    assert checks["plain_links"] == "tvm_ffi::header;tvm_ffi::shared"
    assert checks["plain_options"] == "_opts-NOTFOUND"


@needs_cmake
@pytest.mark.parametrize(
    "case, message",
    [
        (
            "empty_target",
            "tvm_ffi_configure_target: missing target name. Usage: "
            "tvm_ffi_configure_target(<target> [LINK_SHARED ON|OFF]",
        ),
        (
            "not_a_target",
            "tvm_ffi_configure_target: 'no_such_target' is not an existing CMake target.",
        ),
        (
            "pkg_without_dir",
            "tvm_ffi_configure_target(plain): STUB_PKG/STUB_PREFIX require STUB_DIR to be set.",
        ),
        (
            "pkg_without_init",
            "tvm_ffi_configure_target(plain): STUB_PKG/STUB_PREFIX cannot be set "
            "when STUB_INIT is OFF.",
        ),
        (
            "init_without_dir",
            "tvm_ffi_configure_target(plain): STUB_INIT=ON requires STUB_DIR to be set.",
        ),
        (
            "install_not_a_target",
            "tvm_ffi_install: 'no_such_target' is not an existing CMake target.",
        ),
        ("embed_without_bin", "tvm_ffi_embed_bin_into: BIN is required"),
        ("cubin_without_cuda", "add_tvm_ffi_cubin: CUDA source is required"),
    ],
)
def test_cmake_helper_errors(api_build_dir, case, message):
    proc = _configure_api(api_build_dir, "-DCASE=" + case)
    assert proc.returncode != 0
    # CMake wraps long messages: compare with whitespace collapsed.
    assert " ".join(message.split()) in " ".join(proc.stdout.split()), proc.stdout


def _config(*flags):
    out = _check([sys.executable, "-m", "tvm_ffi.config"] + list(flags))
    return shlex.split(out)


@pytest.mark.skipif(shutil.which("gcc") is None, reason="gcc is not on PATH")
def test_plain_c_program_built_with_tvm_ffi_config_flags(tmp_path):
    exe = tmp_path / "c_exe"
    libdir = _config("--libdir")[0]
    _check(
        ["gcc", "-std=c11", str(CONSUMERS / "c_exe" / "main.c"), "-o", str(exe)]
        + _config("--cflags", "--ldflags", "--libs")
        + ["-Wl,-rpath," + libdir]
    )
    out = _check([str(exe)])
    assert out.strip() == "type_index=73"


def test_scikit_build_core_extension_builds_against_the_installed_package(tmp_path):
    pytest.importorskip("scikit_build_core")
    if shutil.which("cmake") is None and not _has_module("cmake"):
        pytest.skip("cmake is not available")
    _cmake_dir()
    src = _project(tmp_path, "skbuild_ext")
    site = tmp_path / "site"
    _check(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "--no-build-isolation",
            "--no-deps",
            "--no-index",
            "-q",
            "--target",
            str(site),
            str(src),
        ]
    )
    assert (site / "skbuild_ext" / "libskbuild_ext.so").is_file()
    env = dict(os.environ, PYTHONPATH=str(site))
    out = _check(
        [
            sys.executable,
            "-c",
            "import skbuild_ext\n"
            "print(skbuild_ext.add_ints(1, 2))\n"
            "try:\n"
            "    skbuild_ext.raise_error('This is an error')\n"
            "except RuntimeError as e:\n"
            "    print('caught', e)\n",
        ],
        env=env,
        cwd=str(tmp_path),
    )
    assert out.splitlines() == ["3", "caught This is an error"]


def _has_module(name):
    import importlib.util

    return importlib.util.find_spec(name) is not None
