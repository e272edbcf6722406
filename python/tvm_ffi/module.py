"""Modules: shared libraries of exported functions, loaded with dlopen ("ABI mode")."""

import os

from . import core
from .core import Object
from .registry import register_object


def _rt(name):
    return core._get_global_func(name, False)


@register_object("ffi.Module")
class Module(Object):
    """A loaded library (or the system library); functions are ``mod["f"]`` or ``mod.f``."""

    # No __slots__: load_module records the path in the instance dict so
    # errors can name the library.
    def _label(self):
        path = self.__dict__.get("_tvm_ffi_path")
        return repr(path) if path is not None else "<%s at 0x%x>" % (self.type_key,
                                                                     self.__chandle__())

    def get_function(self, name, query_imports=True):
        """The Function `name`, or None when the module does not have it."""
        if not isinstance(name, str):
            raise TypeError("function name must be a str, got %s" % type(name).__name__)
        func = _rt("ffi.ModuleGetFunction")(self, name, bool(query_imports))
        if func is not None:
            # Read on first use: with a type schema, arrays passed to TensorView and
            # DLTensor* parameters go as stack DLTensor views (no Tensor object).
            # The Function may outlive this Python object (the library stays loaded),
            # so the source holds the module itself.
            func._set_schema_source(_rt("ffi.ModuleGetFunctionMetadata"), (self, name))
        return func

    def implements_function(self, name):
        """Whether the module itself defines `name` (imports are not searched)."""
        return bool(_rt("ffi.ModuleImplementsFunction")(self, name))

    def get_function_metadata(self, name):
        """The metadata JSON string of `name` (exported with metadata on), or None."""
        return _rt("ffi.ModuleGetFunctionMetadata")(self, name)

    def get_function_doc(self, name):
        """The doc string of `name` (TVM_FFI_DLL_EXPORT_TYPED_FUNC_DOC), or None."""
        return _rt("ffi.ModuleGetFunctionDoc")(self, name)

    def __getitem__(self, name):
        func = self.get_function(name)
        if func is None:
            raise AttributeError("module %s has no function %r" % (self._label(), name))
        return func

    def __getattr__(self, name):
        if name.startswith("__") and name.endswith("__"):
            raise AttributeError(name)
        func = self.get_function(name)
        if func is None:
            raise AttributeError("module %s has no function %r" % (self._label(), name))
        # Cache: later lookups of mod.f skip the native lookup.
        self.__dict__[name] = func
        return func

    def __repr__(self):
        return "Module(%s)" % self._label()


def load_module(path):
    """Load a shared library built against the tvm-ffi headers as a Module."""
    path = os.fspath(path)
    if not os.path.exists(path):
        raise FileNotFoundError("cannot load module %r: no such file" % path)
    mod = _rt("ffi.ModuleLoadFromFile")(path)
    mod.__dict__["_tvm_ffi_path"] = path
    return mod


def system_lib(prefix=None):
    """The Module of functions registered into this process' system library."""
    if prefix is None:
        return _rt("ffi.SystemLib")()
    return _rt("ffi.SystemLib")(prefix)
