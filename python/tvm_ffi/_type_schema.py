"""TypeSchema: the type of a reflected field or function parameter, and its value converter.

A schema is read from the ``type_schema`` JSON that C++ registration attaches to fields and
methods, or built from a Python annotation. ``convert`` checks a value against the schema and
applies the coercions of the FFI (``int`` -> ``float``, ``list`` -> ``Array``, ...);
``check_value`` runs the same converter and keeps nothing. ``tvm_ffi.core.TypeSchema`` is this
class.
"""

import collections.abc
import ctypes
import dataclasses
import json
import numbers
import types
import typing

from . import core

# Origins with a fixed static type index (the index a value of the origin carries).
_ORIGIN_TYPE_INDEX = {
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
}
# Python-only origins: no type index of their own and never looked up in the registry.
_PY_ONLY_ORIGINS = frozenset(["tuple", "list", "dict", "Optional", "Union"])
_LIST_ORIGINS = frozenset(["Array", "List", "list"])
_MAP_ORIGINS = frozenset(["Map", "Dict", "dict"])

# Raw type names of the C++ type_schema JSON -> origin.
_JSON_ORIGIN = {
    "Variant": "Union",
    "std::variant": "Union",
    "Optional": "Optional",
    "std::optional": "Optional",
    "Tuple": "tuple",
    "std::tuple": "tuple",
    "ffi.Function": "Callable",
    "std::function": "Callable",
    "ffi.Array": "Array",
    "std::vector": "Array",
    "ffi.List": "List",
    "ffi.Map": "Map",
    "std::map": "Map",
    "std::unordered_map": "Map",
    "ffi.Dict": "Dict",
    "ffi.OpaquePyObject": "Any",
    "ffi.Object": "Object",
    "ObjectRValueRef": "Object",
    "ffi.Tensor": "Tensor",
    "DLTensor*": "Tensor",
    "ffi.BigInt": "int",
    "void*": "ctypes.c_void_p",
    "TVMFFIByteArray*": "bytes",
    "ffi.SmallBytes": "bytes",
    "ffi.Bytes": "bytes",
    "std::string": "str",
    "const char*": "str",
    "ffi.SmallStr": "str",
    "ffi.String": "str",
    "DataType": "dtype",
}

# Type index -> origin for from_type_index (aliases of the same Python type included).
_INDEX_ORIGIN = {
    -1: "Any",
    0: "None",
    1: "int",
    2: "bool",
    3: "float",
    4: "ctypes.c_void_p",
    5: "dtype",
    6: "Device",
    7: "Tensor",
    8: "str",
    9: "bytes",
    10: "Object",
    11: "str",
    12: "bytes",
    64: "Object",
    65: "str",
    66: "bytes",
    68: "Callable",
    70: "Tensor",
    71: "Array",
    72: "Map",
    75: "List",
    76: "Dict",
    78: "int",
}

# Registered builtin classes render with their short name in annotations.
_SHORT_NAME_OF_INDEX = {64: "Object", 70: "Tensor", 71: "Array", 72: "Map", 75: "List", 76: "Dict"}

_INT64_MIN = -(1 << 63)
_INT64_MAX = (1 << 63) - 1


