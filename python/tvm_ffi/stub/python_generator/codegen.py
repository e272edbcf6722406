"""Filling each kind of marked block with Python stub text."""

from .. import consts as C
from .utils import (
    ImportItem,
    render_func_signature,
    render_object_ffi_init,
    render_object_fields,
    render_object_init,
    render_object_methods,
)


def _type_suffix_and_record(ty_map, imports, func_names=None):
    """The name renderer of one block: an origin goes through ``ty_map``; a dotted result
    records a TYPE_CHECKING-only import and renders as its last part (aliased ``_<part>``
    when a function of the block has that name)."""
    func_names = func_names or set()

    def render(origin):
        name = ty_map.get(origin, origin)
        if "." not in name:
            return name
        last = name.rpartition(".")[2]
        alias = "_" + last if last in func_names else None
        imports.append(ImportItem(name, type_checking_only=True, alias=alias))
        return alias or last

    return render


def _make_input_ty_map(ty_map):
    """``ty_map`` for parameters: containers accept any Sequence/Mapping, unless the user
    mapped that origin to something else."""
    out = dict(ty_map)
    for origin, name in C.INPUT_TY_MAP.items():
        if ty_map.get(origin) == C.DEFAULT_TY_MAP[origin]:
            out[origin] = name
    return out


def _type_checking(imports):
    imports.append(ImportItem("typing.TYPE_CHECKING"))
    return "TYPE_CHECKING"


def generate_python_global_funcs(code, global_funcs, ty_map, imports, opt):
    """A ``global/<prefix>[@<import_from>]`` block: registers the functions into the module
    at run time and declares their signatures for type checkers."""
    prefix, import_from = code.param
    if not global_funcs:
        return
    names = {f.name for f in global_funcs}
    render = _type_suffix_and_record(ty_map, imports, names)
    render_in = _type_suffix_and_record(_make_input_ty_map(ty_map), imports, names)
    imports.append(
        ImportItem("%s.init_ffi_api" % (import_from or "tvm_ffi"), alias="_FFI_INIT_FUNC")
    )
    lines = ["# fmt: off", '_FFI_INIT_FUNC("%s", __name__)' % prefix]
    lines.append("if %s:" % _type_checking(imports))
    for func in sorted(global_funcs, key=lambda f: f.schema.name):
        lines.append(render_func_signature(func, render, opt.indent, render_in))
    lines.append("# fmt: on")
    code.replace_body(lines)


def generate_python_object(code, ty_map, imports, opt, obj_info):
    """An ``object/<type_key>`` block: field annotations, then the constructor and method
    stubs under ``if TYPE_CHECKING:``."""
    names = {m.name for m in obj_info.methods}
    render = _type_suffix_and_record(ty_map, imports, names)
    render_in = _type_suffix_and_record(_make_input_ty_map(ty_map), imports, names)
    lines = ["# fmt: off"]
    lines += render_object_fields(obj_info, render, 0)
    decls = render_object_init(obj_info, render, opt.indent, render_in)
    decls += render_object_ffi_init(obj_info, render, opt.indent, render_in)
    decls += render_object_methods(obj_info, render, opt.indent, render_in)
    if decls:
        lines.append("if %s:" % _type_checking(imports))
        lines += decls
    lines.append("# fmt: on")
    code.replace_body(lines)


def generate_python_import_section(code, imports, opt):
    """The ``import-section`` block: every recorded import once, grouped by module; the
    TYPE_CHECKING-only ones under ``if TYPE_CHECKING:``. No imports: block untouched."""
    if not imports:
        return
    concrete = {}
    checking = {}
    for item in imports:
        target = checking if item.type_checking_only else concrete
        target.setdefault(item.module, set()).add(item.name_with_alias)
    for module, names in list(checking.items()):
        names -= concrete.get(module, set())
        if not names:
            del checking[module]
    if checking:
        concrete.setdefault("typing", set()).add("TYPE_CHECKING")

    def render(groups, pad):
        out = []
        for module in sorted(groups):
            names = sorted(groups[module])
            if module:
                out.append("%sfrom %s import %s" % (pad, module, ", ".join(names)))
            else:
                out += ["%simport %s" % (pad, n) for n in names]
        return out

    lines = ["# fmt: off", "# isort: off", "from __future__ import annotations"]
    lines += render(concrete, "")
    if checking:
        lines.append("if TYPE_CHECKING:")
        lines += render(checking, " " * opt.indent)
    lines += ["# isort: on", "# fmt: on"]
    code.replace_body(lines, keep_indent=False)


def _all_sort_key(name):
    if name.isupper():
        group = 0
    elif name[:1].isupper() and "_" not in name:
        group = 1
    else:
        group = 2
    return (group, name)


