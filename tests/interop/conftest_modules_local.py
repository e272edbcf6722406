"""Stand-in fixtures for the interop tests of modules (loaded with pytest_plugins).

The shared tests/interop/conftest.py provides fixtures of the same names; this
file lets test_module_interop.py run on its own and can be deleted once the
shared one is present (remove the pytest_plugins line of the test with it).

  peer_include_dir                  the apache-tvm-ffi wheel's include directory
  build_with_peer_headers(name, src) compile src with the peer's headers, link our libtvm_ffi
  build_with_our_headers(name, src)  compile src with our installed headers
  run_under_peer(script)             run a Python script with the peer package importable
"""

import os
import subprocess
import sys

import pytest

PEER_ROOT = os.environ.get("TVM_FFI_PEER_ROOT", "/tmp/tvm_peer")


def _our_flags():
    from tvm_ffi import libinfo

    libdir = os.path.dirname(libinfo.find_libtvm_ffi())
    return ["-L" + libdir, "-ltvm_ffi", "-Wl,-rpath," + libdir]


def _compile(tmp_dir, name, source, include_dirs):
    src = os.path.join(tmp_dir, name + ".cc")
    with open(src, "w") as f:
        f.write(source)
    out = os.path.join(tmp_dir, name + ".so")
    cmd = ["g++", "-std=c++17", "-shared", "-fPIC", "-O1", src, "-o", out]
    cmd += ["-I" + d for d in include_dirs] + _our_flags()
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          universal_newlines=True)
    assert proc.returncode == 0, " ".join(cmd) + "\n" + proc.stdout
    return out


@pytest.fixture(scope="session")
def peer_include_dir():
    path = os.path.join(PEER_ROOT, "tvm_ffi", "include")
    if not os.path.isfile(os.path.join(path, "tvm", "ffi", "extra", "module.h")):
        pytest.skip("peer headers not found under %s (pip install --no-deps --target %s "
                    "apache-tvm-ffi==0.1.15.post2)" % (PEER_ROOT, PEER_ROOT))
    return path


@pytest.fixture(scope="session")
def build_with_peer_headers(peer_include_dir, tmp_path_factory):
    tmp_dir = str(tmp_path_factory.mktemp("peer_built"))
    return lambda name, source: _compile(tmp_dir, name, source, [peer_include_dir])


@pytest.fixture(scope="session")
def build_with_our_headers(tmp_path_factory):
    from tvm_ffi import libinfo

    tmp_dir = str(tmp_path_factory.mktemp("our_built"))
    return lambda name, source: _compile(tmp_dir, name, source, libinfo.include_paths())


@pytest.fixture(scope="session")
def run_under_peer(peer_include_dir):
    def run(script):
        env = dict(os.environ, PYTHONPATH=PEER_ROOT)
        return subprocess.run([sys.executable, "-c", script], stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, universal_newlines=True, env=env)

    return run
