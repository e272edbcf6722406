"""Structural walking, visiting and mapping of FFI values.

Every value reachable from a root (Array/List elements, Map/Dict values, reflected
fields of objects) is handed to callbacks chosen by type:

    >>> from tvm_ffi.structural import structural_walk
    >>> seen = []
    >>> structural_walk([1, ["a", 2]], (int, seen.append), order="pre")
    >>> seen
    [1, 2]

A callback spec is a bare callable (it sees every value), a ``(type, fn)`` pair, a
``((t1, t2), fn)`` pair, or a sequence of such pairs. Types are builtins (``int``,
``float``, ``bool``, ``str``, ``bytes``, ``list``, ``dict``, ``tuple``), registered
object classes (subclasses match too), or ``object`` / ``typing.Any`` (every value).
"""

from __future__ import annotations

import enum
import inspect
import typing
from typing import Any, Callable

from . import core
from .core import Object
from .registry import register_object

__all__ = [
    "InplaceMode",
    "StructuralMutator",
    "StructuralVisitor",
    "VisitInterrupt",
    "WalkOrder",
    "WalkResult",
    "structural_map",
    "structural_mutate",
    "structural_visit",
    "structural_walk",
]


class WalkOrder(enum.IntEnum):
    """Whether a walk calls back before (pre) or after (post) visiting the children."""

    PREORDER = 0
    POSTORDER = 1


class WalkResult(enum.IntEnum):
    """What a walk callback asks for; a :class:`VisitInterrupt` stops the walk."""

    ADVANCE = 0
    SKIP = 1


class InplaceMode(enum.IntEnum):
    """Whether a mutation may reuse an input that nobody else holds."""

    DISALLOW = 0
    ALLOW = 1


def _global(name: str) -> Any:
    return core._get_global_func(name, False)


@register_object("ffi.VisitInterrupt")
class VisitInterrupt(Object):
    """Stops a structural walk or visit; ``value`` is reported to the caller."""

    def __init__(self, value: Any = None) -> None:
        self.__init_handle_by_constructor__(_global("ffi.VisitInterrupt"), value)


def _region_kind(kind: int) -> Any:
    try:
        from .structural import DefRegionKind

        return DefRegionKind(kind)
    except (ImportError, ValueError):
        return kind


@register_object("ffi.StructuralVisitor")
class StructuralVisitor(Object):
    """The visitor handed to :func:`structural_visit` callbacks."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        raise TypeError(
            "`StructuralVisitor` cannot be constructed directly. "
            "It is passed to the callbacks of structural_visit."
        )

    def visit(self, value: Any) -> VisitInterrupt | None:
        """Visit value (its callbacks, or its default descent)."""
        return _global("ffi.StructuralVisitorVisit")(self, value)

    def default_visit(self, value: Any) -> VisitInterrupt | None:
        """Descend into value's children (never call it on the value whose own hook runs)."""
        return _global("ffi.StructuralVisitorDefaultVisit")(self, value)

    def def_region_kind(self) -> Any:
        """The current definition region (a ``DefRegionKind``)."""
        return _region_kind(_global("ffi.StructuralVisitorDefRegionKind")(self))

    def with_def_region_kind(self, kind: int, callback: Callable[[], Any]) -> Any:
        """Call ``callback()`` inside a definition region of the given kind."""
        return _global("ffi.StructuralVisitorWithDefRegionKind")(self, int(kind), callback)


