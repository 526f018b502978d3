"""Padding by the input's own values: reflect, replicate and circular (``F.pad``'s other modes).

Each mode pads the last 1, 2 or 3 dims of an input that has one or two dims more (channels, or
batch and channels). An output position ``j`` of a padded dim of size ``n`` with left pad ``l``
reads the input at ``k = j - l`` brought back into range:

- reflect: mirrored at the edges without repeating them (``-1 -> 1``, ``n -> n - 2``);
- replicate: clamped to the edge (``-1 -> 0``, ``n -> n - 1``);
- circular: wrapped around (``-1 -> n - 1``, ``n -> 0``).

Reflect and replicate are one op each (``ReflectionPad2DBackward0`` ...): a gather through one
index map per dim (``ops/taps.py``), whose gradient adds each output's gradient back into the
input position it read. Circular is composite in PyTorch (a new tensor filled by copies of
slices: its graph is ``CopySlices`` nodes), and so it is here.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

import numpy as np

from minigrad import errors
from minigrad._layout import contiguous_result, suggested_result
from minigrad.autograd.function import Op
from minigrad.autograd.saved_attributes import as_given
from minigrad.autograd.tensor_base import TensorBase
from minigrad.ops._helpers import dtype_name, operand, run
from minigrad.ops.fill import copy_
from minigrad.ops.taps import Plan, gather, scatter
from minigrad.ops.views import slice_dim


def _reflected(k: np.ndarray, n: int) -> np.ndarray:
    """Positions mirrored into ``[0, n)`` at the edges, which are not repeated."""
    k = np.abs(k)
    return np.where(k < n, k, 2 * (n - 1) - k)


def _replicated(k: np.ndarray, n: int) -> np.ndarray:
    """Positions clamped into ``[0, n)``: the edges repeat."""
    return np.clip(k, 0, n - 1)


def _plan(
    shape: tuple[int, ...], pad: tuple[int, ...], fold: Callable[[np.ndarray, int], np.ndarray]
) -> Plan:
    """Per padded dim (last first, as ``pad`` lists them): the input position of each output."""
    plan = []
    for i in range(len(pad) // 2):
        axis = len(shape) - 1 - i
        left, right = pad[2 * i], pad[2 * i + 1]
        k = np.arange(shape[axis] + left + right) - left
        plan.append((axis, [(fold(k, shape[axis]), None)]))
    return plan


class IndexPad(Op):
    """y = x read through one index map per padded dim;  dx = grad added back where it was read.

    Saves its input (PyTorch's ``_saved_self``) and the padding. A subclass per mode and number
    of padded dims gives PyTorch's node name; ``fold`` is the mode's rule.
    """

    result_layout = staticmethod(suggested_result)  # (the input's suggested memory format)
    saves = ("self",)
    fields = ("padding",)
    saved_options = {"padding": as_given("padding")}  # (-1 as PyTorch shows an int64)

    fold: ClassVar[Callable[[np.ndarray, int], np.ndarray]]
    gradient: ClassVar[type[Op]]  # the backward as an op of its own (for create_graph)

    @classmethod
    def forward(cls, ctx: Any, x: np.ndarray, padding: tuple[int, ...]) -> np.ndarray:
        ctx.save_for_backward(x)
        ctx.padding = padding
        return gather(x, _plan(x.shape, padding, cls.fold))

    @classmethod
    def backward(cls, ctx: Any, grad: Any) -> tuple[Any, None]:
        (x,) = ctx.saved_tensors
        return run(cls.gradient, grad, x, ctx.padding), None


class IndexPadBackward(Op):
    """The backward of a reflect/replicate pad: each gradient added to the position it read.

    Linear in ``grad``: its gradient is the pad itself applied to ``gg``. Its second input is
    the padded tensor, for its shape only (PyTorch's ``self``, whose gradient is zeros): so the
    node is recorded whenever that input requires grad, as PyTorch's. Saves nothing.
    """

    result_layout = staticmethod(contiguous_result)
    num_inputs = 2
    fields = ("padding",)
    saved_options = {"padding": as_given("padding")}  # (-1 as PyTorch shows an int64)

    pad_op: ClassVar[type[IndexPad]]

    @classmethod
    def forward(
        cls, ctx: Any, grad: np.ndarray, x: np.ndarray, padding: tuple[int, ...]
    ) -> np.ndarray:
        ctx.padding = padding
        return scatter(grad, x.shape, _plan(x.shape, padding, cls.pad_op.fold))

    @classmethod
    def backward(cls, ctx: Any, gg: Any) -> tuple[Any, Any, None]:
        return run(cls.pad_op, gg, ctx.padding), None, None


def _pair(name: str, dims: int, fold: Callable[[np.ndarray, int], np.ndarray]) -> type[IndexPad]:
    """The pad op of one mode and number of dims, and its backward op, named as PyTorch's."""
    pad_op = type(
        f"{name}{dims}D",
        (IndexPad,),
        {
            "__doc__": f"{name} of the last {dims} dim(s) (node ``{name}{dims}DBackward0``).",
            "__module__": __name__,
            "fold": staticmethod(fold),
        },
    )
    pad_op.gradient = type(
        f"{name}{dims}DBackward",
        (IndexPadBackward,),
        {
            "__doc__": f"The backward of ``{name}{dims}D`` as an op.",
            "__module__": __name__,
            "pad_op": pad_op,
        },
    )
    return pad_op


PAD_OPS: dict[str, tuple[type[IndexPad], ...]] = {
    "reflect": tuple(_pair("ReflectionPad", d, _reflected) for d in (1, 2, 3)),
    "replicate": tuple(_pair("ReplicationPad", d, _replicated) for d in (1, 2, 3)),
}
_KERNELS = {"reflect": "reflection_pad", "replicate": "replication_pad"}


def _check_dims(shape: tuple[int, ...], dims: int) -> None:
    """Only the batch dim (of a batched input) may be empty."""
    first = 1 if len(shape) == dims + 2 else 0
    if any(n == 0 for n in shape[first:]):
        raise RuntimeError(
            f"Expected {dims + 1}D or {dims + 2}D (batch mode) tensor with possibly 0 batch size "
            f"and other non-zero dimensions for input, but got: {errors.format_size(shape)}"
        )


def _check_output(shape: tuple[int, ...], pad: tuple[int, ...]) -> None:
    """A 1-d pad must leave one position; any pad must not leave a negative size."""
    out = list(shape)
    for i in range(len(pad) // 2):
        out[-1 - i] += pad[2 * i] + pad[2 * i + 1]
    if len(pad) == 2 and out[-1] < 1:
        raise RuntimeError(f"input (W: {shape[-1]}) is too small. Calculated output W: {out[-1]}")
    for n in out:
        if n < 0:
            raise RuntimeError(
                f"Trying to create tensor with negative dimension {n}: {errors.format_size(out)}"
            )


def index_pad(input: Any, pad: tuple[int, ...], mode: str) -> Any:
    """``input`` padded by reflection or replication (pad length and dims checked by ``pad``)."""
    shape = operand(input).shape
    dims = len(pad) // 2
    _check_dims(shape, dims)
    if mode == "reflect":
        for i in range(dims):
            left, right = pad[2 * i], pad[2 * i + 1]
            if left >= shape[-1 - i] or right >= shape[-1 - i]:
                raise RuntimeError(
                    f"Argument #{4 + 2 * i}: Padding size should be less than the corresponding "
                    f"input dimension, but got: padding ({left}, {right}) at dimension "
                    f"{len(shape) - 1 - i} of input {errors.format_size(shape)}"
                )
    _check_output(shape, pad)
    if operand(input).dtype == np.bool_:
        raise NotImplementedError(
            errors.not_implemented_for(f"{_KERNELS[mode]}{dims}d", dtype_name(input))
        )
    return PAD_OPS[mode][dims - 1].apply(input, pad)


def circular_pad(input: Any, pad: tuple[int, ...]) -> Any:
    """``input`` padded by wrapping around, as PyTorch's ``_pad_circular``: copies of slices.

    The input (cropped by negative pads) is copied into the middle of a new tensor; then, dim
    by dim, the left pad is copied from the right end of what is there and the right pad from
    the left end (corners are written again by later dims). Each copy records ``CopySlices``.
    """
    shape = operand(input).shape
    dims = len(pad) // 2
    out_shape = list(shape)
    for i in range(dims):  # (PyTorch checks the first padded dim first)
        axis = len(shape) - dims + i
        left, right = pad[2 * (dims - 1 - i)], pad[2 * (dims - 1 - i) + 1]
        if left > shape[axis] or right > shape[axis]:
            raise RuntimeError("Padding value causes wrapping around more than once.")
        out_shape[axis] = shape[axis] + left + right
        if out_shape[axis] < 0:
            raise RuntimeError("Negative padding value is resulting in an empty dimension")
    out = TensorBase.output_class._make(np.empty(out_shape, dtype=operand(input).dtype))
    inner, source = out, input
    for i in range(dims):
        axis = len(shape) - 1 - i
        left, right = pad[2 * i], pad[2 * i + 1]
        inner = slice_dim(inner, axis, max(left, 0), out_shape[axis] - max(right, 0), 1)
        source = slice_dim(source, axis, max(-left, 0), shape[axis] - max(-right, 0), 1)
    copy_(inner, source)
    for i in range(dims):
        axis = len(shape) - 1 - i
        left, right = pad[2 * i], pad[2 * i + 1]
        size = out_shape[axis]
        if left > 0:
            start = size - left - max(right, 0)
            copy_(slice_dim(out, axis, 0, left, 1), slice_dim(out, axis, start, start + left, 1))
        if right > 0:
            start = max(left, 0)
            copy_(
                slice_dim(out, axis, size - right, size, 1),
                slice_dim(out, axis, start, start + right, 1),
            )
    return out
