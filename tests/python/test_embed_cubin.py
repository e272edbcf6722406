"""tvm_ffi.utils.embed_cubin: a binary image linked into an object under local symbols."""

import shutil
import subprocess
import sys

import pytest
from tvm_ffi.utils.embed_cubin import embed_cubin

pytestmark = pytest.mark.skipif(
    not (shutil.which("ld") and shutil.which("objcopy") and shutil.which("cc")),
    reason="needs GNU ld, objcopy and a C compiler",
)

_READER = r"""
#include <stdio.h>
extern const char __tvm_ffi__cubin_img[];
extern const char __tvm_ffi__cubin_img_end[];
const char* img_begin(void) { return __tvm_ffi__cubin_img; }
const char* img_end(void) { return __tvm_ffi__cubin_img_end; }
"""

_MAIN = r"""
#include <stdio.h>
const char* img_begin(void);
const char* img_end(void);
int main(void) { fwrite(img_begin(), 1, img_end() - img_begin(), stdout); return 0; }
"""


@pytest.fixture
def inputs(tmp_path):
    (tmp_path / "reader.c").write_text(_READER)
    (tmp_path / "main.c").write_text(_MAIN)
    subprocess.run(["cc", "-c", "-fPIC", "reader.c", "-o", "reader.o"], cwd=tmp_path, check=True)
    cubin = tmp_path / "k.cubin"
    cubin.write_bytes(b"\x7fELF-not-really-a-cubin\x00\x01\x02")
    return tmp_path, cubin, tmp_path / "reader.o"


def test_embedded_bytes_are_readable_through_the_symbols(inputs):
    tmp, cubin, obj = inputs
    out = tmp / "out" / "reader_embedded.o"
    embed_cubin(cubin, obj, out, "img")
    subprocess.run(["cc", "main.c", str(out), "-o", "prog"], cwd=tmp, check=True)
    data = subprocess.run([str(tmp / "prog")], capture_output=True, check=True).stdout
    assert data == cubin.read_bytes()


def test_symbols_are_local_in_the_output(inputs):
    tmp, cubin, obj = inputs
    out = tmp / "o.o"
    embed_cubin(cubin, obj, out, "img")
    syms = subprocess.run(["nm", str(out)], capture_output=True, text=True, check=True).stdout
    kinds = {line.split()[-1]: line.split()[-2] for line in syms.splitlines()}
    assert kinds["__tvm_ffi__cubin_img"] == "r"
    assert kinds["__tvm_ffi__cubin_img_end"] == "r"


def test_missing_cubin_is_file_not_found(inputs):
    tmp, _, obj = inputs
    with pytest.raises(FileNotFoundError, match="CUBIN file not found: .*absent.cubin"):
        embed_cubin(tmp / "absent.cubin", obj, tmp / "o.o", "img")


def test_missing_input_object_is_file_not_found(inputs):
    tmp, cubin, _ = inputs
    with pytest.raises(FileNotFoundError, match="Input object file not found: .*absent.o"):
        embed_cubin(cubin, tmp / "absent.o", tmp / "o.o", "img")


def test_failing_tool_reports_command_and_output(inputs):
    tmp, cubin, _ = inputs
    bogus = tmp / "bogus.o"
    bogus.write_text("not an object file")
    with pytest.raises(RuntimeError, match=r"ld failed with status \d+\nCommand: ld -r"):
        embed_cubin(cubin, bogus, tmp / "o.o", "img")


def test_cli_exit_codes_and_message(inputs):
    tmp, cubin, obj = inputs
    base = [sys.executable, "-m", "tvm_ffi.utils.embed_cubin", "--name", "img"]
    ok = subprocess.run(
        base
        + ["--output-obj", str(tmp / "d" / "o.o"), "--input-obj", str(obj), "--cubin", str(cubin)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert ok.returncode == 0
    assert "\u2713 Created" in ok.stdout
    missing = subprocess.run(
        base + ["--output-obj", "o.o", "--input-obj", str(obj), "--cubin", str(tmp / "none")],
        capture_output=True,
        text=True,
        check=False,
    )
    assert missing.returncode == 1
