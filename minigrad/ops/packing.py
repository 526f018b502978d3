"""Packing padded sequences: the op behind ``nn.utils.rnn.pack_padded_sequence``."""

from __future__ import annotations

from typing import Any

import numpy as np

from minigrad.autograd.function import NO_GRAD_CTX, Op


class PackPaddedSequence(Op):
    """data = the rows still running at each time step, one step after the other.

    ``input`` is ``(T, B, *)`` (``(B, T, *)`` with ``batch_first``) and ``batch_sizes[t]`` the
    number of sequences longer than ``t`` (the batch is sorted by decreasing length), so step
    ``t`` gives rows ``input[t, :batch_sizes[t]]``. dx: those rows of the gradient back in
    place, zeros in the padding. Saves nothing (the shape and batch sizes are on the node).
    """

    saves = ()  # (it saves nothing: its node has no slot for saved values)
    fields = ("shape", "batch_sizes", "batch_first", "dtype")

    @staticmethod
    def forward(
        ctx: Any, input: np.ndarray, batch_sizes: tuple[int, ...], batch_first: bool
    ) -> np.ndarray:
        steps = np.swapaxes(input, 0, 1) if batch_first else input
        data = np.concatenate([steps[t, :size] for t, size in enumerate(batch_sizes)])
        if ctx is not NO_GRAD_CTX:
            ctx.shape, ctx.batch_sizes, ctx.batch_first = steps.shape, batch_sizes, batch_first
            ctx.dtype = input.dtype
        return data

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, None, None]:
        batch, rest = ctx.shape[1], ctx.shape[2:]
        pieces, offset = [], 0
        for size in ctx.batch_sizes:
            piece = grad[offset:offset + size]
            offset += size
            if size < batch:
                piece = np.concatenate([piece, np.zeros((batch - size, *rest), ctx.dtype)])
            pieces.append(piece)
        padding = [np.zeros((batch, *rest), ctx.dtype)] * (ctx.shape[0] - len(pieces))
        grad_input = np.stack(pieces + padding)
        return (np.swapaxes(grad_input, 0, 1) if ctx.batch_first else grad_input), None, None
