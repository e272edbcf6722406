"""Reflection records of FFI object types: TypeInfo, TypeField, TypeMethod and FFIProperty.

Each is built from the runtime's type table (fields, methods, metadata registered from C++) and
published as ``tvm_ffi.core.<Name>``. A ``TypeInfo`` is made once per type index and kept; the
class bound to a type by ``register_object`` (or made for an unregistered type) is its
``type_cls``.
"""

import dataclasses
import json
import typing
import warnings

from . import core
from ._type_schema import TypeSchema, _enum_kind

MISSING = core.MISSING

_FLAG_WRITABLE = 1
_FLAG_HAS_DEFAULT = 2
_FLAG_STATIC_METHOD = 4
_FLAG_SEQ_HASH_IGNORE = 8
_FLAG_SEQ_HASH_DEF_PATTERN = 16
_FLAG_DEFAULT_IS_FACTORY = 32
_FLAG_REPR_OFF = 64
_FLAG_COMPARE_OFF = 128
_FLAG_HASH_OFF = 256
_FLAG_INIT_OFF = 512
_FLAG_KW_ONLY = 1024
_FLAG_SEQ_HASH_DEF_SIMPLE = 4096


class FFIProperty(core._FieldProperty):
    """The property of a reflected field: reads call the C getter, writes the C setter.

    A frozen field has no public setter (assignment raises AttributeError); ``set(obj, value)``
    always writes, with the same conversion as an assignment. Reads with a FieldGetter as
    fget are done in C, without calling fget (``core._FieldProperty``, a property); so are
    assignments of simple values with a FieldSetter over a C setter as fset.
    """

    def __new__(cls, fget, fset, frozen, fdel=None, doc=None):
        if frozen and cls is FFIProperty:
            cls = _FrozenFFIProperty
        return super().__new__(cls)

    def __init__(self, fget, fset, frozen, fdel=None, doc=None):
        super().__init__(fget, None if frozen else fset, fdel, doc)
        core._bind_field_property(self, fget, None if frozen else fset)
        # A property subclass would otherwise show the class docstring.
        self.__doc__ = doc
        self._ffi_fset = fset
        self.frozen = frozen

    def set(self, obj, value):
        """Write the field of obj, frozen or not."""
        if self._ffi_fset is None:
            raise AttributeError("field %r has no setter" % getattr(self.fget, "__name__", "?"))
        self._ffi_fset(obj, value)


class _FrozenFFIProperty(FFIProperty):
    """A frozen field's property: assignment names the property and class on every Python
    (3.9 and 3.10 would only say "can't set attribute")."""

    def __set__(self, obj, value):
        name = getattr(self.fget, "__name__", "?")
        raise AttributeError("property %r of %r object has no setter" % (name, type(obj).__name__))


@dataclasses.dataclass(eq=False)
class TypeField:
    """One reflected field of a type, decoded from the runtime's field record."""

    name: str
    doc: typing.Optional[str]
    size: int
    alignment: int
    offset: int
    field_static_type_index: int
    frozen: bool
    metadata: dict
    getter: typing.Any
    setter: typing.Any
    ty: typing.Optional[TypeSchema] = None
    c_init: bool = True
    c_kw_only: bool = False
    c_has_default: bool = False
    c_default: typing.Any = MISSING
    c_default_factory: typing.Any = MISSING
    c_repr: bool = True
    c_compare: bool = True
    c_hash: bool = True
    c_structural_eq: typing.Optional[str] = None
    dataclass_field: typing.Any = None

    def as_property(self, cls):
        """The FFIProperty installing this field on class cls. The setter of a payload-enum
        field maps a raw payload to its singleton before storing."""
        qualname = "%s.%s" % (cls.__qualname__, self.name)
        setter = self.setter
        if setter is not None and self._is_payload_enum_field():
            setter = self._normalizing_setter(setter)
        for func in (self.getter, setter):
            if func is None:
                continue
            func.__name__ = self.name
            func.__qualname__ = qualname
            func.__module__ = cls.__module__
            func.__doc__ = self.doc
        prop = FFIProperty(self.getter, setter, self.frozen, doc=self.doc)
        if isinstance(cls, type) and issubclass(cls, core.CObject):
            core._set_field_property_owner(prop, cls)
        return prop

    def _normalizing_setter(self, setter):
        normalize = self.normalize_value

        def set_field(obj, value):
            setter(obj, normalize(value))

        return set_field

    def _is_payload_enum_field(self):
        """Whether the field holds IntEnum/StrEnum singletons, given by their payload."""
        if self.ty is None or self.ty.origin_type_index < 64:
            return False
        return _enum_kind(self.ty.origin_type_index) is not None

    def normalize_value(self, value):
        """Payload-enum fields map a raw payload to its singleton; other values pass through."""
        if self._is_payload_enum_field():
            return core._to_py_class_value(self.ty.convert(value))
        return value


