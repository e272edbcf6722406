"""Find the C++ compiler and ninja, and fingerprint the compiler for the build cache."""

import os
import shlex
import shutil
import subprocess
import threading

_lock = threading.Lock()
# Resolved compiler command (tuple) -> `--version` output; filled once per process.
_version_cache = {}


def find_compiler():
    """Return the compiler command as a list: ``$CXX`` (split like a shell would) or c++/g++.

    Raises RuntimeError naming what was looked for and how to choose another compiler.
    """
    env = os.environ.get("CXX", "").strip()
    if env:
        cmd = shlex.split(env)
        resolved = shutil.which(cmd[0])
        if resolved is None:
            raise RuntimeError(
                "C++ compiler %r (from the CXX environment variable) was not found; "
                "set CXX to the path of an installed C++ compiler, e.g. CXX=g++" % cmd[0]
            )
        return [resolved] + cmd[1:]
    for candidate in ("c++", "g++", "clang++"):
        resolved = shutil.which(candidate)
        if resolved is not None:
            return [resolved]
    raise RuntimeError(
        "no C++ compiler found: looked for c++, g++ and clang++ on PATH; install one "
        "(e.g. `apt-get install g++`) or set the CXX environment variable to its path"
    )


def compiler_version(cmd):
    """The compiler's ``--version`` output (part of the cache key), computed once per process."""
    key = tuple(cmd)
    with _lock:
        cached = _version_cache.get(key)
    if cached is not None:
        return cached
    try:
        proc = subprocess.run(
            list(cmd) + ["--version"],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            universal_newlines=True,
            check=False,
        )
    except OSError as err:
        raise RuntimeError("cannot run the C++ compiler %s: %s" % (shlex.join(cmd), err)) from err
    if proc.returncode != 0:
        raise RuntimeError(
            "the C++ compiler %s failed on --version (exit code %d):\n%s"
            % (shlex.join(cmd), proc.returncode, proc.stdout)
        )
    with _lock:
        _version_cache[key] = proc.stdout
    return proc.stdout


def find_ninja():
    """Path of ninja, or None when absent or disabled with TVM_FFI_USE_NINJA=0."""
    if os.environ.get("TVM_FFI_USE_NINJA", "1").strip().lower() in ("0", "false", "off", "no"):
        return None
    return shutil.which("ninja")
