"""The ``*_copy`` functions: each view op's result as a new tensor that shares no memory.

``minigrad.permute_copy(x, dims)`` is ``x.permute(dims)`` copied into a fresh row-major
tensor; all seventeen follow that one rule, so they are made from one table (``VIEWS``: the
function's name and the view it copies, with PyTorch's parameter names).

The copy is ONE node, as in PyTorch: the view op's own declaration with a copying forward
(``copy_op``). Its name is the view's node name plus ``_copy`` (``PermuteBackward0_copy``), it
keeps the view's options under the view's names (``_saved_dims``) and its backward *is* the
view's backward. To learn which view op a call makes, and with which checked options, the
function first makes the view under ``no_grad`` (no node) and reads its last view step.

``detach_copy`` mirrors PyTorch 2.13 too: its result requires grad (if the input does) with a
``NotImplemented`` node whose backward raises "derivative for aten::detach_copy is not
implemented".

Example:
    >>> import minigrad
    >>> x = minigrad.arange(6.0).view(2, 3).requires_grad_()
    >>> y = minigrad.permute_copy(x, (1, 0))
    >>> y.grad_fn.name(), y.grad_fn._saved_dims, y.is_contiguous(), y._base is None
    ('PermuteBackward0_copy', (1, 0), True, True)
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from typing import Any

import numpy as np

from minigrad import _arguments
from minigrad.autograd import grad_mode
from minigrad.autograd.function import Op
from minigrad.autograd.views import VIEW_OPS, ViewOp
from minigrad.ops import as_strided, splitting, unfold, views
from minigrad.ops._helpers import NoDerivativeOf, operand


def _fresh(array: np.ndarray) -> np.ndarray:
    """A row-major copy of ``array`` (PyTorch's ``*_copy`` results are contiguous)."""
    return np.array(array, order="C", copy=True)


_COPIES: dict[type[ViewOp], type[Op]] = {}
# View ops whose copy takes any layout: PyTorch's ``view_copy`` views a contiguous copy of a
# tensor ``view`` itself refuses (as ``reshape`` would), so its copy forward does too.
_OF_A_CONTIGUOUS_INPUT = (views.View,)


def copy_op(view_op: type[ViewOp]) -> type[Op]:
    """The op ``<view>_copy``: ``view_op``'s declaration whose forward copies (made once).

    y = a fresh copy of ``view_op``'s view of x;  dx = ``view_op``'s backward (the same
    function, not a second formula). It keeps the view's fields and shows its saved options
    under the same names; like the view, it saves no tensor. Its node is named
    ``<view node>_copy`` (PyTorch's ``TBackward0_copy``).
    """
    if view_op not in _COPIES:
        view_forward = view_op.forward
        contiguous_first = view_op in _OF_A_CONTIGUOUS_INPUT

        @functools.wraps(view_forward)  # (its signature: options with defaults stay as given)
        def forward(ctx: Any, x: np.ndarray, *options: Any) -> Any:
            raw = view_forward(ctx, np.ascontiguousarray(x) if contiguous_first else x, *options)
            return tuple(map(_fresh, raw)) if type(raw) is tuple else _fresh(raw)

        # (the fields of the view op and of the classes it derives from, as Function reads them)
        fields = tuple(
            dict.fromkeys(
                field
                for klass in reversed(view_op.__mro__)
                for field in klass.__dict__.get("fields", ())
            )
        )
        namespace = {
            "__doc__": f"y = a copy of {view_op.__name__}'s view;  dx = its backward.",
            "__module__": __name__,
            "node_name": view_op._Node._name + "_copy",
            "fields": fields,
            "saves": view_op.saves,
            "saved_options": view_op.saved_options,
            "forward": staticmethod(forward),
            "backward": staticmethod(view_op.backward),
        }
        _COPIES[view_op] = type(f"{view_op.__name__}Copy", (Op,), namespace)
    return _COPIES[view_op]


def copied(input: Any, view: Any) -> Any:
    """``view`` (one view of ``input``, or a tuple of them) as the result of its copy op.

    ``view`` was made under ``no_grad``: its last view step names the view op and the options
    it was called with, which its copy op runs again on ``input`` (recording one node). A view
    that is no autograd view (``view(dtype)`` to another kind) is copied as it is.
    """
    first = view[0] if isinstance(view, tuple) else view
    if first._base is None:  # (``view(dtype)`` to another kind: nothing to differentiate)
        return first.clone()
    number, options, _ = first._view.steps[-1]  # (a step names its op by number)
    return copy_op(VIEW_OPS[number]).apply(input, *options)


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
    # (any layout: see _OF_A_CONTIGUOUS_INPUT; only the options of this view are read)
    "view_copy": lambda input, size: input.contiguous().view(size),
}


def _copy_function(name: str, view: Callable[..., Any]) -> Callable[..., Any]:
    """``name``: ``view``'s result copied (``copied``), with ``view``'s parameters."""

    def function(*args: Any, **kwargs: Any) -> Any:
        with grad_mode.no_grad():  # (the view only names its op and options: no node)
            result = view(*args, **kwargs)
        return copied(args[0] if args else kwargs["input"], result)

    function.__signature__ = inspect.signature(view)  # type: ignore[attr-defined]
    function.__name__ = function.__qualname__ = name
    function.__module__ = __name__
    base = name.removesuffix("_copy")
    function.__doc__ = (
        f"``input.{base}(...)`` copied into a new tensor that shares no memory with ``input``.\n\n"
        f"Its one node is the view's op named with ``_copy`` (see ``minigrad.ops.view_copies``)."
    )
    return function


FUNCTIONS = {name: _copy_function(name, view) for name, view in VIEWS.items()}


def detach_copy(input: Any) -> Any:
    """``input.detach()`` copied into a new tensor.

    As in PyTorch 2.13 the copy of a tensor that requires grad requires grad too, with a
    ``NotImplemented`` node: backward through it raises.

    Example:
        >>> import minigrad
        >>> minigrad.detach_copy(minigrad.ones(2, requires_grad=True))
        tensor([1., 1.], grad_fn=<NotImplemented>)
    """
    # (PyTorch 2.13 has no derivative formula for it: its node raises when backward reaches it)
    return NoDerivativeOf.apply(input, _fresh(operand(input)), "aten::detach_copy")
