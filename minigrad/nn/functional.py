"""``minigrad.nn.functional``: PyTorch's ``torch.nn.functional``, the stateless layer functions.

Import it as PyTorch users do::

    import minigrad.nn.functional as F

The functions are defined with their ops (``minigrad/ops/``: ``linear.py`` for linear,
``losses.py``, ``cross_entropy.py``, ``ctc_loss.py``, ``dropout.py``, ``normalization.py``
for the norms, ``embedding.py``, ``convolution.py``, ``pooling.py`` (``fractional_pooling.py``);
``minigrad/ops/activations.py`` for the activations; ``minigrad/ops/softmax.py`` for
softmax; ``minigrad/ops/shape.py`` for pad (``padding.py`` for its reflect, replicate and
circular modes) and one_hot;
``interpolation.py`` for interpolate; ``im2col.py`` for unfold and fold; ``unpooling.py`` for
max_unpool1d/2d/3d; ``grid_sampling.py`` for affine_grid and grid_sample); this module only
gathers them under PyTorch's names and signatures.
"""

from __future__ import annotations

from typing import Any

from minigrad import _arguments, errors
from minigrad.ops import linear as linear_ops
from minigrad.ops.activations import (
    elu,
    elu_,
    gelu,
    hardsigmoid,
    hardswish,
    hardtanh,
    hardtanh_,
    leaky_relu,
    leaky_relu_,
    logsigmoid,
    mish,
    relu6,
    selu,
    selu_,
    silu,
    softplus,
)
from minigrad.ops.activations_extra import (
    celu,
    celu_,
    glu,
    hardshrink,
    prelu,
    rrelu,
    rrelu_,
    softmin,
    softshrink,
    softsign,
    tanhshrink,
    threshold,
    threshold_,
)
from minigrad.ops.adaptive_pooling import (
    adaptive_avg_pool1d,
    adaptive_avg_pool2d,
    adaptive_avg_pool3d,
    adaptive_max_pool1d_with_indices,
    adaptive_max_pool2d,
    adaptive_max_pool2d_with_indices,
    adaptive_max_pool3d,
    adaptive_max_pool3d_with_indices,
)
from minigrad.ops.adaptive_pooling import (
    adaptive_max_pool1d_functional as adaptive_max_pool1d,
)
from minigrad.ops.attention import multi_head_attention_forward, scaled_dot_product_attention
from minigrad.ops.channel_shuffle import channel_shuffle, native_channel_shuffle
from minigrad.ops.convolution import (
    conv1d,
    conv2d,
    conv3d,
    conv_transpose1d,
    conv_transpose2d,
    conv_transpose3d,
)
from minigrad.ops.cross_entropy import cross_entropy, nll_loss
from minigrad.ops.ctc_loss import ctc_loss
from minigrad.ops.dropout import (
    alpha_dropout,
    dropout,
    dropout1d,
    dropout2d,
    dropout3d,
    feature_alpha_dropout,
)
from minigrad.ops.embedding import embedding
from minigrad.ops.embedding_bag import embedding_bag
from minigrad.ops.fractional_pooling import (
    fractional_max_pool2d,
    fractional_max_pool2d_with_indices,
    fractional_max_pool3d,
    fractional_max_pool3d_with_indices,
)
from minigrad.ops.grid_sampling import affine_grid, grid_sample
from minigrad.ops.im2col import fold, unfold
from minigrad.ops.interpolation import (
    interpolate,
    upsample,
    upsample_bilinear,
    upsample_nearest,
)
from minigrad.ops.linear import (
    linear,
)
from minigrad.ops.losses import (
    binary_cross_entropy,
    binary_cross_entropy_with_logits,
    cosine_similarity,
    huber_loss,
    kl_div,
    l1_loss,
    mse_loss,
    smooth_l1_loss,
)
from minigrad.ops.losses_extra import (
    cosine_embedding_loss,
    gaussian_nll_loss,
    hinge_embedding_loss,
    margin_ranking_loss,
    multilabel_soft_margin_loss,
    poisson_nll_loss,
    triplet_margin_loss,
    triplet_margin_with_distance_loss,
)
from minigrad.ops.lp_pool_pdist import gumbel_softmax, lp_pool1d, lp_pool2d, lp_pool3d, pdist
from minigrad.ops.margin_losses import (
    multi_margin_loss,
    multilabel_margin_loss,
    soft_margin_loss,
)
from minigrad.ops.normalization import (
    batch_norm,
    group_norm,
    layer_norm,
    normalize,
    rms_norm,
)
from minigrad.ops.normalization_composites import instance_norm, local_response_norm
from minigrad.ops.norms import pairwise_distance
from minigrad.ops.pixel_shuffle import pixel_shuffle, pixel_unshuffle
from minigrad.ops.pooling import (
    avg_pool1d,
    avg_pool2d,
    avg_pool3d,
    max_pool1d,
    max_pool1d_with_indices,
    max_pool2d,
    max_pool2d_with_indices,
    max_pool3d,
    max_pool3d_with_indices,
)
from minigrad.ops.shape import (
    one_hot,
    pad,
)
from minigrad.ops.softmax import implicit_softmax_dim as _implicit_softmax_dim
from minigrad.ops.unary import relu_
from minigrad.ops.unpooling import max_unpool1d, max_unpool2d, max_unpool3d

