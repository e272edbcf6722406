"""tvm_ffi.dtype as the reference package behaves: every spelling, predicates, conversions."""

import pickle

import pytest
import tvm_ffi
from tvm_ffi import dtype


@pytest.mark.parametrize(
    "alias, canonical",
    [
        ("i8", "int8"),
        ("i16", "int16"),
        ("i32", "int32"),
        ("i64", "int64"),
        ("u8", "uint8"),
        ("u16", "uint16"),
        ("u32", "uint32"),
        ("u64", "uint64"),
        ("f16", "float16"),
        ("f32", "float32"),
        ("f64", "float64"),
        ("bf16", "bfloat16"),
        ("int", "int32"),
        ("uint", "uint32"),
        ("float", "float32"),
        ("bfloat", "bfloat16"),
        ("f8_e4m3fn", "float8_e4m3fn"),
        ("fp8_e5m2", "float8_e5m2"),
        ("f6_e3m2fn", "float6_e3m2fn"),
        ("fp6_e2m3fn", "float6_e2m3fn"),
        ("fp4_e2m1fn", "float4_e2m1fn"),
        ("float4_e2m1fn_x2", "float4_e2m1fnx2"),
        ("f4_e2m1fn_x2", "float4_e2m1fnx2"),
        ("f32x4", "float32x4"),
        ("intx4", "int32x4"),
    ],
)
def test_alias_parses_to_the_canonical_type_and_keeps_its_spelling(alias, canonical):
    d = dtype(alias)
    c = dtype(canonical)
    assert str(d) == alias
    assert (d.type_code, d.bits, d.lanes) == (c.type_code, c.bits, c.lanes)


def test_alias_is_not_equal_to_canonical_text_like_the_reference():
    assert dtype("i32") != dtype("int32")


@pytest.mark.parametrize("text", ["foo", "int32x2a", "int32 ", " int32", "Float32", "fp16", "i"])
def test_unknown_text_raises_value_error_naming_it(text):
    with pytest.raises(ValueError, match="unknown dtype `%s`" % text.replace(" ", " ")):
        dtype(text)


@pytest.mark.parametrize("text", ["float32x0", "i32x-1", "f33x"])
def test_non_positive_lanes_raise_value_error_about_lanes(text):
    with pytest.raises(ValueError, match="Lanes must be a positive integer"):
        dtype(text)


@pytest.mark.parametrize(
    "text, message",
    [
        ("nonsense", "unknown dtype `nonsense`"),
        ("fp8_foo", "unknown float8 type `float8_foo`"),
        (
            "i32x0",
            "Invalid lanes specification in dtype 'int32x0'. Lanes must be a positive integer.",
        ),
        ("int32x70000", "Lanes value 70000 is out of range for uint16_t in dtype 'int32x70000'"),
        ("int999", "Bits value 999 is out of range for uint8_t in dtype 'int999'"),
    ],
)
def test_invalid_text_raises_the_reference_message(text, message):
    with pytest.raises(ValueError) as info:
        dtype(text)
    assert str(info.value) == message


@pytest.mark.parametrize(
    "text, triple",
    [
        ("int0", (0, 32, 1)),
        ("uint0", (1, 32, 1)),
        ("float0", (2, 32, 1)),
        ("bfloat0", (4, 16, 1)),
        ("bool0", (6, 8, 1)),
        ("handle0", (3, 64, 1)),
        ("i0x2", (0, 32, 2)),
        ("int032", (0, 32, 1)),
    ],
)
def test_zero_bits_mean_the_familys_width(text, triple):
    d = dtype(text)
    assert (d.type_code, d.bits, d.lanes) == triple


@pytest.mark.parametrize(
    "text, triple",
    [
        ("bool8", (6, 8, 1)),
        ("bool1", (6, 1, 1)),
        ("bool8x2", (6, 8, 2)),
        ("handle32", (3, 32, 1)),
        ("handle64", (3, 64, 1)),
        ("handle32x4", (3, 32, 4)),
    ],
)
def test_bool_and_handle_take_an_explicit_width(text, triple):
    d = dtype(text)
    assert (d.type_code, d.bits, d.lanes) == triple


