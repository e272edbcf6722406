"""tvm_ffi.core.TypeSchema: construction, JSON, annotations, rendering and the converter."""

import collections.abc
import ctypes
import typing
from typing import Any, Callable, Dict, List, Optional, Tuple, Union

import numpy as np
import pytest
import tvm_ffi
from tvm_ffi.core import CAny, TypeSchema, _to_py_class_value

TS = TypeSchema
INT = TS("int")
STR = TS("str")
FLOAT = TS("float")


def converted(schema, value):
    return _to_py_class_value(schema.convert(value))


# ---- record and validation ------------------------------------------------------------


def test_schema_is_dataclass_whose_equality_ignores_type_key():
    import dataclasses

    assert dataclasses.is_dataclass(TS)
    assert TS("int", type_key="ffi.BigInt") == TS("int")
    assert TS("int") != TS("float")


def test_schema_is_unhashable():
    with pytest.raises(TypeError):
        hash(TS("int"))


def test_list_origins_default_to_any_element():
    assert TS("List").args == (TS("Any"),)
    assert repr(TS("Array")) == "Array[Any]"
    assert repr(TS("list")) == "list[Any]"


def test_map_origins_default_to_any_key_and_value():
    assert repr(TS("Map")) == "Map[Any, Any]"
    assert repr(TS("dict")) == "dict[Any, Any]"


def test_bare_tuple_keeps_none_args_and_empty_tuple_renders_unit():
    assert TS("tuple").args is None
    assert repr(TS("tuple")) == "tuple"
    assert repr(TS("tuple", ())) == "tuple[()]"


def test_args_list_is_stored_as_tuple():
    assert TS("List", [INT]).args == (INT,)


def test_flat_callable_args_become_named_groups():
    s = TS("Callable", (INT, STR))
    assert s.args == ()
    assert s.named_args == {"return": (INT,), "params": (STR,)}
    assert repr(s) == "Callable[[str], int]"
    assert TS("Callable", (INT,)).named_args == {"return": (INT,)}
    assert repr(TS("Callable", (INT,))) == "Callable[..., int]"
    assert repr(TS("Callable")) == "Callable[..., Any]"


def test_origin_type_index_of_known_origins():
    expect = {
        "None": 0,
        "int": 1,
        "bool": 2,
        "float": 3,
        "ctypes.c_void_p": 4,
        "dtype": 5,
        "Device": 6,
        "Object": 64,
        "str": 65,
        "bytes": 66,
        "Callable": 68,
        "Tensor": 70,
        "Array": 71,
        "Map": 72,
        "List": 75,
        "Dict": 76,
        "Any": -1,
        "tuple": -3,
        "nope.Unknown": -3,
    }
    assert {k: TS(k).origin_type_index for k in expect} == expect
    assert TS("Optional", (INT,)).origin_type_index == -2
    assert TS("Union", (INT, STR)).origin_type_index == -2


def test_origin_type_index_of_registered_key():
    assert TS("ffi.Shape").origin_type_index == tvm_ffi.core._object_type_key_to_index("ffi.Shape")


@pytest.mark.parametrize(
    "build, exc, message",
    [
        (lambda: TS(""), ValueError, "schema type must be a nonempty string"),
        (lambda: TS(3), ValueError, "schema type must be a nonempty string"),
        (lambda: TS("List", (3,)), TypeError, "schema arguments must be TypeSchema instances"),
        (lambda: TS("Union", (INT,)), ValueError, "Union must have at least two arguments"),
        (lambda: TS("Optional", (INT, STR)), ValueError, "Optional must have exactly one argument"),
        (lambda: TS("List", (INT, STR)), ValueError, "List must have 0 or 1 argument"),
        (lambda: TS("Map", (INT,)), ValueError, "Map must have 0 or 2 arguments"),
        (lambda: TS("dict", (INT,)), ValueError, "dict must have 0 or 2 arguments"),
        (
            lambda: TS("Callable", named_args={"foo": (INT,)}),
            ValueError,
            "Callable uses only named return and params groups",
        ),
        (
            lambda: TS("Callable", (INT,), named_args={"return": (INT,)}),
            ValueError,
            "Callable uses only named return and params groups",
        ),
        (
            lambda: TS("Callable", named_args={"params": (INT,)}),
            ValueError,
            "Callable return group must contain exactly one type",
        ),
        (
            lambda: TS("Callable", named_args=[1]),
            TypeError,
            "named_args must be a map of names to type lists",
        ),
        (
            lambda: TS("Callable", named_args={"": (INT,)}),
            ValueError,
            "named_args keys must be nonempty strings",
        ),
    ],
)
def test_invalid_schema_raises_with_message(build, exc, message):
    with pytest.raises(exc, match=message.replace("[", r"\[")):
        build()


