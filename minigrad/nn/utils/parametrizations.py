"""``nn.utils.parametrizations``: weight norm, spectral norm and orthogonal matrices.

Each is a small module registered with ``parametrize.register_parametrization``, so the
state_dict keys are PyTorch's: ``parametrizations.weight.original0`` / ``original1`` (weight
norm's g and v), ``parametrizations.weight.original`` with ``parametrizations.weight.0._u`` and
``._v`` (spectral norm's power-iteration vectors), ``parametrizations.weight.original`` and
``.0.base`` (orthogonal).
"""

from __future__ import annotations

from enum import Enum, auto
from typing import Any

import numpy as np

import minigrad as _mg
from minigrad import creation
from minigrad.autograd.grad_mode import no_grad
from minigrad.autograd.tensor_base import TensorBase
from minigrad.linalg import solve as _solve
from minigrad.nn import functional as F
from minigrad.nn.modules.conv import ConvTranspose1d, ConvTranspose2d
from minigrad.nn.modules.module import Module
from minigrad.nn.utils import parametrize
from minigrad.ops.weight_norm import norm_except_dim
from minigrad.ops.weight_norm import weight_norm as _weight_norm
from minigrad.tensor import Tensor

__all__ = ["orthogonal", "spectral_norm", "weight_norm"]


# ==========================================================================================
# weight norm
# ==========================================================================================


class _WeightNorm(Module):
    """weight = g * v / ||v||: the parametrization of ``weight_norm``, from ``(g, v)``."""

    def __init__(self, dim: int | None = 0) -> None:
        super().__init__()
        self.dim = -1 if dim is None else dim

    def forward(self, weight_g: Tensor, weight_v: Tensor) -> Tensor:
        return _weight_norm(weight_v, weight_g, self.dim)

    def right_inverse(self, weight: Tensor) -> tuple[Tensor, Tensor]:
        return norm_except_dim(weight, 2, self.dim), weight


def weight_norm(module: Module, name: str = "weight", dim: int | None = 0) -> Module:
    """Reparametrize ``module.<name>`` as ``g * v / ||v||`` (magnitude and direction).

    ``g`` (``original0``) holds the norms over every dim but ``dim`` (``dim=None``: one norm
    of the whole tensor), ``v`` (``original1``) the direction. A state_dict of the legacy
    ``nn.utils.weight_norm`` (keys ``weight_g``, ``weight_v``) still loads.

    Example:
        >>> from minigrad import nn
        >>> layer = nn.utils.parametrizations.weight_norm(nn.Linear(3, 4))
        >>> for key, value in layer.state_dict().items():
        ...     print(key, tuple(value.shape))
        bias (4,)
        parametrizations.weight.original0 (4, 1)
        parametrizations.weight.original1 (4, 3)
    """
    parametrize.register_parametrization(module, name, _WeightNorm(dim), unsafe=True)

    def read_legacy_keys(
        state_dict: dict[str, Any],
        prefix: str,
        local_metadata: Any,
        strict: bool,
        missing_keys: list[str],
        unexpected_keys: list[str],
        error_msgs: list[str],
    ) -> None:
        g_key, v_key = f"{prefix}{name}_g", f"{prefix}{name}_v"
        if g_key in state_dict and v_key in state_dict:
            original0, original1 = state_dict.pop(g_key), state_dict.pop(v_key)
            state_dict[f"{prefix}parametrizations.{name}.original0"] = original0
            state_dict[f"{prefix}parametrizations.{name}.original1"] = original1

    module._register_load_state_dict_pre_hook(read_legacy_keys)
    return module


# ==========================================================================================
# spectral norm
# ==========================================================================================


