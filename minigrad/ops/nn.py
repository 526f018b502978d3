"""Neural-network ops: linear, losses, normalization, convolution, pooling, dropout, embedding.

The public functions here are what ``minigrad.nn.functional`` exports, with PyTorch 2.13's
signatures, node chains and error texts. PyTorch implements some of them as one kernel with its
own backward node (``MseLossBackward0``, ``NllLossBackward0``, ``ConvolutionBackward0``...) and
others as compositions of smaller ops (``l1_loss`` is ``(input - target).abs().mean()``,
``cross_entropy`` is ``log_softmax`` followed by ``nll_loss``). Each function below does what
PyTorch does, so a graph recorded by minigrad has the same nodes, and saves the same tensors, as
PyTorch's: that decides which later in-place writes make backward raise.

Backward formulas run on arrays (the fast path) and on tensors (``create_graph=True``). Where a
backward step has no tensor equivalent (scattering into zeros, a transposed convolution) it is an
op of its own here, whose backward is again made of these ops, so derivatives of any order work.
``_run`` picks the array function or the recorded op.
"""

from __future__ import annotations

import itertools
import math
import warnings
from collections.abc import Sequence
from typing import Any

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

from minigrad import _random, errors
from minigrad._dtype import display_name, result_type, type_name
from minigrad._size import Size
from minigrad.autograd import grad_mode
from minigrad.autograd.function import NO_GRAD_CTX, Op
from minigrad.autograd.variable import TensorBase
from minigrad.ops import elementwise as ew
from minigrad.ops import linalg, views
from minigrad.ops import reduction as reduction_module
from minigrad.ops import shape as shape_ops
from minigrad.ops._helpers import cast, operand


def _run(op: type[Op], *args: Any) -> Any:
    """``op`` on ``args``: its forward on arrays (plain backward), recorded on tensors.

    A backward formula calls this for a step that has its own op (a transposed convolution, a
    scatter): with ``create_graph=True`` the gradient is a tensor and the step is recorded, so
    it can be differentiated again; otherwise it is plain numpy.
    """
    if any(isinstance(a, TensorBase) for a in args[: op.num_inputs]):
        return op.apply(*args)
    return op.forward(NO_GRAD_CTX, *args)


def _is_tensor(value: Any) -> bool:
    return isinstance(value, TensorBase)


def _tensor(array: Any) -> Any:
    """A constant tensor on ``array`` (no history, fresh version counter)."""
    return TensorBase.output_class._make(np.asarray(array))


def _shape(value: Any) -> tuple[int, ...]:
    return tuple(np.shape(operand(value)))


def _size(shape: Sequence[int]) -> str:
    """``minigrad.Size([2, 3])`` as ``repr(tensor.shape)`` prints it."""
    return repr(Size(tuple(shape)))


def _dtype_name(value: Any) -> str:
    """``Float``, ``Double``, ``Long``: the scalar-type name in PyTorch's kernel messages."""
    return display_name(operand(value).dtype)


def _not_implemented(kernel: str, value: Any) -> NotImplementedError:
    return NotImplementedError(f'"{kernel}" not implemented for \'{_dtype_name(value)}\'')


def _check_no_grad(value: Any, argument: str, function: str) -> None:
    # PyTorch's autograd refuses inputs it has no formula for before running the op.
    if _is_tensor(value) and value.requires_grad:
        raise RuntimeError(
            f"The function '{function}' is not differentiable with respect to argument "
            f"'{argument}'. This input cannot have requires_grad True."
        )


def _trunc_div(a: int, b: int) -> int:
    """C++ integer division (rounds toward zero), which PyTorch's shape checks use."""
    quotient = abs(a) // abs(b)
    return quotient if (a >= 0) == (b > 0) else -quotient


# --- small ops that PyTorch's C++ composites record ---------------------------------------


class MulScalar(Op):
    """y = x * c for a number c (C++'s ``tensor * double``);  dx = grad * c.  Saves nothing.

    PyTorch records ``MulBackward1`` here, not the ``MulBackward0`` of Python's ``x * 2.0``.
    """

    node_name = "MulBackward1"

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, c: float) -> np.ndarray:
        ctx.c = c
        return x * c

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, None]:
        return grad * ctx.c, None


class DivScalar(Op):
    """y = x / c for a number c (C++'s ``tensor / int``);  dx = grad / c.  Saves nothing."""

    node_name = "DivBackward1"

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, c: Any) -> np.ndarray:
        ctx.c = c
        return x / c

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, None]:
        return grad / ctx.c, None


class AddScalar(Op):
    """y = x + c for a number c (C++'s ``tensor + double``);  dx = grad.  Saves nothing."""

    node_name = "AddBackward1"

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, c: Any) -> np.ndarray:
        return x + c

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, None]:
        return grad, None


class SqueezeMatmul(Op):
    """y = x without its dimension 0 (matmul's ``squeeze_(0)``);  dx = grad unsqueezed.

    Saves nothing. PyTorch squeezes the product of ``x.unsqueeze(0) @ m`` in place: the result
    is not a view.
    """

    node_name = "SqueezeBackward4"

    @staticmethod
    def forward(ctx: Any, x: np.ndarray) -> np.ndarray:
        return np.squeeze(x, 0).copy()

    @staticmethod
    def backward(ctx: Any, grad: Any) -> Any:
        return np.expand_dims(grad, 0)


def _mul_scalar(x: Any, c: float) -> Any:
    return MulScalar.apply(x, float(c))


def _broadcast_tensors(a: Any, b: Any) -> tuple[Any, Any]:
    """``torch.broadcast_tensors(a, b)``: each operand expanded (a view) only if it must be."""
    shape_a, shape_b = _shape(a), _shape(b)
    if shape_a == shape_b:
        return a, b
    try:
        shape = np.broadcast_shapes(shape_a, shape_b)
    except ValueError:
        raise RuntimeError(errors.broadcast_mismatch(shape_a, shape_b)) from None
    return (
        a if shape_a == shape else views.expand(a, shape),
        b if shape_b == shape else views.expand(b, shape),
    )


def _expand_outplace(a: Any, b: Any) -> tuple[Any, Any]:
    """C++'s two-tensor ``expand_outplace``: if the shapes differ, *both* are expanded."""
    shape_a, shape_b = _shape(a), _shape(b)
    if shape_a == shape_b:
        return a, b
    try:
        shape = np.broadcast_shapes(shape_a, shape_b)
    except ValueError:
        raise RuntimeError(errors.broadcast_mismatch(shape_a, shape_b)) from None
    return views.expand(a, shape), views.expand(b, shape)


# --- reductions of losses -----------------------------------------------------------------

_NONE, _MEAN, _SUM = 0, 1, 2


def _reduction_enum(reduction: Any) -> int:
    """PyTorch's ``_Reduction.get_enum``: 'none' -> 0, 'mean' -> 1, 'sum' -> 2."""
    if reduction == "none":
        return _NONE
    if reduction == "mean":
        return _MEAN
    if reduction == "elementwise_mean":
        warnings.warn(
            "reduction='elementwise_mean' is deprecated. Please use reduction='mean' instead.",
            stacklevel=3,
        )
        return _MEAN
    if reduction == "sum":
        return _SUM
    raise ValueError(f"{reduction} is not a valid value for reduction")


def _legacy_reduction(size_average: Any, reduce: Any) -> str:
    """The reduction meant by the deprecated ``size_average`` / ``reduce`` flags (warns)."""
    size_average = True if size_average is None else size_average
    reduce = True if reduce is None else reduce
    name = "mean" if size_average and reduce else "sum" if reduce else "none"
    warnings.warn(
        f"size_average and reduce args will be deprecated, please use reduction='{name}' "
        "instead.",
        stacklevel=3,
    )
    return name


def _reduction(reduction: str, size_average: Any, reduce: Any) -> str:
    if size_average is not None or reduce is not None:
        return _legacy_reduction(size_average, reduce)
    return reduction


def _reduce_array(loss: np.ndarray, reduction: int) -> np.ndarray:
    """A loss kernel's reduction on arrays (the mean of nothing is nan, silently)."""
    if reduction == _NONE:
        return loss
    total = np.sum(loss, dtype=loss.dtype)
    return np.asarray(total / loss.size if reduction == _MEAN else total, dtype=loss.dtype)


def _norm(reduction: int, size: int) -> float:
    """The factor a loss kernel's backward applies for its reduction: 1/n for 'mean'."""
    return 1.0 / size if reduction == _MEAN and size else 1.0


def _apply_loss_reduction(loss: Any, reduction: int) -> Any:
    """PyTorch's C++ ``apply_loss_reduction``: records MeanBackward0 / SumBackward0."""
    if reduction == _MEAN:
        return reduction_module.mean(loss)
    if reduction == _SUM:
        return reduction_module.sum(loss)
    return loss


def _warn_target_size(input: Any, target: Any) -> None:
    # stacklevel 3: the warning points at the line that called the loss function.
    if _shape(input) != _shape(target):
        warnings.warn(
            f"Using a target size ({_size(_shape(target))}) that is different to the input "
            f"size ({_size(_shape(input))}). This will likely lead to incorrect results due to "
            "broadcasting. Please ensure they have the same size.",
            stacklevel=3,
        )


# ==========================================================================================
# linear
# ==========================================================================================


class Addmm(Op):
    """y = bias + mat1 @ mat2;  dbias = grad,  dmat1 = grad @ mat2.T,  dmat2 = mat1.T @ grad.

    The bias is broadcast over the rows (its gradient is summed back to its shape). Saves each
    matrix only if the other one needs a gradient, as PyTorch: after
    ``F.linear(x, W, b)`` with only ``b`` requiring grad, nothing is saved.
    """

    num_inputs = 3

    @staticmethod
    def forward(ctx: Any, bias: Any, mat1: np.ndarray, mat2: np.ndarray) -> np.ndarray:
        needs = ctx.needs_input_grad
        ctx.save_for_backward(mat1 if needs[2] else None, mat2 if needs[1] else None)
        product = mat1 @ mat2
        return product + bias.astype(product.dtype, copy=False)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, Any, Any]:
        mat1, mat2 = ctx.saved_tensors
        needs = ctx.needs_input_grad
        return (
            grad if needs[0] else None,
            grad @ mat2.T if needs[1] else None,
            mat1.T @ grad if needs[2] else None,
        )


def _addmm(bias: Any, mat1: Any, mat2: Any) -> Any:
    """``torch.addmm(bias, mat1, mat2)`` with PyTorch's checks (2-D operands only here)."""
    a, b, c = operand(mat1), operand(mat2), operand(bias)
    if b.ndim != 2:
        raise RuntimeError(f"mat2 must be a matrix, got {b.ndim}-D tensor")
    if a.shape[1] != b.shape[0]:
        raise RuntimeError(
            f"mat1 and mat2 shapes cannot be multiplied ({a.shape[0]}x{a.shape[1]} and "
            f"{b.shape[0]}x{b.shape[1]})"
        )
    if a.dtype != b.dtype:
        raise RuntimeError(
            "mat1 and mat2 must have the same dtype, but got "
            f"{display_name(a.dtype)} and {display_name(b.dtype)}"
        )
    if c.dtype != b.dtype:
        raise RuntimeError(
            "self and mat2 must have the same dtype, but got "
            f"{display_name(c.dtype)} and {display_name(b.dtype)}"
        )
    target = (a.shape[0], b.shape[1])
    if c.ndim > 2:
        raise RuntimeError(
            f"expand({type_name(c.dtype)}{{{list(c.shape)}}}, size={list(target)}): the number "
            f"of sizes provided (2) must be greater or equal to the number of dimensions in the "
            f"tensor ({c.ndim})"
        )
    lead = 2 - c.ndim
    for i, n in enumerate(c.shape):
        if n != 1 and n != target[lead + i]:
            raise RuntimeError(
                f"The expanded size of the tensor ({target[lead + i]}) must match the existing "
                f"size ({n}) at non-singleton dimension {lead + i}.  Target sizes: "
                f"{list(target)}.  Tensor sizes: {list(c.shape)}"
            )
    return Addmm.apply(bias, mat1, mat2)


def _foldable(x: np.ndarray) -> bool:
    """True if x's leading dimensions merge into one without a copy (PyTorch's should_fold)."""
    if x.size == 0:
        return True
    return all(x.strides[i] == x.strides[i + 1] * x.shape[i + 1] for i in range(x.ndim - 2))


def _matmul_weight(input: Any, wt: Any) -> Any:
    """``torch.matmul(input, weight.t())`` as PyTorch records it for ``F.linear``.

    A 1-D input is a one-row matrix (Unsqueeze, Mm, SqueezeBackward4); an input of 3 or more
    dimensions is folded into a matrix (a reshape), multiplied (Mm or Mv) and unfolded
    (UnsafeView) -- unless folding would copy and the weight needs no gradient, where PyTorch
    takes the batched path (left to ``minigrad.matmul``).
    """
    x, w = operand(input), operand(wt)
    if x.ndim == 1 and w.ndim == 2:
        if x.shape[0] != w.shape[0]:
            raise RuntimeError(
                f"mat1 and mat2 shapes cannot be multiplied (1x{x.shape[0]} and "
                f"{w.shape[0]}x{w.shape[1]})"
            )
        return SqueezeMatmul.apply(linalg.mm(views.unsqueeze(input, 0), wt))
    if x.ndim >= 3 and (getattr(wt, "requires_grad", False) or _foldable(x)):
        lead = x.shape[:-1]
        folded = views.reshape(input, (int(np.prod(lead)), x.shape[-1]))
        if w.ndim == 2:
            _check_mm(operand(folded), w)
            product = linalg.mm(folded, wt)
            return views.UnsafeView.apply(product, (*lead, w.shape[1]))
        return views.UnsafeView.apply(linalg.mv(folded, wt), lead)
    return linalg.matmul(input, wt)


