"""softmax and log_softmax along a dim; each saves only its result (as PyTorch does)."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from minigrad import _arguments, errors
from minigrad._dtype import display_name, to_numpy_dtype
from minigrad.autograd.function import NO_GRAD_CTX, Op
from minigrad.autograd.graph import sum_keeping_dims
from minigrad.autograd.saved_attributes import as_given
from minigrad.ops._helpers import (
    cast,
    operand,
    run,
    wrap_dim,
)
from minigrad.ops.opmath import FLOAT16, FLOAT32, in_float32


class SoftmaxFamily(Op):
    """softmax or log_softmax of x along ``dim``, from x shifted by its max (no overflow).

    A subclass gives ``normalize(shifted, axis)`` and its backward.  Saves the result (as
    PyTorch): writing the input later is legal. ``dim`` is kept as given (PyTorch shows it so),
    ``axis`` normalised (None for a 0-d x), for backward.
    """

    fields = ("axis", "dim")
    # (declared, not inferred: the backward runner then checks the saved result inline)
    saves = ("result",)
    saved_options = {"dim": as_given("dim")}

    @classmethod
    def forward(cls, ctx: Any, x: np.ndarray, dim: int) -> np.ndarray:
        axis = dim % x.ndim if x.ndim else None
        if x.size == 0:
            y = x.copy()
        elif x.dtype is FLOAT16:
            y = cls.half_values(x, axis)
        else:
            y = cls.values(x, axis)
        if ctx is not NO_GRAD_CTX:  # (the no-grad ctx drops both, through Python calls)
            ctx.save_for_backward(y)
            ctx.axis, ctx.dim = axis, dim
        return y

    @classmethod
    def values(cls, x: np.ndarray, axis: int | None) -> np.ndarray:
        """The result of a non-empty ``x`` along ``axis``: ``normalize`` of x minus its max."""
        shifted = x - _max_along(x, axis)
        if axis is None:  # a 0-d x gives a numpy scalar: normalize needs a buffer
            shifted = np.asarray(shifted)
        # PyTorch's result is always contiguous (numpy would keep x's layout).
        return np.asarray(cls.normalize(shifted, axis), order="C")

    @classmethod
    def half_values(cls, x: np.ndarray, axis: int | None) -> np.ndarray:
        """``values`` of a float16 ``x``: PyTorch's kernel computes in float32, rounds once."""
        return in_float32(cls.values, x, axis)

    @staticmethod
    def normalize(shifted: np.ndarray, axis: int | None) -> np.ndarray:
        """The result, from the input minus its max along ``axis`` (override).

        ``shifted`` is forward's own new array: a subclass may compute into it (one array
        made the fewer per step; the same operations, so the same values).
        """
        raise NotImplementedError


def _max_along(x: np.ndarray, axis: int | None) -> np.ndarray:
    """``np.max(x, axis, keepdims=True)``; a long matrix's short last axis down a transposed copy.

    ``np.maximum.reduce`` itself: np.max's Python layers cost ~2 µs, a third of a small
    softmax's numpy work. numpy reduces a short contiguous axis row by row: for
    cross_entropy's (256, 10) logits that is ~4x slower than copying the transpose and
    reducing down its columns, which pays from ~32 rows on (below, the copy costs more than
    it saves). A max does not depend on the order it meets the elements, so the values are
    the same.
    """
    if (axis == 1 and x.ndim == 2 and x.shape[1] <= _SHORT_AXIS and x.shape[0] >= _LONG_BATCH
            and x.flags.c_contiguous):
        return _max_reduce(x.T.copy(), 0)[:, None]
    return _max_reduce(x, axis, None, None, True)


_SHORT_AXIS = 16  # up to this many classes the transposed copy is the cheaper layout ...
_LONG_BATCH = 32  # ... from this many rows on
# (bound once: ``np.<name>`` is a lookup on every call)
_exp, _log, _divide, _subtract, _multiply = np.exp, np.log, np.divide, np.subtract, np.multiply
_max_reduce, _sum_reduce = np.maximum.reduce, np.add.reduce
_ndarray = np.ndarray


