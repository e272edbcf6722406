"""The code generators by target name."""

from .python_generator import PythonGenerator
from .rust_generator import RustGenerator

_GENERATORS = {"python": PythonGenerator, "rust": RustGenerator}


def generator_names():
    """Targets this package can generate."""
    return sorted(_GENERATORS)


def get_generator(target):
    """A generator of ``target``; ValueError naming the supported targets otherwise."""
    cls = _GENERATORS.get(target)
    if cls is None:
        raise ValueError(
            "Unsupported stub target `%s`; supported: %s" % (target, ", ".join(generator_names()))
        )
    return cls()
