"""tvm_ffi.stub: the stub generator (marker parsing, rendering, and the CLI pipeline run on a
small package written to a temporary directory)."""

import subprocess
import sys
import textwrap

import pytest
from tvm_ffi.core import TypeSchema
from tvm_ffi.stub import cli
from tvm_ffi.stub.consts import PYTHON_SYNTAX
from tvm_ffi.stub.file_utils import CodeBlock, FileInfo
from tvm_ffi.stub.lib_state import object_info_from_type_key, toposort_objects
from tvm_ffi.stub.python_generator.codegen import _all_sort_key
from tvm_ffi.stub.python_generator.utils import ImportItem, render_func_signature
from tvm_ffi.stub.utils import FuncInfo, _parse_type_schema


def _write(path, text):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text).lstrip("\n"))
    return path


def _run(*args):
    return cli.__main__([str(a) for a in args])


def _block(line):
    return CodeBlock.from_begin_line(1, line, PYTHON_SYNTAX)


# ---- marker grammar -------------------------------------------------------------------


def test_global_begin_marker_splits_prefix_and_import_from():
    b = _block("# tvm-ffi-stubgen(begin): global/my.pkg@.registry")
    assert (b.kind, b.param, b.lineno_end) == ("global", ("my.pkg", ".registry"), None)


def test_global_begin_marker_without_import_from_has_empty_source():
    assert _block("# tvm-ffi-stubgen(begin): global/my.pkg").param == ("my.pkg", "")


@pytest.mark.parametrize(
    "stub, kind, param",
    [
        ("object/a.B", "object", "a.B"),
        ("import-section", "import-section", ""),
        ("export/_ffi_api", "export", "_ffi_api"),
        ("__all__", "__all__", ""),
        ("ty-map/x", "ty-map", "x"),
    ],
)
def test_begin_marker_kinds(stub, kind, param):
    b = _block("# tvm-ffi-stubgen(begin): " + stub)
    assert (b.kind, b.param) == (kind, param)


def test_ty_map_one_liner_has_its_own_kind():
    b = _block("# tvm-ffi-stubgen(ty-map): A.B -> C.D")
    assert (b.kind, b.param, b.lineno_end) == ("ty-map", "A.B -> C.D", 1)


def test_import_object_one_liner_has_three_part_param():
    b = _block("# tvm-ffi-stubgen(import-object): tvm_ffi.Object;False;_Obj")
    assert (b.kind, b.param) == ("import-object", ("tvm_ffi.Object", "False", "_Obj"))


def test_other_one_liner_is_a_generic_directive():
    b = _block("# tvm-ffi-stubgen(prefix):   my.pkg  ")
    assert (b.kind, b.param) == ("directive", ("prefix", "my.pkg"))


def test_unknown_begin_stub_is_rejected_with_line():
    with pytest.raises(ValueError, match="Unknown stub type `foo/bar` at line 1"):
        _block("# tvm-ffi-stubgen(begin): foo/bar")


def test_malformed_marker_is_rejected_with_line():
    with pytest.raises(ValueError, match=r"Unknown stub type at line 1: # tvm-ffi-stubgen\(b\$d\)"):
        _block("# tvm-ffi-stubgen(b$d)")


def test_codeblock_indent_is_leading_spaces_of_first_line():
    fi_lines = ["    # tvm-ffi-stubgen(begin): __all__", "    # tvm-ffi-stubgen(end)"]
    b = CodeBlock("__all__", "", 1, 2, fi_lines)
    assert b.indent == "    "


@pytest.mark.parametrize(
    "text, message",
    [
        (
            "# tvm-ffi-stubgen(begin): __all__\n# tvm-ffi-stubgen(begin): __all__\n",
            "Nested stub not permitted at line 2",
        ),
        (
            "x = 1\n# tvm-ffi-stubgen(end)\n",
            "Unmatched `# tvm-ffi-stubgen\\(end\\)` found at line 2",
        ),
        ("# tvm-ffi-stubgen(begin): __all__\n", "Unclosed stub block at end of file"),
    ],
)
def test_block_structure_errors(tmp_path, text, message):
    path = tmp_path / "m.py"
    path.write_text(text)
    with pytest.raises(ValueError, match=message):
        FileInfo.from_file(path)


def test_fileinfo_splits_plain_lines_and_blocks(tmp_path):
    path = _write(
        tmp_path / "m.py",
        """
        x = 1
        # tvm-ffi-stubgen(begin): object/a.B
        old
        # tvm-ffi-stubgen(end)
        """,
    )
    info = FileInfo.from_file(path)
    assert [(b.kind, b.lineno_start, b.lineno_end) for b in info.code_blocks] == [
        (None, 1, 1),
        ("object", 2, 4),
    ]


