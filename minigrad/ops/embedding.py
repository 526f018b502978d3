"""Embedding lookups and their (differentiable) backward (shared pieces: ``_helpers.py``)."""

from __future__ import annotations

from typing import Any

import numpy as np

from minigrad import _arguments, errors
from minigrad._dtype import backend_type_name
from minigrad.autograd import grad_mode
from minigrad.autograd.function import Op
from minigrad.autograd.saved_attributes import as_given, constant
from minigrad.ops._helpers import (
    constant_tensor,
    dtype_name,
    operand,
    run,
    shape_of,
)


class Embedding(Op):
    """y = weight[indices] (rows);  dweight = the rows of grad added at their indices.

    No gradient reaches ``padding_idx``; with ``scale_grad_by_freq`` each row is divided by its
    index's frequency.

    Saves the indices only: writing the weight in place afterwards is legal, the indices not.
    """

    tensor_options = True  # an index or target tensor among the options

    fields = ("num_weights", "padding_idx", "scale")
    saves = "indices"
    saved_options = {"padding_idx": as_given("padding_idx"), "scale_grad_by_freq": "scale",
                     "sparse": constant(False), "weight_sym_argsize_0": "num_weights"}

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
        dweight = run(
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

    tensor_options = True  # an index or target tensor among the options

    fields = ("padding_idx", "scale")

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
        rows = run(Embedding, grad, indices, -1, False)
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
        raise NotImplementedError(errors.SPARSE_EMBEDDING)
    # PyTorch's F.embedding calls torch.embedding(weight, input): its parser's names and order
    _arguments.check_tensor(weight, "embedding", "weight", 1)
    _arguments.check_tensor(input, "embedding", "indices", 2)
    rows = shape_of(weight)[0] if shape_of(weight) else 0
    if padding_idx is not None:
        if padding_idx > 0 and padding_idx >= rows:
            raise AssertionError(errors.PADDING_IDX_OUT_OF_RANGE)
        if padding_idx < 0:
            if padding_idx < -rows:
                raise AssertionError(errors.PADDING_IDX_OUT_OF_RANGE)
            padding_idx = rows + padding_idx
    else:
        padding_idx = -1
    indices = _checked_indices(weight, input, rows)
    if max_norm is not None:
        _embedding_renorm(weight, indices, max_norm, norm_type)
    return Embedding.apply(weight, input, padding_idx, bool(scale_grad_by_freq))


def _checked_indices(weight: Any, input: Any, rows: int) -> np.ndarray:
    """ATen's checks of a lookup: a 2-D table, int64/int32 indices within its rows."""
    if operand(weight).ndim != 2:
        raise RuntimeError(errors.EMBEDDING_WEIGHT_NOT_2D)
    indices = operand(input)
    if indices.dtype not in (np.int64, np.int32):
        raise RuntimeError(errors.embedding_indices_dtype(backend_type_name(indices.dtype)))
    if indices.size and (indices.min() < 0 or indices.max() >= rows):
        raise IndexError(errors.INDEX_OUT_OF_RANGE)
    return indices


def embedding_aten(
    weight: Any, indices: Any, padding_idx: int = -1, scale_grad_by_freq: bool = False,
    sparse: bool = False,
) -> Any:
    """``minigrad.embedding``: ATen's form, the table FIRST; ``padding_idx`` < 0 is none.

    Example:
        >>> import minigrad
        >>> minigrad.embedding(minigrad.tensor([[0.0, 1.0], [2.0, 3.0]]), minigrad.tensor([1]))
        tensor([[2., 3.]])
    """
    if sparse:
        raise NotImplementedError(errors.SPARSE_EMBEDDING)
    _arguments.check_tensor(weight, "embedding", "weight", 1)
    _arguments.check_tensor(indices, "embedding", "indices", 2)
    _checked_indices(weight, indices, shape_of(weight)[0] if shape_of(weight) else 0)
    return Embedding.apply(weight, indices, int(padding_idx), bool(scale_grad_by_freq))


def _embedding_renorm(weight: Any, indices: np.ndarray, max_norm: float, norm_type: float) -> None:
    """``embedding_renorm_``: rescale the used rows above ``max_norm`` (one in-place write)."""
    if operand(weight).dtype.kind != "f":
        raise RuntimeError(errors.norm_input_dtype(dtype_name(weight)))
    used = np.unique(indices)
    rows = operand(weight)[used]
    norms = np.sum(np.abs(rows) ** norm_type, axis=1) ** (1.0 / norm_type)
    scale = np.where(norms > max_norm, max_norm / (norms + 1e-7), 1.0).astype(rows.dtype)
    # Through a detached alias, as PyTorch: same buffer and counter, but no autograd checks of
    # the weight itself (it may be an inference tensor or a leaf that requires grad).
    with grad_mode.no_grad():
        scaled = constant_tensor(rows * scale[:, None])
        weight.detach()[constant_tensor(used.astype(np.int64))] = scaled


# ==========================================================================================
# convolution
# ==========================================================================================
