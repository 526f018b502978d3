"""Views: tensors that share their base's buffer *and* version counter.

A view remembers its base (always a non-view: views of views point to the root) and the chain
of view steps that produces it from the base's buffer. With that chain autograd can

- replay the view on a gradient (CopySlices, in ``inplace.py``), and
- regenerate the view's ``grad_fn`` from its base's history after an in-place write
  (``AsStridedBackward0`` in PyTorch's naming), lazily, when the view is next used.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from minigrad.autograd import grad_mode
from minigrad.autograd.function import NO_GRAD_CTX, Op
from minigrad.autograd.graph import Node
from minigrad.autograd.variable import TensorBase

# One step: (view op, its options, which output for multi-output ops or None).
ViewStep = tuple[type["ViewOp"], tuple[Any, ...], "int | None"]


def replay(steps: tuple[ViewStep, ...], array: Any) -> Any:
    """Apply the view steps to ``array`` (the base's buffer, or a gradient of its shape)."""
    for op, options, index in steps:
        array = op.forward(NO_GRAD_CTX, array, *options)
        if index is not None:
            array = array[index]
    return array


class ViewInfo:
    """What a view knows about itself."""

    __slots__ = ("steps", "synced_version", "created_in_no_grad", "multi_output_name")

    def __init__(
        self,
        steps: tuple[ViewStep, ...],
        version: int,
        created_in_no_grad: bool,
        multi_output_name: str | None,
    ) -> None:
        self.steps = steps
        self.synced_version = version  # the counter's value when grad_fn was last made
        self.created_in_no_grad = created_in_no_grad
        self.multi_output_name = multi_output_name  # "Split" for outputs of split/chunk

    def regenerate(self, base: TensorBase) -> Node | None:
        """A fresh ``grad_fn`` for the view: "take my region of the base's gradient"."""
        if not base.requires_grad:
            return None
        with grad_mode.enable_grad():
            return AsStrided.apply(base, self.steps)._grad_fn


class ViewOp(Op):
    """An op whose outputs are views of its first input (same buffer, same counter).

    ``forward`` must return a numpy view of its input (or a tuple of views, for
    ``multi_output`` ops such as ``split``).
    """

    multi_output: ClassVar[str | None] = None  # the name PyTorch's error uses, e.g. "Split"

    @classmethod
    def apply(cls, x: Any, *options: Any) -> Any:
        """Run the view op and make its outputs views of ``x``'s base."""
        result = super().apply(x, *options)
        if isinstance(result, tuple):
            for index, view in enumerate(result):
                _make_view(view, x, (cls, options, index), cls.multi_output)
        else:
            _make_view(result, x, (cls, options, None), None)
        return result


def _make_view(
    view: TensorBase, source: TensorBase, step: ViewStep | None, multi: str | None
) -> None:
    # ``step`` None: the view is all of ``source`` (an alias), no step to replay.
    view._counter = source._counter
    no_grad = not grad_mode._state.enabled
    new_steps = () if step is None else (step,)
    if source._base is None:
        view._base, steps = source, new_steps
    else:
        view._base, steps = source._base, (*source._view.steps, *new_steps)
        no_grad = no_grad or source._view.created_in_no_grad
        multi = multi or source._view.multi_output_name
    view._view = ViewInfo(steps, view._counter.version, no_grad, multi)


def alias_of(tensor: TensorBase) -> TensorBase:
    """A new tensor that is a view of all of ``tensor`` (same buffer, same counter)."""
    alias = TensorBase.output_class._make(tensor._array)
    _make_view(alias, tensor, None, None)
    return alias


class AsStrided(Op):
    """y = the view's region of the base;  dbase = grad scattered back into that region.

    Saves nothing. Overlapping views (expand) add up their gradient, hence ``np.add.at``.
    """

    node_name = "AsStridedBackward0"

    @staticmethod
    def forward(ctx: Any, base: np.ndarray, steps: tuple[ViewStep, ...]) -> np.ndarray:
        """The view's region of ``base``."""
        ctx.base_shape, ctx.steps = base.shape, steps
        return replay(steps, base)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, None]:
        """The gradient placed back into a base-shaped array."""
        return scatter_into_base(grad, ctx.base_shape, ctx.steps), None


def scatter_into_base(grad: Any, base_shape: tuple[int, ...], steps: tuple[ViewStep, ...]) -> Any:
    """A base-shaped gradient that is ``grad`` inside the view's region and 0 elsewhere."""
    size = int(np.prod(base_shape))
    positions = replay(steps, np.arange(size).reshape(base_shape))
    result = np.zeros(size, dtype=grad.dtype)
    np.add.at(result, positions, grad)
    return result.reshape(base_shape)
