"""Constants of the stub generator: marker syntax, builtin keys, default type names."""

import dataclasses


@dataclasses.dataclass(frozen=True)
class MarkerSyntax:
    """How a target language writes the marker comments (``#`` or ``//``)."""

    comment: str

    @property
    def marker(self):
        """The text every marker line starts with, after leading whitespace."""
        return self.comment + " tvm-ffi-stubgen("


PYTHON_SYNTAX = MarkerSyntax("#")
RUST_SYNTAX = MarkerSyntax("//")
SYNTAX_BY_EXT = {".py": PYTHON_SYNTAX, ".pyi": PYTHON_SYNTAX, ".rs": RUST_SYNTAX}

# Block kinds a begin marker may open; one-line markers use the kinds after them.
STUB_BLOCK_KINDS = ("global", "object", "import-section", "export", "__all__", "ty-map")
DIRECTIVE_KINDS = ("directive", "ty-map", "import-object")
# Directives the pipeline itself handles (the generator handles import-object).
PIPELINE_DIRECTIVE_KINDS = ("ty-map", "prefix", "skip")

# Types the runtime defines itself: never scaffolded nor rolled out.
BUILTIN_TYPE_KEYS = frozenset(
    [
        "ffi.BigInt",
        "ffi.Bytes",
        "ffi.Error",
        "ffi.Function",
        "ffi.Object",
        "ffi.OpaquePyObject",
        "ffi.SmallBytes",
        "ffi.SmallStr",
        "ffi.String",
        "ffi.Tensor",
    ]
)

# Schema origin -> Python name used in stubs (before any ty-map directive).
DEFAULT_TY_MAP = {
    "Any": "typing.Any",
    "Callable": "typing.Callable",
    "Array": "collections.abc.Sequence",
    "List": "collections.abc.MutableSequence",
    "Map": "collections.abc.Mapping",
    "Dict": "collections.abc.MutableMapping",
    "Object": "ffi.Object",
    "Tensor": "ffi.Tensor",
    "dtype": "ffi.dtype",
    "Device": "ffi.Device",
    "ffi.Enum": "tvm_ffi.dataclasses.Enum",
}

# Parameters accept any sequence or mapping: the FFI converts them on the way in.
INPUT_TY_MAP = {
    "Array": "collections.abc.Sequence",
    "List": "collections.abc.Sequence",
    "Map": "collections.abc.Mapping",
    "Dict": "collections.abc.Mapping",
}

TERM_RED = "\033[31m"
TERM_GREEN = "\033[32m"
TERM_YELLOW = "\033[33m"
TERM_CYAN = "\033[36m"
TERM_RESET = "\033[0m"
