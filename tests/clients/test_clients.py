"""Packages built for apache-tvm-ffi 0.1.x, installed from the package registry next to ours.

Clients: Apache TVM, xgrammar, apache-tvm-ffi-orcjit, jax-tvm-ffi (with CPU jax) and
torch-c-dlpack-ext. A scratch venv (build/clients/venv, kept between runs) sees the installed tvm-ffi through
--system-site-packages. The metadata-only apache-tvm-ffi stand-in of
packaging/apache-tvm-ffi-provider is installed into it first, as README tells users, so that
the clients' apache-tvm-ffi requirement is satisfied by ours and pip leaves ours in place. Each
client then runs a script of the work it does through tvm_ffi (the *_smoke.py files beside
this one). The suite skips, saying why, only when the registry cannot be reached.
"""

import os
import pathlib
import subprocess
import sys

import pytest

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parent.parent
WORK = ROOT / "build" / "clients"
VENV = WORK / "venv"
PROVIDER = ROOT / "packaging" / "apache-tvm-ffi-provider"

TVM = "apache-tvm==0.27.0.post1"
ORCJIT = "apache-tvm-ffi-orcjit==0.1.3"
TORCH_EXT = "torch-c-dlpack-ext==0.1.5"
JAX_TVM_FFI = "jax-tvm-ffi==0.1.3"  # brings CPU jax and jaxlib
XGRAMMAR = "xgrammar==0.2.8"
# What xgrammar imports, without its pinned triton (a GPU compiler it does not need here).
XGRAMMAR_DEPS = ["pydantic", "transformers>=4.38.0", "typing-extensions>=4.9.0"]
PEER = "apache-tvm-ffi==0.1.15.post2"

_UNREACHABLE = (
    "Failed to establish a new connection",
    "Temporary failure in name resolution",
    "Network is unreachable",
    "Max retries exceeded",
    "Could not fetch URL",
)


def _run(cmd, timeout=1800, **kwargs):
    return subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, **kwargs)


def _pip(python, *args):
    """pip install in the venv; a skip when the registry cannot be reached, else a failure."""
    proc = _run([str(python), "-m", "pip", "install", "-q", "--disable-pip-version-check", *args])
    if proc.returncode != 0:
        output = proc.stdout + proc.stderr
        if any(marker in output for marker in _UNREACHABLE):
            pytest.skip("package registry unreachable: " + output[-500:])
        pytest.fail("pip install %s failed:\n%s" % (" ".join(args), output[-4000:]))
    return proc


def _venv_python():
    python = VENV / "bin" / "python"
    if not python.exists():
        WORK.mkdir(parents=True, exist_ok=True)
        subprocess.run(
            [sys.executable, "-m", "venv", "--system-site-packages", str(VENV)], check=True
        )
    return python


@pytest.fixture(scope="session")
def client_python():
    """The venv's python with the stand-in and every client installed."""
    python = _venv_python()
    _pip(python, str(PROVIDER))
    _pip(python, TVM, ORCJIT, TORCH_EXT, JAX_TVM_FFI)
    _pip(python, "--no-deps", XGRAMMAR)
    _pip(python, *XGRAMMAR_DEPS)
    return python


@pytest.fixture(scope="session")
def wheel_include_dir():
    """The include directory of the apache-tvm-ffi wheel (unpacked, never installed)."""
    target = WORK / "peer_headers"
    include = target / "tvm_ffi" / "include"
    if not include.is_dir():
        python = _venv_python()
        proc = _run(
            [str(python), "-m", "pip", "install", "-q", "--no-deps", "--target", str(target), PEER]
        )
        if proc.returncode != 0:
            output = proc.stdout + proc.stderr
            if any(marker in output for marker in _UNREACHABLE):
                pytest.skip("package registry unreachable: " + output[-500:])
            pytest.fail("pip install %s failed:\n%s" % (PEER, output[-4000:]))
    return include