@dataclasses.dataclass(repr=False)
class TypeSchema:
    """A type: an ``origin`` name with type ``args`` (``Map[str, int]``, ``int | None``, ...).

    ``origin_type_index`` is the FFI type index of the origin (-1 Any, -2 Optional/Union, -3
    unknown); ``named_args`` holds the ``return``/``params`` groups of ``Callable``;
    ``fallback`` renders an origin this process does not know; ``type_key`` keeps the raw key
    when the origin is an alias (``ffi.BigInt`` -> ``int``).
    """

    origin: str
    args: typing.Any = None
    origin_type_index: int = dataclasses.field(default=-3, repr=False)
    fallback: typing.Any = None
    named_args: typing.Any = None
    type_key: typing.Any = dataclasses.field(default=None, repr=False, compare=False)

    def __post_init__(self):
        origin = self.origin
        if not isinstance(origin, str) or not origin:
            raise ValueError("schema type must be a nonempty string")
        if self.args is None and origin == "tuple":
            args = None
        else:
            args = tuple(self.args) if self.args is not None else ()
            for arg in args:
                if not isinstance(arg, TypeSchema):
                    raise TypeError("schema arguments must be TypeSchema instances")
        if self.fallback is not None and not isinstance(self.fallback, TypeSchema):
            raise TypeError("schema fallback must be a TypeSchema instance")
        named = _check_named_args(self.named_args)
        if origin == "Union" and len(args) < 2:
            raise ValueError("Union must have at least two arguments")
        if origin == "Optional" and len(args) != 1:
            raise ValueError("Optional must have exactly one argument")
        if origin in _LIST_ORIGINS:
            if len(args) > 1:
                raise ValueError("%s must have 0 or 1 argument" % origin)
            args = args or (TypeSchema("Any"),)
        elif origin in _MAP_ORIGINS:
            if len(args) not in (0, 2):
                raise ValueError("%s must have 0 or 2 arguments" % origin)
            args = args or (TypeSchema("Any"), TypeSchema("Any"))
        elif origin == "Callable":
            if args:
                if named is not None:
                    raise ValueError("Callable uses only named return and params groups")
                named = {"return": (args[0],)}
                if len(args) >= 2:
                    named["params"] = args[1:]
                args = ()
            if named is not None:
                if any(k not in ("return", "params") for k in named):
                    raise ValueError("Callable uses only named return and params groups")
                if len(named.get("return", ())) != 1:
                    raise ValueError("Callable return group must contain exactly one type")
        self.args = args
        self.named_args = named
        if self.origin_type_index == -3:
            self.origin_type_index = _origin_type_index(origin)

    # ---- construction -------------------------------------------------------------------

    @staticmethod
    def from_json_str(text):
        """The schema of a ``type_schema`` JSON text."""
        return TypeSchema.from_json_obj(json.loads(text))

    @staticmethod
    def from_json_obj(obj):
        """The schema of a parsed ``type_schema`` JSON object (``{"type": ..., "args": [...]}``)."""
        if not isinstance(obj, dict) or "type" not in obj:
            raise TypeError("expected schema dict with 'type' key, got %s" % type(obj).__name__)
        raw = obj["type"]
        if not isinstance(raw, str):
            raise TypeError("schema type must be a string")
        origin = _JSON_ORIGIN.get(raw, raw)
        raw_args = obj.get("args")
        if not isinstance(raw_args, list):
            raw_args = []
        named = obj.get("named_args")
        if (
            origin == "Callable"
            and named is None
            and len(raw_args) == 2
            and isinstance(raw_args[1], list)
        ):
            # Legacy form: [return, [params...]].
            named = {"return": [raw_args[0]], "params": raw_args[1]}
            raw_args = []
        args = tuple(TypeSchema.from_json_obj(a) for a in raw_args if isinstance(a, dict))
        if named is not None:
            if not isinstance(named, dict):
                raise TypeError("named_args must be a map of names to type lists")
            named = {
                k: tuple(TypeSchema.from_json_obj(a) for a in v if isinstance(a, dict))
                if isinstance(v, list)
                else v
                for k, v in named.items()
            }
        fallback = obj.get("fallback")
        if fallback is not None:
            fallback = TypeSchema.from_json_obj(fallback)
        if origin == "tuple" and "args" not in obj:
            args = None
        return TypeSchema(
            origin,
            args,
            fallback=fallback,
            named_args=named,
            type_key=raw if raw == "ffi.BigInt" else None,
        )

    @staticmethod
    def from_type_index(type_index, args=()):
        """The schema of values of a runtime type index (``71`` -> ``Array[Any]``)."""
        origin = _INDEX_ORIGIN.get(type_index)
        if origin is None:
            origin = core._type_index_to_key(type_index)
            if origin is None:
                raise ValueError("unknown type index %d" % type_index)
            return TypeSchema(origin, args, origin_type_index=type_index)
        return TypeSchema(
            origin,
            args,
            origin_type_index=type_index,
            type_key="ffi.BigInt" if type_index == 78 else None,
        )

    @staticmethod
    def from_annotation(annotation):
        """The schema of a Python annotation (``list[int]`` -> ``List[int]``, ...)."""
        return _from_annotation(annotation)

    # ---- rendering ----------------------------------------------------------------------

    def repr(self, ty_map=None):
        """The type as written in Python stubs (``Map[str, int]``); origins go through
        ``ty_map`` (a callable) when given. Same as ``output_repr``."""
        return self._render(ty_map, False, set())

    def output_repr(self, ty_map=None):
        """The type of values produced (returned values and field reads)."""
        return self._render(ty_map, False, set())

    def input_repr(self, ty_map=None):
        """The type of values accepted: an object type with a ``__ffi_convert_type_schema__``
        attribute renders that schema instead."""
        return self._render(ty_map, True, set())

    def __repr__(self):
        return self._render(None, False, set())

    def _render(self, ty_map, input_mode, expanded):
        origin = self.origin
        if (
            self.fallback is not None
            and self.origin_type_index == -3
            and origin not in ("tuple", "list", "dict")
        ):
            return self.fallback._render(ty_map, input_mode, expanded)
        index = self.origin_type_index
        if input_mode and index >= 64 and index not in expanded:
            attr = core._lookup_type_attr(index, "__ffi_convert_type_schema__")
            if attr is not None:
                expanded.add(index)
                return _schema_of(attr)._render(ty_map, input_mode, expanded)

        def sub(s):
            return s._render(ty_map, input_mode, expanded)

        name = ty_map(origin) if ty_map is not None else origin
        if origin == "Callable":
            named = self.named_args
            if named is None:
                return "%s[..., Any]" % name
            ret = sub(named["return"][0])
            if "params" not in named:
                return "%s[..., %s]" % (name, ret)
            return "%s[[%s], %s]" % (name, ", ".join(sub(p) for p in named["params"]), ret)
        if origin == "Union":
            return " | ".join(sub(a) for a in self.args)
        if origin == "Optional":
            return "%s | None" % sub(self.args[0])
        if self.args is None or (not self.args and origin != "tuple"):
            return name
        if not self.args:
            return "%s[()]" % name
        return "%s[%s]" % (name, ", ".join(sub(a) for a in self.args))

    def to_json(self):
        """The ``type_schema`` JSON object of the schema (the inverse of ``from_json_obj``)."""
        out = {"type": self.type_key if self.type_key is not None else self.origin}
        if self.args or (self.origin == "tuple" and self.args is not None):
            out["args"] = [a.to_json() for a in self.args]
        if self.named_args is not None:
            out["named_args"] = {k: [a.to_json() for a in v] for k, v in self.named_args.items()}
        if self.fallback is not None:
            out["fallback"] = self.fallback.to_json()
        return out

    # ---- values -------------------------------------------------------------------------

    def convert(self, value):
        """``value`` converted to this type, as a ``CAny``; TypeError
        ("type conversion failed for <type>: <why>") when it does not fit."""
        try:
            result = self._get_converter()(value)
        except _Mismatch as err:
            raise TypeError("type conversion failed for %r: %s" % (self, err.detail)) from None
        return core.CAny(result)

    def check_value(self, value):
        """Raise TypeError ("type check failed for <type>: <why>") unless ``value`` converts."""
        try:
            self._get_converter()(value)
        except _Mismatch as err:
            raise TypeError("type check failed for %r: %s" % (self, err.detail)) from None

    def _convert_field(self, value):
        """``convert`` for field stores: the TypeError carries the bare detail, without the
        "type conversion failed" prefix (a py_class setter's error)."""
        try:
            result = self._get_converter()(value)
        except _Mismatch as err:
            raise TypeError(err.detail) from None
        return core.CAny(result)

    def _get_converter(self):
        conv = self.__dict__.get("_converter")
        if conv is None:
            conv = _build_converter(self)
            self.__dict__["_converter"] = conv
        return conv

    def is_subtype_of(self, cls):
        """Whether values of this schema are instances of the FFI class ``cls``."""
        info = core._type_cls_to_type_info(cls) if isinstance(cls, type) else None
        if info is None:
            return False
        index = self.origin_type_index
        if index < 64:
            return False
        if info.type_index == 64 or index == info.type_index:
            return True
        return info.type_index in core._type_ancestor_indices(index)


