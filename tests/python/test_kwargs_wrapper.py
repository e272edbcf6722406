"""tvm_ffi.utils.kwargs_wrapper: keyword front ends for positional-only functions."""

import dataclasses
import inspect

import pytest
from tvm_ffi.utils.kwargs_wrapper import (
    make_kwargs_wrapper,
    make_kwargs_wrapper_from_signature,
    unpack_dataclass_to_tuple,
)


def _collect(*args):
    return args


def test_positional_and_keyword_arguments_are_forwarded_in_order():
    f = make_kwargs_wrapper(_collect, ["a", "b", "c"], (10,), ["d", "e"], {"e": 5})
    assert f(1, 2, d=4) == (1, 2, 10, 4, 5)
    assert f(1, b=2, c=3, d=4, e=6) == (1, 2, 3, 4, 6)


def test_signature_is_visible_to_inspect():
    f = make_kwargs_wrapper(_collect, ["a", "b"], (1,), ["k"])
    assert str(inspect.signature(f)) == "(a, b=<MISSING>, *, k)"


def test_none_and_bool_defaults_show_literally_in_signature():
    f = make_kwargs_wrapper(_collect, ["a", "b", "c"], (None, True), ["k"], {"k": False})
    assert str(inspect.signature(f)) == "(a, b=None, c=True, *, k=False)"


def test_hidden_defaults_are_filled_at_call_time():
    f = make_kwargs_wrapper(_collect, ["a", "b"], ([1],), ["k"], {"k": "x"})
    assert f(0) == (0, [1], "x")


def test_target_exceptions_propagate_unchanged():
    def boom(*args):
        raise KeyError("inner")

    with pytest.raises(KeyError, match="inner"):
        make_kwargs_wrapper(boom, ["a"])(1)


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda f: f(1), "missing 1 required keyword-only argument: 'd'"),
        (lambda f: f(1, 2, 3, 4, d=1), "positional argument"),
        (lambda f: f(1, d=1, z=3), "unexpected keyword argument 'z'"),
        (lambda f: f(1, a=1, d=3), "multiple values for argument 'a'"),
    ],
)
def test_argument_errors_are_python_type_errors(call, message):
    f = make_kwargs_wrapper(_collect, ["a", "b"], (2,), ["d"])
    with pytest.raises(TypeError, match=message):
        call(f)


@pytest.mark.parametrize(
    "kwargs, message",
    [
        (dict(arg_names=["a", "a"]), "Duplicate argument names"),
        (dict(arg_names=["a"], kwonly_names=["a"]), "both positional and keyword-only"),
        (dict(arg_names=["a"], arg_defaults=(1, 2)), "arg_defaults has 2 values"),
        (
            dict(arg_names=["a"], kwonly_names=["b"], kwonly_defaults={"c": 1}),
            "not in kwonly_names",
        ),
        (dict(arg_names=["1x"]), "not a valid Python identifier"),
        (dict(arg_names=["class"]), "'class' is a Python keyword and cannot be used"),
        (dict(kwonly_names=["k", "k"], arg_names=[]), "Duplicate keyword-only argument names"),
        (dict(arg_names=["__i_unpack"]), 'Please avoid using names starting with "__i_"'),
    ],
)
def test_bad_specifications_raise_value_error(kwargs, message):
    with pytest.raises(ValueError, match=message):
        make_kwargs_wrapper(_collect, **kwargs)


def test_non_string_name_is_a_type_error():
    with pytest.raises(TypeError, match="Argument name must be a string, got int: 123"):
        make_kwargs_wrapper(_collect, [123])


def test_arg_defaults_must_be_a_tuple():
    with pytest.raises(TypeError, match="arg_defaults must be a tuple, got list"):
        make_kwargs_wrapper(_collect, ["a"], [1])


def test_required_after_default_in_signature_is_rejected():
    import inspect as _inspect

    sig = _inspect.Signature(
        [
            _inspect.Parameter("a", _inspect.Parameter.POSITIONAL_ONLY, default=1),
            _inspect.Parameter("b", _inspect.Parameter.POSITIONAL_ONLY),
        ],
        __validate_parameters__=False,
    )
    with pytest.raises(ValueError, match="Required positional parameter 'b' cannot follow"):
        make_kwargs_wrapper_from_signature(_collect, sig)


def test_var_kwargs_are_rejected():
    def proto(x, **kw):
        pass

    with pytest.raises(ValueError, match=r"\*\*kwargs not supported"):
        make_kwargs_wrapper_from_signature(_collect, inspect.signature(proto))


def test_prototype_lends_name_and_doc():
    def proto(x, y=2, *, z=3):
        """The doc."""

    g = make_kwargs_wrapper_from_signature(_collect, inspect.signature(proto), prototype=proto)
    assert g.__name__ == "proto" and g.__doc__ == "The doc."
    assert g(1) == (1, 2, 3) and g(1, z=5) == (1, 2, 5)


def test_excluded_arguments_are_dropped():
    def proto(x, y=2, *, z=3):
        pass

    g = make_kwargs_wrapper_from_signature(
        _collect, inspect.signature(proto), exclude_arg_names=["y"]
    )
    assert g(1) == (1, 3)


def test_var_args_are_rejected():
    def proto(x, *args):
        pass

    with pytest.raises(ValueError, match=r"\*args not supported"):
        make_kwargs_wrapper_from_signature(_collect, inspect.signature(proto))


@dataclasses.dataclass
class Point:
    x: int
    y: int


def test_dataclass_arguments_become_tuples():
    h = make_kwargs_wrapper(_collect, ["p", "q"], map_dataclass_to_tuple=["p"])
    assert h(Point(1, 2), Point(3, 4)) == ((1, 2), Point(3, 4))


def test_unpack_recurses_into_containers():
    assert unpack_dataclass_to_tuple([Point(1, 2), {"k": Point(3, 4)}]) == [(1, 2), {"k": (3, 4)}]