def _run_script(python, script, *args, timeout=900):
    env = dict(os.environ)
    env.pop("PYTHONPATH", None)
    proc = _run([str(python), str(HERE / script), *map(str, args)], timeout=timeout, env=env)
    assert proc.returncode == 0, "%s failed:\n%s\n%s" % (script, proc.stdout, proc.stderr[-6000:])
    return proc.stdout.split("\n")


def test_installing_clients_keeps_our_tvm_ffi(client_python):
    code = (
        "import tvm_ffi, importlib.metadata as m; "
        "print(tvm_ffi.__file__); print(m.version('apache-tvm-ffi')); "
        "print(m.distribution('tvm-ffi').version)"
    )
    proc = _run([str(client_python), "-c", code], cwd="/")
    assert proc.returncode == 0, proc.stderr
    path, provided, ours = proc.stdout.split()
    assert not path.startswith(str(VENV)), path
    import tvm_ffi

    assert pathlib.Path(path).resolve() == pathlib.Path(tvm_ffi.__file__).resolve()
    assert provided == ours == tvm_ffi.__version__


def test_clients_requirement_of_apache_tvm_ffi_is_satisfied(client_python):
    check = _run([str(client_python), "-m", "pip", "check"])
    assert "apache-tvm-ffi" not in check.stdout + check.stderr, check.stdout


def test_apache_tvm_compiles_runs_exports_and_loads(client_python, tmp_path):
    lines = _run_script(client_python, "tvm_smoke.py", tmp_path)
    for step in (
        "import",
        "te_compile_run",
        "te_export_load",
        "c_source_export_load",
        "relax_vm",
        "relax_export_load",
        "script_roundtrip",
    ):
        assert "ok " + step in lines


def test_apache_tvm_testing_finds_the_testing_functions(client_python):
    code = (
        "import tvm.testing, tvm_ffi; "
        "f = tvm_ffi.get_global_func('testing.test_raise_error'); print('found', f is not None)"
    )
    proc = _run([str(client_python), "-c", code], cwd="/")
    assert proc.returncode == 0, proc.stderr[-4000:]
    assert "found True" in proc.stdout


def test_orcjit_loads_objects_built_with_our_headers(client_python, tmp_path):
    import tvm_ffi

    lines = _run_script(
        client_python, "orcjit_smoke.py", tvm_ffi.libinfo.find_include_path(), tmp_path, "ours"
    )
    assert {"ok ours call", "ok ours containers", "ok ours array_result"} <= set(lines)


def test_orcjit_loads_objects_built_with_the_wheels_headers(
    client_python, wheel_include_dir, tmp_path
):
    lines = _run_script(client_python, "orcjit_smoke.py", wheel_include_dir, tmp_path, "wheel")
    assert {"ok wheel call", "ok wheel containers", "ok wheel array_result"} <= set(lines)


def test_xgrammar_compiles_a_grammar_and_matches(client_python):
    pytest.importorskip("torch")
    lines = _run_script(client_python, "xgrammar_smoke.py")
    assert "ok grammar_match" in lines


def test_jax_calls_a_tvm_ffi_function_with_borrowed_and_owned_tensors(client_python):
    lines = _run_script(client_python, "jax_smoke.py")
    assert {"ok view", "ok owned"} <= set(lines)


def test_torch_c_dlpack_ext_beside_tvm_ffi_exchanges_tensors(client_python):
    pytest.importorskip("torch")
    lines = _run_script(client_python, "torch_ext_smoke.py")
    assert "ok exchange" in lines


