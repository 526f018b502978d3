"""``nn.utils.rnn``: batching sequences of different lengths (PyTorch's ``torch.nn.utils.rnn``).

``pad_sequence`` pads them into one tensor; ``pack_padded_sequence`` packs a padded batch into
a ``PackedSequence`` (the rows still running at each time step, one step after the other),
which ``RNN``, ``LSTM`` and ``GRU`` run without computing on the padding;
``pad_packed_sequence`` pads it back.
"""

from __future__ import annotations

from collections import namedtuple
from collections.abc import Iterable
from typing import Any

from minigrad import _dtype
from minigrad.creation import arange, empty_like, full, tensor
from minigrad.ops.packing import PackPaddedSequence
from minigrad.ops.sorting import sort
from minigrad.tensor import Tensor

__all__ = [
    "PackedSequence", "pack_padded_sequence", "pack_sequence", "pad_packed_sequence",
    "pad_sequence",
]


_PackedSequenceFields = namedtuple(
    "PackedSequence_", ["data", "batch_sizes", "sorted_indices", "unsorted_indices"]
)


class PackedSequence(_PackedSequenceFields):
    """A batch of sequences packed by time step (a named tuple of four tensors).

    ``data`` holds the rows of every sequence still running at step 0, then at step 1, ...;
    ``batch_sizes[t]`` (an int64 tensor) says how many. ``sorted_indices`` is the order the
    batch was sorted into (by decreasing length; None if it was given sorted) and
    ``unsorted_indices`` its inverse. Make one with ``pack_padded_sequence``.
    """

    __slots__ = ()

    def __new__(
        cls, data: Tensor, batch_sizes: Tensor | None = None, sorted_indices: Tensor | None = None,
        unsorted_indices: Tensor | None = None,
    ) -> PackedSequence:
        """The packed sequence; ``unsorted_indices`` defaults to ``sorted_indices``' inverse."""
        if unsorted_indices is None and sorted_indices is not None:
            unsorted_indices = _invert_permutation(sorted_indices)
        return super().__new__(cls, data, batch_sizes, sorted_indices, unsorted_indices)


def _invert_permutation(permutation: Tensor) -> Tensor:
    output = empty_like(permutation)
    output.scatter_(0, permutation, arange(permutation.numel()))
    return output


def pack_padded_sequence(
    input: Tensor, lengths: Any, batch_first: bool = False, enforce_sorted: bool = True
) -> PackedSequence:
    """Pack a padded ``(T, B, *)`` batch (``(B, T, *)`` with ``batch_first``) of ``lengths``.

    With ``enforce_sorted`` the lengths must decrease; otherwise the batch is sorted first
    (``sorted_indices``). The data's node is ``PackPaddedSequenceBackward0``, as PyTorch's.

    Example:
        >>> import minigrad
        >>> from minigrad.nn.utils.rnn import pack_padded_sequence
        >>> x = minigrad.tensor([[1, 2, 3], [4, 5, 0]])
        >>> packed = pack_padded_sequence(x, [3, 2], batch_first=True)
        >>> packed.data, packed.batch_sizes
        (tensor([1, 4, 2, 5, 3]), tensor([2, 2, 1]))
    """
    lengths = (lengths.to(_dtype.int64) if isinstance(lengths, Tensor)
               else tensor(lengths, dtype=_dtype.int64))
    sorted_indices = None
    if not enforce_sorted:
        lengths, sorted_indices = sort(lengths, descending=True)
        input = input.index_select(0 if batch_first else 1, sorted_indices)
    counts = [int(n) for n in lengths.tolist()]
    batch_size = input.size(0 if batch_first else 1)
    if len(counts) != batch_size:
        raise RuntimeError(
            f"Expected `len(lengths)` to be equal to batch_size, but got {len(counts)} "
            f"(batch_size={batch_size})"
        )
    if counts[-1] <= 0:
        raise RuntimeError(
            "Length of all samples has to be greater than 0, but found an element in 'lengths' "
            "that is <= 0"
        )
    if any(a < b for a, b in zip(counts, counts[1:])):
        raise RuntimeError(
            "`lengths` array must be sorted in decreasing order when `enforce_sorted` is True. "
            "You can pass `enforce_sorted=False` to pack_padded_sequence and/or pack_sequence to "
            "sidestep this requirement if you do not need ONNX exportability."
        )
    batch_sizes = tuple(sum(n > t for n in counts) for t in range(counts[0]))
    data = PackPaddedSequence.apply(input, batch_sizes, bool(batch_first))
    return PackedSequence(data, tensor(batch_sizes, dtype=_dtype.int64), sorted_indices, None)


def pad_packed_sequence(
    sequence: PackedSequence, batch_first: bool = False, padding_value: float = 0.0,
    total_length: int | None = None,
) -> tuple[Tensor, Tensor]:
    """Pad a ``PackedSequence`` back: ``(padded, lengths)``, in the batch's original order.

    Example:
        >>> import minigrad
        >>> from minigrad.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence
        >>> x = minigrad.tensor([[1, 2, 3], [4, 5, 0]])
        >>> pad_packed_sequence(pack_padded_sequence(x, [3, 2], batch_first=True), True)
        (tensor([[1, 2, 3],
                [4, 5, 0]]), tensor([3, 2]))
    """
    data, batch_sizes, _, unsorted_indices = sequence
    sizes = [int(n) for n in batch_sizes.tolist()]
    max_seq_length = len(sizes)
    if total_length is not None:
        if total_length < max_seq_length:
            raise ValueError(
                "Expected total_length to be at least the length of the longest sequence in "
                f"input, but got total_length={total_length} and max sequence length being "
                f"{max_seq_length}"
            )
        max_seq_length = total_length
    output = full((max_seq_length, sizes[0], *data.shape[1:]), padding_value, dtype=data.dtype)
    offset = 0
    for t, size in enumerate(sizes):
        output.select(0, t).narrow(0, 0, size).copy_(data.narrow(0, offset, size))
        offset += size
    lengths = tensor([sum(size > b for size in sizes) for b in range(sizes[0])],
                     dtype=_dtype.int64)
    if batch_first:
        output = output.transpose(0, 1)
    if unsorted_indices is not None:
        return output.index_select(0 if batch_first else 1, unsorted_indices), \
            lengths[unsorted_indices]
    return output, lengths


def pack_sequence(sequences: Iterable[Tensor], enforce_sorted: bool = True) -> PackedSequence:
    """Pack a list of ``(L_i, *)`` sequences (``pad_sequence`` then ``pack_padded_sequence``)."""
    sequences = list(sequences)
    lengths = tensor([seq.size(0) for seq in sequences], dtype=_dtype.int64)
    return pack_padded_sequence(pad_sequence(sequences), lengths, enforce_sorted=enforce_sorted)


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
