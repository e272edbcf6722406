"""tvm_ffi_configure_target(... STUB_DIR ... STUB_INIT ON): the post-build stub step
scaffolds and fills the package files of a library built with CMake."""

import shutil
import subprocess
import sys
import uuid

import pytest
from tvm_ffi import libinfo

_SOURCE = r"""
#include <tvm/ffi/tvm_ffi.h>

namespace {
class PairObj : public tvm::ffi::Object {
 public:
  int64_t a = 0;
  int64_t b = 0;
  PairObj(int64_t a, int64_t b) : a(a), b(b) {}
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("@PKG@.Pair", PairObj, tvm::ffi::Object);
};
}  // namespace

TVM_FFI_STATIC_INIT_BLOCK() {
  namespace refl = tvm::ffi::reflection;
  refl::ObjectDef<PairObj>()
      .def_ro("a", &PairObj::a)
      .def_ro("b", &PairObj::b)
      .def(refl::init<int64_t, int64_t>());
  refl::GlobalDef().def("@PKG@.add", [](int64_t x, int64_t y) { return x + y; });
}
"""

_CMAKE = """
cmake_minimum_required(VERSION 3.18)
project(stubdemo CXX)
find_package(tvm_ffi CONFIG REQUIRED)
add_library(@PKG@ SHARED lib.cc)
tvm_ffi_configure_target(@PKG@ STUB_DIR "./python" STUB_INIT ON)
"""


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    cmake = shutil.which("cmake")
    if cmake is None:
        pytest.skip("cmake not available")
    try:
        cmake_dir = libinfo.find_cmake_path()
    except RuntimeError:
        pytest.skip("no installed CMake config (running from source)")
    pkg = "stubdemo_%s" % uuid.uuid4().hex[:8]
    src = tmp_path_factory.mktemp("stubgen_cmake")
    (src / "lib.cc").write_text(_SOURCE.replace("@PKG@", pkg))
    (src / "CMakeLists.txt").write_text(_CMAKE.replace("@PKG@", pkg))
    build = src / "build"
    configure = [
        cmake,
        "-S",
        str(src),
        "-B",
        str(build),
        "-Dtvm_ffi_DIR=" + cmake_dir,
        "-DPython3_EXECUTABLE=" + sys.executable,
    ]
    subprocess.run(configure, check=True, capture_output=True)
    proc = subprocess.run([cmake, "--build", str(build)], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return cmake, src, build, pkg


def test_post_build_step_scaffolds_the_package(built):
    _, src, _, pkg = built
    api = (src / "python" / pkg / "_ffi_api.py").read_text()
    assert 'LIB = _FFI_LOAD_LIB("%s", "%s")' % (pkg, pkg) in api
    assert "    def add(_0: int, _1: int, /) -> int: ..." in api
    assert '@_FFI_REG_OBJ("%s.Pair")\nclass Pair(_ffi_Object):' % pkg in api
    assert "        def __init__(self, a: int, b: int) -> None: ..." in api
    assert "export/_ffi_api" in (src / "python" / pkg / "__init__.py").read_text()


def test_rebuild_leaves_the_stubs_unchanged(built):
    cmake, src, build, pkg = built
    api_path = src / "python" / pkg / "_ffi_api.py"
    before = api_path.read_text()
    (src / "lib.cc").write_text((src / "lib.cc").read_text() + "\n")
    subprocess.run([cmake, "--build", str(build)], check=True, capture_output=True)
    assert api_path.read_text() == before