def _sdist_tests(client_python, requirement, unpacked):
    """The tests directory of a package's source distribution (its wheel ships none),
    downloaded into build/clients/sdists and unpacked there once."""
    import tarfile

    # The build backends that read the sdists' metadata (apache-tvm-ffi takes its version
    # from setuptools-scm).
    _pip(client_python, "scikit-build-core>=0.10", "setuptools-scm")
    name = requirement.split("==")[0]
    target = WORK / "sdists"
    tests = target / unpacked / "tests"
    if not tests.is_dir():
        target.mkdir(parents=True, exist_ok=True)
        proc = _run(
            [
                str(client_python),
                "-m",
                "pip",
                "download",
                "-q",
                "--no-deps",
                # The sdist of this package only: its build requirements (cmake, jax, ...)
                # stay binary, and its metadata is read with the installed build backend.
                "--no-binary",
                name,
                "--no-build-isolation",
                "-d",
                str(target),
                requirement,
            ]
        )
        if proc.returncode != 0:
            output = proc.stdout + proc.stderr
            if any(marker in output for marker in _UNREACHABLE):
                pytest.skip("package registry unreachable: " + output[-500:])
            pytest.fail("pip download %s failed:\n%s" % (requirement, output[-4000:]))
        with tarfile.open(target / (unpacked + ".tar.gz")) as archive:
            archive.extractall(target)
    return tests


@pytest.fixture(scope="session")
def jax_tvm_ffi_tests(client_python):
    """The test suite of jax-tvm-ffi's source distribution."""
    return _sdist_tests(client_python, JAX_TVM_FFI, "jax_tvm_ffi-0.1.3")


def _run_suite(client_python, cwd, args, timeout):
    """pytest, in the venv, of a client's own suite (run from cwd); asserts that it passed."""
    env = dict(os.environ)
    env.pop("PYTHONPATH", None)
    proc = _run(
        [str(client_python), "-m", "pytest", "-q", "-p", "no:cacheprovider", *args],
        timeout=timeout,
        env=env,
        cwd=str(cwd),
    )
    assert proc.returncode == 0, proc.stdout[-8000:] + proc.stderr[-3000:]
    assert " passed" in proc.stdout


def test_jax_tvm_ffi_own_test_suite_passes(client_python, jax_tvm_ffi_tests):
    args = ["--ignore", str(jax_tvm_ffi_tests / "lint"), str(jax_tvm_ffi_tests)]
    _run_suite(client_python, jax_tvm_ffi_tests.parent, args, timeout=900)


# The apache-tvm-ffi wheel's own Python suite, run on ours. What does not run here, by node id
# prefix, and why: tests of private helpers (names only the wheel's suite imports), and the
# deliberate differences docs/differences.md describes.
WHEEL_SUITE_LEFT_OUT = {
    # Private helpers.
    "test_stubgen.py": "the stub generator's internal modules (tvm_ffi.stub.*)",
    "test_stubgen_rust.py": "the stub generator's internal modules (tvm_ffi.stub.*)",
    "test_stub_layout.py": "the stub generator's internal modules (tvm_ffi.stub.layout)",
    "test_dataclass_namedtuple.py": "tvm_ffi.dataclasses.common._make_namedtuple",
    "test_dataclass_gen_abi_cpp.py::test_schema_less_custom_object_uses_object_ptr_carrier": (
        "gen_abi_cpp._Generator._lower_field"
    ),
    "test_dataclass_gen_abi_cpp.py::test_native_object_carriers_preserve_schema_nullability": (
        "gen_abi_cpp._Generator._lower_field"
    ),
    "test_dataclass_gen_abi_cpp.py::test_non_null_object_union_uses_arc_carrier": (
        "gen_abi_cpp._Generator._lower_field"
    ),
    # Needs a Rust toolchain; errors on the wheel too.
    "test_rust_static_init.py": "builds Rust crates",
    # Deliberate differences (docs/differences.md).
    "test_string.py::test_string": "long strings come back as plain str",
    "test_string.py::test_bytes": "long bytes come back as plain bytes",
    "test_function.py::test_string_bytes_passing": "long strings come back as plain str",
    "test_structural.py::test_structural_map_handles_inline_and_heap_strings_and_bytes": (
        "long strings come back as plain str (a new tuple, not the same object)"
    ),
    "test_dataclass_init.py::TestAutoInitReinitialization": (
        "an object is constructed once (a second __init__ would free it under running calls)"
    ),
    "test_dataclass_init.py::TestAutoInitReinitInitOffNoDefault": "an object is constructed once",
    "test_build.py::test_build_without_metadata": (
        "load_inline exports metadata, which passes arrays as stack views"
    ),
}