def _check_mm(a: np.ndarray, b: np.ndarray) -> None:
    if a.shape[1] != b.shape[0]:
        raise RuntimeError(
            f"mat1 and mat2 shapes cannot be multiplied ({a.shape[0]}x{a.shape[1]} and "
            f"{b.shape[0]}x{b.shape[1]})"
        )


def linear(input: Any, weight: Any, bias: Any = None) -> Any:
    """``input @ weight.T + bias``: the affine map of ``nn.Linear``.

    Recorded as PyTorch records it: a 2-D input with a bias is one ``AddmmBackward0`` node on
    ``weight.t()`` (a view of the weight: it shares the weight's version counter); a contiguous
    input of other rank is flattened to 2-D first (``ViewBackward0``, Addmm, ``ViewBackward0``);
    without a bias it is a matrix product (``MmBackward0``, or ``UnsafeViewBackward0`` around it
    for batched inputs), and a bias that cannot take the flattened path (a non-contiguous input,
    a bias of 2 or more dims) is added in place (``AddBackward0``).

    Gradients: ``dinput = grad @ weight``, ``dweight = grad.T @ input`` (summed over batch
    dimensions), ``dbias = grad`` summed to the bias's shape. Saves ``input`` (if the weight
    needs a gradient) and ``weight.t()`` (if the input does): writing either in place before
    backward raises; the bias is never saved.

    Example:
        >>> import minigrad
        >>> import minigrad.nn.functional as F
        >>> x = minigrad.ones(2, 3)
        >>> w = minigrad.ones(4, 3, requires_grad=True)
        >>> F.linear(x, w, minigrad.zeros(4))
        tensor([[3., 3., 3., 3.],
                [3., 3., 3., 3.]], grad_fn=<AddmmBackward0>)
    """
    x, w = operand(input), operand(weight)
    if x.ndim == 0 or w.ndim == 0:
        raise RuntimeError(
            f"both arguments to linear need to be at least 1D, but they are {x.ndim}D and "
            f"{w.ndim}D"
        )
    wt = views.t(weight)
    if bias is not None:
        b = operand(bias)
        if x.ndim == 2:
            return _addmm(bias, input, wt)
        if x.flags.c_contiguous and b.ndim == 1:
            lead = x.shape[:-1]
            flat = views.reshape(input, (int(np.prod(lead)), x.shape[-1]))
            out = _addmm(bias, flat, wt)
            return views.view(out, (*lead, w.shape[0]))
    out = _matmul_weight(input, wt)
    if bias is not None:
        out.add_(bias)
    return out


# ==========================================================================================
# pointwise losses: mse, l1, smooth_l1, huber
# ==========================================================================================


def _difference(x: np.ndarray, t: np.ndarray) -> np.ndarray:
    """``x - t`` in PyTorch's result dtype (numpy would make float32 - int64 a float64)."""
    dtype = result_type(x, t)
    return x.astype(dtype, copy=False) - t.astype(dtype, copy=False)


class MseLoss(Op):
    """loss = reduce((input - target) ** 2);  dinput = 2 (input - target) grad / n.

    n is the element count for 'mean', 1 otherwise;  dtarget = -dinput. Saves input and
    target (PyTorch): writing either in place before backward raises.
    """

    num_inputs = 2

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, t: np.ndarray, reduction: int) -> np.ndarray:
        ctx.save_for_backward(x, t)
        ctx.reduction = reduction
        d = _difference(x, t)
        return _reduce_array(d * d, reduction)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, Any, None]:
        x, t = ctx.saved_tensors
        dx = (x - t) * grad * (2 * _norm(ctx.reduction, int(np.prod(_shape(x)))))
        return dx, -dx if ctx.needs_input_grad[1] else None, None


class SmoothL1Loss(Op):
    """loss = reduce(0.5 d**2 / beta if |d| < beta else |d| - 0.5 beta), d = input - target.

    dinput = grad * clamp(d / beta, -1, 1) / n,  dtarget = -dinput.  Saves input and target.
    """

    num_inputs = 2

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, t: np.ndarray, reduction: int, beta: float) -> Any:
        ctx.save_for_backward(x, t)
        ctx.reduction, ctx.beta = reduction, beta
        z = np.abs(_difference(x, t))
        return _reduce_array(np.where(z < beta, 0.5 * z * z / beta, z - 0.5 * beta), reduction)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, Any, None, None]:
        x, t = ctx.saved_tensors
        beta, d = ctx.beta, x - t
        slope = np.where(d <= -beta, -1.0, np.where(d >= beta, 1.0, d / beta))
        dx = slope * grad * _norm(ctx.reduction, int(np.prod(_shape(x))))
        return dx, -dx if ctx.needs_input_grad[1] else None, None, None


class HuberLoss(Op):
    """loss = reduce(0.5 d**2 if |d| < delta else delta (|d| - 0.5 delta)), d = input - target.

    dinput = grad * clamp(d, -delta, delta) / n,  dtarget = -dinput.  Saves input and target.
    The result has the input's dtype; PyTorch's backward refuses a target of another dtype.
    """

    num_inputs = 2

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, t: np.ndarray, reduction: int, delta: float) -> Any:
        ctx.save_for_backward(x, t)
        ctx.reduction, ctx.delta = reduction, delta
        z = np.abs(_difference(x, t))
        loss = np.where(z < delta, 0.5 * z * z, delta * (z - 0.5 * delta)).astype(x.dtype)
        return _reduce_array(loss, reduction)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, Any, None, None]:
        x, t = ctx.saved_tensors
        if operand(t).dtype != operand(x).dtype:
            raise RuntimeError(f"Found dtype {_dtype_name(t)} but expected {_dtype_name(x)}")
        delta, d = ctx.delta, x - t
        slope = np.where(d < -delta, -delta, np.where(d > delta, delta, d))
        dx = slope * grad * _norm(ctx.reduction, int(np.prod(_shape(x))))
        return dx, -dx if ctx.needs_input_grad[1] else None, None, None


def _check_loss_kernel_dtypes(input: Any, target: Any, kernel: str) -> None:
    # An integer input is accepted only if promotion makes the computation floating point.
    x, t = operand(input), operand(target)
    if x.dtype.kind in "iub" and t.dtype.kind in "iub":
        raise _not_implemented(kernel, input)


def _weighted(loss: Any, weight: Any, reduction: str, mean_by_weight: bool) -> Any:
    """The Python-level weighted variant of mse / l1 / huber loss (PyTorch 2.13)."""
    loss = ew.mul(loss, weight)
    if reduction == "none":
        return loss
    if reduction == "sum":
        return reduction_module.sum(loss)
    if reduction == "mean":
        if mean_by_weight:
            return ew.div(reduction_module.sum(loss), reduction_module.sum(weight))
        return reduction_module.mean(loss)
    raise ValueError(
        f"Invalid reduction mode: {reduction}. Expected one of 'none', 'mean', 'sum'."
    )


def _check_weight_size(weight: Any, input: Any) -> None:
    if _shape(weight) != _shape(input):
        raise ValueError("Weights and input must have the same size.")


def mse_loss(
    input: Any,
    target: Any,
    size_average: Any = None,
    reduce: Any = None,
    reduction: str = "mean",
    weight: Any = None,
) -> Any:
    """Mean squared error: ``mean((input - target) ** 2)`` (or 'sum', or 'none').

    Input and target are broadcast together first (PyTorch warns when their sizes differ).
    Gradient ``2 (input - target) / n`` for both (negated for the target). One
    ``MseLossBackward0`` node that saves input and target: writing either in place before
    backward raises. With ``weight`` (same size as input): ``sum(w (input - target)**2) /
    sum(w)`` for 'mean', recorded as pow, mul, sum and div.

    Example:
        >>> import minigrad
        >>> import minigrad.nn.functional as F
        >>> F.mse_loss(minigrad.tensor([1.0, 2.0]), minigrad.tensor([0.0, 0.0]))
        tensor(2.5000)
    """
    _warn_target_size(input, target)
    reduction = _reduction(reduction, size_average, reduce)
    x, t = _broadcast_tensors(input, target)
    if weight is not None:
        _check_weight_size(weight, input)
        return _weighted(ew.pow(ew.sub(x, t), 2), weight, reduction, True)
    enum = _reduction_enum(reduction)
    _check_loss_kernel_dtypes(x, t, "mse_cpu")
    return MseLoss.apply(x, t, enum)


def l1_loss(
    input: Any,
    target: Any,
    size_average: Any = None,
    reduce: Any = None,
    reduction: str = "mean",
    weight: Any = None,
) -> Any:
    """Mean absolute error: ``mean(|input - target|)`` (or 'sum', or 'none').

    A composite in PyTorch: ``SubBackward0``, ``AbsBackward0`` (which saves the difference, a
    private tensor), then ``MeanBackward0`` / ``SumBackward0``; so writing the input or target
    in place after the loss is legal. Gradient ``sign(input - target) / n``.

    Example:
        >>> import minigrad
        >>> import minigrad.nn.functional as F
        >>> F.l1_loss(minigrad.tensor([1.0, -2.0]), minigrad.tensor([0.0, 0.0]))
        tensor(1.5000)
    """
    _warn_target_size(input, target)
    reduction = _reduction(reduction, size_average, reduce)
    x, t = _broadcast_tensors(input, target)
    if weight is not None:
        _check_weight_size(weight, input)
        return _weighted(ew.abs(ew.sub(x, t)), weight, reduction, True)
    enum = _reduction_enum(reduction)
    return _apply_loss_reduction(ew.abs(ew.sub(x, t)), enum)


def smooth_l1_loss(
    input: Any,
    target: Any,
    size_average: Any = None,
    reduce: Any = None,
    reduction: str = "mean",
    beta: float = 1.0,
) -> Any:
    """Smooth L1: ``0.5 d**2 / beta`` where ``|d| < beta``, else ``|d| - 0.5 beta``.

    ``d = input - target``. Gradient ``clamp(d / beta, -1, 1) / n``. One
    ``SmoothL1LossBackward0`` node saving input and target; with ``beta == 0`` it is
    ``l1_loss`` (PyTorch switches too).

    Example:
        >>> import minigrad
        >>> import minigrad.nn.functional as F
        >>> F.smooth_l1_loss(minigrad.tensor([0.5, 3.0]), minigrad.tensor([0.0, 0.0]))
        tensor(1.3125)
    """
    _warn_target_size(input, target)
    reduction = _reduction(reduction, size_average, reduce)
    x, t = _broadcast_tensors(input, target)
    enum = _reduction_enum(reduction)
    if beta == 0.0:
        return _apply_loss_reduction(ew.abs(ew.sub(x, t)), enum)
    if beta < 0:
        raise RuntimeError("smooth_l1_loss does not support negative values for beta.")
    _check_loss_kernel_dtypes(x, t, "smooth_l1_cpu")
    return SmoothL1Loss.apply(x, t, enum, float(beta))


def huber_loss(
    input: Any, target: Any, reduction: str = "mean", delta: float = 1.0, weight: Any = None
) -> Any:
    """Huber loss: ``0.5 d**2`` where ``|d| < delta``, else ``delta (|d| - 0.5 delta)``.

    ``d = input - target``. Gradient ``clamp(d, -delta, delta) / n``. One
    ``HuberLossBackward0`` node saving input and target. With ``weight``: the unreduced loss
    times the weight, then mean (not divided by the weights' sum) or sum.

    Example:
        >>> import minigrad
        >>> import minigrad.nn.functional as F
        >>> F.huber_loss(minigrad.tensor([0.5, 3.0]), minigrad.tensor([0.0, 0.0]), delta=2.0)
        tensor(2.0625)
    """
    _warn_target_size(input, target)
    x, t = _broadcast_tensors(input, target)
    if weight is None:
        enum = _reduction_enum(reduction)
    else:
        _check_weight_size(weight, input)
        enum = _NONE
    if delta <= 0:
        raise RuntimeError("huber_loss does not support non-positive values for delta.")
    xa, ta = operand(x), operand(t)
    if xa.dtype.kind in "iub":
        if ta.dtype.kind in "iub":
            raise _not_implemented("huber_cpu", x)
        raise RuntimeError(
            f"result type {_dtype_name(t)} can't be cast to the desired output type "
            f"{_dtype_name(x)}"
        )
    loss = HuberLoss.apply(x, t, enum, float(delta))
    if weight is None:
        return loss
    return _weighted(loss, weight, reduction, False)


# ==========================================================================================
# binary cross entropy
# ==========================================================================================


class BinaryCrossEntropy(Op):
    """loss = -w (t log(x) + (1 - t) log(1 - x)), each log clamped at -100 (PyTorch).

    dinput = grad w (x - t) / max(x (1 - x), 1e-12) / n;  dtarget = grad w (log(1 - x) -
    log(x)) / n.  Saves input, target and weight (the weight takes no gradient).
    """

    num_inputs = 2

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, t: np.ndarray, weight: Any, reduction: int) -> Any:
        ctx.save_for_backward(x, t, weight)
        ctx.reduction = reduction
        log_x = np.maximum(np.log(x), -100)
        log_1mx = np.maximum(np.log1p(-x), -100)
        loss = (t - 1) * log_1mx - t * log_x
        if weight is not None:
            loss = loss * weight
        return _reduce_array(loss.astype(x.dtype, copy=False), reduction)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, Any, None, None]:
        x, t, weight = ctx.saved_tensors
        scale = grad * _norm(ctx.reduction, int(np.prod(_shape(x))))
        if weight is not None:
            scale = scale * weight
        dx = dt = None
        if ctx.needs_input_grad[0]:
            p = x * (1 - x)
            dx = scale * (x - t) / np.where(p > 1e-12, p, 1e-12)
        if ctx.needs_input_grad[1]:
            dt = scale * (np.log(1 - x) - np.log(x))
        return dx, dt, None, None


