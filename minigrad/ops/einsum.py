"""einsum: Einstein summation recorded as PyTorch records it.

Per operand: diagonals for repeated subscripts, unsqueezes and a permute to a common order of
subscripts; then, left to right, a mul or a bmm per pair (``_sumproduct_pair``); then a sum or
a view down to the output's subscripts.
"""

from __future__ import annotations

import math
from typing import Any

from minigrad import _arguments, errors
from minigrad.autograd.tensor_base import TensorBase
from minigrad.ops import arithmetic, reduction, views
from minigrad.ops._helpers import (
    operand,
)
from minigrad.ops.linalg import bmm
from minigrad.ops.views import Diagonal

_ELLIPSIS = -1


def _einsum_labels(equation: str, count: int) -> tuple[list[list[int]], str | None]:
    """Each operand's subscripts (letters as numbers, ``...`` as -1), and the output part."""
    lhs, arrow, rhs = equation.partition("->")
    labels: list[list[int]] = [[] for _ in range(count)]
    current, i = 0, 0
    while i < len(lhs):
        char = lhs[i]
        if char == " ":
            pass
        elif char == ".":
            if _ELLIPSIS in labels[current]:
                raise RuntimeError(errors.einsum_repeated_ellipsis(current))
            if lhs[i : i + 3] != "...":
                raise RuntimeError(errors.einsum_stray_dot(current))
            labels[current].append(_ELLIPSIS)
            i += 2
        elif char == ",":
            current += 1
            if current >= count:
                raise RuntimeError(errors.EINSUM_TOO_FEW_OPERANDS)
        elif char.isascii() and char.isalpha():
            labels[current].append(ord(char))
        else:
            raise RuntimeError(errors.einsum_invalid_subscript(i))
        i += 1
    if current != count - 1:
        raise RuntimeError(errors.EINSUM_TOO_MANY_OPERANDS)
    return labels, (rhs if arrow else None)


def _label_order(label: int) -> int:
    # PyTorch numbers labels A-Z then a-z.
    char = chr(label)
    return ord(char) - ord("A") if char.isupper() else 26 + ord(char) - ord("a")


