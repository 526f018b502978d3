"""The Connectionist Temporal Classification loss (Graves et al., 2006), ``F.ctc_loss``.

For each sequence, the target ``l`` is extended with blanks (``l' = blank, l1, blank, l2, ...,
blank``, ``2 S + 1`` long) and the forward variable ``log_alpha[t, s]`` sums, in log space,
the probabilities of every alignment of the first ``t + 1`` inputs with ``l'[:s + 1]``: a step
stays on its label, moves one on, or skips a blank between two different labels. The loss is
``-log(alpha[T - 1, end] + alpha[T - 1, end - 1])``. Its gradient (PyTorch's formula, with the
backward variable ``log_beta`` computed the same way from the end) is
``exp(lp) - exp(log(sum_{s: l'(s) = c} alpha beta) + nll - lp)`` at each step before the
sequence's input length, zero after it. The recursions loop over time (and sequences); each
step is vectorised over the extended target.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from minigrad import _arguments, errors
from minigrad._dtype import display_name
from minigrad.autograd.function import Op
from minigrad.autograd.tensor_base import TensorBase
from minigrad.creation import tensor
from minigrad.ops import views
from minigrad.ops._helpers import operand
from minigrad.ops.clamp import clamp_min
from minigrad.ops.comparison import where
from minigrad.ops.reduction import mean

__all__ = ["ctc_loss"]


def _extended(target: np.ndarray, blank: int) -> np.ndarray:
    """``blank, l1, blank, l2, ..., blank``."""
    labels = np.full(2 * len(target) + 1, blank, dtype=np.int64)
    labels[1::2] = target
    return labels


def _skips(labels: np.ndarray, blank: int) -> np.ndarray:
    """Where a step may come from two places back: a label unlike the one before the blank."""
    allowed = np.zeros(len(labels), dtype=bool)
    allowed[2:] = (labels[2:] != blank) & (labels[2:] != labels[:-2])
    return allowed


def _log_alpha(lp: np.ndarray, labels: np.ndarray, length: int, blank: int) -> np.ndarray:
    """(length, L): the forward variable of one sequence (``lp``: its (T, C) log-probs)."""
    size = len(labels)
    alpha = np.full((length, size), -np.inf, dtype=lp.dtype)
    if length == 0:
        return alpha
    alpha[0, 0] = lp[0, blank]
    if size > 1:
        alpha[0, 1] = lp[0, labels[1]]
    skip = _skips(labels, blank)
    for t in range(1, length):
        previous = alpha[t - 1]
        total = previous.copy()
        total[1:] = np.logaddexp(total[1:], previous[:-1])
        total[2:] = np.where(skip[2:], np.logaddexp(total[2:], previous[:-2]), total[2:])
        alpha[t] = total + lp[t, labels]
    return alpha


def _log_beta(lp: np.ndarray, labels: np.ndarray, length: int, blank: int) -> np.ndarray:
    """(length, L): the backward variable of one sequence (including step t's own lp)."""
    size = len(labels)
    beta = np.full((length, size), -np.inf, dtype=lp.dtype)
    if length == 0:
        return beta
    beta[-1, -1] = lp[length - 1, blank]
    if size > 1:
        beta[-1, -2] = lp[length - 1, labels[-2]]
    skip = _skips(labels, blank)
    for t in range(length - 2, -1, -1):
        following = beta[t + 1]
        total = following.copy()
        total[:-1] = np.logaddexp(total[:-1], following[1:])
        total[:-2] = np.where(skip[2:], np.logaddexp(total[:-2], following[2:]), total[:-2])
        beta[t] = total + lp[t, labels]
    return beta


def _nll(alpha: np.ndarray) -> Any:
    """``-log`` of the probability of all alignments: the last one or two ends."""
    if len(alpha) == 0:
        return -np.log(float(alpha.shape[1] == 1))  # (nothing to align: only an empty target)
    return -np.logaddexp.reduce(alpha[-1, -2:]) if alpha.shape[1] > 1 else -alpha[-1, -1]


class CtcLoss(Op):
    """y[n] = -log p(target n | log_probs[:, n]) summed over every CTC alignment.

    dlog_probs[t, n, c] = grad[n] * (exp(lp) - exp(log(sum_{s: l'(s) = c} alpha beta) + nll
    - lp)) for t < input_lengths[n], else 0; zero for a sequence whose loss is infinite when
    ``zero_infinity``. Saves log_probs, targets, the loss and log_alpha (``result1``), as
    PyTorch: (N, T, 2 max(target_lengths) + 1), -inf at t = 0 beyond the first two states; the
    rest outside each sequence's (input_length, 2 target_length + 1) is PyTorch's uninitialised
    memory, -inf here. No second derivative, as PyTorch.
    """

    node_name = "CtcLossBackward0"
    saves = ("log_probs", "targets", "result0", "result1")
    saved_options = ("input_lengths", "target_lengths", "blank", "zero_infinity")
    fields = ("input_lengths", "target_lengths", "blank", "zero_infinity")
    tensor_options = True  # (the targets)

    @staticmethod
    def forward(
        ctx: Any,
        log_probs: np.ndarray,
        targets: np.ndarray,
        input_lengths: tuple[int, ...],
        target_lengths: tuple[int, ...],
        blank: int,
        zero_infinity: bool,
    ) -> np.ndarray:
        width = 2 * max(target_lengths, default=0) + 1
        log_alpha = np.full((len(target_lengths), log_probs.shape[0], width), -np.inf,
                            dtype=log_probs.dtype)
        loss = np.empty(len(target_lengths), dtype=log_probs.dtype)
        for n, target in enumerate(_targets(targets, target_lengths)):
            alpha = _log_alpha(log_probs[:, n], _extended(target, blank), input_lengths[n], blank)
            log_alpha[n, : alpha.shape[0], : alpha.shape[1]] = alpha
            loss[n] = _nll(alpha)
        ctx.input_lengths, ctx.target_lengths = input_lengths, target_lengths
        ctx.blank, ctx.zero_infinity = blank, zero_infinity
        ctx.save_for_backward(log_probs, targets, loss, log_alpha)
        return loss

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, ...]:
        log_probs, targets, loss, log_alpha = ctx.saved_tensors
        if not isinstance(log_probs, np.ndarray):
            raise RuntimeError("derivative for aten::_ctc_loss_backward is not implemented")
        result = np.zeros_like(log_probs)
        for n, target in enumerate(_targets(targets, ctx.target_lengths)):
            length, nll = ctx.input_lengths[n], loss[n]
            if length == 0 or (ctx.zero_infinity and nll == np.inf):
                continue
            labels = _extended(target, ctx.blank)
            lp = log_probs[:length, n]
            products = log_alpha[n, :length, : len(labels)] + _log_beta(
                log_probs[:, n], labels, length, ctx.blank
            )
            by_class = np.full(lp.shape, -np.inf, dtype=lp.dtype)
            for c in np.unique(labels):
                by_class[:, c] = np.logaddexp.reduce(products[:, labels == c], axis=1)
            result[:length, n] = (np.exp(lp) - np.exp(by_class + nll - lp)) * grad[n]
        return result, None, None, None, None, None


