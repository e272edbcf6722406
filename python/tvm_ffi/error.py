"""Errors crossing the FFI boundary: the kind <-> exception class registry and backtraces.

``register_error`` maps an error kind (the string C++ raises with) to a Python exception
class; ``_parse_backtrace`` reads the ``File "<f>", line <n>, in <func>`` lines of a native
backtrace.
"""

from . import core
from .core import register_error

ERROR_NAME_TO_TYPE = core.ERROR_KIND_TO_CLS
ERROR_TYPE_TO_NAME = core.ERROR_CLS_TO_KIND
# The reference names of the two registry dicts, on core as well.
core.ERROR_NAME_TO_TYPE = ERROR_NAME_TO_TYPE
core.ERROR_TYPE_TO_NAME = ERROR_TYPE_TO_NAME


def _parse_backtrace(text):
    """``[(file, line, func), ...]`` of the frame lines in text (other lines are skipped)."""
    return [(f, int(line), func.strip()) for f, line, func in core._parse_backtrace(text)]


__all__ = ["register_error", "ERROR_NAME_TO_TYPE", "ERROR_TYPE_TO_NAME"]
