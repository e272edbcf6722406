"""``gen_abi_cpp``: a C++17 header mirroring the native layout of reflected object types.

The header declares, for each selected type and its dynamic ancestors, a struct with the
type's fields at their reflected offsets, checked by ``static_assert``s, and looks the type
up by key (``TVM_FFI_DECLARE_OBJECT_INFO_LOOKUP``); it never registers anything.
"""

import fnmatch
import json
import re

from .. import core, registry
from .._type_schema import _INDEX_ORIGIN

_DYN_BEGIN = 128
_OBJECT_BEGIN = 64
_FFI = "::tvm::ffi::"
_OBJECT_BASE = _FFI + "Object"

# Builtin object types: a key may be selected (nothing is emitted) or be a parent/field type.
_BUILTIN_OBJ = {
    "ffi.Object": "Object",
    "ffi.String": "StringObj",
    "ffi.Bytes": "BytesObj",
    "ffi.Error": "ErrorObj",
    "ffi.Function": "FunctionObj",
    "ffi.Shape": "ShapeObj",
    "ffi.Tensor": "TensorObj",
    "ffi.Array": "ArrayObj",
    "ffi.Map": "MapObj",
    "ffi.Module": "ModuleObj",
    "ffi.List": "ListObj",
    "ffi.Dict": "DictObj",
    "ffi.VisitInterrupt": "VisitInterruptObj",
}
# Value types of builtin objects used as field carriers (the rest use Arc<...Obj>).
_BUILTIN_VALUE = {
    "ffi.String": "String",
    "ffi.Bytes": "Bytes",
    "ffi.Error": "Error",
    "ffi.Function": "Function",
    "ffi.Shape": "Shape",
    "ffi.Tensor": "Tensor",
}
# Schema origin -> (carrier, size, alignment) of scalar-like fields.
_SCALARS = {
    "int": ("int64_t", 8, 8),
    "float": ("double", 8, 8),
    "bool": ("bool", 1, 1),
    "ctypes.c_void_p": ("void*", 8, 8),
    "dtype": ("DLDataType", 4, 2),
    "Device": ("DLDevice", 8, 4),
    "Any": (_FFI + "Any", 16, 8),
    "str": (_FFI + "String", 16, 8),
    "bytes": (_FFI + "Bytes", 16, 8),
    "Callable": (_FFI + "Function", 8, 8),
    "Tensor": (_FFI + "Tensor", 8, 8),
}
_CONTAINERS = {"Array": "Array", "List": "List", "Map": "Map", "Dict": "Dict"}
# The POD kinds 1-6 (int ... Device) as the type schema names them, and -1 (an Any field).
_STATIC_INDEX_ORIGIN = {i: _INDEX_ORIGIN[i] for i in range(1, 7)}
_STATIC_INDEX_ORIGIN[-1] = "Any"
# Raw type_schema names of native fields that are views or std types, not the owning form.
_NON_CANONICAL = frozenset(
    [
        "DLTensor*",
        "const char*",
        "std::string",
        "TVMFFIByteArray*",
        "std::vector",
        "std::map",
        "std::unordered_map",
        "std::optional",
        "std::variant",
        "std::tuple",
        "std::function",
        "ffi.SmallStr",
        "ffi.SmallBytes",
        "ObjectRValueRef",
    ]
)
_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
_ESCAPE = "__ffi_escape_"


def _escape(part):
    if _IDENT.match(part) and not part.startswith(_ESCAPE):
        return part
    return _ESCAPE + part.encode("utf-8").hex()


def _names(type_key):
    """(namespaces, struct name) of a type key: ``a.b.C`` -> (("a", "b"), "CObj")."""
    parts = type_key.split(".")
    return tuple(_escape(p) for p in parts[:-1]), _escape(parts[-1]) + "Obj"


def _qualified(type_key):
    namespaces, struct = _names(type_key)
    return "::" + "::".join(namespaces + (struct,))


def _c_string(text):
    out = []
    for byte in text.encode("utf-8"):
        ch = chr(byte)
        if ch in ('"', "\\"):
            out.append("\\" + ch)
        elif 0x20 <= byte < 0x7F:
            out.append(ch)
        else:
            out.append("\\%03o" % byte)
    return '"%s"' % "".join(out)