def test_fileinfo_is_none_without_markers(tmp_path):
    assert FileInfo.from_file(_write(tmp_path / "m.py", "x = 1\n")) is None


def test_fileinfo_is_none_for_skip_file(tmp_path):
    path = _write(
        tmp_path / "m.py",
        """
        # tvm-ffi-stubgen(skip-file)
        # tvm-ffi-stubgen(begin): __all__
        # tvm-ffi-stubgen(end)
        """,
    )
    assert FileInfo.from_file(path) is None


# ---- rendering ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "full_name, text",
    [
        ("ffi.Object", "from tvm_ffi import Object"),
        ("ffi.access_path.AccessPath", "from tvm_ffi.access_path import AccessPath"),
        ("testing.TestIntPair", "from tvm_ffi.testing import TestIntPair"),
        ("ffi2.X", "from ffi2 import X"),
        ("testingfoo.X", "from testingfoo import X"),
        ("ctypes", "import ctypes"),
    ],
)
def test_import_item_module_rewrite(full_name, text):
    assert str(ImportItem(full_name)) == text


def test_import_item_alias_and_value_equality():
    item = ImportItem("a.b.C", alias="_C")
    assert str(item) == "from a.b import C as _C"
    assert item == ImportItem("a.b.C", alias="_C")


def _plain(name):
    return name.rpartition(".")[2]


def test_member_signature_renders_self_and_positional_only_marker():
    schema = TypeSchema("Callable", (TypeSchema("int"), TypeSchema("Object"), TypeSchema("str")))
    func = FuncInfo.from_schema("m.f", schema, is_member=True)
    assert render_func_signature(func, _plain, 4) == "    def f(self, _1: str, /) -> int: ..."


def test_signature_with_unknown_params_takes_any_args():
    func = FuncInfo.from_schema("g", TypeSchema("Callable"))
    assert render_func_signature(func, _plain, 0) == "def g(*args: Any) -> Any: ..."


def test_signature_of_non_callable_is_rejected():
    with pytest.raises(ValueError, match="not Callable"):
        render_func_signature(FuncInfo.from_schema("h", TypeSchema("int")), _plain, 0)


def test_flat_cpp_function_schema_with_only_a_return_has_no_params():
    schema = _parse_type_schema('{"type":"ffi.Function","args":[{"type":"int"}]}')
    func = FuncInfo.from_schema("k", schema)
    assert render_func_signature(func, _plain, 0) == "def k() -> int: ..."


def test_all_names_sort_constants_then_classes_then_rest():
    names = ["foo", "Bar", "baz", "LIB", "Alpha", "CONST", "Snake_Case"]
    assert sorted(names, key=_all_sort_key) == [
        "CONST",
        "LIB",
        "Alpha",
        "Bar",
        "Snake_Case",
        "baz",
        "foo",
    ]


def test_toposort_puts_parents_first():
    order = [i.type_key for i in toposort_objects(["testing.Derived", "testing.Base"])]
    assert order == ["testing.Base", "testing.Derived"]


def test_object_info_lists_inherited_init_fields():
    info = object_info_from_type_key("testing.Derived")
    assert [f.name for f in info.init_fields] == ["a", "b"]
    assert [f.name for f in info.fields] == ["b"]


# ---- the pipeline on a sample package -------------------------------------------------


_SAMPLE = """
    \"\"\"Sample module.\"\"\"
    # tvm-ffi-stubgen(begin): import-section
    # tvm-ffi-stubgen(end)

    # tvm-ffi-stubgen(begin): global/testing@tvm_ffi
    # tvm-ffi-stubgen(end)


    class Pair:
        # tvm-ffi-stubgen(begin): object/testing.TestIntPair
        placeholder = 1
        # tvm-ffi-stubgen(end)


    __all__ = [
        # tvm-ffi-stubgen(begin): __all__
        # tvm-ffi-stubgen(end)
    ]
    """


@pytest.fixture
def sample(tmp_path):
    return _write(tmp_path / "pkg" / "mod.py", _SAMPLE)


def test_object_block_gets_fields_init_and_methods(sample):
    assert _run(sample) == 0
    text = sample.read_text()
    block = text[text.index("object/testing.TestIntPair") : text.index("__all__ = [")]
    assert "placeholder" not in block
    assert "    a: int\n    b: int\n" in block
    assert "        def __init__(self, a: int, b: int) -> None: ..." in block
    assert "        def sum(self, /) -> int: ..." in block


def test_global_block_declares_functions_and_registers_them(sample):
    _run(sample)
    text = sample.read_text()
    assert '_FFI_INIT_FUNC("testing", __name__)' in text
    assert "    def add_one(_0: int, /) -> int: ..." in text
    assert "from tvm_ffi import init_ffi_api as _FFI_INIT_FUNC" in text


