"""``@py_class``: new FFI object types defined by a Python class body.

The decorator allocates a runtime type index under the nearest registered parent, lays out
every own annotated field in native object memory (``ffi.MakeFieldGetter`` /
``ffi.MakeFieldSetter`` storage), registers the fields, ``__ffi_new__``/``__ffi_init__``/
``__ffi_shallow_copy__`` and the structural kind in the runtime type table, and installs the
dataclass members. C++ code sees the type like any reflected type: it can construct the
objects through ``__ffi_init__`` and read, compare, hash, copy and print them.

Values are converted by the field's ``TypeSchema`` on Python construction and assignment.
"""

import functools
import inspect
import json
import sys
import typing

from .. import _type_info, core, registry
from .._dunder import _decorator_options, _install_dataclass_dunders
from .._type_schema import _BUILDERS, TypeSchema, _enum_kind
from .field import KW_ONLY, Field, _identity_converter, field, init_property

_STRUCTURE_KIND_MAP = {"tree": 1, "var": 2, "dag": 3, "const-tree": 4, "singleton": 5}

_FLAG_WRITABLE = 1
_FLAG_HAS_DEFAULT = 2
_FLAG_SEQ_HASH_IGNORE = 8
_FLAG_SEQ_HASH_DEF_PATTERN = 16
_FLAG_DEFAULT_IS_FACTORY = 32
_FLAG_REPR_OFF = 64
_FLAG_COMPARE_OFF = 128
_FLAG_HASH_OFF = 256
_FLAG_INIT_OFF = 512
_FLAG_KW_ONLY = 1024
_FLAG_SEQ_HASH_DEF_SIMPLE = 4096

# storage kind -> (size, alignment); see the layout table of the field storage globals.
_KIND_LAYOUT = {
    1: (8, 8),
    3: (8, 8),
    2: (1, 1),
    4: (8, 8),
    5: (4, 2),
    6: (8, 4),
    -1: (16, 8),
    64: (8, 8),
}
_ORIGIN_KIND = {"int": 1, "float": 3, "bool": 2, "ctypes.c_void_p": 4, "dtype": 5, "Device": 6}
_ANY_ORIGINS = frozenset({"Any", "str", "bytes", "Optional", "Union", "None"})

# type key -> class, for the keys registered by py_class in this process.
_PY_CLASS_KEYS = {}
# Keys whose registration was rolled back before any field reached the runtime: their
# (never reclaimed) type index may be taken again by the same key.
_REUSABLE_KEYS = set()

_GLOBALS = {}

# type key -> the field converters its setters call (never released: the runtime keeps the
# setters for the life of the process).
_CONVERTERS = {}


def _rt(name):
    func = _GLOBALS.get(name)
    if func is None:
        func = registry.get_global_func(name)
        _GLOBALS[name] = func
    return func


def _storage_kind(schema):
    if schema.origin in _ORIGIN_KIND and schema.type_key is None:
        return _ORIGIN_KIND[schema.origin]
    if schema.origin in _ANY_ORIGINS or schema.type_key is not None:
        return -1
    return 64


def _find_parent(cls):
    for base in cls.__mro__[1:]:
        info = _type_info._type_cls_to_type_info(base)
        if info is not None:
            return base, info
    raise TypeError(
        "%s must inherit from a registered FFI Object type (e.g. tvm_ffi.Object)" % cls.__name__
    )


# Names in a class body that go to the runtime's type-attribute table.
_FFI_TYPE_ATTR_NAMES = frozenset(
    {
        "__ffi_repr__",
        "__ffi_hash__",
        "__ffi_eq__",
        "__ffi_compare__",
        "__ffi_convert__",
        "__ffi_convert_type_schema__",
        "__any_hash__",
        "__any_equal__",
        "__s_equal__",
        "__s_hash__",
        "__s_visit__",
        "__s_mutate__",
        "__s_maybe_inplace_mutate__",
        "__data_to_json__",
        "__data_from_json__",
    }
)


def _type_attr_names(cls):
    names = set(_FFI_TYPE_ATTR_NAMES)
    for klass in reversed(cls.__mro__):
        extra = klass.__dict__.get("__ffi_type_attr_names__")
        if extra is None:
            continue
        if not isinstance(extra, (tuple, list)) or not all(isinstance(n, str) for n in extra):
            raise TypeError("TypeAttr registration lists must be tuples or lists of strings")
        names.update(extra)
    return names


