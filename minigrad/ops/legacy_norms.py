"""The norms PyTorch keeps at the top level for old code, and two that raise.

frobenius_norm, nuclear_norm and norm_except_dim work; matrix_rank (removed from PyTorch) and
native_norm (no CPU kernel in PyTorch) raise as PyTorch does.

``frobenius_norm`` is ``at::norm(input, 2, dim, keepdim)`` (``NormBackward1``, the node
pairwise_distance records too); ``nuclear_norm`` is ``matrix_norm(input, 'nuc', dim,
keepdim)``; both warn once, as PyTorch does (without PyTorch's "Triggered internally at" source
location). ``norm_except_dim`` (weight normalization's helper) is PyTorch's composition: the
norm of each slice along ``dim``, kept as a broadcastable shape.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from minigrad import _arguments, _warnings
from minigrad._dtype import display_name
from minigrad.ops import views
from minigrad.ops._helpers import operand, shape_of, wrap_dim
from minigrad.ops.norms import Norm, matrix_norm

_DEPRECATED = (
    "at::{name} is deprecated and it is just left for JIT compatibility. It will be removed in "
    "a future PyTorch release. Please use `{instead}` instead"
)


class NormFull(Norm):
    """``at::norm(x, p)`` over every element: the same formula, PyTorch's NormBackward0."""

    node_name = "NormBackward0"
    saved_options = {"p": "ord"}


def _check_float(input: Any) -> None:
    if operand(input).dtype.kind != "f":
        raise RuntimeError(
            "norm(): input dtype should be either floating point or complex. Got "
            f"{display_name(operand(input).dtype)} instead."
        )


def frobenius_norm(input: Any, dim: Sequence[int], keepdim: bool = False) -> Any:
    """The 2-norm over ``dim`` (at most two dims); deprecated in PyTorch (warns once).

    Example:
        >>> import warnings
        >>> import minigrad
        >>> with warnings.catch_warnings():
        ...     warnings.simplefilter("ignore")
        ...     minigrad.frobenius_norm(minigrad.tensor([[3.0, 4.0]]), [1])
        tensor([5.])
    """
    _arguments.check_tensor(input, "frobenius_norm", "input", 1)
    _arguments.check_int_sequence(dim, "frobenius_norm", "dim", 2)
    _warnings.warn_once(
        _DEPRECATED.format(name="frobenius_norm", instead="linalg.vector_norm(A, 2., dim, keepdim)")
    )
    dims = [int(d) for d in ([dim] if isinstance(dim, int) else dim)]
    if len(dims) > 2:
        raise RuntimeError(
            f"Expected at most 2 dimensions, but got {len(dims)} dimensions instead."
        )
    _check_float(input)
    ndim = len(shape_of(input))
    axes = tuple(sorted({wrap_dim(d, ndim) for d in dims})) if dims else tuple(range(ndim))
    return Norm.apply(input, 2.0, axes, bool(keepdim), tuple(dims))


def nuclear_norm(input: Any, dim: Any = None, keepdim: bool = False) -> Any:
    """The sum of the singular values of the last two dims (or ``dim``); deprecated (warns).

    PyTorch binds ``nuclear_norm(input, keepdim=False)`` and ``nuclear_norm(input, dim,
    keepdim=False)``: a bool second argument is ``keepdim``.

    Example:
        >>> import warnings
        >>> import minigrad
        >>> with warnings.catch_warnings():
        ...     warnings.simplefilter("ignore")
        ...     minigrad.nuclear_norm(minigrad.tensor([[3.0, 0.0], [0.0, 4.0]]))
        tensor(7.)
    """
    _arguments.check_tensor(input, "nuclear_norm", "input", 1)
    if isinstance(dim, bool):  # (the overload without dim)
        dim, keepdim = None, dim
    instead = "linalg.matrix_norm(A, 'nuc', dim, keepdim)"
    _warnings.warn_once(_DEPRECATED.format(name="nuclear_norm", instead=instead))
    if dim is None:
        return matrix_norm(input, "nuc", (-2, -1), bool(keepdim))
    return matrix_norm(input, "nuc", tuple(dim), bool(keepdim))


def norm_except_dim(v: Any, pow: int = 2, dim: int = 0) -> Any:
    """The ``pow``-norm of each slice of ``v`` along ``dim``, shaped to broadcast against ``v``.

    ``dim=-1``: the norm of all of ``v`` (a 0-d tensor).

    Example:
        >>> import minigrad
        >>> minigrad.norm_except_dim(minigrad.tensor([[3.0, 4.0], [0.0, 1.0]]))
        tensor([[5.],
                [1.]])
    """
    _arguments.check_tensor(v, "norm_except_dim", "v", 1)
    _check_float(v)
    shape = shape_of(v)
    if dim == -1:
        return NormFull.apply(v, float(pow), tuple(range(len(shape))), False, None)
    if dim == 0:
        rows = views.reshape(v.contiguous(), (shape[0], -1))
        norms = Norm.apply(rows, float(pow), (1,), False, (1,))
        return views.view(norms, (shape[0],) + (1,) * (len(shape) - 1))
    last = len(shape) - 1
    if dim == last:
        columns = views.reshape(v.contiguous(), (-1, shape[last]))
        norms = Norm.apply(columns, float(pow), (0,), False, (0,))
        return views.view(norms, (1,) * last + (shape[last],))
    moved = views.transpose(v, 0, dim)
    return views.transpose(norm_except_dim(moved, pow, 0), 0, dim)


def matrix_rank(input: Any, tol: Any = None, symmetric: bool = False, *, out: Any = None) -> Any:
    """Removed from PyTorch (since 1.9): raises, pointing to ``linalg.matrix_rank``.

    Example:
        >>> import minigrad
        >>> try:
        ...     minigrad.matrix_rank(minigrad.eye(2))
        ... except RuntimeError as error:
        ...     print(str(error).splitlines()[0])
        This function was deprecated since version 1.9 and is now removed.
    """
    raise RuntimeError(
        "This function was deprecated since version 1.9 and is now removed.\nPlease use the "
        "`minigrad.linalg.matrix_rank` function instead. The parameter 'symmetric' was renamed "
        "in `minigrad.linalg.matrix_rank()` to 'hermitian'."
    )


def native_norm(
    input: Any, p: Any = 2, dim: Any = None, keepdim: bool = False, dtype: Any = None
) -> Any:
    """PyTorch has no CPU kernel for it (sparse tensors only): raises as PyTorch does.

    Example:
        >>> import minigrad
        >>> try:
        ...     minigrad.native_norm(minigrad.ones(2))
        ... except NotImplementedError as error:
        ...     print(str(error)[:38])
        Could not run 'aten::native_norm' with
    """
    _arguments.check_tensor(input, "native_norm", "input", 1)
    op = "aten::native_norm" if dim is None else "aten::native_norm.ScalarOpt_dim_dtype"
    raise NotImplementedError(
        f"Could not run '{op}' with arguments from the 'CPU' backend. This could be because "
        "the operator doesn't exist for this backend, or was omitted during the "
        "selective/custom build process (if using custom build). (minigrad: PyTorch has it for "
        "sparse tensors only)"
    )
