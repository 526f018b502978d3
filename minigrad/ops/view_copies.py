"""The ``*_copy`` functions: each view op's result as a new tensor that shares no memory.

``minigrad.permute_copy(x, dims)`` is ``x.permute(dims)`` copied into a fresh row-major
tensor; all seventeen follow that one rule, so they are made from one table (``VIEWS``: the
function's name and the view it copies, with PyTorch's parameter names). The copy is recorded
as a node named after the view's node plus ``_copy`` (``PermuteBackward0_copy``, as PyTorch
names it) whose gradient passes through unchanged to the view's own node.

Where PyTorch differs: its copy is one node (with the view's saved options, here on the view's
node below it), and its ``detach_copy`` returns a tensor that requires grad with a
NotImplemented backward, where minigrad's is a plain detached copy.

Example:
    >>> import minigrad
    >>> x = minigrad.arange(6.0).view(2, 3).requires_grad_()
    >>> y = minigrad.permute_copy(x, (1, 0))
    >>> y.grad_fn.name(), y.is_contiguous()
    ('PermuteBackward0_copy', True)
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

import numpy as np

from minigrad import _arguments
from minigrad.autograd.function import Op
from minigrad.ops import as_strided, splitting, unfold, views


class ViewCopy(Op):
    """y = a row-major copy of x, the result of a view op;  dx = grad.  Saves nothing.

    Subclassed once per view node name (``copy_node``): only the node's name differs.
    """

    @staticmethod
    def forward(ctx: Any, x: np.ndarray) -> np.ndarray:
        return np.array(x, order="C", copy=True)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> Any:
        return grad


_NODES: dict[str, type[ViewCopy]] = {}


def copy_node(view_node: str) -> type[ViewCopy]:
    """The ViewCopy class whose node is named ``<view_node>_copy`` (made once per name)."""
    if view_node not in _NODES:
        name = view_node.replace("::", "_") + "Copy"
        _NODES[view_node] = type(name, (ViewCopy,), {"node_name": f"{view_node}_copy"})
    return _NODES[view_node]


def copied(view: Any) -> Any:
    """A view (or a tuple of views) as new tensors, each recorded as its view's ``_copy``."""
    if isinstance(view, tuple):
        return tuple(copied(v) for v in view)
    node = view.grad_fn
    return copy_node("" if node is None else node.name()).apply(view)


def _slice(input: Any, dim: int, start: Any, end: Any, step: Any) -> Any:
    """slice_copy's view, ``input[start:end:step]`` along ``dim``, its ints unpacked first.

    (PyTorch's parser refuses an int no int64 holds before the op looks at any.)
    """
    _arguments.check_int64_arguments(dim, start, end, step)
    return views.slice_dim(input, dim, start, end, step)


# name: the view it copies, as a function with PyTorch's parameter names
VIEWS: dict[str, Callable[..., Any]] = {
    "alias_copy": lambda input: views.alias(input),
    "as_strided_copy": lambda input, size, stride, storage_offset=None: (
        as_strided.as_strided_copy_view(input, size, stride, storage_offset)
    ),
    "diagonal_copy": lambda input, offset=0, dim1=0, dim2=1: views.diagonal(
        input, offset, dim1, dim2
    ),
    "expand_copy": lambda input, size, *, implicit=False: views.expand(input, size),
    "permute_copy": lambda input, dims: views.permute(input, dims),
    "select_copy": lambda input, dim, index: views.select(input, dim, index),
    "slice_copy": lambda input, dim=0, start=None, end=None, step=1: _slice(
        input, dim, start, end, step
    ),
    "split_copy": lambda input, split_size, dim=0: splitting.split(input, split_size, dim),
    "split_with_sizes_copy": lambda input, split_sizes, dim=0: splitting.split_with_sizes(
        input, split_sizes, dim
    ),
    "squeeze_copy": lambda input, dim=_arguments.NOT_GIVEN: views.squeeze(input, dim),
    "t_copy": lambda input: views.t(input),
    "transpose_copy": lambda input, dim0, dim1: views.transpose(input, dim0, dim1),
    "unbind_copy": lambda input, dim=0: splitting.unbind(input, dim),
    "unfold_copy": lambda input, dimension, size, step: unfold.unfold(input, dimension, size, step),
    "unsqueeze_copy": lambda input, dim: views.unsqueeze(input, dim),
    "view_copy": lambda input, size: input.view(size),
}


def _copy_function(name: str, view: Callable[..., Any]) -> Callable[..., Any]:
    """``name``: ``view``'s result copied (``copied``), with ``view``'s parameters."""

    def function(*args: Any, **kwargs: Any) -> Any:
        return copied(view(*args, **kwargs))

    function.__signature__ = inspect.signature(view)  # type: ignore[attr-defined]
    function.__name__ = function.__qualname__ = name
    function.__module__ = __name__
    base = name.removesuffix("_copy")
    function.__doc__ = (
        f"``input.{base}(...)`` copied into a new tensor that shares no memory with ``input``.\n\n"
        f"Its node is the view's, named with ``_copy`` (see ``minigrad.ops.view_copies``)."
    )
    return function


FUNCTIONS = {name: _copy_function(name, view) for name, view in VIEWS.items()}


def detach_copy(input: Any) -> Any:
    """``input.detach()`` copied into a new tensor (PyTorch's requires grad, NotImplemented).

    Example:
        >>> import minigrad
        >>> minigrad.detach_copy(minigrad.ones(2, requires_grad=True))
        tensor([1., 1.])
    """
    return input.detach().clone()