def method(fn):
    """Mark a function of a ``@py_class`` body as an FFI TypeMethod (a ``staticmethod``
    becomes a static one); the function is returned unchanged."""
    if isinstance(fn, classmethod):
        raise TypeError(
            "@tvm_ffi.method: @classmethod is not supported for FFI TypeMethod registration — "
            "the classmethod's ``cls`` first arg does not match the packed-call convention. "
            "Use @staticmethod or a plain instance method instead."
        )
    func = fn.__func__ if isinstance(fn, staticmethod) else fn
    if not callable(func):
        raise TypeError("@tvm_ffi.method: expected a callable, got %s." % type(fn).__name__)
    func.__ffi_method__ = True
    return fn


def _is_marked_method(value):
    func = value.__func__ if isinstance(value, (staticmethod, classmethod)) else value
    return callable(func) and getattr(func, "__ffi_method__", False) is True


def _method_metadata(cls, func, is_static, globalns):
    """The JSON metadata of a TypeMethod: its Callable schema from the annotations (the class
    itself first for instance methods), or a bare Callable when they cannot be read."""
    bare = json.dumps({"type_schema": {"type": "Callable"}})
    try:
        sig = inspect.signature(func)
        hints = typing.get_type_hints(func, globalns, _resolution_locals(cls))
    except Exception:
        return bare
    params = list(sig.parameters.values())
    if any(p.kind not in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) for p in params):
        return bare
    try:
        schemas = []
        if not is_static:
            schemas.append({"type": cls.__tvm_ffi_type_info__.type_key})
            params = params[1:]
        for p in params:
            schemas.append(TypeSchema.from_annotation(hints.get(p.name, typing.Any)).to_json())
        ret = TypeSchema.from_annotation(hints.get("return", typing.Any)).to_json()
    except Exception:
        return bare
    return json.dumps(
        {"type_schema": {"type": "Callable", "named_args": {"return": [ret], "params": schemas}}}
    )


def _collect_py_methods(cls, globalns=None):
    """The type-attribute entries and ``@method`` functions of the class body as
    ``(name, func, is_static)`` triples (with the metadata JSON as a fourth item when globalns
    is given), or None when there are none. ``staticmethod`` entries are unwrapped;
    ``classmethod`` entries are rejected."""
    names = _type_attr_names(cls)
    found = []
    for name, value in cls.__dict__.items():
        if name in ("__ffi_init__", "__ffi_shallow_copy__"):
            continue
        if name not in names and not _is_marked_method(value):
            continue
        if isinstance(value, classmethod):
            raise TypeError(
                "@py_class('%s'): '%s' is wrapped by @classmethod, which is incompatible with "
                "FFI registration — use @staticmethod or a plain function" % (cls.__name__, name)
            )
        is_static = isinstance(value, staticmethod)
        func = value.__func__ if is_static else value
        if globalns is None:
            found.append((name, func, is_static))
        else:
            found.append((name, func, is_static, _method_metadata(cls, func, is_static, globalns)))
    return found or None


# Type attributes a py_class child takes from its py_class parent unless its body sets them
# (a class may choose its own list in ``__ffi_inherit_type_attrs__``). Conversions are not
# inherited: the parent's would make parent objects.
_INHERITED_TYPE_ATTR_NAMES = tuple(
    sorted(_FFI_TYPE_ATTR_NAMES - {"__ffi_convert__", "__ffi_convert_type_schema__"})
)


def _inherit_type_attrs(cls, type_index, parent_info):
    """Register on type_index the parent's entries of the inherited type attributes that the
    class body does not set (None in the body opts out, for the class and its children)."""
    parent_cls = parent_info.type_cls if parent_info is not None else None
    if parent_cls is None or not getattr(parent_cls, "__ffi_is_py_class__", False):
        return
    names = getattr(cls, "__ffi_inherit_type_attrs__", _INHERITED_TYPE_ATTR_NAMES)
    if not isinstance(names, (tuple, list)) or not all(isinstance(n, str) for n in names):
        raise TypeError("__ffi_inherit_type_attrs__ must be a tuple or list of strings")
    for name in names:
        if name in cls.__dict__:
            continue
        value = core._lookup_type_attr(parent_info.type_index, name)
        if value is not None:
            core._register_type_attr(type_index, name, value)


