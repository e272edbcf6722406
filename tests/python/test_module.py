"""Modules: a library compiled during the test with tvm-ffi-config flags, then loaded."""

import os
import shlex
import subprocess
import sys

import pytest
import tvm_ffi

LIB_SOURCE = r"""
#define TVM_FFI_DLL_EXPORT_INCLUDE_METADATA 1
#include <tvm/ffi/function.h>
#include <tvm/ffi/string.h>

int64_t AddOne(int64_t x) { return x + 1; }
tvm::ffi::String Greet(tvm::ffi::String name) { return tvm::ffi::String("hello " + std::string(name)); }

TVM_FFI_DLL_EXPORT_TYPED_FUNC(add_one, AddOne);
TVM_FFI_DLL_EXPORT_TYPED_FUNC_DOC(add_one, "Add one to x.");
TVM_FFI_DLL_EXPORT_TYPED_FUNC(greet, Greet);
"""


def _config(*flags):
    out = subprocess.run(
        [sys.executable, "-m", "tvm_ffi.config", *flags], check=True, capture_output=True, text=True
    )
    return out.stdout.strip()


def _build_library(tmp_path_factory, name, source):
    """source compiled into <name>.so with the flags tvm-ffi-config gives; its path."""
    tmp = tmp_path_factory.mktemp(name)
    src = tmp / (name + ".cc")
    src.write_text(source)
    out = tmp / (name + ".so")
    flags = shlex.split(_config("--cxxflags", "--ldflags", "--libs"))
    cmd = ["g++", "-shared", "-fPIC", "-O1", str(src), "-o", str(out)] + flags
    result = subprocess.run(cmd, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    return str(out)


@pytest.fixture(scope="module")
def built_lib(tmp_path_factory):
    return _build_library(tmp_path_factory, "mylib", LIB_SOURCE)


NO_METADATA_SOURCE = r"""
#include <tvm/ffi/function.h>

int64_t AddTwo(int64_t x) { return x + 2; }

TVM_FFI_DLL_EXPORT_TYPED_FUNC(add_two, AddTwo);
TVM_FFI_DLL_EXPORT_TYPED_FUNC_DOC(add_two, "Add two to x.");
"""


@pytest.fixture(scope="module")
def no_metadata_lib(tmp_path_factory):
    return tvm_ffi.load_module(_build_library(tmp_path_factory, "nometa", NO_METADATA_SOURCE))


def test_library_built_without_metadata_has_no_function_metadata(no_metadata_lib):
    assert no_metadata_lib.add_two(1) == 3
    assert no_metadata_lib.get_function_metadata("add_two") is None


def test_library_built_without_metadata_has_no_function_doc(no_metadata_lib):
    assert no_metadata_lib.get_function_doc("add_two") is None


def _testlib(name):
    lib_dir = os.environ.get("TVM_FFI_TEST_LIB_DIR")
    if not lib_dir:
        pytest.skip("TVM_FFI_TEST_LIB_DIR is not set (tests/run_all.sh sets it)")
    path = os.path.join(lib_dir, name)
    assert os.path.isfile(path), "test library %s is not built (target tvm_ffi_testlibs)" % path
    return path


@pytest.fixture(scope="module")
def table_maker():
    """make_table_module(tag): a ModuleObj subclass defined in a test library."""
    return tvm_ffi.load_module(_testlib("module_subclass_lib.so")).make_table_module


def test_load_module_and_call_by_item_and_attribute(built_lib):
    mod = tvm_ffi.load_module(built_lib)
    assert isinstance(mod, tvm_ffi.Module)
    assert mod["add_one"](1) == 2
    assert mod.add_one(41) == 42
    assert mod.greet("ffi") == "hello ffi"


def test_load_module_accepts_pathlike(built_lib):
    import pathlib

    assert tvm_ffi.load_module(pathlib.Path(built_lib)).add_one(1) == 2


def test_attribute_lookup_is_cached_on_the_instance(built_lib):
    mod = tvm_ffi.load_module(built_lib)
    f = mod.add_one
    assert mod.__dict__["add_one"] is f
    assert mod.add_one is f


def test_get_function_missing_raises_attribute_error(built_lib):
    mod = tvm_ffi.load_module(built_lib)
    with pytest.raises(AttributeError, match="Module has no function 'nope'"):
        mod.get_function("nope")
    assert isinstance(mod.get_function("add_one"), tvm_ffi.Function)


def test_getitem_requires_str(built_lib):
    mod = tvm_ffi.load_module(built_lib)
    with pytest.raises(ValueError, match="Can only take string as function name"):
        mod[1]


def test_implements_function(built_lib):
    mod = tvm_ffi.load_module(built_lib)
    assert mod.implements_function("add_one")
    assert not mod.implements_function("nope")
    assert not mod.implements_function("nope", query_imports=True)


def test_missing_function_attribute_error_names_function(built_lib):
    mod = tvm_ffi.load_module(built_lib)
    with pytest.raises(AttributeError, match="does_not_exist"):
        mod.does_not_exist
    with pytest.raises(AttributeError, match="missing_item"):
        mod["missing_item"]


def test_function_metadata_is_a_dict_and_doc_a_str(built_lib):
    mod = tvm_ffi.load_module(built_lib)
    meta = mod.get_function_metadata("add_one")
    assert isinstance(meta, dict) and "type_schema" in meta
    assert "Add one" in mod.get_function_doc("add_one")
    assert mod.get_function_doc("greet") is None
    assert mod.get_function_metadata("nope") is None


def test_library_kind_properties_and_source(built_lib):
    mod = tvm_ffi.load_module(built_lib)
    assert mod.kind == "library"
    assert mod.inspect_source() == ""
    assert list(mod.get_write_formats()) == []
    assert len(mod.imports) == 0
    assert repr(mod) == "ffi.Module(imports_=())"


def test_library_property_mask_is_binary_serializable_and_runnable(built_lib):
    from tvm_ffi.module import ModulePropertyMask

    mod = tvm_ffi.load_module(built_lib)
    assert (
        mod.get_property_mask()
        == ModulePropertyMask.BINARY_SERIALIZABLE | ModulePropertyMask.RUNNABLE
    )
    assert mod.is_binary_serializable() and mod.is_runnable()
    assert not mod.is_compilation_exportable()


def test_library_write_to_file_is_unsupported(built_lib, tmp_path):
    mod = tvm_ffi.load_module(built_lib)
    with pytest.raises(RuntimeError, match=r"Module\[library\] does not support WriteToFile"):
        mod.write_to_file(tmp_path / "out.so")


def test_module_property_mask_values():
    from tvm_ffi.module import ModulePropertyMask

    assert ModulePropertyMask.BINARY_SERIALIZABLE == 1
    assert ModulePropertyMask.RUNNABLE == 2
    assert ModulePropertyMask.COMPILATION_EXPORTABLE == 4
    assert tvm_ffi.module.__all__ == ["Module", "ModulePropertyMask", "load_module", "system_lib"]


def test_function_outlives_module_object(built_lib):
    f = tvm_ffi.load_module(built_lib).add_one
    import gc

    gc.collect()
    assert f(5) == 6


def test_function_outlives_module_without_keep_alive(built_lib):
    f = tvm_ffi.load_module(built_lib, keep_module_alive=False).add_one
    import gc

    gc.collect()
    assert f(6) == 7


def test_load_missing_file_raises_runtime_error_naming_path(tmp_path):
    path = str(tmp_path / "absent.so")
    with pytest.raises(RuntimeError, match="Failed to load dynamic shared library .*absent.so"):
        tvm_ffi.load_module(path)


def test_load_broken_file_raises_naming_path(tmp_path):
    path = tmp_path / "broken.so"
    path.write_bytes(b"not an elf file")
    with pytest.raises(RuntimeError, match="broken.so"):
        tvm_ffi.load_module(str(path))


def test_load_without_extension_raises(tmp_path):
    path = str(tmp_path / "libnoext")
    with pytest.raises(RuntimeError, match="Failed to get file format from .*libnoext"):
        tvm_ffi.load_module(path)


def test_load_with_unknown_extension_names_the_loader(tmp_path):
    with pytest.raises(RuntimeError, match=r"ffi\.Module\.load_from_file\.weird"):
        tvm_ffi.load_module(str(tmp_path / "model.weird"))


def test_custom_loader_is_used_for_its_extension(built_lib, tmp_path):
    seen = []

    def loader(path, fmt):
        seen.append((path, fmt))
        return tvm_ffi.load_module(built_lib)

    tvm_ffi.register_global_func("ffi.Module.load_from_file.testfmt", loader)
    try:
        target = str(tmp_path / "x.testfmt")
        mod = tvm_ffi.load_module(target)
        assert mod.add_one(1) == 2
        assert seen == [(target, "testfmt")]
    finally:
        tvm_ffi.remove_global_func("ffi.Module.load_from_file.testfmt")


def test_system_lib_is_module():
    mod = tvm_ffi.system_lib()
    assert isinstance(mod, tvm_ffi.Module)
    assert mod.same_as(tvm_ffi.system_lib())
    assert tvm_ffi.system_lib(symbol_prefix="abc_").same_as(tvm_ffi.system_lib("abc_"))
    assert not mod.implements_function("surely_not_registered_anywhere")


def test_system_lib_kind_is_library():
    assert tvm_ffi.system_lib().kind == "library"
    assert tvm_ffi.system_lib("abc_").kind == "library"


def test_system_lib_property_mask_is_binary_serializable_and_runnable():
    from tvm_ffi.module import ModulePropertyMask

    mod = tvm_ffi.system_lib()
    assert (
        mod.get_property_mask()
        == ModulePropertyMask.BINARY_SERIALIZABLE | ModulePropertyMask.RUNNABLE
    )
    assert mod.is_binary_serializable() and mod.is_runnable()
    assert not mod.is_compilation_exportable()


def test_system_lib_write_to_file_is_unsupported(tmp_path):
    with pytest.raises(RuntimeError, match=r"Module\[library\] does not support WriteToFile"):
        tvm_ffi.system_lib().write_to_file(tmp_path / "out.so")


def test_subclass_module_from_a_library(table_maker):
    mod = table_maker("alpha")
    assert isinstance(mod, tvm_ffi.Module)
    assert mod.kind == "table"
    assert mod.alpha(3) == "alpha:3"
    assert mod.get_function_doc("alpha") == "Return the tag and x."
    assert mod.get_function_metadata("alpha")["type_schema"].startswith("{")
    assert mod.inspect_source("cuda") == "// table alpha (cuda)"
    assert list(mod.get_write_formats()) == ["txt"]
    assert mod.is_binary_serializable() and mod.is_runnable()
    assert not mod.is_compilation_exportable()


def test_subclass_write_to_file(table_maker, tmp_path):
    mod = table_maker("beta")
    out = tmp_path / "table.txt"
    mod.write_to_file(out, "txt")
    assert out.read_text() == "table beta\n"
    with pytest.raises(ValueError, match="cannot write format `bin`"):
        mod.write_to_file(str(out), "bin")


def test_imports_are_searched_only_when_asked(table_maker):
    root = table_maker("root")
    child = table_maker("child")
    grandchild = table_maker("grand")
    child.import_module(grandchild)
    root.import_module(child)
    assert len(root.imports) == 1 and root.imports[0].same_as(child)
    assert root.imports_[0].same_as(child)
    with pytest.raises(AttributeError):
        root.get_function("child")
    assert root.get_function("child", query_imports=True)(1) == "child:1"
    assert root.get_function("grand", query_imports=True)(2) == "grand:2"
    assert not root.implements_function("grand")
    assert root.implements_function("grand", query_imports=True)
    assert root.get_function_doc("child") is None
    assert root.get_function_doc("child", query_imports=True) == "Return the tag and x."
    assert root.get_function_metadata("grand", query_imports=True) is not None
    assert "ffi.Module(imports_=(ffi.Module(imports_=(ffi.Module(imports_=()),)),))" == repr(root)


def test_cyclic_import_is_rejected(table_maker):
    a = table_maker("a")
    b = table_maker("b")
    a.import_module(b)
    with pytest.raises(RuntimeError, match="Cyclic dependency detected during import"):
        b.import_module(a)
    with pytest.raises(RuntimeError, match="Cyclic dependency detected during import"):
        a.import_module(a)
    assert len(b.imports) == 0


def test_clear_imports(table_maker):
    root = table_maker("root")
    root.import_module(table_maker("x"))
    root.clear_imports()
    assert len(root.imports) == 0
    assert not root.implements_function("x", query_imports=True)


def test_call_runs_the_entry_function(table_maker):
    mod = table_maker("main")
    assert mod.entry_name == "main"
    assert mod(5) == "main:5"
    with pytest.raises(AttributeError, match="Module has no function 'main'"):
        table_maker("other")()


def test_import_module_rejects_non_modules(table_maker):
    with pytest.raises(TypeError):
        table_maker("a").import_module(1)


def test_dropping_a_module_frees_it_without_the_garbage_collector(built_lib, tmp_path):
    # mod.f caches the Function in the module's __dict__; the Function must not refer back to
    # this Python object, or the pair would wait for the collector (and a JIT module's code
    # with it).
    import gc
    import shutil

    copy = str(tmp_path / "own_copy.so")
    shutil.copy(built_lib, copy)
    gc.collect()
    gc.disable()
    try:
        mod = tvm_ffi.load_module(copy)
        assert mod.add_one(1) == 2
        assert mod["greet"]("x") == "hello x"
        handle = mod.__chandle__()
        del mod
        alive = [
            o
            for o in gc.get_objects()
            if isinstance(o, tvm_ffi.Module) and o.__chandle__() == handle
        ]
        assert alive == []
    finally:
        gc.enable()


def _end_of_loadable_segments(data):
    """Where the file contents of an ELF64 file's PT_LOAD segments end."""
    import struct

    (phoff,) = struct.unpack_from("<Q", data, 0x20)
    phentsize, phnum = struct.unpack_from("<HH", data, 0x36)
    end = 0
    for i in range(phnum):
        p_type, _flags, p_offset, _vaddr, _paddr, p_filesz = struct.unpack_from(
            "<IIQQQQ", data, phoff + i * phentsize
        )
        if p_type == 1:  # PT_LOAD
            end = max(end, p_offset + p_filesz)
    return end


@pytest.mark.parametrize("keep", ["first_page", "half_of_the_segments"])
def test_loading_a_truncated_library_raises_naming_the_file(built_lib, tmp_path, keep):
    data = open(built_lib, "rb").read()
    cut = tmp_path / ("cut_%s.so" % keep)
    size = 4096 if keep == "first_page" else _end_of_loadable_segments(data) // 2
    cut.write_bytes(data[:size])
    with pytest.raises(RuntimeError, match="truncated") as info:
        tvm_ffi.load_module(str(cut))
    assert str(cut) in str(info.value)