def _targets(targets: np.ndarray, target_lengths: tuple[int, ...]) -> list[np.ndarray]:
    """Each sequence's target: a row of a padded (N, S) array, or a piece of a 1-d one."""
    if targets.ndim == 2:
        return [targets[n, :length] for n, length in enumerate(target_lengths)]
    ends = np.cumsum(target_lengths)
    return [targets[end - length : end] for end, length in zip(ends, target_lengths)]


def _lengths(input_lengths: Any, target_lengths: Any) -> tuple[tuple[int, ...], ...]:
    """The two lengths arguments as tuples of ints, read as PyTorch's parser reads them.

    Its two overloads take two int lists or two integer tensors; anything else fits neither
    (a TypeError, which the argument checks word as the parser's listing of the two). An int
    list's items are unpacked as int64s, the target lengths' first (the parser unpacks a
    call's arguments last first).
    """
    given = (("input_lengths", input_lengths), ("target_lengths", target_lengths))
    if _lengths_fit(input_lengths, target_lengths) and isinstance(input_lengths, TensorBase):
        lengths = []
        for name, value in given:
            array = operand(value)
            if array.dtype.kind not in "iu":
                raise RuntimeError(f"{name} must be integral")
            lengths.append(tuple(int(v) for v in array.reshape(-1)))
        return tuple(lengths)
    if not _lengths_fit(input_lengths, target_lengths):
        raise TypeError("ctc_loss(): the lengths fit none of its overloads")
    for name, value in reversed(given):
        if value:
            _arguments.check_first_int64(value[0], "ctc_loss", name)
        _arguments.check_unpacked(value[1:], "ctc_loss", name)
    return tuple(tuple(int(v) for v in value) for _, value in given)