class _SpectralNorm(Module):
    """weight / sigma, sigma the largest singular value estimated by power iteration.

    ``_u`` and ``_v`` (buffers) are the singular-vector estimates; in training mode each access
    runs ``n_power_iterations`` steps on them first (under ``no_grad``), as PyTorch does.
    """

    def __init__(
        self, weight: Tensor, n_power_iterations: int = 1, dim: int = 0, eps: float = 1e-12
    ) -> None:
        super().__init__()
        ndim = weight.ndim
        if dim >= ndim or dim < -ndim:
            raise IndexError(
                "Dimension out of range (expected to be in range of "
                f"[-{ndim}, {ndim - 1}] but got {dim})"
            )
        if n_power_iterations <= 0:
            raise ValueError(
                "Expected n_power_iterations to be positive, but "
                f"got n_power_iterations={n_power_iterations}"
            )
        self.dim = dim if dim >= 0 else dim + ndim
        self.eps = eps
        if ndim > 1:
            self.n_power_iterations = n_power_iterations
            weight_mat = self._reshape_weight_to_matrix(weight)
            h, w = weight_mat.shape
            u = weight_mat.new_empty(h).normal_(0, 1)
            v = weight_mat.new_empty(w).normal_(0, 1)
            self.register_buffer("_u", F.normalize(u, dim=0, eps=self.eps))
            self.register_buffer("_v", F.normalize(v, dim=0, eps=self.eps))
            self._power_method(weight_mat, 15)

    def _reshape_weight_to_matrix(self, weight: Tensor) -> Tensor:
        """``dim`` first, the other dims flattened: the matrix whose norm is estimated."""
        if self.dim != 0:
            weight = weight.permute(self.dim, *(d for d in range(weight.dim()) if d != self.dim))
        return weight.flatten(1)

    def _power_method(self, weight_mat: Tensor, n_power_iterations: int) -> None:
        """Power iteration: u <- normalize(W v), v <- normalize(W^T u), into the buffers."""
        with no_grad():
            for _ in range(n_power_iterations):
                self._u = F.normalize(weight_mat.mv(self._v), dim=0, eps=self.eps, out=self._u)
                self._v = F.normalize(weight_mat.H.mv(self._u), dim=0, eps=self.eps, out=self._v)

    def forward(self, weight: Tensor) -> Tensor:
        if weight.ndim == 1:
            return F.normalize(weight, dim=0, eps=self.eps)
        weight_mat = self._reshape_weight_to_matrix(weight)
        if self.training:
            self._power_method(weight_mat, self.n_power_iterations)
        u, v = self._u.clone(), self._v.clone()
        sigma = u.vdot(weight_mat.mv(v))
        return weight / sigma

    def right_inverse(self, value: Tensor) -> Tensor:
        return value


def _default_spectral_dim(module: Module) -> int:
    """PyTorch normalises a transposed convolution's weight along dim 1 (its output channels)."""
    return 1 if isinstance(module, (ConvTranspose1d, ConvTranspose2d)) else 0


def spectral_norm(
    module: Module,
    name: str = "weight",
    n_power_iterations: int = 1,
    eps: float = 1e-12,
    dim: int | None = None,
) -> Module:
    """Reparametrize ``module.<name>`` as ``weight / sigma`` (sigma: its spectral norm).

    sigma is estimated by power iteration on the buffers ``_u`` and ``_v``: 15 steps when
    registered, then ``n_power_iterations`` at each access in training mode. ``dim`` defaults
    to 0 (1 for transposed convolutions).

    Example:
        >>> from minigrad import nn
        >>> layer = nn.utils.parametrizations.spectral_norm(nn.Linear(3, 4))
        >>> for key in layer.state_dict():
        ...     print(key)
        bias
        parametrizations.weight.original
        parametrizations.weight.0._u
        parametrizations.weight.0._v
    """
    weight = getattr(module, name, None)
    if not isinstance(weight, TensorBase):
        raise ValueError(f"Module '{module}' has no parameter or buffer with name '{name}'")
    if dim is None:
        dim = _default_spectral_dim(module)
    parametrize.register_parametrization(
        module, name, _SpectralNorm(weight, n_power_iterations, dim, eps)
    )
    return module


# ==========================================================================================
# orthogonal
# ==========================================================================================


class _OrthMaps(Enum):
    matrix_exp = auto()
    cayley = auto()
    householder = auto()


def _householder_product(a: Tensor, tau: Tensor) -> Tensor:
    """The first k columns of H_1 H_2 ... H_k, H_i = I - tau_i v_i v_i^T (LAPACK's orgqr).

    v_i is column i of ``a`` below the diagonal with a 1 on it. Built from differentiable ops
    (PyTorch has one node, ``LinalgHouseholderProductBackward0``, inside the parametrization).
    """
    n, k = a.shape[-2], a.shape[-1]
    eye = creation.eye(n, dtype=a.dtype)
    lower = a.tril(-1) + creation.eye(n, k, dtype=a.dtype)
    q = eye.expand(*a.shape[:-2], n, n)
    for i in range(k):
        v = lower[..., :, i : i + 1]
        q = q - (q @ v) @ (v.mT * tau[..., i : i + 1].unsqueeze(-1))
    return q[..., :k]


def _make_orthogonal(a: Tensor) -> Tensor:
    """Q of the QR decomposition of ``a``, its columns signed so that R's diagonal is >= 0."""
    q, r = np.linalg.qr(a.detach().numpy())
    signs = np.sign(np.diagonal(r, axis1=-2, axis2=-1))
    return creation.tensor(q * signs[..., None, :], dtype=a.dtype)


def _is_orthogonal(q: Tensor) -> bool:
    n, k = q.shape[-2], q.shape[-1]
    eye = creation.eye(k, dtype=q.dtype)
    eps = 10.0 * n * float(np.finfo(q.detach().numpy().dtype).eps)
    return bool((q.mH @ q).allclose(eye, atol=eps))


