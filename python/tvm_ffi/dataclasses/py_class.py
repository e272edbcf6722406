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
import json
import sys
import typing

from .. import _type_info, core, registry
from .._dunder import _install_dataclass_dunders
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


def _collect_py_methods(cls, globalns=None):
    """The type-attribute entries of the class body as ``(name, func, is_static)`` triples, or
    None when there are none. ``staticmethod`` entries are unwrapped; ``classmethod`` entries
    are rejected."""
    names = _type_attr_names(cls)
    found = []
    for name, value in cls.__dict__.items():
        if name not in names:
            continue
        if isinstance(value, classmethod):
            raise TypeError(
                "@py_class('%s'): '%s' is wrapped by @classmethod, which is incompatible with "
                "FFI registration — use @staticmethod or a plain function" % (cls.__name__, name)
            )
        is_static = isinstance(value, staticmethod)
        found.append((name, value.__func__ if is_static else value, is_static))
    return found or None


_PLAIN_STATIC_INDICES = frozenset({1, 2, 3, 4, 5, 6})


def _check_native_ancestors(cls, parent_info):
    """Objects are allocated zero-filled, which is a valid state only for plain-data fields:
    a C++ ancestor with an object or string field cannot be a py_class parent."""
    info = parent_info
    while info is not None:
        if info.type_cls is None or not getattr(info.type_cls, "__ffi_is_py_class__", False):
            for tf in info.fields or ():
                if tf.field_static_type_index not in _PLAIN_STATIC_INDICES:
                    raise TypeError(
                        "%s cannot derive from the C++ type %s: its field '%s' is not plain "
                        "data, and py_class objects are allocated zero-filled"
                        % (cls.__name__, info.type_key, tf.name)
                    )
        info = info.parent_type_info


def _is_classvar(ann):
    return ann is typing.ClassVar or typing.get_origin(ann) is typing.ClassVar


def _is_kw_only_marker(ann):
    if ann is KW_ONLY:
        return True
    return isinstance(ann, str) and (ann == "KW_ONLY" or ann.endswith(".KW_ONLY"))


def _own_fields(cls, decorator_kw_only, frozen):
    """The own Fields of cls, in annotation order, with name/type/schema resolved."""
    raw = cls.__dict__.get("__annotations__", {})
    module = sys.modules.get(cls.__module__)
    globalns = dict(vars(module)) if module is not None else {}
    localns = {c.__name__: c for c in _PY_CLASS_KEYS.values() if c.__module__ == cls.__module__}
    localns[cls.__name__] = cls
    to_resolve = {n: a for n, a in raw.items() if not _is_kw_only_marker(a)}
    holder = type("_Annotations", (), {"__annotations__": to_resolve, "__module__": cls.__module__})
    try:
        resolved = typing.get_type_hints(holder, globalns, localns, include_extras=True)
    except Exception as err:
        raise TypeError("Cannot resolve the annotations of %s: %s" % (cls.__name__, err)) from None
    hints = {n: (KW_ONLY if _is_kw_only_marker(a) else resolved[n]) for n, a in raw.items()}
    kw_only = decorator_kw_only
    result = []
    for name, ann in hints.items():
        if ann is KW_ONLY:
            kw_only = True
            if name in cls.__dict__:
                delattr(cls, name)
            continue
        if _is_classvar(ann):
            continue
        value = cls.__dict__.get(name, core.MISSING)
        if isinstance(value, init_property):
            raise TypeError(
                "@py_class: init_property (%s.%s) is not supported" % (cls.__name__, name)
            )
        if isinstance(value, Field):
            f = value if value.name is None else Field.__copy__(value)
        elif value is core.MISSING:
            f = field()
        else:
            f = field(default=value)
        if value is not core.MISSING:
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
        if f.extra_kwargs:
            raise TypeError(
                "%s.%s: unrecognized field options: %s"
                % (cls.__name__, name, ", ".join(sorted(f.extra_kwargs)))
            )
        result.append(f)
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
    Optional of these), with the schema's Python converter behind it for every other value."""
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
        return core._PyClassFieldConverter(schema.convert, "object", optional, index)
    return core._PyClassFieldConverter(schema.convert, fast, optional and fast is not None)


def _make_setter(kind, schema, keep_alive):
    """The setter Function of a field: the runtime converts each value with the field's
    converter (through the core's conversion callback) before storing it."""

    converter = _field_converter(schema)
    keep_alive.append(converter)
    return _rt("ffi.MakeFieldSetter")(kind, converter.address, core._py_class_field_convert_addr())


