"""``copy_`` between views of one buffer that PyTorch does not check: its loop's order decides.

PyTorch's copy refuses a source that partially overlaps the written tensor when both are dense
(a TensorIterator check); if either is not dense, the check is "too hard" and skipped, and its
loop visits the written elements in memory order, reading each source element when it gets
there: one it already wrote has its new value. Each program runs in both libraries (found by
random programs, seed 44334888); a sweep of random views of one buffer copied into each other
must agree too. Along long contiguous rows PyTorch's vectorized loop reads a block of two
vector registers (AVX2's, as the tests pin: 16 float32) whole before writing it.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
import torch
from _cases import parametrize_in_one

import minigrad
from tests_torch.random_programs.shrink import assert_agrees

PROGRAMS = {
    # seed 44334888, shrunk: t0[1, 1:] reads the -2 just written into t0[0, 2]
    "transposed_from_a_broadcast_row": """
t0 = torch.tensor([[1.0, -2.0, 2.0], [0.0, -2.0, 3.0]])
t2 = t0[:, 1:]
t4 = t2.T
t5 = t2[0:1]
t4.copy_(t5)
""",
    "shifted_columns": """
t0 = torch.tensor([[1.0, -2.0, 2.0], [0.0, -2.0, 3.0]])
t2 = t0[:, 1:]
t4 = t0[:, :2]
t2.copy_(t4)
""",
    "shifted_columns_recorded": """
t0 = torch.tensor([[1.0, -2.0, 2.0], [0.0, -2.0, 3.0]], requires_grad=True)
t1 = t0 * 1
t2 = t1[:, 1:]
t4 = t1[:, :2]
t2.copy_(t4)
t1.sum().backward()
""",
    "transposed_into_itself": """
t0 = torch.tensor([[1.0, -2.0, 2.0], [0.0, -2.0, 3.0]])
t2 = t0[:, 1:]
t4 = t2.T
t4.copy_(t2)
""",
}


@parametrize_in_one("name", list(PROGRAMS))
def test_programs_agree_with_pytorch(name: str) -> None:
    assert_agrees(PROGRAMS[name])


def _view(tensor: Any, rng: random.Random) -> Any:
    for _ in range(rng.randint(1, 3)):
        step = rng.choice(["narrow", "transpose", "every_other", "select"])
        dim = rng.randrange(tensor.dim()) if tensor.dim() else 0
        if step == "transpose" and tensor.dim() >= 2:
            tensor = tensor.transpose(*rng.sample(range(tensor.dim()), 2))
        elif step == "narrow" and tensor.dim() and tensor.shape[dim] > 1:
            start = rng.randrange(tensor.shape[dim])
            tensor = tensor.narrow(dim, start, rng.randint(1, tensor.shape[dim] - start))
        elif step == "every_other" and tensor.dim():
            index = [slice(None)] * tensor.dim()
            index[dim] = slice(None, None, 2)
            tensor = tensor[tuple(index)]
        elif step == "select" and tensor.dim() >= 2:
            tensor = tensor.select(dim, rng.randrange(tensor.shape[dim]))
    return tensor


def _copy_between_views(lib: Any, seed: int) -> Any:
    rng = random.Random(seed)
    shape = [rng.randint(1, 4) for _ in range(rng.randint(1, 3))]
    numel = 1
    for size in shape:
        numel *= size
    buffer = lib.arange(numel, dtype=lib.float32).reshape(shape)
    written, source = _view(buffer, rng), _view(buffer, rng)
    try:
        written.copy_(source)
    except RuntimeError as error:
        return str(error).replace("torch", "minigrad")
    return buffer.tolist()


@pytest.mark.parametrize("first", range(0, 1200, 300))
def test_copies_between_views_of_one_buffer_agree_with_pytorch(first: int) -> None:
    for seed in range(first, first + 300):
        mine, theirs = _copy_between_views(minigrad, seed), _copy_between_views(torch, seed)
        assert mine == theirs, seed


@parametrize_in_one("dtype", ["float16", "float32", "float64", "int64"])
@parametrize_in_one("length", [15, 16, 17, 33, 70])
@parametrize_in_one("shift", ["columns", "transposed", "repeated"])
def test_long_rows_are_copied_in_vector_blocks_as_in_pytorch(
    shift: str, length: int, dtype: str
) -> None:
    results = []
    for lib in (minigrad, torch):
        x = lib.arange(2 * length).to(getattr(lib, dtype)).reshape(2, length)
        if shift == "columns":
            x[:, 1:].copy_(x[:, :-1])
        elif shift == "transposed":
            x.T[1:, :].copy_(x.T[:-1, :])
        else:  # one element repeated along the row, written meanwhile
            x[:, 1:].copy_(x[:, 3:4])
        results.append(x.tolist())
    assert results[0] == results[1]
