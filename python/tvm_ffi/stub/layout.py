"""The native-layout coverage report (``--coverage-out``): whether each registered object
type's memory layout can be reproduced from reflection alone."""

import json

from .lib_state import collect_type_keys, toposort_objects

_OBJECT_HEADER_SIZE = 24


def align_up(value, alignment):
    """``value`` rounded up to a multiple of ``alignment``."""
    return (value + alignment - 1) // alignment * alignment


def _verdict(info, parent):
    out = {
        "verdict": "opaque",
        "reason": None,
        "detail": "",
        "parent": info.parent_type_key,
        "ancestors": list(info.ancestors),
        "total_size": info.total_size,
        "is_final": info.is_final,
        "own_bytes": None,
        "fields": [
            {"name": f.name, "offset": f.offset, "size": f.size, "alignment": f.alignment}
            for f in sorted(info.fields, key=lambda f: f.offset)
        ],
        "uncovered": [],
        "padding": [],
    }
    if info.type_key == "ffi.Object":
        out.update(
            verdict="complete",
            total_size=_OBJECT_HEADER_SIZE,
            own_bytes=[_OBJECT_HEADER_SIZE, _OBJECT_HEADER_SIZE],
            detail="object header [0, %d): owned by the C ABI" % _OBJECT_HEADER_SIZE,
        )
        return out
    if info.total_size is None:
        out["reason"] = "layout-unknown"
        out["detail"] = "no metadata of its own: total_size is unknown"
        return out
    if parent is not None and parent["verdict"] != "complete":
        out["reason"] = "parent-opaque"
        out["detail"] = "parent %s is opaque" % info.parent_type_key
        return out
    start = parent["total_size"] if parent is not None else _OBJECT_HEADER_SIZE
    out["own_bytes"] = [start, info.total_size]
    cursor = start
    for field in out["fields"]:
        if field["offset"] < cursor:
            out["reason"] = "field-overlap"
            out["detail"] = "field %r at %d overlaps bytes before %d" % (
                field["name"],
                field["offset"],
                cursor,
            )
            return out
        if field["offset"] > cursor:
            gap = [cursor, field["offset"]]
            aligned = align_up(cursor, max(field["alignment"], 1))
            out["padding" if field["offset"] == aligned else "uncovered"].append(gap)
        cursor = field["offset"] + field["size"]
    if cursor < info.total_size:
        gap = [cursor, info.total_size]
        out["padding" if align_up(cursor, 8) == info.total_size else "uncovered"].append(gap)
    elif cursor > info.total_size:
        out["reason"] = "field-overlap"
        out["detail"] = "fields end at %d, past total_size %d" % (cursor, info.total_size)
        return out
    if out["uncovered"]:
        out["reason"] = "uncovered-bytes"
        out["detail"] = "reflected fields leave %s uncovered" % out["uncovered"]
        return out
    out["verdict"] = "complete"
    out["detail"] = "reflected fields fill [%d, %d) exactly" % (start, info.total_size)
    if out["padding"]:
        out["detail"] += " (alignment padding %s)" % ", ".join(
            "[%d, %d)" % (a, b) for a, b in out["padding"]
        )
    return out


def coverage_report():
    """type key -> verdict record, for every registered object type."""
    keys = [k for group in collect_type_keys().values() for k in group]
    verdicts = {}
    for info in toposort_objects(keys):
        verdicts[info.type_key] = _verdict(info, verdicts.get(info.parent_type_key))
    return {k: verdicts[k] for k in sorted(verdicts)}


def write_coverage_report(path):
    """Write the report as JSON (sorted keys, indent 2, final newline)."""
    path.write_text(json.dumps(coverage_report(), indent=2) + "\n", encoding="utf-8")
