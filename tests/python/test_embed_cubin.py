"""tvm_ffi.utils.embed_cubin and cpp.build_inline(embed_cubin=...), with stand-in blobs
(the embedding is byte-for-byte; no GPU or nvcc is needed to check it)."""

import ctypes
import os
import shutil
import subprocess
import sys

import pytest
import tvm_ffi
import tvm_ffi.cpp
from tvm_ffi.utils import embed_cubin as embed_mod

pytestmark = pytest.mark.skipif(
    not (shutil.which("ld") and shutil.which("objcopy") and shutil.which("cc")),
    reason="needs GNU ld, objcopy and a C compiler",
)

READER_C = """
extern const char __tvm_ffi__cubin_blob[];
extern const char __tvm_ffi__cubin_blob_end[];
long blob_size(void) { return __tvm_ffi__cubin_blob_end - __tvm_ffi__cubin_blob; }
const char* blob_data(void) { return __tvm_ffi__cubin_blob; }
"""

READER_CPP = """
extern "C" const char __tvm_ffi__cubin_%(n)s[];
extern "C" const char __tvm_ffi__cubin_%(n)s_end[];
tvm::ffi::Bytes %(n)s_bytes() {
  return tvm::ffi::Bytes(__tvm_ffi__cubin_%(n)s,
                         __tvm_ffi__cubin_%(n)s_end - __tvm_ffi__cubin_%(n)s);
}
"""
BLOB = b"\x7fELF fake cubin\x00with a NUL"


@pytest.fixture
def reader_obj(tmp_path):
    src = tmp_path / "reader.c"
    src.write_text(READER_C)
    obj = tmp_path / "reader.o"
    subprocess.run(["cc", "-fPIC", "-c", str(src), "-o", str(obj)], check=True)
    return obj


def _read_blob(tmp_path, obj):
    lib = tmp_path / "libreader.so"
    subprocess.run(["cc", "-shared", str(obj), "-o", str(lib)], check=True)
    dll = ctypes.CDLL(str(lib))
    dll.blob_size.restype = ctypes.c_long
    dll.blob_data.restype = ctypes.c_void_p
    return ctypes.string_at(dll.blob_data(), dll.blob_size())


def test_embedded_bytes_read_back_exactly(tmp_path, reader_obj):
    cubin = tmp_path / "k.cubin"
    cubin.write_bytes(BLOB)
    out = tmp_path / "out" / "new.o"
    embed_mod.embed_cubin(cubin, reader_obj, out, "blob")
    assert _read_blob(tmp_path, out) == BLOB


def test_embedded_symbols_are_local(tmp_path, reader_obj):
    cubin = tmp_path / "k.cubin"
    cubin.write_bytes(BLOB)
    out = tmp_path / "new.o"
    embed_mod.embed_cubin(cubin, reader_obj, out, "blob")
    syms = subprocess.run(["nm", str(out)], check=True, capture_output=True, text=True).stdout
    kinds = {line.split()[-1]: line.split()[-2] for line in syms.splitlines() if "cubin" in line}
    assert kinds == {"__tvm_ffi__cubin_blob": "r", "__tvm_ffi__cubin_blob_end": "r"}


def test_missing_cubin_is_file_not_found(tmp_path, reader_obj):
    with pytest.raises(FileNotFoundError, match="CUBIN file not found"):
        embed_mod.embed_cubin(tmp_path / "none.cubin", reader_obj, tmp_path / "o.o", "blob")


def test_missing_input_object_is_file_not_found(tmp_path):
    cubin = tmp_path / "k.cubin"
    cubin.write_bytes(BLOB)
    with pytest.raises(FileNotFoundError, match="Input object file not found"):
        embed_mod.embed_cubin(cubin, tmp_path / "none.o", tmp_path / "o.o", "blob")


def test_non_identifier_name_is_value_error(tmp_path, reader_obj):
    cubin = tmp_path / "k.cubin"
    cubin.write_bytes(BLOB)
    with pytest.raises(ValueError, match="C identifier"):
        embed_mod.embed_cubin(cubin, reader_obj, tmp_path / "o.o", "my-kernels")


