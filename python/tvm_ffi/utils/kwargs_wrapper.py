"""Keyword-argument front ends for functions that take their arguments positionally.

``make_kwargs_wrapper`` generates ``def wrapper(a, b=..., *, c, d=...)`` that forwards every
argument positionally, in declaration order, to the target (an FFI function, say).
"""

import functools
import keyword

from .unpack_dataclass import unpack_dataclass_to_tuple

__all__ = ["make_kwargs_wrapper", "make_kwargs_wrapper_from_signature", "unpack_dataclass_to_tuple"]

_INTERNAL_NAMES = ("__i_target_func", "__i_MISSING", "__i_arg_defaults", "__i_unpack")


def _missing():
    from .. import core

    return core.MISSING


def _check_name(name):
    if not isinstance(name, str):
        raise TypeError("Argument name must be a string, got %s: %r" % (type(name).__name__, name))
    if keyword.iskeyword(name):
        raise ValueError(
            "Invalid argument name: %r is a Python keyword and cannot be used as a parameter name"
            % name
        )
    if not name.isidentifier():
        raise ValueError("Invalid argument name: %r is not a valid Python identifier" % name)


def _validate(arg_names, arg_defaults, kwonly_names, kwonly_defaults):
    for name in list(arg_names) + list(kwonly_names):
        _check_name(name)
    if len(set(arg_names)) != len(arg_names):
        raise ValueError("Duplicate argument names found in: %r" % (list(arg_names),))
    if len(set(kwonly_names)) != len(kwonly_names):
        raise ValueError(
            "Duplicate keyword-only argument names found in: %r" % (list(kwonly_names),)
        )
    if not isinstance(arg_defaults, tuple):
        raise TypeError("arg_defaults must be a tuple, got %s" % type(arg_defaults).__name__)
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
    both = set(arg_names) & set(kwonly_names)
    if both:
        raise ValueError("Arguments cannot be both positional and keyword-only: %r" % (both,))
    clash = (set(arg_names) | set(kwonly_names)) & set(_INTERNAL_NAMES)
    if clash:
        raise ValueError(
            "Argument names conflict with internal names: %r. "
            'Please avoid using names starting with "__i_"' % (clash,)
        )


def _literal(value):
    """The default as source text when it can appear in the signature as is."""
    return repr(value) if value is None or isinstance(value, bool) else None


def make_kwargs_wrapper(
    target_func,
    arg_names,
    arg_defaults=(),
    kwonly_names=None,
    kwonly_defaults=None,
    prototype=None,
    map_dataclass_to_tuple=None,
):
    """A generated ``wrapper(<arg_names>, *, <kwonly_names>)`` calling
    ``target_func(*values_in_declaration_order)``.

    ``arg_defaults`` (a tuple) is right-aligned to ``arg_names``; ``kwonly_defaults`` maps
    keyword-only names to defaults. None and bool defaults show in the signature; other
    defaults show as ``MISSING`` and are filled in at call time. Arguments named in
    ``map_dataclass_to_tuple`` go through ``unpack_dataclass_to_tuple``. ``prototype`` lends
    its name, doc, module, qualname and annotations.
    """
    arg_names = list(arg_names)
    kwonly_names = list(kwonly_names or [])
    kwonly_defaults = dict(kwonly_defaults or {})
    _validate(arg_names, arg_defaults, kwonly_names, kwonly_defaults)
    unpack = set(map_dataclass_to_tuple or [])
    missing = _missing()
    hidden = {}
    params = []
    values = []
    first_default = len(arg_names) - len(arg_defaults)

    def param(name, has_default, default):
        if not has_default:
            return name
        text = _literal(default)
        if text is not None:
            return "%s=%s" % (name, text)
        hidden[name] = default
        return "%s=__i_MISSING" % name

    for i, name in enumerate(arg_names):
        has_default = i >= first_default
        params.append(
            param(name, has_default, arg_defaults[i - first_default] if has_default else None)
        )
    if kwonly_names:
        params.append("*")
        for name in kwonly_names:
            params.append(param(name, name in kwonly_defaults, kwonly_defaults.get(name)))
    body = []
    for name in hidden:
        body.append(
            "    if %s is __i_MISSING:\n        %s = __i_arg_defaults[%r]" % (name, name, name)
        )
    for name in arg_names + kwonly_names:
        values.append("__i_unpack(%s)" % name if name in unpack else name)
    body.append("    return __i_target_func(%s)" % ", ".join(values))
    code = "def wrapper(%s):\n%s\n" % (", ".join(params), "\n".join(body))
    namespace = {
        "__i_target_func": target_func,
        "__i_MISSING": missing,
        "__i_arg_defaults": hidden,
        "__i_unpack": unpack_dataclass_to_tuple,
    }
    exec(compile(code, "<tvm_ffi kwargs wrapper>", "exec"), namespace)
    wrapper = namespace["wrapper"]
    if prototype is not None:
        functools.update_wrapper(wrapper, prototype, updated=())
        del wrapper.__wrapped__  # the wrapper's own signature is the one to show
    return wrapper


def make_kwargs_wrapper_from_signature(
    target_func, signature, prototype=None, exclude_arg_names=None, map_dataclass_to_tuple=None
):
    """``make_kwargs_wrapper`` over the parameters of an ``inspect.Signature``; names in
    ``exclude_arg_names`` (unknown ones included) are dropped. ValueError for ``*args``,
    ``**kwargs`` and a required positional parameter after a defaulted one."""
    import inspect

    exclude = set(exclude_arg_names or [])
    arg_names, arg_defaults, kwonly_names, kwonly_defaults = [], [], [], {}
    for p in signature.parameters.values():
        if p.kind is inspect.Parameter.VAR_POSITIONAL:
            raise ValueError("*args not supported in wrapper generation")
        if p.kind is inspect.Parameter.VAR_KEYWORD:
            raise ValueError("**kwargs not supported in wrapper generation")
        if p.name in exclude:
            continue
        if p.kind is inspect.Parameter.KEYWORD_ONLY:
            kwonly_names.append(p.name)
            if p.default is not inspect.Parameter.empty:
                kwonly_defaults[p.name] = p.default
            continue
        arg_names.append(p.name)
        if p.default is not inspect.Parameter.empty:
            arg_defaults.append(p.default)
        elif arg_defaults:
            raise ValueError(
                "Required positional parameter %r cannot follow parameters with defaults" % p.name
            )
    return make_kwargs_wrapper(
        target_func,
        arg_names,
        tuple(arg_defaults),
        kwonly_names,
        kwonly_defaults,
        prototype,
        map_dataclass_to_tuple,
    )
