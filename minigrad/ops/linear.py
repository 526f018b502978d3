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

from minigrad import errors
from minigrad.autograd import grad_mode, record
from minigrad.autograd.debug_switches import modes_on
from minigrad.autograd.function import NO_GRAD_CTX, Op
from minigrad.autograd.quiet import restore, silence
from minigrad.autograd.saved_attributes import constant
from minigrad.autograd.tensor_base import TensorBase, new_result
from minigrad.ops import einsum as einsum_ops
from minigrad.ops import linalg, views
from minigrad.ops._helpers import operand


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
    a bias that is not a contiguous vector once squeezed) is added in place (``AddBackward0``).

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
    if bias is not None:
        out = _affine(input, weight, bias)
        if out is not None:
            return out
    x, w = operand(input), operand(weight)
    if x.ndim == 0 or w.ndim == 0:
        raise RuntimeError(errors.at_least_1d("linear", x.ndim, w.ndim))
    if bias is not None:
        b = operand(bias)
        if x.ndim == 2:
            return _addmm(bias, input, views.t(weight))
        if x.flags.c_contiguous and _bias_fusable(b):
            # (PyTorch's _flatten_nd_linear reshapes the input before it takes weight.t(): the
            # nodes' sequence numbers, and so backward's order, follow)
            lead = x.shape[:-1]
            flat = views.reshape(input, (int(np.prod(lead)), x.shape[-1]))
            out = _addmm(bias, flat, views.t(weight))
            return views.view(out, (*lead, w.shape[0]))
    out = _matmul_weight(input, views.t(weight))
    if bias is not None:
        out.add_(bias)
    return out


def _bias_fusable(b: np.ndarray) -> bool:
    """PyTorch's ``is_bias_likely_fusable``: a contiguous vector, perhaps with size-1 dims.

    Such a bias goes into one ``addmm`` with the input flattened to a matrix (and raises there
    if it does not fit the flattened rows: a (2, 1) bias of a (2, 2, 3) input).
    """
    squeezed = sum(n != 1 for n in b.shape)
    return (b.ndim == 1 or squeezed == 1) and b.flags.c_contiguous


_ADDMM_NEEDS = record.NEEDS[5][4:8]  # the view always needs one; the bias and input by bits


def _affine(input: Any, weight: Any, bias: Any) -> Any:
    """``F.linear`` of a matrix with a bias, with its checks answered once, or None.

    Recording, the graph is the general path's (``views.t`` then ``_addmm``), node for node:
    a ``TBackward0`` on the weight, the view ``weight.t()`` (sharing the weight's counter),
    made by the view op's own function (``T.apply``: node, edge and view in one pass), and
    ``AddmmBackward0`` on (bias, input, that view), recorded by ``record.record_checked``.
    With nothing to record (grad mode off, or no argument needing a gradient) Addmm's forward
    runs on the arrays, as the general path's would, and the result is a tensor without
    history. What it leaves out is the general path's per-argument work, which this call's
    common case answers once: three tensors of one floating dtype whose shapes fit (the
    checks of ``_addmm`` all pass), no layout rule; recording, plain tensors (no view: none
    has a history to catch up with), a weight that is a leaf requiring grad (PyTorch's
    ``nn.Linear``), and every thread recording with no mode watching
    (``debug_switches.modes_on``: anomaly mode's stacks, saved-tensor hooks, the debugging
    aids). Anything else returns None before anything ran.
    """
    if not record.FAST_BRANCH or linalg.Addmm.result_layout is not None:
        return None  # (a layout rule for Addmm's result: the general path applies it)
    if not (isinstance(input, TensorBase) and isinstance(weight, TensorBase)
            and isinstance(bias, TensorBase)):
        return None
    x, w, b = input._array, weight._array, bias._array
    dtype = w.dtype
    if (x.ndim != 2 or w.ndim != 2 or b.ndim != 1 or dtype.kind != "f"
            or x.dtype != dtype or b.dtype != dtype
            or x.shape[1] != w.shape[1] or b.shape[0] != w.shape[0]
            or not w.size):  # (an empty weight's view takes ViewOp.apply's strides)
        return None
    if not modes_on:  # grad mode on in every thread, no mode watching recording
        if input._base is not None or weight._base is not None or bias._base is not None:
            return None  # (a view first catches up with its base's writes: the general path)
        x_needs = input._grad_fn is not None or input._requires_grad
        b_needs = bias._grad_fn is not None or bias._requires_grad
        if weight._grad_fn is None and weight._requires_grad:  # a leaf needing a gradient
            weight_t = views.T.apply(weight, 0, 1)  # (its fast branch: a leaf, not empty)
            return record.record_checked(
                linalg.Addmm, (bias, input, weight_t, 1, 1), _ADDMM_NEEDS[b_needs + 2 * x_needs])
        if x_needs or b_needs or weight._grad_fn is not None:
            return None
    elif _grad_state.enabled:
        return None  # (a mode watching recording, or another thread in no_grad: the general path)
    # nothing records: this thread's grad mode is off, or nothing needs a gradient
    token = silence()  # inf and nan are values, not warnings (autograd/quiet.py)
    try:
        return new_result(linalg.Addmm.forward(NO_GRAD_CTX, b, x, w.T, 1, 1))
    finally:
        restore(token)