class Softmax(SoftmaxFamily):
    """y = exp(x) / sum(exp(x)) along ``dim``;  dx = y * (grad - sum(grad * y)).

    The gradient is an op of its own (``SoftmaxBackwardData``), as PyTorch's
    ``_softmax_backward_data``: differentiated again (create_graph), it records PyTorch's
    SoftmaxBackwardDataBackward0.
    """

    @staticmethod
    def normalize(shifted: np.ndarray, axis: int | None) -> np.ndarray:
        """``exp(shifted) / sum(exp(shifted))``."""
        exps = _exp(shifted, shifted)
        return _divide(exps, _sum_reduce(exps, axis, None, None, True), exps)

    saved_as_arguments = True  # backward(ctx, grad, y): the runner hands y over (Op)

    @staticmethod
    def backward(ctx: Any, grad: Any, y: Any) -> tuple[Any, None]:
        return run(SoftmaxBackwardData, grad, y, ctx.axis, ctx.dim), None


class LogSoftmax(SoftmaxFamily):
    """y = x - log(sum(exp(x))) along ``dim``;  dx = grad - exp(y) * sum(grad).

    The gradient is an op of its own (``LogSoftmaxBackwardData``), as PyTorch's.
    """

    @classmethod
    def half_values(cls, x: np.ndarray, axis: int | None) -> np.ndarray:
        """PyTorch's float16 kernel: float32 steps, but the sum and its log kept as float16.

        (Along the last dim its ``tmp_sum`` buffer is of the input's dtype: measured bit for
        bit on rows of 4 to 3000 elements; along another dim all in float32.)
        """
        if axis is not None and axis != x.ndim - 1:
            return in_float32(cls.values, x, axis)
        wide = x.astype(FLOAT32)
        shifted = np.asarray(wide - _max_along(wide, axis))
        total = _sum_reduce(_exp(shifted), axis, None, None, True).astype(FLOAT16)
        log_total = _log(total.astype(FLOAT32)).astype(FLOAT16).astype(FLOAT32)
        return np.asarray(_subtract(shifted, log_total), order="C").astype(FLOAT16)

    @staticmethod
    def normalize(shifted: np.ndarray, axis: int | None) -> np.ndarray:
        """The log of softmax: ``shifted - log(sum(exp(shifted)))``."""
        return _subtract(shifted, _log(_sum_reduce(_exp(shifted), axis, None, None, True)),
                         shifted)

    saved_as_arguments = True  # backward(ctx, grad, y): the runner hands y over (Op)

    @staticmethod
    def backward(ctx: Any, grad: Any, y: Any) -> tuple[Any, None]:
        return run(LogSoftmaxBackwardData, grad, y, ctx.axis, ctx.dim), None


class BackwardData(Op):
    """The gradient of softmax or log_softmax, ``f(g, y)`` with g the gradient of the result y.

    PyTorch's ``_softmax_backward_data`` and ``_log_softmax_backward_data``: softmax's and
    log_softmax's backward run it (on arrays, ``run``'s fast path), and under create_graph it is
    recorded, so a second derivative goes through its own node. Saves both inputs (PyTorch's
    ``grad_output`` and ``output``); ``dim`` as given (PyTorch shows it so).
    """

    num_inputs = 2
    fields = ("axis", "dim")
    saves = ("grad_output", "output")
    saved_options = {"dim": as_given("dim")}

    @classmethod
    def forward(cls, ctx: Any, g: np.ndarray, y: np.ndarray, axis: int | None,
                dim: int) -> np.ndarray:
        if ctx is not NO_GRAD_CTX:
            ctx.save_for_backward(g, y)
            ctx.axis, ctx.dim = axis, dim
        return in_float32(cls.gradient, g, y, axis)  # (float16: PyTorch's, in float32)

    @staticmethod
    def gradient(g: Any, y: Any, axis: int | None) -> Any:
        """``f(g, y)``: the input's gradient (override)."""
        raise NotImplementedError


