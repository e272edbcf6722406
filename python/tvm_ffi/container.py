"""Python views of the FFI containers: Array, List, Map, Dict and Shape.

Array and List elements are read straight from the object's cell; every other
operation goes through the runtime globals of docs/runtime_globals.md, so the
containers are shared by reference with C++ (a List mutated in C++ is seen
mutated here, and the other way round).
"""

import collections.abc as _abc

from . import core
from .core import Object
from .registry import register_object

_MISSING = object()


def _rt(name):
    return core._get_global_func(name, False)


class _FFISequence(Object, _abc.Sequence):
    """Read access shared by Array and List."""

    __slots__ = ()

    def __len__(self):
        return core._seq_size(self)

    def __getitem__(self, index):
        if isinstance(index, slice):
            items = core._seq_to_list(self)
            return items[index]
        try:
            i = index.__index__()
        except AttributeError:
            raise TypeError("%s indices must be integers or slices, not %s"
                            % (type(self).__name__, type(index).__name__)) from None
        return core._seq_getitem(self, i)

    def __iter__(self):
        return iter(core._seq_to_list(self))

    def __contains__(self, value):
        return value in core._seq_to_list(self)

    def __eq__(self, other):
        if isinstance(other, Object) and self.same_as(other):
            return True
        if isinstance(other, (_FFISequence, list, tuple)):
            return core._seq_to_list(self) == list(other)
        return NotImplemented

    def __ne__(self, other):
        result = self.__eq__(other)
        return result if result is NotImplemented else not result

    __hash__ = Object.__hash__

    def __repr__(self):
        return "[" + ", ".join(repr(x) for x in core._seq_to_list(self)) + "]"


@register_object("ffi.Array")
class Array(_FFISequence):
    """Immutable sequence shared with C++ (``ffi::Array``)."""

    __slots__ = ()

    def __init__(self, input=()):
        self.__init_handle_by_constructor__(_rt("ffi.Array"), *input)


@register_object("ffi.List")
class List(_FFISequence, _abc.MutableSequence):
    """Mutable sequence shared by reference with C++ (``ffi::List``)."""

    __slots__ = ()

    def __init__(self, input=()):
        self.__init_handle_by_constructor__(_rt("ffi.List"), *input)

    def _normalize(self, index):
        size = len(self)
        i = index.__index__()
        if i < 0:
            i += size
        if i < 0 or i >= size:
            raise IndexError("index %d out of range for List of size %d" % (index, size))
        return i

    def __setitem__(self, index, value):
        if isinstance(index, slice):
            items = core._seq_to_list(self)
            items[index] = value
            self.clear()
            self.extend(items)
            return
        _rt("ffi.ListSetItem")(self, self._normalize(index), value)

    def __delitem__(self, index):
        if isinstance(index, slice):
            for i in sorted(range(len(self))[index], reverse=True):
                _rt("ffi.ListErase")(self, i)
            return
        _rt("ffi.ListErase")(self, self._normalize(index))

    def insert(self, index, value):
        """Insert before index (clamped to [0, len] like list.insert)."""
        size = len(self)
        i = index.__index__()
        if i < 0:
            i = max(i + size, 0)
        i = min(i, size)
        _rt("ffi.ListInsert")(self, i, value)

    def append(self, value):
        _rt("ffi.ListAppend")(self, value)

    def extend(self, values):
        append = _rt("ffi.ListAppend")
        for value in list(values):
            append(self, value)

    def pop(self, index=-1):
        if len(self) == 0:
            raise IndexError("pop from empty List")
        i = self._normalize(index)
        value = core._seq_getitem(self, i)
        _rt("ffi.ListErase")(self, i)
        return value

    def clear(self):
        _rt("ffi.ListClear")(self)

    __hash__ = Object.__hash__


