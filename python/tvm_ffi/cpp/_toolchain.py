"""Find the C++ compiler and ninja, and fingerprint the compiler for the build cache."""

import os
import shlex
import shutil
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
    import subprocess

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
            text=True,
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


def find_c_compiler():
    """The C compiler command: ``$CC`` or cc/gcc/clang; RuntimeError naming them when absent."""
    env = os.environ.get("CC", "").strip()
    if env:
        cmd = shlex.split(env)
        resolved = shutil.which(cmd[0])
        if resolved is None:
            raise RuntimeError(
                "C compiler %r (from the CC environment variable) was not found; set CC to the "
                "path of an installed C compiler" % cmd[0]
            )
        return [resolved] + cmd[1:]
    for candidate in ("cc", "gcc", "clang"):
        resolved = shutil.which(candidate)
        if resolved is not None:
            return [resolved]
    raise RuntimeError(
        "no C compiler found for the .c sources: looked for cc, gcc and clang on "
        "PATH; install one or set the CC environment variable to its path"
    )


_GPU_TOOLS = {
    "cuda": ("nvcc", ("CUDA_HOME", "CUDA_PATH"), "/usr/local/cuda"),
    "hip": ("hipcc", ("ROCM_HOME", "ROCM_PATH"), "/opt/rocm"),
}


def resolve_backend(backend):
    """ "cuda" or "hip": the given backend, else $TVM_FFI_GPU_BACKEND, torch's build (when torch
    is already imported), then whichever compiler exists (cuda by default)."""
    if backend is None:
        backend = os.environ.get("TVM_FFI_GPU_BACKEND", "").strip() or None
    if backend is None:
        import sys

        torch = sys.modules.get("torch")
        version = getattr(torch, "version", None)
        if getattr(version, "hip", None):
            backend = "hip"
        elif getattr(version, "cuda", None):
            backend = "cuda"
    if backend is None:
        if _gpu_root("cuda") is None and _gpu_root("hip") is not None:
            backend = "hip"
        else:
            backend = "cuda"
    if backend not in ("cuda", "hip"):
        raise ValueError("Invalid backend: %r (expected 'cuda' or 'hip')" % (backend,))
    return backend


def _gpu_root(backend):
    """Toolkit directory holding bin/<compiler>, or None."""
    tool, env_names, default = _GPU_TOOLS[backend]
    candidates = [os.environ.get(e) for e in env_names] + [default]
    for root in candidates:
        if root and os.path.isfile(os.path.join(root, "bin", tool)):
            return root
    found = shutil.which(tool)
    if found is not None:
        return os.path.dirname(os.path.dirname(os.path.realpath(found)))
    return None


def find_gpu_compiler(backend):
    """[nvcc] or [hipcc]; RuntimeError naming the missing compiler and where it was looked for."""
    tool, env_names, default = _GPU_TOOLS[backend]
    root = _gpu_root(backend)
    if root is None:
        raise RuntimeError(
            "building %s sources needs %s, which was not found (looked in $%s/bin, %s/bin and "
            "on PATH); install the toolkit or set %s"
            % (
                "CUDA" if backend == "cuda" else "HIP",
                tool,
                "/bin, $".join(env_names),
                default,
                env_names[0],
            )
        )
    return [os.path.join(root, "bin", tool)]


def cuda_gencode_flags():
    """-gencode flags from $TVM_FFI_CUDA_ARCH_LIST ("8.9 9.0a"), else from nvidia-smi."""
    import subprocess

    arch_list = os.environ.get("TVM_FFI_CUDA_ARCH_LIST", "").replace(";", " ").split()
    if not arch_list:
        smi = shutil.which("nvidia-smi")
        if smi is not None:
            try:
                out = subprocess.run(
                    [smi, "--query-gpu=compute_cap", "--format=csv,noheader"],
                    stdout=subprocess.PIPE,
                    stderr=subprocess.DEVNULL,
                    text=True,
                    check=False,
                    timeout=30,
                ).stdout
                arch_list = sorted({line.strip() for line in out.splitlines() if line.strip()})
            except (OSError, subprocess.SubprocessError):
                arch_list = []
    flags = []
    for arch in arch_list:
        num = arch.replace(".", "")
        flags.append("-gencode=arch=compute_%s,code=sm_%s" % (num, num))
    return flags


def hip_offload_flags():
    """--offload-arch flags from $TVM_FFI_ROCM_ARCH_LIST ("gfx90a gfx942")."""
    arch_list = os.environ.get("TVM_FFI_ROCM_ARCH_LIST", "").replace(";", " ").split()
    return ["--offload-arch=%s" % a for a in arch_list]


def gpu_link_flags(backend, compiler):
    """Libraries a module with GPU code links against."""
    root = os.path.dirname(os.path.dirname(compiler[0]))
    if backend == "cuda":
        return ["-L" + os.path.join(root, "lib64"), "-lcudart"]
    return ["-L" + os.path.join(root, "lib"), "-lamdhip64"]
