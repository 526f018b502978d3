"""``parameters_to_vector`` and ``vector_to_parameters``: all parameters as one flat vector."""

from __future__ import annotations

from collections.abc import Iterable

from minigrad.autograd.variable import TensorBase
from minigrad.nn.modules.utils import typename
from minigrad.ops.shape import (
    cat,
)
from minigrad.tensor import Tensor

__all__ = ["parameters_to_vector", "vector_to_parameters"]


def parameters_to_vector(parameters: Iterable[Tensor]) -> Tensor:
    """Concatenate the flattened parameters (differentiable: ``cat`` of ``view(-1)``s).

    Example:
        >>> from minigrad import nn
        >>> nn.utils.parameters_to_vector(nn.Linear(3, 2).parameters()).shape
        minigrad.Size([8])
    """
    return cat([param.view(-1) for param in parameters])


def vector_to_parameters(vec: Tensor, parameters: Iterable[Tensor]) -> None:
    """Make the parameters use consecutive slices of ``vec`` as their data (``param.data = ..``).

    Example:
        >>> import minigrad
        >>> from minigrad import nn
        >>> layer = nn.Linear(1, 1)
        >>> nn.utils.vector_to_parameters(minigrad.tensor([2.0, 3.0]), layer.parameters())
        >>> layer.weight.data, layer.bias.data
        (tensor([[2.]]), tensor([3.]))
    """
    if not isinstance(vec, TensorBase):
        raise TypeError(f"expected minigrad.Tensor, but got: {typename(vec)}")
    pointer = 0
    for param in parameters:
        count = param.numel()
        param.data = vec[pointer:pointer + count].view_as(param).data
        pointer += count
