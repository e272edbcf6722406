"""``tvm-ffi-stubgen``: keep the marked blocks of stub files in step with the registry.

Usage: ``tvm-ffi-stubgen [options] PATH...`` (or ``python -m tvm_ffi.stub.cli``). Exit
status 0 on success, 2 when a file failed, 1 when ``--check`` found stale files.
"""

import argparse
import ctypes
import importlib
import sys
import traceback
from pathlib import Path

from . import consts as C
from .file_utils import CodeBlock, FileInfo, _parse_blocks
from .generator import get_generator
from .lib_state import collect_global_funcs, collect_type_keys, is_builtin, toposort_objects
from .utils import InitConfig, Options

_DESCRIPTION = (
    "Generate type stubs for tvm-ffi packages. Normal mode rewrites, in place, the blocks "
    "between `tvm-ffi-stubgen(begin)` and `tvm-ffi-stubgen(end)` markers of the given files "
    "from the global functions and object types the loaded libraries register. With the three "
    "--init-* options it first creates the missing `_ffi_api.py` and `__init__.py` files of a "
    "package."
)


def _red(text):
    return "%s%s%s" % (C.TERM_RED, text, C.TERM_RESET)


def _split_list(text):
    return [part.strip() for part in text.split(";") if part.strip()]


def _build_parser():
    parser = argparse.ArgumentParser(
        prog="tvm-ffi-stubgen",
        description=_DESCRIPTION,
        formatter_class=argparse.ArgumentDefaultsHelpFormatter,
    )
    parser.add_argument(
        "files",
        nargs="*",
        metavar="PATH",
        help="files or directories to process; directories are walked recursively for the "
        "target's extensions (.py and .pyi for python, .rs for rust)",
    )
    parser.add_argument("--imports", default="", help="modules to import first, ';'-separated")
    parser.add_argument(
        "--dlls", dest="libs", default="", help="shared libraries to load first, ';'-separated"
    )
    parser.add_argument("--init-pypkg", default="", help="Python package name (scaffolding)")
    parser.add_argument("--init-lib", default="", help="library target to load (scaffolding)")
    parser.add_argument("--init-prefix", default="", help="registry prefix to scaffold")
    parser.add_argument(
        "--indent", type=int, default=4, help="extra indent inside generated TYPE_CHECKING bodies"
    )
    parser.add_argument(
        "--target", choices=["python", "rust"], default="python", help="code generator"
    )
    parser.add_argument("--verbose", action="store_true", help="print a diff of each change")
    parser.add_argument("--dry-run", action="store_true", help="do not write files")
    parser.add_argument(
        "--check",
        action="store_true",
        help="do not write files; report each stale file and exit 1 if any",
    )
    parser.add_argument(
        "--coverage-out",
        metavar="JSON",
        default=None,
        help="write the native-layout coverage report of every registered object type",
    )
    return parser


def _parse_args(argv=None):
    """The Options of a command line (``sys.argv[1:]`` by default)."""
    parser = _build_parser()
    args = parser.parse_args(argv)
    init_parts = (args.init_pypkg, args.init_lib, args.init_prefix)
    init = None
    if any(init_parts):
        if not all(init_parts):
            parser.error("--init-pypkg, --init-lib, and --init-prefix must be provided together")
        if args.check:
            parser.error("--check cannot be combined with --init-*")
        init = InitConfig(args.init_pypkg, args.init_lib, args.init_prefix)
    if args.indent < 0:
        parser.error("--indent must not be negative")
    return Options(
        imports=_split_list(args.imports),
        dlls=_split_list(args.libs),
        init=init,
        indent=args.indent,
        files=list(args.files),
        verbose=args.verbose,
        dry_run=args.dry_run or args.check,
        check=args.check,
        target=args.target,
        coverage_out=args.coverage_out,
    )


def _stage_1(file, ty_map):
    """Add the file's ``ty-map`` directives (``A.B -> C.D``) to ``ty_map``."""
    for block in file.code_blocks:
        if block.kind != "ty-map" or block.lineno_end != block.lineno_start:
            continue
        source, arrow, target = block.param.partition("->")
        source, target = source.strip(), target.strip()
        if not arrow or not source or not target:
            raise ValueError(
                "Invalid ty_map format at line %d. Example: `A.B -> C.D`" % block.lineno_start
            )
        ty_map[source] = target


def _directives(file, name):
    return [b for b in file.code_blocks if b.kind == "directive" and b.param[0] == name]


