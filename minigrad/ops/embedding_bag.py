"""``embedding_bag``: the sum, mean or max of each bag of embedding rows, one node.

A 1-D ``input`` holds the bags one after another, ``offsets`` where each starts; a 2-D input
holds one bag per row. PyTorch's kernel (``EmbeddingBagBackward0``) keeps the indices, the
offsets, the bag each index belongs to (``offset2bag``, result1), each bag's size (result2)
and, for 'max', the row that won each column (result3); minigrad's node keeps the same.
The weight's gradient is written with recorded ops under create_graph, so it can be
differentiated again (as PyTorch's EmbeddingBagBackwardBackward0; ``func.jvp`` needs it); the
per-sample weights' gradient has no derivative (PyTorch's NotImplemented node).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from minigrad import _arguments, errors
from minigrad._dtype import backend_type_name, result_type
from minigrad.autograd.function import Op
from minigrad.autograd.saved_attributes import as_given, constant
from minigrad.creation import arange
from minigrad.ops._helpers import (
    NoDerivativeOfGradient,
    constant_tensor,
    is_tensor,
    operand,
    shape_of,
)
from minigrad.ops.embedding import _embedding_renorm

if TYPE_CHECKING:
    from minigrad.tensor import Tensor

__all__ = ["_embedding_bag", "embedding_bag", "embedding_bag_aten"]

SUM, MEAN, MAX = 0, 1, 2
_MODES = {"sum": SUM, "mean": MEAN, "max": MAX}


def _bags(
    indices: np.ndarray, offsets: np.ndarray, include_last_offset: bool, padding_idx: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each index's bag (-1: none), whether it counts (not padding), and each bag's size.

    A bag ends where the next begins; the last one at the input's end, also with
    ``include_last_offset`` (PyTorch's CPU kernel reads no end off the last offset).
    """
    count = indices.shape[0]
    starts = offsets[:-1] if include_last_offset else offsets
    ends = np.append(starts[1:], count)
    bag_of = np.full(count, -1, dtype=np.int64)
    for bag, (start, end) in enumerate(zip(starts, ends, strict=True)):
        bag_of[start:end] = bag
    counted = (bag_of >= 0) & (indices != padding_idx)
    sizes = np.bincount(bag_of[counted], minlength=len(starts)).astype(np.int64)
    return bag_of, counted, sizes


def _frequency_divisors(indices: np.ndarray, num_weights: int) -> np.ndarray:
    """What PyTorch's CPU kernel divides each row's gradient by with ``scale_grad_by_freq``.

    Its loop over the distinct indices in sorted order divides the k-th one's gradient by
    ``counts[sorted_indices[k]]``: the loop counter indexes the sorted indices *with* their
    repeats. So an index gets its own frequency only while every smaller index occurs once;
    otherwise a smaller index's. minigrad divides as PyTorch does.
    """
    frequency = np.bincount(indices, minlength=num_weights)
    distinct = np.unique(indices)  # sorted
    divisor = np.ones(num_weights, dtype=np.int64)
    divisor[distinct] = frequency[np.sort(indices)[: distinct.size]]
    return divisor


