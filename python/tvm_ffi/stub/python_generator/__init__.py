"""The Python target of the stub generator (``.py``/``.pyi`` files, ``#`` markers)."""

from .generator import PythonGenerator

__all__ = ["PythonGenerator"]
