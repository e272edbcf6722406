"""Locate the files of the installed (or in-tree) tvm-ffi: library, headers, CMake config.

Two layouts are searched:
  * installed wheel: tvm_ffi/lib/libtvm_ffi.so, tvm_ffi/include, tvm_ffi/share/cmake/tvm_ffi
  * source tree:     <repo>/build/... for the library, <repo>/cpp/include for headers
The environment variable TVM_FFI_LIBRARY_PATH (a file or a directory) overrides the library.
"""

import os
import sys

_PKG_DIR = os.path.dirname(os.path.abspath(__file__))
# python/tvm_ffi -> repository root, only meaningful when running from a checkout.
_REPO_ROOT = os.path.dirname(os.path.dirname(_PKG_DIR))

if sys.platform.startswith("win32"):
    _LIB_NAME = "tvm_ffi.dll"
elif sys.platform.startswith("darwin"):
    _LIB_NAME = "libtvm_ffi.dylib"
else:
    _LIB_NAME = "libtvm_ffi.so"


def _library_candidates():
    env = os.environ.get("TVM_FFI_LIBRARY_PATH")
    if env:
        yield env if os.path.isfile(env) else os.path.join(env, _LIB_NAME)
    yield os.path.join(_PKG_DIR, "lib", _LIB_NAME)
    for build in ("build", "build-release", "build-debug"):
        yield os.path.join(_REPO_ROOT, build, "lib", _LIB_NAME)
        yield os.path.join(_REPO_ROOT, build, _LIB_NAME)


def find_libtvm_ffi():
    """Return the path of libtvm_ffi; raise RuntimeError listing the places searched."""
    searched = []
    for path in _library_candidates():
        if os.path.isfile(path):
            return os.path.abspath(path)
        searched.append(path)
    raise RuntimeError(
        "cannot find %s; searched: %s (set TVM_FFI_LIBRARY_PATH to override)"
        % (_LIB_NAME, ", ".join(searched))
    )


def _first_dir(candidates, what):
    for path in candidates:
        if os.path.isdir(path):
            return os.path.abspath(path)
    raise RuntimeError("cannot find the tvm-ffi %s; searched: %s" % (what, ", ".join(candidates)))


def find_include_path():
    """Directory holding tvm/ffi/*.h."""
    return _first_dir(
        [os.path.join(_PKG_DIR, "include"), os.path.join(_REPO_ROOT, "cpp", "include")],
        "include directory",
    )


def find_dlpack_include_path():
    """Directory holding dlpack/dlpack.h (shipped next to the tvm-ffi headers)."""
    inc = find_include_path()
    if os.path.isfile(os.path.join(inc, "dlpack", "dlpack.h")):
        return inc
    raise RuntimeError("cannot find dlpack/dlpack.h under %s" % inc)


def find_cmake_path():
    """Directory of the CMake package (tvm_ffi-config.cmake), for -Dtvm_ffi_DIR=.

    The installed package's share/cmake/tvm_ffi, else <repo>/cmake in a source checkout.
    """
    candidates = [
        os.path.join(_PKG_DIR, "share", "cmake", "tvm_ffi"),
        os.path.join(_REPO_ROOT, "cmake"),
    ]
    return _first_dir(candidates, "CMake package directory")


def find_source_path():
    """The directory holding the runtime sources: the package dir or the checkout root."""
    for path in (_PKG_DIR, _REPO_ROOT):
        if os.path.isdir(os.path.join(path, "src")) or os.path.isdir(
            os.path.join(path, "cpp", "src")
        ):
            return os.path.abspath(path)
    raise RuntimeError("cannot find the tvm-ffi sources; searched: %s, %s" % (_PKG_DIR, _REPO_ROOT))


def find_cython_lib():
    """Resolved path of the tvm_ffi.core extension, found without importing it."""
    import glob
    import sysconfig

    suffix = sysconfig.get_config_var("EXT_SUFFIX") or ".so"
    exact = os.path.join(_PKG_DIR, "core" + suffix)
    if os.path.isfile(exact):
        return os.path.realpath(exact)
    found = sorted(
        glob.glob(os.path.join(_PKG_DIR, "core.*.so"))
        + glob.glob(os.path.join(_PKG_DIR, "core.*.pyd"))
    )
    if found:
        return os.path.realpath(found[0])
    raise RuntimeError("cannot find the tvm_ffi.core extension in %s" % _PKG_DIR)


def find_python_helper_include_path():
    """Directory holding tvm_ffi_python_helpers.h (installed: <pkg>/include)."""
    for path in (
        os.path.join(_PKG_DIR, "include"),
        os.path.join(_PKG_DIR, "cython"),
        os.path.join(_REPO_ROOT, "python", "tvm_ffi", "cython"),
    ):
        if os.path.isfile(os.path.join(path, "tvm_ffi_python_helpers.h")):
            return os.path.abspath(path)
    raise RuntimeError(
        "cannot find tvm_ffi_python_helpers.h under %s or %s" % (_PKG_DIR, _REPO_ROOT)
    )