class EmbeddingBag(Op):
    """y[b] = sum / mean / max of weight[i] (times per_sample_weights[i]) over bag b's indices.

    dweight: each counted index's row gets its bag's gradient (divided by the bag's size for
    'mean', by the index's frequency with ``scale_grad_by_freq``; for 'max' only the winning
    row of each column); dper_sample_weights[i] = grad[bag of i] . weight[i]. (With
    ``scale_grad_by_freq`` PyTorch 2.13's CPU kernel divides by other counts than the
    indices' own frequencies, and minigrad by the same ones: ``_frequency_divisors``.)
    Returns PyTorch's four results: the bags, offset2bag (each index's bag), each bag's size
    and, for 'max', the row that won each column (PyTorch's kernel leaves the latter three
    zero or empty where its path does not fill them in: 'sum' has no sizes, its float32 path
    without padding no offset2bag; 'sum' and 'mean' give the sizes as max indices). Saves the
    indices, the offsets, the per-sample weights and (only if they need a gradient) the weight,
    and results
    1..3, as PyTorch.
    """

    num_inputs = 2  # the weight and the per-sample weights
    tensor_options = True  # the indices and the offsets
    fields = ("mode", "padding_idx", "scale", "num_weights", "include_last_offset")
    saves = ("weight", "indices", "offsets", "per_sample_weights", "result1", "result2", "result3")
    saved_options = {
        "mode": "mode",
        "padding_idx": as_given("padding_idx"),
        "scale_grad_by_freq": "scale",
        "sparse": constant(False),
        "weight_sym_argsize_0": "num_weights",
    }

    @staticmethod
    def forward(
        ctx: Any,
        weight: np.ndarray,
        per_sample_weights: Any,
        indices: np.ndarray,
        offsets: np.ndarray,
        mode: int,
        padding_idx: int,
        scale: bool,
        include_last_offset: bool,
    ) -> np.ndarray:
        bag_of, counted, sizes = _bags(indices, offsets, include_last_offset, padding_idx)
        rows = weight[indices]
        if per_sample_weights is not None:
            rows = rows * per_sample_weights[:, None]
        bags, width = sizes.shape[0], weight.shape[1]
        out = np.zeros((bags, width), dtype=weight.dtype)
        max_indices = sizes.copy()  # (PyTorch's result3 for 'sum' and 'mean': the sizes)
        if mode == MAX:
            max_indices = np.zeros((bags, width), dtype=np.int64)
            for bag in range(bags):
                members = np.nonzero(counted & (bag_of == bag))[0]
                if members.size:
                    winner = np.argmax(rows[members], axis=0)  # (the first of equal values)
                    out[bag] = rows[members][winner, np.arange(width)]
                    max_indices[bag] = indices[members][winner]
        else:
            np.add.at(out, bag_of[counted], rows[counted])
            if mode == MEAN:
                out /= np.maximum(sizes, 1)[:, None].astype(weight.dtype)
        # offset2bag: the bag of each index, as a running count of the bags begun; PyTorch's
        # float32 'sum' path without padding leaves it empty, and no 'sum' path fills in the
        # sizes
        starts = offsets[:-1] if include_last_offset else offsets
        offset2bag = np.searchsorted(starts, np.arange(indices.shape[0]), side="right") - 1
        offset2bag = offset2bag.astype(np.int64)
        if mode == SUM:
            sizes, max_indices = np.zeros(bags, dtype=np.int64), np.zeros(bags, dtype=np.int64)
            if weight.dtype == np.float32 and padding_idx < 0:
                offset2bag = np.zeros(0, dtype=np.int64)
        ctx.save_for_backward(
            weight if ctx.needs_input_grad[1] else None,  # (only for its own gradient)
            indices,
            offsets,
            per_sample_weights,
            offset2bag,
            sizes,
            max_indices,
        )
        ctx.mode, ctx.padding_idx, ctx.scale = mode, padding_idx, scale
        ctx.num_weights, ctx.include_last_offset = weight.shape[0], include_last_offset
        return out, offset2bag, sizes, max_indices

    @staticmethod
    def backward(ctx: Any, grad: Any, *_: Any) -> tuple[Any, ...]:
        # One formula for arrays and, under create_graph, tensors: linear in grad, so that
        # the gradient can be differentiated again (jvp's double backward needs it).
        weight, indices, offsets, per_sample_weights, _, sizes, max_indices = ctx.saved_tensors
        indices, offsets, sizes, max_indices = (
            operand(value) for value in (indices, offsets, sizes, max_indices)
        )
        dtype = operand(grad).dtype
        bag_of, counted, _ = _bags(indices, offsets, ctx.include_last_offset, ctx.padding_idx)
        dweight = dper_sample = None
        if ctx.needs_input_grad[0]:
            shape = (ctx.num_weights, grad.shape[1])
            if ctx.mode == MAX:
                filled = sizes > 0
                columns = np.broadcast_to(np.arange(grad.shape[1]), max_indices[filled].shape)
                dweight = _added_at(shape, (max_indices[filled], columns), grad[filled])
            else:
                rows = grad[bag_of[counted]]
                if ctx.mode == MEAN:
                    rows = rows / sizes[bag_of[counted]][:, None].astype(dtype)
                if per_sample_weights is not None:
                    rows = rows * per_sample_weights[counted][:, None]
                if ctx.scale:
                    divisor = _frequency_divisors(indices, ctx.num_weights)
                    rows = rows / divisor[indices[counted]][:, None].astype(dtype)
                dweight = _added_at(shape, (indices[counted],), rows)
        if ctx.needs_input_grad[1]:
            grad_array, weight_array = operand(grad), operand(weight)
            products = (grad_array[bag_of[counted]] * weight_array[indices[counted]]).sum(1)
            dper_sample = np.zeros(indices.shape[0], dtype=dtype)
            dper_sample[counted] = products
            if is_tensor(grad):  # (PyTorch's has no derivative: its NotImplemented node)
                dper_sample = NoDerivativeOfGradient.apply(
                    grad, weight, dper_sample, "aten::_embedding_bag_per_sample_weights_backward"
                )
        return dweight, dper_sample, None, None, None, None, None, None