def binary_cross_entropy(
    input: Any,
    target: Any,
    weight: Any = None,
    size_average: Any = None,
    reduce: Any = None,
    reduction: str = "mean",
) -> Any:
    """Binary cross entropy between probabilities ``input`` and ``target`` (both in [0, 1]).

    ``loss = -w (t log(x) + (1 - t) log(1 - x))``, logs clamped at -100. Gradient
    ``w (x - t) / (x (1 - x))``. One ``BinaryCrossEntropyBackward0`` node saving input, target
    and the (expanded) weight.

    Example:
        >>> import minigrad
        >>> import minigrad.nn.functional as F
        >>> F.binary_cross_entropy(minigrad.tensor([0.5, 0.9]), minigrad.tensor([1.0, 1.0]))
        tensor(0.3993)
    """
    if size_average is not None or reduce is not None:
        enum = _reduction_enum(_legacy_reduction(size_average, reduce))
    else:
        enum = _reduction_enum(reduction)
    if _shape(target) != _shape(input):
        raise ValueError(
            f"Using a target size ({_size(_shape(target))}) that is different to the input "
            f"size ({_size(_shape(input))}) is deprecated. Please ensure they have the same "
            "size."
        )
    if weight is not None:
        weight = views.expand(weight, _broadcast_to_target(_shape(target), _shape(weight)))
    _check_no_grad(weight, "weight", "binary_cross_entropy")
    x, t = operand(input), operand(target)
    if x.dtype.kind != "f":
        raise _not_implemented("binary_cross_entropy", input)
    if t.dtype != x.dtype:
        raise RuntimeError(f"Found dtype {_dtype_name(target)} but expected {_dtype_name(input)}")
    if not np.all((x >= 0) & (x <= 1)):
        raise RuntimeError("all elements of input should be between 0 and 1")
    if not np.all((t >= 0) & (t <= 1)):
        raise RuntimeError("all elements of target should be between 0 and 1")
    return BinaryCrossEntropy.apply(input, target, weight, enum)


def _broadcast_to_target(target: tuple[int, ...], other: tuple[int, ...]) -> tuple[int, ...]:
    """``torch.broadcast_shapes(target, other)`` with its message for the second shape."""
    result = list((1,) * (len(other) - len(target)) + target)
    for i in range(-1, -len(other) - 1, -1):
        if other[i] == 1 or other[i] == result[i]:
            continue
        if result[i] != 1:
            raise RuntimeError(
                f"Attempting to broadcast a dimension of length {other[i]} at {i}! Mismatching "
                f"argument at index 1 had {_size(other)}; but expected shape should be "
                f"broadcastable to {errors.format_size(result)}"
            )
        result[i] = other[i]
    return tuple(result)


def _log_sigmoid(x: Any) -> Any:
    """``log(sigmoid(x)) = min(x, 0) - log(1 + exp(-|x|))``, stable for any x."""
    tail = np.exp(-np.abs(x))
    return np.where(x < 0, x, 0) - (np.log(1 + tail) if _is_tensor(x) else np.log1p(tail))


def _sigmoid(x: Any) -> Any:
    return (np.tanh(x * 0.5) + 1) * 0.5


class BinaryCrossEntropyWithLogits(Op):
    """loss = w ((1 - t) x - (1 + (pw - 1) t) log(sigmoid(x))), from logits x.

    dinput = grad w ((pw t + 1 - t) sigmoid(x) - pw t) / n (pw = 1 without ``pos_weight``);
    dtarget = grad w (log(sigmoid(-x)) - pw log(sigmoid(x))) / n.
    Saves input, target, weight and pos_weight (neither weight takes a gradient).
    The result has the target's dtype (PyTorch computes it in place on ``1 - target``).
    """

    num_inputs = 2

    @staticmethod
    def forward(
        ctx: Any, x: np.ndarray, t: np.ndarray, weight: Any, pos_weight: Any, reduction: int
    ) -> Any:
        ctx.save_for_backward(x, t, weight, pos_weight)
        ctx.reduction = reduction
        log_sig = _log_sigmoid(x)
        if pos_weight is not None:
            log_sig = log_sig * ((pos_weight - 1) * t + 1)
        loss = (1 - t) * x - log_sig
        if weight is not None:
            loss = loss * weight
        return _reduce_array(loss.astype(t.dtype, copy=False), reduction)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, Any, None, None, None]:
        x, t, weight, pos_weight = ctx.saved_tensors
        scale = grad * _norm(ctx.reduction, int(np.prod(_shape(x))))
        if weight is not None:
            scale = scale * weight
        dx = dt = None
        if ctx.needs_input_grad[0]:
            if pos_weight is None:
                dx = scale * (_sigmoid(x) - t)
            else:
                pt = pos_weight * t
                dx = scale * ((pt + 1 - t) * _sigmoid(x) - pt)
        if ctx.needs_input_grad[1]:
            if pos_weight is None:
                dt = scale * -x
            else:
                dt = scale * (_log_sigmoid(-x) - _log_sigmoid(x) * pos_weight)
        return dx, dt, None, None, None


def binary_cross_entropy_with_logits(
    input: Any,
    target: Any,
    weight: Any = None,
    size_average: Any = None,
    reduce: Any = None,
    reduction: str = "mean",
    pos_weight: Any = None,
) -> Any:
    """Binary cross entropy on logits: ``sigmoid`` and BCE in one numerically stable step.

    ``loss = w ((1 - t) x - (1 + (pw - 1) t) log(sigmoid(x)))``. Gradient
    ``w ((pw t + 1 - t) sigmoid(x) - pw t)``. One ``BinaryCrossEntropyWithLogitsBackward0``
    node saving input, target, weight and pos_weight.

    Example:
        >>> import minigrad
        >>> import minigrad.nn.functional as F
        >>> F.binary_cross_entropy_with_logits(minigrad.tensor([0.0]), minigrad.tensor([1.0]))
        tensor(0.6931)
    """
    if size_average is not None or reduce is not None:
        enum = _reduction_enum(_legacy_reduction(size_average, reduce))
    else:
        enum = _reduction_enum(reduction)
    if _shape(target) != _shape(input):
        raise ValueError(
            f"Target size ({_size(_shape(target))}) must be the same as input size "
            f"({_size(_shape(input))})"
        )
    _check_no_grad(weight, "weight", "binary_cross_entropy_with_logits")
    _check_no_grad(pos_weight, "pos_weight", "binary_cross_entropy_with_logits")
    x, t = operand(input), operand(target)
    if pos_weight is not None:
        _check_broadcast(_shape(pos_weight), t.shape)
    if weight is not None:
        _check_broadcast(x.shape, _shape(weight))
    if x.dtype.kind != "f":
        raise _not_implemented("log_sigmoid_cpu", input)
    if t.dtype.kind != "f":
        raise RuntimeError(
            f"result type {display_name(result_type(x, t))} can't be cast to the desired "
            f"output type {_dtype_name(target)}"
        )
    return BinaryCrossEntropyWithLogits.apply(input, target, weight, pos_weight, enum)


def _check_broadcast(a: tuple[int, ...], b: tuple[int, ...]) -> None:
    try:
        np.broadcast_shapes(a, b)
    except ValueError:
        raise RuntimeError(errors.broadcast_mismatch(a, b)) from None


# ==========================================================================================
# negative log likelihood and cross entropy
# ==========================================================================================


class NllLoss(Op):
    """loss_i = -w[t_i] x[i, t_i], 0 where t_i == ignore_index; then reduced.

    'mean' divides by the total weight of the targets that count.
    dinput[i, t_i] = -w[t_i] grad_i (/ total weight for 'mean'), 0 elsewhere: a constant
    pattern times the incoming gradient, so the second derivative is 0. Saves input, target,
    weight and the total weight (a private value): writing the input or the target in place
    before backward raises. The class dimension is 1 (0 for an unbatched input).
    """

    @staticmethod
    def forward(
        ctx: Any, x: np.ndarray, given_target: np.ndarray, weight: Any, reduction: int,
        ignore_index: int,
    ) -> np.ndarray:
        target = given_target
        axis = 0 if x.ndim == 1 else 1
        classes = x.shape[axis]
        if x.ndim == 1:
            target = target.reshape(())  # an unbatched target may be (1,)
        valid = target != ignore_index
        bad = valid & ((target < 0) | (target >= classes))
        if bad.any():
            raise IndexError(f"Target {int(target[bad].flat[0])} is out of bounds.")
        safe = np.where(valid, target, 0).astype(np.intp)
        w = np.ones(classes, dtype=x.dtype) if weight is None else weight
        picked_w = np.where(valid, w[safe], 0).astype(x.dtype)
        picked = np.squeeze(np.take_along_axis(x, np.expand_dims(safe, axis), axis), axis)
        losses = np.where(valid, -picked_w * picked, 0).astype(x.dtype)
        total = np.asarray(picked_w.sum(dtype=x.dtype), dtype=x.dtype)
        ctx.save_for_backward(x, given_target, weight, total)
        ctx.reduction, ctx.ignore_index, ctx.axis = reduction, ignore_index, axis
        if reduction == _NONE:
            return losses
        summed = np.asarray(losses.sum(dtype=x.dtype), dtype=x.dtype)
        return summed / total if reduction == _MEAN else summed

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, None, None, None, None]:
        x, target, weight, total = ctx.saved_tensors
        target = operand(target)
        if len(_shape(x)) == 1 and target.ndim == 1:
            # PyTorch's forward takes a (1,) target for a (C,) input; its backward does not.
            raise RuntimeError(
                f"size mismatch (got input: {errors.format_size(_shape(x))}, target: "
                f"{errors.format_size(target.shape)})"
            )
        weight = None if weight is None else operand(weight)
        axis, shape = ctx.axis, _shape(x)
        dtype = operand(x).dtype
        valid = target != ctx.ignore_index
        safe = np.where(valid, target, 0).astype(np.intp)
        w = np.ones(shape[axis], dtype=dtype) if weight is None else weight
        coef = np.where(valid, -w[safe], 0).astype(dtype)
        if ctx.reduction == _MEAN and valid.any():
            coef = coef / total
        pattern = np.zeros(shape, dtype=dtype)
        np.put_along_axis(pattern, np.expand_dims(safe, axis), np.expand_dims(coef, axis), axis)
        if ctx.reduction == _NONE:
            grad = np.expand_dims(grad, axis)
        return grad * pattern, None, None, None, None


class NllLoss2d(NllLoss):
    """The same loss for a (N, C, H, W) input and (N, H, W) target (``NllLoss2DBackward0``)."""

    node_name = "NllLoss2DBackward0"


def _check_nll_target_dtype(target: Any, weight: Any, input: Any, kernel: str) -> None:
    t, x = operand(target), operand(input)
    if t.dtype not in (np.int64, np.uint8):
        raise RuntimeError(
            f"expected target dtype to be Long or Byte, but got {_dtype_name(target)}"
        )
    if x.dtype.kind != "f":
        raise _not_implemented(kernel, input)
    if weight is not None and operand(weight).dtype != x.dtype:
        raise RuntimeError(
            f"expected scalar type {_dtype_name(input)} but found {_dtype_name(weight)}"
        )


def _nll_loss_1d_2d(input: Any, target: Any, weight: Any, enum: int, ignore_index: int) -> Any:
    x, t = operand(input), operand(target)
    if t.ndim > 1:
        raise RuntimeError("0D or 1D target tensor expected, multi-target not supported")
    if x.ndim == 1 and t.ndim == 1 and t.shape[0] != 1:
        raise ValueError(
            f"For 1D input, 1D target must have size 1, but got target size: {t.shape[0]}"
        )
    if x.ndim != 1 and x.shape[0] != t.shape[0]:
        raise RuntimeError(
            f"size mismatch (got input: {errors.format_size(x.shape)}, target: "
            f"{errors.format_size(t.shape)})"
        )
    classes = x.shape[-1]
    if weight is not None and (operand(weight).ndim != 1 or operand(weight).size != classes):
        raise RuntimeError(
            f"weight tensor should be defined either for all {classes} classes or no classes "
            f"but got weight tensor of shape: {errors.format_size(_shape(weight))}"
        )
    _check_nll_target_dtype(target, weight, input, "nll_loss_out_frame")
    _check_no_grad(weight, "weight", "nll_loss_forward")
    return NllLoss.apply(input, target, weight, enum, ignore_index)


def _nll_loss_2d(input: Any, target: Any, weight: Any, enum: int, ignore_index: int) -> Any:
    x, t = operand(input), operand(target)
    if t.ndim != 3:
        raise RuntimeError(
            "only batches of spatial targets supported (3D tensors) but got targets of "
            f"dimension: {t.ndim}"
        )
    if weight is not None and operand(weight).size != x.shape[1]:
        raise RuntimeError("weight tensor should be defined either for all or no classes")
    if (x.shape[0], x.shape[2], x.shape[3]) != t.shape:
        raise RuntimeError(
            f"size mismatch (got input: {errors.format_size(x.shape)} , target: "
            f"{errors.format_size(t.shape)}"
        )
    _check_nll_target_dtype(target, weight, input, "nll_loss2d_forward_out_frame")
    _check_no_grad(weight, "weight", "nll_loss2d_forward")
    return NllLoss2d.apply(input, target, weight, enum, ignore_index)


