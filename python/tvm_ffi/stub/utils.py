"""The stub generator's data model: named schemas, functions, objects and options."""

import dataclasses
import json
import typing

from .. import core
from .._type_schema import TypeSchema

_CALLABLE_KEYS = ("ffi.Function", "Callable", "std::function")


def _normalize_callable_json(obj):
    """A ``type_schema`` JSON object with every flat C++ function form ``[ret, params...]``
    turned into ``named_args``: the C++ side lists all parameters, so one entry means none."""
    if isinstance(obj, list):
        return [_normalize_callable_json(x) for x in obj]
    if not isinstance(obj, dict):
        return obj
    out = {k: _normalize_callable_json(v) for k, v in obj.items()}
    args = out.get("args")
    if (
        out.get("type") in _CALLABLE_KEYS
        and "named_args" not in out
        and isinstance(args, list)
        and args
        and all(isinstance(a, dict) for a in args)
    ):
        out.pop("args")
        out["named_args"] = {"return": args[:1], "params": args[1:]}
    return out


def _parse_type_schema(raw):
    """The TypeSchema of a ``type_schema`` metadata entry (a JSON text or a parsed dict)."""
    if isinstance(raw, str):
        raw = json.loads(raw)
    if not isinstance(raw, dict):
        raise TypeError("type_schema must be a JSON object, got %s" % type(raw).__name__)
    return TypeSchema.from_json_obj(_normalize_callable_json(raw))


class NamedTypeSchema(TypeSchema):
    """A schema with the name it is declared under (a field or a function) and, for fields,
    their native layout and dataclass traits."""

    def __init__(
        self,
        name,
        schema,
        *,
        size=None,
        alignment=None,
        offset=None,
        default=core.MISSING,
        default_is_factory=False,
        structural_eq=None,
        frozen=False,
    ):
        TypeSchema.__init__(
            self,
            schema.origin,
            schema.args,
            origin_type_index=schema.origin_type_index,
            fallback=schema.fallback,
            named_args=schema.named_args,
            type_key=schema.type_key,
        )
        self.name = name
        self.size = size
        self.alignment = alignment
        self.offset = offset
        self.default = default
        self.default_is_factory = default_is_factory
        self.structural_eq = structural_eq
        self.frozen = frozen


@dataclasses.dataclass
class FuncInfo:
    """A function to declare: its named Callable schema; members take ``self`` first."""

    schema: NamedTypeSchema
    is_member: bool

    @staticmethod
    def from_schema(name, schema, *, is_member=False):
        """The FuncInfo of function ``name`` with Callable schema ``schema``."""
        return FuncInfo(NamedTypeSchema(name, schema), is_member)

    @property
    def name(self):
        """The declared (last) name part."""
        return self.schema.name.rsplit(".", 1)[-1]


@dataclasses.dataclass
class InitFieldInfo:
    """A constructor parameter taken from a field."""

    name: str
    schema: NamedTypeSchema
    kw_only: bool
    has_default: bool


@dataclasses.dataclass
class ObjectInfo:
    """An object type to declare: own fields and methods, and its constructor fields."""

    fields: typing.List[NamedTypeSchema]
    methods: typing.List[FuncInfo]
    type_key: typing.Optional[str] = None
    parent_type_key: typing.Optional[str] = None
    init_fields: typing.List[InitFieldInfo] = dataclasses.field(default_factory=list)
    has_init: bool = False
    ancestors: typing.List[str] = dataclasses.field(default_factory=list)
    total_size: typing.Optional[int] = None
    is_final: typing.Optional[bool] = None

    def has_overloaded_methods(self):
        """Whether two methods share a name (they then render with ``@overload``)."""
        names = [m.name for m in self.methods]
        return len(names) != len(set(names))

    @staticmethod
    def from_type_info(info):
        """The ObjectInfo of a ``tvm_ffi.core.TypeInfo``."""
        fields = [_field_schema(f) for f in info.fields or ()]
        methods = []
        for method in info.methods:
            raw = method.metadata.get("type_schema") if isinstance(method.metadata, dict) else None
            schema = _parse_type_schema(raw) if raw is not None else TypeSchema("Callable")
            methods.append(
                FuncInfo.from_schema(method.name, schema, is_member=not method.is_static)
            )
        chain = []
        cursor = info
        while cursor is not None:
            chain.append(cursor)
            cursor = cursor.parent_type_info
        init_fields = [
            InitFieldInfo(f.name, _field_schema(f), f.c_kw_only, f.c_has_default)
            for ancestor in reversed(chain)
            for f in ancestor.fields or ()
            if f.c_init
        ]
        has_init = any(m.name == "__ffi_init__" for m in info.methods) or (
            core._lookup_type_attr(info.type_index, "__ffi_init__") is not None
        )
        entry = core._type_table_entry(info.type_index)
        total_size = entry[4] if entry is not None else None
        parent = info.parent_type_info
        return ObjectInfo(
            fields=fields,
            methods=methods,
            type_key=info.type_key,
            parent_type_key=parent.type_key if parent is not None else None,
            init_fields=init_fields,
            has_init=has_init,
            ancestors=[a.type_key for a in reversed(chain[1:])],
            total_size=total_size,
        )


def _field_schema(field):
    schema = field.ty
    if schema is None:
        try:
            schema = TypeSchema.from_type_index(field.field_static_type_index)
        except ValueError:
            schema = TypeSchema("Any")
    has_factory = field.c_default_factory is not core.MISSING
    return NamedTypeSchema(
        field.name,
        schema,
        size=field.size,
        alignment=field.alignment,
        offset=field.offset,
        default=field.c_default_factory if has_factory else field.c_default,
        default_is_factory=has_factory,
        structural_eq=field.c_structural_eq,
        frozen=field.frozen,
    )


@dataclasses.dataclass
class InitConfig:
    """``--init-*`` scaffolding: the Python package, the library target and the prefix."""

    pkg: str
    shared_target: str
    prefix: str


@dataclasses.dataclass
class Options:
    """The parsed command line."""

    imports: typing.List[str] = dataclasses.field(default_factory=list)
    dlls: typing.List[str] = dataclasses.field(default_factory=list)
    init: typing.Optional[InitConfig] = None
    indent: int = 4
    files: typing.List[str] = dataclasses.field(default_factory=list)
    verbose: bool = False
    dry_run: bool = False
    check: bool = False
    target: str = "python"
    coverage_out: typing.Optional[str] = None