@pytest.mark.parametrize(
    "text, lanes",
    [
        ("int32x32767", 32767),
        ("int32x32768", -32768),
        ("int32x65535", -1),
        ("float8_e4m3fnx65535", -1),
        ("float4_e2m1fn_x40000", -25536),
    ],
)
def test_fixed_lanes_up_to_65535_are_stored_as_uint16(text, lanes):
    assert dtype(text).lanes == lanes


@pytest.mark.parametrize(
    "text, lanes", [("int32xvscalex32769", 32767), ("int32xvscalex65535", 1), ("boolxvscalex2", -2)]
)
def test_scalable_lanes_up_to_65535_are_stored_negated(text, lanes):
    assert dtype(text).lanes == lanes


def test_bare_vscale_suffix_is_one_lane():
    assert dtype("int32xvscale").lanes == 1


@pytest.mark.parametrize(
    "text, message",
    [
        ("int32x65536", "Lanes value 65536 is out of range for uint16_t in dtype 'int32x65536'"),
        ("bf256", "Bits value 256 is out of range for uint8_t in dtype 'bfloat256'"),
        (
            "int32x0abc",
            "Invalid lanes specification in dtype 'int32x0abc'. Lanes must be a positive integer.",
        ),
        (
            "int0004294967296",
            "Integer value in dtype string '0004294967296' is out of range for uint32_t",
        ),
        ("int32xvscaley4", "unknown dtype `int32xvscaley4`"),
        ("custom", "expected opening brace after 'custom' type incustom"),
    ],
)
def test_range_and_shape_errors_raise_the_reference_message(text, message):
    with pytest.raises(ValueError) as info:
        dtype(text)
    assert str(info.value) == message


@pytest.mark.parametrize(
    "triple, text",
    [
        ((3, 0, 0), ""),
        ((3, 32, 4), "handle"),
        ((6, 1, 1), "bool1"),
        ((10, 16, 1), "float8_e4m3fn"),
        ((0, 32, 0), "int32"),
        ((0, 32, -1), "int32"),
        ((0, 32, -32768), "int32xvscalex32768"),
    ],
)
def test_from_dlpack_data_type_prints_like_the_reference_and_keeps_the_triple(triple, text):
    d = dtype.from_dlpack_data_type(triple)
    assert str(d) == text
    assert (d.type_code, d.bits, d.lanes) == triple


def test_empty_text_is_void():
    d = dtype("")
    assert (d.type_code, d.bits, d.lanes) == (3, 0, 0)


def test_non_string_without_dtype_meaning_raises_value_error():
    with pytest.raises(ValueError, match="unknown dtype `1`"):
        dtype(1)


@pytest.mark.parametrize(
    "text, flags",
    [
        ("bool", (True, False, False, False)),
        ("int8", (False, True, False, False)),
        ("uint32", (False, True, False, False)),
        ("float16", (False, False, True, False)),
        ("bfloat16", (False, False, True, False)),
        ("float8_e4m3fn", (False, False, True, False)),
        ("float4_e2m1fn", (False, False, True, False)),
        ("handle", (False, False, False, True)),
    ],
)
def test_predicates(text, flags):
    d = dtype(text)
    assert (d.is_bool, d.is_integer, d.is_float, d.is_handle) == flags


def test_itemsize_rounds_sub_byte_types_up():
    assert dtype("float32x4").itemsize == 16
    assert dtype("int4").itemsize == 1
    assert dtype("float4_e2m1fnx2").itemsize == 1


def test_itemsize_of_scalable_vector_raises():
    d = dtype("int32xvscalex4")
    assert d.lanes == -4
    with pytest.raises(ValueError, match="scalable"):
        d.itemsize