def _nll_loss_nd(input: Any, target: Any, weight: Any, enum: int, ignore_index: int) -> Any:
    """PyTorch's ``nll_loss_nd``: 1-D/2-D inputs, 4-D ones, and others folded into 4-D."""
    x, t = operand(input), operand(target)
    if x.ndim < 1:
        raise ValueError(f"Expected 1 or more dimensions (got {x.ndim})")
    if x.ndim != 1 and (t.ndim == 0 or x.shape[0] != t.shape[0]):
        batch = t.shape[0] if t.ndim else 1
        raise ValueError(
            f"Expected input batch_size ({x.shape[0]}) to match target batch_size ({batch})."
        )
    if x.ndim <= 2:
        return _nll_loss_1d_2d(input, target, weight, enum, ignore_index)
    if x.ndim == 4:
        return _nll_loss_2d(input, target, weight, enum, ignore_index)
    n, c = x.shape[0], x.shape[1]
    out_size = (n, *x.shape[2:])
    if t.shape[1:] != x.shape[2:]:
        raise RuntimeError(
            f"Expected target size {errors.format_size(out_size)}, got "
            f"{errors.format_size(t.shape)}"
        )
    folded = views.view(input.contiguous(), (n, c, 1, -1) if x.size else (n, c, 0, 0))
    folded_target = views.view(target.contiguous(), (n, 1, -1) if t.size else (n, 0, 0))
    out = _nll_loss_2d(folded, folded_target, weight, enum, ignore_index)
    return out if enum != _NONE else views.view(out, out_size)


def nll_loss(
    input: Any,
    target: Any,
    weight: Any = None,
    size_average: Any = None,
    ignore_index: int = -100,
    reduce: Any = None,
    reduction: str = "mean",
) -> Any:
    """Negative log likelihood of class indices: ``-weight[target[i]] * input[i, target[i]]``.

    'mean' averages over the counted targets' total weight.

    ``input`` holds log-probabilities, with classes on dimension 1 ((N, C), (N, C, d1, ...))
    or 0 for an unbatched (C,) input; ``target`` holds int64 (or uint8) class indices;
    entries equal to ``ignore_index`` count for nothing. Gradient: ``-weight[t]`` at each
    target's position (divided by the total weight for 'mean'), 0 elsewhere.
    Records ``NllLossBackward0`` (``NllLoss2DBackward0`` from 3 dimensions on, with views
    around it), which saves input and target.

    Example:
        >>> import minigrad
        >>> import minigrad.nn.functional as F
        >>> logp = minigrad.tensor([[-1.0, -2.0], [-3.0, -0.5]])
        >>> F.nll_loss(logp, minigrad.tensor([0, 1]))
        tensor(0.7500)
    """
    reduction = _reduction(reduction, size_average, reduce)
    enum = _reduction_enum(reduction)
    return _nll_loss_nd(input, target, weight, enum, ignore_index)


def cross_entropy(
    input: Any,
    target: Any,
    weight: Any = None,
    size_average: Any = None,
    ignore_index: int = -100,
    reduce: Any = None,
    reduction: str = "mean",
    label_smoothing: float = 0.0,
) -> Any:
    """Cross entropy between logits ``input`` and class indices or class probabilities.

    With class indices it is ``nll_loss(log_softmax(input, class_dim), target)``: nodes
    ``LogSoftmaxBackward0`` (saves its result) and ``NllLossBackward0`` (saves that result
    and the target), so writing the logits in place afterwards is legal and writing the target
    is not. ``label_smoothing`` mixes in the uniform distribution: ``(1 - s) * nll + s / C *
    smooth`` where ``smooth = -sum(log_softmax)`` over classes (ignored targets excluded).

    With a float ``target`` of the input's shape (class probabilities) it is
    ``-(log_softmax(input) * target).sum() / (N * d1 ...)`` (or 'sum', or 'none': summed over
    classes), optionally weighted per class.

    Gradient (indices, no weight, 'mean'): ``(softmax(input) - onehot(target)) / N``.

    Example:
        >>> import minigrad
        >>> import minigrad.nn.functional as F
        >>> logits = minigrad.tensor([[2.0, 0.0], [0.0, 2.0]], requires_grad=True)
        >>> F.cross_entropy(logits, minigrad.tensor([0, 1]))
        tensor(0.1269, grad_fn=<NllLossBackward0>)
    """
    reduction = _reduction(reduction, size_average, reduce)
    enum = _reduction_enum(reduction)
    x, t = operand(input), operand(target)
    if x.shape == t.shape:
        if t.dtype.kind != "f":
            raise RuntimeError(
                "Expected floating point type for target with class probabilities, got "
                f"{_dtype_name(target)}"
            )
        if ignore_index >= 0:
            raise RuntimeError("ignore_index is not supported for floating point target")
        return _cross_entropy_probabilities(input, target, weight, enum, label_smoothing)
    if label_smoothing > 0.0:
        _check_label_smoothing(label_smoothing)
        return _cross_entropy_label_smoothing(
            input, target, weight, enum, ignore_index, label_smoothing
        )
    class_dim = 0 if x.ndim == 1 else 1
    logp = reduction_module.log_softmax(input, class_dim)
    return _nll_loss_nd(logp, target, weight, enum, ignore_index)


def _check_label_smoothing(label_smoothing: float) -> None:
    if label_smoothing > 1.0:
        raise RuntimeError(
            f"label_smoothing must be between 0.0 and 1.0. Got: {_float_text(label_smoothing)}"
        )


def _float_text(value: float) -> str:
    # C++ prints a double with the shortest round-trip form, like Python's repr (1.5, 2).
    return f"{value:g}" if float(value).is_integer() else repr(float(value))


def _class_weight_view(weight: Any, ndim: int, class_dim: int) -> Any:
    """The per-class weight shaped to broadcast along ``class_dim`` (a view, as PyTorch)."""
    if ndim <= 1:
        return weight
    shape = [1] * ndim
    shape[class_dim] = _shape(weight)[0]
    return views.view(weight, tuple(shape))


def _cross_entropy_probabilities(
    input: Any, target: Any, weight: Any, enum: int, label_smoothing: float
) -> Any:
    x = operand(input)
    class_dim = 0 if x.ndim == 1 else 1
    classes = x.shape[class_dim]
    if weight is not None and (operand(weight).ndim != 1 or operand(weight).size != classes):
        raise RuntimeError(
            f"cross_entropy: weight tensor should be defined either for all {classes} classes "
            f"or no classes but got weight tensor of shape: {errors.format_size(_shape(weight))}"
        )
    logp = reduction_module.log_softmax(input, class_dim)
    if label_smoothing > 0.0:
        _check_label_smoothing(label_smoothing)
        target = AddScalar.apply(
            _mul_scalar(target, 1 - label_smoothing), label_smoothing / classes
        )
    product = ew.mul(logp, target)
    if weight is not None:
        product = ew.mul(product, _class_weight_view(weight, x.ndim, class_dim))
    if enum == _MEAN:
        total = reduction_module.sum(product)
        if x.size == 0:
            return ew.neg(total.fill_(math.nan))
        return DivScalar.apply(ew.neg(total), x.size // classes)
    if enum == _SUM:
        return ew.neg(reduction_module.sum(product))
    return ew.neg(reduction_module.sum(product, class_dim))


def _cross_entropy_label_smoothing(
    input: Any, target: Any, weight: Any, enum: int, ignore_index: int, label_smoothing: float
) -> Any:
    x = operand(input)
    class_dim = 0 if x.ndim == 1 else 1
    logp = reduction_module.log_softmax(input, class_dim)
    nll = _nll_loss_nd(logp, target, weight, enum, ignore_index)
    classes = x.shape[class_dim]
    ignore_mask = target == ignore_index
    if weight is not None:
        weighted = ew.mul(logp, _class_weight_view(weight, x.ndim, class_dim))
        smooth = ew.neg(reduction_module.sum(weighted, class_dim))
    else:
        smooth = ew.neg(reduction_module.sum(logp, class_dim))
    smooth.masked_fill_(ignore_mask, 0.0)
    if enum == _MEAN:
        keep = ~operand(ignore_mask)
        if weight is not None:
            counted = operand(target)[keep].astype(np.intp)
            denominator = _tensor(operand(weight)[counted].sum(dtype=operand(weight).dtype))
        else:
            denominator = _tensor(np.asarray(keep.sum(), dtype=np.int64))
        ret = ew.div(reduction_module.sum(smooth), denominator)
    elif enum == _SUM:
        ret = reduction_module.sum(smooth)
    else:
        ret = smooth
    return ew.add(
        _mul_scalar(nll, 1 - label_smoothing), _mul_scalar(ret, label_smoothing / classes)
    )


# ==========================================================================================
# kl_div and cosine_similarity
# ==========================================================================================


class Xlogy(Op):
    """z = x log(y), 0 where x == 0 (unless y is nan);  dx = grad log(y),  dy = grad x / y.

    dx is 0 where x == 0. Saves both operands.
    """

    num_inputs = 2

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, y: np.ndarray) -> np.ndarray:
        ctx.save_for_backward(x, y)
        dtype = result_type(x, y)
        x, y = x.astype(dtype, copy=False), y.astype(dtype, copy=False)
        return np.where((x == 0) & ~np.isnan(y), 0, x * np.log(y)).astype(dtype)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, Any]:
        x, y = ctx.saved_tensors
        return (
            grad * np.where(x != 0, np.log(y), 0) if ctx.needs_input_grad[0] else None,
            grad * x / y if ctx.needs_input_grad[1] else None,
        )


def kl_div(
    input: Any,
    target: Any,
    size_average: Any = None,
    reduce: Any = None,
    reduction: str = "mean",
    log_target: bool = False,
) -> Any:
    """Kullback-Leibler divergence of ``target`` from ``input`` (log-probabilities).

    Pointwise ``target * (log(target) - input)`` (``xlogy(t, t) - t * input``), or
    ``exp(t) * (t - input)`` with ``log_target``; then reduced. 'batchmean' divides the sum by
    the batch size (the mathematical KL divergence); 'mean' divides by every element and warns.
    A composite, as in PyTorch: ``MulBackward0`` (saves the target), ``SubBackward0``, then the
    reduction. Gradient with respect to the input: ``-target / n``.

    Example:
        >>> import minigrad
        >>> import minigrad.nn.functional as F
        >>> logp, target = minigrad.tensor([[-1.0, -0.5]]), minigrad.tensor([[0.5, 0.5]])
        >>> F.kl_div(logp, target, reduction="batchmean")
        tensor(0.0569)
    """
    if size_average is not None or reduce is not None:
        enum = _reduction_enum(_legacy_reduction(size_average, reduce))
    else:
        if reduction == "mean":
            warnings.warn(
                "reduction: 'mean' divides the total loss by both the batch size and the "
                "support size.'batchmean' divides only by the batch size, and aligns with the "
                "KL div math definition.'mean' will be changed to behave the same as "
                "'batchmean' in the next major release.",
                stacklevel=2,
            )
        enum = _reduction_enum("sum" if reduction == "batchmean" else reduction)
    if operand(input).dtype.kind in "iub" or operand(target).dtype.kind in "iub":
        raise RuntimeError("kl_div: Integral inputs not supported.")
    if log_target:
        output = ew.mul(ew.exp(target), ew.sub(target, input))
    else:
        output = ew.sub(Xlogy.apply(target, target), ew.mul(target, input))
    reduced = _apply_loss_reduction(output, enum)
    if reduction == "batchmean" and operand(input).ndim != 0:
        reduced = ew.div(reduced, operand(input).shape[0])
    return reduced


def cosine_similarity(x1: Any, x2: Any, dim: int = 1, eps: float = 1e-8) -> Any:
    """Cosine of the angle between ``x1`` and ``x2`` along ``dim`` (broadcast together).

    ``sum((x1 / max(|x1|, eps)) * (x2 / max(|x2|, eps)), dim)``, as PyTorch 2.13 computes it:
    each input divided by its norm first (``LinalgVectorNormBackward0``, a clone, clamped to
    ``eps`` without recording), then ``DivBackward0``, ``MulBackward0`` and ``SumBackward1``.

    Example:
        >>> import minigrad
        >>> import minigrad.nn.functional as F
        >>> F.cosine_similarity(minigrad.tensor([[1.0, 0.0]]), minigrad.tensor([[1.0, 1.0]]))
        tensor([0.7071])
    """
    a, b = operand(x1), operand(x2)
    common = result_type(a, b)
    if common.kind != "f":
        raise RuntimeError(
            "expected common dtype to be floating point, yet common dtype is "
            f"{display_name(common)}"
        )
    if a.dtype.kind != "f":
        x1 = cast(x1, common)
    if b.dtype.kind != "f":
        x2 = cast(x2, common)
    x1, x2 = _expand_outplace(x1, x2)
    ndim = len(_shape(x1))
    if not -max(ndim, 1) <= dim < max(ndim, 1):
        raise IndexError(errors.dim_out_of_range(dim, ndim))
    axis = dim % max(ndim, 1)
    norms = []
    for x in (x1, x2):
        norm = ew.clone(_vector_norm(x, axis))
        with grad_mode.no_grad():
            norm.clamp_(min=eps)
        norms.append(norm)
    return reduction_module.sum(ew.mul(ew.div(x1, norms[0]), ew.div(x2, norms[1])), dim)


def _vector_norm(x: Any, axis: int) -> Any:
    return linalg.vector_norm(x, 2, dim=axis, keepdim=True)


# ==========================================================================================
# dropout
# ==========================================================================================


