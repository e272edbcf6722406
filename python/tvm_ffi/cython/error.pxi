# Errors crossing the boundary in both directions.
#
# Native -> Python: the Error object's kind picks the exception class
# (ERROR_KIND_TO_CLS, extended by register_error; unregistered kinds give
# RuntimeError) and the exception is made from the message alone; it carries
# the Error as __tvm_ffi_error__. The backtrace (most recent call first, lines
# `  File "f", line N, in func`) becomes traceback entries appended after the
# Python frames, so traceback.format_exc() shows them most recent call last.
#
# Python -> native: an exception leaving a Python callback (or passed as a
# value) becomes an Error whose kind is the registered kind of its class or of
# its nearest registered base class, else "RuntimeError", with message str(exc)
# and the Python frames as backtrace. An exception that came from native code
# carries its Error, which is reused (with the frames it crossed appended), so
# the kind, message and identity of a native error survive a Python layer.
#
# An Error made from a Python exception keeps the exception object itself as
# its extra_context (an OpaquePyObject holding a _PyErrorOrigin): when that
# Error comes back to Python, through any number of native frames, the
# original exception is raised again (same object, so same class, args,
# attributes, __cause__ and __context__; KeyboardInterrupt stays one), with
# the native frames it crossed in front of its own traceback. The exception
# does not point back at the Error (no __tvm_ffi_error__): the Error's
# reference to it is invisible to the garbage collector, so a reference the
# other way would make an uncollectable cycle.

import linecache as _linecache
import os as _os
import threading as _threading
import types as _types

ERROR_KIND_TO_CLS = {
    "RuntimeError": RuntimeError,
    "ValueError": ValueError,
    "TypeError": TypeError,
    "AttributeError": AttributeError,
    "KeyError": KeyError,
    "IndexError": IndexError,
    "AssertionError": AssertionError,
    "MemoryError": MemoryError,
}
ERROR_CLS_TO_KIND = {cls: kind for kind, cls in ERROR_KIND_TO_CLS.items()}

# Compiled on first use: `re` and `traceback` are imported lazily to keep import fast.
_FRAME_RE = None
_FRAME_PATTERN = r'^\s*File "(?P<file>[^"]*)", line (?P<line>\d+), in (?P<func>.*)$'


def register_error(name_or_cls=None, cls=None):
    """Map the native error kind `name` to the Python exception class `cls`.

    Usable as a call, ``register_error("MyError", MyError)``, or a class
    decorator, ``@register_error("MyError")`` / ``@register_error`` (kind = class name).
    """
    if isinstance(name_or_cls, type) and cls is None:
        cls = name_or_cls
        name_or_cls = cls.__name__

    def register(klass):
        if not (isinstance(klass, type) and issubclass(klass, BaseException)):
            raise TypeError("register_error expects an exception class, got %r" % (klass,))
        kind = name_or_cls if name_or_cls is not None else klass.__name__
        if not isinstance(kind, str):
            raise TypeError("error kind must be a str, got %r" % (kind,))
        ERROR_KIND_TO_CLS[kind] = klass
        ERROR_CLS_TO_KIND[klass] = kind
        return klass

    if cls is not None:
        return register(cls)
    return register


class _PyErrorOrigin:
    """The extra_context of an Error made from a Python exception: the exception, the
    traceback it had then, and the length of the backtrace text written from it (what
    native code appends to the backtrace comes after)."""

    __slots__ = ("exc", "tb", "backtrace_len", "resume_tb", "resume_text", "__weakref__")

    def __init__(self, exc, tb, backtrace_len):
        self.exc = exc
        self.tb = tb
        self.backtrace_len = backtrace_len
        # Once the Error came back to Python: the traceback exc was raised with then, and the
        # backtrace text it stood for. The exception keeps this origin (_tvm_ffi_origin), so
        # that crossing into native code again formats only the frames added since: nested
        # callbacks cost the same per crossing at any depth.
        self.resume_tb = None
        self.resume_text = None

    def __repr__(self):
        return "<Python exception %s>" % type(self.exc).__name__


def _error_kind_of(cls):
    """The registered kind of cls or of its nearest registered base, else "RuntimeError"."""
    kind = ERROR_CLS_TO_KIND.get(cls)
    if kind is not None:
        return kind
    for base in cls.__mro__[1:]:
        kind = ERROR_CLS_TO_KIND.get(base)
        if kind is not None:
            return kind
    return "RuntimeError"


