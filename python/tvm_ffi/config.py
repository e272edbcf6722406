"""The `tvm-ffi-config` command: print compiler and linker flags for building against tvm-ffi.

    g++ -shared -fPIC x.cc $(tvm-ffi-config --cxxflags --ldflags --libs) -o x.so
"""

import argparse
import os
import sys

from . import libinfo


def _lib_dir():
    return os.path.dirname(libinfo.find_libtvm_ffi())


def _flag_values(args):
    """Yield the output of each requested flag, in command-line order."""
    for name in args.order:
        if name == "includedir":
            yield libinfo.find_include_path()
        elif name == "dlpack_includedir":
            yield libinfo.find_dlpack_include_path()
        elif name == "libdir":
            yield _lib_dir()
        elif name == "libfiles":
            yield libinfo.find_libtvm_ffi()
        elif name == "libs":
            yield "-ltvm_ffi"
        elif name == "cmakedir":
            yield libinfo.find_cmake_path()
        elif name == "cxxflags":
            yield " ".join("-I" + p for p in libinfo.include_paths()) + " -std=c++17"
        elif name == "cflags":
            yield " ".join("-I" + p for p in libinfo.include_paths())
        elif name == "ldflags":
            lib_dir = _lib_dir()
            yield "-L%s -Wl,-rpath,%s" % (lib_dir, lib_dir)


class _Ordered(argparse.Action):
    """Records flags in the order given so `--cxxflags --ldflags` prints in that order."""

    def __call__(self, parser, namespace, values, option_string=None):
        namespace.order.append(self.dest)


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog="tvm-ffi-config", description="Print build flags of the installed tvm-ffi."
    )
    parser.set_defaults(order=[])
    for flag, help_text in [
        ("--includedir", "directory of the tvm/ffi headers"),
        ("--dlpack-includedir", "directory of dlpack/dlpack.h"),
        ("--libdir", "directory of libtvm_ffi"),
        ("--libfiles", "full path of libtvm_ffi"),
        ("--libs", "linker flag naming the library (-ltvm_ffi)"),
        ("--cmakedir", "directory to pass as -Dtvm_ffi_DIR"),
        ("--cxxflags", "C++ compiler flags (include paths, -std=c++17)"),
        ("--cflags", "C compiler flags (include paths)"),
        ("--ldflags", "linker flags (-L and rpath)"),
    ]:
        parser.add_argument(flag, nargs=0, action=_Ordered, help=help_text)
    args = parser.parse_args(argv)
    if not args.order:
        parser.print_help()
        return 1
    try:
        print(" ".join(_flag_values(args)))
    except RuntimeError as err:
        print("tvm-ffi-config: %s" % err, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
