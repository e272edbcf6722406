"""Reading marked source files into blocks and writing them back."""

import dataclasses
import difflib
import os
import re
import typing
from pathlib import Path

from . import consts as C

_NAME_RE = re.compile(r"([A-Za-z_][A-Za-z0-9_-]*)\)(?::(.*))?$")


def syntax_for(path):
    """The marker syntax of a file, by extension (``#`` unless it is a ``.rs`` file)."""
    return C.SYNTAX_BY_EXT.get(Path(path).suffix, C.PYTHON_SYNTAX)


def _split_marker(line, syntax):
    """(name, payload or None) of a marker line, or None for a line that is no marker.

    ValueError-free: a line that starts like a marker but does not parse gives ("", None).
    """
    text = line.lstrip()
    if not text.startswith(syntax.marker):
        return None
    match = _NAME_RE.match(text[len(syntax.marker) :].rstrip())
    if match is None:
        return ("", None)
    return match.group(1), match.group(2)


@dataclasses.dataclass
class CodeBlock:
    """A run of lines: a marked block (kind set), a one-line directive, or a plain line
    (kind None). ``lines`` holds the file's lines of the block, markers included."""

    kind: typing.Optional[str]
    param: typing.Any
    lineno_start: int
    lineno_end: typing.Optional[int]
    lines: typing.List[str]

    @property
    def indent(self):
        """The leading spaces of the block's first line."""
        if not self.lines:
            return ""
        first = self.lines[0]
        return first[: len(first) - len(first.lstrip(" "))]

    @staticmethod
    def from_begin_line(lineno, line, syntax=C.PYTHON_SYNTAX):
        """The block opened by a begin marker, or the one-line block of a directive.

        ValueError names the line for an unknown stub type or a malformed marker.
        """
        parts = _split_marker(line, syntax)
        if parts is None or not parts[0] or parts[0] in ("end", "skip-file"):
            raise ValueError("Unknown stub type at line %d: %s" % (lineno, line))
        name, payload = parts
        if payload is None:
            raise ValueError("Unknown stub type at line %d: %s" % (lineno, line))
        payload = payload.strip()
        if name != "begin":
            return CodeBlock(*_directive(name, payload, lineno), lineno, lineno, [])
        kind, param = _begin_stub(payload, lineno)
        return CodeBlock(kind, param, lineno, None, [])

    def replace_body(self, body, keep_indent=True):
        """Put ``body`` between the begin and end markers, each line prefixed with the
        begin line's indent unless keep_indent is False (empty lines stay empty)."""
        indent = self.indent if keep_indent else ""
        self.lines = (
            [self.lines[0]]
            + [(indent + text) if text else text for text in body]
            + [self.lines[-1]]
        )


def check_directive(block):
    """ValueError for a directive block whose name no generator knows."""
    name, _ = block.param
    if name not in ("prefix", "skip"):
        raise ValueError("Unknown directive `%s` at line %d" % (name, block.lineno_start))


def _directive(name, payload, lineno):
    if name == "ty-map":
        return "ty-map", payload
    if name == "import-object":
        parts = tuple(p.strip() for p in payload.split(";"))
        if len(parts) != 3 or not parts[0] or parts[1] not in ("True", "False"):
            raise ValueError(
                "Invalid import-object format at line %d. "
                "Example: `<full.name>;<True|False>;<alias>`" % lineno
            )
        return "import-object", parts
    return "directive", (name, payload)


def _begin_stub(stub, lineno):
    if stub in ("import-section", "__all__"):
        return stub, ""
    kind, sep, rest = stub.partition("/")
    if sep and rest:
        if kind == "global":
            prefix, _, import_from = rest.partition("@")
            return "global", (prefix, import_from)
        if kind in ("object", "export", "ty-map"):
            return kind, rest
    raise ValueError("Unknown stub type `%s` at line %d" % (stub, lineno))