# ---- JSON -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "raw, expect",
    [
        ('{"type":"ffi.Map","args":[{"type":"ffi.String"},{"type":"int"}]}', "Map[str, int]"),
        ('{"type":"Variant","args":[{"type":"int"},{"type":"ffi.String"}]}', "int | str"),
        (
            '{"type":"Optional","args":[{"type":"ffi.Array","args":[{"type":"int"}]}]}',
            "Array[int] | None",
        ),
        ('{"type":"std::vector","args":[{"type":"float"}]}', "Array[float]"),
        (
            '{"type":"std::map","args":[{"type":"ffi.String"},{"type":"int"}]}',
            "Map[str, int]",
        ),
        ('{"type":"std::optional","args":[{"type":"int"}]}', "int | None"),
        ('{"type":"std::variant","args":[{"type":"int"}, {"type":"ffi.String"}]}', "int | str"),
        (
            '{"type":"std::function","named_args":{"return":[{"type":"int"}],'
            '"params":[{"type":"int"}, {"type":"ffi.String"}]}}',
            "Callable[[int, str], int]",
        ),
        ('{"type":"ffi.List","args":[{"type":"bool"}]}', "List[bool]"),
        (
            '{"type":"ffi.Dict","args":[{"type":"std::string"},{"type":"DataType"}]}',
            "Dict[str, dtype]",
        ),
        ('{"type":"ffi.Object"}', "Object"),
        ('{"type":"ObjectRValueRef"}', "Object"),
        ('{"type":"ffi.OpaquePyObject"}', "Any"),
        ('{"type":"DLTensor*"}', "Tensor"),
        ('{"type":"void*"}', "ctypes.c_void_p"),
        ('{"type":"TVMFFIByteArray*"}', "bytes"),
        ('{"type":"const char*"}', "str"),
        ('{"type":"ffi.Function"}', "Callable[..., Any]"),
        (
            '{"type":"ffi.Function","named_args":{"return":[{"type":"int"}],"params":[]}}',
            "Callable[[], int]",
        ),
        (
            '{"type":"std::function","args":[{"type":"int"},[{"type":"float"}]]}',
            "Callable[[float], int]",
        ),
        ('{"type":"std::array","args":[{"type":"int"},3]}', "std::array[int]"),
        ('{"type":"std::tuple","args":[{"type":"int"},{"type":"ffi.String"}]}', "tuple[int, str]"),
        ('{"type":"foo.Unknown","fallback":{"type":"int"}}', "int"),
    ],
)
def test_from_json_str_maps_raw_names_to_origins(raw, expect):
    assert repr(TS.from_json_str(raw)) == expect


def test_big_int_json_keeps_type_key_and_round_trips():
    s = TS.from_json_str('{"type":"ffi.BigInt"}')
    assert s.origin == "int" and s.type_key == "ffi.BigInt"
    assert s.to_json() == {"type": "ffi.BigInt"}