class _NativeFrameMarker(Exception):
    """Raised inside a synthesized code object to obtain a frame for a native location."""


_NATIVE_FRAME_CACHE = {}
_NATIVE_FRAME_CACHE_LIMIT = 4096


def _native_frame_code(filename, lineno):
    """Code raising _E whose raise covers exactly the source line filename:lineno.

    Traceback printers underline the part of a line an instruction covers
    (and parse it for operators to point at) unless it covers the whole
    stripped line; a raise that starts at the line's indent and continues on
    the next line covers it, so native source lines print plainly.
    Returns (code, co_firstlineno).
    """
    try:
        line = _linecache.getline(filename, lineno)
    except (SyntaxError, UnicodeDecodeError, ValueError, OSError):
        # Not a text file (a frame named after a shared library): Python 3.9's
        # linecache raises here, and so would every traceback printer that
        # reads the frame's file; a "<...>" name is one linecache never opens.
        filename = "<%s>" % filename
        line = ""
    if lineno >= 2 and line.strip():
        indent = len(line) - len(line.lstrip())
        # An unindented line cannot follow "if 1:"; a blank first line puts
        # the raise on the second line just the same.
        head = "if 1:\n" + " " * indent if indent > 0 else "\n"
        return compile(head + "raise (\n_E)", filename, "exec"), lineno - 1
    return compile("raise (\n_E)", filename, "exec"), max(lineno, 1)


def _native_frame_code_named(filename, lineno, func):
    """The code of _native_frame_code, named `func` (what tracebacks print as the function)."""
    code, first_line = _native_frame_code(filename, lineno)
    try:
        return code.replace(co_firstlineno=first_line, co_name=func, co_qualname=func)
    except TypeError:
        return code.replace(co_firstlineno=first_line, co_name=func)


def _frame_of_native_code(code):
    """The finished frame of running `code` (made by _native_frame_code_named)."""
    try:
        exec(code, {"_E": _NativeFrameMarker, "__name__": "<native>"})
    except _NativeFrameMarker as err:
        tb = err.__traceback__
        while tb.tb_next is not None:
            tb = tb.tb_next
        return tb.tb_frame


def _make_native_frames(keys):
    """Frames of the (filename, lineno, func) keys, made on a thread of their own.

    A finished frame keeps its caller's frame (f_back), and the cached frames live on: made
    on the caller's thread, they would keep the frames raising the error (their locals, the
    exception itself) alive for good. A fresh thread's stack holds nothing of the caller's.
    """
    made = []

    def make():
        for filename, lineno, func in keys:
            made.append(_frame_of_native_code(_native_frame_code_named(filename, lineno, func)))

    worker = _threading.Thread(target=make, name="tvm_ffi native frames")
    try:
        worker.start()
    except RuntimeError:
        # No new threads (interpreter shutdown): the caller makes them itself, kept only
        # by its traceback (not cached), so that they die with it.
        return None
    worker.join()
    if len(made) != len(keys):
        raise RuntimeError("tvm_ffi: could not make the native frames of a traceback")
    return made


def _native_frames(keys):
    """Finished Python frames whose code claims to be each (filename, lineno, func) key."""
    missing = [key for key in dict.fromkeys(keys) if key not in _NATIVE_FRAME_CACHE]
    if missing:
        made = _make_native_frames(missing)
        if made is None:
            return [_frame_of_native_code(_native_frame_code_named(*key)) for key in keys]
        if len(_NATIVE_FRAME_CACHE) + len(missing) > _NATIVE_FRAME_CACHE_LIMIT:
            _NATIVE_FRAME_CACHE.clear()
        _NATIVE_FRAME_CACHE.update(zip(missing, made))
    return [_NATIVE_FRAME_CACHE[key] for key in keys]


def _parse_backtrace(text):
    """Frames (file, line, func) of a backtrace text, in the text's order."""
    global _FRAME_RE
    if _FRAME_RE is None:
        import re
        _FRAME_RE = re.compile(_FRAME_PATTERN)
    frames = []
    for line in text.splitlines():
        m = _FRAME_RE.match(line)
        if m is not None:
            frames.append((m.group("file"), int(m.group("line")), m.group("func")))
    return frames