def _added_at(shape: tuple[int, ...], index: tuple[np.ndarray, ...], values: Any) -> Any:
    """Zeros of ``shape`` with ``values`` added at ``index`` (repeats add up).

    On a tensor (create_graph) a recorded ``index_put``, whose gradient gathers ``values``'
    positions back; on arrays ``np.add.at``.
    """
    if is_tensor(values):
        from minigrad.creation import from_numpy, zeros

        positions = tuple(from_numpy(np.ascontiguousarray(part)) for part in index)
        return zeros(shape, dtype=values.dtype).index_put(positions, values, accumulate=True)
    result = np.zeros(shape, dtype=values.dtype)
    np.add.at(result, index, values)
    return result


def _check_indices(
    indices: np.ndarray, offsets: np.ndarray, rows: int, mode: int, include_last_offset: bool
) -> None:
    """The kernel's checks of the offsets and the indices, with PyTorch's messages.

    An index out of range: 'max' names its value; 'sum' and 'mean' its position in its bag
    (PyTorch's "Index" there, mostly: its vectorized check sometimes names another position,
    or fails "Expected i < index_size" first) and its value.
    """
    if offsets.size and offsets[0] != 0:
        raise RuntimeError(
            "offsets[0] has to be 0, i.e., the first sequence in the mini-batch has to start "
            f"from position 0. However, got {offsets[0]}\n"
            f"[ {backend_type_name(offsets.dtype)}{{}} ]"
        )
    if offsets.size and offsets[-1] > indices.shape[0]:
        raise RuntimeError(
            f"offsets[-1] can not be greater than input's length {indices.shape[0]} but got "
            f"offsets[-1] of {offsets[-1]}"
        )
    if (np.diff(offsets) < 0).any() or (indices < 0).any():
        raise RuntimeError(
            "Expected i < index_size to be true, but got false.  (Could this error message be "
            "improved?  If so, please report an enhancement request to PyTorch.)"
        )
    beyond = np.nonzero(indices >= rows)[0]
    if beyond.size and mode == MAX:
        raise RuntimeError(
            "embedding_bag: Expected idx >= 0 && idx < num_embeddings but found idx to be "
            f"{indices[beyond[0]]}"
        )
    if beyond.size:
        starts = offsets[:-1] if include_last_offset else offsets
        start = starts[np.searchsorted(starts, beyond[0], side="right") - 1]
        raise RuntimeError(
            f"Index {beyond[0] - start} of input takes value {indices[beyond[0]]} which is not "
            f"in the valid range [0, {rows})"
        )


def embedding_bag(
    input: Any,
    weight: Any,
    offsets: Any = None,
    max_norm: float | None = None,
    norm_type: float = 2,
    scale_grad_by_freq: bool = False,
    mode: str = "mean",
    sparse: bool = False,
    per_sample_weights: Any = None,
    include_last_offset: bool = False,
    padding_idx: int | None = None,
) -> Any:
    """The sum, mean or max of the embedding rows of each bag of indices: (bags, dim).

    ``input`` 2-D (B, N): B bags of N indices; 1-D: bags one after another, starting at
    ``offsets`` (with ``include_last_offset`` the last offset ends the last bag). Empty bags
    give zeros; ``padding_idx`` is left out of the bags (and of the means' counts);
    ``per_sample_weights`` scales each index's row ('sum' only).

    Example:
        >>> import minigrad
        >>> import minigrad.nn.functional as F
        >>> weight = minigrad.tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
        >>> F.embedding_bag(minigrad.tensor([0, 2, 1]), weight, minigrad.tensor([0, 2]))
        tensor([[3., 4.],
                [3., 4.]])
    """
    if per_sample_weights is not None and input.size() != per_sample_weights.size():
        raise ValueError(
            f"embedding_bag: If per_sample_weights ({per_sample_weights.shape}) is not None, "
            f"then it must have the same shape as the input ({input.shape})"
        )
    if weight.dim() != 2:
        raise ValueError(
            f"weight has to be a 2D Tensor, but got Tensor of dimension {weight.dim()}"
        )
    if input.dim() == 2:
        if offsets is not None:
            raise ValueError(
                "if input is 2D, then offsets has to be None, as input is treated is a "
                "mini-batch of fixed length sequences. However, found offsets of type "
                f"{_type_text(offsets)}"
            )
        offsets = arange(0, input.numel(), input.size(1), dtype=input.dtype)
        include_last_offset = False
        input = input.reshape(-1)
        if per_sample_weights is not None:
            per_sample_weights = per_sample_weights.reshape(-1)
    elif input.dim() == 1:
        if offsets is None:
            raise ValueError("offsets has to be a 1D Tensor but got None")
        if offsets.dim() != 1:
            raise ValueError("offsets has to be a 1D Tensor")
    else:
        raise ValueError(
            f"input has to be 1D or 2D Tensor, but got Tensor of dimension {input.dim()}"
        )
    if mode not in _MODES:
        raise ValueError("mode has to be one of sum, mean or max")
    if mode == "max" and scale_grad_by_freq:
        raise ValueError("max mode does not support scaling the gradient by the frequency")
    if mode == "max" and sparse:
        raise ValueError("max mode does not support sparse weights")
    if sparse:
        raise NotImplementedError(errors.SPARSE_EMBEDDING)
    input, offsets = _promoted(input, offsets)
    indices = operand(input)
    _check_types(indices, operand(weight), per_sample_weights)
    if max_norm is not None:
        _embedding_renorm(weight, indices, max_norm, norm_type)
    if per_sample_weights is not None and mode != "sum":
        raise NotImplementedError(
            "embedding_bag: per_sample_weights was not None. per_sample_weights is only "
            f"supported for mode='sum' (got mode='{mode}'). Please open a feature request on "
            "GitHub."
        )
    bags, *_ = _bags_of(
        weight,
        input,
        offsets,
        bool(scale_grad_by_freq),
        _MODES[mode],
        per_sample_weights,
        bool(include_last_offset),
        padding_idx,
    )
    return bags


