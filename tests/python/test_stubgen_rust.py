"""tvm_ffi.stub's rust target: ``global/`` and ``object/`` blocks of ``.rs`` files with ``//``
markers (fixtures: the testing.* functions and types of libtvm_ffi_testing)."""

import shutil
import subprocess
import textwrap

import pytest
from tvm_ffi.core import TypeSchema
from tvm_ffi.stub import cli
from tvm_ffi.stub.rust_generator import const_name, rust_func_signature, rust_type, type_name
from tvm_ffi.stub.utils import FuncInfo, _parse_type_schema

SAMPLE = """
//! Written by hand.
#![allow(dead_code)]

pub mod testing {
    // tvm-ffi-stubgen(begin): global/testing
    // tvm-ffi-stubgen(end)
}

pub struct Pair;

impl Pair {
    // tvm-ffi-stubgen(begin): object/testing.pyreflect.Pair
    // tvm-ffi-stubgen(end)
}

fn kept() -> i32 { 1 }
"""


def _write(path, text):
    path.write_text(textwrap.dedent(text).lstrip("\n"))
    return path


def _run(*args):
    return cli.__main__(["--target", "rust"] + [str(a) for a in args])


@pytest.fixture
def sample(tmp_path):
    return _write(tmp_path / "lib.rs", SAMPLE)


def test_global_block_declares_each_function_by_name(sample):
    assert _run(sample) == 0
    text = sample.read_text()
    assert '    /// `add_one(i64) -> i64`\n    pub const ADD_ONE: &str = "testing.add_one";' in text


def test_global_block_lists_functions_sorted_by_name(sample):
    _run(sample)
    lines = sample.read_text().splitlines()
    names = [line.split('"')[1] for line in lines if ': &str = "testing.' in line]
    assert names == sorted(names)
    assert "testing.nop" in names


def test_object_block_declares_type_key_fields_and_methods(sample):
    _run(sample)
    text = sample.read_text()
    assert 'pub const TYPE_KEY: &\'static str = "testing.pyreflect.Pair";' in text
    assert "    /// - `a: i64`\n    /// - `b: i64`\n" in text
    assert 'pub const FIELDS: &\'static [&\'static str] = &["a", "b"];' in text
    assert "/// - `sum(&self) -> i64`" in text


def test_second_run_changes_nothing(sample):
    _run(sample)
    first = sample.read_text()
    assert _run(sample) == 0
    assert sample.read_text() == first
    assert _run("--check", sample) == 0


def test_lines_outside_the_blocks_are_kept(sample):
    _run(sample)
    text = sample.read_text()
    assert text.startswith("//! Written by hand.\n#![allow(dead_code)]\n\npub mod testing {\n")
    assert text.endswith("    // tvm-ffi-stubgen(end)\n}\n\nfn kept() -> i32 { 1 }\n")


def test_check_reports_a_stale_file_without_writing(sample, capsys):
    assert _run("--check", sample) == 1
    assert "[Stale]" in capsys.readouterr().out
    assert sample.read_text() == textwrap.dedent(SAMPLE).lstrip("\n")


def test_directory_walk_visits_only_rust_files(tmp_path):
    rs = _write(tmp_path / "a.rs", SAMPLE)
    py = _write(
        tmp_path / "b.py", "# tvm-ffi-stubgen(begin): global/testing\n# tvm-ffi-stubgen(end)\n"
    )
    assert _run(tmp_path) == 0
    assert "ADD_ONE" in rs.read_text()
    assert py.read_text() == "# tvm-ffi-stubgen(begin): global/testing\n# tvm-ffi-stubgen(end)\n"


def test_python_markers_in_a_rust_file_are_plain_text(tmp_path):
    path = _write(tmp_path / "a.rs", "# tvm-ffi-stubgen(begin): global/testing\n")
    assert _run(path) == 0
    assert path.read_text() == "# tvm-ffi-stubgen(begin): global/testing\n"


def test_prefix_directive_appends_a_struct_and_impl_per_type(tmp_path):
    path = _write(tmp_path / "a.rs", "// tvm-ffi-stubgen(prefix): testing.pyreflect\n")
    assert _run(path) == 0
    text = path.read_text()
    assert (
        "/// FFI binding for `testing.pyreflect.Pair`.\npub struct Pair;\n\nimpl Pair {\n"
        "    // tvm-ffi-stubgen(begin): object/testing.pyreflect.Pair\n"
    ) in text
    assert text.index("pub struct Parent;") < text.index("pub struct Child;")
    assert _run(path) == 0
    assert path.read_text() == text


@pytest.mark.parametrize("kind", ["import-section", "__all__", "export/x"])
def test_python_only_block_fails_the_file_naming_its_line(tmp_path, capsys, kind):
    path = tmp_path / "a.rs"
    path.write_text("\n// tvm-ffi-stubgen(begin): %s\n// tvm-ffi-stubgen(end)\n" % kind)
    assert _run(path) == 2
    assert "(line 2) is not supported by the rust target" in capsys.readouterr().out


