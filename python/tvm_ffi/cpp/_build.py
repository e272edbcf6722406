"""Compile C++ sources into a library loadable by tvm_ffi.load_module, with a build cache.

A build is identified by a sha256 over everything that can change its output: the sources (the
generated text, or path and contents of each file), the flags, the include paths, the compiler
(path and `--version` output) and the installed tvm-ffi (version, library file). Builds live in
``<cache>/<name>_<hash16>/`` unless the caller picks a build directory. After a successful build
a manifest records the key and every file the compiler read (from its -MMD depfiles), so headers
included by the user's sources also invalidate the build when they change.

Concurrent builders (threads or processes) serialise on an fcntl lock in the build directory and
link to a temporary file that is renamed over the final library, so a reader never sees a
half-written library and a second builder finds the first one's result.
"""

import fcntl
import os
import re
import shlex
import sys
import time

from .. import libinfo
from . import _toolchain

# hashlib, json, subprocess and datetime are imported where used: `import tvm_ffi`
# imports this module and must stay fast.

# Bumped when the layout or the command lines change, so old cache entries are not reused.
_CACHE_FORMAT = 2
_NAME_RE = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_.\-]*$")
_BASE_CFLAGS = ["-std=c++17", "-O2", "-fPIC"]
_MANIFEST = "manifest.json"
_LOG = "build.log"


class BuildError(RuntimeError):
    """A compile or link step failed; the message holds the commands and the compiler's output."""

    def __init__(self, message, commands=(), output="", build_directory=None):
        super().__init__(message)
        self.commands = list(commands)
        self.output = output
        self.build_directory = build_directory


def cache_root():
    """The cache directory: $TVM_FFI_CACHE_DIR, else $XDG_CACHE_HOME/tvm-ffi, else ~/.cache/tvm-ffi."""
    env = os.environ.get("TVM_FFI_CACHE_DIR")
    if env:
        return os.path.abspath(os.path.expanduser(env))
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(os.path.abspath(base), "tvm-ffi")


def check_name(name):
    """The module name becomes file names; reject anything that is not a plain file stem."""
    if not isinstance(name, str) or not _NAME_RE.match(name):
        raise ValueError(
            "invalid module name %r: use letters, digits, '_', '.' or '-' (it names the "
            "build directory and the library file)" % (name,)
        )


def as_str_list(value, argname):
    """None -> [], a str -> shell-split words, a list/tuple of str -> list; else TypeError."""
    if value is None:
        return []
    if isinstance(value, str):
        return shlex.split(value)
    if isinstance(value, (list, tuple)):
        for i, item in enumerate(value):
            if not isinstance(item, (str, os.PathLike)):
                raise TypeError("%s[%d] must be a str, got %s" % (argname, i, type(item).__name__))
        return [os.fspath(item) for item in value]
    raise TypeError("%s must be a str or a list of str, got %s" % (argname, type(value).__name__))


def _package_version():
    pkg = sys.modules.get("tvm_ffi")
    version = getattr(pkg, "__version__", None)
    if version is None:
        from importlib import metadata

        try:
            version = metadata.version("tvm-ffi")
        except metadata.PackageNotFoundError:  # a source tree without installed metadata
            version = "unknown"
    return str(version)


def _library_flags(lib_path):
    lib_dir = os.path.dirname(lib_path)
    if os.path.basename(lib_path) == "libtvm_ffi.so":
        return ["-L" + lib_dir, "-ltvm_ffi", "-Wl,-rpath," + lib_dir]
    # TVM_FFI_LIBRARY_PATH may name a file that -l cannot spell; link it by path.
    return [lib_path, "-Wl,-rpath," + lib_dir]


