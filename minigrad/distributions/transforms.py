"""Transforms: invertible maps with a log-Jacobian, the pieces of ``TransformedDistribution``.

A transform ``t`` maps ``x`` in ``t.domain`` to ``y = t(x)`` in ``t.codomain``; ``t.inv`` maps
back and ``t.log_abs_det_jacobian(x, y)`` is ``log |dy/dx|`` (summed over the event dims of a
transform of vectors or matrices). Formulas are PyTorch's, op for op, so gradients follow the
same graph. ``cache_size=1`` remembers the last pair ``(x, y)``: inverting ``y`` gives back
that very ``x`` (no round-off).

Example:
    >>> import minigrad
    >>> from minigrad.distributions.transforms import ExpTransform
    >>> t = ExpTransform()
    >>> t.inv(t(minigrad.tensor([0.0, 1.0])))
    tensor([0., 1.])
"""

from minigrad.distributions.transform import (
    CatTransform,
    ComposeTransform,
    IndependentTransform,
    ReshapeTransform,
    StackTransform,
    Transform,
    identity_transform,
)
from minigrad.distributions.transforms_elementwise import (
    AbsTransform,
    AffineTransform,
    CumulativeDistributionTransform,
    ExpTransform,
    PowerTransform,
    SigmoidTransform,
    SoftplusTransform,
    TanhTransform,
)
from minigrad.distributions.transforms_structured import (
    CorrCholeskyTransform,
    LowerCholeskyTransform,
    PositiveDefiniteTransform,
    SoftmaxTransform,
    StickBreakingTransform,
)

__all__ = [
    "AbsTransform",
    "AffineTransform",
    "CatTransform",
    "ComposeTransform",
    "CorrCholeskyTransform",
    "CumulativeDistributionTransform",
    "ExpTransform",
    "IndependentTransform",
    "LowerCholeskyTransform",
    "PositiveDefiniteTransform",
    "PowerTransform",
    "ReshapeTransform",
    "SigmoidTransform",
    "SoftmaxTransform",
    "SoftplusTransform",
    "StackTransform",
    "StickBreakingTransform",
    "TanhTransform",
    "Transform",
    "identity_transform",
]
