"""Compile CUDA source text to a cubin at run time with NVRTC (through cuda-python).

    from tvm_ffi.cpp.nvrtc import nvrtc_compile

    cubin = nvrtc_compile('extern "C" __global__ void k(float* x) { x[0] = 1; }')

The cubin can be embedded into a module built with ``tvm_ffi.cpp.build_inline(...,
embed_cubin={"name": cubin})`` or loaded with the CUDA driver API. This module needs the
``cuda-python`` package (``cuda.bindings.nvrtc``); neither ``import tvm_ffi`` nor
``import tvm_ffi.cpp`` imports it, and cuda-python is only imported when a function here runs.
"""

__all__ = ["nvrtc_compile"]


def _import_bindings(module):
    """cuda.bindings.<module>, or an ImportError saying which package provides it."""
    import importlib

    try:
        return importlib.import_module("cuda.bindings." + module)
    except ImportError as err:
        raise ImportError(
            "tvm_ffi.cpp.nvrtc needs the cuda-python package (cuda.bindings.%s could not be "
            "imported: %s); install it with `pip install cuda-python`" % (module, err)
        ) from err


def _error_text(nvrtc, status):
    result = nvrtc.nvrtcGetErrorString(status)
    text = result[1] if isinstance(result, tuple) and len(result) > 1 else result
    if isinstance(text, bytes):
        text = text.decode("utf-8", "replace")
    return str(text)


def _check(nvrtc, result, what):
    """The values after the status of a cuda-python call's result tuple; RuntimeError when
    the status is not NVRTC_SUCCESS."""
    status = result[0]
    if status != nvrtc.nvrtcResult.NVRTC_SUCCESS:
        raise RuntimeError("%s failed: %s" % (what, _error_text(nvrtc, status)))
    return result[1:]


def _current_device_arch():
    """``sm_<major><minor>`` of the current CUDA device (cudaGetDevice)."""
    runtime = _import_bindings("runtime")
    success = runtime.cudaError_t.cudaSuccess

    def call(result, what):
        if result[0] != success:
            raise RuntimeError(
                "tvm_ffi.cpp.nvrtc: cannot read the current CUDA device's compute capability "
                "(%s returned %s); pass arch= explicitly" % (what, result[0])
            )
        return result[1]

    device = call(runtime.cudaGetDevice(), "cudaGetDevice")
    attrs = runtime.cudaDeviceAttr
    major = call(
        runtime.cudaDeviceGetAttribute(attrs.cudaDevAttrComputeCapabilityMajor, device),
        "cudaDeviceGetAttribute",
    )
    minor = call(
        runtime.cudaDeviceGetAttribute(attrs.cudaDevAttrComputeCapabilityMinor, device),
        "cudaDeviceGetAttribute",
    )
    return "sm_%d%d" % (major, minor)


def _as_bytes(value, argname):
    if isinstance(value, bytes):
        return value
    if isinstance(value, str):
        return value.encode("utf-8")
    raise TypeError(
        "nvrtc_compile: %s must be str or bytes, got %s" % (argname, type(value).__name__)
    )


def _fresh_buffer(size):
    """A new bytes object of size (> 0) bytes for cuda-python to fill in place (its output
    arguments are char*): never a shared constant such as ``b" " * 1``, which is the literal
    itself."""
    return bytes(size)


def nvrtc_compile(source, *, name="kernel.cu", arch=None, extra_opts=None):
    """Compile CUDA C++ ``source`` with NVRTC and return the cubin as bytes.

    Parameters
    ----------
    source : str or bytes
        The CUDA C++ program. Kernels meant to be looked up by name should be
        ``extern "C"`` (NVRTC mangles C++ names).
    name : str
        The program's file name, as it appears in the compiler's messages.
    arch : str, optional
        Target architecture, a real one since the result is a cubin: ``"sm_90"``,
        ``"sm_90a"``, ``"sm_80"``... Passed as ``--gpu-architecture=<arch>``. Default: the
        compute capability of the current CUDA device (``cudaGetDevice``), e.g. ``"sm_90"`` on
        an H100/H200 (arch-specific features such as wgmma need ``"sm_90a"`` given explicitly).
    extra_opts : list of str, optional
        More NVRTC options, after the architecture (``"-std=c++17"``, ``"-I/path"``, ...).

    Raises
    ------
    ImportError
        cuda-python (``cuda.bindings.nvrtc``) is not installed.
    RuntimeError
        The compilation failed: the message holds NVRTC's error and the compile log. Also when
        arch is None and the current device cannot be queried.
    TypeError, ValueError
        A bad argument (named in the message).
    """
    nvrtc = _import_bindings("nvrtc")
    src = _as_bytes(source, "source")
    program_name = _as_bytes(name, "name")
    if arch is None:
        arch = _current_device_arch()
    if not isinstance(arch, str) or not arch.startswith("sm_"):
        raise ValueError(
            "nvrtc_compile: arch must name a real architecture such as 'sm_90' (a cubin "
            "targets one), got %r" % (arch,)
        )
    if extra_opts is None:
        extra_opts = []
    elif isinstance(extra_opts, (str, bytes)):
        raise TypeError("nvrtc_compile: extra_opts must be a list of str, not a single string")
    options = [("--gpu-architecture=" + arch).encode("utf-8")]
    for i, opt in enumerate(extra_opts):
        options.append(_as_bytes(opt, "extra_opts[%d]" % i))

    (program,) = _check(
        nvrtc, nvrtc.nvrtcCreateProgram(src, program_name, 0, [], []), "nvrtcCreateProgram"
    )
    try:
        status = nvrtc.nvrtcCompileProgram(program, len(options), options)[0]
        if status != nvrtc.nvrtcResult.NVRTC_SUCCESS:
            log = _program_log(nvrtc, program)
            raise RuntimeError(
                "NVRTC failed to compile %s (%s):\n%s"
                % (program_name.decode("utf-8", "replace"), _error_text(nvrtc, status), log)
            )
        (size,) = _check(nvrtc, nvrtc.nvrtcGetCUBINSize(program), "nvrtcGetCUBINSize")
        if size == 0:
            return b""
        buffer = _fresh_buffer(size)
        _check(nvrtc, nvrtc.nvrtcGetCUBIN(program, buffer), "nvrtcGetCUBIN")
        return buffer
    finally:
        nvrtc.nvrtcDestroyProgram(program)


def _program_log(nvrtc, program):
    """The compile log as text (without the terminating NUL)."""
    (size,) = _check(nvrtc, nvrtc.nvrtcGetProgramLogSize(program), "nvrtcGetProgramLogSize")
    if size <= 1:
        return ""
    buffer = _fresh_buffer(size)
    _check(nvrtc, nvrtc.nvrtcGetProgramLog(program, buffer), "nvrtcGetProgramLog")
    return buffer.rstrip(b"\0").decode("utf-8", "replace").rstrip()
