"""The `tvm-ffi-config` command: print compiler and linker flags for building against tvm-ffi.

    g++ -shared -fPIC x.cc $(tvm-ffi-config --cxxflags --ldflags --libs) -o x.so

Each requested flag prints one line, always in the order of _FLAGS (whatever
the command-line order), so the shell joins several of them into one command.
"""

import argparse
import os
import sys

from . import libinfo


def _libdir():
    return os.path.dirname(libinfo.find_libtvm_ffi())


def _include_flags():
    return "-I%s -I%s" % (libinfo.find_include_path(), libinfo.find_dlpack_include_path())


# (flag, help, value) in output order.
_FLAGS = [
    ("--includedir", "directory of the tvm/ffi headers", libinfo.find_include_path),
    ("--dlpack-includedir", "directory holding dlpack/dlpack.h", libinfo.find_dlpack_include_path),
    (
        "--cmakedir",
        "directory of the CMake package (pass as -Dtvm_ffi_DIR)",
        libinfo.find_cmake_path,
    ),
    ("--libdir", "directory of libtvm_ffi", _libdir),
    ("--libfiles", "full path of libtvm_ffi", libinfo.find_libtvm_ffi),
    ("--sourcedir", "directory of the runtime sources", libinfo.find_source_path),
    ("--cython-lib-path", "path of the tvm_ffi.core extension", libinfo.find_cython_lib),
    (
        "--cxxflags",
        "C++ compiler flags (include paths, -std=c++17)",
        lambda: _include_flags() + " -std=c++17",
    ),
    ("--cflags", "C compiler flags (include paths)", _include_flags),
    ("--libs", "linker flag naming the library (-ltvm_ffi)", lambda: "-ltvm_ffi"),
    ("--ldflags", "linker flags (-L<libdir>)", lambda: "-L" + _libdir()),
]


def _parser(prog=None):
    parser = argparse.ArgumentParser(prog=prog, description="Print build flags of tvm-ffi.")
    for flag, help_text, _ in _FLAGS:
        parser.add_argument(flag, action="store_true", help=help_text)
    return parser


def main(argv=None, prog=None):
    """Run the command; returns the exit code (0; argparse exits 2 on a bad option)."""
    parser = _parser(prog)
    args = parser.parse_args(argv)
    requested = [
        (flag, value) for flag, _, value in _FLAGS if getattr(args, flag[2:].replace("-", "_"))
    ]
    if not requested:
        parser.print_help()
        return 0
    for _, value in requested:
        print(value())
    return 0


def __main__():
    """Entry point of the tvm-ffi-config console script."""
    sys.exit(main())


if __name__ == "__main__":
    sys.exit(main(prog="config.py"))
