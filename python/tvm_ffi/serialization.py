"""JSON object graphs of FFI values.

A graph is JSON text ``{"root_index": i, "nodes": [...], "metadata": ...}`` in which
every distinct value is one node ``{"type": <type key>, "data": <payload>}``. Shared
references stay shared after a round trip, and graphs written by any implementation of
the ABI load in any other (type keys, not type indices, are written).

>>> from_json_graph_str(to_json_graph_str(tvm_ffi.convert([1, 2, 3])))
(1, 2, 3)
"""

from typing import Any, Optional

from . import core

__all__ = ["to_json_graph_str", "from_json_graph_str"]


def to_json_graph_str(obj: Any, metadata: Optional[dict] = None) -> str:
    """Serialize ``obj`` (PODs, strings, containers, reflected objects) as JSON graph text.

    ``metadata``, when given, is stored verbatim under the key ``"metadata"``.
    Raises TypeError for objects that cannot be rebuilt (no reflection creator, e.g.
    functions) and ValueError for a List, Dict or object that contains itself.
    """
    return core._get_global_func("ffi.ToJSONGraphString", False)(obj, metadata)


def from_json_graph_str(json_str: str) -> Any:
    """Rebuild the value of JSON graph text written by :func:`to_json_graph_str`."""
    return core._get_global_func("ffi.FromJSONGraphString", False)(json_str)