def _lengths_fit(input_lengths: Any, target_lengths: Any) -> bool:
    """Whether the lengths fit one of the parser's overloads: both tensors, or both int lists.

    (Stricter than the argument checks' matching, for which a lone int fits an int list: it
    fits an ``int[1]``, not ctc_loss's ``int[]``.)
    """
    both = (input_lengths, target_lengths)
    return all(isinstance(value, TensorBase) for value in both) or all(
        _int_list(value) for value in both
    )


def _int_list(value: Any) -> bool:
    """Whether the parser takes ``value`` for an ``int[]``: a list or tuple, its first an int."""
    return isinstance(value, (list, tuple)) and (not value or _arguments.is_int(value[0]))


def _check(
    log_probs: np.ndarray,
    targets: np.ndarray,
    input_lengths: tuple[int, ...],
    target_lengths: tuple[int, ...],
    blank: int,
) -> None:
    """PyTorch's ``ctc_loss_allocate_outputs`` checks, in its order."""
    where_ = "(while checking arguments for ctc_loss_allocate_outputs)"
    if log_probs.dtype.kind != "f":  # (the kernel's dispatch on the dtype comes first)
        raise NotImplementedError(
            errors.not_implemented_for("ctc_loss_cpu", display_name(log_probs.dtype))
        )
    if log_probs.ndim != 3:
        raise RuntimeError(
            f"Expected 3-dimensional tensor, but got {log_probs.ndim}-dimensional "
            f"tensor for argument #1 'log_probs' {where_}"
        )
    if not 1 <= targets.ndim <= 2:
        raise RuntimeError(
            f"Expected 1 to 2 dimensions, but got {targets.ndim}-dimensional tensor for "
            f"argument #2 'targets' {where_}"
        )
    if not 0 <= blank < log_probs.shape[-1]:
        raise RuntimeError("blank must be in label range")
    batch = log_probs.shape[1]
    if len(input_lengths) != batch:
        raise RuntimeError("input_lengths must be of size batch_size")
    if len(target_lengths) != batch:
        raise RuntimeError("target_lengths must be of size batch_size")
    for name, lengths in (("input_lengths", input_lengths), ("target_lengths", target_lengths)):
        for value in lengths:
            if value < 0:
                raise RuntimeError(
                    f"Expected {name} to have value at least 0, but got value {value} {where_}"
                )
    if targets.ndim == 1:
        total = sum(target_lengths)
        if targets.shape[0] != total:
            raise RuntimeError(
                f"Expected tensor to have size {total} at dimension 0, but got "
                f"size {targets.shape[0]} for argument #2 'targets' {where_}"
            )
    else:
        longest = max(target_lengths, default=0)
        if targets.shape[1] < longest:
            raise RuntimeError(
                f"Expected tensor to have size at least {longest} at dimension 1, "
                f"but got size {targets.shape[1]} for argument #2 'targets' "
                f"{where_}"
            )
    for value in input_lengths:
        if value > log_probs.shape[0]:
            raise RuntimeError(
                f"Expected input_lengths to have value at most "
                f"{log_probs.shape[0]}, but got value {value} {where_}"
            )


