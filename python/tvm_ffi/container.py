"""Python views of the FFI containers: Array, List, Map and Dict.

Array and List elements are read straight from the object's cell; every other
operation goes through the runtime globals of docs/runtime_globals.md, so the
containers are shared by reference with C++ (a List mutated in C++ is seen
mutated here, and the other way round).

Equality is structural and type-strict like C++'s (``Array([1]) != Array([1.0])``),
and ``hash`` agrees with it, so equal containers are interchangeable as set
members and dict keys. Every mutating operation converts all new elements before
it touches the container: a value that cannot be converted raises and leaves the
container exactly as it was.
"""

import collections.abc as _abc
import operator as _operator

from . import core
from .registry import register_object

# The "no value" sentinel of ``Map.get`` and friends: the runtime's MISSING object.
MISSING = core.MISSING


# Common base of Array, List, Map and Dict (a Cython class: it holds the exchange-API tag).
CContainerBase = core.CContainerBase

__all__ = ["Array", "List", "Map", "Dict", "MISSING", "KeysView", "ValuesView", "ItemsView"]


def _rt(name):
    return core._get_global_func(name, False)


_MISSING_TYPE = type(MISSING)


def _is_missing(value):
    """Whether value is the runtime's MISSING object (calls return a new wrapper of it)."""
    return type(value) is _MISSING_TYPE and value.same_as(MISSING)


# ---------------------------------------------------------------------------
# Structural equality, hashing and printing (the FFI's rules, seen from Python)
# ---------------------------------------------------------------------------


def _is_plain_sequence(x):
    return (
        isinstance(x, (list, tuple))
        and not isinstance(x, _FFISequence)
        and not hasattr(x, "__tvm_ffi_object__")
    )


def _ffi_equal(a, b):
    """Type-strict structural equality: 1, 1.0 and True differ; containers recurse.

    Nested containers are compared with an explicit stack of pairs, so any depth works.
    """
    pending = [(a, b)]
    while pending:
        a, b = pending.pop()
        if a is b:
            continue
        if isinstance(a, _FFISequence) or isinstance(b, _FFISequence):
            if not isinstance(a, (_FFISequence, list, tuple)) or not isinstance(
                b, (_FFISequence, list, tuple)
            ):
                return False
            la = core._seq_to_list(a) if isinstance(a, _FFISequence) else list(a)
            lb = core._seq_to_list(b) if isinstance(b, _FFISequence) else list(b)
            if len(la) != len(lb):
                return False
            # Reversed, so that the first items are compared first.
            pending.extend(zip(reversed(la), reversed(lb)))
            continue
        if isinstance(a, _FFIMapping) or isinstance(b, _FFIMapping):
            if not (isinstance(a, _FFIMapping) and isinstance(b, _FFIMapping)):
                return False
            if isinstance(a, Dict) != isinstance(b, Dict) or len(a) != len(b):
                return False
            pairs = []
            for key, value in a.items():
                other = b.get(key, MISSING)
                if other is MISSING:
                    return False
                pairs.append((value, other))
            pending.extend(reversed(pairs))
            continue
        if not _leaf_equal(a, b):
            return False
    return True


def _leaf_equal(a, b):
    """_ffi_equal of two values that are not FFI containers."""
    if isinstance(a, core.CObject) or isinstance(b, core.CObject):
        return isinstance(a, core.CObject) and a.same_as(b)
    ta, tb = _scalar_kind(a), _scalar_kind(b)
    if ta != tb:
        return False
    try:
        return bool(a == b)
    except Exception:
        return False


def _scalar_kind(x):
    if x is None:
        return "none"
    if isinstance(x, bool):
        return "bool"
    if isinstance(x, int):
        return "int"
    if isinstance(x, float):
        return "float"
    if isinstance(x, core.dtype):
        return "dtype"
    if isinstance(x, str):
        return "str"
    if isinstance(x, (bytes, bytearray)):
        return "bytes"
    if isinstance(x, tuple):
        return "tuple"
    return type(x)


def _hash_children(x):
    """("seq", items) or ("map", [key0, value0, key1, ...]) of a container _ffi_hash descends
    into, else (None, None)."""
    if isinstance(x, _FFISequence):
        return "seq", core._seq_to_list(x)
    if isinstance(x, _FFIMapping):
        return "map", [part for item in x.items() for part in item]
    if _is_plain_sequence(x):
        return "seq", list(x)
    return None, None