@pytest.mark.parametrize(
    "obj, message",
    [
        ([1], "expected schema dict with 'type' key, got list"),
        ({}, "expected schema dict with 'type' key, got dict"),
        ({"type": 3}, "schema type must be a string"),
    ],
)
def test_from_json_obj_rejects_malformed_input(obj, message):
    with pytest.raises(TypeError, match=message):
        TS.from_json_obj(obj)


def test_to_json_writes_args_named_args_and_fallback():
    assert TS("Callable", (INT, STR)).to_json() == {
        "type": "Callable",
        "named_args": {"return": [{"type": "int"}], "params": [{"type": "str"}]},
    }
    assert TS("tuple", ()).to_json() == {"type": "tuple", "args": []}
    assert TS("tuple").to_json() == {"type": "tuple"}
    assert TS("foo.X", fallback=INT).to_json() == {"type": "foo.X", "fallback": {"type": "int"}}
    assert TS("List").to_json() == {"type": "List", "args": [{"type": "Any"}]}


def test_json_round_trip_preserves_schema():
    s = TS("Map", (STR, TS("Optional", (TS("Array", (INT,)),))))
    assert TS.from_json_obj(s.to_json()) == s


def test_from_type_index_uses_builtin_aliases():
    got = [repr(TS.from_type_index(i)) for i in (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12)]
    assert got == [
        "None",
        "int",
        "bool",
        "float",
        "ctypes.c_void_p",
        "dtype",
        "Device",
        "Tensor",
        "str",
        "bytes",
        "Object",
        "str",
        "bytes",
    ]
    assert [repr(TS.from_type_index(i)) for i in (64, 65, 66, 68, 70, 71, 72, 75, 76)] == [
        "Object",
        "str",
        "bytes",
        "Callable[..., Any]",
        "Tensor",
        "Array[Any]",
        "Map[Any, Any]",
        "List[Any]",
        "Dict[Any, Any]",
    ]


def test_from_type_index_of_big_int_is_int_with_key():
    s = TS.from_type_index(78)
    assert repr(s) == "int" and s.type_key == "ffi.BigInt" and s.origin_type_index == 78


def test_from_type_index_of_other_types_uses_key_and_args():
    assert repr(TS.from_type_index(69)) == "ffi.Shape"
    assert repr(TS.from_type_index(71, (INT,))) == "Array[int]"


def test_from_type_index_unknown_raises_value_error():
    with pytest.raises(ValueError, match="unknown type index 99999"):
        TS.from_type_index(99999)


# ---- annotations ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "ann, expect",
    [
        (None, "None"),
        (type(None), "None"),
        (Any, "Any"),
        (bool, "bool"),
        (int, "int"),
        (float, "float"),
        (str, "str"),
        (bytes, "bytes"),
        (tvm_ffi.core.String, "str"),
        (tvm_ffi.core.Bytes, "bytes"),
        (list, "List[Any]"),
        (list[int], "List[int]"),
        (List[int], "List[int]"),
        (typing.List, "List[Any]"),
        (dict, "Dict[Any, Any]"),
        (Dict[str, List[int]], "Dict[str, List[int]]"),
        (tuple, "tuple"),
        (tuple[()], "tuple[()]"),
        (tuple[int, str], "tuple[int, str]"),
        (Tuple[int, ...], "Array[int]"),
        (Optional[int], "int | None"),
        (Union[int, str], "int | str"),
        (Union[int, str, None], "int | str | None"),
        (collections.abc.Callable, "Callable[..., Any]"),
        (Callable[[int, str], float], "Callable[[int, str], float]"),
        (Callable[[], int], "Callable[[], int]"),
        (Callable[..., int], "Callable[..., int]"),
        (tvm_ffi.Array, "Array[Any]"),
        (tvm_ffi.Array[int], "Array[int]"),
        (tvm_ffi.Map[str, int], "Map[str, int]"),
        (tvm_ffi.List, "List[Any]"),
        (tvm_ffi.Dict[str, int], "Dict[str, int]"),
        (tvm_ffi.Function, "Callable[..., Any]"),
        (tvm_ffi.Object, "Object"),
        (tvm_ffi.Tensor, "Tensor"),
        (tvm_ffi.dtype, "dtype"),
        (tvm_ffi.Device, "Device"),
        (ctypes.c_void_p, "ctypes.c_void_p"),
        (np.ndarray, "Tensor"),
    ],
)
def test_from_annotation(ann, expect):
    assert repr(TS.from_annotation(ann)) == expect


