"""Embedding a CUBIN (or fatbin) image into an object file, for ``TVM_FFI_EMBED_CUBIN``.

The image becomes read-only data between the local symbols ``__tvm_ffi__cubin_<name>`` and
``__tvm_ffi__cubin_<name>_end`` of the output object (GNU ``ld`` and ``objcopy``).
CLI: ``python -m tvm_ffi.utils.embed_cubin --output-obj P --input-obj P --cubin P --name N``.
"""

import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path


def _run(cmd, cwd, verbose):
    if verbose:
        print("[embed_cubin] " + " ".join(str(c) for c in cmd))
    proc = subprocess.run(
        [str(c) for c in cmd], cwd=cwd, capture_output=True, text=True, check=False
    )
    if proc.returncode != 0:
        raise RuntimeError(
            "%s failed with status %d\nCommand: %s\nstdout: %s\nstderr: %s"
            % (cmd[0], proc.returncode, " ".join(str(c) for c in cmd), proc.stdout, proc.stderr)
        )


def embed_cubin(cubin_path, input_obj_path, output_obj_path, name, verbose=False):
    """Write ``output_obj_path``: ``input_obj_path`` linked with the image at ``cubin_path``
    under the symbols of ``name``. FileNotFoundError for a missing input; RuntimeError
    (with the command and its output) when a tool fails."""
    cubin_path = Path(cubin_path)
    input_obj_path = Path(input_obj_path)
    output_obj_path = Path(output_obj_path)
    if not cubin_path.is_file():
        raise FileNotFoundError("CUBIN file not found: %s" % cubin_path)
    if not input_obj_path.is_file():
        raise FileNotFoundError("Input object file not found: %s" % input_obj_path)
    with tempfile.TemporaryDirectory(prefix="tvm_ffi_embed_") as tmp:
        tmp = Path(tmp)
        image = "embedded_%s.cubin" % name
        shutil.copyfile(cubin_path, tmp / image)
        blob = tmp / ("%s_blob.o" % name)
        _run(["ld", "-r", "-b", "binary", "-o", blob, image], tmp, verbose)
        # No executable stack, and the bytes read-only under our symbol names.
        _run(
            [
                "objcopy",
                "--add-section",
                ".note.GNU-stack=/dev/null",
                "--rename-section",
                ".data=.rodata,alloc,load,readonly,data,contents",
                "--redefine-sym",
                "_binary_embedded_%s_cubin_start=__tvm_ffi__cubin_%s" % (name, name),
                "--redefine-sym",
                "_binary_embedded_%s_cubin_end=__tvm_ffi__cubin_%s_end" % (name, name),
                blob,
            ],
            tmp,
            verbose,
        )
        merged = tmp / ("%s_merged.o" % name)
        _run(["ld", "-r", "-o", merged, input_obj_path.resolve(), blob], tmp, verbose)
        _run(
            [
                "objcopy",
                "--localize-symbol",
                "__tvm_ffi__cubin_%s" % name,
                "--localize-symbol",
                "__tvm_ffi__cubin_%s_end" % name,
                merged,
            ],
            tmp,
            verbose,
        )
        output_obj_path.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(merged, output_obj_path)


def main(argv=None):
    """CLI entry; returns 0, 1 (missing file), 2 (tool failure) or 3 (anything else)."""
    parser = argparse.ArgumentParser(
        prog="python -m tvm_ffi.utils.embed_cubin",
        description="Embed a CUBIN image into an object file for TVM_FFI_EMBED_CUBIN.",
    )
    parser.add_argument("--output-obj", required=True, help="object file to write")
    parser.add_argument("--input-obj", required=True, help="object file to add the image to")
    parser.add_argument("--cubin", required=True, help="the CUBIN/fatbin image")
    parser.add_argument("--name", required=True, help="symbol name of the image")
    parser.add_argument("-v", "--verbose", action="store_true", help="print the commands")
    args = parser.parse_args(argv)
    try:
        embed_cubin(
            Path(args.cubin), Path(args.input_obj), Path(args.output_obj), args.name, args.verbose
        )
    except FileNotFoundError as err:
        print("Error: %s" % err, file=sys.stderr)
        return 1
    except RuntimeError as err:
        print("Error: %s" % err, file=sys.stderr)
        return 2
    except Exception as err:  # the CLI reports any other failure as status 3
        print("Error: %s" % err, file=sys.stderr)
        return 3
    if not args.verbose:
        print("\u2713 Created %s" % args.output_obj)
    return 0


if __name__ == "__main__":
    sys.exit(main())