def _depth(info):
    return len(info.type_ancestors)


def _is_py_defined(owner):
    return hasattr(owner, "_decorator_args")


class _Generator:
    """Builds the header for ``emitted_infos`` (TypeInfos, parents before children)."""

    def __init__(self, emitted_infos):
        self.emitted_infos = list(emitted_infos)
        self.emitted_keys = {i.type_key for i in self.emitted_infos}
        self.deps = {i.type_key: _depth(i) for i in self.emitted_infos}

    # ---- lowering ---------------------------------------------------------------------

    def _object_ref(self, type_key):
        """The struct of a dynamic object type, recorded as a dependency."""
        if type_key not in self.deps:
            index = core._object_type_key_to_index(type_key)
            depth = len(core._type_ancestor_indices(index)) if index is not None else 1
            self.deps[type_key] = depth
        return _qualified(type_key)

    def _object_carrier(self, schema):
        key = schema.origin if schema.origin != "Object" else "ffi.Object"
        if key == "ffi.Object":
            return _FFI + "Arc<" + _OBJECT_BASE + ">"
        if key in _BUILTIN_VALUE:
            return _FFI + _BUILTIN_VALUE[key]
        if key in _BUILTIN_OBJ:
            return _FFI + "Arc<" + _FFI + _BUILTIN_OBJ[key] + ">"
        return _FFI + "Arc<" + self._object_ref(key) + ">"

    def _obj_struct(self, schema):
        key = schema.origin if schema.origin != "Object" else "ffi.Object"
        if key in _BUILTIN_OBJ:
            return _FFI + _BUILTIN_OBJ[key]
        return self._object_ref(key)

    def _is_object(self, schema):
        return schema.origin_type_index >= _OBJECT_BEGIN and schema.origin not in (
            "str",
            "bytes",
            "Callable",
            "Tensor",
        ) + tuple(_CONTAINERS)

    def _lower(self, schema, in_container):
        """C++ type of a value of ``schema`` (a container element when in_container)."""
        origin = schema.origin
        if origin in _SCALARS:
            return _SCALARS[origin][0]
        if origin in _CONTAINERS:
            args = ", ".join(self._lower(a, True) for a in schema.args)
            return "%s%s<%s>" % (_FFI, _CONTAINERS[origin], args)
        if origin == "tuple":
            args = ", ".join(self._lower(a, True) for a in schema.args or ())
            return "%sTuple<%s>" % (_FFI, args)
        if origin == "Optional":
            inner = schema.args[0]
            if in_container and self._is_object(inner):
                return "%sObjectPtr<%s>" % (_FFI, self._obj_struct(inner))
            return _FFI + "Any"
        if origin == "Union":
            if in_container and all(self._is_object(a) for a in schema.args):
                return _FFI + "Arc<" + _OBJECT_BASE + ">"
            return _FFI + "Any"
        if origin == "None":
            return _FFI + "Any"
        return self._object_carrier(schema)

    def _lower_field(self, field, owner):
        """(carrier, escaped member name) of a field; ValueError when the carrier cannot
        be told or does not match the reflected layout."""
        key = getattr(owner, "type_key", "?")
        layout = (field.size, field.alignment)
        schema = field.ty
        py_defined = _is_py_defined(owner)
        if not py_defined:
            raw = (getattr(field, "metadata", None) or {}).get("type_schema")
            if isinstance(raw, str):
                try:
                    raw = json.loads(raw)
                except ValueError:
                    raw = None
            raw_origin = raw.get("type") if isinstance(raw, dict) else None
            if raw_origin in _NON_CANONICAL:
                raise ValueError(
                    "native schema origin %r normalizes to %r but does not have the canonical "
                    "owning representation" % (raw_origin, schema.origin if schema else "?")
                )
        if schema is None:
            origin = _STATIC_INDEX_ORIGIN.get(field.field_static_type_index)
            if origin is not None:
                carrier, size, align = _SCALARS[origin]
            elif field.field_static_type_index >= _OBJECT_BEGIN:
                carrier, size, align = _FFI + "ObjectPtr<" + _OBJECT_BASE + ">", 8, 8
            else:
                raise ValueError(
                    "Field %s.%s has no type schema and static type index %d"
                    % (key, field.name, field.field_static_type_index)
                )
        elif schema.origin == "Optional" and not py_defined:
            carrier, size, align = self._native_optional(schema, field, key, layout)
        elif (
            schema.origin == "Union"
            and not py_defined
            and layout == (8, 8)
            and all(self._is_object(a) for a in schema.args)
        ):
            # A C++ Variant of object types is one object pointer, never null.
            carrier, size, align = _FFI + "Arc<" + _OBJECT_BASE + ">", 8, 8
        else:
            carrier = self._lower(schema, False)
            size, align = _SCALARS[schema.origin][1:] if schema.origin in _SCALARS else (8, 8)
            if schema.origin in ("Optional", "Union", "None"):
                size, align = 16, 8
        if (size, align) != layout:
            raise ValueError(
                "Carrier %s for %s.%s has layout (%d, %d), but reflection reports (%d, %d) at "
                "offset %d"
                % (carrier, key, field.name, size, align, field.size, field.alignment, field.offset)
            )
        return carrier, _escape(field.name)

    def _native_optional(self, schema, field, key, layout):
        inner = schema.args[0]
        if inner.origin in ("str", "bytes") and layout == (16, 8):
            return _SCALARS[inner.origin]
        if self._is_object(inner):
            if layout == (8, 8):
                return "%sObjectPtr<%s>" % (_FFI, self._obj_struct(inner)), 8, 8
            if layout == (16, 8):
                return "%sOptional<%s>" % (_FFI, self._object_carrier(inner)), 16, 8
        raise ValueError(
            "Ambiguous native Optional carrier for %s.%s with layout (%d, %d)"
            % (key, field.name, layout[0], layout[1])
        )

    # ---- text -------------------------------------------------------------------------

    @staticmethod
    def _grouped(entries, render):
        """Lines of ``entries`` ((namespaces, ...) tuples) grouped by consecutive equal
        namespaces; each group padded by blank lines, groups separated by one."""
        lines = []
        groups = []
        for entry in entries:
            if groups and groups[-1][0] == entry[0]:
                groups[-1][1].append(entry)
            else:
                groups.append((entry[0], [entry]))
        for namespaces, items in groups:
            if lines:
                lines.append("")
            lines += ["namespace %s {" % ns for ns in namespaces]
            for item in items:
                lines.append("")
                lines += render(item)
            lines.append("")
            lines += ["}  // namespace %s" % ns for ns in reversed(namespaces)]
        if lines:
            lines.append("")
        return lines

    def _build_class(self, info):
        namespaces, struct = _names(info.type_key)
        parent = info.parent_type_info
        if parent is None or parent.type_key == "ffi.Object":
            base = _OBJECT_BASE
        elif parent.type_index >= _DYN_BEGIN:
            base = _qualified(parent.type_key)
        else:
            base = _FFI + _BUILTIN_OBJ.get(parent.type_key, "Object")
        align = 8
        cursor = info
        while cursor is not None:
            for f in cursor.fields or ():
                align = max(align, f.alignment)
            cursor = cursor.parent_type_info
        own = sorted(info.fields or (), key=lambda f: f.offset)
        lowered = [(f, *self._lower_field(f, info)) for f in own]
        body = [
            "struct alignas(%d) %s : public %s {" % (align, struct, base),
            "  TVM_FFI_DECLARE_OBJECT_INFO_LOOKUP(%s, %d);"
            % (_c_string(info.type_key), _depth(info)),
        ]
        if lowered:
            body.append("")
        for f, carrier, member in lowered:
            note = ", reflected name=%r" % f.name if member != f.name else ""
            body.append(
                "  %s %s;  // offset=%d, size=%d, align=%d%s"
                % (carrier, member, f.offset, f.size, f.alignment, note)
            )
        body += [
            "};",
            "",
            "static_assert(sizeof(%s) == %d);" % (struct, info.total_size),
            "static_assert(alignof(%s) == %d);" % (struct, align),
        ]
        for f, _, member in lowered:
            body += [
                "static_assert(sizeof(decltype(%s::%s)) == %d);" % (struct, member, f.size),
                "static_assert(alignof(decltype(%s::%s)) == %d);" % (struct, member, f.alignment),
                "static_assert(offsetof(%s, %s) == %d);" % (struct, member, f.offset),
            ]
        return namespaces, body

    def build(self):
        """The header text."""
        classes = [self._build_class(info) for info in self.emitted_infos]
        deps = sorted(
            ((_names(k)[0], _names(k)[1], k) for k in self.deps),
            key=lambda e: (e[0], e[1], e[2]),
        )
        lines = ["#pragma once", "", "#include <tvm/ffi/tvm_ffi.h>", ""]
        lines += self._grouped(deps, lambda e: ["struct %s;" % e[1]])
        for namespaces, struct, _ in deps:
            lines += [
                "template <>",
                "inline constexpr bool tvm::ffi::is_object_subclass_v<%s> = true;"
                % ("::" + "::".join(namespaces + (struct,))),
            ]
        lines.append("")
        stubs = [e for e in deps if e[2] not in self.emitted_keys]
        lines += self._grouped(
            stubs,
            lambda e: [
                "struct %s : public %s {" % (e[1], _OBJECT_BASE),
                "  TVM_FFI_DECLARE_OBJECT_INFO_LOOKUP(%s, %d);"
                % (_c_string(e[2]), self.deps[e[2]]),
                "};",
            ],
        )
        lines += [
            "static_assert(sizeof(%s) == 24);" % _OBJECT_BASE,
            "static_assert(alignof(%s) == 8);" % _OBJECT_BASE,
            "",
            "#if defined(__clang__) || defined(__GNUC__)",
            "#pragma GCC diagnostic push",
            '#pragma GCC diagnostic ignored "-Winvalid-offsetof"',
            "#elif defined(_MSC_VER)",
            "#pragma warning(push)",
            "#pragma warning(disable : 4749)",
            "#endif",
            "",
        ]
        lines += self._grouped(classes, lambda c: c[1])
        lines += [
            "#if defined(__clang__) || defined(__GNUC__)",
            "#pragma GCC diagnostic pop",
            "#elif defined(_MSC_VER)",
            "#pragma warning(pop)",
            "#endif",
            "",
        ]
        return "\n".join(lines)


