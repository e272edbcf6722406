"""Builds the torch DLPack exchange addon (``_torch_c_dlpack_addon.cc``) against the installed
torch; tensor_exchange.md 2.4 step 4.

``tvm_ffi._optional_torch_c_dlpack`` runs this file in a subprocess (with
``TVM_FFI_DISABLE_TORCH_C_DLPACK=1``, so that the ``import tvm_ffi`` here cannot start another
build), holding a lock on the cache entry::

    python _build_optional_torch_c_dlpack.py --output-dir DIR --libname NAME

It also works by hand. The library is linked to a temporary name in DIR and renamed over DIR/NAME,
so a reader never sees a partial file. ``CXX`` chooses the compiler (as for ``tvm_ffi.cpp``);
extra flags come from ``TVM_FFI_TORCH_ADDON_CFLAGS`` / ``TVM_FFI_TORCH_ADDON_LDFLAGS``.
Exit status 0 on success; otherwise the compiler's output is on stderr.
"""

import argparse
import os
import re
import shlex
import subprocess
import sys
import sysconfig
import tempfile

SOURCE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "_torch_c_dlpack_addon.cc")


def _cxx_standard(torch):
    """The newest C++ standard torch's own extension builder passes (c++17 when unknown):
    torch 2.13's headers need C++20, older releases C++17."""
    from torch.utils import cpp_extension

    try:
        with open(cpp_extension.__file__, encoding="utf-8") as f:
            text = f.read()
    except OSError:
        return "c++17"
    found = sorted(set(re.findall(r"-std=c\+\+(\d\d)", text)))
    return "c++" + found[-1] if found else "c++17"


def build_command(torch, output):
    """The compiler command line that builds the addon at ``output``."""
    from torch.utils import cpp_extension

    from tvm_ffi import libinfo
    from tvm_ffi.cpp import _toolchain

    cxx = _toolchain.find_compiler()
    abi = int(bool(torch._C._GLIBCXX_USE_CXX11_ABI))
    defines = ["-D_GLIBCXX_USE_CXX11_ABI=%d" % abi]
    if getattr(torch.version, "hip", None):
        # Only the DLPack device type changes: the source needs no HIP headers.
        defines.append("-DTVM_FFI_TORCH_ADDON_ROCM")
    # Our DLPack 1.3 header first (see the comment at the top of the source).
    includes = [libinfo.find_dlpack_include_path()]
    includes += cpp_extension.include_paths()
    includes.append(sysconfig.get_paths()["include"])
    lib_dirs = cpp_extension.library_paths()
    libs = ["c10", "torch", "torch_cpu", "torch_python"]
    ldflags = []
    for d in lib_dirs:
        ldflags += ["-L" + d, "-Wl,-rpath," + d]
    if sys.platform == "darwin":
        # Python's symbols come from the interpreter that loads the library.
        ldflags += ["-undefined", "dynamic_lookup"]
    cmd = cxx + ["-std=" + _cxx_standard(torch), "-O2", "-fPIC", "-shared", "-fvisibility=hidden"]
    cmd += defines + ["-I" + d for d in includes]
    cmd += shlex.split(os.environ.get("TVM_FFI_TORCH_ADDON_CFLAGS", ""))
    cmd += [SOURCE, "-o", output] + ldflags + ["-l" + lib for lib in libs]
    cmd += shlex.split(os.environ.get("TVM_FFI_TORCH_ADDON_LDFLAGS", ""))
    return cmd


def build(output_dir, libname):
    """Compile into output_dir/libname (atomically); raises RuntimeError with the output."""
    import torch

    os.makedirs(output_dir, exist_ok=True)
    final = os.path.join(output_dir, libname)
    fd, partial = tempfile.mkstemp(prefix="." + libname + ".", suffix=".tmp", dir=output_dir)
    os.close(fd)
    try:
        cmd = build_command(torch, partial)
        proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        if proc.returncode != 0:
            raise RuntimeError(
                "compiling the torch DLPack addon failed (exit code %d):\n%s\n%s"
                % (proc.returncode, shlex.join(cmd), proc.stdout)
            )
        # mkstemp made the file private; the library gets the mode of a normal link output.
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(partial, 0o755 & ~umask)
        os.replace(partial, final)
    finally:
        if os.path.exists(partial):
            os.unlink(partial)
    return final


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--output-dir", required=True, help="directory of the built library")
    parser.add_argument("--libname", required=True, help="file name of the built library")
    args = parser.parse_args(argv)
    # Run by hand on a torch without the table, `import tvm_ffi` would start this same build.
    os.environ["TVM_FFI_DISABLE_TORCH_C_DLPACK"] = "1"
    try:
        build(args.output_dir, args.libname)
    except Exception as err:
        print(err, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