def _leaf_hash(x):
    try:
        return hash(x)
    except TypeError:
        return hash(type(x))


def _ffi_hash(x):
    """A hash that agrees with _ffi_equal (nested containers with an explicit stack)."""
    kind, items = _hash_children(x)
    if kind is None:
        return _leaf_hash(x)
    # Frames: [kind, items, next index, hashes of the items done].
    stack = [[kind, items, 0, []]]
    while True:
        frame = stack[-1]
        kind, items, i, done = frame
        if i < len(items):
            frame[2] = i + 1
            child_kind, child_items = _hash_children(items[i])
            if child_kind is None:
                done.append(_leaf_hash(items[i]))
            else:
                stack.append([child_kind, child_items, 0, []])
            continue
        stack.pop()
        if kind == "seq":
            h = hash(("ffi.Seq",) + tuple(done))
        else:
            h = hash(("ffi.Mapping", frozenset(zip(done[0::2], done[1::2]))))
        if not stack:
            return h
        stack[-1][3].append(h)


# ---------------------------------------------------------------------------
# Array and List
# ---------------------------------------------------------------------------


def _index_error(size, index):
    return IndexError("Index out of range. size: %d, got index %d" % (size, index))


def _as_index(seq, index, method=None):
    """index as an int (its __index__); TypeError naming its type otherwise (the message
    of Python's list for subscripts, of ``List.<method>()`` for methods)."""
    try:
        return _operator.index(index)
    except TypeError:
        if method is None:
            text = "%s indices must be integers or slices, not %s"
        else:
            text = "%s." + method + "() index must be an integer, not %s"
        raise TypeError(text % (type(seq).__name__, type(index).__name__)) from None


class _FFISequence(CContainerBase, _abc.Sequence):
    """Read access shared by Array and List."""

    __slots__ = ()

    def __len__(self):
        return core._seq_size(self)

    def __bool__(self):
        return core._seq_size(self) > 0

    def __getitem__(self, index):
        if isinstance(index, slice):
            return core._seq_to_list(self)[index]
        i = _as_index(self, index)
        try:
            return core._seq_getitem(self, i)
        except (IndexError, OverflowError):
            raise _index_error(len(self), i) from None

    def __iter__(self):
        return iter(core._seq_to_list(self))

    def __reversed__(self):
        return reversed(core._seq_to_list(self))

    def __contains__(self, value):
        items = core._seq_to_list(self)
        if any(_ffi_equal(value, item) for item in items):
            return True
        return False

    def count(self, value):
        return sum(1 for item in core._seq_to_list(self) if _ffi_equal(value, item))

    def index(self, value, start=0, stop=None):
        items = core._seq_to_list(self)
        for i in range(*slice(start, stop).indices(len(items))):
            if _ffi_equal(value, items[i]):
                return i
        raise ValueError("%r is not in %s" % (value, type(self).__name__))

    def __eq__(self, other):
        if isinstance(other, _FFISequence):
            return _ffi_equal(self, other)
        if isinstance(other, _abc.Sequence) and not isinstance(
            other, (str, bytes, bytearray, _abc.Mapping)
        ):
            try:
                other = type(self)(other)
            except Exception:
                return NotImplemented
            return _ffi_equal(self, other)
        return NotImplemented

    def __ne__(self, other):
        result = self.__eq__(other)
        return result if result is NotImplemented else not result

    def __hash__(self):
        return _ffi_hash(self)

    def __add__(self, other):
        return type(self)(core._seq_to_list(self) + list(other))

    def __radd__(self, other):
        return type(self)(list(other) + core._seq_to_list(self))

    def __repr__(self):
        return core.object_repr(self)

    def __deepcopy__(self, memo=None):
        return _rt("ffi.DeepCopy")(self)


@register_object("ffi.Array")
class Array(_FFISequence):
    """Immutable sequence shared with C++ (``ffi::Array``); any iterable builds one."""

    __slots__ = ()

    def __init__(self, input_list):
        self.__init_handle_by_constructor__(_rt("ffi.Array"), *input_list)


def _converted(values):
    """values converted to FFI values in one go, as an Array (raises before any mutation).

    An FFI sequence is used as it is (the runtime snapshots it: it may be the list being
    changed); any other iterable is read once.
    """
    if isinstance(values, _FFISequence):
        return values
    return _rt("ffi.Array")(*list(values))