def _register_py_methods(cls, type_index, py_methods, globalns):
    """Type-attribute names go to the type-attribute table, the other entries become
    TypeMethods of the type."""
    names = _type_attr_names(cls)
    for name, func, is_static in py_methods or ():
        if name in names:
            core._register_type_attr(type_index, name, func)
            continue
        metadata = _method_metadata(cls, func, is_static, globalns)
        _rt("ffi._PyClassRegisterMethod")(
            type_index,
            name,
            getattr(func, "__doc__", None) or "",
            metadata,
            is_static,
            func,
        )


# Raw schema types of 16-byte Any-shaped C++ fields (the storage the runtime releases as an Any).
_ANY_SHAPED_SCHEMAS = frozenset(
    {"Any", "ffi.Any", "ffi.String", "ffi.Bytes", "ffi.SmallStr", "ffi.SmallBytes"}
    | {"Optional", "Variant"}
)


def _native_field_ok(tf):
    """Whether a C++ ancestor field has a layout py_class objects can hold: zero bytes are a
    valid value of it, and the runtime can release and copy it (py_class_storage.cc)."""
    index, size = tf.field_static_type_index, tf.size
    if 0 < index < 64:
        return True
    if size == 8 and (index >= 64 or index == -1):
        return True
    if size == 16 and index == -1:
        return _raw_schema_type(tf) in _ANY_SHAPED_SCHEMAS
    return False


def _raw_schema_type(tf):
    schema = tf.metadata.get("type_schema") if isinstance(tf.metadata, dict) else None
    if isinstance(schema, str):
        try:
            schema = json.loads(schema)
        except ValueError:
            return None
    return schema.get("type") if isinstance(schema, dict) else None


# Raw schema type of a C++ String/Bytes field -> type index of its empty (small) value.
_EMPTY_VALUE_INDEX = {"ffi.String": 11, "ffi.SmallStr": 11, "ffi.Bytes": 12, "ffi.SmallBytes": 12}


def _set_native_field_inits(type_index, parent_info):
    """Zero bytes are not a valid String/Bytes: the runtime stores the empty value in the C++
    ancestors' String/Bytes fields of every fresh object."""
    seen = set()
    info = parent_info
    while info is not None:
        if info.type_cls is None or not getattr(info.type_cls, "__ffi_is_py_class__", False):
            for tf in info.fields or ():
                index = _EMPTY_VALUE_INDEX.get(_raw_schema_type(tf))
                if index is not None and tf.size == 16 and tf.offset not in seen:
                    seen.add(tf.offset)
                    _rt("ffi._PyClassSetNativeFieldInit")(type_index, tf.offset, index)
        info = info.parent_type_info


def _check_native_ancestors(cls, parent_info):
    """Objects are allocated zero-filled and their C++ ancestor fields are released by layout:
    a C++ ancestor with a field of another layout cannot be a py_class parent."""
    info = parent_info
    while info is not None:
        if info.type_cls is None or not getattr(info.type_cls, "__ffi_is_py_class__", False):
            for tf in info.fields or ():
                if not _native_field_ok(tf):
                    raise TypeError(
                        "%s cannot derive from the C++ type %s: its field '%s' has a layout "
                        "(size %d, static type index %d) that py_class objects cannot hold"
                        % (
                            cls.__name__,
                            info.type_key,
                            tf.name,
                            tf.size,
                            tf.field_static_type_index,
                        )
                    )
        info = info.parent_type_info


def _module_globals(cls):
    module = sys.modules.get(cls.__module__)
    return dict(vars(module)) if module is not None else {}


def _resolution_locals(cls):
    """Names annotations of cls may use beyond its module's globals: the class itself, the
    py_classes of the same module, and (for names neither defines) a py_class of another module
    whose name no other py_class has, as a module imported only under TYPE_CHECKING (to avoid
    a circular import) would provide."""
    globalns = _module_globals(cls)
    elsewhere = {}
    for c in _PY_CLASS_KEYS.values():
        if c.__module__ != cls.__module__ and c.__name__ not in globalns:
            elsewhere.setdefault(c.__name__, []).append(c)
    localns = {name: found[0] for name, found in elsewhere.items() if len(found) == 1}
    localns.update(
        {c.__name__: c for c in _PY_CLASS_KEYS.values() if c.__module__ == cls.__module__}
    )
    localns[cls.__name__] = cls
    return localns


