"""What ``tvm_ffi.testing`` offers code written for the apache-tvm-ffi wheel: the GPU lock,
the ``_ffi_api`` module, the helpers of ``tvm_ffi.testing.testing``, fixture classes with
dataclass members, and the fixture types of the testing library (deep-copy edges, visit
regions, the unregistered type)."""

import copy
import threading
import typing

import pytest
import tvm_ffi
import tvm_ffi.testing
from tvm_ffi import core
from tvm_ffi import dataclasses as ffi_dataclasses
from tvm_ffi.testing import _locking


def test_run_with_gpu_lock_returns_the_result_and_forwards_arguments():
    def combine(a, b, *, scale):
        return (a + b) * scale

    assert tvm_ffi.testing.run_with_gpu_lock(combine, 1, 2, scale=3) == 9


def test_run_with_gpu_lock_creates_its_lock_in_the_named_directory(tmp_path, monkeypatch):
    monkeypatch.setenv("TVM_FFI_TEST_LOCK_DIR", str(tmp_path / "locks"))
    assert tvm_ffi.testing.run_with_gpu_lock(lambda: "ran") == "ran"
    assert (tmp_path / "locks" / "gpu.lock").is_file()


def test_run_with_gpu_lock_defaults_to_a_per_user_directory(monkeypatch):
    monkeypatch.delenv("TVM_FFI_TEST_LOCK_DIR", raising=False)
    path = _locking._ensure_gpu_lock_path()
    assert path.name == "gpu.lock"
    assert path.parent.name.startswith("tvm-ffi-test-locks-")
    assert path.parent.is_dir()