def test_import_object_directive_fails_the_file(tmp_path, capsys):
    path = _write(tmp_path / "a.rs", "// tvm-ffi-stubgen(import-object): a.b;False;_B\n")
    assert _run(path) == 2
    assert "`import-object` (line 1) is not supported by the rust target" in (
        capsys.readouterr().out
    )


def test_unknown_directive_fails_the_file(tmp_path, capsys):
    path = _write(tmp_path / "a.rs", "// tvm-ffi-stubgen(frobnicate): x\n")
    assert _run(path) == 2
    assert "Unknown directive `frobnicate` at line 1" in capsys.readouterr().out


def test_unregistered_object_block_fails_the_file(tmp_path, capsys):
    path = _write(
        tmp_path / "a.rs",
        "// tvm-ffi-stubgen(begin): object/testing.NoSuchType\n// tvm-ffi-stubgen(end)\n",
    )
    assert _run(path) == 2
    assert "`object/testing.NoSuchType` (line 1): the type is no longer registered" in (
        capsys.readouterr().out
    )


def test_init_scaffolding_is_refused(tmp_path, capsys):
    args = ["--init-pypkg", "p", "--init-lib", "l", "--init-prefix", "testing"]
    assert _run(tmp_path, *args) == 2
    assert "not supported by the rust target" in capsys.readouterr().out
    assert list(tmp_path.iterdir()) == []


@pytest.mark.skipif(shutil.which("rustc") is None, reason="rustc is not installed")
def test_generated_file_compiles(tmp_path, sample):
    (tmp_path / "b.rs").write_text("// tvm-ffi-stubgen(prefix): testing.pyreflect\n")
    assert _run(sample, tmp_path / "b.rs") == 0
    for path in (sample, tmp_path / "b.rs"):
        proc = subprocess.run(
            [
                "rustc",
                "--crate-type",
                "lib",
                "--edition",
                "2021",
                "-D",
                "warnings",
                "-A",
                "dead_code",
                "--out-dir",
                str(tmp_path),
                str(path),
            ],
            capture_output=True,
            text=True,
            check=False,
        )
        assert proc.returncode == 0, proc.stderr


# ---- rendering ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "schema, text",
    [
        ({"type": "int"}, "i64"),
        ({"type": "float"}, "f64"),
        ({"type": "str"}, "String"),
        ({"type": "None"}, "()"),
        ({"type": "Array", "args": [{"type": "int"}]}, "Array<i64>"),
        ({"type": "Map", "args": [{"type": "str"}, {"type": "float"}]}, "Map<String, f64>"),
        ({"type": "Optional", "args": [{"type": "bool"}]}, "Option<bool>"),
        ({"type": "tuple", "args": [{"type": "int"}]}, "(i64,)"),
        ({"type": "tuple", "args": [{"type": "int"}, {"type": "str"}]}, "(i64, String)"),
    ],
)
def test_rust_type_spelling(schema, text):
    assert rust_type(TypeSchema.from_json_obj(schema)) == text


def test_callable_renders_as_fn_type():
    schema = _parse_type_schema(
        {"type": "ffi.Function", "args": [{"type": "int"}, {"type": "str"}]}
    )
    assert rust_type(schema) == "fn(String) -> i64"


def test_member_function_takes_self_first():
    schema = _parse_type_schema(
        {"type": "ffi.Function", "args": [{"type": "int"}, {"type": "Object"}, {"type": "int"}]}
    )
    assert rust_func_signature(FuncInfo.from_schema("m", schema, is_member=True)) == (
        "m(&self, i64) -> i64"
    )


def test_function_with_unknown_params_renders_dots():
    info = FuncInfo.from_schema("f", TypeSchema("Callable"))
    assert rust_func_signature(info) == "f(..) -> Any"


def test_non_callable_schema_is_rejected():
    with pytest.raises(ValueError, match="which is not Callable"):
        rust_func_signature(FuncInfo.from_schema("f", TypeSchema("int")))


@pytest.mark.parametrize(
    "name, const",
    [("add_one", "ADD_ONE"), ("AddOne", "ADD_ONE"), ("a.b-c", "A_B_C"), ("2x", "_2X")],
)
def test_function_name_as_constant(name, const):
    assert const_name(name) == const


def test_type_key_as_type_name():
    assert type_name("testing.pyreflect.Pair") == "Pair"
    assert type_name("x.2d-Point") == "_2d_Point"


def test_empty_names_are_rejected():
    with pytest.raises(ValueError, match="cannot make a Rust constant name"):
        const_name("__")
    with pytest.raises(ValueError, match="cannot make a Rust type name"):
        type_name("a.-")