@dataclasses.dataclass(eq=False)
class TypeMethod:
    """One reflected method (or static function) of a type."""

    name: str
    doc: typing.Optional[str]
    func: typing.Any
    metadata: dict
    is_static: bool

    def as_callable(self, cls):
        """The class member installing the method on cls: instance methods take self first,
        static ones become staticmethods."""
        func = self.func
        if self.is_static:
            member = _named(_static_wrapper(func), self, cls)
            return staticmethod(member)
        return _named(core._MethodDescriptor(func), self, cls)


def _static_wrapper(func):
    def method(*args):
        return func(*args)

    return method


def _named(function, method, cls):
    function.__name__ = method.name
    function.__qualname__ = "%s.%s" % (cls.__qualname__, method.name)
    function.__module__ = cls.__module__
    function.__doc__ = method.doc
    return function


@dataclasses.dataclass(eq=False)
class TypeInfo:
    """What the runtime knows of a type: index, key, ancestors, own fields and methods."""

    type_cls: typing.Optional[type]
    type_index: int
    type_key: str
    type_ancestors: typing.List[int]
    fields: typing.Optional[typing.List[TypeField]]
    methods: typing.List[TypeMethod]
    parent_type_info: typing.Optional["TypeInfo"]

    def __post_init__(self):
        if self.fields is None:
            return
        names = [f.name for f in self.fields]
        assert len(names) == len(set(names)), "duplicate field names in %s: %s" % (
            self.type_key,
            names,
        )
        parent = self.parent_type_info
        inherited = set()
        while parent is not None:
            inherited.update(f.name for f in parent.fields or ())
            parent = parent.parent_type_info
        for name in names:
            if name in inherited:
                warnings.warn(
                    "field %r of %s shadows a field of an ancestor type" % (name, self.type_key),
                    stacklevel=3,
                )

    def _register_fields(self, fields):
        """Register ``fields`` (named Field objects) as the own fields of a type made by
        ``core._register_py_class``; ``self.fields`` becomes their TypeFields."""
        from .dataclasses.py_class import _register_type_fields

        _register_type_fields(self, fields)

    @property
    def _has_type_metadata(self):
        entry = core._type_table_entry(self.type_index)
        return entry is not None and entry[4] is not None

    @property
    def total_size(self):
        """Size in bytes of the object body: the runtime metadata's size when the type has
        one, else the end of its furthest field (or the parent's size), rounded up to 8."""
        cached = self.__dict__.get("_total_size")
        if cached is not None:
            return cached
        entry = core._type_table_entry(self.type_index)
        size = entry[4] if entry is not None else None
        if size is None:
            size = self.parent_type_info.total_size if self.parent_type_info else 24
            for f in self.fields or ():
                size = max(size, f.offset + f.size)
            size = (size + 7) // 8 * 8
        self.__dict__["_total_size"] = size
        return size