def _declared_objects(files):
    """type key -> path of the file whose ``object/`` block declares it."""
    out = {}
    for file in files:
        for block in file.code_blocks:
            if block.kind == "object":
                out.setdefault(block.param, file.path)
    return out


def _skipped_keys(files):
    return {b.param[1] for f in files for b in _directives(f, "skip")}


def _new_blocks(lineno, lines):
    """Plain-line blocks for ``lines`` (whose markers re-parse on the next read)."""
    return [CodeBlock(None, "", lineno, lineno, [line]) for line in lines]


def _remove_unregistered_blocks(file, prefix, registered):
    """Drop the ``object/`` blocks directly under ``prefix`` whose type is gone."""
    kept = []
    for block in file.code_blocks:
        if (
            block.kind == "object"
            and block.param.rpartition(".")[0] == prefix
            and block.param not in registered
        ):
            print("[Removed] `object/%s` from %s" % (block.param, file.path))
            if kept and kept[-1].kind is None and kept[-1].lines == [""]:
                kept.pop()
            continue
        kept.append(block)
    file.code_blocks = kept


def _roll_out_prefixes(files, generator):
    """Apply every ``prefix`` directive: remove blocks of types no longer registered and
    append an empty block for each registered type of the prefix not declared anywhere.
    Returns the number of blocks added."""
    owners = {}
    for file in files:
        found = _directives(file, "prefix")
        if len(found) > 1:
            raise ValueError("%s: more than one prefix directive" % file.path)
        for block in found:
            prefix = block.param[1]
            if prefix in owners:
                raise ValueError(
                    "prefix `%s` is already declared by %s" % (prefix, owners[prefix][0].path)
                )
            owners[prefix] = (file, block)
    if not owners:
        return 0
    keys_by_prefix = collect_type_keys()
    declared = _declared_objects(files)
    skipped = _skipped_keys(files)
    added = 0
    for prefix, (file, directive) in sorted(owners.items()):
        registered = keys_by_prefix.get(prefix, [])
        _remove_unregistered_blocks(file, prefix, set(registered))
        if not registered:
            print("[Skipped] prefix `%s` has no registered types" % prefix)
            continue
        if generator.has_import_section and not any(
            b.kind == "import-section" for b in file.code_blocks
        ):
            at = file.code_blocks.index(directive) + 1
            lines = [""] + generator.new_import_section()
            file.code_blocks[at:at] = _new_blocks(directive.lineno_start, lines)
        todo = [
            k for k in registered if k not in declared and k not in skipped and not is_builtin(k)
        ]
        for info in toposort_objects(todo):
            lines = [""] + generator.new_object_block(info.type_key)
            file.code_blocks += _new_blocks(0, lines)
            declared[info.type_key] = file.path
            added += 1
        _reparse(file)
    return added


def _reparse(file):
    """Re-split a file's blocks after lines were added (the file's original text stays in
    ``file.lines``, so the update still sees the change)."""
    file.code_blocks = _parse_blocks(file.rendered_lines(), file.syntax)


def _stage_2(files, ty_map, init_cfg, init_path, global_funcs, generator):
    """``--init`` scaffolding: for each registry prefix under ``init_cfg.prefix`` with
    functions or types not yet declared, append the missing parts to
    ``<init_path>/<prefix as path>/_ffi_api.py`` and ``__init__.py``. Returns the paths of
    the files written."""
    filt = init_cfg.prefix if init_cfg.prefix.endswith(".") else init_cfg.prefix + "."
    root = filt[:-1]
    keys_by_prefix = collect_type_keys()
    declared = _declared_objects(files)
    skipped = _skipped_keys(files)
    has_global = {b.param[0] for f in files for b in f.code_blocks if b.kind == "global"}
    written = set()
    for prefix in sorted(set(keys_by_prefix) | set(global_funcs)):
        if prefix != root and not prefix.startswith(filt):
            continue
        funcs = [] if prefix in has_global else global_funcs.get(prefix, [])
        keys = [
            k
            for k in keys_by_prefix.get(prefix, [])
            if k not in declared and k not in skipped and not is_builtin(k)
        ]
        if not funcs and not keys:
            continue
        directory = Path(init_path, *prefix.split("."))
        directory.mkdir(parents=True, exist_ok=True)
        api_path = directory / generator.api_file
        api = FileInfo.from_file(api_path, include_empty=True, syntax=generator.syntax)
        text = generator.scaffold_api(
            [b for b in api.code_blocks if b.kind is not None] if api.lines else [],
            ty_map,
            prefix,
            toposort_objects(keys),
            init_cfg,
            prefix == root,
        )
        _append(api_path, text)
        init_path_file = directory / generator.init_file
        init = FileInfo.from_file(init_path_file, include_empty=True, syntax=generator.syntax)
        text = generator.scaffold_init(
            [b for b in init.code_blocks if b.kind is not None] if init.lines else [], prefix
        )
        _append(init_path_file, text)
        written.update({str(api_path), str(init_path_file)})
    return written


