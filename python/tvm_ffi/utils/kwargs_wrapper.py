"""Keyword-argument front ends for functions that take positional arguments only.

FFI functions are called positionally; ``make_kwargs_wrapper`` generates a plain Python
function with a real signature (defaults, keyword-only parameters) that forwards every
argument positionally, so callers get CPython's own argument errors and ``inspect``
shows the signature.
"""

import keyword

# dataclasses and inspect are imported where used: tvm_ffi.utils is imported by `import tvm_ffi`.

__all__ = ["make_kwargs_wrapper", "make_kwargs_wrapper_from_signature", "unpack_dataclass_to_tuple"]


def unpack_dataclass_to_tuple(value):
    """Dataclass instances become tuples of their fields, recursively (inside lists, tuples
    and dict values too); other values are returned unchanged."""
    import dataclasses

    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return tuple(
            unpack_dataclass_to_tuple(getattr(value, f.name)) for f in dataclasses.fields(value)
        )
    if isinstance(value, list):
        return [unpack_dataclass_to_tuple(v) for v in value]
    if isinstance(value, tuple):
        return tuple(unpack_dataclass_to_tuple(v) for v in value)
    if isinstance(value, dict):
        return {k: unpack_dataclass_to_tuple(v) for k, v in value.items()}
    return value


def _check_names(arg_names, kwonly_names, arg_defaults, kwonly_defaults):
    names = list(arg_names) + list(kwonly_names)
    for name in names:
        if not isinstance(name, str) or not name.isidentifier() or keyword.iskeyword(name):
            raise ValueError("Invalid argument name: %r is not a valid Python identifier" % (name,))
        if name.startswith("_tvm_ffi_kw_"):
            raise ValueError("Invalid argument name: %r is reserved" % (name,))
    if len(set(arg_names)) != len(arg_names) or len(set(kwonly_names)) != len(kwonly_names):
        raise ValueError("Duplicate argument names found in: %r" % (names,))
    both = set(arg_names) & set(kwonly_names)
    if both:
        raise ValueError("Arguments cannot be both positional and keyword-only: %r" % (both,))
    if len(arg_defaults) > len(arg_names):
        raise ValueError(
            "arg_defaults has %d values but only %d positional arguments"
            % (len(arg_defaults), len(arg_names))
        )
    for name in kwonly_defaults:
        if name not in kwonly_names:
            raise ValueError(
                "Default provided for %r which is not in kwonly_names: %r"
                % (name, list(kwonly_names))
            )


def make_kwargs_wrapper(
    target_func,
    arg_names,
    arg_defaults=(),
    kwonly_names=None,
    kwonly_defaults=None,
    prototype=None,
    map_dataclass_to_tuple=None,
):
    """A function ``wrapper(<arg_names>, *, <kwonly_names>)`` calling
    ``target_func(*all_values_in_order)``.

    arg_defaults are right-aligned to arg_names (like ``__defaults__``); kwonly_defaults maps
    keyword-only names to defaults (like ``__kwdefaults__``). prototype, when given, lends its
    ``__name__``, ``__qualname__``, ``__module__``, ``__doc__`` and ``__annotations__``.
    Arguments named in map_dataclass_to_tuple are passed through unpack_dataclass_to_tuple.
    Bad names or defaults raise ValueError.
    """
    arg_names = list(arg_names)
    kwonly_names = list(kwonly_names or [])
    kwonly_defaults = dict(kwonly_defaults or {})
    arg_defaults = tuple(arg_defaults)
    unpack = set(map_dataclass_to_tuple or [])
    _check_names(arg_names, kwonly_names, arg_defaults, kwonly_defaults)
    for name in unpack:
        if name not in arg_names and name not in kwonly_names:
            raise ValueError("map_dataclass_to_tuple names unknown argument %r" % (name,))
    namespace = {"_tvm_ffi_kw_target": target_func, "_tvm_ffi_kw_unpack": unpack_dataclass_to_tuple}
    params = []
    first_default = len(arg_names) - len(arg_defaults)
    for i, name in enumerate(arg_names):
        if i >= first_default:
            namespace["_tvm_ffi_kw_d%d" % i] = arg_defaults[i - first_default]
            params.append("%s=_tvm_ffi_kw_d%d" % (name, i))
        else:
            params.append(name)
    if kwonly_names:
        params.append("*")
        for j, name in enumerate(kwonly_names):
            if name in kwonly_defaults:
                namespace["_tvm_ffi_kw_k%d" % j] = kwonly_defaults[name]
                params.append("%s=_tvm_ffi_kw_k%d" % (name, j))
            else:
                params.append(name)
    values = ["_tvm_ffi_kw_unpack(%s)" % n if n in unpack else n for n in arg_names + kwonly_names]
    code = "def wrapper(%s):\n    return _tvm_ffi_kw_target(%s)\n" % (
        ", ".join(params),
        ", ".join(values),
    )
    exec(compile(code, "<tvm_ffi kwargs wrapper>", "exec"), namespace)
    wrapper = namespace["wrapper"]
    if prototype is not None:
        for attr in ("__name__", "__qualname__", "__module__", "__doc__"):
            if hasattr(prototype, attr):
                setattr(wrapper, attr, getattr(prototype, attr))
        wrapper.__annotations__ = dict(getattr(prototype, "__annotations__", {}))
    return wrapper


def make_kwargs_wrapper_from_signature(
    target_func, signature, prototype=None, exclude_arg_names=None, map_dataclass_to_tuple=None
):
    """make_kwargs_wrapper for the parameters of an ``inspect.Signature``.

    Parameters in exclude_arg_names are left out of the wrapper and are not passed on.
    ``*args`` and ``**kwargs`` parameters raise ValueError.
    """
    import inspect

    exclude = set(exclude_arg_names or [])
    arg_names, arg_defaults, kwonly_names, kwonly_defaults = [], [], [], {}
    for param in signature.parameters.values():
        if param.kind is inspect.Parameter.VAR_POSITIONAL:
            raise ValueError("*args not supported in wrapper generation")
        if param.kind is inspect.Parameter.VAR_KEYWORD:
            raise ValueError("**kwargs not supported in wrapper generation")
        if param.name in exclude:
            continue
        if param.kind is inspect.Parameter.KEYWORD_ONLY:
            kwonly_names.append(param.name)
            if param.default is not inspect.Parameter.empty:
                kwonly_defaults[param.name] = param.default
        else:
            arg_names.append(param.name)
            if param.default is not inspect.Parameter.empty:
                arg_defaults.append(param.default)
            elif arg_defaults:
                raise ValueError("non-default argument %r follows default argument" % param.name)
    return make_kwargs_wrapper(
        target_func,
        arg_names,
        tuple(arg_defaults),
        kwonly_names,
        kwonly_defaults,
        prototype,
        map_dataclass_to_tuple,
    )
