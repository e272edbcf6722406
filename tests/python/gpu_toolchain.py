"""Whether this machine can compile CUDA sources, for the tests that skip without nvcc."""

from tvm_ffi.cpp import _toolchain


def nvcc_available():
    """True when tvm_ffi.cpp finds nvcc (CUDA_HOME, CUDA_PATH, /usr/local/cuda or PATH)."""
    try:
        _toolchain.find_gpu_compiler("cuda")
    except RuntimeError:
        return False
    return True