def _promoted(indices: Any, offsets: Any) -> tuple[Any, Any]:
    """The kernel first brings indices and offsets to one dtype: bool ones become integers."""
    common = result_type(operand(indices), operand(offsets))
    if operand(indices).dtype != common:
        indices = constant_tensor(operand(indices).astype(common))
    if operand(offsets).dtype != common:
        offsets = constant_tensor(operand(offsets).astype(common))
    return indices, offsets


def _bags_of(
    weight: Any,
    indices: Any,
    offsets: Any,
    scale_grad_by_freq: bool,
    mode: int,
    per_sample_weights: Any,
    include_last_offset: bool,
    padding_idx: int | None,
) -> tuple[Any, Any, Any, Any]:
    """ATen's embedding_bag after its padding_idx check: the kernel's checks, then the node."""
    rows = shape_of(weight)[0]
    if padding_idx is None:
        padding_idx = -1  # (the kernel's "no padding")
    elif not -rows <= padding_idx < rows:
        raise RuntimeError(
            "padding_idx must be within the number of embeddings, "
            f"{-rows} through {rows - 1}, but got {padding_idx}"
        )
    elif padding_idx < 0:
        padding_idx += rows
    _check_indices(operand(indices), operand(offsets), rows, mode, include_last_offset)
    return EmbeddingBag.apply(
        weight,
        per_sample_weights,
        indices,
        offsets,
        mode,
        padding_idx,
        scale_grad_by_freq,
        include_last_offset,
    )


