"""Structural equality and hashing of values.

Containers compare by content; reflected objects by their fields according to
their type's structural kind (tree, DAG, free variable, ...). Free variables
are equal only when bound in a definition region, or everywhere with
``map_free_vars=True``::

    structural_equal(convert([1, 2]), convert([1, 2]))       # True
    structural_hash(convert([1, 2]))                         # 2823322240268045181
    get_first_structural_mismatch(convert([1, 2, 3]), convert([1, 2]))
    # (<root>[2], <root>[<missing:2>])

Types without structural support (e.g. functions) raise TypeError.
"""

from enum import IntEnum

from . import core
from .core import Object
from .registry import register_object

__all__ = [
    "DefRegionKind",
    "InplaceMode",
    "StructuralKey",
    "StructuralMutator",
    "StructuralVisitor",
    "VisitInterrupt",
    "WalkOrder",
    "WalkResult",
    "get_first_structural_mismatch",
    "structural_equal",
    "structural_hash",
    "structural_map",
    "structural_mutate",
    "structural_visit",
    "structural_walk",
]

_UINT64_MASK = (1 << 64) - 1


_StructuralEqual = core._get_global_func("ffi.StructuralEqual", False)
_StructuralHash = core._get_global_func("ffi.StructuralHash", False)
_GetFirstStructuralMismatch = core._get_global_func("ffi.GetFirstStructuralMismatch", False)
_StructuralKey = core._get_global_func("ffi.StructuralKey", False)
_StructuralKeyEqual = core._get_global_func("ffi.StructuralKeyEqual", False)


class DefRegionKind(IntEnum):
    """Definition region of a walk (values shared with C ``TVMFFIDefRegionKind``).

    ``NONE``: free variables are uses. ``DEF_PATTERN``: the value and every free
    variable inside it bind on first occurrence (sticky). ``DEF_SIMPLE``: only the
    variable itself is defined; its own fields are uses.
    """

    NONE = 0
    DEF_PATTERN = 1
    DEF_SIMPLE = 2


def structural_equal(lhs, rhs, map_free_vars=False, skip_tensor_content=False):
    """Whether ``lhs`` and ``rhs`` are structurally equal.

    ``map_free_vars`` lets free variables bind to each other on first occurrence;
    ``skip_tensor_content`` compares tensors by shape and dtype only.
    """
    return _StructuralEqual(lhs, rhs, map_free_vars, skip_tensor_content)


def structural_hash(value, map_free_vars=False, skip_tensor_content=False):
    """The structural hash of ``value`` as an unsigned 64-bit int (consistent with equality)."""
    return _StructuralHash(value, map_free_vars, skip_tensor_content) & _UINT64_MASK


def get_first_structural_mismatch(lhs, rhs, map_free_vars=False, skip_tensor_content=False):
    """None when equal, else the two AccessPath (lhs, rhs) of the first difference."""
    return _GetFirstStructuralMismatch(lhs, rhs, map_free_vars, skip_tensor_content)


@register_object("ffi.StructuralKey")
class StructuralKey(Object):
    """A value wrapped to compare structurally as a dict or Map key.

    ``key`` is the value and ``hash_i64`` its structural hash. Two keys are equal
    when their values are structurally equal; Map and Dict use the same rule.
    """

    def __init__(self, key):
        """Create a structural key from ``key`` (TypeError for unsupported values)."""
        self.__init_handle_by_constructor__(_StructuralKey, key)

    def __hash__(self):
        return self.hash_i64 & _UINT64_MASK

    def __eq__(self, other):
        return isinstance(other, StructuralKey) and _StructuralKeyEqual(self, other)

    def __ne__(self, other):
        return not self.__eq__(other)


# Walking, visiting and mutation live in their own module; they are part of this
# module's public surface.
from ._structural_visit import (  # noqa: E402
    InplaceMode,
    StructuralMutator,
    StructuralVisitor,
    VisitInterrupt,
    WalkOrder,
    WalkResult,
    structural_map,
    structural_mutate,
    structural_visit,
    structural_walk,
)
