"""The Rust generator: fills the ``global/`` and ``object/`` blocks of ``.rs`` files.

The specification names the target (``--target rust``: ``.rs`` files, ``//`` markers) but no
rendering, and this project has no Rust binding crate for generated code to call into. So the
Rust blocks declare what the registry knows as plain constants, which compile without any
dependency: the names to look a global function or a type up by, and the fields and methods a
type reflects, each documented with its type schema in Rust spelling (``i64``, ``f64``,
``String``, ``Array<i64>``, ``Option<T>``, ``fn(A) -> R``). ``docs/stubgen.md`` describes the
format.
"""

import re

from . import consts as C
from .file_utils import check_directive
from .lib_state import object_info_from_type_key, stale_object_error

# Origin -> the Rust name used in documentation; other origins keep their own name.
_RUST_NAMES = {
    "int": "i64",
    "float": "f64",
    "bool": "bool",
    "str": "String",
    "bytes": "Bytes",
    "None": "()",
    "ffi.String": "String",
    "ffi.Bytes": "Bytes",
    "ffi.Object": "Object",
    "ffi.Tensor": "Tensor",
    "ffi.Function": "Function",
}

_IDENT_RE = re.compile(r"[^0-9A-Za-z]+")
_CAMEL_RE = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")


def rust_type(schema):
    """The Rust spelling of a TypeSchema, for documentation."""
    origin = schema.origin
    if schema.fallback is not None and schema.origin_type_index == -3:
        if origin not in ("tuple", "list", "dict"):
            return rust_type(schema.fallback)
    args = schema.args or ()
    if origin == "Callable":
        named = schema.named_args
        if named is None:
            return "fn(..) -> Any"
        ret = rust_type(named["return"][0])
        if "params" not in named:
            return "fn(..) -> %s" % ret
        return "fn(%s) -> %s" % (", ".join(rust_type(p) for p in named["params"]), ret)
    if origin == "Optional":
        return "Option<%s>" % rust_type(args[0])
    if origin == "tuple":
        inner = ", ".join(rust_type(a) for a in args)
        return "(%s,)" % inner if len(args) == 1 else "(%s)" % inner
    name = _RUST_NAMES.get(origin, origin)
    if not args:
        return name
    return "%s<%s>" % (name, ", ".join(rust_type(a) for a in args))


def rust_func_signature(func):
    """``name(&self, A, B) -> R`` of a function or method; ``name(..) -> R`` when the
    parameters are unknown."""
    schema = func.schema
    if schema.origin != "Callable":
        raise ValueError(
            "Function `%s` has schema `%r`, which is not Callable" % (schema.name, schema)
        )
    named = schema.named_args
    ret = rust_type(named["return"][0]) if named is not None else "Any"
    if named is None or "params" not in named:
        params = [".."]
    else:
        params = [rust_type(p) for p in named["params"]]
        if func.is_member:
            params[:1] = ["&self"]
    if func.is_member and params == [".."]:
        params = ["&self", ".."]
    return "%s(%s) -> %s" % (func.name, ", ".join(params), ret)


def const_name(name):
    """``add_one``/``AddOne`` -> ``ADD_ONE``: a function's name as a Rust constant."""
    text = _IDENT_RE.sub("_", _CAMEL_RE.sub("_", name)).strip("_").upper()
    if not text:
        raise ValueError("cannot make a Rust constant name of `%s`" % name)
    return "_" + text if text[0].isdigit() else text


def type_name(type_key):
    """The Rust type name of a type key: its last part, with non-identifier characters
    replaced by ``_``."""
    text = _IDENT_RE.sub("_", type_key.rpartition(".")[2]).strip("_")
    if not text:
        raise ValueError("cannot make a Rust type name of `%s`" % type_key)
    return "_" + text if text[0].isdigit() else text


def _literal(text):
    return '"%s"' % text.replace("\\", "\\\\").replace('"', '\\"')


def _str_slice(names):
    return "&[%s]" % ", ".join(_literal(n) for n in names)