def _append(path, text):
    if not text:
        return
    old = path.read_text(encoding="utf-8") if path.exists() else ""
    if old and not old.endswith("\n"):
        old += "\n"
    path.write_text(old + text, encoding="utf-8")


def _stage_3(file, opt, ty_map, global_funcs, generator, declared=None):
    """Fill every block of ``file`` and write it when it changed; True when it did.

    Object blocks of unregistered types are reported (ValueError) after the write.
    """
    errors = generator.generate_file(file, opt, ty_map, global_funcs)
    changed = file.update(verbose=opt.verbose, dry_run=opt.dry_run)
    if errors:
        raise errors[0]
    return changed


def _load(opt):
    import tvm_ffi  # noqa: F401  (loads libtvm_ffi before any extension library)

    for name in opt.imports:
        importlib.import_module(name)
    for lib in opt.dlls:
        ctypes.CDLL(lib, ctypes.RTLD_GLOBAL)


def _collect(paths, generator, failures):
    found = set()
    for p in paths:
        p = Path(p)
        if p.is_dir():
            found.update(
                q.resolve()
                for q in p.rglob("*")
                if q.is_file() and q.suffix in generator.source_exts
            )
        elif p.is_file():
            found.add(p.resolve())
        else:
            failures.append((p, "FileNotFoundError: no such file or directory: %s\n" % p))
    files = []
    for path in sorted(found):
        try:
            info = FileInfo.from_file(path, syntax=generator.syntax)
        except Exception:  # any parse error fails this file only
            failures.append((path, traceback.format_exc()))
            continue
        if info is not None:
            files.append(info)
    return files


def _report(failures):
    for path, text in failures:
        print(_red('[Failed] File "%s": %s' % (path, text)))


def __main__(argv=None):
    """Run the tool; returns the exit status."""
    opt = _parse_args(argv)
    if not opt.files and opt.coverage_out is None:
        _build_parser().print_help()
        return 1
    try:
        generator = get_generator(opt.target)
    except ValueError as err:
        print(_red("[Failed] %s" % err))
        return 2
    if opt.init is not None and opt.target != "python":
        print(_red("[Failed] --init-* scaffolding is not supported by the %s target" % opt.target))
        return 2
    try:
        _load(opt)
    except (ImportError, OSError) as err:
        print(_red("[Failed] Cannot load --imports/--dlls: %s: %s" % (type(err).__name__, err)))
        return 2
    if opt.coverage_out is not None:
        from .layout import write_coverage_report

        write_coverage_report(Path(opt.coverage_out))
    if not opt.files:
        return 0
    failures = []
    if opt.init is not None and not Path(opt.files[0]).exists():
        # Scaffolding may start from nothing (the package directory is generated).
        Path(opt.files[0]).mkdir(parents=True)
    files = _collect(opt.files, generator, failures)
    global_funcs = collect_global_funcs()
    ty_map = dict(C.DEFAULT_TY_MAP)
    for file in list(files):
        try:
            _stage_1(file, ty_map)
        except Exception:
            failures.append((file.path, traceback.format_exc()))
            files.remove(file)
    if opt.init is not None:
        first = Path(opt.files[0])
        init_path = first.parent if first.is_file() else first
        written = _stage_2(files, ty_map, opt.init, init_path, global_funcs, generator)
        known = {f.path for f in files}
        for path in sorted(written):
            resolved = Path(path).resolve()
            if resolved in known:
                files = [f for f in files if f.path != resolved]
            info = FileInfo.from_file(resolved, syntax=generator.syntax)
            if info is not None:
                files.append(info)
        files.sort(key=lambda f: f.path)
    try:
        _roll_out_prefixes(files, generator)
    except Exception:
        failures.append(("<prefix directives>", traceback.format_exc()))
    stale = []
    for file in files:
        try:
            if _stage_3(file, opt, ty_map, global_funcs, generator):
                stale.append(file.path)
        except Exception:
            failures.append((file.path, traceback.format_exc()))
    if opt.check:
        for path in stale:
            print("%s[Stale] %s%s" % (C.TERM_YELLOW, path, C.TERM_RESET))
    _report(failures)
    if failures:
        return 2
    if opt.check and stale:
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(__main__())