def test_tool_failure_is_runtime_error_with_the_command(tmp_path):
    cubin = tmp_path / "k.cubin"
    cubin.write_bytes(BLOB)
    not_an_object = tmp_path / "bad.o"
    not_an_object.write_text("not an object file")
    with pytest.raises(RuntimeError, match=r"ld failed with status \d+\nCommand: "):
        embed_mod.embed_cubin(cubin, not_an_object, tmp_path / "o.o", "blob")


def _cli(*args):
    return subprocess.run(
        [sys.executable, "-m", "tvm_ffi.utils.embed_cubin", *args],
        capture_output=True,
        text=True,
        cwd="/",
    )


def test_cli_reports_the_created_file(tmp_path, reader_obj):
    cubin = tmp_path / "k.cubin"
    cubin.write_bytes(BLOB)
    out = tmp_path / "cli" / "new.o"
    proc = _cli("--output-obj", str(out), "--input-obj", str(reader_obj), "--cubin", str(cubin),
                "--name", "blob")  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "\u2713 Created %s" % out
    assert _read_blob(tmp_path, out) == BLOB


def test_cli_missing_file_exits_1(tmp_path, reader_obj):
    proc = _cli("--output-obj", str(tmp_path / "o.o"), "--input-obj", str(reader_obj),
                "--cubin", str(tmp_path / "none.cubin"), "--name", "blob")  # fmt: skip
    assert proc.returncode == 1
    assert "CUBIN file not found" in proc.stderr


def test_cli_tool_failure_exits_2(tmp_path):
    cubin = tmp_path / "k.cubin"
    cubin.write_bytes(BLOB)
    bad = tmp_path / "bad.o"
    bad.write_text("x")
    proc = _cli("--output-obj", str(tmp_path / "o.o"), "--input-obj", str(bad),
                "--cubin", str(cubin), "--name", "blob")  # fmt: skip
    assert proc.returncode == 2


def test_build_inline_embeds_each_blob(tmp_path):
    blobs = {"first": b"one\x00blob", "second": bytes(range(256))}
    mod = tvm_ffi.cpp.load_inline(
        "embed_two",
        cpp_sources=READER_CPP % {"n": "first"} + READER_CPP % {"n": "second"},
        functions=["first_bytes", "second_bytes"],
        embed_cubin=blobs,
        build_directory=str(tmp_path / "build"),
    )
    assert mod.first_bytes() == blobs["first"]
    assert mod.second_bytes() == blobs["second"]


def test_build_inline_rebuilds_when_a_blob_changes(tmp_path):
    def build(data):
        path = tvm_ffi.cpp.build_inline(
            "embed_change",
            cpp_sources=READER_CPP % {"n": "blob"},
            embed_cubin={"blob": data},
            build_directory=str(tmp_path / "build"),
        )
        with open(path, "rb") as f:
            return f.read()

    assert b"first-blob" in build(b"first-blob")
    assert b"second-blob" in build(b"second-blob")


def test_build_inline_blob_is_part_of_the_cache_key(tmp_path, monkeypatch):
    monkeypatch.setenv("TVM_FFI_CACHE_DIR", str(tmp_path / "cache"))
    src = READER_CPP % {"n": "blob"}
    a = tvm_ffi.cpp.build_inline("embed_key", cpp_sources=src, embed_cubin={"blob": b"a"})
    b = tvm_ffi.cpp.build_inline("embed_key", cpp_sources=src, embed_cubin={"blob": b"b"})
    assert os.path.dirname(a) != os.path.dirname(b)


def test_build_inline_rejects_non_bytes_blob(tmp_path):
    with pytest.raises(TypeError, match=r"embed_cubin\['blob'\] must be bytes"):
        tvm_ffi.cpp.build_inline("embed_bad", cpp_sources="", embed_cubin={"blob": "text"})


def test_build_inline_rejects_non_identifier_blob_name(tmp_path):
    with pytest.raises(ValueError, match="must be a C identifier"):
        tvm_ffi.cpp.build_inline("embed_bad", cpp_sources="", embed_cubin={"a-b": b"x"})


def test_build_inline_rejects_non_mapping(tmp_path):
    with pytest.raises(TypeError, match="embed_cubin must be a mapping"):
        tvm_ffi.cpp.build_inline("embed_bad", cpp_sources="", embed_cubin=[("a", b"x")])