def test_from_annotation_pep604_union():
    assert repr(TS.from_annotation(int | None)) == "int | None"


def test_from_annotation_optional_union_nests_union_in_optional():
    s = TS.from_annotation(Union[int, str, None])
    assert s.origin == "Optional" and s.args[0].origin == "Union"


def test_from_annotation_bare_callable_has_no_named_args():
    assert TS.from_annotation(collections.abc.Callable).named_args is None


@pytest.mark.parametrize(
    "ann, message",
    [
        (list[int, str], "list takes at most 1 type argument, got 2"),
        (dict[str], "dict requires 0 or 2 type arguments, got 1"),
        (tvm_ffi.Array[int, str], "Array requires 1 type argument, got 2"),
        (complex, "Cannot convert <class 'complex'> to TypeSchema"),
        ("int", "Cannot convert 'int' to TypeSchema"),
    ],
)
def test_from_annotation_rejects(ann, message):
    with pytest.raises(TypeError, match=message.replace("[", r"\[")):
        TS.from_annotation(ann)


def test_from_annotation_rejects_unregistered_object_subclass():
    class Unregistered(tvm_ffi.Object):
        pass

    with pytest.raises(TypeError, match="is not registered in TYPE_CLS_TO_INFO"):
        TS.from_annotation(Unregistered)


# ---- rendering --------------------------------------------------------------------------


def test_repr_forms():
    assert repr(TS("Optional", (INT,))) == "int | None"
    assert repr(TS("List", (TS("Optional", (INT,)),))) == "List[int | None]"
    assert repr(TS("Dict", (STR, TS("Array", (INT,))))) == "Dict[str, Array[int]]"
    assert str(TS("Union", (INT, STR))) == "int | str"


def test_repr_with_ty_map_renames_origins():
    s = TS("Map", (STR, TS("Array", (INT,))))
    assert s.repr(ty_map=lambda name: name.lower()) == "map[str, array[int]]"
    assert s.output_repr() == s.repr()


def test_fallback_renders_only_for_unknown_origins():
    assert repr(TS("foo.Bar", fallback=INT)) == "int"
    assert repr(TS("tuple", fallback=INT)) == "tuple"
    assert repr(TS("Object", fallback=INT)) == "Object"


def test_input_repr_uses_convert_type_schema_attribute():
    index = tvm_ffi.core._object_type_key_to_index("ffi.Shape")
    attr = tvm_ffi.core._lookup_type_attr(index, "__ffi_convert_type_schema__")
    expect = repr(TS.from_json_str(attr)) if attr is not None else "ffi.Shape"
    assert TS("ffi.Shape").input_repr() == expect


# ---- convert / check_value --------------------------------------------------------------


@pytest.mark.parametrize(
    "schema, value, expect",
    [
        (INT, 1, 1),
        (INT, True, 1),
        (INT, np.int64(5), 5),
        (FLOAT, 1, 1.0),
        (FLOAT, True, 1.0),
        (FLOAT, np.float32(1.5), 1.5),
        (TS("bool"), 3, True),
        (STR, "a", "a"),
        (TS("bytes"), bytearray(b"ab"), b"ab"),
        (TS("None"), None, None),
        (TS("Optional", (INT,)), None, None),
        (TS("Union", (FLOAT, INT)), 1, 1.0),
    ],
)
def test_convert_accepts_and_coerces(schema, value, expect):
    got = converted(schema, value)
    assert got == expect
    assert type(got) is type(expect) or type(expect) in (str, bytes)