def embedding_bag_aten(
    weight: Tensor,
    indices: Tensor,
    offsets: Tensor,
    scale_grad_by_freq: bool = False,
    mode: int = 0,
    sparse: bool = False,
    per_sample_weights: Tensor | None = None,
    include_last_offset: bool = False,
    padding_idx: int | None = None,
) -> tuple[Any, Any, Any, Any]:
    """``minigrad.embedding_bag``: ATen's form, ``(output, offset2bag, bag_size, max_indices)``.

    ``mode`` 0, 1, 2: 'sum', 'mean', 'max' of ``nn.functional.embedding_bag`` (which returns
    ``output`` only, with the checks of its Python arguments first); ``indices`` is 1-D, its
    bags starting at ``offsets``. ``offset2bag`` is each index's bag, ``bag_size`` each bag's
    number of (not padding) indices, ``max_indices`` for 'max' the row that won each column;
    as PyTorch's CPU kernel, 'sum' leaves the latter two zero (and float32 'sum' offset2bag
    empty), 'sum' and 'mean' give the sizes as max indices.

    Example:
        >>> import minigrad
        >>> weight = minigrad.tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
        >>> output, offset2bag, bag_size, max_indices = minigrad.embedding_bag(
        ...     weight, minigrad.tensor([0, 2, 1]), minigrad.tensor([0, 2]), False, 2)
        >>> output
        tensor([[5., 6.],
                [3., 4.]])
        >>> offset2bag, bag_size, max_indices
        (tensor([0, 0, 1]), tensor([2, 1]), tensor([[2, 2],
                [1, 1]]))
    """
    _arguments.check_int64_arguments(mode, padding_idx)
    rows = shape_of(weight)[0]
    if padding_idx is not None and not -rows <= padding_idx < rows:
        raise RuntimeError(
            "padding_idx must be within the number of embeddings, "
            f"{-rows} through {rows - 1}, but got {padding_idx}"
        )
    if mode not in (SUM, MEAN, MAX):
        raise RuntimeError("`mode` must be sum, mean, or max.")
    if indices.dim() not in (1, 2):
        raise RuntimeError(
            f"input has to be a 1D or 2D Tensor, but got Tensor of dimension {indices.dim()}"
        )
    if indices.dim() == 2:
        # (ATen reads a 2-D indices tensor by other rules than nn.functional's one bag per
        # row, which minigrad does not share)
        raise NotImplementedError(
            "minigrad.embedding_bag takes 1-D indices; for 2-D ones (one bag per row) use "
            "nn.functional.embedding_bag"
        )
    if offsets.dim() != 1:
        raise RuntimeError(
            f"offsets has to be a 1D Tensor, but got Tensor of dimension {offsets.dim()}"
        )
    if weight.dim() != 2:
        raise RuntimeError(
            f"weight has to be a 2D Tensor, but got Tensor of dimension {weight.dim()}"
        )
    if sparse:
        raise NotImplementedError(errors.SPARSE_EMBEDDING)
    indices, offsets = _promoted(indices, offsets)
    _check_types(operand(indices), operand(weight), per_sample_weights)
    if per_sample_weights is not None:
        if mode != SUM:
            raise RuntimeError("embedding_bag: per_sample_weights only supported with mode='sum'")
        if per_sample_weights.numel() != indices.numel():
            raise RuntimeError(
                "Expected per_sample_weights.value().numel() == indices.numel() to be true, but "
                "got false.  (Could this error message be improved?  If so, please report an "
                "enhancement request to PyTorch.)"
            )
    return _bags_of(
        weight,
        indices,
        offsets,
        bool(scale_grad_by_freq),
        mode,
        per_sample_weights,
        bool(include_last_offset),
        padding_idx,
    )


def _embedding_bag(
    weight: Tensor,
    indices: Tensor,
    offsets: Tensor,
    scale_grad_by_freq: bool = False,
    mode: int = 0,
    sparse: bool = False,
    per_sample_weights: Tensor | None = None,
    include_last_offset: bool = False,
    padding_idx: int = -1,
) -> tuple[Any, Any, Any, Any]:
    """``minigrad._embedding_bag``: the kernel ``embedding_bag`` calls, as PyTorch's.

    As ``minigrad.embedding_bag``, but ``padding_idx`` is taken as it is: ``-1`` (or any
    number no index has) is no padding.
    """
    rows = shape_of(weight)[0]
    return embedding_bag_aten(
        weight,
        indices,
        offsets,
        scale_grad_by_freq,
        mode,
        sparse,
        per_sample_weights,
        include_last_offset,
        padding_idx if 0 <= padding_idx < rows else None,
    )


def _type_text(value: Any) -> str:
    """``str(type(value))``, with a tensor's class under its public name (``minigrad.Tensor``)."""
    return "<class 'minigrad.Tensor'>" if is_tensor(value) else str(type(value))


def _check_types(indices: np.ndarray, weight: np.ndarray, per_sample_weights: Any) -> None:
    """The kernel's dtype checks: integer indices, a float weight, per-sample weights alike."""
    if indices.dtype not in (np.int64, np.int32):
        raise RuntimeError(
            "Expected tensor for argument #1 'indices' to have one of the following scalar "
            f"types: Long, Int; but got {backend_type_name(indices.dtype)} instead "
            "(while checking arguments for embedding_bag)"
        )
    if weight.dtype.kind != "f":
        raise RuntimeError(
            "Expected tensor for argument #1 'weight' to have one of the following scalar "
            "types: Half, BFloat16, Float, Double; but got "
            f"{backend_type_name(weight.dtype)} instead (while checking arguments for "
            "embedding_bag)"
        )
    if per_sample_weights is not None and operand(per_sample_weights).dtype != weight.dtype:
        raise RuntimeError(
            "Expected tensor for argument #1 'weight' to have the same type as tensor for "
            "argument #1 'per_sample_weights'; but type "
            f"{backend_type_name(weight.dtype)} does not equal "
            f"{backend_type_name(operand(per_sample_weights).dtype)} (while checking "
            "arguments for embedding_bag)"
        )