def _check_named_args(named):
    if named is None:
        return None
    if not isinstance(named, collections.abc.Mapping):
        raise TypeError("named_args must be a map of names to type lists")
    out = {}
    for key, group in named.items():
        if not isinstance(key, str) or not key:
            raise ValueError("named_args keys must be nonempty strings")
        if not isinstance(group, (list, tuple)):
            raise TypeError("named_args values must be lists of type schemas")
        for item in group:
            if not isinstance(item, TypeSchema):
                raise TypeError("named_args values must contain type schemas")
        out[key] = tuple(group)
    return out


def _origin_type_index(origin):
    if origin in ("Optional", "Union"):
        return -2
    index = _ORIGIN_TYPE_INDEX.get(origin)
    if index is not None:
        return index
    if origin in _PY_ONLY_ORIGINS:
        return -3
    index = core._object_type_key_to_index(origin)
    return -3 if index is None else index


def _schema_of(value):
    if isinstance(value, TypeSchema):
        return value
    if isinstance(value, str):
        return TypeSchema.from_json_str(value)
    return TypeSchema.from_json_obj(dict(value))


# ---- annotations ------------------------------------------------------------------------


def _from_annotation(ann):
    if ann is None or ann is type(None):
        return TypeSchema("None")
    if ann is typing.Any:
        return TypeSchema("Any")
    origin = typing.get_origin(ann)
    args = typing.get_args(ann)
    if origin is typing.Union or (
        getattr(types, "UnionType", None) is not None and origin is types.UnionType
    ):
        rest = [a for a in args if a is not type(None)]
        inner = [_from_annotation(a) for a in rest]
        body = inner[0] if len(inner) == 1 else TypeSchema("Union", inner)
        if len(rest) != len(args):
            return TypeSchema("Optional", (body,))
        return body
    if origin is list:
        if len(args) > 1:
            raise TypeError("list takes at most 1 type argument, got %d" % len(args))
        return TypeSchema("List", tuple(_from_annotation(a) for a in args))
    if origin is dict:
        if len(args) not in (0, 2):
            raise TypeError("dict requires 0 or 2 type arguments, got %d" % len(args))
        return TypeSchema("Dict", tuple(_from_annotation(a) for a in args))
    if ann is tuple:
        return TypeSchema("tuple", None)
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return TypeSchema("Array", (_from_annotation(args[0]),))
        if args == ((),):  # tuple[()] before Python 3.11
            args = ()
        return TypeSchema("tuple", tuple(_from_annotation(a) for a in args))
    if ann is collections.abc.Callable or origin is collections.abc.Callable:
        if not args:
            return TypeSchema("Callable")
        params, ret = args[0], args[-1]
        named = {"return": (_from_annotation(ret),)}
        if params is not Ellipsis:
            named["params"] = tuple(_from_annotation(p) for p in params)
        return TypeSchema("Callable", named_args=named)
    if isinstance(origin, type) and issubclass(origin, core.CObject):
        return _object_annotation(origin, args)
    if not isinstance(ann, type):
        raise TypeError("Cannot convert %r to TypeSchema" % (ann,))
    if issubclass(ann, core.CObject):
        return _object_annotation(ann, None)
    if issubclass(ann, (core.dtype, core.DataType)):
        return TypeSchema("dtype")
    if issubclass(ann, core.Device):
        return TypeSchema("Device")
    if issubclass(ann, ctypes.c_void_p):
        return TypeSchema("ctypes.c_void_p")
    for base in (bool, int, float, str, bytes):
        if issubclass(ann, base):
            return TypeSchema(base.__name__)
    if ann is list:
        return TypeSchema("List")
    if ann is dict:
        return TypeSchema("Dict")
    if hasattr(ann, "__dlpack__"):
        return TypeSchema("Tensor")
    raise TypeError("Cannot convert %r to TypeSchema" % (ann,))


