"""``nn.utils.rnn``: batching sequences of different lengths (PyTorch's ``torch.nn.utils.rnn``)."""

from __future__ import annotations

from collections.abc import Iterable

from minigrad.creation import full
from minigrad.tensor import Tensor

__all__ = ["pad_sequence"]


def pad_sequence(
    sequences: Tensor | Iterable[Tensor], batch_first: bool = False,
    padding_value: float = 0.0, padding_side: str = "right",
) -> Tensor:
    """Stack sequences of lengths ``L_i`` into one ``(max L, B, *)`` tensor, padded.

    As PyTorch: a tensor of ``padding_value`` in the first sequence's dtype, into which each
    sequence is copied (``(B, max L, *)`` with ``batch_first``; at the end of its row, with
    ``padding_side="left"``). The copies are in-place writes through views, so the result's
    node is ``CopySlices`` when a sequence requires grad.

    Example:
        >>> import minigrad
        >>> from minigrad.nn.utils.rnn import pad_sequence
        >>> pad_sequence([minigrad.tensor([1, 2, 3]), minigrad.tensor([4])], batch_first=True)
        tensor([[1, 2, 3],
                [4, 0, 0]])
    """
    if not isinstance(sequences, Iterable):
        raise RuntimeError(
            "pad_sequence: Expected iterable for input sequences, but got arg of type: "
            f"{type(sequences)}"
        )
    sequences = tuple(sequences)
    if not sequences:
        raise RuntimeError("received an empty list of sequences")
    if padding_side not in ("left", "right"):
        raise RuntimeError(
            f"Expected padding_side to be one of left or right, but got {padding_side}."
        )
    first = sequences[0]
    if first.dim() == 0:  # PyTorch slices off the first sequence's first size
        raise RuntimeError("ArrayRef: invalid slice, N = 1; size = 0")
    max_len = max(seq.size(0) for seq in sequences)
    trailing = tuple(first.shape[1:])
    dims = (len(sequences), max_len) if batch_first else (max_len, len(sequences))
    out = full(dims + trailing, padding_value, dtype=first.dtype)
    for i, seq in enumerate(sequences):
        length = seq.size(0)
        start = max_len - length if padding_side == "left" else 0
        out.select(0 if batch_first else 1, i).narrow(0, start, length).copy_(seq)
    return out
