"""Fixtures of the interop suite: the apache-tvm-ffi wheel as a black-box peer.

The peer (``apache-tvm-ffi==0.1.15.post2``) is pip-installed without
dependencies into ``build/interop/peer`` of the repository. Libraries are
compiled either with the peer's headers or with ours and linked against the
respective ``libtvm_ffi.so`` without an rpath, so that at load time they bind
to whichever ``libtvm_ffi.so`` the loading process has already loaded: a
peer-built library run under our package exercises our runtime, and the
other way round.

Fixtures (other interop tests rely on these names):
  peer_dir, peer_include_dir, peer_lib_dir,
  build_with_peer_headers(name, source) -> path of the .so,
  build_with_our_headers(name, source) -> path of the .so,
  run_under_peer(script, *args) -> CompletedProcess (``import tvm_ffi`` is the peer's),
  run_under_ours(script, *args) -> CompletedProcess (``import tvm_ffi`` is ours).
The whole suite is skipped, with the reason, only if the peer cannot be installed.
"""

import hashlib
import os
import pathlib
import shutil
import subprocess
import sys

import pytest

PEER_REQUIREMENT = "apache-tvm-ffi==0.1.15.post2"
REPO = pathlib.Path(__file__).resolve().parents[2]
WORK_DIR = REPO / "build" / "interop"
PEER_DIR = WORK_DIR / "peer"
LIB_DIR = WORK_DIR / "libs"


def _install_peer():
    """Install the peer once; returns None on success, else the reason it failed."""
    marker = PEER_DIR / "tvm_ffi" / "include" / "tvm" / "ffi" / "c_api.h"
    if marker.is_file():
        return None
    if PEER_DIR.exists():
        shutil.rmtree(PEER_DIR)
    PEER_DIR.parent.mkdir(parents=True, exist_ok=True)
    cmd = [
        sys.executable,
        "-m",
        "pip",
        "install",
        "-q",
        "--no-deps",
        "--target",
        str(PEER_DIR),
        PEER_REQUIREMENT,
    ]
    try:
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    except (OSError, subprocess.TimeoutExpired) as err:
        return "pip install %s failed: %s" % (PEER_REQUIREMENT, err)
    if out.returncode != 0 or not marker.is_file():
        return "pip install %s failed: %s" % (PEER_REQUIREMENT, (out.stderr or out.stdout)[-2000:])
    return None


@pytest.fixture(scope="session")
def peer_dir():
    reason = _install_peer()
    if reason is not None:
        pytest.skip("interop peer unavailable: " + reason)
    return PEER_DIR


@pytest.fixture(scope="session")
def peer_include_dir(peer_dir):
    return peer_dir / "tvm_ffi" / "include"


@pytest.fixture(scope="session")
def peer_lib_dir(peer_dir):
    return peer_dir / "tvm_ffi" / "lib"


def _our_include_dir():
    import tvm_ffi.libinfo

    return pathlib.Path(tvm_ffi.libinfo.find_include_path())


def _our_lib_dir():
    import tvm_ffi.libinfo

    return pathlib.Path(tvm_ffi.libinfo.find_libtvm_ffi()).parent


def _compile(name, source, include_dir, lib_dir, flavour):
    """Compile source into <name>.so, reusing an earlier build of identical input."""
    key = hashlib.sha256(
        ("\0".join([flavour, str(include_dir), str(lib_dir), source])).encode()
    ).hexdigest()[:16]
    out_dir = LIB_DIR / ("%s-%s-%s" % (flavour, name, key))
    lib = out_dir / ("%s.so" % name)
    if lib.is_file():
        return lib
    out_dir.mkdir(parents=True, exist_ok=True)
    src = out_dir / ("%s.cc" % name)
    src.write_text(source)
    cxx = os.environ.get("CXX", "g++")
    # No rpath: libtvm_ffi.so is resolved against the one already loaded.
    cmd = [
        cxx,
        "-std=c++17",
        "-shared",
        "-fPIC",
        "-O1",
        "-g",
        "-I",
        str(include_dir),
        str(src),
        "-o",
        str(lib) + ".tmp",
        "-L",
        str(lib_dir),
        "-ltvm_ffi",
    ]
    out = subprocess.run(cmd, capture_output=True, text=True)
    if out.returncode != 0:
        raise RuntimeError("compiling %s with %s headers failed:\n%s" % (name, flavour, out.stderr))
    os.replace(str(lib) + ".tmp", lib)
    return lib


@pytest.fixture(scope="session")
def build_with_peer_headers(peer_include_dir, peer_lib_dir):
    def build(name, source):
        return _compile(name, source, peer_include_dir, peer_lib_dir, "peer")

    return build


@pytest.fixture(scope="session")
def build_with_our_headers():
    def build(name, source):
        return _compile(name, source, _our_include_dir(), _our_lib_dir(), "ours")

    return build


def _python_env(extra_path):
    env = dict(os.environ)
    if extra_path is None:
        env.pop("PYTHONPATH", None)
    else:
        env["PYTHONPATH"] = str(extra_path)
    return env


@pytest.fixture(scope="session")
def run_under_peer(peer_dir, tmp_path_factory):
    """Run a Python script in a subprocess whose ``import tvm_ffi`` is the peer's."""
    cwd = tmp_path_factory.mktemp("peer_run")

    def run(script, *args, timeout=300):
        return subprocess.run(
            [sys.executable, "-c", script, *map(str, args)],
            capture_output=True,
            text=True,
            cwd=cwd,
            env=_python_env(peer_dir),
            timeout=timeout,
        )

    return run


@pytest.fixture(scope="session")
def run_under_ours(tmp_path_factory):
    """Run a Python script in a subprocess whose ``import tvm_ffi`` is ours (the installed one)."""
    cwd = tmp_path_factory.mktemp("ours_run")

    def run(script, *args, timeout=300):
        return subprocess.run(
            [sys.executable, "-c", script, *map(str, args)],
            capture_output=True,
            text=True,
            cwd=cwd,
            env=_python_env(None),
            timeout=timeout,
        )

    return run