def _object_annotation(cls, args):
    info = core._type_cls_to_type_info(cls)
    if info is None:
        raise TypeError(
            "CObject subclass %r is not registered in TYPE_CLS_TO_INFO; "
            "use @register_object to register it" % (cls,)
        )
    index = info.type_index
    if index == 68:
        return TypeSchema("Callable")
    name = _SHORT_NAME_OF_INDEX.get(index, info.type_key)
    sub = () if args is None else tuple(_from_annotation(a) for a in args)
    if args is not None:
        want = 1 if name in ("Array", "List") else 2 if name in ("Map", "Dict") else None
        if want is not None and len(sub) != want:
            raise TypeError(
                "%s requires %d type argument%s, got %d"
                % (name, want, "" if want == 1 else "s", len(sub))
            )
    return TypeSchema(name, sub, origin_type_index=index)


# ---- converters -------------------------------------------------------------------------


class _Mismatch(Exception):
    """A value does not fit a schema; ``detail`` says why (without the schema prefix)."""

    def __init__(self, detail):
        super().__init__(detail)
        self.detail = detail


def _type_name(value):
    """How an offending value is described in conversion errors."""
    if value is None:
        return "None"
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int):
        return "int"
    if isinstance(value, float):
        return "float"
    if isinstance(value, str):
        return "str"
    if isinstance(value, (bytes, bytearray)):
        return "bytes"
    if isinstance(value, core.CObject) and value.__chandle__() != 0:
        return value.type_key
    return type(value).__qualname__