def generate_python_all(code, names, opt):
    """The ``__all__`` block: one quoted name a line, constants first, then classes, then
    the rest. No names: block untouched."""
    short = {n.rpartition(".")[2] for n in names}
    if not short:
        return
    code.replace_body(['"%s",' % n for n in sorted(short, key=_all_sort_key)])


def generate_python_export(code):
    """An ``export/<submodule>`` block: re-export the submodule's names and extend
    ``__all__`` with its ``__all__``."""
    m = code.param
    code.replace_body(
        [
            "# fmt: off",
            "# isort: off",
            "from .%s import *  # noqa: F403" % m,
            "from .%s import __all__ as %s__all__" % (m, m),
            'if "__all__" not in globals():',
            "    __all__ = []",
            "__all__.extend(%s__all__)" % m,
            "# isort: on",
            "# fmt: on",
        ]
    )


def _marker(syntax, text):
    return "%s tvm-ffi-stubgen(%s" % (syntax.comment, text)


def _prompt_import_section(syntax):
    return "\n".join([_marker(syntax, "begin): import-section"), _marker(syntax, "end)")]) + "\n"


def _prompt_globals(mod, syntax):
    return "\n".join([_marker(syntax, "begin): global/%s" % mod), _marker(syntax, "end)")]) + "\n"


def _prompt_import_object(type_key, type_name, syntax):
    return _marker(syntax, "import-object): %s;False;%s" % (type_key, type_name)) + "\n"


def _prompt_class_def(type_name, type_key, parent_type_name, syntax):
    return (
        "\n".join(
            [
                '@_FFI_REG_OBJ("%s")' % type_key,
                "class %s(%s):" % (type_name, parent_type_name),
                '    """FFI binding for `%s`."""' % type_key,
                "",
                "    " + _marker(syntax, "begin): object/%s" % type_key),
                "    " + _marker(syntax, "end)"),
                "",
            ]
        )
        + "\n"
    )


def _prompt_all_section(syntax):
    return (
        "\n".join(
            [
                "",
                "__all__ = [",
                "    " + _marker(syntax, "begin): __all__"),
                "    " + _marker(syntax, "end)"),
                "]",
            ]
        )
        + "\n"
    )


def _has_block(code_blocks, kind, param=None):
    return any(b.kind == kind and (param is None or b.param == param) for b in code_blocks)


def generate_python_ffi_api(
    code_blocks, ty_map, module_name, object_infos, init_cfg, is_root, syntax
):
    """Text to append to a scaffolded ``_ffi_api.py`` of ``module_name`` (the registry
    prefix): the import section, the library load (root only), the global block, a class
    per object type and ``__all__``, each only when the file lacks it."""
    out = []
    if not code_blocks:
        out.append('"""FFI API bindings for %s."""\n' % module_name)
    if not _has_block(code_blocks, "import-section"):
        out.append("\n" + _prompt_import_section(syntax))
    if is_root:
        out.append(
            _prompt_import_object("tvm_ffi.libinfo.load_lib_module", "_FFI_LOAD_LIB", syntax)
            + 'LIB = _FFI_LOAD_LIB("%s", "%s")\n' % (init_cfg.pkg, init_cfg.shared_target)
        )
    if not any(b.kind == "global" and b.param[0] == module_name for b in code_blocks):
        out.append(_prompt_globals(module_name, syntax))
    if object_infos:
        out.append(_prompt_import_object("tvm_ffi.register_object", "_FFI_REG_OBJ", syntax))
    defined = set()
    for info in object_infos:
        name = info.type_key.rpartition(".")[2]
        parent_key = info.parent_type_key or "ffi.Object"
        if parent_key in defined:
            parent_name = parent_key.rpartition(".")[2]
        else:
            mapped = ty_map.get(parent_key, parent_key)
            parent_name = "_" + mapped.replace(".", "_")
            out.append(_prompt_import_object(mapped, parent_name, syntax))
        out.append(_prompt_class_def(name, info.type_key, parent_name, syntax))
        defined.add(info.type_key)
    if not _has_block(code_blocks, "__all__"):
        out.append(_prompt_all_section(syntax))
    return "".join(out)


def generate_python_init(code_blocks, module_name, submodule, syntax):
    """Text to append to a scaffolded package ``__init__.py``: its docstring (when empty)
    and an ``export/<submodule>`` block (when it has none)."""
    out = []
    if not code_blocks:
        out.append('"""Package %s."""\n' % module_name)
    if not _has_block(code_blocks, "export", submodule):
        out.append(
            "\n"
            + "\n".join([_marker(syntax, "begin): export/%s" % submodule), _marker(syntax, "end)")])
            + "\n"
        )
    return "".join(out)
