"""tvm_ffi.dataclasses.gen_abi_cpp: C++ headers mirroring reflected object layouts."""

import shutil
import subprocess
import typing
import uuid

import pytest
import tvm_ffi
from tvm_ffi import libinfo
from tvm_ffi import testing as _testing
from tvm_ffi.dataclasses import gen_abi_cpp, py_class
from tvm_ffi.dataclasses.gen_abi_cpp import _Generator


def _key(name):
    return "abi%s.%s" % (uuid.uuid4().hex[:8], name)


@pytest.fixture(scope="module")
def types():
    node_key = _key("Node")

    @py_class(node_key)
    class Node(tvm_ffi.Object):
        x: int
        name: str
        kids: "typing.List[Node]"
        ref: _testing.TestObjectBase
        pairs: typing.Dict[str, typing.Optional[_testing.TestIntPair]]
        opt: "typing.Optional[Node]" = None

    leaf_key = node_key.rsplit(".", 1)[0] + ".sub.Leaf"

    @py_class(leaf_key)
    class Leaf(Node):
        flag: bool
        f: float

    odd_key = node_key.rsplit(".", 1)[0] + ".\u0394Node"

    @py_class(odd_key)
    class Odd(tvm_ffi.Object):
        pass

    return node_key, leaf_key, odd_key


def test_header_starts_with_pragma_and_include(types):
    text = gen_abi_cpp(types[0])
    assert text.startswith("#pragma once\n\n#include <tvm/ffi/tvm_ffi.h>\n\n")
    assert text.endswith("#endif\n")


def test_fields_are_listed_with_their_layout(types):
    text = gen_abi_cpp(types[0])
    assert "  int64_t x;  // offset=24, size=8, align=8\n" in text
    assert "  ::tvm::ffi::String name;  // offset=32, size=16, align=8\n" in text
    assert "static_assert(offsetof(NodeObj, name) == 32);" in text


def test_object_and_container_carriers(types):
    ns = types[0].split(".")[0]
    text = gen_abi_cpp(types[0])
    assert "  ::tvm::ffi::List<::tvm::ffi::Arc<::%s::NodeObj>> kids;" % ns in text
    assert "  ::tvm::ffi::Arc<::testing::TestObjectBaseObj> ref;" in text
    assert (
        "  ::tvm::ffi::Dict<::tvm::ffi::String, ::tvm::ffi::ObjectPtr<::testing::TestIntPairObj>> pairs;"
        in text
    )
    assert "  ::tvm::ffi::Any opt;" in text


def test_referenced_types_get_lookup_stubs(types):
    text = gen_abi_cpp(types[0])
    assert (
        "struct TestObjectBaseObj : public ::tvm::ffi::Object {\n"
        '  TVM_FFI_DECLARE_OBJECT_INFO_LOOKUP("testing.TestObjectBase", 1);\n};'
    ) in text
    assert (
        "inline constexpr bool tvm::ffi::is_object_subclass_v<::testing::TestIntPairObj> = true;"
        in text
    )


def test_child_is_emitted_after_parent_with_parent_base(types):
    node_key, leaf_key, _ = types
    ns = node_key.split(".")[0]
    text = gen_abi_cpp(leaf_key)
    assert text.index("struct alignas(8) NodeObj") < text.index("struct alignas(8) LeafObj")
    assert "struct alignas(8) LeafObj : public ::%s::NodeObj {" % ns in text
    assert '  TVM_FFI_DECLARE_OBJECT_INFO_LOOKUP("%s", 2);' % leaf_key in text
    assert "namespace %s {\nnamespace sub {\n" % ns in text


def test_non_identifier_names_are_escaped_and_keys_octal_encoded(types):
    text = gen_abi_cpp(types[2])
    assert "struct alignas(8) __ffi_escape_ce944e6f6465Obj" in text
    assert '.\\316\\224Node", 1);' in text


def test_glob_selector_matches_several_types(types):
    pattern = types[0].split(".")[0] + ".*"
    text = gen_abi_cpp(pattern)
    assert "struct alignas(8) NodeObj" in text and "__ffi_escape_ce944e6f6465Obj" in text


def test_builtin_selection_emits_no_class():
    text = gen_abi_cpp("ffi.String")
    assert "struct" not in text


def test_native_type_emits_its_reflected_fields():
    text = gen_abi_cpp("testing.TestIntPair")
    assert "  int64_t a;  // offset=24, size=8, align=8\n" in text
    assert "static_assert(sizeof(TestIntPairObj) == 40);" in text


def test_output_is_deterministic(types):
    assert gen_abi_cpp(list(types)) == gen_abi_cpp(list(reversed(types)))


def test_selector_without_match_is_rejected():
    with pytest.raises(
        ValueError, match="Type-key selector 'no.such.*' did not match any registered type"
    ):
        gen_abi_cpp("no.such.*")


def test_selector_of_non_object_type_is_rejected():
    with pytest.raises(ValueError, match="'int' did not match any registered object type"):
        gen_abi_cpp("int")


class _Field:
    def __init__(self, name, size, alignment, offset, index, ty, metadata=None):
        self.name, self.size, self.alignment, self.offset = name, size, alignment, offset
        self.field_static_type_index, self.ty, self.metadata = index, ty, metadata or {}


class _Owner:
    type_key = "demo.Owner"


def test_layout_mismatch_is_rejected():
    field = _Field("v", 4, 4, 24, 1, tvm_ffi.core.TypeSchema("int"))
    with pytest.raises(
        ValueError,
        match=r"Carrier int64_t for demo.Owner.v has layout \(8, 8\), but reflection reports \(4, 4\) at offset 24",
    ):
        _Generator([])._lower_field(field, _Owner())


def test_dltensor_view_field_is_rejected():
    schema = tvm_ffi.core.TypeSchema.from_json_str('{"type":"DLTensor*"}')
    field = _Field("t", 8, 8, 24, 70, schema, {"type_schema": '{"type":"DLTensor*"}'})
    with pytest.raises(
        ValueError, match="native schema origin 'DLTensor\\*' normalizes to 'Tensor'"
    ):
        _Generator([])._lower_field(field, _Owner())


def test_ambiguous_native_optional_is_rejected():
    schema = tvm_ffi.core.TypeSchema.from_json_str('{"type":"Optional","args":[{"type":"int"}]}')
    field = _Field("o", 24, 8, 24, -1, schema)
    with pytest.raises(
        ValueError,
        match=r"Ambiguous native Optional carrier for demo.Owner.o with layout \(24, 8\)",
    ):
        _Generator([])._lower_field(field, _Owner())


def test_schema_less_field_lowers_by_static_index():
    field = _Field("o", 8, 8, 24, 64, None)
    assert _Generator([])._lower_field(field, _Owner()) == (
        "::tvm::ffi::ObjectPtr<::tvm::ffi::Object>",
        "o",
    )


@pytest.mark.skipif(shutil.which("g++") is None, reason="needs g++")
def test_header_compiles_and_its_static_asserts_hold(types, tmp_path):
    header = tmp_path / "mirror.h"
    header.write_text(gen_abi_cpp(list(types) + ["testing.TestIntPair"]))
    src = tmp_path / "main.cc"
    # The umbrella header (as in the wheel) leaves out Dict, which one field uses.
    src.write_text(
        '#include <tvm/ffi/container/dict.h>\n#include "mirror.h"\nint main() { return 0; }\n'
    )
    proc = subprocess.run(
        ["g++", "-std=c++17", "-fsyntax-only", "-I", libinfo.find_include_path(), str(src)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
