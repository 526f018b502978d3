"""PyTorch's argument check for the tensor parameters of public functions.

PyTorch's functions are bound through an argument parser: ``torch.exp("a")`` raises
``TypeError: exp(): argument 'input' (position 1) must be Tensor, not str`` before any work is
done. minigrad's functions are plain Python, so without a check a wrong argument fails
somewhere inside (an AttributeError, a numpy error) or, worse, is silently converted.
``check_tensor_parameters`` gives each public function that check, once, where the public
namespaces are assembled
(``minigrad/__init__.py``, ``minigrad/nn/functional.py``, ``minigrad/linalg.py``).

A parameter is a tensor parameter by its PyTorch name (``input``, ``target``, ``mat2``, ...).
One whose default is None may be None (``weight=None``); a few functions also take a number
where PyTorch has a Number overload (``minigrad.pow(2, t)``).
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Iterable
from typing import Any

from minigrad import errors
from minigrad.autograd.variable import TensorBase

# Parameters that PyTorch types as Tensor, by name.
TENSOR_PARAMETERS = frozenset(
    {
        "input", "A", "B", "mat", "mat1", "mat2", "vec", "vec1", "vec2", "target", "weight",
        "bias", "condition", "tensor1", "tensor2", "batch1", "batch2", "x1", "x2",
        "pos_weight", "indices", "index", "mask", "source", "src", "LU", "pivots", "elements",
        "test_elements",
    }
)  # fmt: skip
# Functions whose tensor parameters may also be numbers (PyTorch's Scalar overloads).
NUMBER_OVERLOADS = frozenset(
    {
        "pow", "float_power", "remainder", "xlogy", "where", "bitwise_and", "bitwise_or",
        "bitwise_xor", "lerp", "isin", "special_xlogy", "result_type", "full_like",
    }
)  # fmt: skip
# Functions left unwrapped: their warnings point at the caller's line (``stacklevel``), which
# a wrapper's frame would move into this file. They check their arguments themselves.
CALLER_WARNINGS = frozenset(
    {
        "adjoint", "cholesky", "qr", "randint", "scatter", "std", "tensor", "var",
        "binary_cross_entropy", "binary_cross_entropy_with_logits", "conv1d", "conv2d",
        "cross_entropy", "huber_loss", "kl_div", "l1_loss", "log_softmax", "mse_loss",
        "nll_loss", "smooth_l1_loss", "softmax",
    }
)  # fmt: skip
# The names PyTorch's messages give some functions (the ATen op behind them).
PYTORCH_NAMES = {"unique": "_unique2"}
_NUMBERS = (bool, int, float)


def _tensor_parameters(function: Callable[..., Any]) -> list[tuple[int, str, bool]]:
    """``(position, name, may_be_none)`` of ``function``'s tensor parameters."""
    try:
        parameters = list(inspect.signature(function).parameters.values())
    except (TypeError, ValueError):
        return []
    found = []
    for position, parameter in enumerate(parameters):
        if parameter.kind in (parameter.VAR_POSITIONAL, parameter.VAR_KEYWORD):
            break
        if parameter.name in TENSOR_PARAMETERS:
            found.append((position, parameter.name, parameter.default is None))
    return found


def checking_tensor_arguments(function: Callable[..., Any], name: str) -> Callable[..., Any]:
    """``function`` with PyTorch's TypeError for a non-tensor in a tensor parameter."""
    checks = _tensor_parameters(function)
    if not checks:
        return function
    numbers_allowed = name.removeprefix("linalg_") in NUMBER_OVERLOADS

    @functools.wraps(function)
    def checked(*args: Any, **kwargs: Any) -> Any:
        for position, parameter, may_be_none in checks:
            if position < len(args):
                value = args[position]
                where = f" (position {position + 1})"
            elif parameter in kwargs:
                value = kwargs[parameter]
                where = ""
            else:
                continue
            if isinstance(value, TensorBase) or (value is None and may_be_none):
                continue
            if numbers_allowed and isinstance(value, _NUMBERS):
                continue
            raise TypeError(
                f"{name}(): argument '{parameter}'{where} must be Tensor, not "
                f"{errors.python_type_name(value)}"
            )
        return function(*args, **kwargs)

    return checked


def check_tensor_parameters(
    namespace: dict[str, Any], names: Iterable[str], prefix: str = ""
) -> None:
    """Give each function among ``names`` in ``namespace`` the tensor-argument check.

    ``prefix`` is how PyTorch's messages name the namespace's functions (``linalg_inv()``).
    """
    for name in names:
        value = namespace.get(name)
        if inspect.isfunction(value) and name not in CALLER_WARNINGS:
            message_name = PYTORCH_NAMES.get(name, prefix + name)
            namespace[name] = checking_tensor_arguments(value, message_name)
