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


def _traceback_to_backtrace_str(tb):
    """Backtrace text of a Python traceback, innermost frame first (the FFI's order)."""
    return core._format_py_frames(tb)[0]


def _with_append_backtrace(exc, backtrace):
    """exc with the frames of backtrace (innermost first) appended, innermost last, to its
    traceback as synthetic frames; returns exc."""
    import types

    entries = []
    tb = exc.__traceback__
    while tb is not None:
        entries.append((tb.tb_frame, tb.tb_lasti, tb.tb_lineno))
        tb = tb.tb_next
    new_tb = None
    for filename, lineno, func in _parse_backtrace(backtrace):
        frame = core._native_frame(filename, lineno, func)
        new_tb = types.TracebackType(new_tb, frame, frame.f_lasti, lineno)
    for frame, lasti, lineno in reversed(entries):
        new_tb = types.TracebackType(new_tb, frame, lasti, lineno)
    return exc.with_traceback(new_tb)


def _parse_backtrace(text):
    """``[(file, line, func), ...]`` of the frame lines in text (other lines are skipped)."""
    return [(f, int(line), func.strip()) for f, line, func in core._parse_backtrace(text)]


__all__ = ["register_error", "ERROR_NAME_TO_TYPE", "ERROR_TYPE_TO_NAME"]
