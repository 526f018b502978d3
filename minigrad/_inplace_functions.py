"""PyTorch's top-level in-place functions: ``minigrad.exp_(x)`` is ``x.exp_()``.

PyTorch binds an in-place op both as a Tensor method and as a function of the ``torch``
namespace; here each function is made from its method, with the method's parameters (``self``
named ``input``, as PyTorch's functions name it) and its docstring's first line.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

from minigrad.tensor import Tensor

# The in-place methods PyTorch also binds as ``torch.<name>``.
NAMES = (
    "abs_", "acos_", "acosh_", "arccos_", "arccosh_", "arcsin_", "arcsinh_", "arctan_",
    "arctanh_", "as_strided_", "asin_", "asinh_", "atan_", "atanh_", "ceil_", "clamp_",
    "clamp_max_", "clamp_min_", "clip_", "cos_", "cosh_", "deg2rad_", "detach_", "erf_",
    "erfc_", "exp2_", "exp_", "expm1_", "fill_", "fix_", "floor_", "frac_", "gcd_",
    "index_put_", "lcm_", "ldexp_", "log10_", "log1p_", "log2_", "log_", "logit_",
    "nan_to_num_", "neg_", "negative_", "rad2deg_", "reciprocal_", "relu_", "resize_as_",
    "round_", "rsqrt_",
    "sigmoid_", "sin_", "sinc_", "sinh_", "sqrt_", "square_", "tan_", "tanh_", "trunc_",
    "xlogy_", "zero_",
)


def _function_of(name: str) -> Callable[..., Any]:
    """``torch.<name>``: the Tensor method ``name`` called on its first argument."""
    method = getattr(Tensor, name)
    signature = inspect.signature(method)
    parameters = list(signature.parameters.values())
    keywords = {parameter.name for parameter in parameters[1:]}

    def function(input: Any, *args: Any, **kwargs: Any) -> Any:
        """``input.<name>(*args, **kwargs)`` (the method's own docstring line is set below)."""
        for key in kwargs:  # (Python's own text for a function of this name: ``out=`` too)
            if key not in keywords:
                raise TypeError(f"{name}() got an unexpected keyword argument '{key}'")
        return method(input, *args, **kwargs)

    parameters[0] = parameters[0].replace(name="input", annotation=Any)
    function.__signature__ = signature.replace(parameters=parameters)  # type: ignore
    function.__name__ = function.__qualname__ = name
    function.__module__ = "minigrad"
    summary = (method.__doc__ or "").strip().splitlines()[0]
    function.__doc__ = f"``input.{name}(...)`` as a function: {summary}"
    return function


FUNCTIONS = {name: _function_of(name) for name in NAMES}
