"""Modules: shared libraries of exported functions, loaded with dlopen ("ABI mode")."""

import json
import os
from enum import IntEnum

from . import core
from .core import Object
from .registry import register_object

__all__ = ["Module", "ModulePropertyMask", "load_module", "system_lib"]


def _rt(name):
    return core._get_global_func(name, False)


class ModulePropertyMask(IntEnum):
    """Bits of :meth:`Module.get_property_mask`."""

    BINARY_SERIALIZABLE = 0b001
    RUNNABLE = 0b010
    COMPILATION_EXPORTABLE = 0b100


@register_object("ffi.Module")
class Module(Object):
    """A loaded library (or the system library); functions are ``mod["f"]`` or ``mod.f``.

    ``mod(*args)`` calls the entry function (``entry_name``, "main").
    """

    # __dict__: mod.f caches the looked-up Function as an instance attribute.
    __slots__ = ("__dict__",)

    entry_name = "main"

    @property
    def kind(self):
        """The module kind, e.g. ``"library"`` (also for :func:`system_lib`)."""
        return _rt("ffi.ModuleGetKind")(self)

    @property
    def imports(self):
        """The imported modules (an Array of Module)."""
        return _rt("ffi.ModuleGetImports")(self)

    @property
    def imports_(self):
        """Same as :attr:`imports` (the field's name in C++)."""
        return self.imports

    def get_function(self, name, query_imports=False):
        """The Function `name`; with `query_imports`, imported modules are searched too.

        Raises AttributeError when the module does not have it.
        """
        if not isinstance(name, str):
            raise TypeError("function name must be a str, got %s" % type(name).__name__)
        func = _rt("ffi.ModuleGetFunction")(self, name, bool(query_imports))
        if func is None:
            raise AttributeError("Module has no function '%s'" % name)
        # Read on first use: with a type schema, arrays passed to TensorView and
        # DLTensor* parameters go as stack DLTensor views (no Tensor object).
        # The Function may outlive this Python object (the library stays loaded),
        # so the source holds the module, through a wrapper of its own: holding self
        # would make a cycle with the cache of mod.f (self.__dict__), and `del mod`
        # would then leave the library loaded until the garbage collector ran.
        func._set_schema_source(
            _rt("ffi.ModuleGetFunctionMetadata"),
            (core._another_wrapper(self), name, bool(query_imports)),
        )
        return func

    def implements_function(self, name, query_imports=False):
        """Whether the module (or, with `query_imports`, an import) defines `name`."""
        return bool(_rt("ffi.ModuleImplementsFunction")(self, name, bool(query_imports)))

    def get_function_metadata(self, name, query_imports=False):
        """The metadata of `name` as a dict (parsed JSON), or None when it has none."""
        text = _rt("ffi.ModuleGetFunctionMetadata")(self, name, bool(query_imports))
        if text is None:
            return None
        return json.loads(text)

    def get_function_doc(self, name, query_imports=False):
        """The doc string of `name`, or None when it has none (or it is empty)."""
        doc = _rt("ffi.ModuleGetFunctionDoc")(self, name, bool(query_imports))
        return doc if doc else None

    def import_module(self, module):
        """Add `module` to the imports (RuntimeError on a cyclic import)."""
        _rt("ffi.ModuleImportModule")(self, module)

    def clear_imports(self):
        """Remove every import."""
        _rt("ffi.ModuleClearImports")(self)

    def inspect_source(self, fmt=""):
        """The module's source in format `fmt` ("" for compiled libraries)."""
        return _rt("ffi.ModuleInspectSource")(self, fmt)

    def get_write_formats(self):
        """The formats :meth:`write_to_file` accepts."""
        return _rt("ffi.ModuleGetWriteFormats")(self)

    def get_property_mask(self):
        """The property bits of the module (see :class:`ModulePropertyMask`)."""
        return int(_rt("ffi.ModuleGetPropertyMask")(self))

    def is_binary_serializable(self):
        """Whether the module can be saved to bytes and loaded back."""
        return bool(self.get_property_mask() & ModulePropertyMask.BINARY_SERIALIZABLE)

    def is_runnable(self):
        """Whether the module's functions can run in this process."""
        return bool(self.get_property_mask() & ModulePropertyMask.RUNNABLE)

    def is_compilation_exportable(self):
        """Whether :meth:`write_to_file` produces something a compiler can link."""
        return bool(self.get_property_mask() & ModulePropertyMask.COMPILATION_EXPORTABLE)

    def write_to_file(self, file_name, fmt=""):
        """Write the module to `file_name` in format `fmt`."""
        _rt("ffi.ModuleWriteToFile")(self, os.fspath(file_name), fmt)

    def __getitem__(self, name):
        if not isinstance(name, str):
            raise ValueError("Can only take string as function name")
        return self.get_function(name)

    def __getattr__(self, name):
        if name.startswith("__") and name.endswith("__"):
            raise AttributeError(name)
        func = self.get_function(name)
        # Cache: later lookups of mod.f skip the native lookup.
        self.__dict__[name] = func
        return func

    def __call__(self, *args):
        return self.get_function(self.entry_name)(*args)

    def __repr__(self):
        return "ffi.Module(imports_=%r)" % (tuple(self.imports),)


def load_module(path, keep_module_alive=True):
    """Load a module from `path` (str or os.PathLike) with the loader of its extension.

    With `keep_module_alive` the module is also kept for the rest of the process,
    so objects its functions return never outlive its code.
    """
    path = os.fspath(path)
    mod = _rt("ffi.ModuleLoadFromFile")(path)
    if keep_module_alive:
        _rt("ffi.ModuleGlobalsAdd")(mod)
    return mod


def system_lib(symbol_prefix=""):
    """The Module of functions registered into this process' system library.

    A lookup of `name` tries ``symbol_prefix + name`` first, then `name`.
    """
    return _rt("ffi.SystemLib")(symbol_prefix)
