"""PyTorch's texts for what ``assert_close`` finds: the mismatch reports and the structural errors.

Byte for byte as ``torch.testing`` words them (numbers printed as Python prints the ``.item()``
of the tensor they come from: a float32 difference of 0.2 reads ``0.20000000298023224``), with
``minigrad`` in type names. The report for two tensors is built with minigrad's own ops, in the
steps PyTorch takes, so that its dtypes (int64 differences, default-float relative ones, float16
rounding) are PyTorch's too.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import minigrad

Identifier = str | Callable[[str], str] | None

# The tail of PyTorch's messages for an error that its comparison code did not expect.
UNEXPECTED = (
    "resulted in the unexpected exception above. "
    "If you are a user and see this message during normal operation "
    "please file an issue at https://github.com/pytorch/pytorch/issues. "
    "If you are a developer and working on the comparison functions, "
    "please except the previous error and raise an expressive `ErrorMeta` instead."
)


def item_path(id: tuple[Any, ...]) -> str:
    """Where in nested inputs a pair sits, as PyTorch writes it: ``[0]['a']``."""
    return "".join(str([item]) for item in id)


def type_text(value: Any) -> str:
    """``str(type(value))``, with the Tensor class under its public name (``minigrad.Tensor``)."""
    kind = type(value)
    return "<class 'minigrad.Tensor'>" if kind is minigrad.Tensor else str(kind)


def _identifier(default: str, identifier: Identifier) -> str:
    if identifier is None:
        return default
    return identifier(default) if callable(identifier) else identifier


def mismatch(
    *,
    default_identifier: str,
    identifier: Identifier = None,
    extra: str | None,
    abs_diff: Any,
    abs_diff_idx: tuple[int, ...] | None = None,
    atol: Any,
    rel_diff: Any,
    rel_diff_idx: tuple[int, ...] | None = None,
    rtol: Any,
) -> str:
    """The report of values that are not close (or not equal, with both tolerances zero)."""
    equality = rtol == 0 and atol == 0

    def difference(kind: str, diff: Any, idx: tuple[int, ...] | None, tol: Any) -> str:
        """One 'Greatest ... difference' line of the report."""
        if idx is None:
            line = f"{kind.title()} difference: {diff}"
        else:
            line = f"Greatest {kind} difference: {diff} at index {idx}"
        if not equality:
            line += f" (up to {tol} allowed)"
        return line + "\n"

    text = f"{_identifier(default_identifier, identifier)} are not "
    text += f"{'equal' if equality else 'close'}!\n\n"
    if extra:
        text += f"{extra.strip()}\n"
    text += difference("absolute", abs_diff, abs_diff_idx, atol)
    text += difference("relative", rel_diff, rel_diff_idx, rtol)
    return text.strip()


def scalar_mismatch(
    actual: Any, expected: Any, *, rtol: Any, atol: Any, identifier: Identifier = None
) -> str:
    """The report for two numbers (Python's, or the items of two 0-d tensors)."""
    abs_diff = abs(actual - expected)
    rel_diff = float("inf") if expected == 0 else abs_diff / abs(expected)
    return mismatch(
        default_identifier="Scalars",
        identifier=identifier,
        extra=f"Expected {expected} but got {actual}.",
        abs_diff=abs_diff,
        atol=atol,
        rel_diff=rel_diff,
        rtol=rtol,
    )


def _unravel(flat_index: int, shape: tuple[int, ...]) -> tuple[int, ...]:
    """The index in ``shape`` of the ``flat_index``-th element in row-major order."""
    index = []
    for size in reversed(shape):
        flat_index, position = divmod(flat_index, size)
        index.append(position)
    return tuple(reversed(index))


def tensor_mismatch(
    actual: Any,
    expected: Any,
    matches: Any,
    *,
    rtol: Any,
    atol: Any,
    identifier: Identifier = None,
) -> str:
    """The report for two tensors of one dtype and shape; ``matches`` says where they are close.

    The greatest differences are taken over the mismatched elements only (the matched ones count
    as 0); integers and bools are compared as int64, their relative difference in the default
    float dtype (int64 / int64), as PyTorch does.
    """
    count = matches.numel()
    mismatched = count - int(matches.sum())
    extra = f"Mismatched elements: {mismatched} / {count} ({mismatched / count:.1%})"
    with minigrad.no_grad():
        actual_flat, expected_flat = actual.flatten(), expected.flatten()
        matches_flat = matches.flatten()
        if not actual.dtype.is_floating_point:
            actual_flat, expected_flat = actual_flat.to(minigrad.int64), expected_flat.to(
                minigrad.int64
            )
        abs_diff = minigrad.abs(actual_flat - expected_flat)
        abs_diff[matches_flat] = 0  # only mismatches count
        max_abs, max_abs_index = minigrad.max(abs_diff, 0)
        rel_diff = abs_diff / minigrad.abs(expected_flat)
        rel_diff[matches_flat] = 0
        max_rel, max_rel_index = minigrad.max(rel_diff, 0)
    shape = tuple(matches.shape)
    return mismatch(
        default_identifier="Tensor-likes",
        identifier=identifier,
        extra=extra,
        abs_diff=max_abs.item(),
        abs_diff_idx=_unravel(int(max_abs_index), shape),
        atol=atol,
        rel_diff=max_rel.item(),
        rel_diff_idx=_unravel(int(max_rel_index), shape),
        rtol=rtol,
    )