def _is_classvar(ann):
    return ann is typing.ClassVar or typing.get_origin(ann) is typing.ClassVar


def _is_kw_only_marker(ann):
    if ann is KW_ONLY:
        return True
    return isinstance(ann, str) and (ann == "KW_ONLY" or ann.endswith(".KW_ONLY"))


def _owner_classes(cls, parent_cls):
    """The classes whose own annotations become fields of cls, base first: cls and every
    class of its MRO that the registered parent's MRO does not contain (unregistered mixins
    and intermediate plain subclasses), if it declares annotations."""
    skip = set(parent_cls.__mro__) if parent_cls is not None else set()
    skip.add(object)
    return [
        klass
        for klass in reversed(cls.__mro__)
        if klass not in skip and (klass is cls or klass.__dict__.get("__annotations__"))
    ]


def _resolve_owner_hints(owner, owners, cls):
    raw = owner.__dict__.get("__annotations__", {})
    globalns = _module_globals(owner)
    localns = _resolution_locals(cls)
    localns.update({o.__name__: o for o in owners})
    to_resolve = {n: a for n, a in raw.items() if not _is_kw_only_marker(a)}
    holder = type(
        "_Annotations", (), {"__annotations__": to_resolve, "__module__": owner.__module__}
    )
    try:
        resolved = typing.get_type_hints(holder, globalns, localns, include_extras=True)
    except Exception as err:
        raise TypeError(
            "Cannot resolve the annotations of %s: %s" % (owner.__name__, err)
        ) from None
    return {n: (KW_ONLY if _is_kw_only_marker(a) else resolved[n]) for n, a in raw.items()}


def _field_marker_types(cls):
    markers = getattr(cls, "__ffi_field_markers__", ())
    if not isinstance(markers, (tuple, list)) or not all(isinstance(m, type) for m in markers):
        raise TypeError("__ffi_field_markers__ must be a tuple or list of types")
    return tuple(markers)


def _fields_resolved_hooks(cls):
    """Callables marked ``__ffi_on_fields_resolved__ = True`` in the MRO's class bodies, base
    first (each once)."""
    hooks = []
    for klass in reversed(cls.__mro__):
        for value in klass.__dict__.values():
            func = value.__func__ if isinstance(value, staticmethod) else value
            if (
                callable(func)
                and getattr(func, "__ffi_on_fields_resolved__", False) is True
                and all(func is not h for h in hooks)
            ):
                hooks.append(func)
    return hooks


def _own_fields(cls, decorator_kw_only, frozen, parent_cls=None, type_info=None):
    """The own Fields of cls, in annotation order over its owner classes (§4.3), with
    name/type/schema resolved; field markers go to ``type_info._decorator_args`` and the
    field-resolution hooks run before unknown field options are rejected."""
    owners = _owner_classes(cls, parent_cls)
    marker_types = _field_marker_types(cls)
    inherited = 0
    if type_info is not None and type_info.parent_type_info is not None:
        chain = type_info.parent_type_info
        while chain is not None:
            inherited += len(chain.fields or ())
            chain = chain.parent_type_info
    kw_only = decorator_kw_only
    by_name = {}
    markers = []
    own_init_properties = {}
    for owner in owners:
        hints = _resolve_owner_hints(owner, owners, cls)
        for name, ann in hints.items():
            if ann is KW_ONLY:
                kw_only = True
                if owner is cls and name in cls.__dict__:
                    delattr(cls, name)
                continue
            if _is_classvar(ann):
                continue
            if marker_types and any(ann is m for m in marker_types):
                markers.append((ann, owner, name, inherited + len(by_name)))
                continue
            value = owner.__dict__.get(name, core.MISSING)
            if isinstance(value, init_property):
                f = field(init=False, repr=False, hash=False, compare=False, structural_eq="ignore")
                own_init_properties[name] = value.func
            elif isinstance(value, Field):
                f = value if (value.name is None and owner is cls) else Field.__copy__(value)
            elif value is core.MISSING:
                f = field()
            else:
                f = field(default=value)
            if value is not core.MISSING and owner is cls:
                delattr(cls, name)
            f.name = name
            f.type = ann
            f._ty_schema = TypeSchema.from_annotation(ann)
            if f.kw_only is None:
                f.kw_only = kw_only
            if frozen:
                f.frozen = True
            if f.hash is None:
                f.hash = f.compare
            by_name[name] = f
    result = list(by_name.values())
    if type_info is not None:
        args = getattr(type_info, "_decorator_args", None)
        if isinstance(args, dict):
            parent = type_info.parent_type_info
            parent_args = getattr(parent, "_decorator_args", None) if parent else None
            parent_markers = tuple(parent_args["field_markers"]) if parent_args else ()
            args["field_markers"] = parent_markers + tuple(markers)
        for hook in _fields_resolved_hooks(cls):
            hook(type_info, result)
    for f in result:
        if f.extra_kwargs:
            raise TypeError(
                "%s.%s: unrecognized field options: %s"
                % (cls.__name__, f.name, ", ".join(sorted(f.extra_kwargs)))
            )
    cls.__ffi_init_properties__ = own_init_properties
    return result