def dropout(input: Any, p: float = 0.5, training: bool = True, inplace: bool = False) -> Any:
    """Zero each element with probability ``p`` and scale the rest by ``1 / (1 - p)``.

    What PyTorch 2.13 does on the CPU: ``input * mask`` with a fresh mask of ``1 / (1 - p)``
    and zeros (``MulBackward0``, which saves the mask: gradient ``grad * mask``); ``p == 1``
    multiplies by a 0-d zero. With ``p == 0``, ``training=False`` or an empty input the input
    itself is returned (no node). ``inplace=True`` multiplies the input in place (``mul_``).
    The mask comes from minigrad's generator (``minigrad.manual_seed``), so the zeros fall
    elsewhere than PyTorch's.

    Example:
        >>> import minigrad
        >>> import minigrad.nn.functional as F
        >>> x = minigrad.ones(4)
        >>> F.dropout(x, 0.5, training=False) is x
        True
    """
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    array = operand(input)
    if p == 0 or not training or array.size == 0:
        return input
    if p == 1:
        zero = _tensor(np.zeros((), dtype=array.dtype))
        return input.mul_(zero) if inplace else ew.mul(input, zero)
    if array.dtype.kind != "f":
        raise RuntimeError(
            f"result type Float can't be cast to the desired output type {_dtype_name(input)}"
        )
    keep = _random.generator().random(array.shape) < 1 - p
    noise = keep.astype(array.dtype)
    noise /= np.asarray(1 - p, dtype=array.dtype)
    mask = _tensor(noise)
    return input.mul_(mask) if inplace else ew.mul(input, mask)


# ==========================================================================================
# layer norm and batch norm
# ==========================================================================================


def _moments(x: Any, axes: tuple[int, ...], eps: float) -> tuple[Any, Any]:
    """Mean and ``1 / sqrt(var + eps)`` over ``axes`` (biased variance), keeping dims.

    Written with operators, so on tensors (create_graph) it is recorded: the second derivative
    then sees how mean and variance depend on x.
    """
    count = int(np.prod([_shape(x)[a] for a in axes]))
    mean = np.sum(x, axis=axes, keepdims=True) / count
    centered = x - mean
    var = np.sum(centered * centered, axis=axes, keepdims=True) / count
    return mean, 1 / np.sqrt(var + eps)


class NativeLayerNorm(Op):
    """y = (x - mean) / sqrt(var + eps) * weight + bias over the last dims (``normalized_shape``).

    With xhat = (x - mean) rstd and g = grad * weight (n elements per normalized group):
    dx = rstd (g - mean(g) - xhat mean(g xhat)),  dweight = sum(grad xhat),  dbias = sum(grad)
    over the leading dims. Saves input, weight, bias (as PyTorch, although backward does not
    read it) and the per-group mean and rstd (private).
    """

    num_inputs = 3

    @staticmethod
    def forward(
        ctx: Any, x: np.ndarray, weight: Any, bias: Any, count: int, eps: float
    ) -> np.ndarray:
        axes = tuple(range(x.ndim - count, x.ndim))
        mean, rstd = _moments(x, axes, eps)
        mean, rstd = mean.astype(x.dtype), rstd.astype(x.dtype)
        ctx.save_for_backward(x, weight, bias, mean, rstd)
        ctx.axes, ctx.eps = axes, eps
        y = (x - mean) * rstd
        if weight is not None:
            y = y * weight
        if bias is not None:
            y = y + bias
        return y.astype(x.dtype, copy=False)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, Any, Any, None, None]:
        x, weight, _bias, mean, rstd = ctx.saved_tensors
        axes = ctx.axes
        if _is_tensor(grad):  # create_graph: mean and rstd as functions of x
            mean, rstd = _moments(x, axes, ctx.eps)
        xhat = (x - mean) * rstd
        lead = tuple(range(len(_shape(x)) - len(axes)))
        needs = ctx.needs_input_grad
        dx = dw = db = None
        if needs[0]:
            g = grad if weight is None else grad * weight
            n = int(np.prod([_shape(x)[a] for a in axes]))
            g_mean = np.sum(g, axis=axes, keepdims=True) / n
            gx_mean = np.sum(g * xhat, axis=axes, keepdims=True) / n
            dx = rstd * (g - g_mean - xhat * gx_mean)
        if needs[1]:
            dw = np.sum(grad * xhat, axis=lead) if lead else grad * xhat
        if needs[2]:
            db = np.sum(grad, axis=lead) if lead else grad
        return dx, dw, db, None, None


def _check_param_dtypes(input: Any, params: Sequence[Any]) -> None:
    dtype = operand(input).dtype
    for param in params:
        if param is not None and operand(param).dtype != dtype:
            if dtype == np.float32:
                raise RuntimeError(
                    "mixed dtype (CPU): expect parameter to have scalar type of Float"
                )
            raise RuntimeError("mixed dtype (CPU): all inputs must share same datatype.")


def layer_norm(
    input: Any, normalized_shape: Any, weight: Any = None, bias: Any = None, eps: float = 1e-5
) -> Any:
    """Normalize over the last ``len(normalized_shape)`` dims, then scale and shift.

    Each group gets mean 0 and variance 1, then is multiplied by ``weight`` and shifted by
    ``bias`` (both of ``normalized_shape``).

    One ``NativeLayerNormBackward0`` node; it saves input, weight and bias (writing any of them
    in place before backward raises) and the per-group mean and 1/std.

    Example:
        >>> import minigrad
        >>> import minigrad.nn.functional as F
        >>> F.layer_norm(minigrad.tensor([[1.0, 3.0]]), (2,))
        tensor([[-1.0000,  1.0000]])
    """
    if isinstance(normalized_shape, (int, np.integer)) or not isinstance(
        normalized_shape, (tuple, list, Size)
    ):
        raise TypeError(
            "layer_norm(): argument 'normalized_shape' (position 2) must be tuple of ints, not "
            f"{type(normalized_shape).__name__}"
        )
    normalized = tuple(int(n) for n in normalized_shape)
    if not normalized:
        raise RuntimeError(
            "Expected normalized_shape to be at least 1-dimensional, i.e., containing at least "
            "one element, but got normalized_shape = []"
        )
    shown = errors.format_size(normalized)
    for name, param in (("weight", weight), ("bias", bias)):
        if param is not None and _shape(param) != normalized:
            raise RuntimeError(
                f"Expected {name} to be of same shape as normalized_shape, but got {name} of "
                f"shape {errors.format_size(_shape(param))} and normalized_shape = {shown}"
            )
    shape = _shape(input)
    if len(shape) < len(normalized) or shape[len(shape) - len(normalized):] != normalized:
        raise RuntimeError(
            f"Given normalized_shape={shown}, expected input with shape "
            f"[*, {shown[1:-1]}], but got input of size{errors.format_size(shape)}"
        )
    if operand(input).dtype.kind != "f":
        raise _not_implemented("LayerNormKernelImpl", input)
    _check_param_dtypes(input, (weight, bias))
    return NativeLayerNorm.apply(input, weight, bias, len(normalized), float(eps))


class NativeBatchNorm(Op):
    """y = (x - mean) / sqrt(var + eps) * weight + bias per channel (dim 1).

    Training: batch statistics (biased variance), and the running statistics updated in place,
    ``running = (1 - momentum) running + momentum batch`` (unbiased variance), by the kernel,
    without a version bump (as in PyTorch). Evaluation: the running statistics.
    Backward (training; xhat = (x - mean) invstd, n values per channel):
    dx = weight invstd / n (n grad - sum(grad) - xhat sum(grad xhat)); evaluation:
    dx = grad weight invstd_running.  dweight = sum(grad xhat),  dbias = sum(grad).
    Saves input, weight, running_mean, running_var (all version-checked) and the batch mean
    and invstd (private); not the bias.
    """

    num_inputs = 3

    @staticmethod
    def forward(
        ctx: Any, x: np.ndarray, weight: Any, bias: Any, running_mean: Any, running_var: Any,
        training: bool, momentum: float, eps: float,
    ) -> np.ndarray:
        axes = (0, *range(2, x.ndim))
        shape = [1] * x.ndim
        shape[1] = x.shape[1]
        if training:
            n = x.size // x.shape[1]
            mean = np.sum(x, axis=axes, keepdims=True, dtype=np.float64) / n
            var = np.sum((x - mean) ** 2, axis=axes, keepdims=True, dtype=np.float64) / n
            invstd = (1 / np.sqrt(var + eps)).astype(x.dtype)
            mean = mean.astype(x.dtype)
            if running_mean is not None:
                unbiased = np.reshape(var, -1) * (n / (n - 1))
                # The kernel's own write: PyTorch does not bump the running stats' version.
                running_mean *= 1 - momentum
                running_mean += momentum * np.reshape(mean, -1)
                running_var *= 1 - momentum
                running_var += momentum * unbiased
            saved_mean, saved_invstd = np.reshape(mean, -1), np.reshape(invstd, -1)
        else:
            mean = np.reshape(running_mean, shape)
            invstd = np.reshape(1 / np.sqrt(running_var + eps), shape)
            saved_mean = saved_invstd = np.zeros(0, dtype=x.dtype)
        ctx.save_for_backward(x, weight, running_mean, running_var, saved_mean, saved_invstd)
        ctx.training, ctx.eps, ctx.axes, ctx.shape = training, eps, axes, tuple(shape)
        y = (x - mean) * invstd
        if weight is not None:
            y = y * np.reshape(weight, shape)
        if bias is not None:
            y = y + np.reshape(bias, shape)
        return y.astype(x.dtype, copy=False)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, ...]:
        x, weight, running_mean, running_var, saved_mean, saved_invstd = ctx.saved_tensors
        axes, shape = ctx.axes, ctx.shape
        if not ctx.training:
            mean = np.reshape(running_mean, shape)
            invstd = 1 / np.sqrt(np.reshape(running_var, shape) + ctx.eps)
        elif _is_tensor(grad):  # create_graph: the batch statistics as functions of x
            mean, invstd = _moments(x, axes, ctx.eps)
        else:
            mean, invstd = np.reshape(saved_mean, shape), np.reshape(saved_invstd, shape)
        xhat = (x - mean) * invstd
        w = 1 if weight is None else np.reshape(weight, shape)
        needs = ctx.needs_input_grad
        dx = dw = db = None
        if needs[0]:
            if ctx.training:
                n = int(np.prod([_shape(x)[a] for a in axes]))
                g_mean = np.sum(grad, axis=axes, keepdims=True) / n
                gx_mean = np.sum(grad * xhat, axis=axes, keepdims=True) / n
                dx = (grad - g_mean - xhat * gx_mean) * invstd * w
            else:
                dx = grad * invstd * w
        if needs[1]:
            dw = np.sum(grad * xhat, axis=axes)
        if needs[2]:
            db = np.sum(grad, axis=axes)
        return dx, dw, db, None, None, None, None, None


def batch_norm(
    input: Any,
    running_mean: Any,
    running_var: Any,
    weight: Any = None,
    bias: Any = None,
    training: bool = False,
    momentum: float = 0.1,
    eps: float = 1e-5,
) -> Any:
    """Normalize each channel (dim 1) to mean 0 and variance 1, then scale and shift.

    In training the batch's statistics are used and the running ones updated in place (under
    the hood, as PyTorch's kernel: their version does not change); in evaluation the running
    statistics are used. One ``NativeBatchNormBackward0`` node saving input, weight,
    running_mean and running_var: writing any of them in place before backward raises.

    Example:
        >>> import minigrad
        >>> import minigrad.nn.functional as F
        >>> mean, var = minigrad.zeros(1), minigrad.ones(1)
        >>> F.batch_norm(minigrad.tensor([[1.0], [3.0]]), mean, var, training=True)
        tensor([[-1.0000],
                [ 1.0000]])
        >>> mean
        tensor([0.2000])
    """
    shape = _shape(input)
    if training:
        count = (shape[0] if shape else 1) * int(np.prod(shape[2:]))
        if count == 1:
            raise ValueError(
                "Expected more than 1 value per channel when training, got input size "
                f"{_size(shape)}"
            )
    if training and eps <= 0.0:
        raise ValueError(f"batch_norm eps must be positive during training, but got {eps}")
    if eps < 0.0:
        raise ValueError(f"batch_norm eps must be non-negative, but got {eps}")
    if (running_mean is None) != (running_var is None):
        raise ValueError(
            "running_mean and running_var must either both be None or neither be None"
        )
    if int(np.prod(shape)) == 0:
        out = ew.clone(input)
        if weight is not None:
            out = ew.mul(out, views.select(weight, 0, 0))
        if bias is not None:
            out = ew.add(out, views.select(bias, 0, 0))
        return out
    features = shape[1] if len(shape) > 1 else 0
    for name, value in (("running_mean", running_mean), ("running_var", running_var)):
        if value is not None:
            _check_features(name, features, value)
        elif not training:
            raise RuntimeError(f"{name} must be defined in evaluation mode")
    for name, value in (("weight", weight), ("bias", bias)):
        if value is not None:
            _check_features(name, features, value)
    array = operand(input)
    if array.dtype.kind != "f":
        if training and not array.flags.c_contiguous:  # PyTorch's strided path calls mean()
            raise RuntimeError(
                "mean(): could not infer output dtype. Input dtype must be either a floating "
                f"point or complex dtype. Got: {_dtype_name(input)}"
            )
        raise _not_implemented("batch_norm", input)
    _check_param_dtypes(input, (weight, bias, running_mean, running_var))
    return NativeBatchNorm.apply(
        input, weight, bias, running_mean, running_var, bool(training), float(momentum),
        float(eps),
    )


def _check_features(name: str, features: int, value: Any) -> None:
    size = operand(value).size
    if size != features:
        raise RuntimeError(f"{name} should contain {features} elements not {size}")


# ==========================================================================================
# embedding
# ==========================================================================================