def test_import_section_drops_types_defined_in_the_file(sample):
    _run(sample)
    section = sample.read_text().split("# tvm-ffi-stubgen(end)")[0]
    assert "from __future__ import annotations" in section
    assert "TestIntPair" not in section


def test_all_block_lists_defined_functions_and_types(sample):
    _run(sample)
    text = sample.read_text()
    assert '    "TestIntPair",\n' in text
    assert '    "add_one",\n' in text


def test_second_run_changes_nothing(sample):
    _run(sample)
    first = sample.read_text()
    assert _run(sample) == 0
    assert sample.read_text() == first
    assert _run("--check", sample) == 0


def test_check_reports_stale_file_without_writing(sample, capsys):
    before = sample.read_text()
    assert _run("--check", sample) == 1
    assert "[Stale] %s" % sample.resolve() in capsys.readouterr().out
    assert sample.read_text() == before


def test_dry_run_leaves_file_alone(sample):
    before = sample.read_text()
    assert _run("--dry-run", sample) == 0
    assert sample.read_text() == before


def test_unregistered_type_key_fails_after_writing_the_file(tmp_path, capsys):
    path = _write(
        tmp_path / "m.py",
        """
        # tvm-ffi-stubgen(begin): object/testing.NoSuchType
        # tvm-ffi-stubgen(end)
        # tvm-ffi-stubgen(begin): __all__
        # tvm-ffi-stubgen(end)
        """,
    )
    assert _run(path) == 2
    out = capsys.readouterr().out
    assert "[Failed]" in out
    assert "`object/testing.NoSuchType` (line 1): the type is no longer registered" in out


def test_bad_file_fails_and_others_are_still_processed(tmp_path, sample, capsys):
    bad = _write(tmp_path / "pkg" / "bad.py", "# tvm-ffi-stubgen(begin): bogus/x\n")
    assert _run(sample.parent) == 2
    out = capsys.readouterr().out
    assert 'File "%s"' % bad.resolve() in out
    assert "Unknown stub type `bogus/x` at line 1" in out
    assert "def add_one" in sample.read_text()


def test_unknown_directive_fails_the_file(tmp_path, capsys):
    path = _write(tmp_path / "m.py", "# tvm-ffi-stubgen(frobnicate): x\n")
    assert _run(path) == 2
    assert "Unknown directive `frobnicate` at line 1" in capsys.readouterr().out


def test_bad_ty_map_fails_the_file(tmp_path, capsys):
    path = _write(tmp_path / "m.py", "# tvm-ffi-stubgen(ty-map): nothing here\n")
    assert _run(path) == 2
    assert "Invalid ty_map format at line 1. Example: `A.B -> C.D`" in capsys.readouterr().out


def test_missing_path_fails(tmp_path, capsys):
    assert _run(tmp_path / "absent.py") == 2
    assert "absent.py" in capsys.readouterr().out


def test_ty_map_directive_renames_a_type(tmp_path):
    path = _write(
        tmp_path / "m.py",
        """
        # tvm-ffi-stubgen(ty-map): testing.TestObjectBase -> mypkg.Base
        # tvm-ffi-stubgen(begin): import-section
        # tvm-ffi-stubgen(end)
        # tvm-ffi-stubgen(begin): object/testing.TestObjectPtrHolder
        # tvm-ffi-stubgen(end)
        """,
    )
    assert _run(path) == 0
    text = path.read_text()
    assert "    from mypkg import Base" in text
    assert "value: Base" in text


def test_import_object_directive_adds_a_concrete_import(tmp_path):
    path = _write(
        tmp_path / "m.py",
        """
        # tvm-ffi-stubgen(begin): import-section
        # tvm-ffi-stubgen(end)
        # tvm-ffi-stubgen(import-object): tvm_ffi.libinfo.load_lib_module;False;_LOAD
        __all__ = [
            # tvm-ffi-stubgen(begin): __all__
            # tvm-ffi-stubgen(end)
        ]
        """,
    )
    assert _run(path) == 0
    text = path.read_text()
    assert "\nfrom tvm_ffi.libinfo import load_lib_module as _LOAD\n" in text
    assert '    "LIB",\n' in text


def test_prefix_directive_rolls_out_blocks_parents_first(tmp_path):
    path = _write(tmp_path / "m.py", "# tvm-ffi-stubgen(prefix): testing\n")
    assert _run(path) == 0
    text = path.read_text()
    assert text.index("object/testing.Base\n") < text.index("object/testing.Derived\n")
    assert "# tvm-ffi-stubgen(begin): import-section" in text
    assert _run("--check", path) == 0


