"""The Python generator: fills every block of a ``.py``/``.pyi`` file and scaffolds
``_ffi_api.py``/``__init__.py`` for ``--init``."""

from .. import consts as C
from ..file_utils import check_directive
from ..lib_state import object_info_from_type_key, stale_object_error
from . import codegen
from .utils import ImportItem


class PythonGenerator:
    """Generator of the ``python`` target."""

    name = "python"
    source_exts = (".py", ".pyi")
    syntax = C.PYTHON_SYNTAX
    api_file = "_ffi_api.py"
    init_file = "__init__.py"
    has_import_section = True

    def generate_file(self, file, opt, ty_map, global_funcs):
        """Fill the blocks of ``file`` in the pipeline's order; returns the errors of object
        blocks whose type is not registered (raised by the caller after writing)."""
        imports = []
        errors = []
        has_lib_load = False
        for block in file.code_blocks:
            if block.kind == "directive":
                check_directive(block)
            elif block.kind == "import-object":
                full_name, checking_only, alias = block.param
                imports.append(ImportItem(full_name, checking_only == "True", alias or None))
                if full_name.endswith("libinfo.load_lib_module") or alias == "_FFI_LOAD_LIB":
                    has_lib_load = True
        func_names = set()
        for block in file.code_blocks:
            if block.kind == "global":
                funcs = global_funcs.get(block.param[0], [])
                codegen.generate_python_global_funcs(block, funcs, ty_map, imports, opt)
                func_names.update(f.name for f in funcs)
        defined = []
        for block in file.code_blocks:
            if block.kind != "object":
                continue
            key = block.param
            error = stale_object_error(block)
            if error is not None:
                errors.append(error)
                continue
            info = object_info_from_type_key(key)
            codegen.generate_python_object(block, ty_map, imports, opt, info)
            defined.append(ty_map.get(key, key))
        own = {(ImportItem(name).module, ImportItem(name).name) for name in defined}
        imports = [item for item in imports if (item.module, item.name) not in own]
        section = next((b for b in file.code_blocks if b.kind == "import-section"), None)
        if section is not None:
            codegen.generate_python_import_section(section, imports, opt)
        all_block = next((b for b in file.code_blocks if b.kind == "__all__"), None)
        if all_block is not None:
            names = func_names | {name.rpartition(".")[2] for name in defined}
            if has_lib_load:
                names.add("LIB")
            codegen.generate_python_all(all_block, names, opt)
        for block in file.code_blocks:
            if block.kind == "export":
                codegen.generate_python_export(block)
        return errors

    def new_object_block(self, type_key):
        """Lines of an empty ``object/<type_key>`` block (prefix roll-out)."""
        return [
            "%s tvm-ffi-stubgen(begin): object/%s" % (self.syntax.comment, type_key),
            "%s tvm-ffi-stubgen(end)" % self.syntax.comment,
        ]

    def new_import_section(self):
        """Lines of an empty ``import-section`` block."""
        return [
            "%s tvm-ffi-stubgen(begin): import-section" % self.syntax.comment,
            "%s tvm-ffi-stubgen(end)" % self.syntax.comment,
        ]

    def scaffold_api(self, code_blocks, ty_map, module_name, object_infos, init_cfg, is_root):
        """Text appended to a prefix's ``_ffi_api.py``."""
        return codegen.generate_python_ffi_api(
            code_blocks, ty_map, module_name, object_infos, init_cfg, is_root, self.syntax
        )

    def scaffold_init(self, code_blocks, module_name):
        """Text appended to a prefix's ``__init__.py``."""
        return codegen.generate_python_init(code_blocks, module_name, "_ffi_api", self.syntax)