class Embedding(Op):
    """y = weight[indices] (rows);  dweight = the rows of grad added at their indices.

    No gradient reaches ``padding_idx``; with ``scale_grad_by_freq`` each row is divided by its
    index's frequency.

    Saves the indices only: writing the weight in place afterwards is legal, the indices not.
    """

    @staticmethod
    def forward(
        ctx: Any, weight: np.ndarray, indices: np.ndarray, padding_idx: int, scale: bool
    ) -> np.ndarray:
        ctx.save_for_backward(indices)
        ctx.num_weights, ctx.padding_idx, ctx.scale = weight.shape[0], padding_idx, scale
        return weight[indices]

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, None, None, None]:
        (indices,) = ctx.saved_tensors
        dweight = _run(
            EmbeddingDenseBackward, grad, indices, ctx.num_weights, ctx.padding_idx, ctx.scale
        )
        return dweight, None, None, None


def _embedding_coefficients(indices: np.ndarray, padding_idx: int, scale: bool, dtype: Any) -> Any:
    """Per-lookup gradient factor: 0 at ``padding_idx``, 1 / frequency with ``scale``."""
    coef = (indices != padding_idx).astype(dtype)
    if scale:
        _, inverse, counts = np.unique(indices, return_inverse=True, return_counts=True)
        coef = coef / counts[inverse.reshape(indices.shape)].astype(dtype)
    return coef


class EmbeddingDenseBackward(Op):
    """dweight = rows of ``grad`` added at ``indices`` (the backward of Embedding).

    Linear in grad; its own gradient gathers the rows back: ``dgrad = H[indices] * coef``,
    recorded with Embedding, so derivatives of any order work. Saves the indices.
    """

    @staticmethod
    def forward(
        ctx: Any, grad: np.ndarray, indices: np.ndarray, num_weights: int, padding_idx: int,
        scale: bool,
    ) -> np.ndarray:
        ctx.save_for_backward(indices)
        ctx.padding_idx, ctx.scale = padding_idx, scale
        width = grad.shape[-1]
        coef = _embedding_coefficients(indices, padding_idx, scale, grad.dtype)
        rows = (grad * coef[..., None]).reshape(-1, width)
        result = np.zeros((num_weights, width), dtype=grad.dtype)
        np.add.at(result, indices.reshape(-1), rows)
        return result

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, None, None, None, None]:
        (indices,) = ctx.saved_tensors
        array = operand(indices)
        coef = _embedding_coefficients(array, ctx.padding_idx, ctx.scale, operand(grad).dtype)
        rows = _run(Embedding, grad, indices, -1, False)
        return rows * coef[..., None], None, None, None, None


def embedding(
    input: Any,
    weight: Any,
    padding_idx: int | None = None,
    max_norm: float | None = None,
    norm_type: float = 2.0,
    scale_grad_by_freq: bool = False,
    sparse: bool = False,
) -> Any:
    """Look up rows of ``weight`` (num_embeddings, dim) at the int64/int32 ``input`` indices.

    Gradient: each looked-up row's gradient is added to that row of ``weight`` (none for
    ``padding_idx``; divided by the index's count with ``scale_grad_by_freq``). One
    ``EmbeddingBackward0`` node saving the indices. ``max_norm`` first rescales, in place and
    without recording, the looked-up rows whose ``norm_type``-norm exceeds it (the weight's
    version goes up by one).

    Example:
        >>> import minigrad
        >>> import minigrad.nn.functional as F
        >>> F.embedding(minigrad.tensor([1, 0]), minigrad.tensor([[0.0, 1.0], [2.0, 3.0]]))
        tensor([[2., 3.],
                [0., 1.]])
    """
    if sparse:
        raise NotImplementedError("minigrad has no sparse tensors: sparse=True is not supported")
    rows = _shape(weight)[0] if _shape(weight) else 0
    if padding_idx is not None:
        if padding_idx > 0 and padding_idx >= rows:
            raise AssertionError("Padding_idx must be within num_embeddings")
        if padding_idx < 0:
            if padding_idx < -rows:
                raise AssertionError("Padding_idx must be within num_embeddings")
            padding_idx = rows + padding_idx
    else:
        padding_idx = -1
    if operand(weight).ndim != 2:
        raise RuntimeError("'weight' must be 2-D")
    indices = operand(input)
    if indices.dtype not in (np.int64, np.int32):
        raise RuntimeError(
            "Expected tensor for argument #1 'indices' to have one of the following scalar "
            f"types: Long, Int; but got {type_name(indices.dtype)} instead (while checking "
            "arguments for embedding)"
        )
    if indices.size and (indices.min() < 0 or indices.max() >= rows):
        raise IndexError("index out of range in self")
    if max_norm is not None:
        _embedding_renorm(weight, indices, max_norm, norm_type)
    return Embedding.apply(weight, input, padding_idx, bool(scale_grad_by_freq))


def _embedding_renorm(weight: Any, indices: np.ndarray, max_norm: float, norm_type: float) -> None:
    """``embedding_renorm_``: rescale the used rows above ``max_norm`` (one in-place write)."""
    if operand(weight).dtype.kind != "f":
        raise RuntimeError(
            "norm(): input dtype should be either floating point or complex. Got "
            f"{_dtype_name(weight)} instead."
        )
    used = np.unique(indices)
    rows = operand(weight)[used]
    norms = np.sum(np.abs(rows) ** norm_type, axis=1) ** (1.0 / norm_type)
    scale = np.where(norms > max_norm, max_norm / (norms + 1e-7), 1.0).astype(rows.dtype)
    with grad_mode.no_grad():
        weight[_tensor(used.astype(np.int64))] = _tensor(rows * scale[:, None])


# ==========================================================================================
# convolution
# ==========================================================================================


def _windows(x: np.ndarray, kernel: Sequence[int], stride: Sequence[int],
             dilation: Sequence[int]) -> np.ndarray:
    """A strided view (N, C, *out, *kernel) of every window of the padded input ``x``."""
    spatial = tuple(range(2, x.ndim))
    extent = tuple(d * (k - 1) + 1 for k, d in zip(kernel, dilation))
    view = sliding_window_view(x, extent, axis=spatial)
    key = (slice(None), slice(None), *(slice(None, None, s) for s in stride),
           *(slice(None, None, d) for d in dilation))
    return view[key]


def _pad_spatial(x: np.ndarray, padding: Sequence[int]) -> np.ndarray:
    if not any(padding):
        return x
    return np.pad(x, ((0, 0), (0, 0), *((p, p) for p in padding)))


def _conv_forward(x: np.ndarray, w: np.ndarray, stride: Sequence[int], padding: Sequence[int],
                  dilation: Sequence[int], groups: int) -> np.ndarray:
    """im2col convolution: every window against every filter, one einsum per group."""
    windows = _windows(_pad_spatial(x, padding), w.shape[2:], stride, dilation)
    positions, kernel = _letters(len(stride))
    spec = f"nc{positions}{kernel},oc{kernel}->no{positions}"
    in_per_group, out_per_group = w.shape[1], w.shape[0] // groups
    parts = [
        np.einsum(spec, windows[:, g * in_per_group:(g + 1) * in_per_group],
                  w[g * out_per_group:(g + 1) * out_per_group], optimize=True)
        for g in range(groups)
    ]
    return np.concatenate(parts, axis=1) if groups > 1 else parts[0]


def _letters(dims: int) -> tuple[str, str]:
    """The einsum letters of the output positions and the kernel offsets (``dims`` each)."""
    return "xyz"[:dims], "ijk"[:dims]


def _conv_weight_grad(x: np.ndarray, grad: np.ndarray, weight_shape: Sequence[int],
                      stride: Sequence[int], padding: Sequence[int], dilation: Sequence[int],
                      groups: int) -> np.ndarray:
    """dW[o, c, k] = sum over batch and positions of grad[n, o, p] * window[n, c, p, k]."""
    windows = _windows(_pad_spatial(x, padding), weight_shape[2:], stride, dilation)
    positions, kernel = _letters(len(stride))
    spec = f"no{positions},nc{positions}{kernel}->oc{kernel}"
    in_per_group, out_per_group = weight_shape[1], weight_shape[0] // groups
    parts = [
        np.einsum(spec, grad[:, g * out_per_group:(g + 1) * out_per_group],
                  windows[:, g * in_per_group:(g + 1) * in_per_group], optimize=True)
        for g in range(groups)
    ]
    return np.concatenate(parts, axis=0) if groups > 1 else parts[0]


def _conv_input_grad(grad: np.ndarray, w: np.ndarray, input_shape: Sequence[int],
                     stride: Sequence[int], padding: Sequence[int], dilation: Sequence[int],
                     groups: int) -> np.ndarray:
    """The transposed convolution: each output position's gradient spread over its window.

    One strided slice per kernel position (a loop over the kernel, not the pixels).
    """
    padded_shape = (*input_shape[:2], *(n + 2 * p for n, p in zip(input_shape[2:], padding)))
    dtype = np.result_type(grad, w)
    result = np.zeros(padded_shape, dtype=dtype)
    in_per_group, out_per_group = w.shape[1], w.shape[0] // groups
    out = grad.shape[2:]
    for g in range(groups):
        gpart = grad[:, g * out_per_group:(g + 1) * out_per_group]
        filters = w[g * out_per_group:(g + 1) * out_per_group]
        # (N, *out, C/g, *kernel): every output position's contribution to its window
        spread = np.tensordot(gpart, filters, ([1], [0]))
        channels = slice(g * in_per_group, (g + 1) * in_per_group)
        for k in itertools.product(*(range(n) for n in w.shape[2:])):
            region = tuple(
                slice(ki * d, ki * d + s * (o - 1) + 1, s)
                for ki, d, s, o in zip(k, dilation, stride, out)
            )
            contribution = spread[(Ellipsis, *k)]  # (N, *out, C/g)
            result[(slice(None), channels, *region)] += np.moveaxis(contribution, -1, 1)
    crop = tuple(slice(p, p + n) for p, n in zip(padding, input_shape[2:]))
    return result[(slice(None), slice(None), *crop)]


class Convolution(Op):
    """y = conv(x, w) + b: every window of the padded input against every filter of its group.

    Windows are strided and dilated; the input is zero-padded.

    dx = the transposed convolution of grad with w (ConvolutionInputGrad),
    dw = the correlation of x's windows with grad (ConvolutionWeightGrad),
    db = grad summed over batch and positions. The three ops are each other's gradients, so
    second derivatives work. Saves input and weight (not the bias), as PyTorch.
    """

    num_inputs = 3

    @staticmethod
    def forward(
        ctx: Any, x: np.ndarray, w: np.ndarray, b: Any, stride: tuple[int, ...],
        padding: tuple[int, ...], dilation: tuple[int, ...], groups: int,
    ) -> np.ndarray:
        ctx.save_for_backward(x, w)
        ctx.params = stride, padding, dilation, groups
        y = _conv_forward(x, w, stride, padding, dilation, groups)
        if b is not None:
            y = y + np.reshape(b, (1, -1) + (1,) * len(stride))
        return np.ascontiguousarray(y, dtype=x.dtype)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, ...]:
        x, w = ctx.saved_tensors
        params = ctx.params
        needs = ctx.needs_input_grad
        dx = _run(ConvolutionInputGrad, grad, w, _shape(x), *params) if needs[0] else None
        dw = _run(ConvolutionWeightGrad, x, grad, _shape(w), *params) if needs[1] else None
        db = np.sum(grad, axis=(0, *range(2, 2 + len(params[0])))) if needs[2] else None
        return dx, dw, db, None, None, None, None


class ConvolutionInputGrad(Op):
    """dx = the transposed convolution of ``grad`` with ``w`` (the input's gradient of a conv).

    Bilinear: d(grad) = conv(H, w),  dw = ConvolutionWeightGrad(H, grad).  Saves both inputs
    (each as the other needs a gradient).
    """

    node_name = "ConvolutionBackwardBackward0"
    num_inputs = 2

    @staticmethod
    def forward(
        ctx: Any, grad: np.ndarray, w: np.ndarray, input_shape: tuple[int, ...],
        stride: tuple[int, ...], padding: tuple[int, ...], dilation: tuple[int, ...],
        groups: int,
    ) -> np.ndarray:
        needs = ctx.needs_input_grad
        ctx.save_for_backward(grad if needs[1] else None, w if needs[0] else None)
        ctx.params = stride, padding, dilation, groups
        ctx.weight_shape = w.shape
        result = _conv_input_grad(grad, w, input_shape, stride, padding, dilation, groups)
        return np.ascontiguousarray(result, dtype=grad.dtype)

    @staticmethod
    def backward(ctx: Any, h: Any) -> tuple[Any, ...]:
        grad, w = ctx.saved_tensors
        params = ctx.params
        needs = ctx.needs_input_grad
        dgrad = _run(Convolution, h, w, None, *params) if needs[0] else None
        dw = _run(ConvolutionWeightGrad, h, grad, ctx.weight_shape, *params) if needs[1] else None
        return dgrad, dw, None, None, None, None, None


class ConvolutionWeightGrad(Op):
    """dw = the correlation of ``x``'s windows with ``grad`` (the weight's gradient of a conv).

    Bilinear: dx = ConvolutionInputGrad(grad, H),  d(grad) = conv(x, H).  Saves both inputs
    (each as the other needs a gradient).
    """

    node_name = "ConvolutionBackwardBackward0"
    num_inputs = 2

    @staticmethod
    def forward(
        ctx: Any, x: np.ndarray, grad: np.ndarray, weight_shape: tuple[int, ...],
        stride: tuple[int, ...], padding: tuple[int, ...], dilation: tuple[int, ...],
        groups: int,
    ) -> np.ndarray:
        needs = ctx.needs_input_grad
        ctx.save_for_backward(x if needs[1] else None, grad if needs[0] else None)
        ctx.params = stride, padding, dilation, groups
        ctx.input_shape = x.shape
        result = _conv_weight_grad(x, grad, weight_shape, stride, padding, dilation, groups)
        return np.ascontiguousarray(result, dtype=x.dtype)

    @staticmethod
    def backward(ctx: Any, h: Any) -> tuple[Any, ...]:
        x, grad = ctx.saved_tensors
        params = ctx.params
        needs = ctx.needs_input_grad
        dx = _run(ConvolutionInputGrad, grad, h, ctx.input_shape, *params) if needs[0] else None
        dgrad = _run(Convolution, x, h, None, *params) if needs[1] else None
        return dx, dgrad, None, None, None, None, None