def einsum(*args: Any) -> Any:
    """Einstein summation: ``"ij,jk->ik"``, ``"ii->"``, ``"bij,bjk->bik"``, ``"i,j->ij"``, ...

    Matrix products, traces, batched products, outer products; ``...`` stands for broadcast
    dims. Also in sublist form: ``einsum(a, [0, 1], b, [1, 2])`` (numbers 0-51 for subscripts,
    ``...`` as ``Ellipsis``), with an optional output sublist at the end.

    Recorded as PyTorch records it: per operand diagonals, unsqueezes and a permute to a common
    order of subscripts; then, left to right, a mul or a bmm per pair (sumproduct_pair); then a
    sum or view to drop the contracted subscripts.

    Example:
        >>> import minigrad
        >>> minigrad.einsum("ii->", minigrad.tensor([[1.0, 2.0], [3.0, 4.0]]))
        tensor(5.)
    """
    if len(args) < 2:
        raise ValueError(errors.EINSUM_NO_ARGUMENTS)
    if isinstance(args[0], TensorBase):
        equation, operands = _sublist_equation(args)
    else:
        equation, operands = args[0], args[1:]
    if not isinstance(equation, str):
        raise TypeError(errors.wrong_argument_type(
            "einsum", "equation", "str", errors.python_type_name(equation), 1
        ))
    if len(operands) == 1 and isinstance(operands[0], (list, tuple)):
        operands = tuple(operands[0])
    _arguments.check_tensor_sequence(operands, 1)
    arrays = [operand(x) for x in operands]
    labels, rhs = _einsum_labels(equation, len(operands))

    counts: dict[int, int] = {}
    ellipsis_dims = 0
    for index, (array, subscripts) in enumerate(zip(arrays, labels)):
        named = [s for s in subscripts if s != _ELLIPSIS]
        has_ellipsis = len(named) != len(subscripts)
        for s in named:
            counts[s] = counts.get(s, 0) + 1
        if has_ellipsis:
            ellipsis_dims = max(ellipsis_dims, array.ndim - len(named))
        if (len(named) > array.ndim) if has_ellipsis else (len(named) != array.ndim):
            raise RuntimeError(
                errors.einsum_subscript_count(len(named), array.ndim, index, has_ellipsis))

    # Where each subscript goes in the common order: output subscripts first, then contracted.
    position: dict[int, int] = {}
    ellipsis_at, next_position = 0, 0
    ellipsis_in_output = False
    if rhs is None:
        next_position = ellipsis_dims
        ellipsis_in_output = True
        for label in sorted((s for s, c in counts.items() if c == 1), key=_label_order):
            position[label] = next_position
            next_position += 1
    else:
        i = 0
        while i < len(rhs):
            char = rhs[i]
            if char == " ":
                pass
            elif char == ".":
                if ellipsis_in_output:
                    raise RuntimeError(errors.einsum_repeated_ellipsis(None))
                if rhs[i : i + 3] != "...":
                    raise RuntimeError(errors.einsum_stray_dot(None))
                ellipsis_at, ellipsis_in_output = next_position, True
                next_position += ellipsis_dims
                i += 2
            elif char.isascii() and char.isalpha():
                label = ord(char)
                if label in position or label not in counts:
                    raise RuntimeError(errors.einsum_output_subscript(char, label in position))
                position[label] = next_position
                next_position += 1
            else:
                raise RuntimeError(
                    errors.einsum_invalid_subscript(len(equation) - len(rhs) + i))
            i += 1
    output_dims = next_position
    if not ellipsis_in_output:
        ellipsis_at = next_position
        next_position += ellipsis_dims
    for label in sorted(counts, key=_label_order):
        if label not in position:
            position[label] = next_position
            next_position += 1
    total_dims = next_position

    # Align every operand to the common order (diagonals for repeated subscripts).
    sizes: dict[int, int] = {}
    ellipsis_sizes = [1] * ellipsis_dims
    nontrivial = [0] * total_dims  # how many operands have a size != 1 there
    aligned = []
    for index, (x, subscripts) in enumerate(zip(operands, labels)):
        permutation = [-1] * total_dims
        dim = 0
        for s in subscripts:
            shape = operand(x).shape
            if s == _ELLIPSIS:
                covered = operand(x).ndim - (len(subscripts) - 1)
                for j in range(ellipsis_dims - covered, ellipsis_dims):
                    if shape[dim] != 1:
                        if ellipsis_sizes[j] not in (1, shape[dim]):
                            raise RuntimeError(errors.einsum_ellipsis_broadcast(
                                dim, index, shape[dim], ellipsis_sizes[j]))
                        ellipsis_sizes[j] = shape[dim]
                        nontrivial[ellipsis_at + j] += 1
                    permutation[ellipsis_at + j] = dim
                    dim += 1
            elif permutation[position[s]] == -1:
                if shape[dim] != 1:
                    if sizes.get(s, 1) not in (1, shape[dim]):
                        raise RuntimeError(errors.einsum_subscript_broadcast(
                            chr(s), shape[dim], index, sizes[s]))
                    sizes[s] = shape[dim]
                    nontrivial[position[s]] += 1
                permutation[position[s]] = dim
                dim += 1
            else:
                previous = permutation[position[s]]
                if shape[dim] != shape[previous]:
                    raise RuntimeError(errors.einsum_repeated_subscript_sizes(
                        chr(s), index, shape[dim], shape[previous]))
                x = views.permute(Diagonal.apply(x, 0, previous, dim),
                                  _movedim_order(operand(x).ndim - 1, -1, previous))
        for slot, value in enumerate(permutation):
            if value == -1:
                x = views.unsqueeze(x, dim)
                permutation[slot] = dim
                dim += 1
        aligned.append(views.permute(x, permutation))

    # Contract left to right.
    while len(aligned) > 1:
        a, b = aligned.pop(0), aligned.pop(0)
        sum_dims, a_sums, b_sums = [], [], []
        for dim in range(output_dims, total_dims):
            a_big, b_big = operand(a).shape[dim] != 1, operand(b).shape[dim] != 1
            if a_big and b_big:
                nontrivial[dim] -= 1
                if nontrivial[dim] == 1:
                    sum_dims.append(dim)
                    nontrivial[dim] = 0
            elif nontrivial[dim] == 1:
                if a_big:
                    a_sums.append(dim)
                    nontrivial[dim] = 0
                elif b_big:
                    b_sums.append(dim)
                    nontrivial[dim] = 0
        if a_sums:
            a = reduction.sum(a, a_sums, True)
        if b_sums:
            b = reduction.sum(b, b_sums, True)
        aligned.insert(0, _sumproduct_pair(a, b, sum_dims))

    result = aligned[0]
    if total_dims > output_dims:
        if len(operands) > 1:
            return views.view(result, operand(result).shape[:output_dims])
        return reduction.sum(result, list(range(output_dims, total_dims)))
    return result


