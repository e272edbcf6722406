# Containers returned by a call that had a framework's DLPack C exchange API
# (torch arguments) are tagged with that API: their Tensor elements come back
# as the framework's tensors, nested containers are tagged in turn, and a
# tagged container passed to another call gives that call its result API.
# Tags live here, keyed by the wrapper's id and dropped with the wrapper.

import functools as _functools
import weakref as _weakref

# id(container wrapper) -> (address of the exchange API, weak reference to the wrapper)
cdef dict _EXCHANGE_TAGS = {}


def _drop_tag(key, ref):
    entry = _EXCHANGE_TAGS.get(key)
    if entry is not None and entry[1] is ref:
        del _EXCHANGE_TAGS[key]
        TVMFFIPyTagCountAdd(-1)


cdef int tag_container(object obj, const DLPackExchangeAPI* api) except -1:
    key = id(obj)
    if key not in _EXCHANGE_TAGS:
        TVMFFIPyTagCountAdd(1)
    _EXCHANGE_TAGS[key] = (<uintptr_t>api, _weakref.ref(obj, _functools.partial(_drop_tag, key)))
    return 0


cdef const DLPackExchangeAPI* container_tag(object obj) except? NULL:
    """The exchange API obj (a container wrapper) is tagged with, else NULL."""
    if TVMFFIPyTagCount() == 0:
        return NULL
    entry = _EXCHANGE_TAGS.get(id(obj))
    if entry is None or entry[1]() is not obj:
        return NULL
    return <const DLPackExchangeAPI*><uintptr_t>entry[0]


cdef int record_container_tag(object x, ArgStore* store) except -1:
    """A tagged container argument gives the call its result API if none was recorded."""
    cdef const DLPackExchangeAPI* api
    if store.env.result_api == NULL:
        api = container_tag(x)
        if api != NULL:
            store.env.result_api = api
    return 0


cdef object element_to_py(const TVMFFIAny* value, const DLPackExchangeAPI* api):
    """An element read from a container tagged with api (NULL: untagged)."""
    cdef TVMFFIAny owned
    if api == NULL or value.type_index < kTVMFFIStaticObjectBegin:
        return any_view_to_py(value)
    owned = value[0]
    TVMFFIObjectIncRef(owned.v_obj)
    return TVMFFIPyResultToPy(&owned, api)


def _exchange_tag_count():
    """How many tagged container wrappers are alive (for tests)."""
    return TVMFFIPyTagCount()


def _set_exchange_missing_hook(hook):
    """hook(cls) is asked the first time a type without __dlpack_c_exchange_api__ is
    looked up (tvm_ffi_dlpack_exchange.h says what its answers mean); None removes it."""
    TVMFFIPySetExchangeMissingHook(hook)
