"""QR in LAPACK's compact form: ``geqrf``, ``linalg.householder_product`` (``orgqr``), ``ormqr``.

``geqrf`` factors A = QR and keeps Q as k Householder reflectors: ``R`` on and above the
diagonal of ``a``, each reflector's vector ``v_i`` below it (with an implicit 1 on the
diagonal), and their scales ``tau``; ``H_i = I - tau_i v_i v_i^T`` and ``Q = H_1 H_2 ... H_k``.
numpy's ``qr(mode='raw')`` is LAPACK's geqrf, returning the factor transposed (Fortran order).

``householder_product`` builds the first n columns of Q from the reflectors, ``ormqr``
multiplies a matrix by Q (or Q^T, from either side) without forming it. Both apply the
reflectors one at a time (``_reflect``) and are differentiable: the backward walks the
reflections in reverse, undoing each from the gradient (``_reflect_backward``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from minigrad import errors
from minigrad._dtype import display_name
from minigrad.autograd.function import Op
from minigrad.autograd.tensor_base import TensorBase
from minigrad.ops._helpers import constant_tensor, is_tensor, raw
from minigrad.ops.return_types import return_types
from minigrad.ops.solvers import column_major


def _tensor(value: Any, function: str, name: str, position: int) -> np.ndarray:
    if not isinstance(value, TensorBase):
        raise TypeError(
            errors.wrong_argument_type(
                function, name, "Tensor", errors.python_type_name(value), position
            )
        )
    return value._array


def _shape_text(shape: tuple[int, ...]) -> str:
    return "[" + ", ".join(str(n) for n in shape) + "]"


def _check_kernel(array: np.ndarray, kernel: str) -> None:
    if array.dtype not in (np.float32, np.float64):
        raise NotImplementedError(errors.not_implemented_for(kernel, display_name(array.dtype)))


# --- geqrf -----------------------------------------------------------------------------------


class Geqrf(Op):
    """(a, tau): A = QR in LAPACK's compact form.  PyTorch has no derivative for it.

    Saves nothing; its backward raises PyTorch's NotImplementedError "the derivative for
    'geqrf' is not implemented.".
    """

    saves = ()  # (it saves nothing: its node has no slot for saved values)

    @staticmethod
    def forward(ctx: Any, a: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        m, n = a.shape[-2:]
        batch = a.shape[:-2]
        factors = np.empty(a.shape, dtype=a.dtype)
        taus = np.empty((*batch, min(m, n)), dtype=a.dtype)
        for index in np.ndindex(*batch):
            if m and n:
                h, tau = np.linalg.qr(a[index], mode="raw")
                factors[index], taus[index] = h.T, tau
        return column_major(factors), taus

    @staticmethod
    def backward(ctx: Any, grad_a: Any, grad_tau: Any) -> Any:
        raise NotImplementedError(errors.derivative_not_implemented_quoted("geqrf"))


def geqrf(input: Any) -> Any:
    """The QR factorization of (each matrix in) ``input`` as LAPACK's geqrf returns it.

    The named tuple ``(a, tau)``: R on and above the diagonal of ``a``, the Householder vectors
    below it, and their scales ``tau`` (``linalg.householder_product(a, tau)`` is Q). Not
    differentiable.

    Example:
        >>> import minigrad
        >>> minigrad.geqrf(minigrad.tensor([[3.0, 1.0], [4.0, 2.0]])).a
        tensor([[-5.0000, -2.2000],
                [ 0.5000,  0.4000]])
    """
    array = _tensor(input, "geqrf", "input", 1)
    if array.ndim < 2:
        raise RuntimeError("minigrad.geqrf: input must have at least 2 dimensions.")
    _check_kernel(array, "geqrf_cpu")
    a, tau = Geqrf.apply(input)
    return return_types.geqrf(a, tau)


# --- applying reflectors ----------------------------------------------------------------------


def _vectors(a: Any, k: int) -> Any:
    """The first k Householder vectors as columns: below the diagonal of ``a``, 1 on it."""
    m = np.shape(a)[-2]
    return np.tril(a[..., :, :k], -1) + np.eye(m, k, dtype=raw(a).dtype)


def _steps(k: int, transposed: bool) -> range:
    """The order the reflectors act in: Q x applies H_k first, Q^T x applies H_1 first."""
    return range(k) if transposed else range(k - 1, -1, -1)


def _reflect(v: Any, tau: Any, x: Any, transposed: bool) -> list[Any]:
    """Q x (or Q^T x) one reflection at a time; every intermediate, the result last."""
    if is_tensor(v) and not is_tensor(x):  # (under create_graph: a batched product of tensors)
        x = constant_tensor(x)
    values = [x]
    for i in _steps(np.shape(v)[-1], transposed):
        vi, ti = v[..., :, i : i + 1], tau[..., i : i + 1, None]
        x = x - vi @ (ti * (np.swapaxes(vi, -1, -2) @ x))
        values.append(x)
    return values


def _reflect_backward(grad: Any, v: Any, tau: Any, values: list[Any], transposed: bool) -> Any:
    """The gradients of ``_reflect``'s result for x, the vectors v and the scales tau.

    For y = x - tau v (v^T x):  dx = g - tau v (v^T g),  dtau = -sum((v^T g) (v^T x)),
    dv = -tau (g (x^T v) + x (g^T v)), going back through the reflections in reverse.
    """
    k = np.shape(v)[-1]
    grad_v: list[Any] = [None] * k
    grad_tau: list[Any] = [None] * k
    steps = list(_steps(k, transposed))
    for step in range(k - 1, -1, -1):
        i, x = steps[step], values[step]
        vi, ti = v[..., :, i : i + 1], tau[..., i : i + 1, None]
        v_x = np.swapaxes(vi, -1, -2) @ x
        v_g = np.swapaxes(vi, -1, -2) @ grad
        grad_tau[i] = -np.sum(v_g * v_x, axis=(-2, -1))[..., None]
        grad_v[i] = -ti * (grad @ np.swapaxes(v_x, -1, -2) + x @ np.swapaxes(v_g, -1, -2))
        grad = grad - vi @ (ti * v_g)
    return grad, np.concatenate(grad_v, axis=-1), np.concatenate(grad_tau, axis=-1)


def _grad_input(grad_v: Any, a: Any) -> Any:
    """The input's gradient from its vectors': below the diagonal, zeros beyond column k."""
    m, n = np.shape(a)[-2:]
    k = np.shape(grad_v)[-1]
    lower = np.tril(grad_v, -1)
    if k == n:
        return lower
    zeros = np.zeros((*np.shape(a)[:-2], m, n - k), dtype=raw(a).dtype)
    return np.concatenate([lower, zeros], axis=-1)


# --- householder_product ------------------------------------------------------------------------


class LinalgHouseholderProduct(Op):
    """Q = H_1 ... H_k, its first n columns (n: the input's columns).

    The gradient goes back through the reflections (``_reflect_backward``). Saves the input,
    tau and the result, as PyTorch.
    """

    num_inputs = 2
    saves = ("input", "tau", "result")

    @staticmethod
    def forward(ctx: Any, a: np.ndarray, tau: np.ndarray) -> np.ndarray:
        m, n = a.shape[-2:]
        identity = np.broadcast_to(np.eye(m, n, dtype=a.dtype), a.shape)
        q = _reflect(_vectors(a, tau.shape[-1]), tau, identity, False)[-1]
        q = column_major(np.ascontiguousarray(q))
        ctx.save_for_backward(a, tau, q)
        return q

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, Any]:
        a, tau, _ = ctx.saved_tensors
        m, n = np.shape(a)[-2:]
        v = _vectors(a, np.shape(tau)[-1])
        identity = np.broadcast_to(np.eye(m, n, dtype=raw(a).dtype), np.shape(a))
        values = _reflect(v, tau, identity, False)
        _, grad_v, grad_tau = _reflect_backward(grad, v, tau, values, False)
        return _grad_input(grad_v, a), grad_tau


def _check_batches(name: str, a: np.ndarray, tau: np.ndarray) -> None:
    if a.ndim - tau.ndim != 1:
        raise RuntimeError(
            f"minigrad.{name}: Expected tau to have one dimension less than input, but got "
            f"tau.ndim equal to {tau.ndim} and input.ndim is equal to {a.ndim}"
        )
    if a.shape[:-2] != tau.shape[:-1]:
        raise RuntimeError(
            f"minigrad.{name}: Expected batch dimensions of tau to be equal to input.shape[:-2], "
            f"but got {_shape_text(tau.shape[:-1])}"
        )


def householder_product(input: Any, tau: Any) -> Any:
    """The first n columns of ``H_1 ... H_k`` (``H_i = I - tau_i v_i v_i^T``), LAPACK's orgqr.

    ``input`` (m x n, m >= n) holds the vectors below its diagonal, as ``geqrf`` leaves them;
    ``tau`` (k <= n) their scales. Differentiable in both.

    Example:
        >>> import minigrad
        >>> a, tau = minigrad.geqrf(minigrad.tensor([[3.0, 1.0], [4.0, 2.0]]))
        >>> minigrad.linalg.householder_product(a, tau)
        tensor([[-0.6000, -0.8000],
                [-0.8000,  0.6000]])
    """
    a = _tensor(input, "linalg_householder_product", "input", 1)
    t = _tensor(tau, "linalg_householder_product", "tau", 2)
    name = "linalg.householder_product"
    if a.ndim < 2:
        raise RuntimeError(f"minigrad.{name}: input must have at least 2 dimensions.")
    if a.shape[-2] < a.shape[-1]:
        raise RuntimeError(
            f"minigrad.{name}: input.shape[-2] must be greater than or equal to input.shape[-1]"
        )
    if t.ndim and a.shape[-1] < t.shape[-1]:
        raise RuntimeError(
            f"minigrad.{name}: input.shape[-1] must be greater than or equal to tau.shape[-1]"
        )
    _check_batches(name, a, t)
    if a.dtype != t.dtype:
        raise RuntimeError(
            f"minigrad.{name}: tau dtype {display_name(t.dtype)} does not match "
            f"input dtype {display_name(a.dtype)}"
        )
    _check_kernel(a, "orgqr_cpu")
    return LinalgHouseholderProduct.apply(input, tau)


def orgqr(input: Any, input2: Any) -> Any:
    """``linalg.householder_product`` (LAPACK's name for it).

    Example:
        >>> import minigrad
        >>> a, tau = minigrad.geqrf(minigrad.tensor([[3.0], [4.0]]))
        >>> minigrad.orgqr(a, tau)
        tensor([[-0.6000],
                [-0.8000]])
    """
    return householder_product(input, input2)


# --- ormqr ------------------------------------------------------------------------------------


class Ormqr(Op):
    """op(Q) C (``left``) or C op(Q), op(Q) = Q or Q^T (``transpose``), Q from reflectors.

    The product applies the reflectors to C (to C^T from the right); the gradient goes back
    through them (``_reflect_backward``). Saves the input, tau, C and the result, as PyTorch.
    """

    num_inputs = 3
    fields = ("left", "transpose")
    saves = ("self", "input2", "input3", "result")
    saved_options = ("left", "transpose")

    @staticmethod
    def forward(
        ctx: Any, a: np.ndarray, tau: np.ndarray, c: np.ndarray, left: bool, transpose: bool
    ) -> np.ndarray:
        v = _vectors(a, tau.shape[-1])
        # C op(Q) = (op(Q)^T C^T)^T: from the right, Q^T's reflections act on C^T.
        x = c if left else np.swapaxes(c, -1, -2)
        result = _reflect(v, tau, x, transpose == left)[-1]
        result = np.ascontiguousarray(result if left else np.swapaxes(result, -1, -2))
        ctx.save_for_backward(a, tau, c, result)
        ctx.left, ctx.transpose = left, transpose
        return result

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, ...]:
        a, tau, c, _ = ctx.saved_tensors
        left, transposed = ctx.left, ctx.transpose == ctx.left
        v = _vectors(a, np.shape(tau)[-1])
        x = c if left else np.swapaxes(c, -1, -2)
        grad_x = grad if left else np.swapaxes(grad, -1, -2)
        values = _reflect(v, tau, x, transposed)
        grad_c, grad_v, grad_tau = _reflect_backward(grad_x, v, tau, values, transposed)
        grad_c = grad_c if left else np.swapaxes(grad_c, -1, -2)
        return _grad_input(grad_v, a), grad_tau, grad_c, None, None


def ormqr(input: Any, input2: Any, input3: Any, left: bool = True, transpose: bool = False) -> Any:
    """``op(Q) @ input3`` (or ``input3 @ op(Q)`` with ``left=False``), Q from ``geqrf``'s form.

    ``input`` holds the Householder vectors, ``input2`` their scales tau; ``op(Q)`` is Q, or
    Q^T with ``transpose=True``. Q (m x m) is never formed. Differentiable in all three.

    Example:
        >>> import minigrad
        >>> a, tau = minigrad.geqrf(minigrad.tensor([[3.0, 1.0], [4.0, 2.0]]))
        >>> minigrad.ormqr(a, tau, minigrad.eye(2), transpose=True)
        tensor([[-0.6000, -0.8000],
                [-0.8000,  0.6000]])
    """
    a = _tensor(input, "ormqr", "input", 1)
    t = _tensor(input2, "ormqr", "input2", 2)
    c = _tensor(input3, "ormqr", "input3", 3)
    if a.ndim < 2:
        raise RuntimeError("minigrad.ormqr: input must have at least 2 dimensions.")
    if c.ndim < 2:
        raise RuntimeError("minigrad.ormqr: other must have at least 2 dimensions.")
    side = -2 if left else -1
    if c.shape[side] != a.shape[-2]:
        raise RuntimeError(f"minigrad.ormqr: other.shape[{side}] must be equal to input.shape[-2]")
    if t.ndim == 0 or t.shape[-1] != min(c.shape[side], a.shape[-1]):
        raise RuntimeError(
            f"minigrad.ormqr: tau.shape[-1] must be equal to min(other.shape[{side}], "
            "input.shape[-1])"
        )
    _check_batches("ormqr", a, t)
    if c.ndim != a.ndim:
        raise RuntimeError(
            "minigrad.ormqr: Expected other to have the same number of dimensions as input, but "
            f"got other.ndim equal to {c.ndim} and input.ndim is equal to {a.ndim}"
        )
    if c.shape[:-2] != a.shape[:-2]:
        raise RuntimeError(
            "minigrad.ormqr: Expected batch dimensions of other to be equal to input.shape[:-2], "
            f"but got {_shape_text(c.shape[:-2])}"
        )
    for other, name in ((t, "tau"), (c, "other")):
        if other.dtype != a.dtype:
            raise RuntimeError(
                f"minigrad.ormqr: Expected input and {name} to have the same dtype, but input has "
                f"dtype{display_name(a.dtype)} and {name} has dtype {display_name(other.dtype)}"
            )
    _check_kernel(a, "ormqr_cpu")
    return Ormqr.apply(input, input2, input3, bool(left), bool(transpose))


__all__ = ["geqrf", "householder_product", "orgqr", "ormqr"]