class _PyClassFieldProperty(_type_info.FFIProperty):
    """A py_class field's property: reads go straight to the native slot (see
    ``core._enable_py_class_fast_get``), writes through the field's setter."""

    __slots__ = ("_reader",)


class _FrozenPyClassFieldProperty(_type_info._FrozenFFIProperty):
    """A frozen py_class field's property (the fast read of _PyClassFieldProperty)."""

    __slots__ = ("_reader",)


for _prop_cls in (_PyClassFieldProperty, _FrozenPyClassFieldProperty):
    core._enable_py_class_fast_get(_prop_cls)


def _field_property(cls, tf):
    """The property of a py_class field: an FFIProperty with the native read."""
    named = tf.as_property(cls)
    prop_cls = _FrozenPyClassFieldProperty if tf.frozen else _PyClassFieldProperty
    prop = prop_cls(named.fget, named._ffi_fset, tf.frozen, doc=tf.doc)
    prop._reader = core._PyClassFieldReader(named.fget, tf.field_static_type_index)
    return prop


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
            default = _convert(f._ty_schema, f.default)
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


def _make_py_class_init(cls, type_info, ffi_init):
    """The generated ``__init__``: constructs through the runtime's ``__ffi_init__``, which
    checks the arguments, applies defaults and converts every value by its field's schema."""

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
        if hasattr(type(self), "__post_init__"):
            self.__post_init__()

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


def _rollback(cls, key, type_index):
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
        _, parent_info = _find_parent(cls)
        _check_native_ancestors(cls, parent_info)
        py_methods = _collect_py_methods(cls)
        if key in _PY_CLASS_KEYS or (
            key not in _REUSABLE_KEYS and core._object_type_key_to_index(key) is not None
        ):
            raise ValueError("Type key '%s' is already registered" % key)
        user_init = cls.__dict__.get("__init__")
        type_index = _rt("ffi._PyClassAllocTypeIndex")(key, parent_info.type_index)
        _PY_CLASS_KEYS[key] = cls
        _REUSABLE_KEYS.discard(key)
        fields_started = False
        try:
            # Bind first so that annotations naming the class itself resolve.
            registry._bind_class(cls, _type_info._type_index_to_type_info(type_index))
            own = _own_fields(cls, kw_only, frozen)
            fields_started = True
            keep_alive = []
            _CONVERTERS[key] = keep_alive
            total_size = _register_fields(type_index, parent_info, own, keep_alive)
            _rt("ffi._PyClassRegisterTypeAttrColumns")(type_index, total_size)
            for name, func, _ in py_methods or ():
                core._register_type_attr(type_index, name, func)
            if structural_eq is not None:
                _rt("ffi._PyClassRegisterMetadata")(
                    type_index, total_size, _STRUCTURE_KIND_MAP[structural_eq]
                )
            _type_info._TYPE_INDEX_TO_INFO.pop(type_index, None)
            type_info = _type_info._type_index_to_type_info(type_index)
            registry._bind_class(cls, type_info)
            by_name = {f.name: f for f in own}
            for tf in type_info.fields:
                f = by_name[tf.name]
                tf.dataclass_field = f
                tf.frozen = f.frozen
                setattr(cls, tf.name, _field_property(cls, tf))
            registry._add_class_attrs(cls, type_info)
            type_info._decorator_args = {
                "frozen": frozen,
                "init": init,
                "repr": repr,
                "eq": eq,
                "order": order,
                "unsafe_hash": unsafe_hash,
                "match_args": match_args,
                "kw_only": kw_only,
                "structural_eq": structural_eq,
                "field_markers": [],
            }
            ffi_init = core._lookup_type_attr(type_index, "__ffi_init__")
            if user_init is not None:
                ffi_new = core._lookup_type_attr(type_index, "__ffi_new__")
                cls.__init__ = _wrap_user_init(user_init, ffi_new)
            elif init:
                init_fn = _make_py_class_init(cls, type_info, ffi_init)
                init_fn.__qualname__ = "%s.__init__" % cls.__qualname__
                init_fn.__module__ = cls.__module__
                cls.__init__ = init_fn
            _install_dataclass_dunders(
                cls,
                init=init,
                repr=repr,
                eq=eq,
                order=order,
                unsafe_hash=unsafe_hash,
                match_args=match_args,
                py_class_mode=True,
            )
        except BaseException:
            _rollback(cls, key, type_index)
            if not fields_started:
                _REUSABLE_KEYS.add(key)
            raise
        cls.__ffi_is_dataclass__ = True
        cls.__ffi_is_py_class__ = True
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