def _select_type_infos(type_keys):
    selectors = [type_keys] if isinstance(type_keys, str) else list(type_keys)
    registered = sorted(set(registry.get_registered_type_keys()))
    chosen = {}
    for selector in selectors:
        if not isinstance(selector, str):
            raise TypeError("Type-key selector must be a string, got %s" % type(selector).__name__)
        matches = [k for k in registered if fnmatch.fnmatchcase(k, selector)]
        if not matches:
            raise ValueError("Type-key selector %r did not match any registered type" % selector)
        objects = []
        for key in matches:
            index = core._object_type_key_to_index(key)
            if index is not None and index >= _OBJECT_BEGIN:
                objects.append((key, index))
        if not objects:
            raise ValueError(
                "Type-key selector %r did not match any registered object type" % selector
            )
        for key, index in objects:
            if index < _DYN_BEGIN:
                if key not in _BUILTIN_OBJ:
                    raise ValueError("Static TVM-FFI type %r is not supported" % key)
                continue
            info = core._lookup_or_register_type_info_from_type_key(key)
            while info is not None and info.type_index >= _DYN_BEGIN:
                chosen[info.type_key] = info
                info = info.parent_type_info
    infos = sorted(chosen.values(), key=lambda i: (_depth(i), i.type_key))
    for info in infos:
        if not _is_py_defined(info) and not info._has_type_metadata:
            raise ValueError(
                "Native type %r does not expose fixed total-size metadata" % info.type_key
            )
    return infos


def gen_abi_cpp(type_keys):
    """The C++17 header mirroring the layout of the types matched by ``type_keys`` (a
    ``fnmatch`` pattern or a sequence of them) and their dynamic ancestors."""
    return _Generator(_select_type_infos(type_keys)).build()