_grad_state = grad_mode._state  # (this thread's grad mode: ``enabled``)


def _matmul_weight(input: Any, wt: Any) -> Any:
    """``torch.matmul(input, weight.t())`` as PyTorch records it for ``F.linear``.

    A 1-D input is a one-row matrix (Unsqueeze, Mm, SqueezeBackward4); an input of 3 or more
    dimensions is folded into a matrix (a reshape), multiplied (Mm or Mv) and unfolded
    (UnsafeView) -- unless folding would copy and the weight needs no gradient, where PyTorch
    takes the batched path (left to ``minigrad.matmul``).
    """
    x, w = operand(input), operand(wt)
    if x.ndim == 1 and w.ndim == 2:
        linalg.check_mm_shapes((1, x.shape[0]), w.shape)
        return linalg.squeeze_row(linalg.mm(views.unsqueeze(input, 0), wt))
    if x.ndim >= 3 and (getattr(wt, "requires_grad", False) or _foldable(x)):
        lead = x.shape[:-1]
        folded = views.reshape(input, (int(np.prod(lead)), x.shape[-1]))
        if w.ndim == 2:
            linalg.check_mm_shapes(operand(folded).shape, w.shape)
            product = linalg.mm(folded, wt)
            return views.UnsafeView.apply(product, (*lead, w.shape[1]))
        return views.UnsafeView.apply(linalg.mv(folded, wt), lead)
    return linalg.matmul(input, wt)


def _addmm(bias: Any, mat1: Any, mat2: Any) -> Any:
    """``torch.addmm(bias, mat1, mat2)`` with PyTorch's checks (2-D operands only here)."""
    record.sync_views(bias, mat1, mat2)  # (the inputs' history is read before the checks)
    a, b, c = operand(mat1), operand(mat2), operand(bias)
    linalg.check_addmm_dtypes(c, a, b)
    if b.ndim != 2:
        raise RuntimeError(errors.not_a_matrix("mat2", b.ndim))
    linalg.check_mm_shapes(a.shape, b.shape)
    error = linalg.expand_error(c, (a.shape[0], b.shape[1]))
    if error is not None:
        raise error
    linalg.check_not_bool(a)
    return linalg.Addmm.apply(bias, mat1, mat2, 1, 1)


class Trilinear(Op):
    """y[n, o] = sum_ij x1[n, i] * w[o, i, j] * x2[n, j]: PyTorch's ``_trilinear`` for bilinear.

    dx1 = sum_oj grad[n, o] w[o, i, j] x2[n, j];  dw = sum_n grad[n, o] x1[n, i] x2[n, j];
    dx2 = sum_oi grad[n, o] x1[n, i] w[o, i, j]. Each gradient needs the two *other* operands,
    so each operand is saved only if another one needs a gradient (PyTorch's i1, i2, i3: the
    weight is i2). The expand and sum dims are the constants ``F.bilinear`` passes.
    """

    saves = ("i1", "i2", "i3")
    saved_options = {
        "expand1": constant((1, 3)), "expand2": constant((0,)), "expand3": constant((1, 2)),
        "sumdim": constant((2, 3)),
    }
    node_name = "TrilinearBackward0"
    num_inputs = 3

    @staticmethod
    def forward(ctx: Any, x1: np.ndarray, w: np.ndarray, x2: np.ndarray) -> np.ndarray:
        needs = ctx.needs_input_grad
        ctx.save_for_backward(x1 if needs[1] or needs[2] else None,
                              w if needs[0] or needs[2] else None,
                              x2 if needs[0] or needs[1] else None)
        return np.einsum("ni,oij,nj->no", x1, w, x2)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, Any, Any]:
        x1, w, x2 = ctx.saved_tensors
        needs = ctx.needs_input_grad
        return (
            _einsum("no,oij,nj->ni", grad, w, x2) if needs[0] else None,
            _einsum("no,ni,nj->oij", grad, x1, x2) if needs[1] else None,
            _einsum("no,ni,oij->nj", grad, x1, w) if needs[2] else None,
        )


def _einsum(equation: str, *operands: Any) -> Any:
    """The einsum of numpy on arrays; minigrad's (recorded) when a formula runs on tensors."""
    if any(isinstance(value, TensorBase) for value in operands):
        return einsum_ops.einsum(equation, *operands)
    return np.einsum(equation, *operands)


def bilinear(input1: Any, input2: Any, weight: Any, bias: Any = None) -> Any:
    """``F.bilinear`` (shapes already checked) as PyTorch records it.

    The inputs are flattened to matrices (``reshape``), combined by one ``TrilinearBackward0``
    node, reshaped back to the batch shape, and the bias is added (``AddBackward0``).
    """
    x1 = operand(input1)
    lead = x1.shape[:-1]
    rows = int(np.prod(lead))
    flat1 = views.reshape(input1, (rows, x1.shape[-1]))
    flat2 = views.reshape(input2, (rows, operand(input2).shape[-1]))
    out = views.reshape(Trilinear.apply(flat1, weight, flat2), (*lead, operand(weight).shape[0]))
    return out if bias is None else out + bias
