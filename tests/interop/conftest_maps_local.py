"""Temporary interop fixtures of the map tests (to be replaced by the shared tests/interop/conftest.py).

peer_include_dir: the include directory of the apache-tvm-ffi wheel (installed into a scratch
directory on first use). build_with_peer_headers / build_with_our_headers(name, source) compile
one C++ source into a shared library and return its path; the library links no runtime, its
symbols resolve against the libtvm_ffi already loaded (RTLD_GLOBAL) by whichever package loads it.
run_under_peer(script) runs Python code in a separate process that imports the wheel's package.
"""
import os
import subprocess
import sys
import tempfile

import pytest

PEER_VERSION = "0.1.15.post2"
PEER_DIR = os.environ.get("TVM_FFI_PEER_DIR", "/tmp/tvm_peer")
OUR_INCLUDE = os.path.join(os.path.dirname(__file__), "..", "..", "cpp", "include")


def _ensure_peer():
    if not os.path.isdir(os.path.join(PEER_DIR, "tvm_ffi", "include")):
        try:
            subprocess.run(
                [sys.executable, "-m", "pip", "install", "--no-deps", "-q", "--target", PEER_DIR,
                 "apache-tvm-ffi==" + PEER_VERSION],
                check=True,
            )
        except (subprocess.CalledProcessError, OSError) as err:
            pytest.skip("the apache-tvm-ffi peer wheel is not available: %s" % err)
    return PEER_DIR


@pytest.fixture(scope="session")
def peer_include_dir():
    return os.path.join(_ensure_peer(), "tvm_ffi", "include")


@pytest.fixture(scope="session")
def _build_dir():
    with tempfile.TemporaryDirectory(prefix="tvm_ffi_interop_") as d:
        yield d


def _compile(build_dir, name, source, include_dirs):
    src = os.path.join(build_dir, name + ".cc")
    with open(src, "w") as f:
        f.write(source)
    out = os.path.join(build_dir, name + ".so")
    cmd = ["g++", "-std=c++17", "-O1", "-shared", "-fPIC", src, "-o", out]
    for inc in include_dirs:
        cmd += ["-I", inc]
    res = subprocess.run(cmd, capture_output=True, text=True)
    assert res.returncode == 0, "compiling %s failed:\n%s" % (name, res.stderr)
    return out


@pytest.fixture(scope="session")
def build_with_peer_headers(peer_include_dir, _build_dir):
    def build(name, source):
        return _compile(_build_dir, "peer_" + name, source, [peer_include_dir])

    return build


@pytest.fixture(scope="session")
def build_with_our_headers(_build_dir):
    def build(name, source):
        return _compile(_build_dir, "ours_" + name, source, [os.path.abspath(OUR_INCLUDE)])

    return build


@pytest.fixture(scope="session")
def run_under_peer(peer_include_dir):
    def run(script):
        env = dict(os.environ)
        env["PYTHONPATH"] = PEER_DIR
        res = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                             env=env, cwd=tempfile.gettempdir())
        return res

    return run
