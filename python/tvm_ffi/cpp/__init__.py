"""Build C++ into a loadable tvm-ffi module from Python (the "API mode" of tvm-ffi).

    mod = tvm_ffi.cpp.load_inline(
        "demo",
        "int add(int a, int b) { return a + b; }",
        functions=["add"],
    )
    mod.add(1, 2)  # 3

The code is compiled against the headers and library of the installed package, and the result
is cached by a hash of every build input (see docs/cpp_build.md), so the second run of a script
loads the library without compiling. ``CXX`` chooses the compiler; ``TVM_FFI_CACHE_DIR`` the
cache directory.
"""

import os

from ._build import BuildError, as_str_list, build_library, cache_root
from ._inline import generate_source, normalize_functions, normalize_sources

__all__ = ["load_inline", "build_inline", "build", "load", "BuildError", "cache_root"]


def build_inline(name, cpp_sources, functions=None, extra_cflags=None, extra_ldflags=None,
                 extra_include_paths=None, build_directory=None):
    """Compile C++ source text into a shared library and return the library's path.

    Parameters
    ----------
    name : str
        Module name: names the build directory and the library file ``<name>.so``.
    cpp_sources : str or list of str
        C++ code; the tvm-ffi headers for Function, Any, String, Array and TensorView are
        included for you.
    functions : list of str, or dict of str to str, optional
        C++ functions to export under their own names. A dict maps each name to its doc string,
        which ``Module.get_function_doc`` returns.
    extra_cflags, extra_ldflags : list of str, optional
        Extra compiler flags (also passed when linking) and extra linker flags. Paths in them
        should be absolute: commands run in the build directory.
    extra_include_paths : list of str, optional
        Extra ``-I`` directories (made absolute relative to the current directory).
    build_directory : str, optional
        Build here instead of in ``<cache>/<name>_<hash>/``; rebuilt when the inputs change.

    Raises
    ------
    BuildError
        The compiler failed; the message holds the command line and the compiler's output.
    RuntimeError
        No C++ compiler was found.
    """
    sources = normalize_sources(cpp_sources)
    funcs = normalize_functions(functions)
    text = generate_source(name, sources, funcs)
    return build_library(name, text, [], extra_cflags, extra_ldflags, extra_include_paths,
                         build_directory)


def load_inline(name, cpp_sources, functions=None, extra_cflags=None, extra_ldflags=None,
                extra_include_paths=None, build_directory=None):
    """Like :func:`build_inline`, then load the library: returns a ``tvm_ffi.Module``."""
    path = build_inline(name, cpp_sources, functions, extra_cflags, extra_ldflags,
                        extra_include_paths, build_directory)
    return _load_module(path)


def build(name, cpp_files, extra_cflags=None, extra_ldflags=None, extra_include_paths=None,
          build_directory=None):
    """Compile C++ source files into a shared library and return the library's path.

    ``cpp_files`` is a path or a list of paths; each file is compiled where it lives (so its
    relative ``#include "..."`` work) and exports its functions itself with
    ``TVM_FFI_DLL_EXPORT_TYPED_FUNC``. Headers a file includes are tracked: editing one
    triggers a rebuild. Other arguments as in :func:`build_inline`.
    """
    if isinstance(cpp_files, (str, os.PathLike)):
        cpp_files = [cpp_files]
    files = as_str_list(cpp_files, "cpp_files")
    if not files:
        raise ValueError("tvm_ffi.cpp.build(%r): cpp_files is empty" % (name,))
    return build_library(name, None, files, extra_cflags, extra_ldflags, extra_include_paths,
                         build_directory)


def load(name, cpp_files, extra_cflags=None, extra_ldflags=None, extra_include_paths=None,
         build_directory=None):
    """Like :func:`build`, then load the library: returns a ``tvm_ffi.Module``."""
    path = build(name, cpp_files, extra_cflags, extra_ldflags, extra_include_paths, build_directory)
    return _load_module(path)


def _load_module(path):
    # Imported here: building needs only libinfo, loading needs the compiled core.
    from .. import load_module

    return load_module(path)