def _drop_caller_frames(frames_recent_first):
    """Keep the native frames above the binding's own call into native code.

    The runtime's backtrace runs down to main(); everything from the first
    frame of this extension (the Cython code, or the C entry points of
    tvm_ffi_vectorcall.h, all named TVMFFIPy*) on is the Python side,
    which the traceback already shows as Python frames.
    """
    own = _os.path.basename(__file__)
    for i, (filename, _lineno, func) in enumerate(frames_recent_first):
        if (func.startswith("__pyx_") or func.startswith("TVMFFIPy")
                or _os.path.basename(filename) == own):
            return frames_recent_first[:i]
    return frames_recent_first


def _traceback_with_native_frames(frames_recent_first, tail):
    """Chain frames (given most recent first) in front of the traceback `tail`."""
    tb = tail
    keys = [tuple(entry) for entry in frames_recent_first]
    for (_filename, lineno, _func), frame in zip(keys, _native_frames(keys)):
        tb = _types.TracebackType(tb, frame, frame.f_lasti, lineno)
    return tb


def _frame_lines(tb, stop=None, include_native=True):
    """The 'File ...' lines of the frames of traceback tb before stop (oldest first), and
    where the walk ended: stop, or None when tb ran out first.

    Frames standing for native code (_native_frames) are left out unless include_native.
    """
    lines = []
    while tb is not None and tb is not stop:
        frame = tb.tb_frame
        if include_native or frame.f_globals.get("__name__") != "<native>":
            lines.append('  File "%s", line %d, in %s\n'
                         % (frame.f_code.co_filename, tb.tb_lineno or 0, frame.f_code.co_name))
        tb = tb.tb_next
    return lines, tb


def _format_py_frames(tb, include_native=False):
    """Backtrace text (most recent call first) of a Python traceback, and its frame count.

    Native frames are left out unless include_native: they came from an Error's backtrace,
    which has them already.
    """
    lines, _ = _frame_lines(tb, None, include_native)
    lines.reverse()
    return "".join(lines), len(lines)


def _backtrace_since_last_crossing(exc, tb):
    """The backtrace text of exc when it came back from native code (see _PyErrorOrigin)
    followed by the Python frames it crossed since; None when exc never came back, or its
    traceback no longer holds the one it came back with."""
    origin = getattr(exc, "_tvm_ffi_origin", None)
    if type(origin) is not _PyErrorOrigin or origin.exc is not exc or origin.resume_tb is None:
        return None
    lines, end = _frame_lines(tb, origin.resume_tb)
    if end is None:
        return None
    lines.reverse()
    return origin.resume_text + "".join(lines)


cdef object error_to_py_exception(TVMFFIObjectHandle err):
    """The Python exception of an Error object; steals the reference to err."""
    cdef TVMFFIErrorCell* cell = <TVMFFIErrorCell*>TVMFFIPyObjectCell(err)
    cdef object exc = None
    try:
        origin = error_py_origin(cell)
        if origin is not None:
            # Made from a Python exception: raise that one again, with the native frames
            # appended to its backtrace since in front of the traceback it had then.
            full = bytearray_to_str(&cell.backtrace)
            exc = origin.exc
            exc.__traceback__ = _traceback_with_native_frames(
                _drop_caller_frames(_parse_backtrace(full[origin.backtrace_len:])), origin.tb)
            origin.resume_tb = exc.__traceback__
            origin.resume_text = full
            try:
                exc._tvm_ffi_origin = origin
            except (AttributeError, TypeError):
                pass
            return exc
        kind = bytearray_to_str(&cell.kind)
        message = bytearray_to_str(&cell.message)
        frames = _parse_backtrace(bytearray_to_str(&cell.backtrace))
        cls = ERROR_KIND_TO_CLS.get(kind)
        if cls is not None:
            try:
                exc = cls(message)
            except Exception:
                # A registered class whose constructor wants more than a message.
                exc = None
        if exc is None:
            exc = RuntimeError(message)
        try:
            TVMFFIObjectIncRef(err)
            exc.__tvm_ffi_error__ = wrap_object(err)
        except (AttributeError, TypeError):
            pass
        exc.__traceback__ = _traceback_with_native_frames(_drop_caller_frames(frames), None)
        return exc
    finally:
        TVMFFIObjectDecRef(err)


