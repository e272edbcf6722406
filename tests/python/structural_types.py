"""Python classes of the testing.structural.* IR types (libtvm_ffi_testing), shared by
the structural suites: Var (free variable), Add (tree), DAdd (DAG), Single (unique
instance), Const (const tree), NoKind (unsupported), Hooked (__s_equal__/__s_hash__
on `a` only), Lam (`params` def-pattern) and Let (`var` def-simple)."""

import tvm_ffi
import tvm_ffi.testing
from tvm_ffi import Object, register_object


@register_object("testing.structural.Var")
class Var(Object):
    pass


@register_object("testing.structural.Add")
class Add(Object):
    pass


@register_object("testing.structural.DAdd")
class DAdd(Object):
    pass


@register_object("testing.structural.Single")
class Single(Object):
    pass


@register_object("testing.structural.Const")
class Const(Object):
    pass


@register_object("testing.structural.NoKind")
class NoKind(Object):
    pass


@register_object("testing.structural.Hooked")
class Hooked(Object):
    pass


@register_object("testing.structural.Lam")
class Lam(Object):
    pass


@register_object("testing.structural.Let")
class Let(Object):
    pass


def nest(make, depth):
    """An empty Array wrapped `depth` times by make (e.g. ``lambda v: Array([v])``)."""
    value = tvm_ffi.Array([])
    for _ in range(depth):
        value = make(value)
    return value
