"""What the loaded libraries register: global functions and object types, by prefix."""

import functools
import heapq
import sys

from .. import core, registry
from .._type_schema import TypeSchema
from . import consts as C
from .utils import FuncInfo, ObjectInfo, _parse_type_schema


def _prefix_of(name):
    return name.rpartition(".")[0]


@functools.cache
def _func_info_from_global_name(name):
    """The FuncInfo of a global function; None when it carries no type schema."""
    raw = registry.get_global_func_metadata(name).get("type_schema")
    if raw is None:
        return None
    try:
        schema = _parse_type_schema(raw)
    except (TypeError, ValueError) as err:
        print(
            "[Warning] Function `%s` has an invalid type schema (%s); declared as taking any "
            "arguments" % (name, err),
            file=sys.stderr,
        )
        schema = TypeSchema("Callable")
    return FuncInfo.from_schema(name, schema)


def collect_global_funcs():
    """Every global function with a type schema, grouped by prefix (name up to the last
    ``.``), sorted by name; the others are reported as skipped."""
    out = {}
    for name in sorted(registry.list_global_func_names()):
        info = _func_info_from_global_name(name)
        if info is None:
            print("[Skipped] Function has no type schema: %s" % name)
            continue
        out.setdefault(_prefix_of(name), []).append(info)
    return out


def collect_type_keys():
    """Every registered object type key, grouped by prefix, sorted."""
    out = {}
    for key in sorted(set(registry.get_registered_type_keys())):
        index = core._object_type_key_to_index(key)
        if index is None or index < 64:  # below 64: the POD types (int, Device, ...)
            continue
        out.setdefault(_prefix_of(key), []).append(key)
    return out


@functools.cache
def object_info_from_type_key(type_key):
    """The ObjectInfo of a registered type key; ValueError for an unknown key."""
    return ObjectInfo.from_type_info(core._lookup_or_register_type_info_from_type_key(type_key))


def stale_object_error(block):
    """The error of an ``object/<key>`` block whose type is no longer registered; None when
    it is registered."""
    if core._object_type_key_to_index(block.param) is not None:
        return None
    return ValueError(
        "`object/%s` (line %d): the type is no longer registered; delete the block"
        % (block.param, block.lineno_start)
    )


def toposort_objects(type_keys):
    """ObjectInfos of ``type_keys``, parents before children, ties broken by key."""
    keys = set(type_keys)
    infos = {k: object_info_from_type_key(k) for k in keys}
    children = {k: [] for k in keys}
    pending = {}
    for key, info in infos.items():
        deps = [a for a in info.ancestors if a in keys]
        pending[key] = len(deps)
        for dep in deps:
            children[dep].append(key)
    heap = [k for k, n in pending.items() if n == 0]
    heapq.heapify(heap)
    out = []
    while heap:
        key = heapq.heappop(heap)
        out.append(infos[key])
        for child in children[key]:
            pending[child] -= 1
            if pending[child] == 0:
                heapq.heappush(heap, child)
    return out


def is_builtin(type_key):
    """Whether the runtime defines the type itself (no block is ever made for it)."""
    return type_key in C.BUILTIN_TYPE_KEYS
