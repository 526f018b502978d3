"""``MixtureSameFamily(mixture_distribution, component_distribution)``: a weighted mixture.

The last batch dim of the components indexes them; a ``Categorical`` weighs them. ``log_prob``
is the ``logsumexp`` of the components' ``log_prob`` plus their log-weights.
"""

from __future__ import annotations

from typing import Any

import minigrad
from minigrad._size import Size
from minigrad.distributions import constraints
from minigrad.distributions.categorical import Categorical
from minigrad.distributions.distribution import Distribution

__all__ = ["MixtureSameFamily"]


class MixtureSameFamily(Distribution):
    """Components of one family (the last batch dim) mixed with a ``Categorical``'s weights.

    Example:
        >>> import minigrad
        >>> from minigrad.distributions import Categorical, MixtureSameFamily, Normal
        >>> mix = Categorical(minigrad.tensor([0.5, 0.5]))
        >>> bimodal = MixtureSameFamily(mix, Normal(minigrad.tensor([-1.0, 1.0]), 1.0))
        >>> bimodal.mean, bimodal.variance
        (tensor(0.), tensor(2.))
    """

    arg_constraints: dict[str, constraints.Constraint] = {}
    has_rsample = False

    def __init__(
        self,
        mixture_distribution: Categorical,
        component_distribution: Distribution,
        validate_args: bool | None = None,
    ) -> None:
        self._mixture_distribution = mixture_distribution
        self._component_distribution = component_distribution
        if not isinstance(mixture_distribution, Categorical):
            raise ValueError(
                " The Mixture distribution needs to be an  instance of "
                "minigrad.distributions.Categorical"
            )
        if not isinstance(component_distribution, Distribution):
            raise ValueError(
                "The Component distribution needs to be an instance of "
                "minigrad.distributions.Distribution"
            )
        mdbs = mixture_distribution.batch_shape
        cdbs = component_distribution.batch_shape[:-1]
        for size1, size2 in zip(reversed(mdbs), reversed(cdbs)):
            if size1 != 1 and size2 != 1 and size1 != size2:
                raise ValueError(
                    f"`mixture_distribution.batch_shape` ({mdbs}) is not compatible "
                    f"with `component_distribution.batch_shape`({cdbs})"
                )
        km = mixture_distribution.logits.shape[-1]
        kc = component_distribution.batch_shape[-1]
        if km != kc:
            raise ValueError(
                f"`mixture_distribution component` ({km}) does not equal "
                f"`component_distribution.batch_shape[-1]` ({kc})"
            )
        self._num_component = km
        event_shape = component_distribution.event_shape
        self._event_ndims = len(event_shape)
        super().__init__(batch_shape=cdbs, event_shape=event_shape, validate_args=validate_args)

    def expand(self, batch_shape: Any, _instance: Any = None) -> Distribution:
        """The mixture and its components expanded."""
        batch_shape = Size(batch_shape)
        new = super().expand(batch_shape, _instance)
        new._component_distribution = self._component_distribution.expand(
            batch_shape + (self._num_component,)
        )
        new._mixture_distribution = self._mixture_distribution.expand(batch_shape)
        return new

    @constraints.dependent_property
    def support(self) -> constraints.Constraint:  # type: ignore[override]
        """The components' support."""
        return constraints.MixtureSameFamilyConstraint(self._component_distribution.support)

    @property
    def mixture_distribution(self) -> Categorical:
        """The weights of the components."""
        return self._mixture_distribution

    @property
    def component_distribution(self) -> Distribution:
        """The components (the last batch dim)."""
        return self._component_distribution

    @property
    def mean(self) -> Any:
        """The weighted mean of the components' means."""
        probs = self._pad_mixture_dimensions(self.mixture_distribution.probs)
        return minigrad.sum(probs * self.component_distribution.mean, dim=-1 - self._event_ndims)

    @property
    def variance(self) -> Any:
        """The law of total variance: mean of the variances plus variance of the means."""
        probs = self._pad_mixture_dimensions(self.mixture_distribution.probs)
        dim = -1 - self._event_ndims
        mean_cond_var = minigrad.sum(probs * self.component_distribution.variance, dim=dim)
        spread = (self.component_distribution.mean - self._pad(self.mean)).pow(2.0)
        return mean_cond_var + minigrad.sum(probs * spread, dim=dim)

    def cdf(self, x: Any) -> Any:
        """The weighted sum of the components' CDFs."""
        cdf_x = self.component_distribution.cdf(self._pad(x))
        return minigrad.sum(cdf_x * self.mixture_distribution.probs, dim=-1)

    def log_prob(self, x: Any) -> Any:
        """``logsumexp(component log_prob + log weight)`` over the components."""
        if self._validate_args:
            self._validate_sample(x)
        log_prob_x = self.component_distribution.log_prob(self._pad(x))
        log_mix_prob = minigrad.log_softmax(self.mixture_distribution.logits, dim=-1)
        return minigrad.logsumexp(log_prob_x + log_mix_prob, dim=-1)

    def sample(self, sample_shape: Any = ()) -> Any:
        """A component chosen by the weights, then its draw."""
        with minigrad.no_grad():
            gather_dim = len(sample_shape) + len(self.batch_shape)
            es = self.event_shape
            mix_sample = self.mixture_distribution.sample(sample_shape)
            mix_shape = mix_sample.shape
            comp_samples = self.component_distribution.sample(sample_shape)
            index = mix_sample.reshape(mix_shape + Size([1] * (len(es) + 1)))
            index = index.repeat(Size([1] * len(mix_shape)) + Size([1]) + es)
            return minigrad.gather(comp_samples, gather_dim, index).squeeze(gather_dim)

    def _pad(self, x: Any) -> Any:
        return x.unsqueeze(-1 - self._event_ndims)

    def _pad_mixture_dimensions(self, x: Any) -> Any:
        dist_batch_ndims = len(self.batch_shape)
        cat_batch_ndims = len(self.mixture_distribution.batch_shape)
        pad_ndims = 0 if cat_batch_ndims == 1 else dist_batch_ndims - cat_batch_ndims
        xs = x.shape
        return x.reshape(xs[:-1] + Size(pad_ndims * [1]) + xs[-1:] + Size(self._event_ndims * [1]))

    def __repr__(self) -> str:
        return (
            f"MixtureSameFamily(\n  {self.mixture_distribution},\n  {self.component_distribution})"
        )