_PROTOCOL_FAILED = object()
_MAX_PROTOCOL_STEPS = 64


def _unwrap(value):
    """Apply the value protocols (__tvm_ffi_object__, __tvm_ffi_value__, asobject) until a
    plain value remains; _PROTOCOL_FAILED when __tvm_ffi_value__ gives nothing usable."""
    for _ in range(_MAX_PROTOCOL_STEPS):
        cls = type(value)
        if cls in _PLAIN_TYPES or isinstance(value, (core.CObject, core.PyNativeObject)):
            return value
        if isinstance(value, core.ObjectRValueRef):
            return value
        if hasattr(cls, "__tvm_ffi_object__"):
            try:
                return value.__tvm_ffi_object__()
            except Exception:
                raise _Mismatch("__tvm_ffi_object__() failed for %s" % cls.__qualname__) from None
        if hasattr(cls, "__tvm_ffi_value__"):
            try:
                result = value.__tvm_ffi_value__()
            except RecursionError:
                raise _Mismatch("infinite __tvm_ffi_value__ cycle detected") from None
            except Exception:
                return _PROTOCOL_FAILED
            if result is value:
                return _PROTOCOL_FAILED
            value = result
            continue
        if isinstance(value, core.ObjectConvertible):
            try:
                result = value.asobject()
            except Exception:
                raise _Mismatch("asobject() failed for %s" % cls.__qualname__) from None
            if not isinstance(result, core.CObject):
                raise _Mismatch(
                    "asobject() returned %s for %s" % (type(result).__qualname__, cls.__qualname__)
                )
            return result
        return value
    raise _Mismatch("infinite __tvm_ffi_value__ cycle detected")


_PLAIN_TYPES = frozenset([type(None), bool, int, float, str, bytes, list, tuple, dict])


def _with_protocols(dispatch, label):
    def convert(value):
        plain = _unwrap(value)
        if plain is _PROTOCOL_FAILED:
            if label == "Any":
                raise _Mismatch("failed to convert Any from %s" % type(value).__qualname__)
            raise _Mismatch("expected %s, got %s" % (label, type(value).__qualname__))
        return dispatch(plain)

    return convert


def _mismatch(label, value):
    return _Mismatch("expected %s, got %s" % (label, _type_name(value)))


def _build_converter(schema):
    origin = schema.origin
    builder = _BUILDERS.get(origin)
    if builder is not None:
        return builder(schema)
    if schema.origin_type_index >= 64:
        kind = _enum_kind(schema.origin_type_index)
        if kind is not None:
            return _enum_converter(schema, kind)
        return _object_converter(schema)
    raise TypeError("unknown TypeSchema origin: %r" % origin)


def _conv_any(schema):
    def conv(value):
        try:
            core.CAny(value)
        except Exception as err:
            raise _Mismatch("expected Any, got %s: %s" % (_type_name(value), err)) from None
        return value

    return _with_protocols(conv, "Any")


