"""Errors crossing the FFI boundary: the kind <-> exception class registry and backtraces.

``register_error`` maps an error kind (the string C++ raises with) to a Python exception
class; ``_parse_backtrace`` reads the ``File "<f>", line <n>, in <func>`` lines of a native
backtrace, and ``TracebackManager`` turns such lines into traceback entries.
"""

import types

from . import core
from .core import register_error

ERROR_NAME_TO_TYPE = core.ERROR_KIND_TO_CLS
ERROR_TYPE_TO_NAME = core.ERROR_CLS_TO_KIND
# The reference names of the two registry dicts, on core as well.
core.ERROR_NAME_TO_TYPE = ERROR_NAME_TO_TYPE
core.ERROR_TYPE_TO_NAME = ERROR_TYPE_TO_NAME


class TracebackManager:
    """Builds traceback entries for native frames (a file, line and function name that Python
    never ran), so printed tracebacks show them like Python frames.

    Code objects are cached per ``(filename, lineno, func)``: a native frame that errors
    often (a hot check in a loop) costs one compile.
    """

    def __init__(self):
        self._code_cache = {}

    def _get_cached_code_object(self, filename, lineno, func):
        """The code object that claims to be ``func`` at ``filename:lineno``."""
        key = (filename, lineno, func)
        code = self._code_cache.get(key)
        if code is None:
            code = core._native_frame_code_named(filename, lineno, func)
            self._code_cache[key] = code
        return code

    def _create_frame(self, filename, lineno, func):
        """A finished frame running the cached code of ``func`` at ``filename:lineno``."""
        return core._frame_of_native_code(self._get_cached_code_object(filename, lineno, func))

    def append_traceback(self, tb, filename, lineno, func):
        """A new traceback entry for the native frame, placed in front of (calling) tb."""
        if not isinstance(lineno, int) or lineno < 0:
            raise ValueError("lineno must be a non-negative int, got %r" % (lineno,))
        if tb is not None and not isinstance(tb, types.TracebackType):
            raise TypeError("tb must be a traceback or None, got %s" % type(tb).__name__)
        frame = self._create_frame(filename, lineno, func)
        return types.TracebackType(tb, frame, frame.f_lasti, lineno)


_TRACEBACK_MANAGER = TracebackManager()


def _traceback_to_backtrace_str(tb):
    """Backtrace text of a Python traceback, innermost frame first (the FFI's order)."""
    return core._format_py_frames(tb)[0]


def _with_append_backtrace(py_error, backtrace):
    """py_error with the frames of backtrace (innermost first) added as the callers of its
    current traceback: the native code that was running when py_error arose. Returns py_error.
    """
    tb = py_error.__traceback__
    for filename, lineno, func in _parse_backtrace(backtrace):
        tb = _TRACEBACK_MANAGER.append_traceback(tb, filename, lineno, func)
    return py_error.with_traceback(tb)


def _parse_backtrace(text):
    """``[(file, line, func), ...]`` of the frame lines in text (other lines are skipped)."""
    return [(f, int(line), func.strip()) for f, line, func in core._parse_backtrace(text)]


__all__ = ["register_error", "ERROR_NAME_TO_TYPE", "ERROR_TYPE_TO_NAME"]