def find_windows_implib():
    """The import library tvm_ffi.lib next to the tvm_ffi DLL (linking on Windows).

    The path is derived from the library's location; on other systems no such file exists,
    and the path says where it would be.
    """
    return os.path.join(os.path.dirname(find_libtvm_ffi()), "tvm_ffi.lib")


def include_paths():
    """Every include directory a C++ user of the headers needs: sorted, without duplicates."""
    paths = {find_include_path(), find_dlpack_include_path()}
    try:
        paths.add(find_python_helper_include_path())
    except RuntimeError:
        pass  # a build without the Python helper header still has the C++ headers
    return sorted(paths)


def _library_basename(target_name):
    if sys.platform.startswith("win32"):
        return target_name + ".dll"
    if sys.platform.startswith("darwin"):
        return "lib" + target_name + ".dylib"
    return "lib" + target_name + ".so"


def _find_library_by_basename(
    package, target_name, extra_lib_paths=None, *, use_fallback_build_path=True, use_env_path=True
):
    """Locate the shared library of target_name shipped by distribution package.

    Searched in order: the files the distribution installed (its RECORD), the
    directories of extra_lib_paths (pathlib.Path each), this package's and the
    source checkout's build/lib and lib directories, then LD_LIBRARY_PATH (or
    DYLD_LIBRARY_PATH) and PATH. Returns a resolved pathlib.Path; RuntimeError
    lists every directory searched when nothing matches. Any distribution name
    finds this package's own libtvm_ffi through the fallback directories.
    """
    import pathlib

    basename = _library_basename(target_name)
    searched = []
    try:
        from importlib import metadata

        files = metadata.distribution(package).files or []
        for entry in files:
            if pathlib.PurePath(str(entry)).name == basename:
                path = pathlib.Path(str(entry.locate()))
                if path.is_file():
                    return path.resolve()
        searched.append("<files of distribution %s>" % package)
    except Exception:  # not installed, or metadata without a file list
        searched.append("<distribution %s: not found>" % package)
    dirs = []
    for i, path in enumerate(extra_lib_paths or []):
        if not isinstance(path, pathlib.Path):
            raise TypeError(
                "extra_lib_paths[%d] must be a pathlib.Path, got %s" % (i, type(path).__name__)
            )
        dirs.append(path)
    if use_fallback_build_path:
        dirs += [
            pathlib.Path(_PKG_DIR, "build", "lib"),
            pathlib.Path(_PKG_DIR, "lib"),
            pathlib.Path(_REPO_ROOT, "build", "lib"),
            pathlib.Path(_REPO_ROOT, "lib"),
        ]
    if use_env_path:
        names = [
            "DYLD_LIBRARY_PATH" if sys.platform.startswith("darwin") else "LD_LIBRARY_PATH",
            "PATH",
        ]
        for name in names:
            dirs += [pathlib.Path(p) for p in os.environ.get(name, "").split(os.pathsep) if p]
    for d in dirs:
        candidate = d / basename
        if candidate.is_file():
            return candidate.resolve()
        searched.append(str(d))
    raise RuntimeError(
        "Cannot find library %s of package %s; searched: %s"
        % (basename, package, ", ".join(searched))
    )


def _resolve_and_validate(paths, cond):
    """The first of paths (pathlib.Path or str each, in order) that cond accepts, as a str.

    Each candidate is resolved (``Path.resolve()``, which does not require it to exist), then
    passed to cond: True accepts the resolved path, False moves on, and a returned
    pathlib.Path is the answer as it is. A candidate whose resolution or cond raises OSError or
    AssertionError is skipped; any other exception propagates. None when nothing is accepted.
    Clients such as Apache TVM locate their libraries and include directories with it.
    """
    import pathlib

    for i, path in enumerate(paths):
        if not isinstance(path, (str, os.PathLike)):
            raise TypeError(
                "paths[%d] must be a pathlib.Path or str, got %s" % (i, type(path).__name__)
            )
        try:
            resolved = pathlib.Path(path).resolve()
            verdict = cond(resolved)
        except (OSError, AssertionError):
            continue
        if isinstance(verdict, pathlib.PurePath):
            return str(verdict)
        if verdict:
            return str(resolved)
    return None


def load_lib_ctypes(package, target_name, mode, extra_lib_paths=None):
    """ctypes.CDLL of target_name's library (_find_library_by_basename), mode e.g. "RTLD_GLOBAL"."""
    import ctypes

    path = _find_library_by_basename(package, target_name, extra_lib_paths)
    return ctypes.CDLL(str(path), getattr(ctypes, mode))


def load_lib_module(package, target_name, keep_module_alive=True, extra_lib_paths=None):
    """tvm_ffi.load_module of target_name's library (see _find_library_by_basename)."""
    from .module import load_module

    path = _find_library_by_basename(package, target_name, extra_lib_paths)
    return load_module(str(path), keep_module_alive=keep_module_alive)