def _conv_none(schema):
    def conv(value):
        if value is None:
            return None
        raise _mismatch("None", value)

    return _with_protocols(conv, "None")


def _int_in_range(value):
    if _INT64_MIN <= value <= _INT64_MAX:
        return value
    raise _Mismatch("integer %d out of int64 range [%d, %d]" % (value, _INT64_MIN, _INT64_MAX))


def _user_conversion(func, value):
    """func(value) for a value of a user class (int(), float(), bool()); what the class's
    hook raises becomes a mismatch naming the conversion and the class."""
    try:
        return func(value)
    except Exception as err:
        raise _Mismatch(
            "%s() failed for %s: %s" % (func.__name__, _type_name(value), err)
        ) from None


def _conv_int(schema):
    def conv(value):
        cls = type(value)
        if cls is int:
            return _int_in_range(value)
        if cls is bool:
            return int(value)
        if isinstance(value, numbers.Integral) and not isinstance(value, core.CObject):
            return _int_in_range(_user_conversion(int, value))
        if hasattr(cls, "__tvm_ffi_int__"):
            return _int_in_range(int(value.__tvm_ffi_int__()))
        raise _mismatch("int", value)

    return _with_protocols(conv, "int")


def _conv_float(schema):
    def conv(value):
        cls = type(value)
        if cls is float:
            return value
        if cls is int or cls is bool:
            try:
                return float(value)
            except OverflowError:
                raise _mismatch("float", value) from None
        if isinstance(value, numbers.Real):
            return _user_conversion(float, value)
        if hasattr(cls, "__tvm_ffi_float__"):
            return float(value.__tvm_ffi_float__())
        raise _mismatch("float", value)

    return _with_protocols(conv, "float")


def _conv_bool(schema):
    def conv(value):
        if type(value) is bool:
            return value
        if isinstance(value, numbers.Integral):
            return _user_conversion(bool, value)
        raise _mismatch("bool", value)

    return _with_protocols(conv, "bool")


def _conv_str(schema):
    def conv(value):
        if isinstance(value, str) and not isinstance(value, core.dtype):
            return value
        raise _mismatch("str", value)

    return _with_protocols(conv, "str")


def _conv_bytes(schema):
    def conv(value):
        if isinstance(value, bytes):
            return value
        if isinstance(value, bytearray):
            return bytes(value)
        raise _mismatch("bytes", value)

    return _with_protocols(conv, "bytes")


def _conv_device(schema):
    def conv(value):
        if isinstance(value, core.Device):
            return value
        if isinstance(value, str):
            try:
                return core.device(value)
            except Exception:
                raise _Mismatch("expected Device, got invalid device string %r" % value) from None
        cls = type(value)
        if hasattr(cls, "__dlpack_device__") and not hasattr(cls, "__dlpack__"):
            device_type, index = value.__dlpack_device__()
            return core.Device(int(device_type), int(index))
        raise _mismatch("Device", value)

    return _with_protocols(conv, "Device")


def _conv_dtype(schema):
    def conv(value):
        if isinstance(value, core.dtype):
            return value
        if isinstance(value, core.DataType):
            return core.dtype(str(value))
        if isinstance(value, str):
            try:
                return core.dtype(value)
            except Exception:
                raise _Mismatch("expected dtype, got invalid dtype string %r" % value) from None
        cls = type(value)
        if hasattr(cls, "__dlpack_data_type__"):
            return core.dtype.from_dlpack_data_type(value.__dlpack_data_type__())
        if _is_framework_dtype(value):
            try:
                return core.dtype(value)
            except Exception:
                pass
        raise _mismatch("dtype", value)

    return _with_protocols(conv, "dtype")


def _is_framework_dtype(value):
    module = type(value).__module__ or ""
    return module.startswith("torch") or module.startswith("numpy")


def _conv_void_p(schema):
    def conv(value):
        if isinstance(value, ctypes.c_void_p):
            return value
        if value is None:
            return ctypes.c_void_p(None)
        if not isinstance(value, (int, float, str, bytes, core.CObject)):
            try:
                cany = core.CAny(value)
            except Exception:
                cany = None
            if cany is not None and cany.type_index == 4:
                return core._to_py_class_value(cany)
        raise _mismatch("ctypes.c_void_p", value)

    return _with_protocols(conv, "ctypes.c_void_p")