def test_convert_returns_cany():
    assert isinstance(INT.convert(1), CAny)
    assert repr(INT.convert(True)) == "CAny(int=1)"


def test_union_keeps_first_accepting_alternative():
    assert type(converted(TS("Union", (INT, FLOAT)), True)) is int


def test_str_and_bytes_come_back_as_ffi_wrappers():
    assert type(converted(STR, "a")) is tvm_ffi.core.String
    assert type(converted(TS("bytes"), b"a")) is tvm_ffi.core.Bytes


@pytest.mark.parametrize(
    "schema, value, detail",
    [
        (
            INT,
            2**63,
            "integer 9223372036854775808 out of int64 range "
            "[-9223372036854775808, 9223372036854775807]",
        ),
        (INT, 1.0, "expected int, got float"),
        (INT, "x", "expected int, got str"),
        (INT, None, "expected int, got None"),
        (FLOAT, "a", "expected float, got str"),
        (TS("bool"), 1.0, "expected bool, got float"),
        (STR, b"a", "expected str, got bytes"),
        (TS("bytes"), "a", "expected bytes, got str"),
        (TS("None"), 1, "expected None, got int"),
        (TS("Device"), "zzz", "expected Device, got invalid device string 'zzz'"),
        (TS("Device"), 1, "expected Device, got int"),
        (TS("dtype"), "x", "expected dtype, got invalid dtype string 'x'"),
        (TS("ctypes.c_void_p"), 1, "expected ctypes.c_void_p, got int"),
        (TS("Tensor"), [1], "expected Tensor, got list"),
        (TS("Callable"), 1, "expected Callable, got int"),
        (TS("Array", (INT,)), 1, "expected Array, got int"),
        (TS("Array", (INT,)), (1, "a"), "element [1]: expected int, got str"),
        (TS("List", (INT,)), {}, "expected List, got dict"),
        (TS("Map", (STR, INT)), [1], "expected Map, got list"),
        (TS("Map", (STR, INT)), {1: 1}, "key 1: expected str, got int"),
        (TS("Map", (STR, INT)), {"a": "b"}, "value for key 'a': expected int, got str"),
        (TS("tuple", (INT, STR)), (1,), "expected tuple of length 2, got tuple of length 1"),
        (TS("tuple", (INT, STR)), (1, 2), "element [1]: expected str, got int"),
        (TS("tuple"), 1, "expected tuple, got int"),
        (TS("Optional", (INT,)), "x", "expected int, got str"),
        (TS("Union", (INT, STR)), 1.5, "expected int | str, got float"),
        (TS("Optional", (TS("Union", (INT, STR)),)), 1.5, "expected int | str | None, got float"),
        (TS("Object"), None, "expected Object, got None"),
        (
            TS("Array", (TS("Array", (INT,)),)),
            [[1], ["a"]],
            "element [1]: element [0]: expected int, got str",
        ),
    ],
)
def test_convert_and_check_value_reject_with_detail(schema, value, detail):
    with pytest.raises(TypeError) as conv:
        schema.convert(value)
    assert str(conv.value) == "type conversion failed for %r: %s" % (schema, detail)
    with pytest.raises(TypeError) as check:
        schema.check_value(value)
    assert str(check.value) == "type check failed for %r: %s" % (schema, detail)


def test_check_value_accepts_matching_value():
    assert TS("Map", (STR, TS("Array", (INT,)))).check_value({"a": [1, 2]}) is None


def test_unknown_origin_raises_on_use():
    with pytest.raises(TypeError, match="unknown TypeSchema origin: 'nope.X'"):
        TS("nope.X").convert(1)


def test_any_marshals_python_containers():
    assert isinstance(converted(TS("Any"), [1, 2]), tvm_ffi.Array)
    assert isinstance(converted(TS("Any"), {"a": 1}), tvm_ffi.Map)