@register_object("ffi.List")
class List(_FFISequence, _abc.MutableSequence):
    """Mutable sequence shared by reference with C++ (``ffi::List``)."""

    __slots__ = ()

    def __init__(self, input_list=()):
        self.__init_handle_by_constructor__(_rt("ffi.List"), *input_list)

    def _normalize(self, index):
        i = _as_index(self, index)
        size = len(self)
        j = i + size if i < 0 else i
        if j < 0 or j >= size:
            raise _index_error(size, i)
        return j

    # Each mutation converts its new values first, then changes the list in one runtime
    # call: a failure leaves the list as it was.

    def __setitem__(self, index, value):
        if isinstance(index, slice):
            new_values = _converted(value)
            start, stop, step = index.indices(len(self))
            if step != 1:
                targets = range(start, stop, step)
                if len(new_values) != len(targets):
                    raise ValueError(
                        "attempt to assign sequence of size %d to extended "
                        "slice of size %d" % (len(new_values), len(targets))
                    )
                # Elements are passed as they are held (CAny): nothing is converted again.
                elements = [core._seq_getitem_any(new_values, k) for k in range(len(targets))]
                setitem = _rt("ffi.ListSetItem")
                for i, v in zip(targets, elements):
                    setitem(self, i, v)
                return
            _rt("ffi.ListReplaceSlice")(self, start, max(start, stop), new_values)
            return
        _rt("ffi.ListSetItem")(self, self._normalize(index), value)

    def __delitem__(self, index):
        if isinstance(index, slice):
            start, stop, step = index.indices(len(self))
            if step == 1:
                _rt("ffi.ListEraseRange")(self, start, max(start, stop))
                return
            targets = range(start, stop, step)
            if step < 0:
                targets = targets[::-1]
            kept = [core._seq_getitem_any(self, i) for i in range(len(self)) if i not in targets]
            _rt("ffi.ListReplaceSlice")(self, 0, len(self), _rt("ffi.Array")(*kept))
            return
        _rt("ffi.ListErase")(self, self._normalize(index))

    def insert(self, index, value):
        """Insert before index (clamped to [0, len] like list.insert)."""
        i = _as_index(self, index, "insert")
        size = len(self)
        if i < 0:
            i = max(i + size, 0)
        i = min(i, size)
        _rt("ffi.ListInsert")(self, i, value)

    def append(self, value):
        _rt("ffi.ListAppend")(self, value)

    def extend(self, values):
        new_values = _converted(values)
        size = len(self)
        _rt("ffi.ListReplaceSlice")(self, size, size, new_values)

    def __iadd__(self, values):
        self.extend(values)
        return self

    def pop(self, index=-1):
        i = _as_index(self, index, "pop")
        if len(self) == 0:
            raise IndexError("pop from empty list")
        return _rt("ffi.ListPop")(self, self._normalize(i))

    def reverse(self):
        _rt("ffi.ListReverse")(self)

    def clear(self):
        _rt("ffi.ListClear")(self)

    __hash__ = _FFISequence.__hash__


# ---------------------------------------------------------------------------
# Map and Dict
# ---------------------------------------------------------------------------


class _FFIMapping(CContainerBase, _abc.Mapping):
    """Read access shared by Map and Dict; _PREFIX picks the runtime globals."""

    __slots__ = ()
    _PREFIX = "ffi.Map"

    def _items_flat(self):
        return core._seq_to_list(_rt(self._PREFIX + "Items")(self))

    def __len__(self):
        return _rt(self._PREFIX + "Size")(self)

    def __bool__(self):
        return len(self) > 0

    def __getitem__(self, key):
        # A missing key raises the runtime's KeyError (carrying __tvm_ffi_error__).
        return _rt(self._PREFIX + "GetItem")(self, key)

    def __contains__(self, key):
        return bool(_rt(self._PREFIX + "Count")(self, key))

    def __iter__(self):
        return iter(self._items_flat()[0::2])

    def get(self, key, default=None):
        # One runtime call: the key is converted once.
        value = _rt(self._PREFIX + "GetItemOrMissing")(self, key)
        return default if _is_missing(value) else value

    def keys(self):
        return KeysView(self)

    def values(self):
        return ValuesView(self)

    def items(self):
        return ItemsView(self)

    def __eq__(self, other):
        if isinstance(other, _FFIMapping) and (
            isinstance(other, type(self)) or isinstance(self, type(other))
        ):
            return _ffi_equal(self, other)
        return NotImplemented

    def __ne__(self, other):
        result = self.__eq__(other)
        return result if result is NotImplemented else not result

    def __hash__(self):
        return _ffi_hash(self)

    def __repr__(self):
        return core.object_repr(self)

    def __deepcopy__(self, memo=None):
        return _rt("ffi.DeepCopy")(self)