def _conv_tensor(schema):
    def conv(value):
        if isinstance(value, core.Tensor):
            return value
        cls = type(value)
        if hasattr(cls, "__dlpack__") or hasattr(cls, "__dlpack_c_exchange_api__"):
            try:
                result = core._to_py_class_value(core.CAny(value))
            except Exception:
                result = None
            if isinstance(result, core.Tensor):
                return result
        raise _mismatch("Tensor", value)

    return _with_protocols(conv, "Tensor")


def _conv_callable(schema):
    def conv(value):
        if isinstance(value, core.Function):
            return value
        if callable(value) and not isinstance(value, core.CObject):
            return core._convert_to_ffi_func(value)
        raise _mismatch("Callable", value)

    return _with_protocols(conv, "Callable")


def _containers():
    from . import container

    return container


def _conv_sequence(schema):
    label = "List" if schema.origin in ("List", "list") else "Array"
    elem = schema.args[0]._get_converter()

    def conv(value):
        ct = _containers()
        target = ct.List if label == "List" else ct.Array
        if not isinstance(value, (list, tuple, ct.Array, ct.List)):
            raise _mismatch(label, value)
        items = list(value)
        out, changed = _convert_items(items, elem)
        if isinstance(value, target) and not changed:
            return value
        return target(out)

    return _with_protocols(conv, label)


def _convert_items(items, elem):
    out = []
    changed = False
    for i, item in enumerate(items):
        try:
            new = elem(item)
        except _Mismatch as err:
            raise _Mismatch("element [%d]: %s" % (i, err.detail)) from None
        changed = changed or new is not item
        out.append(new)
    return out, changed


def _conv_mapping(schema):
    label = "Dict" if schema.origin in ("Dict", "dict") else "Map"
    key_conv = schema.args[0]._get_converter()
    value_conv = schema.args[1]._get_converter()

    def conv(value):
        ct = _containers()
        if not isinstance(value, collections.abc.Mapping):
            raise _mismatch(label, value)
        flat = []
        changed = False
        for k, v in value.items():
            try:
                nk = key_conv(k)
            except _Mismatch as err:
                raise _Mismatch("key %r: %s" % (k, err.detail)) from None
            try:
                nv = value_conv(v)
            except _Mismatch as err:
                raise _Mismatch("value for key %r: %s" % (k, err.detail)) from None
            changed = changed or nk is not k or nv is not v
            flat.append(nk)
            flat.append(nv)
        target = ct.Dict if label == "Dict" else ct.Map
        if isinstance(value, target) and not changed:
            return value
        return core._get_global_func("ffi." + label)(*flat)

    return _with_protocols(conv, label)


def _conv_tuple(schema):
    elems = None if schema.args is None else [a._get_converter() for a in schema.args]

    def conv(value):
        ct = _containers()
        if not isinstance(value, (list, tuple, ct.Array, ct.List)):
            raise _mismatch("tuple", value)
        items = list(value)
        if elems is None:
            if isinstance(value, ct.Array):
                return value
            return ct.Array(items)
        if len(items) != len(elems):
            raise _Mismatch(
                "expected tuple of length %d, got %s of length %d"
                % (len(elems), _type_name(value), len(items))
            )
        out = []
        changed = False
        for i, (item, elem) in enumerate(zip(items, elems)):
            try:
                new = elem(item)
            except _Mismatch as err:
                raise _Mismatch("element [%d]: %s" % (i, err.detail)) from None
            changed = changed or new is not item
            out.append(new)
        if isinstance(value, ct.Array) and not changed:
            return value
        return ct.Array(out)

    return _with_protocols(conv, "tuple")


def _conv_optional(schema):
    inner = schema.args[0]
    if inner.origin == "Union":
        # Optional[Union[...]] is one union whose alternatives include None.
        return _union_of(list(inner.args) + [TypeSchema("None")], repr(schema))
    inner_conv = inner._get_converter()

    def conv(value):
        if value is None:
            return None
        return inner_conv(value)

    return conv


def _conv_union(schema):
    return _union_of(list(schema.args), repr(schema))


