"""custom[...] dtypes: names resolved by a framework's dtype.get_custom_type_code/_name."""

import pytest
import tvm_ffi

CODE_FUNC = "dtype.get_custom_type_code"
NAME_FUNC = "dtype.get_custom_type_name"
# Distinct texts per test: parsed dtypes are cached by their text.


@pytest.fixture
def custom_types():
    def code(name):
        if name == "posit":
            return 131
        if name == "12":
            return 141
        raise ValueError("no custom type %s" % name)

    def name(code):
        return "posit" if code == 131 else "other%d" % code

    tvm_ffi.register_global_func(CODE_FUNC, code, override=True)
    tvm_ffi.register_global_func(NAME_FUNC, name, override=True)
    yield
    tvm_ffi.remove_global_func(CODE_FUNC)
    tvm_ffi.remove_global_func(NAME_FUNC)


def test_named_custom_type_parses_to_the_frameworks_code(custom_types):
    d = tvm_ffi.dtype("custom[posit]16")
    assert (d.type_code, d.bits, d.lanes) == (131, 16, 1)


def test_named_custom_type_defaults_to_32_bits(custom_types):
    assert tvm_ffi.dtype("custom[posit]").bits == 32


def test_named_custom_type_takes_lanes(custom_types):
    d = tvm_ffi.dtype("custom[posit]8x4")
    assert (d.bits, d.lanes, d.itemsize) == (8, 4, 4)


def test_custom_type_is_neither_float_nor_integer(custom_types):
    d = tvm_ffi.dtype("custom[posit]64")
    assert not d.is_float and not d.is_integer and not d.is_bool


def test_frameworks_error_propagates(custom_types):
    with pytest.raises(ValueError, match="no custom type nope"):
        tvm_ffi.dtype("custom[nope]8")


def test_without_code_function_names_are_value_error():
    with pytest.raises(ValueError, match="Function dtype.get_custom_type_code not found"):
        tvm_ffi.dtype("custom[posit]24")


def test_digits_between_the_brackets_are_a_name_for_the_framework(custom_types):
    d = tvm_ffi.dtype("custom[12]")
    assert (d.type_code, d.bits) == (141, 32)


def test_custom_bits_above_255_are_value_error(custom_types):
    with pytest.raises(ValueError, match=r"^Bits value 256 is out of range for uint8_t"):
        tvm_ffi.dtype("custom[posit]256")


def test_from_dlpack_data_type_prints_the_frameworks_name_without_bits(custom_types):
    d = tvm_ffi.dtype.from_dlpack_data_type((131, 16, 1))
    assert (str(d), d.bits) == ("custom[posit]", 16)


def test_with_lanes_keeps_the_custom_name(custom_types):
    d = tvm_ffi.dtype("custom[posit]12").with_lanes(2)
    assert (str(d), d.bits, d.lanes) == ("custom[posit]x2", 12, 2)


def test_without_name_function_printing_a_custom_code_is_value_error():
    with pytest.raises(ValueError, match=r"^Function dtype.get_custom_type_name not found$"):
        tvm_ffi.dtype.from_dlpack_data_type((140, 8, 1))


def test_printed_name_follows_a_later_registration(custom_types):
    # The printer asks the framework each time: an earlier failure is not cached.
    assert str(tvm_ffi.dtype.from_dlpack_data_type((150, 8, 1))) == "custom[other150]"


def test_custom_dtype_crosses_a_call_unchanged(custom_types):
    import tvm_ffi.testing

    echo = tvm_ffi.get_global_func("testing.echo")
    out = echo(tvm_ffi.dtype("custom[posit]20"))
    assert (out.type_code, out.bits, str(out)) == (131, 20, "custom[posit]")


def test_unclosed_custom_bracket_raises_the_reference_message():
    with pytest.raises(
        ValueError, match=r"^expected closing brace after 'custom' type incustom\[posit$"
    ):
        tvm_ffi.dtype("custom[posit")


def test_custom_without_bracket_raises_the_reference_message():
    with pytest.raises(ValueError, match=r"^expected opening brace after 'custom' type incustom$"):
        tvm_ffi.dtype("custom")


def test_numeric_custom_name_needs_the_code_function():
    with pytest.raises(ValueError, match="Function dtype.get_custom_type_code not found"):
        tvm_ffi.dtype("custom[300]8")