class _FFIMapping(Object, _abc.Mapping):
    """Read access shared by Map and Dict; _PREFIX picks the runtime globals."""

    __slots__ = ()
    _PREFIX = "ffi.Map"

    def _items_flat(self):
        return core._seq_to_list(_rt(self._PREFIX + "Items")(self))

    def __len__(self):
        return _rt(self._PREFIX + "Size")(self)

    def __getitem__(self, key):
        if not _rt(self._PREFIX + "Count")(self, key):
            raise KeyError(key)
        return _rt(self._PREFIX + "GetItem")(self, key)

    def __contains__(self, key):
        return bool(_rt(self._PREFIX + "Count")(self, key))

    def __iter__(self):
        return iter(self._items_flat()[0::2])

    def get(self, key, default=None):
        if _rt(self._PREFIX + "Count")(self, key):
            return _rt(self._PREFIX + "GetItem")(self, key)
        return default

    def keys(self):
        return _abc.KeysView(self)

    def values(self):
        return _FFIValuesView(self)

    def items(self):
        return _FFIItemsView(self)

    def __eq__(self, other):
        if isinstance(other, Object) and self.same_as(other):
            return True
        if isinstance(other, _abc.Mapping):
            return dict(self.items()) == dict(other.items())
        return NotImplemented

    def __ne__(self, other):
        result = self.__eq__(other)
        return result if result is NotImplemented else not result

    __hash__ = Object.__hash__

    def __repr__(self):
        flat = self._items_flat()
        return "{" + ", ".join("%r: %r" % (flat[i], flat[i + 1])
                               for i in range(0, len(flat), 2)) + "}"


class _FFIItemsView(_abc.ItemsView):
    """Items of a Map/Dict, read in one call."""

    def __iter__(self):
        flat = self._mapping._items_flat()
        return iter([(flat[i], flat[i + 1]) for i in range(0, len(flat), 2)])


class _FFIValuesView(_abc.ValuesView):
    """Values of a Map/Dict, read in one call."""

    def __iter__(self):
        return iter(self._mapping._items_flat()[1::2])


def _flatten_mapping(input):
    flat = []
    items = input.items() if isinstance(input, _abc.Mapping) else input
    for key, value in items:
        flat.append(key)
        flat.append(value)
    return flat


@register_object("ffi.Map")
class Map(_FFIMapping):
    """Immutable mapping shared with C++ (``ffi::Map``), insertion ordered."""

    __slots__ = ()
    _PREFIX = "ffi.Map"

    def __init__(self, input=()):
        self.__init_handle_by_constructor__(_rt("ffi.Map"), *_flatten_mapping(input))


@register_object("ffi.Dict")
class Dict(_FFIMapping, _abc.MutableMapping):
    """Mutable mapping shared by reference with C++ (``ffi::Dict``), insertion ordered."""

    __slots__ = ()
    _PREFIX = "ffi.Dict"

    def __init__(self, input=()):
        self.__init_handle_by_constructor__(_rt("ffi.Dict"), *_flatten_mapping(input))

    def __setitem__(self, key, value):
        _rt("ffi.DictSetItem")(self, key, value)

    def __delitem__(self, key):
        if not _rt("ffi.DictCount")(self, key):
            raise KeyError(key)
        _rt("ffi.DictErase")(self, key)

    def pop(self, key, default=_MISSING):
        if _rt("ffi.DictCount")(self, key):
            value = _rt("ffi.DictGetItem")(self, key)
            _rt("ffi.DictErase")(self, key)
            return value
        if default is _MISSING:
            raise KeyError(key)
        return default

    def clear(self):
        _rt("ffi.DictClear")(self)

    __hash__ = Object.__hash__


class Shape(tuple):
    """A tuple of ints backed by an ``ffi::Shape`` object (``__tvm_ffi_object__``)."""

    def __new__(cls, values=()):
        values = tuple(int(v) for v in values)
        # The runtime returns a Shape already (through the factory below).
        shape = _rt("ffi.Shape")(*values)
        if cls is Shape:
            return shape
        return cls._from_object(shape.__tvm_ffi_object__)

    @classmethod
    def _from_object(cls, obj):
        self = tuple.__new__(cls, core._shape_values(obj))
        self.__tvm_ffi_object__ = obj
        return self

    def __repr__(self):
        return "Shape(%s)" % list(self)

    def __reduce__(self):
        return (Shape, (tuple(self),))


core._set_shape_factory(Shape._from_object)