__all__ = [
    "adaptive_avg_pool1d",
    "adaptive_avg_pool2d",
    "adaptive_avg_pool3d",
    "adaptive_max_pool1d",
    "adaptive_max_pool1d_with_indices",
    "adaptive_max_pool2d",
    "adaptive_max_pool2d_with_indices",
    "adaptive_max_pool3d",
    "adaptive_max_pool3d_with_indices",
    "affine_grid",
    "alpha_dropout",
    "avg_pool1d",
    "avg_pool2d",
    "avg_pool3d",
    "batch_norm",
    "bilinear",
    "binary_cross_entropy",
    "binary_cross_entropy_with_logits",
    "celu",
    "celu_",
    "channel_shuffle",
    "conv1d",
    "conv2d",
    "conv3d",
    "conv_transpose1d",
    "conv_transpose2d",
    "conv_transpose3d",
    "cosine_embedding_loss",
    "cosine_similarity",
    "cross_entropy",
    "ctc_loss",
    "dropout",
    "dropout1d",
    "dropout2d",
    "dropout3d",
    "elu",
    "elu_",
    "embedding",
    "embedding_bag",
    "feature_alpha_dropout",
    "fold",
    "fractional_max_pool2d",
    "fractional_max_pool2d_with_indices",
    "fractional_max_pool3d",
    "fractional_max_pool3d_with_indices",
    "gaussian_nll_loss",
    "gelu",
    "glu",
    "grid_sample",
    "group_norm",
    "gumbel_softmax",
    "hardshrink",
    "hardsigmoid",
    "hardswish",
    "hardtanh",
    "hardtanh_",
    "hinge_embedding_loss",
    "huber_loss",
    "instance_norm",
    "interpolate",
    "kl_div",
    "l1_loss",
    "layer_norm",
    "leaky_relu",
    "leaky_relu_",
    "linear",
    "local_response_norm",
    "log_softmax",
    "logsigmoid",
    "lp_pool1d",
    "lp_pool2d",
    "lp_pool3d",
    "margin_ranking_loss",
    "max_pool1d",
    "max_pool1d_with_indices",
    "max_pool2d",
    "max_pool2d_with_indices",
    "max_pool3d",
    "max_pool3d_with_indices",
    "max_unpool1d",
    "max_unpool2d",
    "max_unpool3d",
    "mish",
    "mse_loss",
    "multi_head_attention_forward",
    "multi_margin_loss",
    "multilabel_margin_loss",
    "multilabel_soft_margin_loss",
    "native_channel_shuffle",
    "nll_loss",
    "normalize",
    "one_hot",
    "pad",
    "pairwise_distance",
    "pdist",
    "pixel_shuffle",
    "pixel_unshuffle",
    "poisson_nll_loss",
    "prelu",
    "relu",
    "relu6",
    "relu_",
    "rms_norm",
    "rrelu",
    "rrelu_",
    "scaled_dot_product_attention",
    "selu",
    "selu_",
    "sigmoid",
    "silu",
    "smooth_l1_loss",
    "soft_margin_loss",
    "softmax",
    "softmin",
    "softplus",
    "softshrink",
    "softsign",
    "tanh",
    "tanhshrink",
    "threshold",
    "threshold_",
    "triplet_margin_loss",
    "triplet_margin_with_distance_loss",
    "unfold",
    "upsample",
    "upsample_bilinear",
    "upsample_nearest",
]


