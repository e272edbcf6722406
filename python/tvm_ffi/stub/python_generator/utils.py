"""Import records and the rendering of signatures, fields and constructors as stub text."""

import dataclasses
import typing

_MODULE_REWRITES = {"ffi": "tvm_ffi", "testing": "tvm_ffi.testing"}


def _rewrite_module(module):
    head, sep, rest = module.partition(".")
    if head in _MODULE_REWRITES:
        return _MODULE_REWRITES[head] + sep + rest
    return module


@dataclasses.dataclass(frozen=True)
class ImportItem:
    """One imported name: ``from <module> import <name> [as <alias>]``, or ``import <name>``
    when the full name has no module. ``type_checking_only`` items go under
    ``if TYPE_CHECKING:``. The registry prefixes ``ffi`` and ``testing`` name the modules
    ``tvm_ffi`` and ``tvm_ffi.testing``."""

    full_name: str
    type_checking_only: bool = False
    alias: typing.Optional[str] = None

    @property
    def module(self):
        """The module imported from ("" for a plain ``import``)."""
        module, _, _ = self.full_name.rpartition(".")
        return _rewrite_module(module) if module else ""

    @property
    def name(self):
        """The imported name (the last part of the full name)."""
        return self.full_name.rpartition(".")[2]

    @property
    def name_with_alias(self):
        """``name`` or ``name as alias``."""
        return self.name if not self.alias else "%s as %s" % (self.name, self.alias)

    def __str__(self):
        if not self.module:
            return "import %s" % self.name_with_alias
        return "from %s import %s" % (self.module, self.name_with_alias)


@dataclasses.dataclass
class PythonImports:
    """The imports a file's generated blocks need; ``has_lib_load`` records that the file
    imports the library loader (its ``LIB`` then belongs in ``__all__``)."""

    items: typing.List[ImportItem] = dataclasses.field(default_factory=list)
    has_lib_load: bool = False


def _params_of(schema):
    named = schema.named_args
    if named is None or "params" not in named:
        return None
    return list(named["params"])


def _ret_of(schema, ty_map):
    named = schema.named_args
    if named is None:
        return ty_map("Any")
    return named["return"][0].output_repr(ty_map)


def render_func_signature(func, ty_map, indent, input_ty_map=None):
    """``def name(_0: T, /) -> R: ...`` for a function, indented by ``indent`` spaces.

    Members render their first parameter as ``self``; a function whose parameters are
    unknown renders as ``(*args: Any)``. ValueError for a schema that is not Callable.
    """
    schema = func.schema
    if schema.origin != "Callable":
        raise ValueError(
            "Function `%s` has schema `%r`, which is not Callable" % (schema.name, schema)
        )
    input_ty_map = input_ty_map or ty_map
    ret = _ret_of(schema, ty_map)
    params = _params_of(schema)
    if params is None:
        args = ["*args: %s" % ty_map("Any")]
    else:
        args = []
        for i, param in enumerate(params):
            if i == 0 and func.is_member:
                args.append("self")
            else:
                args.append("_%d: %s" % (i, param.input_repr(input_ty_map)))
        if func.is_member and not params:
            args.append("self")
        if args:
            args.append("/")
    return "%sdef %s(%s) -> %s: ..." % (" " * indent, func.name, ", ".join(args), ret)


def render_object_fields(info, ty_map, indent):
    """``name: T`` for each own field of the object."""
    return ["%s%s: %s" % (" " * indent, f.name, f.output_repr(ty_map)) for f in info.fields]


def _format_field_params(info, ty_map, input_ty_map=None):
    """The constructor parameters of the init fields: positional required, positional
    defaulted, then ``*`` and keyword-only required, keyword-only defaulted."""
    input_ty_map = input_ty_map or ty_map

    def param(f):
        text = "%s: %s" % (f.name, f.schema.input_repr(input_ty_map))
        return text + " = ..." if f.has_default else text

    positional = [f for f in info.init_fields if not f.kw_only]
    keyword = [f for f in info.init_fields if f.kw_only]
    parts = ["self"]
    parts += [param(f) for f in positional if not f.has_default]
    parts += [param(f) for f in positional if f.has_default]
    if keyword:
        parts.append("*")
        parts += [param(f) for f in keyword if not f.has_default]
        parts += [param(f) for f in keyword if f.has_default]
    return ", ".join(parts)


def _render_init_from_fields(info, ty_map, indent, input_ty_map=None):
    params = _format_field_params(info, ty_map, input_ty_map)
    return ["%sdef __init__(%s) -> None: ..." % (" " * indent, params)]


def _render_ffi_init_from_fields(info, ty_map, indent, input_ty_map=None):
    params = _format_field_params(info, ty_map, input_ty_map)
    return ["%sdef __ffi_init__(%s) -> None: ..." % (" " * indent, params)]


def _render_ffi_init_from_method(method, ty_map, indent, input_ty_map=None):
    """``__ffi_init__`` from its reflected method: every schema parameter is a value."""
    input_ty_map = input_ty_map or ty_map
    params = _params_of(method.schema) if method.schema.origin == "Callable" else None
    if params is None:
        args = "self, *args: %s" % ty_map("Any")
    elif not params:
        args = "self"
    else:
        args = ", ".join(
            ["self"]
            + ["_%d: %s" % (i, p.input_repr(input_ty_map)) for i, p in enumerate(params)]
            + ["/"]
        )
    return "%sdef __ffi_init__(%s) -> None: ..." % (" " * indent, args)


def render_object_init(info, ty_map, indent, input_ty_map=None):
    """The ``__init__`` stub (none when the type cannot be constructed)."""
    if not info.has_init:
        return []
    return _render_init_from_fields(info, ty_map, indent, input_ty_map)


def render_object_ffi_init(info, ty_map, indent, input_ty_map=None):
    """The ``__ffi_init__`` stub: from the reflected method when there is one, else made
    from the init fields (none when the type cannot be constructed)."""
    for method in info.methods:
        if method.name == "__ffi_init__":
            return [_render_ffi_init_from_method(method, ty_map, indent, input_ty_map)]
    if not info.has_init:
        return []
    return _render_ffi_init_from_fields(info, ty_map, indent, input_ty_map)


def render_object_methods(info, ty_map, indent, input_ty_map=None):
    """The method stubs other than ``__ffi_init__``; repeated names get ``@overload``."""
    methods = [m for m in info.methods if m.name != "__ffi_init__"]
    counts = {}
    for m in methods:
        counts[m.name] = counts.get(m.name, 0) + 1
    pad = " " * indent
    lines = []
    for m in methods:
        if counts[m.name] > 1:
            lines.append(pad + "@" + ty_map("typing.overload"))
        if not m.is_member:
            lines.append(pad + "@staticmethod")
        lines.append(render_func_signature(m, ty_map, indent, input_ty_map))
    return lines
