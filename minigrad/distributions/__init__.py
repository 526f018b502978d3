"""Probability distributions, PyTorch's ``torch.distributions`` API.

Continuous families (``Normal``, ``Gamma``, ``Beta``, ``Dirichlet``, ``StudentT``,
``MultivariateNormal`` ...), discrete ones (``Bernoulli``, ``Categorical``, ``Poisson``,
``Binomial``, ``Multinomial`` ...), ``Independent`` (batch dims read as event dims),
``MixtureSameFamily``, and ``TransformedDistribution`` with the ``transforms`` and the
``biject_to`` / ``transform_to`` registries; ``kl_divergence`` for the pairs PyTorch registers.
Their formulas are PyTorch's, op for op, so ``log_prob``, ``entropy`` and ``rsample`` record
PyTorch's nodes; ``rsample`` passes gradients to the parameters (implicitly for the gamma
family's draws, ``minigrad/ops/gamma_sampling.py``). Samples come from minigrad's generator
(the numbers are not PyTorch's). Parameters and values are validated as PyTorch does, with its
texts (``validate_args=False`` turns it off).

Example:
    >>> import minigrad
    >>> from minigrad.distributions import Normal
    >>> loc = minigrad.tensor(0.5, requires_grad=True)
    >>> Normal(loc, 1.0).log_prob(minigrad.tensor(1.5)).backward()
    >>> loc.grad
    tensor(1.)
"""

# (kl_cross: importing it registers the KL divergences of mixed pairs)
from minigrad.distributions import constraints, kl_cross, transforms  # noqa: F401
from minigrad.distributions.bernoulli import Bernoulli
from minigrad.distributions.beta import Beta
from minigrad.distributions.binomial import Binomial
from minigrad.distributions.categorical import Categorical
from minigrad.distributions.cauchy import Cauchy
from minigrad.distributions.constraint_registry import biject_to, transform_to
from minigrad.distributions.continuous_bernoulli import ContinuousBernoulli
from minigrad.distributions.dirichlet import Dirichlet
from minigrad.distributions.distribution import Distribution
from minigrad.distributions.exp_family import ExponentialFamily
from minigrad.distributions.exponential import Exponential
from minigrad.distributions.fisher_snedecor import FisherSnedecor
from minigrad.distributions.gamma import Chi2, Gamma
from minigrad.distributions.generalized_pareto import GeneralizedPareto
from minigrad.distributions.geometric import Geometric
from minigrad.distributions.gumbel import Gumbel
from minigrad.distributions.half_normal import HalfCauchy, HalfNormal
from minigrad.distributions.independent import Independent
from minigrad.distributions.inverse_gamma import InverseGamma
from minigrad.distributions.kl import kl_divergence, register_kl
from minigrad.distributions.kumaraswamy import Kumaraswamy
from minigrad.distributions.laplace import Laplace
from minigrad.distributions.lkj_cholesky import LKJCholesky
from minigrad.distributions.log_normal import LogNormal
from minigrad.distributions.logistic_normal import LogisticNormal
from minigrad.distributions.lowrank_multivariate_normal import LowRankMultivariateNormal
from minigrad.distributions.mixture_same_family import MixtureSameFamily
from minigrad.distributions.multinomial import Multinomial
from minigrad.distributions.multivariate_normal import MultivariateNormal
from minigrad.distributions.negative_binomial import NegativeBinomial
from minigrad.distributions.normal import Normal
from minigrad.distributions.one_hot_categorical import (
    OneHotCategorical,
    OneHotCategoricalStraightThrough,
)
from minigrad.distributions.pareto import Pareto
from minigrad.distributions.poisson import Poisson
from minigrad.distributions.relaxed_bernoulli import RelaxedBernoulli
from minigrad.distributions.relaxed_categorical import RelaxedOneHotCategorical
from minigrad.distributions.student_t import StudentT
from minigrad.distributions.transformed_distribution import TransformedDistribution
from minigrad.distributions.transforms import (
    AbsTransform,
    AffineTransform,
    CatTransform,
    ComposeTransform,
    CorrCholeskyTransform,
    CumulativeDistributionTransform,
    ExpTransform,
    IndependentTransform,
    LowerCholeskyTransform,
    PositiveDefiniteTransform,
    PowerTransform,
    ReshapeTransform,
    SigmoidTransform,
    SoftmaxTransform,
    SoftplusTransform,
    StackTransform,
    StickBreakingTransform,
    TanhTransform,
    Transform,
    identity_transform,
)
from minigrad.distributions.uniform import Uniform
from minigrad.distributions.von_mises import VonMises
from minigrad.distributions.weibull import Weibull
from minigrad.distributions.wishart import Wishart

__all__ = [
    "AbsTransform",
    "AffineTransform",
    "Bernoulli",
    "Beta",
    "Binomial",
    "CatTransform",
    "Categorical",
    "Cauchy",
    "Chi2",
    "ComposeTransform",
    "ContinuousBernoulli",
    "CorrCholeskyTransform",
    "CumulativeDistributionTransform",
    "Dirichlet",
    "Distribution",
    "ExpTransform",
    "Exponential",
    "ExponentialFamily",
    "FisherSnedecor",
    "Gamma",
    "GeneralizedPareto",
    "Geometric",
    "Gumbel",
    "HalfCauchy",
    "HalfNormal",
    "Independent",
    "IndependentTransform",
    "InverseGamma",
    "Kumaraswamy",
    "LKJCholesky",
    "Laplace",
    "LogNormal",
    "LogisticNormal",
    "LowRankMultivariateNormal",
    "LowerCholeskyTransform",
    "MixtureSameFamily",
    "Multinomial",
    "MultivariateNormal",
    "NegativeBinomial",
    "Normal",
    "OneHotCategorical",
    "OneHotCategoricalStraightThrough",
    "Pareto",
    "Poisson",
    "PositiveDefiniteTransform",
    "PowerTransform",
    "RelaxedBernoulli",
    "RelaxedOneHotCategorical",
    "ReshapeTransform",
    "SigmoidTransform",
    "SoftmaxTransform",
    "SoftplusTransform",
    "StackTransform",
    "StickBreakingTransform",
    "StudentT",
    "TanhTransform",
    "Transform",
    "TransformedDistribution",
    "Uniform",
    "VonMises",
    "Weibull",
    "Wishart",
    "biject_to",
    "constraints",
    "identity_transform",
    "kl_divergence",
    "register_kl",
    "transform_to",
    "transforms",
]