def relu(input: Any, inplace: bool = False) -> Any:
    """``max(input, 0)``; with ``inplace=True`` it overwrites ``input`` (``relu_``).

    Example:
        >>> import minigrad
        >>> import minigrad.nn.functional as F
        >>> F.relu(minigrad.tensor([-1.0, 2.0]))
        tensor([0., 2.])
    """
    # PyTorch's is written in Python: ``torch.relu_(input) if inplace else torch.relu(input)``,
    # so ``inplace`` is only read for its truth and ``input`` is the parser's to check. A
    # tensor then goes straight to the method (the fast path the method takes).
    _arguments.check_tensor(input, "relu_" if inplace else "relu", "input", 1)
    return input.relu_() if inplace else input.relu()


def sigmoid(input: Any) -> Any:
    """``1 / (1 + exp(-input))`` (the same as ``minigrad.sigmoid``)."""
    return input.sigmoid()  # as PyTorch's: a non-tensor's AttributeError, the method's path


def tanh(input: Any) -> Any:
    """Hyperbolic tangent (the same as ``minigrad.tanh``)."""
    return input.tanh()  # as PyTorch's: a non-tensor's AttributeError, the method's path


def softmax(input: Any, dim: int | None = None, _stacklevel: int = 3, dtype: Any = None) -> Any:
    """``exp(input) / sum(exp(input))`` along ``dim`` (``SoftmaxBackward0``, saves its result).

    Without ``dim`` PyTorch picks one (0 for 0-, 1- and 3-d inputs, else 1) and warns.

    Example:
        >>> import minigrad
        >>> import minigrad.nn.functional as F
        >>> F.softmax(minigrad.tensor([0.0, 0.0]), dim=0)
        tensor([0.5000, 0.5000])
    """
    _arguments.check_has_attribute(input, "softmax")  # (PyTorch's calls input.softmax)
    if dim is None:
        dim = _implicit_softmax_dim("softmax", input.dim(), _stacklevel)
    # (as PyTorch's: the method's argument checks; dtype passed only if given, as PyTorch's
    # ``input.softmax(dim)``, which the checks let through by the call's types alone)
    return input.softmax(dim) if dtype is None else input.softmax(dim, dtype=dtype)


def log_softmax(
    input: Any, dim: int | None = None, _stacklevel: int = 3, dtype: Any = None
) -> Any:
    """``input - log(sum(exp(input)))`` along ``dim``.

    ``LogSoftmaxBackward0``, which saves its result. Without ``dim`` PyTorch picks one and
    warns, as for ``softmax``.
    """
    _arguments.check_has_attribute(input, "log_softmax")
    if dim is None:
        dim = _implicit_softmax_dim("log_softmax", input.dim(), _stacklevel)
    # (as softmax's)
    return input.log_softmax(dim) if dtype is None else input.log_softmax(dim, dtype=dtype)


