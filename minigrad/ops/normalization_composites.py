"""Instance norm and local response norm: PyTorch composes both of other ops.

``instance_norm`` is ATen's: the (N, C, *) input is viewed as one sample of N * C channels and
batch-normalised (``ViewBackward0`` over ``NativeBatchNormBackward0``; weight, bias and running
statistics repeated N times, ``RepeatBackward0``), then the running statistics, updated per
sample, are averaged back over the batch and copied into the caller's tensors.
``local_response_norm`` is PyTorch's Python: each value divided by
``(k + alpha * mean of the squares of its size neighbouring channels) ** beta``.
"""

from __future__ import annotations

from typing import Any

from minigrad import _arguments
from minigrad.autograd import grad_mode
from minigrad.ops import pooling, shape
from minigrad.ops.normalization import batch_norm_aten

__all__ = ["instance_norm", "local_response_norm"]


def _verify_spatial_size(size: Any) -> None:
    """PyTorch's check that each channel has more than one value to normalise."""
    count = 1
    for extent in size[2:]:
        count *= extent
    if count == 1:
        raise ValueError(
            f"Expected more than 1 spatial element when training, got input size {size}"
        )


def _repeat(value: Any, times: int) -> Any:
    return None if value is None else value.repeat(times)


def instance_norm(
    input: Any,
    running_mean: Any = None,
    running_var: Any = None,
    weight: Any = None,
    bias: Any = None,
    use_input_stats: bool = True,
    momentum: float = 0.1,
    eps: float = 1e-5,
) -> Any:
    """Normalise each channel of each sample (N, C, *) by its own mean and variance.

    With ``use_input_stats=False`` the running statistics are used instead; with them given and
    ``use_input_stats=True`` they move towards the batch's mean of the per-sample statistics
    (one in-place copy each: their versions go up by one).

    Example:
        >>> import minigrad
        >>> import minigrad.nn.functional as F
        >>> F.instance_norm(minigrad.tensor([[[1.0, 3.0], [0.0, 4.0]]]))
        tensor([[[-1.0000,  1.0000],
                 [-1.0000,  1.0000]]])
    """
    if use_input_stats:
        _verify_spatial_size(input.size())
    # (then torch.instance_norm, whose parser checks the arguments first)
    return instance_norm_aten(
        input, weight, bias, running_mean, running_var, use_input_stats, momentum, eps, True
    )


def instance_norm_aten(
    input: Any,
    weight: Any | None,
    bias: Any | None,
    running_mean: Any | None,
    running_var: Any | None,
    use_input_stats: bool,
    momentum: float,
    eps: float,
    cudnn_enabled: bool,
) -> Any:
    """``minigrad.instance_norm``: ATen's signature (weight first, no defaults), no F checks.

    The batch norm of the input seen as one sample of N * C channels (ATen's composition:
    ``NativeBatchNormBackward0`` between two views).

    Example:
        >>> import minigrad
        >>> x = minigrad.tensor([[[1.0, 3.0]]])
        >>> minigrad.instance_norm(x, None, None, None, None, True, 0.1, 1e-5, False)
        tensor([[[-1.0000,  1.0000]]])
    """
    _arguments.check_tensor(input, "instance_norm", "input", 1)
    for position, (name, value) in enumerate(
        (
            ("weight", weight),
            ("bias", bias),
            ("running_mean", running_mean),
            ("running_var", running_var),
        ),
        start=2,
    ):
        if value is not None:
            _arguments.check_tensor(value, "instance_norm", name, position)
    if not use_input_stats and (running_mean is None or running_var is None):
        raise RuntimeError(
            "Expected running_mean and running_var to be defined when use_input_stats is false"
        )
    size = input.size()
    samples, channels = size[0], size[1]
    running_mean_ = _repeat(running_mean, samples)
    running_var_ = _repeat(running_var, samples)
    out = batch_norm_aten(
        input.contiguous().view(1, samples * channels, *size[2:]),
        _repeat(weight, samples),
        _repeat(bias, samples),
        running_mean_,
        running_var_,
        use_input_stats,
        momentum,
        eps,
        cudnn_enabled,
    )
    if use_input_stats:
        with grad_mode.no_grad():  # (ATen writes through an alias: not recorded)
            if running_mean is not None:
                running_mean.copy_(running_mean_.view(samples, channels).mean(0))
            if running_var is not None:
                running_var.copy_(running_var_.view(samples, channels).mean(0))
    return out.view(size)


def local_response_norm(
    input: Any, size: int, alpha: float = 1e-4, beta: float = 0.75, k: float = 1.0
) -> Any:
    """``input / (k + alpha * mean(input ** 2 over size neighbouring channels)) ** beta``.

    The neighbours of channel c are channels ``c - size // 2 .. c + (size - 1) // 2`` (zeros
    beyond the edges). PyTorch pools 4-d and larger inputs with ``avg_pool3d``; minigrad views
    them so that ``avg_pool2d`` takes the same windows (the same values and nodes, but for the
    pooling node and the views around it).

    Example:
        >>> import minigrad
        >>> import minigrad.nn.functional as F
        >>> F.local_response_norm(minigrad.ones(1, 2, 1), 2, alpha=1.0, beta=1.0, k=0.0)
        tensor([[[2.],
                 [1.]]])
    """
    dim = input.dim()
    if dim < 3:
        raise ValueError(
            f"Expected 3D or higher dimensionality                          input (got {dim} "
            "dimensions)"
        )
    if input.numel() == 0:
        return input
    div = input.mul(input)
    if dim == 3:
        div = div.unsqueeze(1)
        div = shape.pad(div, (0, 0, size // 2, (size - 1) // 2))
        return input / _scale(
            pooling.avg_pool2d(div, (size, 1), stride=1).squeeze(1), alpha, beta, k
        )
    sizes = input.size()
    div = div.view(sizes[0], 1, sizes[1], sizes[2], -1)
    div = shape.pad(div, (0, 0, 0, 0, size // 2, (size - 1) // 2))
    # avg_pool3d with a (size, 1, 1) window is avg_pool2d with (size, 1) over the merged last dims
    pooled_shape = div.size()
    div = div.view(sizes[0], 1, pooled_shape[2], -1)
    div = pooling.avg_pool2d(div, (size, 1), stride=1)
    div = div.view(sizes[0], 1, sizes[1], sizes[2], -1).squeeze(1)
    return input / _scale(div.view(sizes), alpha, beta, k)


def _scale(div: Any, alpha: float, beta: float, k: float) -> Any:
    """``(k + alpha * div) ** beta``, in PyTorch's steps (mul, add, pow)."""
    return div.mul(alpha).add(k).pow(beta)
