"""``linear`` (``F.linear``): y = input @ weight.T + bias, recorded as PyTorch records it.

PyTorch decomposes ``linear`` by the input's rank: a 2-D input with a bias is one ``addmm``
(``AddmmBackward0``), other ranks fold the batch dims into a matrix product (``MmBackward0``
behind views) or call ``matmul``. minigrad records the same nodes, so the graph saves the same
tensors as PyTorch's: that decides which later in-place writes make backward raise.

The neural-network functions (``minigrad.nn.functional``) live with their ops by family:
``losses.py`` (with ``loss_common.py``), ``normalization.py``, ``embedding.py``,
``convolution.py``, ``pooling.py``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from minigrad._dtype import display_name, type_name
from minigrad.autograd.function import Op
from minigrad.ops import linalg, views
from minigrad.ops._helpers import operand


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


def _foldable(x: np.ndarray) -> bool:
    """True if x's leading dimensions merge into one without a copy (PyTorch's should_fold)."""
    if x.size == 0:
        return True
    return all(x.strides[i] == x.strides[i + 1] * x.shape[i + 1] for i in range(x.ndim - 2))


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