cdef object error_py_origin(TVMFFIErrorCell* cell):
    """The _PyErrorOrigin an Error carries as extra_context, else None."""
    cdef TVMFFIObjectHandle extra = cell.extra_context
    if extra == NULL or (<TVMFFIObject*>extra).type_index != kTVMFFIOpaquePyObject:
        return None
    value = <object>(<TVMFFIOpaqueObjectCell*>TVMFFIPyObjectCell(extra)).handle
    return value if type(value) is _PyErrorOrigin else None


cdef int raise_last_ffi_error() except -1:
    """Raise the error a failed native call left in thread-local storage."""
    cdef TVMFFIObjectHandle err = NULL
    TVMFFIErrorMoveFromRaised(&err)
    return raise_ffi_error(err)


cdef int raise_ffi_error(TVMFFIObjectHandle err) except -1:
    """Raise the error object err (taken over; NULL: none was raised)."""
    cdef TVMFFIErrorCell* cell
    if err == NULL:
        raise RuntimeError("native call failed without raising an error")
    cell = <TVMFFIErrorCell*>TVMFFIPyObjectCell(err)
    if (cell.kind.size == 18 and
            bytearray_to_str(&cell.kind) == "EnvErrorAlreadySet"):
        # The environment (a signal handler run by PyErr_CheckSignals) already
        # set the Python error; raise that one.
        TVMFFIObjectDecRef(err)
        if PyErr_Occurred() != NULL:
            return -1
        raise RuntimeError("native code reported an already-set Python error, but none is set")
    exc = error_to_py_exception(err)
    raise exc


cdef TVMFFIObjectHandle py_exception_to_error(object exc) except NULL:
    """A new reference to the Error object of exc: kind, message, Python backtrace."""
    cdef TVMFFIObjectHandle out = NULL
    cdef TVMFFIByteArray c_kind, c_msg, c_bt
    cdef TVMFFIObjectHandle reused
    cdef TVMFFIObjectHandle extra = NULL
    carried = getattr(exc, "__tvm_ffi_error__", None)
    if (isinstance(carried, CObject) and (<CObject>carried).chandle != NULL
            and (<TVMFFIObject*>(<CObject>carried).chandle).type_index == kTVMFFIError):
        # An error that came from native code goes back as the same Error object, with
        # the Python frames it crossed appended to its backtrace.
        reused = (<CObject>carried).chandle
        backtrace, _ = _format_py_frames(exc.__traceback__)
        if backtrace:
            c_bt = str_to_bytearray(backtrace)
            (<TVMFFIErrorCell*>TVMFFIPyObjectCell(reused)).update_backtrace(reused, &c_bt, 1)
        TVMFFIObjectIncRef(reused)
        return reused
    # The class or its nearest registered base decides; else "RuntimeError".
    kind = _error_kind_of(type(exc))
    tb = exc.__traceback__
    backtrace = _backtrace_since_last_crossing(exc, tb)
    if backtrace is None:
        # Native frames of an earlier crossing are kept: this Error starts a new backtrace.
        backtrace, _ = _format_py_frames(tb, True)
    try:
        message = str(exc)
    except Exception:
        message = "<%s: str() failed>" % type(exc).__name__
    c_kind = str_to_bytearray(kind)
    c_msg = str_to_bytearray(message)
    c_bt = str_to_bytearray(backtrace)
    # The Error keeps the exception (see the top of this file).
    origin = _PyErrorOrigin(exc, tb, len(backtrace))
    Py_INCREF(origin)
    if TVMFFIObjectCreateOpaque(<void*>origin, kTVMFFIOpaquePyObject, TVMFFIPyDecRefDeleter,
                                &extra) != 0:
        Py_XDECREF(<PyObject*>origin)
        raise_last_ffi_error()
    try:
        check_call(TVMFFIErrorCreateWithCauseAndExtraContext(&c_kind, &c_msg, &c_bt, NULL,
                                                             extra, &out))
    finally:
        TVMFFIObjectDecRef(extra)
    return out


cdef void set_raised_from_py_exception(object exc) noexcept:
    """Store exc as the raised error of this thread (for a safe_call returning -1)."""
    cdef TVMFFIObjectHandle err
    try:
        err = py_exception_to_error(exc)
        TVMFFIErrorSetRaised(err)
        TVMFFIObjectDecRef(err)
    except BaseException:
        TVMFFIErrorSetRaisedFromCStr(
            "RuntimeError", "a Python exception could not be converted to an FFI error")