def test_run_with_gpu_lock_serializes_callers(tmp_path, monkeypatch):
    monkeypatch.setenv("TVM_FFI_TEST_LOCK_DIR", str(tmp_path))
    inside = []
    overlaps = []

    def critical():
        inside.append(1)
        overlaps.append(len(inside))
        threading.Event().wait(0.01)
        inside.pop()

    threads = [
        threading.Thread(target=tvm_ffi.testing.run_with_gpu_lock, args=(critical,))
        for _ in range(4)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert overlaps == [1, 1, 1, 1]


def test_run_with_gpu_lock_releases_the_lock_when_the_callable_raises(tmp_path, monkeypatch):
    monkeypatch.setenv("TVM_FFI_TEST_LOCK_DIR", str(tmp_path))

    def fail():
        raise KeyError("boom")

    with pytest.raises(KeyError, match="boom"):
        tvm_ffi.testing.run_with_gpu_lock(fail)
    assert tvm_ffi.testing.run_with_gpu_lock(lambda: 5) == 5


def test_ffi_api_module_holds_the_testing_globals():
    from tvm_ffi.testing import _ffi_api

    assert _ffi_api.add_one(1) == 2
    assert _ffi_api.echo("a") == "a"
    assert isinstance(_ffi_api.make_visit_region_graph, tvm_ffi.Function)


def test_testing_module_helpers():
    from tvm_ffi.testing import testing

    assert testing.add_one(9) == 10
    assert type(testing.make_unregistered_object()).__name__ == "TestUnregisteredObject"


def test_unregistered_object_has_the_fixed_values_and_documented_methods():
    obj = tvm_ffi.testing.make_unregistered_object()
    assert (obj.v1, obj.v2) == (41, 42)
    assert obj.get_v1_plus_one() == 42
    assert obj.get_v2_plus_two() == 44
    assert "Get (v1 + 1)" in type(obj).get_v1_plus_one.__doc__


def test_fixture_classes_are_dataclasses_without_generated_equality():
    pair_cls = tvm_ffi.testing.TestIntPair
    assert ffi_dataclasses.is_dataclass(pair_cls)
    assert [f.name for f in ffi_dataclasses.fields(pair_cls)] == ["a", "b"]
    assert pair_cls.__match_args__ == ("a", "b")
    assert pair_cls.__test__ is False
    assert pair_cls(1, 2) != pair_cls(1, 2)


def test_fixture_replace_copies_and_changes_fields():
    pair = tvm_ffi.testing.TestIntPair(1, 2)
    changed = pair.__replace__(a=5)
    assert (changed.a, changed.b) == (5, 2)
    assert (pair.a, pair.b) == (1, 2)
    assert ffi_dataclasses.astuple(pair) == (1, 2)


def test_fixture_field_annotations_and_docs():
    assert typing.get_type_hints(tvm_ffi.testing.TestObjectBase) == {
        "v_i64": int,
        "v_f64": float,
        "v_str": str,
    }
    assert tvm_ffi.testing.TestIntPair.a.__doc__ == "Field `a`"


def test_non_copyable_fixture_refuses_copy_and_replace():
    value = tvm_ffi.testing.TestNonCopyable(3)
    assert value.value == 3
    with pytest.raises(TypeError, match="does not support copy"):
        copy.copy(value)
    with pytest.raises(TypeError, match="does not support copy"):
        value.__replace__()


def test_deep_copy_edges_share_a_value_held_twice():
    shared = tvm_ffi.convert([1, 2])
    obj = tvm_ffi.testing.create_object("testing.TestDeepCopyEdges", v_any=shared, v_obj=shared)
    twin = copy.deepcopy(obj)
    assert not twin.v_any.same_as(shared)
    assert twin.v_any.same_as(twin.v_obj)
    assert list(twin.v_obj) == [1, 2]


def _visit_log(root):
    visit = tvm_ffi.get_global_func("ffi.StructuralVisit")
    region = tvm_ffi.get_global_func("ffi.StructuralVisitorDefRegionKind")
    descend = tvm_ffi.get_global_func("ffi.StructuralVisitorDefaultVisit")
    log = []

    def on_int(value, visitor):
        log.append((value, region(visitor)))

    def on_object(value, visitor):
        log.append((type(value).__name__, region(visitor)))
        return descend(visitor, value)

    assert visit(root, [(1, on_int), (64, on_object)]) is None
    return log


def test_visit_region_graph_fields_open_their_regions():
    root = tvm_ffi.testing.make_visit_region_graph(False)
    assert (root.simple, root.pattern, root.ordinary) == (1, 2, 3)
    assert _visit_log(root) == [("TestVisitRegions", 0), (1, 2), (2, 1), (3, 0)]


def test_visit_hook_visits_its_child_inside_a_simple_region():
    root = tvm_ffi.testing.make_visit_region_graph(True)
    assert _visit_log(root) == [
        ("TestVisitHook", 0),
        ("TestVisitRegions", 2),
        (1, 2),
        (2, 1),
        (3, 2),
        (4, 0),
    ]


def test_visit_hook_type_has_no_constructor():
    with pytest.raises(RuntimeError, match="testing.TestVisitHook` does not support"):
        tvm_ffi.testing.create_object("testing.TestVisitHook", child=None)


@pytest.mark.parametrize(
    ("cls", "type_key", "parent_key"),
    [
        (core.String, "ffi.String", "ffi.Object"),
        (core.Bytes, "ffi.Bytes", "ffi.Object"),
        (tvm_ffi.Shape, "ffi.Shape", "ffi.Object"),
        (core.Device, "Device", None),
        (core.DataType, "DataType", None),
    ],
)
def test_core_value_classes_have_their_type_info(cls, type_key, parent_key):
    info = core._type_cls_to_type_info(cls)
    assert info.type_cls is cls
    assert info.type_key == type_key
    parent = info.parent_type_info
    assert (parent.type_key if parent is not None else None) == parent_key


def test_layout_fixtures_leave_bytes_no_field_covers():
    hidden = core._lookup_or_register_type_info_from_type_key("testing.TestCxxClassHiddenField")
    assert [(f.name, f.offset) for f in hidden.fields] == [("v_i64", 24), ("v_i32", 40)]
    poly = tvm_ffi.testing.create_object("testing.TestCxxClassPolymorphic", v_i64=7)
    assert poly.v_i64 == 7


def _testing_library_path():
    return tvm_ffi.testing.load_testing_library()._name


def test_testing_library_loads_as_a_module_with_its_exports():
    module = tvm_ffi.load_module(_testing_library_path())
    assert module["testing_dll_schema_id_int"](5) == 5
    assert module["testing_dll_test_add_with_docstring"](2, 3) == 5


def test_testing_library_exports_metadata_and_doc():
    module = tvm_ffi.load_module(_testing_library_path())
    schema = module.get_function_metadata("testing_dll_schema_id_int")["type_schema"]
    assert '"params":[{"type":"int"}]' in schema
    assert module.get_function_doc("testing_dll_schema_id_int") is None
    doc = module.get_function_doc("testing_dll_test_add_with_docstring")
    assert doc.startswith("Add two integers and return the sum.")


def test_testing_library_exports_a_plain_c_symbol():
    import ctypes

    target = ctypes.CDLL(_testing_library_path()).TVMFFITestingDummyTarget
    target.restype = ctypes.c_int
    assert target() == 0