def _sublist_equation(args: tuple[Any, ...]) -> tuple[str, tuple[Any, ...]]:
    """The equation and operands of einsum's sublist form (PyTorch's conversion)."""

    def subscript(n: Any) -> str:
        if n is Ellipsis:
            return "..."
        if 0 <= n < 26:
            return chr(ord("A") + n)
        if 26 <= n < 52:
            return chr(ord("a") + n - 26)
        raise ValueError(errors.EINSUM_SUBLIST_RANGE)

    equation = ",".join("".join(subscript(s) for s in sublist) for sublist in args[1::2])
    if len(args) % 2 == 1:
        return equation + "->" + "".join(subscript(s) for s in args[-1]), args[:-1:2]
    return equation, args[::2]


def _movedim_order(ndim: int, source: int, destination: int) -> list[int]:
    """The permutation ``movedim(source, destination)`` applies (for a single dim)."""
    source %= ndim
    order = [d for d in range(ndim) if d != source]
    order.insert(destination, source)
    return order


def _sumproduct_pair(left: Any, right: Any, sum_dims: list[int]) -> Any:
    """Multiply two aligned operands and sum over ``sum_dims`` (kept as size 1), with one bmm.

    PyTorch's sumproduct_pair: dims in both (batch), only left, summed, only right; permute,
    reshape to (batch, left, summed) @ (batch, summed, right), bmm, view, permute back.
    """
    if not sum_dims:
        return arithmetic.mul(left, right)
    shape_l, shape_r = operand(left).shape, operand(right).shape
    ndim = len(shape_l)
    both, only_left, only_right = [], [], []
    summed_size = 1
    for i in range(ndim):
        big_l, big_r = shape_l[i] != 1, shape_r[i] != 1
        if i in sum_dims:
            if big_l and big_r:
                if shape_l[i] != shape_r[i]:
                    raise RuntimeError(errors.EINSUM_NON_BROADCAST_DIMS)
                summed_size *= shape_l[i]
            elif big_l:
                left = reduction.sum(left, i, True)
            elif big_r:
                right = reduction.sum(right, i, True)
        elif big_l and big_r:
            if shape_l[i] != shape_r[i]:
                raise RuntimeError(errors.EINSUM_NON_BROADCAST_DIMS)
            both.append(i)
        elif big_l:
            only_left.append(i)
        else:
            only_right.append(i)
    shape_l, shape_r = operand(left).shape, operand(right).shape
    both_size = math.prod(shape_l[i] for i in both)
    left_size = math.prod(shape_l[i] for i in only_left)
    right_size = math.prod(shape_r[i] for i in only_right)
    out_size = ([shape_l[i] for i in both] + [shape_l[i] for i in only_left]
                + [1] * len(sum_dims) + [shape_r[i] for i in only_right])
    left_order = both + only_left + sum_dims + only_right
    right_order = both + sum_dims + only_right + only_left
    inverse = [0] * len(out_size)
    for i, d in enumerate(both + only_left + sum_dims + only_right):
        inverse[d] = i
    left = views.reshape(views.permute(left, left_order), (both_size, left_size, summed_size))
    right = views.reshape(views.permute(right, right_order),
                          (both_size, summed_size, right_size))
    result = views.view(bmm(left, right), tuple(out_size))
    return views.permute(result, inverse)


# --- norms ------------------------------------------------------------------------------------