def _parse_blocks(lines, syntax):
    blocks = []
    current = None
    for lineno, line in enumerate(lines, 1):
        parts = _split_marker(line, syntax)
        if parts is not None and parts[0] == "end" and parts[1] is None:
            if current is None:
                raise ValueError(
                    "Unmatched `%s tvm-ffi-stubgen(end)` found at line %d"
                    % (syntax.comment, lineno)
                )
            current.lines.append(line)
            current.lineno_end = lineno
            blocks.append(current)
            current = None
            continue
        if parts is not None and parts[0] != "skip-file":
            block = CodeBlock.from_begin_line(lineno, line, syntax)
            block.lines.append(line)
            if block.lineno_end is None:
                if current is not None:
                    raise ValueError("Nested stub not permitted at line %d" % lineno)
                current = block
            elif current is not None:
                current.lines.append(line)
            else:
                blocks.append(block)
            continue
        if current is not None:
            current.lines.append(line)
        else:
            blocks.append(CodeBlock(None, "", lineno, lineno, [line]))
    if current is not None:
        raise ValueError("Unclosed stub block at end of file")
    return blocks


@dataclasses.dataclass
class FileInfo:
    """A marked source file: its lines as read and its blocks (which generators edit)."""

    path: Path
    lines: typing.Tuple[str, ...]
    code_blocks: typing.List[CodeBlock]
    syntax: C.MarkerSyntax = C.PYTHON_SYNTAX

    @staticmethod
    def from_file(path, include_empty=False, syntax=None):
        """The parsed file; None when it has no marker line or says skip-file.

        With include_empty, a missing or marker-free file gives an (empty) FileInfo too.
        """
        path = Path(path).resolve()
        syntax = syntax or syntax_for(path)
        text = path.read_text(encoding="utf-8") if path.exists() else ""
        lines = tuple(text.splitlines())
        has_marker = False
        for line in lines:
            parts = _split_marker(line, syntax)
            if parts is None:
                continue
            if parts == ("skip-file", None):
                return None
            has_marker = True
        if not has_marker and not include_empty:
            return None
        return FileInfo(path, lines, _parse_blocks(lines, syntax), syntax)

    def rendered_lines(self):
        """The file's lines as its blocks now read."""
        return [line for block in self.code_blocks for line in block.lines]

    def update(self, verbose=False, dry_run=False):
        """Write the blocks back when they changed the file; True when they did.

        ``verbose`` prints a coloured unified diff; ``dry_run`` leaves the file alone.
        """
        new_lines = self.rendered_lines()
        if tuple(new_lines) == self.lines:
            return False
        if verbose:
            print("%s[File] %s%s" % (C.TERM_CYAN, self.path, C.TERM_RESET))
            for line in difflib.unified_diff(list(self.lines), new_lines, lineterm="", n=2):
                if line.startswith(("---", "+++")):
                    continue
                if line.startswith("+"):
                    print("%s%s%s" % (C.TERM_GREEN, line, C.TERM_RESET))
                elif line.startswith("-"):
                    print("%s%s%s" % (C.TERM_RED, line, C.TERM_RESET))
                else:
                    print(line)
        if not dry_run:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self.path.write_text("\n".join(new_lines) + "\n", encoding="utf-8")
        return True

    def reload(self):
        """Re-read the file from disk (after it was written)."""
        fresh = FileInfo.from_file(self.path, include_empty=True, syntax=self.syntax)
        self.lines = fresh.lines
        self.code_blocks = fresh.code_blocks


def collect_files(paths, source_exts):
    """The marked files under ``paths``, sorted by path: directories are walked recursively
    for files with one of ``source_exts``; a file named explicitly is always read."""
    found = set()
    for p in paths:
        p = Path(p)
        if p.is_dir():
            for root, _dirs, names in os.walk(p):
                for name in names:
                    if Path(name).suffix in source_exts:
                        found.add(Path(root, name).resolve())
        elif p.exists():
            found.add(p.resolve())
        else:
            raise FileNotFoundError("No such file or directory: %s" % p)
    files = []
    for path in sorted(found):
        info = FileInfo.from_file(path)
        if info is not None:
            files.append(info)
    return files