class _FileLock:
    """Exclusive fcntl lock on a file, held for the duration of a with-block."""

    def __init__(self, path):
        self._path = path
        self._fd = None

    def __enter__(self):
        self._fd = os.open(self._path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(self._fd, fcntl.LOCK_EX)
        except BaseException:
            os.close(self._fd)
            raise
        return self

    def __exit__(self, *exc):
        fcntl.flock(self._fd, fcntl.LOCK_UN)
        os.close(self._fd)
        return False


def _write_atomic(path, data):
    tmp = "%s.tmp.%d" % (path, os.getpid())
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(data)
    os.replace(tmp, path)


def _write_bytes_if_changed(path, data):
    """Write data to path unless it already holds it (an unchanged mtime spares a rebuild)."""
    try:
        with open(path, "rb") as f:
            if f.read() == data:
                return
    except OSError:
        pass
    tmp = "%s.tmp.%d" % (path, os.getpid())
    with open(tmp, "wb") as f:
        f.write(data)
    os.replace(tmp, path)


def _sha256_file(path):
    import hashlib

    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def _parse_depfile(path):
    """The prerequisites listed in a Makefile-style depfile written by -MMD."""
    with open(path, encoding="utf-8", errors="surrogateescape") as f:
        text = f.read().replace("\\\n", " ")
    tokens, cur, i = [], [], 0
    while i < len(text):
        ch = text[i]
        if ch == "\\" and i + 1 < len(text) and text[i + 1] in " #\\":
            cur.append(text[i + 1])
            i += 2
            continue
        if ch == "$" and text[i : i + 2] == "$$":
            cur.append("$")
            i += 2
            continue
        if ch.isspace():
            if cur:
                tokens.append("".join(cur))
                cur = []
        else:
            cur.append(ch)
        i += 1
    if cur:
        tokens.append("".join(cur))
    deps, seen_target = [], False
    for tok in tokens:
        if not seen_target:
            seen_target = tok.endswith(":")
            continue
        deps.append(tok)
    return deps


def _stat_entry(path):
    st = os.stat(path)
    return [path, st.st_mtime_ns, st.st_size]


def _up_to_date(build_dir, lib_path, key):
    import json

    try:
        with open(os.path.join(build_dir, _MANIFEST), encoding="utf-8") as f:
            manifest = json.load(f)
        if manifest.get("key") != key or not os.path.isfile(lib_path):
            return False
        for path, mtime_ns, size in manifest["deps"]:
            st = os.stat(path)
            if st.st_mtime_ns != mtime_ns or st.st_size != size:
                return False
        return True
    except (OSError, ValueError, KeyError, TypeError):
        return False


def _ninja_escape_path(path):
    if "\n" in path:
        raise ValueError("path %r contains a newline" % path)
    return path.replace("$", "$$").replace(" ", "$ ").replace(":", "$:")


def _ninja_command(args):
    text = shlex.join(args)
    if "\n" in text:
        raise ValueError("build command contains a newline: %r" % text)
    return text.replace("$", "$$")


def source_kind(path):
    """How a file is built, by extension: "c", "cuda", "obj" (linked as is) or "cxx"."""
    ext = os.path.splitext(path)[1].lower()
    if ext == ".c":
        return "c"
    if ext == ".cu":
        return "cuda"
    if ext in (".o", ".obj"):
        return "obj"
    return "cxx"


class _Plan:
    """The commands of one build, runnable directly or through ninja.

    ``compile_prefixes`` maps a source kind to its compiler command prefix. The last step links
    a shared library, or, when ``output`` names an object file, merges the objects into it.
    """

    def __init__(
        self,
        name,
        build_dir,
        sources,
        compile_prefixes,
        link_prefix,
        link_suffix,
        output=None,
        cubins=(),
    ):
        self.name = name
        self.build_dir = build_dir
        self.lib_path = os.path.join(build_dir, output or (name + ".so"))
        self.tmp_lib = self.lib_path + ".tmp"
        self.compiles = []  # (source, object, command, rule)
        objs = []
        used = set()
        for src in sources:
            kind = source_kind(src)
            if kind == "obj":
                objs.append(src)
                continue
            stem = os.path.splitext(os.path.basename(src))[0] or "src"
            obj_name, n = stem + ".o", 1
            while obj_name in used:  # same file name in two directories
                obj_name, n = "%s_%d.o" % (stem, n), n + 1
            used.add(obj_name)
            obj = os.path.join(build_dir, obj_name)
            if kind == "cuda":
                cmd = compile_prefixes[kind] + ["-c", src, "-o", obj]
                rule = "cuda"
            else:
                cmd = compile_prefixes[kind] + ["-MMD", "-MF", obj + ".d", "-c", src, "-o", obj]
                rule = "cxx"
            self.compiles.append((src, obj, cmd, rule))
            objs.append(obj)
        # Embedding cubins: merge the objects into one, then add each blob to it in turn.
        self.embeds = []  # (output, inputs, command)
        if cubins:
            merged = os.path.join(build_dir, "%s_merged.o" % name)
            self.embeds.append((merged, list(objs), ["ld", "-r"] + objs + ["-o", merged]))
            prev = merged
            for i, (cubin_name, cubin_path) in enumerate(cubins):
                out = os.path.join(build_dir, "%s_embed_%d.o" % (name, i))
                cmd = [sys.executable, "-m", "tvm_ffi.utils.embed_cubin", "--output-obj", out,
                       "--input-obj", prev, "--cubin", cubin_path, "--name", cubin_name]  # fmt: skip
                self.embeds.append((out, [prev, cubin_path], cmd))
                prev = out
            objs = [prev]
        if output is not None and source_kind(output) == "obj":
            if len(objs) == 1:
                self.link = ["cp", objs[0], self.tmp_lib]
            else:
                self.link = ["ld", "-r"] + objs + ["-o", self.tmp_lib]
        else:
            self.link = link_prefix + objs + ["-o", self.tmp_lib] + link_suffix
        self.link_inputs = objs

    def commands(self):
        return (
            [cmd for _, _, cmd, _ in self.compiles]
            + [cmd for _, _, cmd in self.embeds]
            + [self.link]
        )

    def depfiles(self):
        return [obj + ".d" for _, obj, _, rule in self.compiles if rule == "cxx"]

    def ninja_file(self):
        lines = [
            "# Generated by tvm_ffi.cpp for module %s; it runs ninja, then renames the .tmp output."
            % self.name,
            "ninja_required_version = 1.3",
            "rule cxx",
            "  command = $cmd",
            "  description = CXX $out",
            "  depfile = $out.d",
            "rule cuda",
            "  command = $cmd",
            "  description = CUDA $out",
            "rule link",
            "  command = $cmd",
            "  description = LINK $out",
        ]
        for src, obj, cmd, rule in self.compiles:
            lines.append(
                "build %s: %s %s" % (_ninja_escape_path(obj), rule, _ninja_escape_path(src))
            )
            lines.append("  cmd = " + _ninja_command(cmd))
        if self.embeds:
            lines += ["rule embed", "  command = $cmd", "  description = EMBED $out"]
        for out, inputs, cmd in self.embeds:
            deps = " ".join(_ninja_escape_path(p) for p in inputs)
            lines.append("build %s: embed %s" % (_ninja_escape_path(out), deps))
            lines.append("  cmd = " + _ninja_command(cmd))
        objs = " ".join(_ninja_escape_path(obj) for obj in self.link_inputs)
        lines.append("build %s: link %s" % (_ninja_escape_path(self.tmp_lib), objs))
        lines.append("  cmd = " + _ninja_command(self.link))
        lines.append("default " + _ninja_escape_path(self.tmp_lib))
        return "\n".join(lines) + "\n"


def _run(cmd, log, cwd):
    import subprocess

    log.write("$ %s\n" % shlex.join(cmd))
    try:
        proc = subprocess.run(
            cmd,
            cwd=cwd,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            check=False,
        )
    except OSError as err:
        log.write("cannot run: %s\n" % err)
        return 127, "cannot run %s: %s" % (cmd[0], err)
    log.write(proc.stdout)
    log.write("[exit code %d]\n" % proc.returncode)
    log.flush()
    return proc.returncode, proc.stdout


def _fail(plan, code, output, failed_cmds):
    cmds = "\n".join("  " + shlex.join(c) for c in failed_cmds)
    message = (
        "ninja exited with status %d: tvm_ffi.cpp: building module %r failed\n"
        "command:\n%s\n"
        "compiler output:\n%s\n"
        "build directory: %s (full log in %s)"
        % (code, plan.name, cmds, output.rstrip(), plan.build_dir, _LOG)
    )
    return BuildError(message, failed_cmds, output, plan.build_dir)


def _failed_ninja_commands(plan, output):
    """The commands of the edges ninja reports as FAILED (all of them if none is recognised)."""
    failed_lines = [line for line in output.splitlines() if line.startswith("FAILED:")]
    edges = (
        [(obj, cmd) for _, obj, cmd, _ in plan.compiles]
        + [(out, cmd) for out, _, cmd in plan.embeds]
        + [(plan.tmp_lib, plan.link)]
    )
    failed = [
        cmd for out, cmd in edges if any(line.rstrip().endswith(" " + out) for line in failed_lines)
    ]
    return failed or plan.commands()


def _execute(plan, ninja, log):
    if os.path.exists(plan.tmp_lib):
        os.remove(plan.tmp_lib)
    if ninja is not None:
        _write_atomic(os.path.join(plan.build_dir, "build.ninja"), plan.ninja_file())
        code, output = _run([ninja, "-C", plan.build_dir], log, plan.build_dir)
        if code != 0:
            raise _fail(plan, code, output, _failed_ninja_commands(plan, output))
    else:
        for cmd in plan.commands():
            # Same working directory as under ninja, so relative flags mean the same in both modes.
            code, output = _run(cmd, log, plan.build_dir)
            if code != 0:
                raise _fail(plan, code, output, [cmd])
    os.replace(plan.tmp_lib, plan.lib_path)


def build_library(
    name,
    generated_source,
    source_files,
    extra_cflags,
    extra_ldflags,
    extra_include_paths,
    build_directory,
    generated_cuda=None,
    extra_cuda_cflags=None,
    backend=None,
    output=None,
    embed_cubin=None,
):
    """Build (or find in the cache) the library for the given inputs; return its path.

    ``generated_source`` / ``generated_cuda`` are the texts of an inline build (written to
    ``main.cpp`` / ``cuda.cu`` in the build directory) or None; ``source_files`` are existing
    files, compiled where they are by their extension (``.c`` with $CC, ``.cu`` with nvcc or
    hipcc, ``.o`` linked as is, anything else with $CXX). ``output`` names the result file in
    the build directory (an ``.o`` output only compiles and merges the objects).
    ``embed_cubin`` (name -> bytes, checked by the caller) embeds each blob for
    ``TVM_FFI_EMBED_CUBIN(name)``; the blobs are written to ``<name>.cubin`` in the build
    directory.
    """
    import hashlib
    import json

    check_name(name)
    if output is not None:
        if not isinstance(output, str) or os.path.basename(output) != output or not output:
            raise ValueError("output must be a file name (no directory), got %r" % (output,))
    cflags = [f.strip() for f in as_str_list(extra_cflags, "extra_cflags")]
    cuda_cflags = [f.strip() for f in as_str_list(extra_cuda_cflags, "extra_cuda_cflags")]
    ldflags = [f.strip() for f in as_str_list(extra_ldflags, "extra_ldflags")]
    user_includes = [
        os.path.abspath(p) for p in as_str_list(extra_include_paths, "extra_include_paths")
    ]
    files = sorted(os.path.abspath(p) for p in source_files)
    file_digests = []
    for path in files:
        if not os.path.isfile(path):
            raise FileNotFoundError(
                "tvm_ffi.cpp: source file %r of module %r does not exist" % (path, name)
            )
        file_digests.append([path, _sha256_file(path)])
    kinds = {source_kind(p) for p in files}
    if generated_source is not None:
        kinds.add("cxx")
    if generated_cuda is not None:
        kinds.add("cuda")

    pkg_includes = libinfo.include_paths()
    includes = ["-I" + p for p in pkg_includes + user_includes]
    lib = libinfo.find_libtvm_ffi()
    lib_stat = os.stat(lib)
    cxx = _toolchain.find_compiler()
    toolchain_versions = [_toolchain.compiler_version(cxx)]
    prefixes = {"cxx": cxx + _BASE_CFLAGS + includes + cflags}
    if "c" in kinds:
        cc = _toolchain.find_c_compiler()
        prefixes["c"] = cc + ["-fPIC", "-O2"] + includes + cflags
    cuda_link = []
    if "cuda" in kinds:
        gpu_backend = _toolchain.resolve_backend(backend)
        gpu = _toolchain.find_gpu_compiler(gpu_backend)
        toolchain_versions.append(_toolchain.compiler_version(gpu))
        if gpu_backend == "cuda":
            prefixes["cuda"] = (
                gpu
                + ["-Xcompiler", "-fPIC", "-std=c++17", "-O2"]
                + _toolchain.cuda_gencode_flags()
                + includes
                + cuda_cflags
            )
        else:
            prefixes["cuda"] = (
                gpu
                + ["-fPIC", "-std=c++17", "-O2"]
                + _toolchain.hip_offload_flags()
                + includes
                + cuda_cflags
            )
        cuda_link = _toolchain.gpu_link_flags(gpu_backend, gpu)
    elif backend is not None:
        _toolchain.resolve_backend(backend)
    # The user's cflags go to the link too, so -fopenmp, -pthread or -fsanitize=... work given once.
    link_prefix = cxx + ["-shared", "-fPIC"] + cflags
    if sys.platform.startswith("linux"):
        # For toolchains that link libstdc++ statically into each module: keep the symbols of
        # static archives inside (exported, their GNU_UNIQUE locale ids clash with torch's
        # libstdc++), and bind the module's calls to inline functions to its own copies, which
        # use its own libstdc++.
        link_prefix += ["-Wl,--exclude-libs,ALL", "-Wl,-Bsymbolic-functions"]
    link_suffix = _library_flags(lib) + cuda_link + ldflags

    payload = {
        "format": _CACHE_FORMAT,
        "name": name,
        "generated": generated_source,
        "generated_cuda": generated_cuda,
        "files": file_digests,
        "compile": prefixes,
        "link": link_prefix + link_suffix,
        "output": output,
        "cubins": [[n, hashlib.sha256(data).hexdigest()] for n, data in (embed_cubin or [])],
        "compiler_version": toolchain_versions,
        "tvm_ffi": [_package_version(), lib, lib_stat.st_mtime_ns, lib_stat.st_size],
    }
    key = hashlib.sha256(json.dumps(payload, sort_keys=True).encode("utf-8")).hexdigest()

    if build_directory is None:
        build_dir = os.path.join(cache_root(), "%s_%s" % (name, key[:16]))
    else:
        build_dir = os.path.abspath(os.fspath(build_directory))
    os.makedirs(build_dir, exist_ok=True)

    sources = list(files)
    generated = []
    if generated_cuda is not None:
        generated.append((os.path.join(build_dir, "cuda.cu"), generated_cuda))
    if generated_source is not None:
        generated.append((os.path.join(build_dir, "main.cpp"), generated_source))
    sources = [path for path, _ in generated] + sources
    if not sources:
        raise AssertionError("tvm_ffi.cpp: module %r has no source to build" % (name,))
    cubins = [(n, os.path.join(build_dir, n + ".cubin")) for n, _ in (embed_cubin or [])]
    plan = _Plan(name, build_dir, sources, prefixes, link_prefix, link_suffix, output, cubins)
    for (_, path), (_, data) in zip(cubins, embed_cubin or []):
        _write_bytes_if_changed(path, data)

    if _up_to_date(build_dir, plan.lib_path, key):
        return plan.lib_path
    with _FileLock(os.path.join(build_dir, "lock")):
        # Another process may have finished the same build while this one waited.
        if not _up_to_date(build_dir, plan.lib_path, key):
            _build_locked(plan, key, generated)
    return plan.lib_path


def _build_locked(plan, key, generated):
    """Run the build of plan (the caller holds the lock) and write the manifest."""
    import datetime
    import json

    manifest_path = os.path.join(plan.build_dir, _MANIFEST)
    if os.path.exists(manifest_path):
        os.remove(manifest_path)
    sources = [src for src, _, _, _ in plan.compiles]
    for path, text in generated:
        try:
            with open(path, encoding="utf-8") as f:
                unchanged = f.read() == text
        except OSError:
            unchanged = False
        # Rewriting identical text would only make ninja recompile for nothing.
        if not unchanged:
            _write_atomic(path, text)
    ninja = _toolchain.find_ninja()
    start = time.monotonic()
    with open(os.path.join(plan.build_dir, _LOG), "a", encoding="utf-8") as log:
        log.write(
            "==== %s pid %d: building %s (key %s) %s\n"
            % (
                datetime.datetime.now().isoformat(timespec="seconds"),
                os.getpid(),
                plan.name,
                key,
                "with " + ninja if ninja else "with the compiler directly",
            )
        )
        log.flush()
        try:
            _execute(plan, ninja, log)
        except BuildError:
            log.write("==== failed\n")
            raise
        log.write("==== built %s in %.2f s\n" % (plan.lib_path, time.monotonic() - start))
    deps = set(sources) | {inputs[-1] for _, inputs, _ in plan.embeds[1:]}
    for depfile in plan.depfiles():
        if os.path.exists(depfile):
            deps.update(os.path.join(plan.build_dir, d) for d in _parse_depfile(depfile))
    manifest = {
        "format": _CACHE_FORMAT,
        "key": key,
        "library": plan.lib_path,
        "deps": sorted(_stat_entry(os.path.abspath(p)) for p in deps if os.path.exists(p)),
    }
    _write_atomic(manifest_path, json.dumps(manifest, indent=1))
