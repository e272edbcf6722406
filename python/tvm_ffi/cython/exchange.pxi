# Containers returned by a call that had a framework's DLPack C exchange API
# (torch arguments) are tagged with that API: their Tensor elements come back
# as the framework's tensors, nested containers are tagged in turn, and a
# tagged container passed to another call gives that call its result API.
# The tag is a field of the wrapper (CContainerBase), so it dies with it; the
# count of tagged wrappers alive lets every other call skip the tag lookups.


cdef class CContainerBase(Object):
    """Common base of Array, List, Map and Dict: holds the exchange-API tag."""
    # The exchange API this wrapper is tagged with (NULL: untagged).
    cdef const DLPackExchangeAPI* exchange_api

    def __dealloc__(self):
        if self.exchange_api != NULL:
            TVMFFIPyTagCountAdd(-1)


cdef int tag_container(object obj, const DLPackExchangeAPI* api) except -1:
    cdef CContainerBase container
    if not isinstance(obj, CContainerBase):
        # A class registered for a container type outside CContainerBase: its
        # elements read as tvm_ffi values, untagged.
        return 0
    container = <CContainerBase>obj
    if container.exchange_api == NULL:
        TVMFFIPyTagCountAdd(1)
    container.exchange_api = api
    return 0


cdef const DLPackExchangeAPI* container_tag(object obj) noexcept:
    """The exchange API obj (a container wrapper) is tagged with, else NULL."""
    if TVMFFIPyTagCount() == 0 or not isinstance(obj, CContainerBase):
        return NULL
    return (<CContainerBase>obj).exchange_api


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