def _decode_field(raw):
    (
        name,
        doc,
        size,
        alignment,
        offset,
        static_index,
        flags,
        metadata_text,
        default,
        getter,
        setter,
    ) = raw
    metadata = json.loads(metadata_text) if metadata_text else {}
    schema_text = metadata.get("type_schema") if isinstance(metadata, dict) else None
    ty = None
    if isinstance(schema_text, str):
        try:
            ty = TypeSchema.from_json_str(schema_text)
        except (TypeError, ValueError):
            ty = None
    elif isinstance(schema_text, dict):
        ty = TypeSchema.from_json_obj(schema_text)
    has_default = bool(flags & _FLAG_HAS_DEFAULT)
    c_default = c_factory = MISSING
    if has_default:
        if flags & _FLAG_DEFAULT_IS_FACTORY:
            c_factory = default
        else:
            c_default = default
    structural = None
    if flags & _FLAG_SEQ_HASH_IGNORE:
        structural = "ignore"
    elif flags & _FLAG_SEQ_HASH_DEF_PATTERN:
        structural = "def-pattern"
    elif flags & _FLAG_SEQ_HASH_DEF_SIMPLE:
        structural = "def-simple"
    return TypeField(
        name=name,
        doc=doc,
        size=size,
        alignment=alignment,
        offset=offset,
        field_static_type_index=static_index,
        frozen=not (flags & _FLAG_WRITABLE),
        metadata=metadata,
        getter=getter,
        setter=setter,
        ty=ty,
        c_init=not (flags & _FLAG_INIT_OFF),
        c_kw_only=bool(flags & _FLAG_KW_ONLY),
        c_has_default=has_default,
        c_default=c_default,
        c_default_factory=c_factory,
        c_repr=not (flags & _FLAG_REPR_OFF),
        c_compare=not (flags & _FLAG_COMPARE_OFF),
        c_hash=not (flags & _FLAG_HASH_OFF),
        c_structural_eq=structural,
    )


def _decode_method(raw):
    name, doc, func, metadata_text, flags = raw
    metadata = json.loads(metadata_text) if metadata_text else {}
    return TypeMethod(name, doc, func, metadata, bool(flags & _FLAG_STATIC_METHOD))


# type index -> TypeInfo, and bound class -> TypeInfo.
_TYPE_INDEX_TO_INFO = {}
_TYPE_CLS_TO_INFO = {}


def _type_index_to_type_info(type_index):
    """The TypeInfo of a type index (made on first use); None for unknown indices."""
    info = _TYPE_INDEX_TO_INFO.get(type_index)
    if info is not None:
        return info
    entry = core._type_table_entry(type_index)
    if entry is None:
        return None
    type_key, ancestors, fields, methods, _ = entry
    parent = _type_index_to_type_info(ancestors[-1]) if ancestors else None
    info = TypeInfo(
        type_cls=None,
        type_index=type_index,
        type_key=type_key,
        type_ancestors=ancestors,
        fields=[_decode_field(f) for f in fields],
        methods=[_decode_method(m) for m in methods],
        parent_type_info=parent,
    )
    _TYPE_INDEX_TO_INFO[type_index] = info
    return info


def _lookup_or_register_type_info_from_type_key(type_key):
    """The TypeInfo of a registered type key; ValueError for unknown keys."""
    index = core._object_type_key_to_index(type_key)
    if index is None:
        raise ValueError("Cannot find object type index for %s" % type_key)
    return _type_index_to_type_info(index)


def _type_cls_to_type_info(cls):
    """The TypeInfo bound to a class (by register_object or as a fallback class), or None."""
    return _TYPE_CLS_TO_INFO.get(cls)


def _bind_type_cls(info, cls):
    """Record cls as the class of info's type."""
    info.type_cls = cls
    _TYPE_CLS_TO_INFO[cls] = info


for _name in (
    "TypeSchema",
    "TypeInfo",
    "TypeField",
    "TypeMethod",
    "FFIProperty",
    "_type_index_to_type_info",
    "_type_cls_to_type_info",
    "_lookup_or_register_type_info_from_type_key",
):
    setattr(core, _name, globals()[_name])