class KeysView(_abc.KeysView):
    """Keys of a Map/Dict, read in one call."""

    def __iter__(self):
        return iter(self._mapping._items_flat()[0::2])


class ItemsView(_abc.ItemsView):
    """Items of a Map/Dict, read in one call."""

    def __iter__(self):
        flat = self._mapping._items_flat()
        return iter([(flat[i], flat[i + 1]) for i in range(0, len(flat), 2)])


class ValuesView(_abc.ValuesView):
    """Values of a Map/Dict, read in one call."""

    def __iter__(self):
        return iter(self._mapping._items_flat()[1::2])


def _flatten_mapping(input_dict):
    flat = []
    for key, value in input_dict.items():
        flat.append(key)
        flat.append(value)
    return flat


@register_object("ffi.Map")
class Map(_FFIMapping):
    """Immutable mapping shared with C++ (``ffi::Map``), insertion ordered."""

    __slots__ = ()
    _PREFIX = "ffi.Map"

    def __init__(self, input_dict):
        self.__init_handle_by_constructor__(_rt("ffi.Map"), *_flatten_mapping(input_dict))


@register_object("ffi.Dict")
class Dict(_FFIMapping, _abc.MutableMapping):
    """Mutable mapping shared by reference with C++ (``ffi::Dict``), insertion ordered."""

    __slots__ = ()
    _PREFIX = "ffi.Dict"

    def __init__(self, input_dict=None):
        flat = [] if input_dict is None else _flatten_mapping(input_dict)
        self.__init_handle_by_constructor__(_rt("ffi.Dict"), *flat)

    def __setitem__(self, key, value):
        _rt("ffi.DictSetItem")(self, key, value)

    # Methods making several runtime calls with one key convert it once (a CAny) and pass
    # that same value to each: a key converting to a new object each time (a list becomes
    # a new Array, compared by identity) must not be inserted by one call and missed by
    # the next. New keys and values are all converted before the dict changes.

    def __delitem__(self, key):
        ckey = core.CAny(key)
        if not _rt("ffi.DictCount")(self, ckey):
            raise KeyError(key)
        _rt("ffi.DictErase")(self, ckey)

    def pop(self, key, *default):
        if len(default) > 1:
            raise TypeError("pop expected at most 2 arguments, got %d" % (len(default) + 1))
        ckey = core.CAny(key)
        value = _rt("ffi.DictGetItemOrMissing")(self, ckey)
        if not _is_missing(value):
            _rt("ffi.DictErase")(self, ckey)
            return value
        if default:
            return default[0]
        raise KeyError(key)

    def popitem(self):
        """Remove and return the first (key, value) pair; KeyError when empty."""
        flat = _rt("ffi.DictItems")(self)
        if len(flat) == 0:
            raise KeyError("popitem(): dictionary is empty")
        # The key as held (CAny): an opaque Python object key keeps its identity.
        _rt("ffi.DictErase")(self, core._seq_getitem_any(flat, 0))
        return core._seq_getitem(flat, 0), core._seq_getitem(flat, 1)

    def update(self, other=(), /, **kwargs):
        """Set every key of a mapping (or iterable of pairs), then of kwargs; all or nothing."""
        pairs = other.items() if isinstance(other, _abc.Mapping) else other
        converted = []
        for key, value in pairs:
            converted.append((core.CAny(key), core.CAny(value)))
        for key, value in kwargs.items():
            converted.append((core.CAny(key), core.CAny(value)))
        # Everything is converted: setting the items cannot fail halfway.
        setitem = _rt("ffi.DictSetItem")
        for key, value in converted:
            setitem(self, key, value)

    def setdefault(self, key, default=None):
        """The value of key; if absent, insert default and return the value stored."""
        ckey = core.CAny(key)
        value = _rt("ffi.DictGetItemOrMissing")(self, ckey)
        if not _is_missing(value):
            return value
        _rt("ffi.DictSetItem")(self, ckey, default)
        return _rt("ffi.DictGetItem")(self, ckey)

    def clear(self):
        _rt("ffi.DictClear")(self)

    __hash__ = _FFIMapping.__hash__