class SoftmaxBackwardData(BackwardData):
    """f(g, y) = y * (g - sum(g * y)).

    d(g) = f(grad, y) (the Jacobian is symmetric);
    d(y) = g * grad - sum(y * g) * grad - g * sum(y * grad) (PyTorch's softmax_double_backward).
    """

    @staticmethod
    def gradient(g: Any, y: Any, axis: int | None) -> Any:
        """``y * (g - sum(g * y))``."""
        if type(g) is _ndarray and type(y) is _ndarray and y.ndim:
            # arrays (backward without create_graph): the same operations, in the same order,
            # into one new array instead of three
            d = _multiply(g, y)
            _subtract(g, _sum_reduce(d, axis, None, None, True), d)
            return _multiply(y, d, d)
        return y * (g - sum_keeping_dims(g * y, axis))

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, Any, None, None]:
        g, y = ctx.saved_tensors
        needs, axis = ctx.needs_input_grad, ctx.axis
        d_g = run(SoftmaxBackwardData, grad, y, axis, ctx.dim) if needs[0] else None
        d_y = (g * grad - sum_keeping_dims(y * g, axis) * grad
               - g * sum_keeping_dims(y * grad, axis)) if needs[1] else None
        return d_g, d_y, None, None


class LogSoftmaxBackwardData(BackwardData):
    """f(g, y) = g - exp(y) * sum(g).

    d(g) = grad - sum(grad * exp(y));  d(y) = -sum(g) * exp(y) * grad (PyTorch's formulas).
    """

    @staticmethod
    def gradient(g: Any, y: Any, axis: int | None) -> Any:
        """``g - exp(y) * sum(g)``."""
        if type(g) is _ndarray and type(y) is _ndarray and y.ndim and g.dtype == y.dtype:
            # arrays of one dtype (backward without create_graph): the same operations, in
            # the same order, into one new array instead of two
            e = _exp(y)
            _multiply(e, _sum_reduce(g, axis, None, None, True), e)
            return _subtract(g, e, e)
        return g - np.exp(y) * sum_keeping_dims(g, axis)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, Any, None, None]:
        g, y = ctx.saved_tensors
        needs, axis = ctx.needs_input_grad, ctx.axis
        d_g = grad - sum_keeping_dims(grad * np.exp(y), axis) if needs[0] else None
        d_y = -sum_keeping_dims(g, axis) * np.exp(y) * grad if needs[1] else None
        return d_g, d_y, None, None


def _softmax_input(input: Any, dim: int, dtype: Any, name: str) -> Any:
    """``input`` checked (``dim`` too) and cast to ``dtype`` if given."""
    array = operand(input)
    axis = wrap_dim(dim, array.ndim)
    if dtype is not None:
        input = cast(input, to_numpy_dtype(dtype, name))
    elif array.dtype.kind != "f":
        kernel = "lastdim_kernel_impl" if axis == max(array.ndim, 1) - 1 else "kernel_impl"
        raise NotImplementedError(
            errors.not_implemented_for(f"{name}_{kernel}", display_name(array.dtype)))
    return input


def softmax(input: Any, dim: int, dtype: Any = None) -> Any:
    """``exp(input) / sum(exp(input))`` along ``dim`` (``dtype``: cast the input first).

    Example:
        >>> import minigrad
        >>> minigrad.softmax(minigrad.tensor([0.0, 0.0]), dim=0)
        tensor([0.5000, 0.5000])
    """
    _arguments.check_tensor(input, "softmax", "input", 1)
    input = _softmax_input(input, dim, dtype, "softmax")
    # (dim as given: the node shows it so; the op's recording function for one input and
    # options, which ``Softmax.apply`` would call)
    return Softmax._record_options(input, dim)


def log_softmax(input: Any, dim: int, dtype: Any = None) -> Any:
    """``log(softmax(input))`` along ``dim``, computed stably.

    Example:
        >>> import minigrad
        >>> minigrad.log_softmax(minigrad.tensor([0.0, 0.0]), dim=0)
        tensor([-0.6931, -0.6931])
    """
    _arguments.check_tensor(input, "log_softmax", "input", 1)
    input = _softmax_input(input, dim, dtype, "log_softmax")
    return LogSoftmax._record_options(input, dim)  # (as softmax's)


def implicit_softmax_dim(name: str, ndim: int, stacklevel: int) -> int:
    """PyTorch's legacy dim for softmax, log_softmax or softmin called without one.

    0 for 0-, 1- and 3-d inputs, else 1; with PyTorch's deprecation warning.
    """
    warnings.warn(
        f"Implicit dimension choice for {name} has been deprecated. Change the call to include "
        "dim=X as an argument.",
        stacklevel=stacklevel,
    )
    return 0 if ndim in (0, 1, 3) else 1