def _parent_end(parent_info):
    end = 24
    info = parent_info
    while info is not None:
        for tf in info.fields or ():
            end = max(end, tf.offset + tf.size)
        info = info.parent_type_info
    return end


def _field_flags(f):
    flags = _FLAG_WRITABLE
    if f.default_factory is not core.MISSING:
        flags |= _FLAG_HAS_DEFAULT | _FLAG_DEFAULT_IS_FACTORY
    elif f.default is not core.MISSING:
        flags |= _FLAG_HAS_DEFAULT
    if not f.init:
        flags |= _FLAG_INIT_OFF
    if not f.repr:
        flags |= _FLAG_REPR_OFF
    if not f.hash:
        flags |= _FLAG_HASH_OFF
    if not f.compare:
        flags |= _FLAG_COMPARE_OFF
    if f.kw_only:
        flags |= _FLAG_KW_ONLY
    if f.structural_eq == "ignore":
        flags |= _FLAG_SEQ_HASH_IGNORE
    elif f.structural_eq in ("def", "def-pattern"):
        flags |= _FLAG_SEQ_HASH_DEF_PATTERN
    elif f.structural_eq == "def-simple":
        flags |= _FLAG_SEQ_HASH_DEF_SIMPLE
    return flags


def _convert(schema, value):
    return core._to_py_class_value(schema.convert(value))


_FAST_ORIGINS = {"int": "int", "float": "float", "bool": "bool", "str": "str"}


def _field_converter(schema):
    """The converter of a field: a native plan for int/float/bool/str/object-typed fields (and
    Optional of these), with the schema's Python converter behind it for every other value
    (whose errors carry the bare detail, as assignment reports them)."""
    optional = schema.origin == "Optional"
    target = schema.args[0] if optional else schema
    fast = _FAST_ORIGINS.get(target.origin)
    index = target.origin_type_index
    if (
        fast is None
        and target.origin not in _BUILDERS
        and index >= 64
        and _enum_kind(index) is None
    ):
        return core._PyClassFieldConverter(schema._convert_field, "object", optional, index)
    return core._PyClassFieldConverter(schema._convert_field, fast, optional and fast is not None)


def _make_setter(kind, schema, keep_alive):
    """The setter Function of a field: the runtime converts each value with the field's
    converter (through the core's conversion callback) before storing it."""

    converter = _field_converter(schema)
    keep_alive.append(converter)
    return _rt("ffi.MakeFieldSetter")(kind, converter.address, core._py_class_field_convert_addr())