def bilinear(input1: Any, input2: Any, weight: Any, bias: Any = None) -> Any:
    """``y[..., o] = sum_ij input1[..., i] * weight[o, i, j] * input2[..., j] + bias[o]``.

    Recorded as PyTorch records it: one ``TrilinearBackward0`` between reshapes (gradients flow
    to all four arguments); shapes are checked with PyTorch's messages.

    Example:
        >>> import minigrad
        >>> import minigrad.nn.functional as F
        >>> F.bilinear(minigrad.ones(1, 2), minigrad.ones(1, 3), minigrad.ones(4, 2, 3))
        tensor([[6., 6., 6., 6.]])
    """
    arguments = {"input1": input1, "input2": input2, "weight": weight}
    if bias is not None:
        arguments["bias"] = bias
    if len({value.dtype for value in arguments.values()}) > 1:
        raise RuntimeError(errors.not_same_dtype(
            {name: value.dtype.name for name, value in arguments.items()}))
    if input1.dim() != input2.dim():
        raise RuntimeError(
            f"bilinear(): input dimensions do not match: got {input1.dim()} and {input2.dim()}"
        )
    for dim in range(input1.dim() - 1):
        if input1.shape[dim] != input2.shape[dim]:
            raise RuntimeError(
                f"bilinear(): input batch dimensions do not match at dim {dim}: got "
                f"{input1.shape[dim]} and {input2.shape[dim]}"
            )
    for name, value, weight_dim in (("input1", input1, 1), ("input2", input2, 2)):
        if value.size(-1) != weight.size(weight_dim):  # (size(): PyTorch's IndexErrors)
            raise RuntimeError(
                f"bilinear(): {name} size does not match weight size: got {value.size(-1)} but "
                f"expected {weight.size(weight_dim)}"
            )
    if bias is not None and bias.size(0) != weight.size(0):
        raise RuntimeError(
            f"bilinear(): bias size does not match weight size: got {bias.size(0)} but "
            f"expected {weight.size(0)}"
        )
    return linear_ops.bilinear(input1, input2, weight, bias)

# PyTorch's TypeError for an argument of the wrong type (minigrad/_arguments.py).
_arguments.check_functions(
    globals(), __all__,
    python_level=("relu", "sigmoid", "tanh", "batch_norm", "softmax", "log_softmax", "dropout",
                  "dropout1d", "dropout2d", "dropout3d", "alpha_dropout",
                  "feature_alpha_dropout", "instance_norm", "local_response_norm",
                  "gaussian_nll_loss", "multilabel_soft_margin_loss",
                  "triplet_margin_with_distance_loss", "soft_margin_loss",
                  "multi_margin_loss", "multilabel_margin_loss", "lp_pool1d", "lp_pool2d",
                  "lp_pool3d",
                  "gumbel_softmax", "embedding_bag",
                  "pad", "max_pool2d", "glu", "softmin", "softsign", "tanhshrink", "normalize",
                  "group_norm", "adaptive_avg_pool2d", "adaptive_max_pool1d",
                  "adaptive_max_pool2d", "adaptive_avg_pool3d", "adaptive_max_pool3d",
                  "adaptive_max_pool1d_with_indices", "adaptive_max_pool2d_with_indices",
                  "adaptive_max_pool3d_with_indices", "fractional_max_pool2d",
                  "fractional_max_pool2d_with_indices", "fractional_max_pool3d",
                  "fractional_max_pool3d_with_indices", "ctc_loss", "max_pool1d",
                  "max_pool1d_with_indices",
                  "max_pool2d_with_indices", "max_pool3d", "max_pool3d_with_indices",
                  "margin_ranking_loss",
                  "multi_head_attention_forward", "interpolate", "upsample", "upsample_nearest",
                  "upsample_bilinear", "fold", "unfold", "max_unpool1d", "max_unpool2d",
                  "max_unpool3d",
                  "affine_grid", "grid_sample",
                  # (minigrad.kl_div and binary_cross_entropy_with_logits are ATen's, checked)
                  "kl_div", "binary_cross_entropy_with_logits"),
    # (the rest PyTorch writes in Python: they take no NumPy names)
    parser_bound=("channel_shuffle", "native_channel_shuffle",
                  "adaptive_avg_pool1d", "avg_pool1d", "avg_pool2d", "avg_pool3d", "bilinear",
                  "conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d",
                  "conv_transpose3d", "pixel_shuffle",
                  "pixel_unshuffle",
                  "cosine_similarity", "gelu", "linear", "logsigmoid", "one_hot", "softplus",
                  "celu_", "elu_", "hardshrink",
                  "hardtanh_", "leaky_relu_", "prelu", "relu_", "rrelu_", "selu_", "softshrink",
                  "threshold_", "pairwise_distance", "scaled_dot_product_attention", "pdist"),
)
