"""Access paths: where a value sits inside a structure.

An :class:`AccessPath` is a chain of :class:`AccessStep` from the root object
(attribute, array item, map item, or the "missing" forms naming a position one
side of a comparison lacks). Structural equality reports its first mismatch as
two paths::

    p = AccessPath.root().attr("body").array_item(2).map_item("k")
    repr(p)          # <root>.body[2]["k"]
    p.to_steps()     # (.body, [2], ["k"])
"""

from enum import IntEnum

from .core import Object
from .registry import register_object

__all__ = ["AccessKind", "AccessPath", "AccessStep"]


class AccessKind(IntEnum):
    """What one access step does (values shared with C++ ``reflection::AccessKind``)."""

    ATTR = 0
    ARRAY_ITEM = 1
    MAP_ITEM = 2
    ATTR_MISSING = 3
    ARRAY_ITEM_MISSING = 4
    MAP_ITEM_MISSING = 5


@register_object("ffi.reflection.AccessStep")
class AccessStep(Object):
    """One step of a path: ``kind`` (an :class:`AccessKind` value) and ``key``."""


@register_object("ffi.reflection.AccessPath")
class AccessPath(Object):
    """A path from the root: ``parent`` path, last ``step`` and ``depth`` (0 at the root).

    Paths compare by their steps (``==``); hashing stays identity-based.
    """

    def __init__(self):
        raise ValueError(
            "AccessPath can't be initialized directly. "
            "Use AccessPath.root() to create a path to the root object"
        )

    @staticmethod
    def root():
        """The path of the root object."""
        return AccessPath._root()

    def __eq__(self, other):
        if not isinstance(other, AccessPath):
            return False
        return self._path_equal(other)

    def __ne__(self, other):
        return not self.__eq__(other)

    __hash__ = Object.__hash__

    def attr(self, attr_key):
        """This path followed by attribute ``attr_key``."""
        return self._attr(attr_key)

    def attr_missing(self, attr_key):
        """This path followed by the absent attribute ``attr_key``."""
        return self._attr_missing(attr_key)

    def array_item(self, index):
        """This path followed by item ``index`` of a sequence."""
        return self._array_item(index)

    def array_item_missing(self, index):
        """This path followed by the absent item ``index`` of a sequence."""
        return self._array_item_missing(index)

    def map_item(self, key):
        """This path followed by the value of ``key`` in a map."""
        return self._map_item(key)

    def map_item_missing(self, key):
        """This path followed by the absent ``key`` of a map."""
        return self._map_item_missing(key)

    def is_prefix_of(self, other):
        """Whether this path is ``other`` or one of its ancestors."""
        return self._is_prefix_of(other)

    def to_steps(self):
        """The steps from the root to this path (an Array of :class:`AccessStep`)."""
        return self._to_steps()
