"""tvm_ffi.cpp: building C++ from Python (load_inline / build / load), its cache and the examples.

Compiling a file that includes the tvm-ffi headers takes seconds, so modules shared by several
tests are built once per module (fixtures); tests of cache bookkeeping use plain C++ files that
include nothing and compile in a fraction of a second.
"""

import ctypes
import gc
import os
import pathlib
import shlex
import shutil
import subprocess
import sys
import textwrap

import pytest
import tvm_ffi
import tvm_ffi.cpp
from tvm_ffi.cpp import _toolchain

REPO = pathlib.Path(__file__).resolve().parents[2]

DEMO_SOURCE = """
#include <tvm/ffi/container/tensor.h>
int64_t add(int64_t a, int64_t b) { return a + b; }
int64_t first_i64(tvm::ffi::TensorView t, tvm::ffi::Tensor keep) {
  return static_cast<const int64_t*>(t.data_ptr())[0] + keep.numel();
}
tvm::ffi::String greet(tvm::ffi::String who) { return tvm::ffi::String("hi " + std::string(who)); }
int64_t no_doc(int64_t x) { return -x; }
"""
# Quotes, a backslash, a newline and non-ASCII text must survive the trip into C++ and back.
ADD_DOC = 'Add two integers.\n\n"a" + "b" \\ returned, caf\u00e9 \u2603'
DEMO_FUNCTIONS = {"add": ADD_DOC, "greet": "Say hi.", "no_doc": None, "first_i64": None}


@pytest.fixture(scope="module")
def cache_dir(tmp_path_factory):
    """One cache directory for the module, so builds are shared and the user's cache untouched."""
    path = tmp_path_factory.mktemp("tvm_ffi_cache")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("TVM_FFI_CACHE_DIR", str(path))
        yield path


@pytest.fixture(scope="module")
def demo_path(cache_dir):
    return tvm_ffi.cpp.build_inline("demo", cpp_sources=DEMO_SOURCE, functions=DEMO_FUNCTIONS)


@pytest.fixture(scope="module")
def demo(demo_path):
    return tvm_ffi.load_module(demo_path)


def _build_count(build_dir):
    log = pathlib.Path(build_dir) / "build.log"
    if not log.exists():
        return 0
    return sum(
        1
        for line in log.read_text().splitlines()
        if line.startswith("==== ") and " building " in line
    )


def _plain_source(directory, name="plain.cc", body="int plain_value() { return 1; }\n"):
    """A C++ file with no includes: builds in well under a second."""
    path = pathlib.Path(directory) / name
    path.write_text(body)
    return path


def test_build_and_call(demo):
    assert demo.add(40, 2) == 42
    assert demo["greet"]("there") == "hi there"


def test_library_lives_in_hashed_cache_dir(demo_path, cache_dir):
    build_dir = pathlib.Path(demo_path).parent
    assert build_dir.parent == cache_dir
    assert build_dir.name.startswith("demo_") and len(build_dir.name) == len("demo_") + 16
    assert pathlib.Path(demo_path).name == "demo.so"


def test_doc_strings_visible(demo):
    assert demo.get_function_doc("add") == ADD_DOC
    assert demo.get_function_doc("greet") == "Say hi."


def test_function_with_none_doc_has_no_doc(demo):
    assert demo.no_doc(5) == -5
    assert demo.get_function_doc("no_doc") is None


def test_metadata_exported_with_docs(demo):
    # The core may hand the metadata back as the JSON text or as a parsed dict.
    assert "type_schema" in str(demo.get_function_metadata("add"))


def test_module_function_schema_sends_arrays_as_views(demo):
    # The exported type schema says parameter 0 is a TensorView (DLTensor*): numpy
    # arrays go there as stack DLTensor views; the Tensor parameter gets an object.
    np = pytest.importorskip("numpy")
    assert demo.first_i64._view_args == (0,)
    assert demo.first_i64(np.array([7, 8], dtype="int64"), np.zeros(3)) == 10


