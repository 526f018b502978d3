"""``autograd.grad(..., is_grads_batched=True)``: one gradient per row of ``grad_outputs``.

PyTorch vmaps a single backward over the first dimension of every given gradient. minigrad has
no vmap: it runs one backward per row (keeping the graph for the next row) and stacks the
results, which are PyTorch's. What differs is what Python code inside backward sees: a hook or
a custom Function's backward runs once per row, given that row (under vmap: once, given a
tensor that looks like one row).
"""

from __future__ import annotations

from typing import Any

from minigrad import errors
from minigrad.autograd import engine, grad_mode
from minigrad.autograd.tensor_base import TensorBase


def grad_rows(
    roots: list[TensorBase],
    targets: list[TensorBase],
    grad_outputs: Any,
    retain_graph: bool | None,
    create_graph: bool,
    allow_unused: bool,
) -> tuple[Any, ...]:
    """The gradients of ``roots`` for each row of ``grad_outputs``, stacked (None if unused)."""
    given = _batched_gradients(roots, grad_outputs)
    sizes = [grad._array.shape[0] for grad in given if grad is not None]
    if len(set(sizes)) > 1:
        raise ValueError(
            "vmap: Expected all tensors to have the same size in the mapped dimension, got "
            f"sizes {sizes} for the mapped dimension"
        )
    retain = create_graph if retain_graph is None else retain_graph
    rows = []
    count = sizes[0] if sizes else 1
    for row in range(count):
        last = row == count - 1
        row_grads = [None if grad is None else grad[row] for grad in given]
        rows.append(
            engine._grad(
                roots, targets, row_grads, retain if last else True, create_graph, allow_unused
            )
        )
    return tuple(_stack([results[i] for results in rows], create_graph)
                 for i in range(len(targets)))


def _batched_gradients(roots: list[TensorBase], grad_outputs: Any) -> list[TensorBase | None]:
    """``grad_outputs`` as a list, each one's first row checked against its output's shape."""
    if grad_outputs is None:
        given: tuple[Any, ...] = (None,) * len(roots)
    elif isinstance(grad_outputs, TensorBase):
        given = (grad_outputs,)
    else:
        given = tuple(grad_outputs)
    for index, (root, grad) in enumerate(zip(roots, given)):
        if isinstance(grad, TensorBase):
            first = grad[0]  # (PyTorch's IndexError for an empty batch)
            if first._array.shape != root._array.shape:
                raise RuntimeError(
                    errors.batched_grad_shape_mismatch(
                        index, first._array.shape[1:], root._array.shape
                    )
                )
    return list(given)


def _stack(values: list[Any], create_graph: bool) -> Any:
    """One input's gradients of every row as one tensor (None: the input was unused)."""
    if values[0] is None:
        return None
    from minigrad.ops.shape import stack  # (the ops build on the autograd layer)

    if create_graph:
        return stack(values)
    with grad_mode.no_grad():
        return stack(values)