def ctc_loss(
    log_probs: Any,
    targets: Any,
    input_lengths: Any,
    target_lengths: Any,
    blank: int = 0,
    reduction: str = "mean",
    zero_infinity: bool = False,
) -> Any:
    """The CTC loss of (T, N, C) (or unbatched (T, C)) log-probabilities against targets.

    ``targets`` are (N, S) padded rows or one 1-d concatenation; ``input_lengths`` and
    ``target_lengths`` are tensors or sequences of ints. ``reduction='mean'`` divides each
    loss by its target length (at least 1) before the batch mean; ``zero_infinity`` makes
    impossible alignments (infinite losses) 0, with a zero gradient. One ``CtcLossBackward0``
    node, as PyTorch records it (``WhereBackward0``, ``DivBackward0``, ``MeanBackward0`` /
    ``SumBackward0`` above it as the options ask).

    Example:
        >>> import minigrad
        >>> import minigrad.nn.functional as F
        >>> log_probs = minigrad.full((2, 1, 2), 0.5).log()
        >>> F.ctc_loss(log_probs, minigrad.tensor([[1]]), [2], [1], reduction="sum")
        tensor(0.2877)
    """
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(errors.invalid_reduction(reduction))
    enum = {"none": 0, "mean": 1, "sum": 2}[reduction]
    # (PyTorch's passes its seven arguments on by position to torch.ctc_loss, whose parser
    # lists its overloads for a call that fits neither)
    args = (log_probs, targets, input_lengths, target_lengths, blank, enum, zero_infinity)
    if not (
        _lengths_fit(input_lengths, target_lengths)
        and _arguments.fits_function_overloads("ctc_loss", args)
    ):
        raise TypeError(_arguments.function_call_fits_none("ctc_loss", args, {}))
    return ctc_loss_aten(*args)


def ctc_loss_aten(
    log_probs: Any,
    targets: Any,
    input_lengths: Any,
    target_lengths: Any,
    blank: int = 0,
    reduction: int = 0,
    zero_infinity: bool = False,
) -> Any:
    """``minigrad.ctc_loss``: ATen's form, ``reduction`` a number.

    1 'mean', 2 'sum', anything else none (also without it: see ``minigrad.kl_div``).

    Example:
        >>> import minigrad
        >>> log_probs = minigrad.full((2, 1, 2), 0.5).log()
        >>> minigrad.ctc_loss(log_probs, minigrad.tensor([[1]]), [2], [1], 0, 2)
        tensor(0.2877)
    """
    _arguments.check_tensor(log_probs, "ctc_loss", "log_probs", 1)
    _arguments.check_tensor(targets, "ctc_loss", "targets", 2)
    batched = log_probs.dim() == 3
    if not batched:  # (1-d targets are then the concatenation of one sequence's)
        log_probs = views.unsqueeze(log_probs, 1)
    if not _lengths_fit(input_lengths, target_lengths):
        # (the listing for the call as made by position, its trailing defaults left out)
        args = [log_probs, targets, input_lengths, target_lengths, blank, reduction, zero_infinity]
        while len(args) > 4 and args[-1] == (0, 0, False)[len(args) - 5]:
            args.pop()
        raise _arguments.parser_error(
            _arguments.function_call_fits_none("ctc_loss", tuple(args), {})
        )
    # (the parser unpacks the arguments last first: these before the lengths' items)
    _arguments.check_int64_arguments(blank, reduction)
    inputs, lengths = _lengths(input_lengths, target_lengths)
    target_array = operand(targets)
    if target_array.dtype.kind != "i":
        targets = targets.long()
    _check(operand(log_probs), operand(targets), inputs, lengths, int(blank))
    loss = CtcLoss.apply(log_probs, targets, inputs, lengths, int(blank), bool(zero_infinity))
    if zero_infinity:
        loss = where(loss == np.inf, tensor(0.0, dtype=loss.dtype), loss)
    if reduction == 1:  # ('mean')
        divisor = clamp_min(tensor(lengths, dtype=loss.dtype), 1)
        return mean(loss / divisor)
    if reduction == 2:  # ('sum')
        return loss.sum()
    return loss if batched else views.squeeze(loss, 0)
