"""``nn.Parameter``: a tensor that a ``Module`` registers as one of its parameters."""

from __future__ import annotations

from typing import Any

from minigrad import errors
from minigrad.autograd.tensor_base import TensorBase
from minigrad.creation import empty
from minigrad.tensor import Tensor


class Parameter(Tensor):
    """A leaf tensor that requires grad (by default) and that modules register on assignment.

    ``Parameter(data)`` shares ``data``'s buffer *and* version counter, as PyTorch's does: it is
    ``data.detach()`` turned into a parameter. Results of ops on a parameter are plain tensors.

    Args:
        data: The initial value (default: an empty tensor).
        requires_grad: Whether the parameter requires a gradient (default True).

    Example:
        >>> import minigrad
        >>> from minigrad import nn
        >>> nn.Parameter(minigrad.zeros(2))
        Parameter containing:
        tensor([0., 0.], requires_grad=True)
    """

    def __new__(cls, data: Tensor | None = None, requires_grad: bool = True) -> Parameter:
        """A parameter on ``data``'s buffer and version counter."""
        if data is None:
            data = empty(0)
        if not isinstance(data, TensorBase):  # PyTorch's text: it calls data.detach()
            raise AttributeError(f"'{type(data).__name__}' object has no attribute 'detach'")
        if requires_grad and data._array.dtype.kind != "f":
            raise RuntimeError(errors.ONLY_FLOAT_FACTORY_REQUIRES_GRAD)
        counter = data._version_counter()
        return cls._make(data._array, counter=counter, requires_grad=bool(requires_grad))

    def __repr__(self) -> str:
        return "Parameter containing:\n" + super().__repr__()

    __str__ = __repr__

    def __deepcopy__(self, memo: dict[int, Any]) -> Parameter:
        if id(self) in memo:
            return memo[id(self)]
        result = type(self)(self.data.clone(), self.requires_grad)
        memo[id(self)] = result
        return result
