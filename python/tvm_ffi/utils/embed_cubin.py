"""Embed a CUBIN (or any binary blob) into an object file, for ``TVM_FFI_EMBED_CUBIN(name)``.

The blob becomes read-only data between the symbols ``__tvm_ffi__cubin_<name>`` and
``__tvm_ffi__cubin_<name>_end``, which code in the input object declares (``extern "C" const
char``) and references; both symbols are made local to the output object, so several modules
may embed blobs of the same name. Needs GNU ``ld`` and ``objcopy`` (Linux/Unix).

CLI: ``python -m tvm_ffi.utils.embed_cubin --output-obj P --input-obj P --cubin P --name N [-v]``
"""

import os
import shlex
import sys
from pathlib import Path

_USAGE_EPILOG = """\
Example:
  python -m tvm_ffi.utils.embed_cubin --output-obj new.o --input-obj old.o \\
      --cubin kernel.cubin --name my_kernels

The code compiled into old.o uses TVM_FFI_EMBED_CUBIN(my_kernels) (or declares
extern "C" const char __tvm_ffi__cubin_my_kernels[], __tvm_ffi__cubin_my_kernels_end[]);
link new.o into the final shared library. Needs GNU ld and objcopy in PATH.
"""


def _run(args, verbose):
    import subprocess

    if verbose:
        print("$ " + shlex.join(args))
    try:
        proc = subprocess.run(args, capture_output=True, text=True, check=False)
    except OSError as err:
        raise RuntimeError(
            "%s could not be run: %s\nCommand: %s" % (args[0], err, shlex.join(args))
        ) from err
    if verbose and (proc.stdout or proc.stderr):
        print(proc.stdout + proc.stderr, end="")
    if proc.returncode != 0:
        raise RuntimeError(
            "%s failed with status %d\nCommand: %s\nstdout: %s\nstderr: %s"
            % (args[0], proc.returncode, shlex.join(args), proc.stdout, proc.stderr)
        )


def embed_cubin(cubin_path, input_obj_path, output_obj_path, name, verbose=False):
    """Write output_obj_path: input_obj_path plus the bytes of cubin_path under ``name``.

    Raises FileNotFoundError for a missing input, ValueError for a name that is not a C
    identifier, RuntimeError when ld or objcopy fails (with the command and its output).
    """
    import shutil
    import tempfile

    cubin_path = Path(cubin_path)
    input_obj_path = Path(input_obj_path)
    output_obj_path = Path(output_obj_path)
    if not isinstance(name, str) or not name.isidentifier() or not name.isascii():
        raise ValueError("name must be a C identifier (it names symbols), got %r" % (name,))
    if not cubin_path.is_file():
        raise FileNotFoundError("CUBIN file not found: %s" % cubin_path)
    if not input_obj_path.is_file():
        raise FileNotFoundError("Input object file not found: %s" % input_obj_path)
    start, end = "__tvm_ffi__cubin_%s" % name, "__tvm_ffi__cubin_%s_end" % name
    with tempfile.TemporaryDirectory(prefix="tvm_ffi_embed_") as tmp:
        blob_name = "embedded_%s.cubin" % name
        shutil.copyfile(cubin_path, os.path.join(tmp, blob_name))
        open(os.path.join(tmp, "empty"), "wb").close()
        blob_obj = os.path.join(tmp, "blob.o")
        # Run in tmp with a relative name: ld derives the _binary_<file>_start symbols from it.
        cwd = os.getcwd()
        os.chdir(tmp)
        try:
            _run(["ld", "-r", "-b", "binary", "-o", "blob.o", blob_name], verbose)
        finally:
            os.chdir(cwd)
        # The note marks the object as not needing an executable stack.
        _run(["objcopy", "--add-section", ".note.GNU-stack=" + os.path.join(tmp, "empty"),
              blob_obj], verbose)  # fmt: skip
        prefix = "_binary_embedded_%s_cubin" % name
        _run(
            [
                "objcopy",
                "--rename-section",
                ".data=.rodata,alloc,load,readonly,data,contents",
                "--redefine-sym",
                "%s_start=%s" % (prefix, start),
                "--redefine-sym",
                "%s_end=%s" % (prefix, end),
                "--strip-symbol",
                prefix + "_size",
                blob_obj,
            ],
            verbose,
        )
        # Loaders want the image aligned like the ELF it is.
        _run(["objcopy", "--set-section-alignment", ".rodata=64", blob_obj], verbose)
        merged = os.path.join(tmp, "merged.o")
        _run(["ld", "-r", "-o", merged, str(input_obj_path), blob_obj], verbose)
        _run(["objcopy", "--localize-symbol", start, "--localize-symbol", end, merged], verbose)
        output_obj_path.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(merged, output_obj_path)


def main(argv=None):
    """The CLI; returns the exit code (0, 1 missing file, 2 tool failure, 3 anything else)."""
    import argparse

    parser = argparse.ArgumentParser(
        prog="python -m tvm_ffi.utils.embed_cubin",
        description="Embed CUBIN data into an object file that uses TVM_FFI_EMBED_CUBIN",
        epilog=_USAGE_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--output-obj", required=True, metavar="PATH", help="output object file")
    parser.add_argument("--input-obj", required=True, metavar="PATH", help="input object file")
    parser.add_argument("--cubin", required=True, metavar="PATH", help="CUBIN file to embed")
    parser.add_argument("--name", required=True, help="name given to TVM_FFI_EMBED_CUBIN")
    parser.add_argument("-v", "--verbose", action="store_true", help="print the tool commands")
    args = parser.parse_args(argv)
    try:
        embed_cubin(args.cubin, args.input_obj, args.output_obj, args.name, args.verbose)
    except FileNotFoundError as err:
        print("Error: %s" % err, file=sys.stderr)
        return 1
    except RuntimeError as err:
        print("Error: %s" % err, file=sys.stderr)
        return 2
    except Exception as err:  # the CLI reports every failure as an exit code
        print("Error: %s: %s" % (type(err).__name__, err), file=sys.stderr)
        return 3
    if not args.verbose:
        print("\u2713 Created %s" % args.output_obj)
    return 0


if __name__ == "__main__":
    sys.exit(main())