_C_TYPE_NAMES = {"float32": "float", "float64": "double", "float16": "c10::Half",
                 "int64": "long int", "int32": "int"}


def _as_list(value: Any, dims: int) -> tuple[int, ...]:
    return (int(value),) * dims if isinstance(value, (int, np.integer)) else tuple(value)


def _expand_param(values: tuple[int, ...], name: str, dims: int) -> tuple[int, ...]:
    if len(values) == 1:
        return (int(values[0]),) * dims
    if len(values) != dims:
        raise RuntimeError(
            f"expected {name} to be a single integer value or a list of {dims} values to match "
            f"the convolution dimensions, but got {name}={list(values)}"
        )
    return tuple(int(v) for v in values)


_same_padding_warned = False


def _convolution(
    input: Any, weight: Any, bias: Any, stride: Any, padding: Any, dilation: Any, groups: int,
    dims: int, name: str,
) -> Any:
    """PyTorch's ``conv1d`` / ``conv2d``: batchify, checks, ``ConvolutionBackward0``."""
    x, w = operand(input), operand(weight)
    if bias is not None and not isinstance(padding, str) and operand(bias).dtype != x.dtype:
        raise RuntimeError(
            f"Input type ({_C_TYPE_NAMES.get(x.dtype.name, x.dtype.name)}) and bias type "
            f"({_C_TYPE_NAMES.get(operand(bias).dtype.name, operand(bias).dtype.name)}) should "
            "be the same"
        )
    if x.ndim not in (dims + 1, dims + 2):
        raise RuntimeError(
            f"Expected {dims + 1}D (unbatched) or {dims + 2}D (batched) input to {name}, but "
            f"got input of size: {errors.format_size(x.shape)}"
        )
    # PyTorch's binding turns a number into a list of ``dims`` values (stride=1 -> [1, 1]).
    stride, dilation = _as_list(stride, dims), _as_list(dilation, dims)
    if not isinstance(padding, str):
        padding = _as_list(padding, dims)
    batched = x.ndim == dims + 2
    if not batched:
        input = views.unsqueeze(input, 0)
        x = operand(input)
    if w.ndim < 3:
        raise RuntimeError("weight should have at least three dimensions")
    if groups <= 0:
        raise RuntimeError("non-positive groups is not supported")
    kdims = w.ndim - 2
    if isinstance(padding, str):
        if padding == "valid":
            padding = (0,)
        elif padding == "same":
            input, padding = _same_padding(input, w, stride, dilation, kdims)
            x = operand(input)
        else:
            raise RuntimeError(f"Invalid padding string: '{padding}'")
    stride = _expand_param(stride, "stride", kdims)
    padding = _expand_param(padding, "padding", kdims)
    dilation = _expand_param(dilation, "dilation", kdims)
    _check_conv_shapes(x, w, bias, stride, padding, dilation, groups)
    if w.dtype != x.dtype:
        if x.dtype == np.float32 or w.dtype != np.float32:
            raise RuntimeError(
                f"Input type ({type_name(x.dtype)}) and weight type ({type_name(w.dtype)}) "
                "should be the same or input should be a MKLDNN tensor and weight is a dense "
                "tensor"
            )
        raise RuntimeError(
            f"expected scalar type {display_name(x.dtype)} but found {display_name(w.dtype)}"
        )
    out = Convolution.apply(input, weight, bias, stride, padding, dilation, int(groups))
    return out if batched else views.squeeze(out, 0)