def test_module_function_reads_its_schema_after_the_module_object_is_gone(demo_path):
    f = tvm_ffi.load_module(demo_path)["first_i64"]  # the Module wrapper dies here
    gc.collect()
    assert f._view_args == (0,)


def test_functions_as_list(cache_dir):
    mod = tvm_ffi.cpp.load_inline(
        "listed",
        cpp_sources="int64_t mul(int64_t a, int64_t b) { return a * b; }",
        functions=["mul"],
    )
    assert mod.mul(6, 7) == 42
    assert mod.get_function_doc("mul") is None


def test_cache_hit_runs_no_compiler(demo_path, monkeypatch):
    build_dir = pathlib.Path(demo_path).parent
    log_before = (build_dir / "build.log").read_text()
    mtime_before = os.stat(demo_path).st_mtime_ns

    def no_subprocess(*args, **kwargs):
        raise AssertionError("a cache hit must not start a process: %r" % (args,))

    monkeypatch.setattr(subprocess, "run", no_subprocess)
    monkeypatch.setattr(subprocess, "Popen", no_subprocess)
    path = tvm_ffi.cpp.build_inline("demo", cpp_sources=DEMO_SOURCE, functions=DEMO_FUNCTIONS)
    assert path == demo_path
    assert os.stat(demo_path).st_mtime_ns == mtime_before
    assert (build_dir / "build.log").read_text() == log_before