def test_with_lanes_gives_canonical_text():
    assert str(dtype("i32").with_lanes(4)) == "int32x4"


def test_from_dlpack_data_type_gives_canonical_dtype():
    d = dtype.from_dlpack_data_type((2, 32, 1))
    assert isinstance(d, dtype) and str(d) == "float32"
    assert str(dtype.from_dlpack_data_type((17, 4, 2))) == "float4_e2m1fnx2"


@pytest.mark.parametrize("code", [5, 99])
def test_from_dlpack_data_type_rejects_unknown_codes(code):
    with pytest.raises(ValueError, match="unknown type_code=%d" % code):
        dtype.from_dlpack_data_type((code, 8, 1))


def test_is_dtype():
    assert dtype.is_dtype("f32") and dtype.is_dtype(tvm_ffi.int32)
    assert not dtype.is_dtype("zz") and not dtype.is_dtype(3)


def test_tvm_ffi_dtype_slot_holds_the_parsed_data_type():
    parsed = dtype("f32")._tvm_ffi_dtype
    assert isinstance(parsed, tvm_ffi.core.DataType)
    assert parsed == tvm_ffi.core.DataType("float32") and str(parsed) == "float32"
    assert hash(parsed) == hash(tvm_ffi.core.DataType("float32"))


def test_data_type_pickles():
    parsed = tvm_ffi.core.DataType("bfloat16x2")
    assert pickle.loads(pickle.dumps(parsed)) == parsed


def test_dtype_pickle_keeps_spelling():
    assert str(pickle.loads(pickle.dumps(dtype("bf16")))) == "bf16"


def test_data_type_code_enum():
    code = tvm_ffi._dtype.DataTypeCode
    assert code.BOOL == 6 and code.BFLOAT == 4 and code.Float4E2M1FN == 17


def test_literals_exist_including_bool_and_fp4_pair():
    assert str(tvm_ffi.bool) == "bool" and tvm_ffi.bool.is_bool
    assert tvm_ffi.float4_e2m1fnx2.lanes == 2
    assert tvm_ffi._dtype.float4_e2m1fn_x2 is tvm_ffi._dtype.float4_e2m1fnx2
    for name in tvm_ffi._dtype.LITERALS:
        assert isinstance(getattr(tvm_ffi, name), dtype)


def test_alias_dtype_passes_through_a_function():
    echo = tvm_ffi.convert(lambda x: x)
    out = echo(dtype("f32"))
    assert str(out) == "float32"


def test_numpy_dtype_argument_becomes_data_type():
    np = pytest.importorskip("numpy")
    echo = tvm_ffi.convert(lambda x: x)
    assert str(echo(np.dtype("float16"))) == "float16"


def test_numpy_bool_dtype_argument_is_rejected():
    np = pytest.importorskip("numpy")
    echo = tvm_ffi.convert(lambda x: x)
    with pytest.raises(ValueError):
        echo(np.dtype("bool"))


def test_torch_dtype_argument_becomes_data_type():
    torch = pytest.importorskip("torch")
    echo = tvm_ffi.convert(lambda x: x)
    assert str(echo(torch.bfloat16)) == "bfloat16"
    assert str(echo(torch.long)) == "int64"


def test_torch_complex_dtype_argument_is_rejected():
    torch = pytest.importorskip("torch")
    echo = tvm_ffi.convert(lambda x: x)
    with pytest.raises(ValueError):
        echo(torch.complex64)


def test_dlpack_data_type_protocol_argument():
    class HasType:
        def __dlpack_data_type__(self):
            return (1, 8, 1)

    echo = tvm_ffi.convert(lambda x: x)
    assert str(echo(HasType())) == "uint8"


def test_numpy_accepts_dtype_literal():
    np = pytest.importorskip("numpy")
    assert np.zeros(2, dtype=tvm_ffi.float32).dtype == np.float32
