"""A library built with the wheel's headers that calls the json / serialization / DeepCopy /
ReprPrint / Recursive* C++ entry points links against our libtvm_ffi and gets our engines'
results (each call checked against the same engine reached through our Python package)."""

import os

import pytest

LIB_SOURCE = os.path.join(os.path.dirname(__file__), "libs", "extra_abi_lib.cc")


@pytest.fixture(scope="module")
def tvm_ffi():
    import tvm_ffi

    return tvm_ffi


@pytest.fixture(scope="module")
def lib(tvm_ffi, build_with_peer_headers):
    with open(LIB_SOURCE) as f:
        return tvm_ffi.load_module(str(build_with_peer_headers("extra_abi_lib", f.read())))


def test_json_parse_links_and_parses(lib):
    value = lib["json_parse"]('{"a": [1, 2.5, true, null, "x"]}')
    assert value["a"][0] == 1 and value["a"][1] == 2.5 and value["a"][4] == "x"


def test_json_parse_with_error_slot_stores_the_message(lib):
    assert "line 1" in lib["json_parse_error"]("[1,")
    assert lib["json_parse_error"]("[1]") == ""


def test_json_stringify_compact_and_indented(tvm_ffi, lib):
    value = tvm_ffi.convert({"k": [1, 2]})
    assert lib["json_stringify"](value, -1) == tvm_ffi.get_global_func("ffi.json.Stringify")(
        value, None
    )
    assert "\n" in lib["json_stringify"](value, 2)


def test_json_graph_round_trip(tvm_ffi, lib):
    out = lib["graph_round_trip"](tvm_ffi.convert([1, "two", {"three": 3.0}]))
    assert out[0] == 1 and out[1] == "two" and out[2]["three"] == 3.0


def test_deep_copy_makes_a_new_container(tvm_ffi, lib):
    value = tvm_ffi.convert([[1], [2]])
    copy = lib["deep_copy_of"](value)
    assert not copy.same_as(value)
    assert list(copy[1]) == [2]


def test_repr_print_matches_ours(tvm_ffi, lib):
    value = tvm_ffi.convert([1, (2, 3)])
    assert lib["repr_of"](value) == tvm_ffi.get_global_func("ffi.ReprPrint")(value)


def test_recursive_hash_matches_ours(tvm_ffi, lib):
    value = tvm_ffi.convert([1, "a", [2.0]])
    assert lib["recursive_hash_of"](value) == tvm_ffi.get_global_func("ffi.RecursiveHash")(value)


def test_recursive_comparisons(tvm_ffi, lib):
    a, b = tvm_ffi.convert([1, 2]), tvm_ffi.convert([1, 3])
    assert lib["compare_bits"](a, b) == 0b00110  # Lt, Le
    assert lib["compare_bits"](a, tvm_ffi.convert([1, 2])) == 0b10101  # Eq, Le, Ge


# The entry points throw an exception the wheel-built code catches as its own Error (peer_error.h),
# so errors keep their kind through the wheel's call wrapper and its `catch (const Error&)`.
def test_engine_error_reaches_the_caller_with_its_kind(tvm_ffi, lib):
    with pytest.raises(ValueError, match="Unsupported type: `ffi.Function`"):
        lib["json_stringify"](tvm_ffi.convert(lambda: 1), -1)


def test_json_parse_error_reaches_the_caller_as_value_error(lib):
    with pytest.raises(ValueError, match="line 1"):
        lib["json_parse"]("[1,")


def test_wheel_built_catch_sees_kind_message_and_what(lib):
    text = lib["caught_json_parse_error"]("[1,")
    kind_and_message, what = text.split(" | what: ")
    assert kind_and_message.startswith("ValueError: Syntax error near: line 1")
    assert what == kind_and_message[len("ValueError: ") :]
    assert lib["caught_json_parse_error"]("[1]") == "none"


def test_module_load_failure_reaches_the_caller_as_runtime_error(lib):
    with pytest.raises(RuntimeError, match="Failed to load dynamic shared library"):
        lib["load_module"]("/nonexistent/missing_lib.so")