def _register_fields(type_index, parent_info, own, keep_alive):
    """Lay out and register the own fields; returns the total size. The converters the setters
    call are appended to keep_alive, which must live as long as the type."""
    offset = _parent_end(parent_info)
    parent_size = parent_info.total_size if parent_info is not None else 24
    end = max(offset, 24)
    for f in own:
        kind = _storage_kind(f._ty_schema)
        size, align = _KIND_LAYOUT[kind]
        offset = (offset + align - 1) // align * align
        if f.default_factory is not core.MISSING:
            default = f.default_factory
        elif f.default is not core.MISSING:
            try:
                default = _convert(f._ty_schema, f.default)
            except (TypeError, ValueError):
                # Stored as given: each construction that uses it converts it and fails
                # the way passing the value would, naming the field.
                default = f.default
        else:
            default = None
        _rt("ffi._PyClassRegisterField")(
            type_index,
            f.name,
            f.doc or "",
            json.dumps({"type_schema": f._ty_schema.to_json()}),
            _field_flags(f),
            size,
            align,
            offset,
            kind,
            _rt("ffi.MakeFieldGetter")(kind),
            _make_setter(kind, f._ty_schema, keep_alive),
            default,
        )
        offset += size
        end = max(end, offset)
    return max((end + 7) // 8 * 8, parent_size, 24)


def _init_fields(type_info):
    chain = []
    info = type_info
    while info is not None:
        chain.append(info)
        info = info.parent_type_info
    return [tf for info in reversed(chain) for tf in (info.fields or ())]


def _init_property_setters(cls):
    """(field property, function) of every init_property along the MRO, root first; a child's
    property replaces its parent's of the same name."""
    funcs = {}
    for klass in reversed(cls.__mro__):
        funcs.update(klass.__dict__.get("__ffi_init_properties__", {}))
    return [(getattr(cls, name), func) for name, func in funcs.items()]


def _make_py_class_init(cls, type_info, ffi_init):
    """The generated ``__init__``: maps the raw payloads of IntEnum/StrEnum fields to their
    singletons, constructs through the runtime's ``__ffi_init__``, which checks the arguments,
    applies defaults and converts every value by its field's schema; then stores the
    init_property values and calls ``__post_init__``."""
    init_properties = _init_property_setters(cls)

    def __init__(self, *args, **kwargs):
        if self.__chandle__() != 0:
            return
        if kwargs:
            call = list(args)
            call.append(core.KWARGS)
            for k, v in kwargs.items():
                if v is not core.MISSING:
                    call.append(k)
                    call.append(v)
            self.__init_handle_by_constructor__(ffi_init, *call)
        else:
            self.__init_handle_by_constructor__(ffi_init, *args)
        if init_properties:
            for prop, func in init_properties:
                prop.set(self, func(self))
        if hasattr(type(self), "__post_init__"):
            self.__post_init__()

    __init__ = registry._with_enum_payloads(__init__, type_info)
    __init__.__signature__ = registry._make_init_signature(type_info)
    return __init__


def _has_default(tf):
    f = tf.dataclass_field
    return f.default is not core.MISSING or f.default_factory is not core.MISSING


def _wrap_user_init(user_init, ffi_new):
    @functools.wraps(user_init)
    def __init__(self, *args, **kwargs):
        if self.__chandle__() == 0:
            self.__init_handle_by_constructor__(ffi_new)
        user_init(self, *args, **kwargs)

    return __init__


# Classes whose annotations name classes not defined yet: class -> (phase 2, temporary init).
_PENDING = {}


def _annotation_text(ann):
    if isinstance(ann, str):
        return ann
    return getattr(ann, "__forward_arg__", None) or getattr(ann, "__name__", None) or repr(ann)


def _unresolved_annotations(cls):
    """``"<field>: <annotation> (<error>)"`` for each own annotation that does not resolve,
    when one of them names something not defined (yet): the class then waits, and the
    diagnostic lists the other failures too. Without such a name the list is empty and the
    field builder reports the failure."""
    raw = cls.__dict__.get("__annotations__", {})
    globalns = _module_globals(cls)
    localns = _resolution_locals(cls)
    failures = []
    undefined = False
    for name, ann in raw.items():
        if _is_kw_only_marker(ann):
            continue
        holder = type("_Annotation", (), {"__annotations__": {name: ann}})
        try:
            typing.get_type_hints(holder, globalns, localns)
        except (NameError, AttributeError) as err:
            undefined = True
            failures.append("%s: %s (%s)" % (name, _annotation_text(ann), err))
        except Exception as err:
            failures.append(
                "%s: %s (%s: %s)" % (name, _annotation_text(ann), type(err).__name__, err)
            )
    return failures if undefined else []


def _is_pending(info):
    return info is not None and info.type_cls in _PENDING


def _defer(cls, finish, parent_info):
    """Keep cls registered (so that other annotations may name it) and finish it when its
    annotations resolve: after a later @py_class, or at its first construction."""

    def __init__(self, *args, **kwargs):
        _complete(cls)
        cls.__init__(self, *args, **kwargs)

    __init__.__qualname__ = "%s.__init__" % cls.__qualname__
    cls.__tvm_ffi_type_info__.fields = None
    cls.__init__ = __init__
    cls.__ffi_is_dataclass__ = True
    _PENDING[cls] = (finish, parent_info, __init__)


def _complete(cls):
    """Finish a deferred class (its pending parent first); TypeError when names are still
    unresolved."""
    entry = _PENDING.get(cls)
    if entry is None:
        return
    finish, parent_info, temporary_init = entry
    if _is_pending(parent_info):
        _complete(parent_info.type_cls)
        if cls not in _PENDING:
            return
    unresolved = _unresolved_annotations(cls)
    if unresolved:
        raise TypeError(
            "Cannot instantiate %s: unresolved forward references: %r" % (cls.__name__, unresolved)
        )
    del _PENDING[cls]
    if cls.__dict__.get("__init__") is temporary_init:
        delattr(cls, "__init__")
    try:
        finish()
    except Exception as err:
        message = "Cannot instantiate %s: %s" % (cls.__name__, err)

        def __init__(self, *args, **kwargs):
            raise TypeError(message)

        cls.__init__ = __init__
        raise
    _retry_pending()


def _retry_pending():
    """Finish every deferred class whose annotations now resolve, until none is left."""
    progress = True
    while progress:
        progress = False
        for cls, (_, parent_info, _) in list(_PENDING.items()):
            if cls not in _PENDING or _is_pending(parent_info) or _unresolved_annotations(cls):
                continue
            try:
                _complete(cls)
            except Exception:
                # Construction of cls raises the error; the other classes carry on.
                continue
            progress = True


def _register_py_class(parent_type_info, type_key, type_cls):
    """Allocate the type ``type_key`` under ``parent_type_info`` and bind ``type_cls`` to it;
    returns its TypeInfo, whose ``fields`` stay None until ``TypeInfo._register_fields``.
    A taken key raises ValueError. (The first phase of @py_class, for callers that lay out
    their own fields.)"""
    if type_key in _PY_CLASS_KEYS or (
        type_key not in _REUSABLE_KEYS and core._object_type_key_to_index(type_key) is not None
    ):
        raise ValueError("Type key '%s' is already registered" % type_key)
    type_index = _rt("ffi._PyClassAllocTypeIndex")(type_key, parent_type_info.type_index)
    _PY_CLASS_KEYS[type_key] = type_cls
    _REUSABLE_KEYS.discard(type_key)
    info = _type_info._type_index_to_type_info(type_index)
    info.parent_type_info = parent_type_info
    info.fields = None
    try:
        registry._bind_class(type_cls, info)
    except BaseException:
        # The runtime keeps the allocated index: a later class may take the key again.
        _rollback(type_cls, type_key, type_index)
        _REUSABLE_KEYS.add(type_key)
        raise
    return info


def _attach_own_fields(type_fields, own):
    """Give each TypeField the Field it was registered from (and its frozen flag)."""
    by_name = {f.name: f for f in own}
    for tf in type_fields:
        f = by_name[tf.name]
        tf.dataclass_field = f
        tf.frozen = f.frozen


def _register_type_fields(type_info, own):
    """Lay out and register the fields ``own`` (Field objects with names and schemas) of a
    type from _register_py_class, with their native init data and type attribute columns;
    ``type_info.fields`` becomes their TypeFields. Returns the type's total size."""
    keep_alive = []
    _CONVERTERS[type_info.type_key] = keep_alive
    parent = type_info.parent_type_info
    total_size = _register_fields(type_info.type_index, parent, own, keep_alive)
    _set_native_field_inits(type_info.type_index, parent)
    _rt("ffi._PyClassRegisterTypeAttrColumns")(type_info.type_index, total_size)
    fields = [
        _type_info._decode_field(raw) for raw in core._type_table_entry(type_info.type_index)[2]
    ]
    _attach_own_fields(fields, own)
    type_info.fields = fields
    type_info.__dict__.pop("_total_size", None)
    return total_size


def _rollback(cls, key, type_index):
    _PENDING.pop(cls, None)
    _PY_CLASS_KEYS.pop(key, None)
    _type_info._TYPE_INDEX_TO_INFO.pop(type_index, None)
    _type_info._TYPE_CLS_TO_INFO.pop(cls, None)
    for name in ("__tvm_ffi_type_info__", "__ffi_is_dataclass__"):
        if name in cls.__dict__:
            delattr(cls, name)


def py_class(
    cls_or_type_key=None,
    /,
    *,
    type_key=None,
    frozen=False,
    init=True,
    repr=True,
    eq=False,
    order=False,
    unsafe_hash=False,
    match_args=True,
    kw_only=False,
    structural_eq="tree",
    slots=True,
):
    """Define a new FFI object type from a class body (usable bare, with a key, with options,
    or with both)."""
    if order and not eq:
        raise ValueError("order=True requires eq=True")
    if structural_eq is not None and structural_eq not in _STRUCTURE_KIND_MAP:
        raise ValueError(
            "structural_eq must be one of ['const-tree', 'dag', 'singleton', 'tree', 'var'] or "
            "None, got %r" % (structural_eq,)
        )
    if cls_or_type_key is not None and not isinstance(cls_or_type_key, (str, type)):
        raise TypeError("py_class: expected str or type, got %s" % type(cls_or_type_key))
    if isinstance(cls_or_type_key, str):
        type_key = cls_or_type_key

    def decorator(cls):
        key = type_key if type_key is not None else "%s.%s" % (cls.__module__, cls.__qualname__)
        parent_cls, parent_info = _find_parent(cls)
        _check_native_ancestors(cls, parent_info)
        decorator_args = _decorator_options(frozen, init, repr, eq, order, unsafe_hash, match_args)
        decorator_args.update(kw_only=kw_only, structural_eq=structural_eq, field_markers=())
        py_methods = _collect_py_methods(cls)
        user_init = cls.__dict__.get("__init__")
        # Bound first so that annotations naming the class itself resolve.
        type_index = _register_py_class(parent_info, key, cls).type_index
        try:
            unresolved = _unresolved_annotations(cls)
        except BaseException:
            _rollback(cls, key, type_index)
            _REUSABLE_KEYS.add(key)
            raise

        def finish():
            """Phase 2: lay out and register the fields, methods and members."""
            fields_started = False
            try:
                # A parent finished after this class was deferred has a new TypeInfo.
                parent = _type_info._type_index_to_type_info(parent_info.type_index)
                pending_info = cls.__tvm_ffi_type_info__
                pending_info.parent_type_info = parent
                pending_info._decorator_args = decorator_args
                own = _own_fields(cls, kw_only, frozen, parent_cls, pending_info)
                fields_started = True
                total_size = _register_type_fields(pending_info, own)
                _register_py_methods(cls, type_index, py_methods, _module_globals(cls))
                _inherit_type_attrs(cls, type_index, parent)
                if structural_eq is not None:
                    _rt("ffi._PyClassRegisterMetadata")(
                        type_index, total_size, _STRUCTURE_KIND_MAP[structural_eq]
                    )
                _type_info._TYPE_INDEX_TO_INFO.pop(type_index, None)
                type_info = _type_info._type_index_to_type_info(type_index)
                registry._bind_class(cls, type_info)
                _attach_own_fields(type_info.fields, own)
                for tf in type_info.fields:
                    setattr(cls, tf.name, tf.as_property(cls))
                registry._add_class_attrs(cls, type_info)
                type_info._decorator_args = decorator_args
                ffi_init = core._lookup_type_attr(type_index, "__ffi_init__")
                if user_init is not None:
                    ffi_new = core._lookup_type_attr(type_index, "__ffi_new__")
                    cls.__init__ = _wrap_user_init(user_init, ffi_new)
                elif init:
                    init_fn = _make_py_class_init(cls, type_info, ffi_init)
                    init_fn.__qualname__ = "%s.__init__" % cls.__qualname__
                    init_fn.__module__ = cls.__module__
                    cls.__init__ = init_fn
                _install_dataclass_dunders(cls, decorator_args)
            except BaseException:
                _rollback(cls, key, type_index)
                if not fields_started:
                    _REUSABLE_KEYS.add(key)
                raise
            cls.__ffi_is_dataclass__ = True
            cls.__ffi_is_py_class__ = True

        if unresolved or _is_pending(parent_info):
            cls.__tvm_ffi_type_info__._decorator_args = decorator_args
            _defer(cls, finish, parent_info)
            return cls
        finish()
        _retry_pending()
        return cls

    if isinstance(cls_or_type_key, type):
        return decorator(cls_or_type_key)
    return decorator


py_class.__dataclass_transform__ = {
    "eq_default": False,
    "order_default": False,
    "kw_only_default": False,
    "frozen_default": False,
    "field_specifiers": (Field, field),
    "kwargs": {"converter": _identity_converter},
}


# The wheel keeps the first registration phase in its core module; code written for it
# calls it there.
core._register_py_class = _register_py_class
