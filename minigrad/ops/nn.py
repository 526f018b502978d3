"""Shared pieces of the neural-network ops, and ``linear``.

The neural-network functions (``minigrad.nn.functional``) live with their ops by family:
``losses.py``, ``normalization.py``, ``embedding.py``, ``convolution.py``, ``pooling.py``. Like
PyTorch, some are one kernel with its own backward node (``MseLossBackward0``,
``ConvolutionBackward0``...) and others compositions of smaller ops (``l1_loss`` is
``(input - target).abs().mean()``, ``cross_entropy`` is ``log_softmax`` then ``nll_loss``), so a
graph recorded by minigrad has the same nodes and saves the same tensors as PyTorch's: that
decides which later in-place writes make backward raise.

Backward formulas run on arrays (the fast path) and on tensors (``create_graph=True``). Where a
backward step has no tensor equivalent (scattering into zeros, a transposed convolution) it is
an op of its own, whose backward is again made of ops, so derivatives of any order work.
``_run`` picks the array function or the recorded op.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from typing import Any

import numpy as np

from minigrad import errors
from minigrad._dtype import display_name, type_name
from minigrad._size import Size
from minigrad.autograd.function import NO_GRAD_CTX, Op
from minigrad.autograd.variable import TensorBase
from minigrad.ops import linalg, views
from minigrad.ops import reduction as reduction_module
from minigrad.ops._helpers import operand


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

    fields = ("c",)

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

    fields = ("c",)

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
    return _expand_pair(a, b, only_if_needed=True)


def _expand_outplace(a: Any, b: Any) -> tuple[Any, Any]:
    """C++'s two-tensor ``expand_outplace``: if the shapes differ, *both* are expanded."""
    return _expand_pair(a, b, only_if_needed=False)


def _expand_pair(a: Any, b: Any, only_if_needed: bool) -> tuple[Any, Any]:
    shape_a, shape_b = _shape(a), _shape(b)
    if shape_a == shape_b:
        return a, b
    try:
        shape = np.broadcast_shapes(shape_a, shape_b)
    except ValueError:
        raise RuntimeError(errors.broadcast_mismatch(shape_a, shape_b)) from None
    return (
        a if only_if_needed and shape_a == shape else views.expand(a, shape),
        b if only_if_needed and shape_b == shape else views.expand(b, shape),
    )


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