@register_object("ffi.StructuralMutator")
class StructuralMutator(Object):
    """The mutator handed to :func:`structural_mutate` callbacks."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        raise TypeError(
            "`StructuralMutator` cannot be constructed directly. "
            "It is passed to the callbacks of structural_mutate."
        )

    def mutate(self, value: Any) -> Any:
        """The mutated value (value itself when nothing changed)."""
        return _global("ffi.StructuralMutatorMutate")(self, value)

    def default_mutate(self, value: Any) -> Any:
        """The default mutation of value's children (value itself when nothing changed)."""
        return _global("ffi.StructuralMutatorDefaultMutate")(self, value)

    def var_remap_get(self, var: Any) -> Any:
        """The value var was remapped to, or None."""
        return _global("ffi.StructuralMutatorVarRemapGet")(self, var)

    def var_remap_set(self, var: Any, value: Any) -> None:
        """Remap var (an object) to value for the rest of the mutation."""
        _global("ffi.StructuralMutatorVarRemapSet")(self, var, value)

    def def_region_kind(self) -> Any:
        """The current definition region (a ``DefRegionKind``)."""
        return _region_kind(_global("ffi.StructuralMutatorDefRegionKind")(self))

    def with_def_region_kind(self, kind: int, callback: Callable[[], Any]) -> Any:
        """Call ``callback()`` inside a definition region of the given kind."""
        return _global("ffi.StructuralMutatorWithDefRegionKind")(self, int(kind), callback)


# Builtin annotations and the type index their values have.
_BUILTIN_TYPE_INDEX = {
    type(None): 0,
    int: 1,
    bool: 2,
    float: 3,
    str: 65,
    bytes: 66,
    tuple: 71,
    list: 75,
    dict: 76,
}
_ANY_TYPE_INDEX = -1
_OBJECT_TYPE_INDEX = 64


def _type_index_of(fn_name: str, ty: Any) -> int:
    if ty is object or ty is typing.Any:
        return _ANY_TYPE_INDEX
    if ty is None:
        return 0
    index = _BUILTIN_TYPE_INDEX.get(ty)
    if index is not None:
        return index
    if isinstance(ty, type) and issubclass(ty, Object):
        registered = ty.__dict__.get("__tvm_ffi_type_info__")
        if registered is not None:
            return int(registered.type_index)
        builtin = {core.Object: _OBJECT_TYPE_INDEX, core.Function: 68, core.Tensor: 70}.get(ty)
        if builtin is not None:
            return builtin
    schema = getattr(core, "TypeSchema", None)
    if schema is not None:
        try:
            return int(schema.from_annotation(ty).origin_type_index)
        except (TypeError, AttributeError, ValueError):
            pass
    raise TypeError(
        f"{fn_name} callback type must be a supported builtin, typing.Any/object, "
        "or an FFI-registered object class"
    )


def _is_type_spec(spec: Any) -> bool:
    if isinstance(spec, tuple):
        return len(spec) > 0 and all(_is_type_spec(t) for t in spec)
    return isinstance(spec, type) or spec is typing.Any or spec is None


def _entry(fn_name: str, spec: Any, fn: Callable) -> list[tuple[int, Callable]]:
    types = spec if isinstance(spec, tuple) else (spec,)
    return [(_type_index_of(fn_name, t), fn) for t in types]


def _parse_callbacks(fn_name: str, callbacks: Any) -> list[tuple[int, Callable]]:
    """(type index, callback) entries of a callback spec, in search order."""
    if callbacks is None:
        return []
    if callable(callbacks) and not isinstance(callbacks, (tuple, list, type)):
        return [(_ANY_TYPE_INDEX, callbacks)]
    if (
        isinstance(callbacks, tuple)
        and len(callbacks) == 2
        and callable(callbacks[1])
        and not isinstance(callbacks[1], (tuple, list))
        and _is_type_spec(callbacks[0])
    ):
        return _entry(fn_name, callbacks[0], callbacks[1])
    if isinstance(callbacks, (tuple, list)):
        entries: list[tuple[int, Callable]] = []
        for item in callbacks:
            if not (
                isinstance(item, tuple)
                and len(item) == 2
                and callable(item[1])
                and _is_type_spec(item[0])
            ):
                raise TypeError(
                    f"{fn_name} callbacks within a sequence must be (type, callback) tuples"
                )
            entries.extend(_entry(fn_name, item[0], item[1]))
        return entries
    raise TypeError(
        f"{fn_name} callbacks must be callbacks, (type, callback) entries, "
        "or a sequence of (type, callback) entries"
    )


