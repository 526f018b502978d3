"""``LKJCholesky(dim, concentration=1.0)``: Cholesky factors of random correlation matrices."""

from __future__ import annotations

import math
from typing import Any

import minigrad
from minigrad._size import Size
from minigrad.distributions import constraints
from minigrad.distributions.beta import Beta
from minigrad.distributions.distribution import Distribution
from minigrad.distributions.utils import broadcast_all

__all__ = ["LKJCholesky"]


class LKJCholesky(Distribution):
    """The LKJ distribution over ``dim x dim`` correlation matrices, as their Cholesky factors.

    The density of the correlation matrix is proportional to ``det(C) ** (concentration - 1)``;
    sampling is the onion method (PyTorch's): each row a Beta-distributed length times a
    uniform direction.

    Example:
        >>> import minigrad
        >>> from minigrad.distributions import LKJCholesky
        >>> LKJCholesky(2, 1.0).log_prob(minigrad.eye(2))
        tensor(-0.6931)
    """

    arg_constraints = {"concentration": constraints.positive}
    support = constraints.corr_cholesky

    def __init__(
        self, dim: int, concentration: Any = 1.0, validate_args: bool | None = None
    ) -> None:
        if dim < 2:
            raise ValueError(
                f"Expected dim to be an integer greater than or equal to 2. Found dim={dim}."
            )
        self.dim = dim
        (self.concentration,) = broadcast_all(concentration)
        # the Beta laws of the squared lengths of the rows' off-diagonal parts
        marginal_conc = self.concentration + 0.5 * (self.dim - 2)
        offset = minigrad.arange(self.dim - 1, dtype=self.concentration.dtype)
        offset = minigrad.cat([offset.new_zeros((1,)), offset])
        beta_conc1 = offset + 0.5
        beta_conc0 = marginal_conc.unsqueeze(-1) - 0.5 * offset
        self._beta = Beta(beta_conc1, beta_conc0)
        super().__init__(self.concentration.size(), Size((dim, dim)), validate_args)

    def expand(self, batch_shape: Any, _instance: Any = None) -> Distribution:
        """The concentration and the rows' Beta laws expanded."""
        new = super().expand(batch_shape, _instance)
        new._beta = self._beta.expand(Size(batch_shape) + (self.dim,))
        return new

    def sample(self, sample_shape: Any = ()) -> Any:
        """Lower-triangular factors with unit rows (the onion method), without gradients."""
        with minigrad.no_grad():
            y = self._beta.sample(sample_shape).unsqueeze(-1)
            shape = self._extended_shape(sample_shape)
            u_normal = minigrad.randn(shape, dtype=y.dtype).tril(-1)
            u_hypersphere = u_normal / u_normal.norm(dim=-1, keepdim=True)
            u_hypersphere[..., 0, :].fill_(0.0)  # (the first row is e_1: 0/0 above)
            w = minigrad.sqrt(y) * u_hypersphere
            eps = minigrad.finfo(w.dtype).tiny
            diag_elems = minigrad.clamp(1 - minigrad.sum(w**2, dim=-1), min=eps).sqrt()
            return w + minigrad.diag_embed(diag_elems)

    def log_prob(self, value: Any) -> Any:
        """The LKJ density of ``L L^T`` times the Jacobian of the Cholesky map."""
        if self._validate_args:
            self._validate_sample(value)
        diag_elems = value.diagonal(dim1=-1, dim2=-2)[..., 1:]
        order = minigrad.arange(2, self.dim + 1)
        order = 2 * (self.concentration - 1).unsqueeze(-1) + self.dim - order
        unnormalized_log_pdf = minigrad.sum(order * diag_elems.log(), dim=-1)
        dm1 = self.dim - 1
        alpha = self.concentration + 0.5 * dm1
        denominator = minigrad.lgamma(alpha) * dm1
        numerator = minigrad.mvlgamma(alpha - 0.5, dm1)
        pi_constant = 0.5 * dm1 * math.log(math.pi)
        return unnormalized_log_pdf - (pi_constant + numerator - denominator)