def test_cache_hit_in_new_process(demo_path, cache_dir):
    build_dir = pathlib.Path(demo_path).parent
    child = (
        "import sys, tvm_ffi.cpp\n"
        "print(tvm_ffi.cpp.build_inline('demo', cpp_sources=sys.argv[1], functions=%r))"
        % (DEMO_FUNCTIONS,)
    )
    proc = subprocess.run(
        [sys.executable, "-c", child, DEMO_SOURCE],
        env=dict(os.environ, TVM_FFI_CACHE_DIR=str(cache_dir)),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    assert proc.returncode == 0, proc.stdout
    assert proc.stdout.strip() == demo_path
    assert _build_count(build_dir) == 1


def test_different_source_builds_new_library(demo_path, cache_dir):
    changed = DEMO_SOURCE.replace("return a + b;", "return a + b + 1000;")
    path = tvm_ffi.cpp.build_inline("demo", cpp_sources=changed, functions=DEMO_FUNCTIONS)
    assert pathlib.Path(path).parent != pathlib.Path(demo_path).parent
    assert tvm_ffi.load_module(path).add(1, 2) == 1003


def test_flags_change_the_build(tmp_path, monkeypatch):
    monkeypatch.setenv("TVM_FFI_CACHE_DIR", str(tmp_path / "cache"))
    src = _plain_source(tmp_path)
    first = tvm_ffi.cpp.build("plain", cpp_files=[str(src)])
    second = tvm_ffi.cpp.build("plain", cpp_files=[str(src)], extra_cflags=["-DPLAIN_FLAG=1"])
    assert pathlib.Path(first).parent != pathlib.Path(second).parent
    assert _build_count(pathlib.Path(second).parent) == 1


def test_included_header_change_rebuilds(tmp_path, monkeypatch):
    monkeypatch.setenv("TVM_FFI_CACHE_DIR", str(tmp_path / "cache"))
    header = tmp_path / "value.h"
    header.write_text("constexpr int kValue = 1;\n")
    src = _plain_source(tmp_path, body='#include "value.h"\nint plain_value() { return kValue; }\n')
    path = tvm_ffi.cpp.build("with_header", cpp_files=str(src))
    assert tvm_ffi.cpp.build("with_header", cpp_files=str(src)) == path
    assert _build_count(pathlib.Path(path).parent) == 1
    header.write_text("constexpr int kValue = 2;  // edited\n")
    assert tvm_ffi.cpp.build("with_header", cpp_files=str(src)) == path
    assert _build_count(pathlib.Path(path).parent) == 2


def test_build_several_files_with_same_name(tmp_path, monkeypatch):
    monkeypatch.setenv("TVM_FFI_CACHE_DIR", str(tmp_path / "cache"))
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    first = _plain_source(tmp_path / "a", "util.cc", 'extern "C" int util_a() { return 1; }\n')
    second = _plain_source(tmp_path / "b", "util.cc", 'extern "C" int util_b() { return 2; }\n')
    lib = ctypes.CDLL(tvm_ffi.cpp.build("two_files", cpp_files=[str(first), str(second)]))
    assert (lib.util_a(), lib.util_b()) == (1, 2)


def test_build_directory_argument(tmp_path, monkeypatch):
    monkeypatch.setenv("TVM_FFI_CACHE_DIR", str(tmp_path / "cache"))
    out = tmp_path / "out"
    src = _plain_source(tmp_path)
    path = tvm_ffi.cpp.build("plain", cpp_files=[str(src)], build_directory=str(out))
    assert pathlib.Path(path) == out / "plain.so"
    assert tvm_ffi.cpp.build("plain", cpp_files=[str(src)], build_directory=str(out)) == path
    assert _build_count(out) == 1
    assert not (tmp_path / "cache").exists()


def test_compiler_invoked_directly_without_ninja(tmp_path, monkeypatch):
    monkeypatch.setenv("TVM_FFI_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("TVM_FFI_USE_NINJA", "0")
    path = tvm_ffi.cpp.build("plain", cpp_files=[str(_plain_source(tmp_path))])
    log = (pathlib.Path(path).parent / "build.log").read_text()
    assert "with the compiler directly" in log
    assert not (pathlib.Path(path).parent / "build.ninja").exists()
    assert os.path.isfile(path)


@pytest.mark.skipif(shutil.which("ninja") is None, reason="ninja is not on PATH")
def test_ninja_used_when_present(tmp_path, monkeypatch):
    monkeypatch.setenv("TVM_FFI_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("TVM_FFI_USE_NINJA", raising=False)
    path = tvm_ffi.cpp.build("plain", cpp_files=[str(_plain_source(tmp_path))])
    build_dir = pathlib.Path(path).parent
    assert (build_dir / "build.ninja").exists()
    assert "ninja -C" in (build_dir / "build.log").read_text()


@pytest.mark.parametrize("use_ninja", ["1", "0"])
def test_compile_error_reports_diagnostics_and_command(tmp_path, monkeypatch, use_ninja):
    monkeypatch.setenv("TVM_FFI_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("TVM_FFI_USE_NINJA", use_ninja)
    src = _plain_source(tmp_path, "broken.cc", "int broken() { return undeclared_thing_42; }\n")
    with pytest.raises(tvm_ffi.cpp.BuildError) as info:
        tvm_ffi.cpp.build("broken", cpp_files=[str(src)])
    message = str(info.value)
    assert isinstance(info.value, RuntimeError)
    assert "undeclared_thing_42" in message and "error" in message  # the compiler's own text
    compiler = shlex.join(_toolchain.find_compiler())
    assert compiler + " -std=c++17" in message and "-c %s" % src in message  # the command line
    assert not (pathlib.Path(info.value.build_directory) / "broken.so").exists()


def test_inline_compile_error_names_module(cache_dir):
    with pytest.raises(
        tvm_ffi.cpp.BuildError, match="building module 'inline_broken' failed"
    ) as info:
        tvm_ffi.cpp.load_inline(
            "inline_broken", cpp_sources="int f() { return missing_symbol_7; }", functions=["f"]
        )
    assert "missing_symbol_7" in str(info.value)


def test_missing_compiler_is_clear_error(tmp_path, monkeypatch):
    monkeypatch.setenv("TVM_FFI_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("CXX", "/nonexistent/c++")
    with pytest.raises(RuntimeError, match=r"'/nonexistent/c\+\+'.*CXX") as info:
        tvm_ffi.cpp.build("plain", cpp_files=[str(_plain_source(tmp_path))])
    assert not isinstance(info.value, tvm_ffi.cpp.BuildError)


def test_bad_arguments_name_the_argument(tmp_path):
    with pytest.raises(ValueError, match="invalid module name 'bad/name'"):
        tvm_ffi.cpp.build_inline("bad/name", cpp_sources="int x;")
    with pytest.raises(ValueError, match="'not an identifier'"):
        tvm_ffi.cpp.build_inline("ok", cpp_sources="int x;", functions=["not an identifier"])
    with pytest.raises(TypeError, match=r"extra_cflags\[1\] must be a str, got int"):
        tvm_ffi.cpp.build_inline("ok", cpp_sources="int x;", extra_cflags=["-O1", 3])
    with pytest.raises(TypeError, match="cpp_sources must be a str or a list of str"):
        tvm_ffi.cpp.build_inline("ok", cpp_sources=42)
    with pytest.raises(FileNotFoundError, match="missing.cc"):
        tvm_ffi.cpp.build("ok", cpp_files=[str(tmp_path / "missing.cc")])


_CONCURRENT_CHILD = textwrap.dedent(
    """
    import sys
    import tvm_ffi.cpp
    mod = tvm_ffi.cpp.load("concurrent", cpp_files=[sys.argv[1]])
    assert mod.triple(14) == 42
    """
)


def test_two_processes_build_same_module(tmp_path):
    src = tmp_path / "concurrent.cc"
    src.write_text(
        "#include <tvm/ffi/function.h>\n"
        "int64_t Triple(int64_t x) { return 3 * x; }\n"
        "TVM_FFI_DLL_EXPORT_TYPED_FUNC(triple, Triple);\n"
    )
    env = dict(os.environ, TVM_FFI_CACHE_DIR=str(tmp_path / "cache"))
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", _CONCURRENT_CHILD, str(src)],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            universal_newlines=True,
        )
        for _ in range(2)
    ]
    outputs = [p.communicate(timeout=300)[0] for p in procs]
    for p, out in zip(procs, outputs):
        assert p.returncode == 0, out
    (build_dir,) = (tmp_path / "cache").iterdir()
    # The lock made the second process wait and reuse the first one's library.
    assert _build_count(build_dir) == 1
    assert not list(build_dir.glob("*.tmp*"))


def test_quickstart_example_runs(tmp_path):
    env = dict(os.environ, TVM_FFI_CACHE_DIR=str(tmp_path / "cache"))
    proc = subprocess.run(
        [sys.executable, str(REPO / "examples" / "quickstart" / "run.py")],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stdout
    assert "add_one(x) = [1. 2. 3. 4. 5.]" in proc.stdout


@pytest.mark.skipif(shutil.which("cmake") is None, reason="cmake is not on PATH")
def test_cmake_consumer_example(tmp_path):
    cmake_dir = tvm_ffi.libinfo.find_cmake_path()
    if not os.path.isfile(os.path.join(cmake_dir, "tvm_ffi-config.cmake")):
        pytest.skip(
            "no installed CMake package (tvm_ffi-config.cmake) in %s: run `pip install .`"
            % cmake_dir
        )
    example = REPO / "examples" / "cmake_consumer"
    build_dir = tmp_path / "build"
    configure = ["cmake", "-S", str(example), "-B", str(build_dir), "-Dtvm_ffi_DIR=" + cmake_dir]
    if shutil.which("ninja"):
        configure += ["-G", "Ninja"]
    for cmd in (configure, ["cmake", "--build", str(build_dir)]):
        proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        assert proc.returncode == 0, "%s\n%s" % (" ".join(cmd), proc.stdout)
    proc = subprocess.run(
        [sys.executable, str(example / "run.py"), str(build_dir)],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    assert proc.returncode == 0, proc.stdout
    assert "hello, CMake from C++" in proc.stdout
    mod = tvm_ffi.load_module(str(build_dir / "consumer.so"))
    assert mod.sum_all([1, 2, 3]) == 6
    assert mod.get_function_doc("greet") == "Return a greeting for `who`."
