"""TypeInfo / TypeField / TypeMethod records and the type-attribute helpers of tvm_ffi.core
(fixtures: cpp/src/testing/testing_pyreflect.cc)."""

import pytest
import tvm_ffi
from tvm_ffi import core
from tvm_ffi.core import MISSING, TypeField, TypeMethod, TypeSchema


def info_of(key):
    return core._lookup_or_register_type_info_from_type_key(key)


def field_of(key, name):
    return next(f for f in info_of(key).fields if f.name == name)


def test_type_info_is_shared_per_type_index():
    info = info_of("testing.pyreflect.Pair")
    assert core._type_index_to_type_info(info.type_index) is info


def test_type_info_of_unknown_key_is_value_error():
    with pytest.raises(ValueError, match="Cannot find object type index for no.such"):
        info_of("no.such")


def test_type_info_of_unknown_index_is_none():
    assert core._type_index_to_type_info(1 << 30) is None


def test_fields_are_own_fields_and_parent_is_resolved():
    child = info_of("testing.pyreflect.Child")
    assert [f.name for f in child.fields] == ["c_req", "c_kw"]
    assert child.parent_type_info is info_of("testing.pyreflect.Parent")
    assert child.type_ancestors == [64, child.parent_type_info.type_index]
    assert child.parent_type_info.parent_type_info.type_key == "ffi.Object"


def test_total_size_comes_from_metadata():
    info = info_of("testing.pyreflect.Pair")
    assert info._has_type_metadata
    assert info.total_size >= max(f.offset + f.size for f in info.fields)


def test_field_record_layout():
    a = field_of("testing.pyreflect.Pair", "a")
    assert isinstance(a, TypeField)
    assert (a.size, a.alignment, a.field_static_type_index) == (8, 8, 1)
    assert a.offset > 0 and a.doc == "first"
    assert a.frozen


def test_field_schema_is_parsed_from_metadata():
    z = field_of("testing.pyreflect.Triple", "z")
    assert isinstance(z.metadata["type_schema"], str)
    assert z.ty == TypeSchema("str")
    assert field_of("testing.pyreflect.Triple", "y").ty == TypeSchema("float")


def test_field_flags_decode_to_c_attributes():
    b = field_of("testing.pyreflect.AutoInit", "b")
    assert (b.c_init, b.c_has_default, b.c_default) == (False, True, 42)
    c = field_of("testing.pyreflect.AutoInit", "c")
    assert (c.c_kw_only, c.c_has_default, c.c_default) == (True, False, MISSING)
    assert not field_of("testing.pyreflect.AutoInit", "a").frozen


def test_factory_default_is_stored_as_factory():
    items = field_of("testing.pyreflect.NoInit", "items")
    assert items.c_default is MISSING
    assert isinstance(items.c_default_factory, tvm_ffi.Function)
    assert list(items.c_default_factory()) == []


def test_repr_and_compare_off_flags():
    note = field_of("testing.pyreflect.NoInit", "note")
    assert (note.c_repr, note.c_compare, note.c_hash) == (False, False, True)
    assert note.c_structural_eq is None


def test_field_without_doc_has_none_doc():
    assert field_of("testing.pyreflect.AutoInit", "a").doc is None


def test_method_records():
    methods = {m.name: m for m in info_of("testing.pyreflect.Pair").methods}
    assert isinstance(methods["sum"], TypeMethod)
    assert not methods["sum"].is_static and methods["sum"].doc == "a + b"
    assert methods["swap"].is_static
    assert methods["__ffi_init__"].is_static
    assert "type_schema" in methods["sum"].metadata


def test_method_as_callable_names_the_member():
    method = next(m for m in info_of("testing.pyreflect.Pair").methods if m.name == "sum")

    class Host:
        pass

    member = method.as_callable(Host)
    assert member.__name__ == "sum" and member.__qualname__.endswith("Host.sum")


def test_field_as_property_honours_frozen():
    a = field_of("testing.pyreflect.Pair", "a")

    class Host:
        pass

    prop = a.as_property(Host)
    assert prop.fset is None and prop.fget.__qualname__.endswith("Host.a")


def test_normalize_value_passes_non_enum_values_through():
    assert field_of("testing.pyreflect.Triple", "x").normalize_value(5) == 5


# ---- type attributes ---------------------------------------------------------------------


def test_lookup_type_attr_finds_generated_ffi_init():
    index = core._object_type_key_to_index("testing.pyreflect.AutoInit")
    assert isinstance(core._lookup_type_attr(index, "__ffi_init__"), tvm_ffi.Function)


def test_lookup_type_attr_absent_is_none():
    index = core._object_type_key_to_index("testing.pyreflect.Pair")
    assert core._lookup_type_attr(index, "__no_such_attr__") is None
    assert core._lookup_type_attr(64, "__ffi_init__") is None


def test_register_then_lookup_type_attr_with_ancestor_search():
    parent = core._object_type_key_to_index("testing.pyreflect.Parent")
    child = core._object_type_key_to_index("testing.pyreflect.Child")
    core._register_type_attr(parent, "__pyreflect_test_attr__", "parent-value")
    assert core._lookup_type_attr(parent, "__pyreflect_test_attr__") == "parent-value"
    assert core._lookup_type_attr(child, "__pyreflect_test_attr__") is None
    assert core._lookup_type_attr(child, "__pyreflect_test_attr__", True) == "parent-value"


def test_object_type_key_to_index():
    assert core._object_type_key_to_index("ffi.Array") == 71
    assert core._object_type_key_to_index("no.such.key") is None


def test_registered_type_keys_start_with_pod_names():
    keys = list(tvm_ffi.registry.get_registered_type_keys())
    assert keys[:4] == ["None", "int", "bool", "float"]
    assert "ffi.Object" in keys and "testing.pyreflect.Pair" in keys