class _Orthogonal(Module):
    """An orthogonal matrix (or batch) from an unconstrained one.

    By the matrix_exp, cayley or householder map; with ``use_trivialization`` the result is
    multiplied by ``base``.
    """

    def __init__(
        self, weight: Tensor, orthogonal_map: _OrthMaps, *, use_trivialization: bool = True
    ) -> None:
        super().__init__()
        self.shape = weight.shape
        self.orthogonal_map = orthogonal_map
        if use_trivialization:
            self.register_buffer("base", None)

    def forward(self, X: Tensor) -> Tensor:
        n, k = X.shape[-2], X.shape[-1]
        transposed = n < k
        if transposed:
            X = X.mT
            n, k = k, n
        if self.orthogonal_map in (_OrthMaps.matrix_exp, _OrthMaps.cayley):
            X = X.tril()
            if n != k:
                X = _mg.cat([X, X.new_zeros(n, n - k).expand(*X.shape[:-2], -1, -1)], dim=-1)
            A = X - X.mH
            if self.orthogonal_map == _OrthMaps.matrix_exp:
                Q = A.matrix_exp()
            else:
                eye = creation.eye(n, dtype=A.dtype)
                Q = _solve(eye.add(A, alpha=-0.5), eye.add(A, alpha=0.5))
            if n != k:
                Q = Q[..., :k]
        else:
            A = X.tril(diagonal=-1)
            tau = 2.0 / (1.0 + (A * A).sum(dim=-2))
            Q = _householder_product(A, tau)
            Q = Q * X.diagonal(dim1=-2, dim2=-1).int().unsqueeze(-2)
        if hasattr(self, "base"):
            Q = self.base @ Q
        if transposed:
            Q = Q.mT
        return Q

    def right_inverse(self, Q: Tensor) -> Tensor:
        if Q.shape != self.shape:
            raise ValueError(
                f"Expected a matrix or batch of matrices of shape {self.shape}. "
                f"Got a tensor of shape {Q.shape}."
            )
        with no_grad():
            Q_init = Q
            n, k = Q.shape[-2], Q.shape[-1]
            transpose = n < k
            if transpose:
                Q = Q.mT
                n, k = k, n
            if not hasattr(self, "base"):
                if self.orthogonal_map != _OrthMaps.householder:
                    raise NotImplementedError(
                        "It is not possible to assign to the matrix exponential "
                        "or the Cayley parametrizations when use_trivialization=False."
                    )
                return self._householder_inverse(Q, transpose)
            if n == k:
                Q = Q.clone() if _is_orthogonal(Q) else _make_orthogonal(Q)
            else:
                N = creation.randn(*Q.shape[:-2], n, n - k, dtype=Q.dtype)
                Q = _make_orthogonal(_mg.cat([Q, N], dim=-1))
            self.base = Q
            neg_eye = creation.zeros_like(Q_init)
            neg_eye.diagonal(dim1=-2, dim2=-1).fill_(-1.0)
            return neg_eye

    @staticmethod
    def _householder_inverse(Q: Tensor, transpose: bool) -> Tensor:
        """LAPACK's geqrf of Q (reflectors below the diagonal), the diagonal made +-1."""
        raw, tau = np.linalg.qr(Q.numpy(), mode="raw")
        a = np.swapaxes(raw, -1, -2).copy()
        diagonal = np.sign(np.diagonal(a, axis1=-2, axis2=-1)).copy()
        diagonal[tau == 0.0] *= -1
        idx = np.arange(diagonal.shape[-1])
        a[..., idx, idx] = diagonal
        result = creation.tensor(a, dtype=Q.dtype)
        return result.mT if transpose else result


def orthogonal(
    module: Module,
    name: str = "weight",
    orthogonal_map: str | None = None,
    *,
    use_trivialization: bool = True,
) -> Module:
    """Constrain ``module.<name>`` (a matrix or batch of matrices) to be orthogonal.

    ``orthogonal_map`` is ``"matrix_exp"`` (default for square matrices), ``"cayley"`` or
    ``"householder"`` (default otherwise). With ``use_trivialization=True`` (default) the
    result is ``base @ map(X)``, ``base`` a buffer set when the weight is assigned.

    Example:
        >>> import minigrad
        >>> from minigrad import nn
        >>> layer = nn.utils.parametrizations.orthogonal(nn.Linear(3, 3))
        >>> bool((layer.weight @ layer.weight.T).allclose(minigrad.eye(3), atol=1e-5))
        True
    """
    weight = getattr(module, name, None)
    if not isinstance(weight, TensorBase):
        raise ValueError(f"Module '{module}' has no parameter or buffer with name '{name}'")
    if weight.ndim < 2:
        raise ValueError(
            f"Expected a matrix or batch of matrices. Got a tensor of {weight.ndim} dimensions."
        )
    if orthogonal_map is None:
        orthogonal_map = "matrix_exp" if weight.shape[-2] == weight.shape[-1] else "householder"
    orth_enum = getattr(_OrthMaps, orthogonal_map, None)
    if orth_enum is None:
        raise ValueError(
            'orthogonal_map has to be one of "matrix_exp", "cayley", "householder". '
            f"Got: {orthogonal_map}"
        )
    orth = _Orthogonal(weight, orth_enum, use_trivialization=use_trivialization)
    parametrize.register_parametrization(module, name, orth, unsafe=True)
    return module