def _same_padding(
    input: Any, w: np.ndarray, stride: Any, dilation: Any, dims: int
) -> tuple[Any, tuple[int, ...]]:
    """Padding that keeps the size (stride 1); an uneven total pads the far end first."""
    global _same_padding_warned
    strides, dilations = tuple(stride), tuple(dilation)
    if len(strides) not in (1, dims):
        raise RuntimeError(f"stride cannot broadcast to {dims} dimensions")
    if len(dilations) not in (1, dims):
        raise RuntimeError(f"dilation cannot broadcast to {dims} dimensions")
    if any(s != 1 for s in strides):
        raise RuntimeError("padding='same' is not supported for strided convolutions")
    left, extra = [], []
    for i in range(dims):
        d = dilations[0] if len(dilations) == 1 else dilations[i]
        total = d * (w.shape[i + 2] - 1)
        left.append(total // 2)
        extra.append(total - 2 * (total // 2))
    if any(extra):
        if not _same_padding_warned:
            _same_padding_warned = True
            warnings.warn(
                "Using padding='same' with even kernel lengths and odd dilation may require a "
                "zero-padded copy of the input be created",
                UserWarning,
                stacklevel=4,
            )
        pad: list[int] = []
        for i in reversed(range(dims)):  # F.pad order: last dimension first
            pad.extend((0, extra[i]))
        input = shape_ops.pad(input, tuple(pad))
    return input, tuple(left)


def _check_conv_shapes(x: np.ndarray, w: np.ndarray, bias: Any, stride: tuple[int, ...],
                       padding: tuple[int, ...], dilation: tuple[int, ...], groups: int) -> None:
    """PyTorch's ``check_shape_forward``, in its order."""
    if any(p < 0 for p in padding):
        raise RuntimeError("negative padding is not supported")
    if any(s <= 0 for s in stride):
        raise RuntimeError("non-positive stride is not supported")
    if any(d <= 0 for d in dilation):
        raise RuntimeError("non-positive dilation is not supported")
    wshape = errors.format_size(w.shape)
    if w.ndim != x.ndim:
        raise RuntimeError(
            f"Expected {w.ndim}-dimensional input for {w.ndim}-dimensional weight {wshape}, but "
            f"got {x.ndim}-dimensional input of size {errors.format_size(x.shape)} instead"
        )
    if w.shape[0] < groups:
        raise RuntimeError(
            f"Given groups={groups}, expected weight to be at least {groups} at dimension 0, but "
            f"got weight of size {wshape} instead"
        )
    if w.shape[0] % groups:
        raise RuntimeError(
            f"Given groups={groups}, expected weight to be divisible by {groups} at dimension 0, "
            f"but got weight of size [{wshape}] instead"
        )
    if x.shape[1] != w.shape[1] * groups:
        raise RuntimeError(
            f"Given groups={groups}, weight of size {wshape}, expected input"
            f"{errors.format_size(x.shape)} to have {w.shape[1] * groups} channels, but got "
            f"{x.shape[1]} channels instead"
        )
    if bias is not None and (operand(bias).ndim != 1 or operand(bias).shape[0] != w.shape[0]):
        raise RuntimeError(
            f"Given weight of size {wshape}, expected bias to be 1-dimensional with {w.shape[0]} "
            f"elements, but got bias of size {errors.format_size(_shape(bias))} instead"
        )
    padded = [n + 2 * p for n, p in zip(x.shape[2:], padding)]
    kernel = [d * (k - 1) + 1 for k, d in zip(w.shape[2:], dilation)]
    if any(p < k for p, k in zip(padded, kernel)):
        raise RuntimeError(
            "Calculated padded input size per channel: ("
            + " x ".join(map(str, padded)) + "). Kernel size: ("
            + " x ".join(map(str, kernel)) + "). Kernel size can't be greater than actual input "
            "size"
        )


def conv1d(
    input: Any, weight: Any, bias: Any = None, stride: Any = 1, padding: Any = 0,
    dilation: Any = 1, groups: int = 1,
) -> Any:
    """1-D convolution (cross-correlation) of ``input`` with ``weight``.

    ``input`` is (N, C_in, L) or (C_in, L), ``weight`` (C_out, C_in / groups, K).

    ``padding`` is a number, a 1-tuple, 'valid' (0) or 'same' (output length = input length,
    stride 1). Recorded as one ``ConvolutionBackward0`` node (with Unsqueeze/Squeeze around it
    for an unbatched input), which saves input and weight.

    Example:
        >>> import minigrad
        >>> import minigrad.nn.functional as F
        >>> F.conv1d(minigrad.ones(1, 1, 4), minigrad.ones(1, 1, 2))
        tensor([[[2., 2., 2.]]])
    """
    return _convolution(input, weight, bias, stride, padding, dilation, groups, 1, "conv1d")


def conv2d(
    input: Any, weight: Any, bias: Any = None, stride: Any = 1, padding: Any = 0,
    dilation: Any = 1, groups: int = 1,
) -> Any:
    """2-D convolution (cross-correlation) of ``input`` with ``weight``, plus ``bias``.

    ``input`` is (N, C_in, H, W) or (C_in, H, W), ``weight`` (C_out, C_in / groups, kH, kW),
    ``bias`` (C_out,).

    ``out[n, o] = b[o] + sum over c in o's group, i, j of w[o, c, i, j] *
    x_padded[n, c, s*y + d*i, s*x + d*j]``. Gradients: the input's is the transposed
    convolution of ``grad`` with ``weight``, the weight's the correlation of the input with
    ``grad``, the bias's the sum of ``grad``. One ``ConvolutionBackward0`` node saving input and
    weight. Computed with numpy (strided windows and tensordot), not loops over pixels.

    Example:
        >>> import minigrad
        >>> import minigrad.nn.functional as F
        >>> F.conv2d(minigrad.ones(1, 1, 3, 3), minigrad.ones(1, 1, 2, 2))
        tensor([[[[4., 4.],
                  [4., 4.]]]])
    """
    return _convolution(input, weight, bias, stride, padding, dilation, groups, 2, "conv2d")


# ==========================================================================================
# pooling
# ==========================================================================================


def _pool_output_size(size: int, kernel: int, pad: int, stride: int, dilation: int,
                      ceil_mode: bool) -> int:
    """PyTorch's ``pooling_output_shape`` with its checks."""
    if stride == 0:
        raise RuntimeError("stride should not be zero")
    if pad < 0:
        raise RuntimeError(f"pad must be non-negative, but got pad: {pad}")
    if pad > _trunc_div((kernel - 1) * dilation + 1, 2):
        raise RuntimeError(
            f"pad should be at most half of effective kernel size, but got pad={pad}, "
            f"kernel_size={kernel} and dilation={dilation}"
        )
    numerator = size + 2 * pad - dilation * (kernel - 1) - 1 + (stride - 1 if ceil_mode else 0)
    out = numerator // stride + 1
    if ceil_mode and (out - 1) * stride >= size + pad:
        out -= 1
    return out


def _pool_params(name: str, kernel_size: Any, stride: Any, padding: Any,
                 dilation: Any = 1) -> tuple[tuple[int, int], ...]:
    def pair(value: Any, message: str, allow_empty: bool = False) -> tuple[int, int] | None:
        values = (value,) if isinstance(value, (int, np.integer)) else tuple(value)
        if allow_empty and not values:
            return None
        if len(values) not in (1, 2):
            raise RuntimeError(f"{name}: {message}")
        return (int(values[0]), int(values[-1]))

    kernel = pair(kernel_size, "kernel_size must either be a single int, or a tuple of two ints")
    steps = pair((() if stride is None else stride),
                 "stride must either be omitted, a single int, or a tuple of two ints", True)
    pads = pair(padding, "padding must either be a single int, or a tuple of two ints")
    dils = pair(dilation, "dilation must be either a single int, or a tuple of two ints")
    assert kernel is not None and pads is not None and dils is not None
    return kernel, steps or kernel, pads, dils


def _pool_shape_check(x: np.ndarray, kernel: tuple[int, int], stride: tuple[int, int],
                      padding: tuple[int, int], dilation: tuple[int, int],
                      out: tuple[int, int]) -> None:
    """PyTorch's ``pool2d_shape_check``."""
    if kernel[0] <= 0 or kernel[1] <= 0:
        raise RuntimeError(
            f"kernel size should be greater than zero, but got kH: {kernel[0]} kW: {kernel[1]}"
        )
    if stride[0] <= 0 or stride[1] <= 0:
        raise RuntimeError(
            f"stride should be greater than zero, but got dH: {stride[0]} dW: {stride[1]}"
        )
    if dilation[0] <= 0 or dilation[1] <= 0:
        raise RuntimeError(
            "dilation should be greater than zero, but got dilationH: "
            f"{dilation[0]} dilationW: {dilation[1]}"
        )
    valid = x.shape[-3] != 0 and x.shape[-2] != 0
    if not ((x.ndim == 3 and x.shape[0] != 0 and valid) or (x.ndim == 4 and valid
                                                            and x.shape[3] != 0)):
        raise RuntimeError(
            "Expected 3D or 4D (batch mode) tensor with optional 0 dim batch size for input, "
            f"but got:{errors.format_size(x.shape)}"
        )
    if kernel[1] // 2 < padding[1] or kernel[0] // 2 < padding[0]:
        raise RuntimeError(
            "pad should be smaller than or equal to half of kernel size, but got padW = "
            f"{padding[1]}, padH = {padding[0]}, kW = {kernel[1]}, kH = {kernel[0]}"
        )
    if out[0] < 1 or out[1] < 1:
        planes, height, width = x.shape[-3:]
        raise RuntimeError(
            f"Given input size: ({planes}x{height}x{width}). Calculated output size: "
            f"({planes}x{out[0]}x{out[1]}). Output size is too small"
        )


def _as_batch(x: np.ndarray) -> np.ndarray:
    return x if x.ndim == 4 else x[None]


def _window_starts(out: int, stride: int, pad: int) -> np.ndarray:
    return np.arange(out) * stride - pad


class MaxPool2DWithIndices(Op):
    """y = the maximum of each (dilated, strided) window, and its flat index in the input plane.

    dx = grad placed at those indices (added where windows share a maximum); the indices take
    no gradient. Saves the input and the indices (output 1), as PyTorch: writing the input (or
    the indices) in place before backward raises, writing the output does not. Ties go to the
    first maximum, a nan wins (the last one), padding never does.
    """

    node_name = "MaxPool2DWithIndicesBackward0"

    @staticmethod
    def forward(
        ctx: Any, x: np.ndarray, kernel: tuple[int, int], stride: tuple[int, int],
        padding: tuple[int, int], dilation: tuple[int, int], out: tuple[int, int],
    ) -> tuple[np.ndarray, np.ndarray]:
        batch = _as_batch(x)
        height, width = batch.shape[2:]
        fill = -np.inf if batch.dtype.kind == "f" else np.iinfo(batch.dtype).min
        extent = [d * (k - 1) + 1 for k, d in zip(kernel, dilation)]
        far = [max(0, (o - 1) * s + e - n - p)
               for o, s, e, n, p in zip(out, stride, extent, (height, width), padding)]
        padded = np.pad(batch, ((0, 0), (0, 0), (padding[0], far[0]), (padding[1], far[1])),
                        constant_values=fill)
        windows = _windows(padded, kernel, stride, dilation)[:, :, :out[0], :out[1]]
        flat = windows.reshape(*windows.shape[:4], kernel[0] * kernel[1])
        choice = np.argmax(flat, axis=-1)
        if batch.dtype.kind == "f":
            nan = np.isnan(flat)
            last_nan = flat.shape[-1] - 1 - np.argmax(nan[..., ::-1], axis=-1)
            choice = np.where(nan.any(axis=-1), last_nan, choice)
        values = np.take_along_axis(flat, choice[..., None], -1)[..., 0]
        # Where each window position lies in the input plane, and whether it is padding.
        rows = (_window_starts(out[0], stride[0], padding[0])[:, None]
                + np.arange(kernel[0]) * dilation[0])  # (oh, kh)
        cols = (_window_starts(out[1], stride[1], padding[1])[:, None]
                + np.arange(kernel[1]) * dilation[1])  # (ow, kw)
        r = rows[:, None, :, None]
        c = cols[None, :, None, :]
        position = (r * width + c).reshape(out[0], out[1], -1)
        inside = ((r >= 0) & (r < height) & (c >= 0) & (c < width)).reshape(out[0], out[1], -1)
        first_inside = np.argmax(inside, axis=-1)
        chosen_inside = np.take_along_axis(
            np.broadcast_to(inside, choice.shape + inside.shape[-1:]), choice[..., None], -1
        )[..., 0]
        choice = np.where(chosen_inside, choice, first_inside)
        indices = np.take_along_axis(
            np.broadcast_to(position, choice.shape + position.shape[-1:]), choice[..., None], -1
        )[..., 0].astype(np.int64)
        if x.ndim == 3:
            values, indices = values[0], indices[0]
        values = np.ascontiguousarray(values)
        indices = np.ascontiguousarray(indices)
        ctx.save_for_backward(x, indices)
        ctx.input_shape = x.shape
        return values, indices

    @staticmethod
    def backward(ctx: Any, grad: Any, _indices_grad: Any = None) -> tuple[Any, ...]:
        _x, indices = ctx.saved_tensors
        dx = _run(MaxPool2DWithIndicesBackward, grad, indices, ctx.input_shape)
        return dx, None, None, None, None, None


class MaxPool2DWithIndicesBackward(Op):
    """dx = ``grad`` added at ``indices`` of each input plane (max pooling's backward).

    Linear in grad; its gradient gathers back: d(grad) = H at the indices (MaxPoolGather),
    whose own gradient is this op again. Saves the indices.
    """

    @staticmethod
    def forward(ctx: Any, grad: np.ndarray, indices: np.ndarray,
                input_shape: tuple[int, ...]) -> np.ndarray:
        ctx.save_for_backward(indices)
        plane = input_shape[-1] * input_shape[-2]
        planes = int(np.prod(input_shape[:-2]))
        per_plane = int(np.prod(indices.shape[-2:]))
        offsets = indices.reshape(planes, per_plane) + (np.arange(planes) * plane)[:, None]
        total = np.bincount(offsets.ravel(), weights=grad.reshape(-1).astype(np.float64),
                            minlength=planes * plane)
        return total.astype(grad.dtype).reshape(input_shape)

    @staticmethod
    def backward(ctx: Any, h: Any) -> tuple[Any, None, None]:
        (indices,) = ctx.saved_tensors
        return _run(MaxPoolGather, h, indices), None, None


class MaxPoolGather(Op):
    """y = x at ``indices`` of each plane;  dx = grad added back at the indices.

    The double backward of max pooling. Saves the indices.
    """

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, indices: np.ndarray) -> np.ndarray:
        ctx.save_for_backward(indices)
        ctx.input_shape = x.shape
        planes = int(np.prod(x.shape[:-2]))
        flat = x.reshape(planes, x.shape[-2] * x.shape[-1])
        per_plane = int(np.prod(indices.shape[-2:]))
        picked = np.take_along_axis(flat, indices.reshape(planes, per_plane), axis=1)
        return picked.reshape(indices.shape)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, None]:
        (indices,) = ctx.saved_tensors
        return _run(MaxPool2DWithIndicesBackward, grad, indices, ctx.input_shape), None


def max_pool2d(
    input: Any, kernel_size: Any, stride: Any = None, padding: Any = 0, dilation: Any = 1,
    ceil_mode: bool = False, return_indices: bool = False,
) -> Any:
    """The maximum of each ``kernel_size`` window of a (N, C, H, W) or (C, H, W) input.

    Windows move by ``stride`` (default: the kernel size), over an input padded by ``padding``
    (at most half the kernel; padding never wins), their elements ``dilation`` apart;
    ``ceil_mode`` keeps a last partial window. Gradient: ``grad`` routed to each window's
    maximum. One ``MaxPool2DWithIndicesBackward0`` node that saves the input and the indices;
    ``return_indices=True`` also returns the indices (flat positions in each input plane).

    Example:
        >>> import minigrad
        >>> import minigrad.nn.functional as F
        >>> F.max_pool2d(minigrad.arange(16.0).reshape(1, 1, 4, 4), 2)
        tensor([[[[ 5.,  7.],
                  [13., 15.]]]])
    """
    kernel, steps, pads, dils = _pool_params("max_pool2d", kernel_size, stride, padding, dilation)
    x = operand(input)
    if x.ndim not in (3, 4):
        raise RuntimeError("non-empty 3D or 4D (batch mode) tensor expected for input")
    out = tuple(
        _pool_output_size(x.shape[i - 2], kernel[i], pads[i], steps[i], dils[i], ceil_mode)
        for i in range(2)
    )
    _pool_shape_check(x, kernel, steps, pads, dils, out)  # type: ignore[arg-type]
    values, indices = MaxPool2DWithIndices.apply(input, kernel, steps, pads, dils, out)
    return (values, indices) if return_indices else values


class AvgPool2D(Op):
    """y = the sum of each window of the zero-padded input divided by its divisor.

    The divisor is the window size, clipped to the padded input (without the padding if
    ``count_include_pad=False``), or ``divisor_override``.

    dx = each output's grad / divisor spread back over its window (AvgPool2DBackward), a linear
    map whose gradient is this op again. Saves the input (PyTorch does, for its shape).
    """

    @staticmethod
    def forward(
        ctx: Any, x: np.ndarray, kernel: tuple[int, int], stride: tuple[int, int],
        padding: tuple[int, int], out: tuple[int, int], count_include_pad: bool,
        divisor_override: Any,
    ) -> np.ndarray:
        ctx.save_for_backward(x)
        ctx.params = kernel, stride, padding, out, count_include_pad, divisor_override
        ctx.input_shape = x.shape
        batch = _as_batch(x)
        padded = np.pad(batch, ((0, 0), (0, 0), *_avg_pads(batch.shape[2:], kernel, stride,
                                                             padding, out)))
        windows = _windows(padded, kernel, stride, (1, 1))[:, :, :out[0], :out[1]]
        divisor = _avg_divisors(batch.shape[2:], kernel, stride, padding, out,
                                count_include_pad, divisor_override)
        total = windows.sum(axis=(-2, -1), dtype=x.dtype if x.dtype.kind == "f" else None)
        safe = np.where(divisor > 0, divisor, 1)
        if x.dtype.kind == "f":
            y = np.where(divisor > 0, total / safe, 0)
        else:  # integer pooling divides rounding toward zero, as C++ does
            y = np.where(divisor > 0, np.sign(total) * (np.abs(total) // safe), 0)
        y = y.astype(x.dtype)
        return np.ascontiguousarray(y[0] if x.ndim == 3 else y)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, ...]:
        return (_run(AvgPool2DBackward, grad, ctx.input_shape, *ctx.params),
                None, None, None, None, None, None)


def _avg_pads(size: Sequence[int], kernel: Sequence[int], stride: Sequence[int],
              padding: Sequence[int], out: Sequence[int]) -> list[tuple[int, int]]:
    return [(p, max(0, (o - 1) * s + k - n - p))
            for n, k, s, p, o in zip(size, kernel, stride, padding, out)]


def _avg_divisors(size: Sequence[int], kernel: Sequence[int], stride: Sequence[int],
                  padding: Sequence[int], out: Sequence[int], count_include_pad: bool,
                  divisor_override: Any) -> np.ndarray:
    """The divisor of each output position (PyTorch's avg_pool2d kernel)."""
    if divisor_override is not None:
        return np.full(tuple(out), divisor_override, dtype=np.int64)
    spans = []
    for n, k, s, p, o in zip(size, kernel, stride, padding, out):
        start = np.arange(o) * s - p
        end = np.minimum(start + k, n + p)
        pooled = end - start
        start, end = np.maximum(start, 0), np.minimum(end, n)
        spans.append(pooled if count_include_pad else end - start)
    return spans[0][:, None] * spans[1][None, :]


class AvgPool2DBackward(Op):
    """dx = each output gradient / its divisor, added over its window (avg pooling's backward).

    Linear in grad; its gradient is average pooling of the incoming gradient. Saves nothing.
    """

    @staticmethod
    def forward(
        ctx: Any, grad: np.ndarray, input_shape: tuple[int, ...], kernel: tuple[int, int],
        stride: tuple[int, int], padding: tuple[int, int], out: tuple[int, int],
        count_include_pad: bool, divisor_override: Any,
    ) -> np.ndarray:
        ctx.params = kernel, stride, padding, out, count_include_pad, divisor_override
        batch = grad if grad.ndim == 4 else grad[None]
        size = input_shape[-2:]
        divisor = _avg_divisors(size, kernel, stride, padding, out, count_include_pad,
                                divisor_override)
        share = batch / np.where(divisor > 0, divisor, 1) * (divisor > 0)
        pads = _avg_pads(size, kernel, stride, padding, out)
        padded = np.zeros((*batch.shape[:2], *(n + lo + hi for n, (lo, hi) in zip(size, pads))),
                          dtype=grad.dtype)
        for i, j in itertools.product(range(kernel[0]), range(kernel[1])):
            padded[:, :, i:i + stride[0] * (out[0] - 1) + 1:stride[0],
                   j:j + stride[1] * (out[1] - 1) + 1:stride[1]] += share
        result = padded[:, :, pads[0][0]:pads[0][0] + size[0], pads[1][0]:pads[1][0] + size[1]]
        result = np.ascontiguousarray(result, dtype=grad.dtype)
        return result if len(input_shape) == 4 else result[0]

    @staticmethod
    def backward(ctx: Any, h: Any) -> tuple[Any, ...]:
        return (_run(AvgPool2D, h, *ctx.params),) + (None,) * 8


def avg_pool2d(
    input: Any, kernel_size: Any, stride: Any = None, padding: Any = 0, ceil_mode: bool = False,
    count_include_pad: bool = True, divisor_override: int | None = None,
) -> Any:
    """The mean of each ``kernel_size`` window of a (N, C, H, W) or (C, H, W) input.

    Zero padding counts in the mean unless ``count_include_pad=False``; ``divisor_override``
    replaces the divisor. Gradient: ``grad / divisor`` spread evenly over each window. One
    ``AvgPool2DBackward0`` node, which saves the input.

    Example:
        >>> import minigrad
        >>> import minigrad.nn.functional as F
        >>> F.avg_pool2d(minigrad.arange(16.0).reshape(1, 1, 4, 4), 2)
        tensor([[[[ 2.5000,  4.5000],
                  [10.5000, 12.5000]]]])
    """
    kernel, steps, pads, _ = _pool_params("avg_pool2d", kernel_size, stride, padding)
    if divisor_override is not None and divisor_override == 0:
        raise RuntimeError("divisor must be not zero")
    x = operand(input)
    for dim in (-3, -2, -1):
        if dim < -x.ndim:
            raise IndexError(errors.dim_out_of_range(dim, x.ndim))
    out = tuple(
        _pool_output_size(x.shape[i - 2], kernel[i], pads[i], steps[i], 1, ceil_mode)
        for i in range(2)
    )
    _pool_shape_check(x, kernel, steps, pads, (1, 1), out)  # type: ignore[arg-type]
    return AvgPool2D.apply(input, kernel, steps, pads, out, bool(count_include_pad),
                           divisor_override)