def test_device_dtype_and_pointer_conversions():
    dev = converted(TS("Device"), "cuda:1")
    assert isinstance(dev, tvm_ffi.Device) and dev.index == 1
    assert converted(TS("dtype"), "float32") == "float32"
    assert converted(TS("ctypes.c_void_p"), None).value is None
    assert converted(TS("ctypes.c_void_p"), ctypes.c_void_p(8)).value == 8


def test_tensor_from_dlpack_provider():
    assert isinstance(converted(TS("Tensor"), np.zeros(2, dtype="float32")), tvm_ffi.Tensor)


def test_callable_accepts_python_callable_but_not_ffi_object():
    assert isinstance(converted(TS("Callable"), len), tvm_ffi.Function)
    with pytest.raises(TypeError, match="expected Callable, got ffi.Array"):
        TS("Callable").convert(tvm_ffi.Array([1]))


def test_container_converter_returns_input_when_unchanged():
    arr = tvm_ffi.Array([1, 2])
    assert converted(TS("Array", (INT,)), arr).same_as(arr)
    assert converted(TS("Array", (TS("Any"),)), arr).same_as(arr)


def test_container_converter_rebuilds_on_element_change_or_kind_mismatch():
    arr = tvm_ffi.Array([1, 2])
    as_float = converted(TS("Array", (FLOAT,)), arr)
    assert not as_float.same_as(arr) and list(as_float) == [1.0, 2.0]
    assert type(as_float[0]) is float
    as_list = converted(TS("List", (INT,)), arr)
    assert isinstance(as_list, tvm_ffi.List) and list(as_list) == [1, 2]


def test_map_converter_rebuilds_dict_kind():
    got = converted(TS("Dict", (STR, INT)), tvm_ffi.Map({"a": 1}))
    assert isinstance(got, tvm_ffi.Dict) and dict(got) == {"a": 1}


def test_tuple_converter_builds_array():
    got = converted(TS("tuple", (INT, STR)), (1, "a"))
    assert isinstance(got, tvm_ffi.Array) and list(got) == [1, "a"]


def test_object_target_accepts_any_ffi_object_and_marshalled_containers():
    assert isinstance(converted(TS("Object"), [1]), tvm_ffi.Array)
    arr = tvm_ffi.Array([1])
    assert converted(TS("Object"), arr).same_as(arr)


def test_registered_object_target_rejects_other_types():
    with pytest.raises(TypeError, match="expected ffi.Map, got ffi.Array"):
        TS("ffi.Map").convert(tvm_ffi.Array([1]))


# ---- value protocols --------------------------------------------------------------------


class _ValueIsSelf:
    def __tvm_ffi_value__(self):
        return self


class _ValueIsFive:
    def __tvm_ffi_value__(self):
        return 5


class _IntProtocol:
    def __tvm_ffi_int__(self):
        return 7


class _Cycle:
    def __tvm_ffi_value__(self):
        return _Cycle()


def test_value_protocol_result_is_converted():
    assert converted(INT, _ValueIsFive()) == 5


def test_int_protocol_is_accepted_by_int():
    assert converted(INT, _IntProtocol()) == 7


def test_value_protocol_returning_self_is_plain_mismatch():
    with pytest.raises(TypeError, match="expected int, got _ValueIsSelf"):
        INT.convert(_ValueIsSelf())
    with pytest.raises(TypeError, match="failed to convert Any from _ValueIsSelf"):
        TS("Any").convert(_ValueIsSelf())


def test_value_protocol_cycle_is_reported():
    with pytest.raises(TypeError, match="infinite __tvm_ffi_value__ cycle detected"):
        INT.convert(_Cycle())


# ---- subtypes ---------------------------------------------------------------------------


def test_is_subtype_of():
    assert TS("Object").is_subtype_of(tvm_ffi.Object)
    assert TS("Array").is_subtype_of(tvm_ffi.Array)
    assert TS("Array").is_subtype_of(tvm_ffi.Object)
    assert not TS("Object").is_subtype_of(tvm_ffi.Array)
    assert not INT.is_subtype_of(int)