def generate_rust_global_funcs(code, global_funcs):
    """A ``global/<prefix>`` block: one ``pub const`` per function holding its registered
    name, documented with its signature. Nothing is generated when the prefix has none."""
    if not global_funcs:
        return
    taken = {}
    lines = []
    for func in sorted(global_funcs, key=lambda f: f.schema.name):
        name = const_name(func.name)
        if name in taken:
            raise ValueError(
                "global functions `%s` and `%s` both become the Rust constant %s"
                % (taken[name], func.schema.name, name)
            )
        taken[name] = func.schema.name
        lines.append("/// `%s`" % rust_func_signature(func))
        lines.append("pub const %s: &str = %s;" % (name, _literal(func.schema.name)))
    code.replace_body(lines)


def generate_rust_object(code, info):
    """An ``object/<type_key>`` block (meant for the inside of an ``impl``): associated
    constants for the type key, the parent's type key, the own fields and the methods."""
    lines = ["/// The registered type key.", "pub const TYPE_KEY: &'static str = %s;"]
    lines[1] %= _literal(info.type_key)
    if info.parent_type_key is not None:
        lines.append("/// The type key of the parent type.")
        lines.append(
            "pub const PARENT_TYPE_KEY: &'static str = %s;" % _literal(info.parent_type_key)
        )
    lines.append("/// Own reflected fields, in order%s" % (":" if info.fields else " (none)."))
    lines += ["/// - `%s: %s`" % (f.name, rust_type(f)) for f in info.fields]
    lines.append(
        "pub const FIELDS: &'static [&'static str] = %s;" % _str_slice(f.name for f in info.fields)
    )
    lines.append("/// Reflected methods%s" % (":" if info.methods else " (none)."))
    lines += ["/// - `%s`" % rust_func_signature(m) for m in info.methods]
    names = list(dict.fromkeys(m.name for m in info.methods))
    lines.append("pub const METHODS: &'static [&'static str] = %s;" % _str_slice(names))
    code.replace_body(lines)


class RustGenerator:
    """Generator of the ``rust`` target: ``global/`` and ``object/`` blocks of ``.rs``
    files, plus the pipeline's ``prefix``/``skip``/``ty-map`` directives (ty-map names
    Python types and is not used here). Every other block or directive is an error naming
    its line; ``--init-*`` scaffolding is Python-only."""

    name = "rust"
    source_exts = (".rs",)
    syntax = C.RUST_SYNTAX
    has_import_section = False

    def generate_file(self, file, opt, ty_map, global_funcs):
        """Fill the blocks of ``file``; returns the errors of object blocks whose type is
        not registered (raised by the caller after writing)."""
        del opt, ty_map  # the Rust text has no indent option and no Python type names
        errors = []
        for block in file.code_blocks:
            if block.kind is None or block.kind == "ty-map":
                continue
            if block.kind == "directive":
                check_directive(block)
            elif block.kind == "global":
                generate_rust_global_funcs(block, global_funcs.get(block.param[0], []))
            elif block.kind == "object":
                error = stale_object_error(block)
                if error is not None:
                    errors.append(error)
                    continue
                generate_rust_object(block, object_info_from_type_key(block.param))
            else:
                raise ValueError(
                    "`%s` (line %d) is not supported by the rust target (only global/ and "
                    "object/ blocks are)" % (block.kind, block.lineno_start)
                )
        return errors

    def new_object_block(self, type_key):
        """Lines appended for a type of a ``prefix`` directive: a unit struct named after
        the type and an ``impl`` holding the empty ``object/<type_key>`` block."""
        comment = self.syntax.comment
        name = type_name(type_key)
        return [
            "/// FFI binding for `%s`." % type_key,
            "pub struct %s;" % name,
            "",
            "impl %s {" % name,
            "    %s tvm-ffi-stubgen(begin): object/%s" % (comment, type_key),
            "    %s tvm-ffi-stubgen(end)" % comment,
            "}",
        ]

    def new_import_section(self):
        """Rust files have no import section."""
        return []

    def scaffold_api(self, *args):
        """``--init-*`` scaffolding writes Python packages only."""
        raise ValueError("--init-* scaffolding is not supported by the rust target")

    def scaffold_init(self, *args):
        """``--init-*`` scaffolding writes Python packages only."""
        raise ValueError("--init-* scaffolding is not supported by the rust target")