def _union_of(alternatives, label):
    convs = [a._get_converter() for a in alternatives]

    def conv(value):
        for alt in convs:
            try:
                return alt(value)
            except _Mismatch:
                continue
        raise _mismatch(label, value)

    return _with_protocols(conv, label)


def _indent(text, spaces):
    pad = " " * spaces
    return pad + text.replace("\n", "\n" + pad)


def _object_converter(schema):
    index = schema.origin_type_index
    label = schema.origin

    def is_instance(type_index):
        return (
            type_index == index or index == 64 or index in core._type_ancestor_indices(type_index)
        )

    def conv(value):
        if isinstance(value, core.CObject) and value.__chandle__() != 0:
            if is_instance(value.type_index):
                return value
        if value is None and index == 64:
            raise _mismatch(label, value)
        try:
            cany = core.CAny(value)
        except Exception:
            raise _mismatch(label, value) from None
        if cany.type_index >= 64 and is_instance(cany.type_index):
            return core._to_py_class_value(cany)
        fconvert = core._lookup_type_attr(index, "__ffi_convert__")
        if fconvert is None:
            raise _mismatch(label, value)
        arg = core._to_py_class_value(cany)
        if isinstance(arg, str):
            # As an exact str a short string reaches the converter as ffi.SmallStr, the
            # type its error then names (a String instance would arrive as a raw C string).
            arg = str.__str__(arg)
        try:
            result = fconvert(arg)
        except Exception as err:
            raise _Mismatch(
                "expected %s, got %s\n  __ffi_convert__ failed:\n%s"
                % (label, _type_name(value), _indent(_error_message(err), 4))
            ) from None
        # A Shape (or another value class over an object) holds the object it stands for.
        held = getattr(result, "_tvm_ffi_cached_object", result)
        if isinstance(held, core.CObject) and is_instance(held.type_index):
            return result
        raise _mismatch(label, value)

    return _with_protocols(conv, label)


def _enum_kind(type_index):
    """ "int" for IntEnum types, "str" for StrEnum types (their payload kind), else None."""
    ancestors = core._type_ancestor_indices(type_index)
    for kind, key in (("int", "ffi.IntEnum"), ("str", "ffi.StrEnum")):
        base = core._object_type_key_to_index(key)
        if base is not None and (type_index == base or base in ancestors):
            return kind
    return None


def _enum_converter(schema, kind):
    """An enum target also takes a payload (int for IntEnum, str for StrEnum) naming one of
    its singletons, through the type's enum state (``__ffi_enum__``)."""
    index = schema.origin_type_index
    objects = _object_converter(schema)

    def conv(value):
        if isinstance(value, core.CObject):
            return objects(value)
        payload = None
        if kind == "int":
            if not isinstance(value, bool) and isinstance(value, numbers.Integral):
                payload = _int_in_range(_user_conversion(int, value))
        elif isinstance(value, str) and not isinstance(value, core.dtype):
            payload = str(value)
        if payload is None:
            return objects(value)
        state = core._lookup_type_attr(index, "__ffi_enum__")
        entry = state.indexes.get(payload) if state is not None else None
        if entry is None:
            # Not a variant's payload: the type's own conversion decides (its error, from
            # __ffi_convert__, is the cause the message reports).
            return objects(value)
        return entry

    return conv


def _error_message(err):
    message = getattr(err, "__tvm_ffi_message__", None)
    if isinstance(message, str):
        return message
    return str(err)


_BUILDERS = {
    "Any": _conv_any,
    "None": _conv_none,
    "int": _conv_int,
    "float": _conv_float,
    "bool": _conv_bool,
    "str": _conv_str,
    "bytes": _conv_bytes,
    "Device": _conv_device,
    "dtype": _conv_dtype,
    "ctypes.c_void_p": _conv_void_p,
    "Tensor": _conv_tensor,
    "Callable": _conv_callable,
    "Array": _conv_sequence,
    "List": _conv_sequence,
    "list": _conv_sequence,
    "Map": _conv_mapping,
    "Dict": _conv_mapping,
    "dict": _conv_mapping,
    "tuple": _conv_tuple,
    "Optional": _conv_optional,
    "Union": _conv_union,
}