def _with_region(fn: Callable) -> Callable:
    def call(value: Any, kind: int) -> Any:
        return fn(value, _region_kind(kind))

    return call


def _order(order: Any) -> int:
    if isinstance(order, WalkOrder):
        return int(order)
    if order == "pre":
        return int(WalkOrder.PREORDER)
    if order == "post":
        return int(WalkOrder.POSTORDER)
    raise ValueError(f"Unknown structural walk order: {order!r}")


def _links(fn_name: str, callbacks: Any, with_def_region_kind: Any) -> tuple[list, list]:
    plain = [(index, fn) for index, fn in _parse_callbacks(fn_name, callbacks)]
    with_kind = [
        (index, _with_region(fn)) for index, fn in _parse_callbacks(fn_name, with_def_region_kind)
    ]
    return plain, with_kind


def structural_walk(
    root: Any,
    callbacks: Any = (),
    with_def_region_kind: Any = (),
    order: str | WalkOrder = "post",
) -> VisitInterrupt | None:
    """Call back at every occurrence of every value reachable from root.

    Plain callbacks receive ``(value)``, ``with_def_region_kind`` ones
    ``(value, DefRegionKind)``; the first matching entry runs (plain entries are
    searched first). A callback returns None / ``WalkResult.ADVANCE``,
    ``WalkResult.SKIP`` (pre-order: do not enter this value) or a
    :class:`VisitInterrupt` (stop; it is returned). None values are skipped.
    """
    order_index = _order(order)
    plain, with_kind = _links("structural_walk", callbacks, with_def_region_kind)
    return _global("ffi.StructuralWalk")(root, plain, with_kind, order_index)


def structural_visit(root: Any, callbacks: Any = ()) -> VisitInterrupt | None:
    """Visit root with callbacks ``(value, visitor)`` that own the descent.

    A callback calls ``visitor.visit(child)`` or ``visitor.default_visit(value)``
    itself; values no callback matches get the default descent.
    """
    plain = _parse_callbacks("structural_visit", callbacks)
    return _global("ffi.StructuralVisit")(root, plain)


def structural_map(
    root: Any,
    callbacks: Any = (),
    with_def_region_kind: Any = (),
    order: str | WalkOrder = "post",
) -> Any:
    """Rebuild root with every value x replaced by ``post(children(pre(x)))``.

    A callback returns the replacement (returning its input keeps it). Parts that
    do not change are shared with the input, which is never modified; pass
    ``obj._move()`` to let parts nobody else holds be reused in place. Map keys
    are never mapped; a variable bound in a definition region and its uses are
    replaced by the same new value.
    """
    order_index = _order(order)
    plain, with_kind = _links("structural_map", callbacks, with_def_region_kind)
    return _global("ffi.StructuralMap")(root, plain, with_kind, order_index)


def _accepts_mode(fn: Callable) -> bool:
    try:
        sig = inspect.signature(fn)
    except (TypeError, ValueError):
        return False
    try:
        sig.bind(None, None, None)
        return True
    except TypeError:
        pass
    try:
        sig.bind(None, None)
        return False
    except TypeError:
        raise TypeError(
            "structural_mutate callback must accept (value, mutator) or "
            "(value, mutator, inplace_mode)"
        ) from None


def structural_mutate(root: Any, callbacks: Any = ()) -> Any:
    """Mutate root with callbacks ``(value, mutator[, inplace_mode])`` that own the recursion.

    A callback calls ``mutator.mutate(child)`` / ``mutator.default_mutate(value)``
    and returns the replacement; values no callback matches get the default mutation.
    """
    entries = [
        (index, fn, _accepts_mode(fn))
        for index, fn in _parse_callbacks("structural_mutate", callbacks)
    ]
    return _global("ffi.StructuralMutate")(root, entries)
