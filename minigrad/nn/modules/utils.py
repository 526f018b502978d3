"""Small helpers shared by the modules: PyTorch's ``typename`` and the n-tuple converters."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from minigrad.autograd.tensor_base import TensorBase


def typename(obj: Any) -> str:
    """The type name PyTorch's messages use.

    ``minigrad.FloatTensor`` for a float tensor, ``int`` for builtins, ``package.module.Class``
    for other objects.

    Example:
        >>> import minigrad
        >>> typename(minigrad.zeros(1)), typename(3)
        ('minigrad.FloatTensor', 'int')
    """
    if isinstance(obj, TensorBase):
        return obj._type_name()
    module = getattr(obj, "__module__", "") or ""
    if hasattr(obj, "__qualname__"):
        qualname = obj.__qualname__
    elif hasattr(obj, "__name__"):
        qualname = obj.__name__
    else:
        module = type(obj).__module__ or ""
        qualname = type(obj).__qualname__
    return qualname if module in ("", "builtins") else f"{module}.{qualname}"


def ntuple(value: Any, n: int) -> tuple[Any, ...]:
    """``value`` as an ``n``-tuple: an iterable is kept as a tuple, a number is repeated.

    Example:
        >>> ntuple(3, 2), ntuple((1, 2), 2)
        ((3, 3), (1, 2))
    """
    if isinstance(value, Iterable) and not isinstance(value, str):
        return tuple(value)
    return (value,) * n


def reset_grad(param: Any, set_to_none: bool) -> None:
    """``zero_grad`` for one tensor: drop its gradient, or zero it in place (detached)."""
    if param.grad is None:
        return
    if set_to_none:
        param.grad = None
        return
    if param.grad.grad_fn is not None:
        param.grad.detach_()
    else:
        param.grad.requires_grad_(False)
    param.grad.zero_()


def check_device(device: Any) -> None:
    """Accept PyTorch's ``device=`` argument when it names the CPU (minigrad's only device)."""
    if device is not None and str(device) != "cpu":
        raise RuntimeError(f"minigrad runs on the CPU only, not on device {device!r}")