@pytest.fixture(scope="session")
def wheel_python_tests(client_python):
    """tests/python of the apache-tvm-ffi source distribution."""
    return _sdist_tests(client_python, PEER, "apache_tvm_ffi-0.1.15.post2") / "python"


def test_apache_tvm_ffi_own_python_suite_passes(client_python, wheel_python_tests):
    # Its pyproject asks for pytest-xdist, which this venv need not have: no config file.
    args = ["-c", os.devnull, "--rootdir", str(wheel_python_tests)]
    for node in WHEEL_SUITE_LEFT_OUT:
        # Node ids are relative to the rootdir, the directory the suite runs in.
        args += ["--deselect" if "::" in node else "--ignore", node]
    _run_suite(client_python, wheel_python_tests, args + ["."], timeout=1500)


# The wheel's own C++ suite (tests/cpp of the sdist), built with our installed headers and
# linked with our libtvm_ffi and libtvm_ffi_testing. The file it leaves out checks internal
# helpers (detail::) that ours lays out differently (docs/testing.md).
WHEEL_CPP_SUITE_LEFT_OUT = {
    "test_big_int.cc": "detail::BigIntUnsafe and detail::int_ops (internal helpers)",
}


def test_apache_tvm_ffi_own_cpp_suite_passes(wheel_python_tests, tmp_path):
    import shutil
    from concurrent.futures import ThreadPoolExecutor

    import tvm_ffi
    import tvm_ffi.testing

    cxx = shutil.which("c++") or shutil.which("g++")
    if cxx is None:
        pytest.skip("no C++ compiler")
    suite = wheel_python_tests.parent / "cpp"
    sources = sorted(
        str(p.relative_to(suite))
        for p in list(suite.glob("test*.cc")) + list(suite.glob("extra/test*.cc"))
    )
    sources = [s for s in sources if s not in WHEEL_CPP_SUITE_LEFT_OUT]
    includes = ["-I" + p for p in tvm_ffi.libinfo.include_paths()] + ["-I.", "-Iextra"]

    def compile_one(source):
        obj = tmp_path / (source.replace("/", "_") + ".o")
        cmd = [cxx, "-std=c++17", "-O0", "-c", *includes, source, "-o", str(obj)]
        proc = _run(cmd, timeout=600, cwd=str(suite))
        assert proc.returncode == 0, "%s does not build:\n%s" % (source, proc.stderr[-4000:])
        return str(obj)

    with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        objects = list(pool.map(compile_one, sources))
    lib_dirs = {
        os.path.dirname(tvm_ffi.libinfo.find_libtvm_ffi()),
        os.path.dirname(tvm_ffi.testing.load_testing_library()._name),
    }
    link = [cxx, *objects, "-o", str(tmp_path / "wheel_cpp_suite")]
    for lib_dir in sorted(lib_dirs):
        link += ["-L" + lib_dir, "-Wl,-rpath," + lib_dir]
    link += ["-ltvm_ffi", "-ltvm_ffi_testing", "-lgtest", "-lgtest_main", "-pthread"]
    proc = _run(link, timeout=600)
    assert proc.returncode == 0, proc.stderr[-4000:]
    proc = _run([str(tmp_path / "wheel_cpp_suite")], timeout=600)
    assert proc.returncode == 0, proc.stdout[-8000:] + proc.stderr[-2000:]
    assert "[  PASSED  ]" in proc.stdout
