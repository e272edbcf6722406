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
cache directory. ``tvm_ffi.cpp.nvrtc.nvrtc_compile`` compiles CUDA text to a cubin at run time
(through cuda-python; that module is imported only when asked for).
"""

import os

from ._build import BuildError, as_str_list, build_library, cache_root
from ._inline import generate_source, normalize_functions, normalize_sources

__all__ = ["build", "build_inline", "load", "load_inline", "to_cpp_dtype"]


def build_inline(
    name,
    *,
    cpp_sources=None,
    cuda_sources=None,
    functions=None,
    extra_cflags=None,
    extra_cuda_cflags=None,
    extra_ldflags=None,
    extra_include_paths=None,
    build_directory=None,
    embed_cubin=None,
    backend=None,
    output=None,
):
    """Compile C++ (and CUDA) source text into a shared library and return the library's path.

    Parameters (all but ``name`` keyword-only)
    ------------------------------------------
    name : str
        Module name: names the build directory and the library file ``<name>.so``.
    cpp_sources, cuda_sources : str or list of str, optional
        C++ code (written to ``main.cpp``) and CUDA code (``cuda.cu``, compiled with nvcc, or
        hipcc when ``backend="hip"``); the tvm-ffi headers for Function, Tensor, dtype and
        errors are included for you.
    functions : str, list of str, or mapping of str to str, optional
        Functions to export under their own names (from the C++ part, or from the CUDA part when
        there is no C++). A mapping gives each a doc string (``Module.get_function_doc``).
    extra_cflags, extra_cuda_cflags, extra_ldflags : list of str, optional
        Extra flags for C/C++ compiles (also passed when linking), for CUDA compiles, and for
        the link. Paths in them should be absolute: commands run in the build directory.
    extra_include_paths : list of str, optional
        Extra ``-I`` directories (made absolute relative to the current directory).
    build_directory : str, optional
        Build here instead of in ``<cache>/<name>_<hash>/``; rebuilt when the inputs change.
    embed_cubin : mapping of str to bytes, optional
        Binary blobs (CUDA cubins) to embed, by name, for ``TVM_FFI_EMBED_CUBIN(name)`` in the
        source (or ``extern "C" const char __tvm_ffi__cubin_<name>[]`` and ``..._end[]``).
        Needs GNU ld and objcopy; not available on Windows (NotImplementedError).
    backend : "cuda" or "hip", optional
        GPU toolchain for CUDA sources (default: $TVM_FFI_GPU_BACKEND, else what is installed).
    output : str, optional
        Result file name in the build directory (default ``<name>.so``); a name ending in
        ``.o`` only compiles and returns the object file.

    Raises
    ------
    BuildError (a RuntimeError)
        The compiler failed; the message holds the command line and the compiler's output.
    RuntimeError
        A needed compiler (C++, C, nvcc or hipcc) was not found; the message names it.
    """
    cubins = _check_embed_cubin(embed_cubin)
    cpp = normalize_sources(cpp_sources, "cpp_sources")
    cuda = normalize_sources(cuda_sources, "cuda_sources")
    funcs = normalize_functions(functions)
    if not cpp and not cuda:
        raise AssertionError(
            "tvm_ffi.cpp.build_inline(%r): give cpp_sources or cuda_sources" % (name,)
        )
    cpp_text = generate_source(name, cpp, funcs, "cpp_sources") if cpp else None
    cuda_text = None
    if cuda:
        cuda_text = generate_source(name, cuda, [] if cpp else funcs, "cuda_sources")
    return build_library(
        name,
        cpp_text,
        [],
        extra_cflags,
        extra_ldflags,
        extra_include_paths,
        build_directory,
        generated_cuda=cuda_text,
        extra_cuda_cflags=extra_cuda_cflags,
        backend=backend,
        output=output,
        embed_cubin=cubins,
    )


def load_inline(
    name,
    *,
    cpp_sources=None,
    cuda_sources=None,
    functions=None,
    extra_cflags=None,
    extra_cuda_cflags=None,
    extra_ldflags=None,
    extra_include_paths=None,
    build_directory=None,
    embed_cubin=None,
    backend=None,
    keep_module_alive=True,
):
    """Like :func:`build_inline`, then load the library: returns a ``tvm_ffi.Module``.

    ``keep_module_alive`` keeps the library loaded for the rest of the process.
    """
    path = build_inline(
        name,
        cpp_sources=cpp_sources,
        cuda_sources=cuda_sources,
        functions=functions,
        extra_cflags=extra_cflags,
        extra_cuda_cflags=extra_cuda_cflags,
        extra_ldflags=extra_ldflags,
        extra_include_paths=extra_include_paths,
        build_directory=build_directory,
        embed_cubin=embed_cubin,
        backend=backend,
    )
    return _load_module(path, keep_module_alive)


def _source_files(sources, argname):
    if sources is None:
        return []
    if isinstance(sources, (str, os.PathLike)):
        return [os.fspath(sources)]
    return as_str_list(list(sources), argname)


def build(
    name,
    *,
    sources=None,
    cpp_files=None,
    cuda_files=None,
    extra_cflags=None,
    extra_cuda_cflags=None,
    extra_ldflags=None,
    extra_include_paths=None,
    build_directory=None,
    backend=None,
    output=None,
):
    """Compile source files into a shared library and return the library's path.

    ``sources``, ``cpp_files`` and ``cuda_files`` (each a path or a list of paths) are merged;
    each file is compiled where it lives (so its relative ``#include "..."`` work) by its
    extension: ``.c`` with $CC, ``.cu`` with nvcc/hipcc, ``.o`` linked as is, anything else
    with $CXX. Files export their functions themselves with ``TVM_FFI_DLL_EXPORT_TYPED_FUNC``.
    Headers a file includes are tracked: editing one triggers a rebuild. Other arguments as in
    :func:`build_inline`.
    """
    files = (
        _source_files(sources, "sources")
        + _source_files(cpp_files, "cpp_files")
        + _source_files(cuda_files, "cuda_files")
    )
    if not files:
        raise AssertionError("tvm_ffi.cpp.build(%r): no source files given" % (name,))
    return build_library(
        name,
        None,
        files,
        extra_cflags,
        extra_ldflags,
        extra_include_paths,
        build_directory,
        extra_cuda_cflags=extra_cuda_cflags,
        backend=backend,
        output=output,
    )


def load(
    name,
    *,
    sources=None,
    cpp_files=None,
    cuda_files=None,
    extra_cflags=None,
    extra_cuda_cflags=None,
    extra_ldflags=None,
    extra_include_paths=None,
    build_directory=None,
    backend=None,
    keep_module_alive=True,
):
    """Like :func:`build`, then load the library: returns a ``tvm_ffi.Module``."""
    path = build(
        name,
        sources=sources,
        cpp_files=cpp_files,
        cuda_files=cuda_files,
        extra_cflags=extra_cflags,
        extra_cuda_cflags=extra_cuda_cflags,
        extra_ldflags=extra_ldflags,
        extra_include_paths=extra_include_paths,
        build_directory=build_directory,
        backend=backend,
    )
    return _load_module(path, keep_module_alive)


_CPP_DTYPES = {
    "int8": "int8_t",
    "int16": "int16_t",
    "int32": "int32_t",
    "int64": "int64_t",
    "uint8": "uint8_t",
    "uint16": "uint16_t",
    "uint32": "uint32_t",
    "uint64": "uint64_t",
    "float32": "float",
    "float64": "double",
    "bool": "bool",
}
_CUDA_DTYPES = {
    "float16": "__half",
    "bfloat16": "__nv_bfloat16",
    "float8_e4m3fn": "__nv_fp8_e4m3",
    "float8_e5m2": "__nv_fp8_e5m2",
    "float8_e8m0fnu": "__nv_fp8_e8m0",
    "float4_e2m1": "__nv_fp4_e2m1",
    "float4_e2m1fn_x2": "__nv_fp4x2_e2m1",
}
_HIP_DTYPES = {
    "float16": "__half",
    "bfloat16": "__hip_bfloat16",
    "float8_e4m3fn": "__hip_fp8_e4m3",
    "float8_e5m2": "__hip_fp8_e5m2",
    "float8_e8m0fnu": "__hip_fp8_e8m0",
    "float4_e2m1": "__hip_fp4_e2m1",
    "float4_e2m1fn_x2": "__hip_fp4x2_e2m1",
}


def to_cpp_dtype(dtype):
    """The C++ type name of a dtype (str or framework dtype; a ``torch.`` prefix is dropped).

    Half, bfloat16, float8 and float4 names need a GPU build of torch (CUDA or ROCm names).
    """
    text = str(dtype)
    if text.startswith("torch."):
        text = text[len("torch.") :]
    if text in _CPP_DTYPES:
        return _CPP_DTYPES[text]
    import sys

    torch = sys.modules.get("torch")
    version = getattr(torch, "version", None)
    if getattr(version, "hip", None) and text in _HIP_DTYPES:
        return _HIP_DTYPES[text]
    if getattr(version, "cuda", None) and text in _CUDA_DTYPES:
        return _CUDA_DTYPES[text]
    raise ValueError("Unsupported dtype for C++ conversion: %s" % text)


def _check_embed_cubin(embed_cubin):
    """embed_cubin as a sorted list of (name, bytes); TypeError/ValueError name the bad entry."""
    if not embed_cubin:
        if embed_cubin is not None and not hasattr(embed_cubin, "items"):
            raise TypeError(
                "embed_cubin must be a mapping of str to bytes, got %s" % type(embed_cubin).__name__
            )
        return []
    if os.name == "nt":
        raise NotImplementedError("tvm_ffi.cpp: embed_cubin is not supported on Windows")
    if not hasattr(embed_cubin, "items"):
        raise TypeError(
            "embed_cubin must be a mapping of str to bytes, got %s" % type(embed_cubin).__name__
        )
    cubins = []
    for key, data in embed_cubin.items():
        if not isinstance(key, str) or not key.isidentifier() or not key.isascii():
            raise ValueError(
                "embed_cubin key %r must be a C identifier (it names symbols)" % (key,)
            )
        if not isinstance(data, (bytes, bytearray, memoryview)):
            raise TypeError("embed_cubin[%r] must be bytes, got %s" % (key, type(data).__name__))
        cubins.append((key, bytes(data)))
    return sorted(cubins)


def _load_module(path, keep_module_alive=True):
    # Imported here: building needs only libinfo, loading needs the compiled core.
    import inspect

    from .. import load_module

    if "keep_module_alive" in inspect.signature(load_module).parameters:
        return load_module(path, keep_module_alive=keep_module_alive)
    return load_module(path)