def test_prefix_directive_skips_types_declared_elsewhere(tmp_path, sample):
    path = _write(tmp_path / "pkg" / "all.py", "# tvm-ffi-stubgen(prefix): testing\n")
    assert _run(sample.parent) == 0
    assert "object/testing.TestIntPair" not in path.read_text()


def test_export_block_reexports_the_submodule(tmp_path):
    path = _write(
        tmp_path / "__init__.py",
        """
        # tvm-ffi-stubgen(begin): export/_ffi_api
        # tvm-ffi-stubgen(end)
        """,
    )
    assert _run(path) == 0
    text = path.read_text()
    assert "from ._ffi_api import *  # noqa: F403" in text
    assert "__all__.extend(_ffi_api__all__)" in text


def test_init_scaffolds_package_files(tmp_path):
    root = tmp_path / "python"
    root.mkdir()
    args = ["--init-pypkg", "mypkg", "--init-lib", "mylib", "--init-prefix", "testing.visit"]
    assert _run(root, *args) == 0
    api = (root / "testing" / "visit" / "_ffi_api.py").read_text()
    init = (root / "testing" / "visit" / "__init__.py").read_text()
    assert api.startswith('"""FFI API bindings for testing.visit."""\n')
    assert 'LIB = _FFI_LOAD_LIB("mypkg", "mylib")' in api
    assert '@_FFI_REG_OBJ("testing.visit.Add")\nclass Add(_ffi_Object):' in api
    assert "# tvm-ffi-stubgen(begin): export/_ffi_api" in init


def test_init_second_run_changes_nothing(tmp_path):
    root = tmp_path / "python"
    root.mkdir()
    args = ["--init-pypkg", "mypkg", "--init-lib", "mylib", "--init-prefix", "testing.visit"]
    _run(root, *args)
    first = (root / "testing" / "visit" / "_ffi_api.py").read_text()
    assert _run(root, *args) == 0
    assert (root / "testing" / "visit" / "_ffi_api.py").read_text() == first


def test_init_options_must_come_together(capsys):
    with pytest.raises(SystemExit) as err:
        _run("x", "--init-pypkg", "p")
    assert err.value.code == 2
    assert "must be provided together" in capsys.readouterr().err


def test_check_cannot_combine_with_init(capsys):
    with pytest.raises(SystemExit):
        _run("x", "--check", "--init-pypkg", "p", "--init-lib", "l", "--init-prefix", "q")
    assert "--check cannot be combined" in capsys.readouterr().err


def test_module_entry_without_paths_prints_help_and_exits_1():
    proc = subprocess.run(
        [sys.executable, "-m", "tvm_ffi.stub.cli"], capture_output=True, text=True, check=False
    )
    assert proc.returncode == 1
    assert "usage: tvm-ffi-stubgen" in proc.stdout


# ---- coverage report ------------------------------------------------------------------


def _coverage(tmp_path):
    import json

    out = tmp_path / "cov.json"
    assert _run("--coverage-out", out) == 0
    text = out.read_text()
    assert text.endswith("}\n")
    return json.loads(text)


def test_coverage_report_without_paths_lists_object_types_sorted(tmp_path):
    report = _coverage(tmp_path)
    assert list(report) == sorted(report)
    assert "int" not in report
    assert "testing.TestIntPair" in report


def test_coverage_report_proves_a_fully_reflected_layout(tmp_path):
    entry = _coverage(tmp_path)["testing.TestIntPair"]
    assert entry["verdict"] == "complete"
    assert entry["detail"] == "reflected fields fill [24, 40) exactly"
    assert entry["own_bytes"] == [24, 40]


def test_coverage_report_root_object_is_the_header(tmp_path):
    entry = _coverage(tmp_path)["ffi.Object"]
    assert (entry["verdict"], entry["total_size"]) == ("complete", 24)


def test_init_creates_a_missing_package_root(tmp_path):
    root = tmp_path / "absent" / "python"
    args = ["--init-pypkg", "mypkg", "--init-lib", "mylib", "--init-prefix", "testing.visit"]
    assert _run(root, *args) == 0
    assert (root / "testing" / "visit" / "_ffi_api.py").is_file()


def test_unloadable_library_fails_with_its_name(sample, tmp_path, capsys):
    assert _run("--dlls", tmp_path / "libnothere.so", sample) == 2
    assert "Cannot load --imports/--dlls: OSError" in capsys.readouterr().out


def test_unknown_import_fails_with_its_name(sample, capsys):
    assert _run("--imports", "no_such_module_xyz", sample) == 2
    assert "no_such_module_xyz" in capsys.readouterr().out


def test_verbose_prints_a_diff(sample, capsys):
    assert _run("--verbose", sample) == 0
    out = capsys.readouterr().out
    assert "[File] %s" % sample.resolve() in out
    assert "-    placeholder = 1" in out
