"""Layer norm, rms norm, normalize, group norm and batch norm (shared: ``_helpers.py``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from minigrad import _arguments, _out, errors
from minigrad._layout import contiguous_result, suggested_format, suggested_result
from minigrad._size import Size
from minigrad.autograd import grad_mode
from minigrad.autograd.function import Op
from minigrad.ops import arithmetic, unary, views
from minigrad.ops._helpers import (
    check_no_grad,
    dtype_name,
    is_tensor,
    not_implemented,
    operand,
    shape_of,
    size_text,
    wrap_dim,
)

# ==========================================================================================
# layer norm and batch norm
# ==========================================================================================


def _moments(x: Any, axes: tuple[int, ...], eps: float) -> tuple[Any, Any]:
    """Mean and ``1 / sqrt(var + eps)`` over ``axes`` (biased variance), keeping dims.

    Written with operators, so on tensors (create_graph) it is recorded: the second derivative
    then sees how mean and variance depend on x.
    """
    count = int(np.prod([shape_of(x)[a] for a in axes]))
    mean = np.sum(x, axis=axes, keepdims=True) / count
    centered = x - mean
    var = np.sum(centered * centered, axis=axes, keepdims=True) / count
    return mean, 1 / np.sqrt(var + eps)


class NativeLayerNorm(Op):
    """y = (x - mean) / sqrt(var + eps) * weight + bias over the last dims (``normalized_shape``).

    With xhat = (x - mean) rstd and g = grad * weight (n elements per normalized group):
    dx = rstd (g - mean(g) - xhat mean(g xhat)),  dweight = sum(grad xhat),  dbias = sum(grad)
    over the leading dims. Saves input, weight, bias (as PyTorch, although backward does not
    read it) and the per-group mean and rstd (private).
    """

    fields = ("axes", "eps", "normalized_shape")
    saves = ("input", "weight", "bias", "result1", "result2")
    saved_options = ("normalized_shape",)
    result_layout = staticmethod(contiguous_result)  # (PyTorch's: row-major, whatever x's)

    num_inputs = 3

    @staticmethod
    def forward(
        ctx: Any, x: np.ndarray, weight: Any, bias: Any, count: int, eps: float
    ) -> np.ndarray:
        return NativeLayerNorm.outputs(ctx, x, weight, bias, count, eps)[0]

    @staticmethod
    def outputs(
        ctx: Any, x: np.ndarray, weight: Any, bias: Any, count: int, eps: float
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(y, mean, rstd): forward's work, the statistics kept dims (``native_layer_norm``)."""
        axes = tuple(range(x.ndim - count, x.ndim))
        mean, rstd = _moments(x, axes, eps)
        mean, rstd = mean.astype(x.dtype), rstd.astype(x.dtype)
        ctx.save_for_backward(x, weight, bias, mean, rstd)
        ctx.axes, ctx.eps = axes, eps
        ctx.normalized_shape = tuple(x.shape[axis] for axis in axes)
        y = (x - mean) * rstd
        if weight is not None:
            y = y * weight
        if bias is not None:
            y = y + bias
        return y.astype(x.dtype, copy=False), mean, rstd

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, Any, Any, None, None]:
        x, weight, _bias, mean, rstd = ctx.saved_tensors
        axes = ctx.axes
        if is_tensor(x):  # create_graph (saved values are tensors): mean and rstd as functions of x
            mean, rstd = _moments(x, axes, ctx.eps)
        xhat = (x - mean) * rstd
        lead = tuple(range(len(shape_of(x)) - len(axes)))
        needs = ctx.needs_input_grad
        dx = dw = db = None
        if needs[0]:
            g = grad if weight is None else grad * weight
            n = int(np.prod([shape_of(x)[a] for a in axes]))
            g_mean = np.sum(g, axis=axes, keepdims=True) / n
            gx_mean = np.sum(g * xhat, axis=axes, keepdims=True) / n
            dx = rstd * (g - g_mean - xhat * gx_mean)
        if needs[1]:
            dw = np.sum(grad * xhat, axis=lead) if lead else grad * xhat
        if needs[2]:
            db = np.sum(grad, axis=lead) if lead else grad
        return dx, dw, db, None, None


def _check_param_dtypes(input: Any, params: Sequence[Any]) -> None:
    """The parameters' dtypes checked as PyTorch checks them (its mixed_dtype.h, then kernel).

    The first parameter given decides whether the call mixes dtypes, which only float
    parameters of a reduced-precision input may (not done here); else the kernel reads every
    parameter as the input's dtype.
    """
    dtype = operand(input).dtype
    given = [operand(param).dtype for param in params if param is not None]
    if given and given[0] != dtype:
        if any(other != np.float32 for other in given):
            raise RuntimeError(errors.MIXED_DTYPE_PARAMETER)
        raise RuntimeError(errors.MIXED_DTYPE_INPUTS)
    for other in given[1:]:
        if other != dtype:
            raise RuntimeError(errors.expected_scalar_type(dtype, other))


def _normalized_shape(
    function: str, input: Any, normalized_shape: Any, params: Sequence[tuple[str, Any]]
) -> tuple[int, ...]:
    """``normalized_shape`` as a tuple, checked as PyTorch's layer_norm and rms_norm check it.

    In PyTorch's order: its type, not empty, each parameter of that shape, then the input's
    trailing dims.
    """
    _arguments.check_int_sequence(normalized_shape, function, "normalized_shape", 2)
    if isinstance(normalized_shape, (int, np.integer)) or not isinstance(
        normalized_shape, (tuple, list, Size)
    ):
        raise TypeError(
            errors.wrong_argument_type(
                function, "normalized_shape", "tuple of ints", type(normalized_shape).__name__, 2
            )
        )
    normalized = tuple(int(n) for n in normalized_shape)
    if not normalized:
        raise RuntimeError(errors.LAYER_NORM_EMPTY_SHAPE)
    shown = errors.format_size(normalized)
    for name, param in params:
        if param is not None and shape_of(param) != normalized:
            raise RuntimeError(errors.normalized_shape_param(name, shape_of(param), shown))
    shape = shape_of(input)
    separator = ", "
    if function == "rms_norm":  # (PyTorch's rms_norm has a ValueError of its own, and a text
        separator = ""  # without layer_norm's ", " after the "*")
        if len(shape) < len(normalized):
            raise ValueError(
                f"Input tensor must have at least {len(normalized)} dimensions, but got "
                f"{len(shape)}"
            )
    if len(shape) < len(normalized) or shape[len(shape) - len(normalized) :] != normalized:
        raise RuntimeError(errors.layer_norm_input_shape(shown, shape, separator))
    return normalized


def layer_norm(
    input: Any, normalized_shape: Any, weight: Any = None, bias: Any = None, eps: float = 1e-5
) -> Any:
    """Normalize over the last ``len(normalized_shape)`` dims, then scale and shift.

    Each group gets mean 0 and variance 1, then is multiplied by ``weight`` and shifted by
    ``bias`` (both of ``normalized_shape``).

    One ``NativeLayerNormBackward0`` node; it saves input, weight and bias (writing any of them
    in place before backward raises) and the per-group mean and 1/std.

    Example:
        >>> import minigrad
        >>> import minigrad.nn.functional as F
        >>> F.layer_norm(minigrad.tensor([[1.0, 3.0]]), (2,))
        tensor([[-1.0000,  1.0000]])
    """
    count = layer_norm_arguments("layer_norm", input, normalized_shape, weight, bias)
    return NativeLayerNorm.apply(input, weight, bias, count, float(eps))


def layer_norm_arguments(
    function: str, input: Any, normalized_shape: Any, weight: Any, bias: Any
) -> int:
    """layer_norm's checks (also ``native_layer_norm``'s): how many trailing dims it normalizes."""
    normalized = _normalized_shape(
        function, input, normalized_shape, (("weight", weight), ("bias", bias))
    )
    _check_param_dtypes(input, (weight, bias))  # a mix is refused before the kernel is chosen
    if operand(input).dtype.kind != "f":
        raise not_implemented("LayerNormKernelImpl", input)
    return len(normalized)


def layer_norm_aten(
    input: Any,
    normalized_shape: Any,
    weight: Any = None,
    bias: Any = None,
    eps: float = 1e-5,
    cudnn_enable: bool = True,
) -> Any:
    """``minigrad.layer_norm``: ``nn.functional.layer_norm`` with ATen's ``cudnn_enable``.

    Example:
        >>> import minigrad
        >>> minigrad.layer_norm(minigrad.tensor([[1.0, 3.0]]), [2])
        tensor([[-1.0000,  1.0000]])
    """
    return layer_norm(input, normalized_shape, weight, bias, eps)


def rms_norm(
    input: Any, normalized_shape: Any, weight: Any = None, eps: float | None = None
) -> Any:
    """``input / sqrt(mean(input ** 2) + eps) * weight`` over the last dims (``normalized_shape``).

    Recorded as PyTorch's composite records it when gradients are needed: PowBackward0,
    MeanBackward1, AddBackward1, RsqrtBackward0, MulBackward0 (and MulBackward0 for ``weight``);
    a float16 input is computed in float32 (ToCopyBackward0 both ways). ``eps`` defaults to the
    machine epsilon of that computing dtype.

    Example:
        >>> import minigrad
        >>> import minigrad.nn.functional as F
        >>> F.rms_norm(minigrad.tensor([[3.0, 4.0]]), (2,), eps=0.0)
        tensor([[0.8485, 1.1314]])
    """
    normalized = _normalized_shape("rms_norm", input, normalized_shape, (("weight", weight),))
    if operand(input).dtype.kind != "f":
        raise not_implemented("rms_norm", input)
    # PyTorch reduces over the dims counted from the last: (ndim - 1, ndim - 2, ...)
    dims = tuple(input.dim() - i - 1 for i in range(len(normalized)))
    upcast = input.float() if operand(input).dtype == np.float16 else input
    if eps is None:
        eps = float(np.finfo(operand(upcast).dtype).eps)
    rstd = arithmetic.AddScalar.apply(upcast.pow(2).mean(dims, keepdim=True), eps).rsqrt()
    result = (upcast * rstd).type_as(input)
    if weight is not None:
        result = result * weight
    return result.contiguous()  # (PyTorch's: a clone, CloneBackward0, of a non-row-major result)


def normalize(input: Any, p: float = 2.0, dim: int = 1, eps: float = 1e-12, out: Any = None) -> Any:
    """``input / max(norm_p(input, dim), eps)``: unit vectors along ``dim``.

    PyTorch's composition: ``input.norm(p, dim, keepdim=True).clamp_min(eps).expand_as(input)``
    divides ``input`` (DivBackward0, ExpandBackward0, ClampMinBackward0,
    LinalgVectorNormBackward0); with ``out=`` it clamps in place and divides into ``out``.

    Example:
        >>> import minigrad
        >>> import minigrad.nn.functional as F
        >>> F.normalize(minigrad.tensor([[3.0, 4.0]]))
        tensor([[0.6000, 0.8000]])
    """
    norm = input.norm(p, dim, keepdim=True)
    if out is None:
        return input / norm.clamp_min(eps).expand_as(input)
    denominator = norm.clamp_min_(eps).expand_as(input)
    return _out.call_with_out(
        arithmetic.div, "div", _out.ACCEPTS_OUT["div"], (input, denominator), {}, out
    )


# ==========================================================================================
# group norm
# ==========================================================================================


class NativeGroupNorm(Op):
    """Layer norm within each of ``group`` groups of channels, then a per-channel scale and shift.

    x (N, C, *) is seen as (N, group, C / group * HxW); with xhat = (x - mean) rstd per group and
    g = grad * weight[c] (m elements per group):
    dx = rstd (g - mean(g) - xhat mean(g xhat)),  dweight[c] = sum(grad xhat),
    dbias[c] = sum(grad) over N and the spatial dims. Saves input, weight and the per-group
    mean and rstd, of shape (N, group) (PyTorch's result1, result2); not the bias.
    """

    fields = ("N", "C", "HxW", "group", "eps")
    saves = ("input", "weight", "result1", "result2")
    saved_options = ("N", "C", "HxW", "group", "eps")
    result_layout = staticmethod(suggested_result)  # (the input's suggested memory format)

    num_inputs = 3

    @staticmethod
    def forward(
        ctx: Any, x: np.ndarray, weight: Any, bias: Any, group: int, eps: float
    ) -> np.ndarray:
        return NativeGroupNorm.outputs(ctx, x, weight, bias, group, eps)[0]

    @staticmethod
    def outputs(
        ctx: Any, x: np.ndarray, weight: Any, bias: Any, group: int, eps: float
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(y, mean, rstd): forward's work, the statistics (N, group) (``native_group_norm``)."""
        n, c = x.shape[0], x.shape[1]
        grouped = x.reshape(n, group, -1)
        mean, rstd = _moments(grouped, (2,), eps)
        mean, rstd = mean.astype(x.dtype), rstd.astype(x.dtype)
        saved_mean, saved_rstd = mean.reshape(n, group), rstd.reshape(n, group)
        ctx.save_for_backward(x, weight, saved_mean, saved_rstd)
        ctx.N, ctx.C, ctx.HxW, ctx.group, ctx.eps = n, c, grouped.shape[2] * group // c, group, eps
        y = ((grouped - mean) * rstd).reshape(x.shape)
        if weight is not None:
            y = y * weight.reshape(_per_channel(x.ndim, c))
        if bias is not None:
            y = y + bias.reshape(_per_channel(x.ndim, c))
        return y.astype(x.dtype, copy=False), saved_mean, saved_rstd

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, Any, Any, None, None]:
        x, weight, mean, rstd = ctx.saved_tensors
        needs = ctx.needs_input_grad
        if weight is None and needs[2]:
            # PyTorch 2.13's CPU backward fails so for a bias without a weight (its kernel
            # reads the absent weight's device); minigrad raises as it does.
            raise RuntimeError("tensor does not have a device")
        n, c, group = ctx.N, ctx.C, ctx.group
        shape = shape_of(x)
        grouped = np.reshape(x, (n, group, -1))
        if is_tensor(x):  # create_graph (saved values are tensors): mean and rstd as functions of x
            mean, rstd = _moments(grouped, (2,), ctx.eps)
        else:
            mean, rstd = np.reshape(mean, (n, group, 1)), np.reshape(rstd, (n, group, 1))
        xhat = (grouped - mean) * rstd
        others = (0, *range(2, len(shape)))  # the dims summed for the per-channel gradients
        dx = dw = db = None
        if needs[0]:
            g = grad if weight is None else grad * np.reshape(weight, _per_channel(len(shape), c))
            g = np.reshape(g, (n, group, -1))
            m = shape_of(g)[2]
            g_mean = np.sum(g, axis=2, keepdims=True) / m
            gx_mean = np.sum(g * xhat, axis=2, keepdims=True) / m
            dx = np.reshape(rstd * (g - g_mean - xhat * gx_mean), shape)
        if needs[1]:
            dw = np.sum(grad * np.reshape(xhat, shape), axis=others)
        if needs[2]:
            db = np.sum(grad, axis=others)
        return dx, dw, db, None, None


def _per_channel(ndim: int, channels: int) -> tuple[int, ...]:
    """The shape that broadcasts a per-channel vector over (N, C, *)."""
    return (channels,) + (1,) * (ndim - 2)


def group_norm(
    input: Any, num_groups: int, weight: Any = None, bias: Any = None, eps: float = 1e-5
) -> Any:
    """Normalize each of ``num_groups`` groups of channels (dim 1), then scale and shift.

    One ``NativeGroupNormBackward0`` node (on a row-major copy of an input neither row-major
    nor channels-last, as PyTorch's ``input.contiguous(input.suggest_memory_format())``); it
    saves input, weight and the per-group mean and 1/std. The result is laid out as the input.

    Example:
        >>> import minigrad
        >>> import minigrad.nn.functional as F
        >>> F.group_norm(minigrad.tensor([[1.0, 3.0, 0.0, 4.0]]), 2)
        tensor([[-1.0000,  1.0000, -1.0000,  1.0000]])
    """
    if input.dim() < 2:  # (PyTorch's Python: a non-tensor fails on .dim())
        raise RuntimeError(
            f"Expected at least 2 dimensions for input tensor but received {input.dim()}"
        )
    shape = shape_of(input)
    n, c = shape[0], shape[1]
    size = [n * c // num_groups, num_groups, *shape[2:]]
    if size[0] * int(np.prod(shape[2:])) == 1:
        raise ValueError(errors.one_value_per_channel(str(size)))  # (a list, in PyTorch's)
    # PyTorch's Python has checked the above; the rest is torch.group_norm's.
    return group_norm_aten(input, num_groups, weight, bias, eps)


def group_norm_aten(
    input: Any,
    num_groups: int,
    weight: Any = None,
    bias: Any = None,
    eps: float = 1e-5,
    cudnn_enabled: bool = True,
) -> Any:
    """``minigrad.group_norm``: ``nn.functional.group_norm`` without its Python checks.

    Example:
        >>> import minigrad
        >>> minigrad.group_norm(minigrad.tensor([[1.0, 3.0, 0.0, 4.0]]), 2)
        tensor([[-1.0000,  1.0000, -1.0000,  1.0000]])
    """
    group_norm_arguments(input, num_groups, weight, bias, eps)
    # (PyTorch's ``input.contiguous(input.suggest_memory_format())``: channels-last stays)
    laid_out = input.contiguous(memory_format=suggested_format(operand(input)))
    return NativeGroupNorm.apply(laid_out, weight, bias, num_groups, float(eps))


def group_norm_arguments(
    input: Any, num_groups: int, weight: Any, bias: Any, eps: float, function: str = "group_norm"
) -> None:
    """torch.group_norm's checks, in its order (the parser's, the channels, the parameters)."""
    _arguments.check_tensor(input, function, "input", 1)
    shape = shape_of(input)
    wrap_dim(1, len(shape))  # (an input of fewer than 2 dims: its channels are out of range)
    c = shape[1]
    for position, (name, param) in enumerate((("weight", weight), ("bias", bias)), start=3):
        if param is not None:
            _arguments.check_tensor(param, function, name, position)
    _arguments.check_value(eps, "float", function, "eps", 5)
    if c % num_groups:
        _arguments.check_int64(num_groups)  # (past int64, the parser's error comes first)
        raise RuntimeError(
            "Expected number of channels in input to be divisible by num_groups, but got input "
            f"of shape {errors.format_size(shape)} and num_groups={num_groups}"
        )
    for name, param in (("weight", weight), ("bias", bias)):
        if param is not None and (len(shape_of(param)) != 1 or shape_of(param)[0] != c):
            # (PyTorch's bias message shows the weight's shape: [0] without one)
            shown = shape_of(weight) if weight is not None else (0,)
            raise RuntimeError(
                f"Expected {name} to be a vector of size equal to the number of channels in "
                f"input, but got {name} of shape {errors.format_size(shown)} and input of shape "
                f"{errors.format_size(shape)}"
            )
    _check_param_dtypes(input, (weight, bias))
    if operand(input).dtype.kind != "f":
        raise not_implemented("GroupNormKernelImpl", input)


class NativeBatchNorm(Op):
    """y = (x - mean) / sqrt(var + eps) * weight + bias per channel (dim 1).

    Training: batch statistics (biased variance), and the running statistics updated in place,
    ``running = (1 - momentum) running + momentum batch`` (unbiased variance), by the kernel,
    without a version bump (as in PyTorch). Evaluation: the running statistics.
    Backward (training; xhat = (x - mean) invstd, n values per channel):
    dx = weight invstd / n (n grad - sum(grad) - xhat sum(grad xhat)); evaluation:
    dx = grad weight invstd_running.  dweight = sum(grad xhat),  dbias = sum(grad).
    Saves input, weight, running_mean, running_var (all version-checked) and the batch mean
    and invstd (private); not the bias.
    """

    fields = ("training", "eps", "axes", "shape")
    saves = ("input", "weight", "running_mean", "running_var", "result1", "result2")
    saved_options = ("eps", "training")

    num_inputs = 3

    @staticmethod
    def forward(
        ctx: Any,
        x: np.ndarray,
        weight: Any,
        bias: Any,
        running_mean: Any,
        running_var: Any,
        training: bool,
        momentum: float,
        eps: float,
    ) -> np.ndarray:
        return NativeBatchNorm.outputs(
            ctx, x, weight, bias, running_mean, running_var, training, momentum, eps
        )[0]

    @staticmethod
    def outputs(
        ctx: Any,
        x: np.ndarray,
        weight: Any,
        bias: Any,
        running_mean: Any,
        running_var: Any,
        training: bool,
        momentum: float,
        eps: float,
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(y, mean, invstd): forward's work; the batch statistics (C,), empty in evaluation."""
        axes = (0, *range(2, x.ndim))
        shape = [1] * x.ndim
        shape[1] = x.shape[1]
        if training:
            n = x.size // x.shape[1]
            mean = np.sum(x, axis=axes, keepdims=True, dtype=np.float64) / n
            var = np.sum((x - mean) ** 2, axis=axes, keepdims=True, dtype=np.float64) / n
            invstd = (1 / np.sqrt(var + eps)).astype(x.dtype)
            mean = mean.astype(x.dtype)
            if running_mean is not None:
                unbiased = np.reshape(var, -1) * (n / (n - 1))
                # The kernel's own write: PyTorch does not bump the running stats' version.
                running_mean *= 1 - momentum
                running_mean += momentum * np.reshape(mean, -1)
                running_var *= 1 - momentum
                running_var += momentum * unbiased
            saved_mean, saved_invstd = np.reshape(mean, -1), np.reshape(invstd, -1)
        else:
            mean = np.reshape(running_mean, shape)
            invstd = np.reshape(1 / np.sqrt(running_var + eps), shape)
            saved_mean, saved_invstd = np.zeros(0, dtype=x.dtype), np.zeros(0, dtype=x.dtype)
        ctx.save_for_backward(x, weight, running_mean, running_var, saved_mean, saved_invstd)
        ctx.training, ctx.eps, ctx.axes, ctx.shape = training, eps, axes, tuple(shape)
        y = (x - mean) * invstd
        if weight is not None:
            y = y * np.reshape(weight, shape)
        if bias is not None:
            y = y + np.reshape(bias, shape)
        return y.astype(x.dtype, copy=False), saved_mean, saved_invstd

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, ...]:
        x, weight, running_mean, running_var, saved_mean, saved_invstd = ctx.saved_tensors
        axes, shape = ctx.axes, ctx.shape
        if not ctx.training:
            mean = np.reshape(running_mean, shape)
            invstd = 1 / np.sqrt(np.reshape(running_var, shape) + ctx.eps)
        elif is_tensor(x):  # create_graph: the batch statistics as functions of x
            mean, invstd = _moments(x, axes, ctx.eps)
        else:
            mean, invstd = np.reshape(saved_mean, shape), np.reshape(saved_invstd, shape)
        xhat = (x - mean) * invstd
        w = 1 if weight is None else np.reshape(weight, shape)
        needs = ctx.needs_input_grad
        dx = dw = db = None
        if needs[0]:
            if ctx.training:
                n = int(np.prod([shape_of(x)[a] for a in axes]))
                g_mean = np.sum(grad, axis=axes, keepdims=True) / n
                gx_mean = np.sum(grad * xhat, axis=axes, keepdims=True) / n
                dx = (grad - g_mean - xhat * gx_mean) * invstd * w
            else:
                dx = grad * invstd * w
        if needs[1]:
            dw = np.sum(grad * xhat, axis=axes)
        if needs[2]:
            db = np.sum(grad, axis=axes)
        return dx, dw, db, None, None, None, None, None


def batch_norm(
    input: Any,
    running_mean: Any,
    running_var: Any,
    weight: Any = None,
    bias: Any = None,
    training: bool = False,
    momentum: float = 0.1,
    eps: float = 1e-5,
) -> Any:
    """Normalize each channel (dim 1) to mean 0 and variance 1, then scale and shift.

    In training the batch's statistics are used and the running ones updated in place (under
    the hood, as PyTorch's kernel: their version does not change); in evaluation the running
    statistics are used. One ``NativeBatchNormBackward0`` node saving input, weight,
    running_mean and running_var: writing any of them in place before backward raises.

    Example:
        >>> import minigrad
        >>> import minigrad.nn.functional as F
        >>> mean, var = minigrad.zeros(1), minigrad.ones(1)
        >>> F.batch_norm(minigrad.tensor([[1.0], [3.0]]), mean, var, training=True)
        tensor([[-1.0000],
                [ 1.0000]])
        >>> mean
        tensor([0.2000])
    """
    _arguments.check_has_attribute(input, "size")  # (PyTorch's Python code calls .size())
    _batch_norm_types(input, weight, bias, running_mean, running_var, training, momentum)
    shape = shape_of(input)
    if training:
        count = (shape[0] if shape else 1) * int(np.prod(shape[2:]))
        if count == 1:
            raise ValueError(errors.one_value_per_channel(size_text(shape)))
    if training and eps <= 0.0:
        raise ValueError(errors.batch_norm_eps_training(eps))
    if eps < 0.0:
        raise ValueError(errors.batch_norm_eps(eps))
    return batch_norm_aten(
        input, weight, bias, running_mean, running_var, training, momentum, eps, True
    )


def batch_norm_aten(
    input: Any,
    weight: Any | None,
    bias: Any | None,
    running_mean: Any | None,
    running_var: Any | None,
    training: bool,
    momentum: float,
    eps: float,
    cudnn_enabled: bool,
) -> Any:
    """``minigrad.batch_norm``: ATen's signature (weight first), without F's Python checks.

    Example:
        >>> import minigrad
        >>> x = minigrad.tensor([[1.0], [3.0]])
        >>> minigrad.batch_norm(x, None, None, None, None, True, 0.1, 1e-5, False)
        tensor([[-1.0000],
                [ 1.0000]])
    """
    _batch_norm_types(input, weight, bias, running_mean, running_var, training, momentum)
    shape = shape_of(input)
    if int(np.prod(shape)) == 0:
        out = unary.clone(input)
        if weight is not None:
            out = arithmetic.mul(out, views.select(weight, 0, 0))
        if bias is not None:
            out = arithmetic.add(out, views.select(bias, 0, 0))
        return out
    batch_norm_arguments(input, weight, bias, running_mean, running_var, training)
    return NativeBatchNorm.apply(
        input,
        weight,
        bias,
        running_mean,
        running_var,
        bool(training),
        float(momentum),
        float(eps),
    )


def _batch_norm_types(
    input: Any,
    weight: Any,
    bias: Any,
    running_mean: Any,
    running_var: Any,
    training: Any,
    momentum: Any,
    function: str = "batch_norm",
) -> None:
    """The argument parser's checks of torch.batch_norm (its positions: weight is 2nd)."""
    _arguments.check_tensor(input, function, "input", 1)
    for position, (parameter, value) in enumerate(
        (
            ("weight", weight),
            ("bias", bias),
            ("running_mean", running_mean),
            ("running_var", running_var),
        ),
        start=2,
    ):
        if value is not None:
            _arguments.check_tensor(value, function, parameter, position)
    _arguments.check_value(training, "bool", function, "training", 6)
    _arguments.check_value(momentum, "float", function, "momentum", 7)


def batch_norm_arguments(
    input: Any, weight: Any, bias: Any, running_mean: Any, running_var: Any, training: bool
) -> None:
    """ATen's checks of a non-empty batch norm (also ``native_batch_norm``'s), in its order."""
    shape = shape_of(input)
    features = shape[1] if len(shape) > 1 else 0
    for name, value in (("running_mean", running_mean), ("running_var", running_var)):
        if value is not None:
            _check_features(name, features, value)
        elif not training:
            raise RuntimeError(errors.undefined_in_eval(name))
    for name, value in (("weight", weight), ("bias", bias)):
        if value is not None:
            _check_features(name, features, value)
    if grad_mode.is_grad_enabled():  # PyTorch's autograd wrapper, before the kernel runs
        check_no_grad(running_mean, "running_mean", "native_batch_norm")
        check_no_grad(running_var, "running_var", "native_batch_norm")
    if (running_mean is None) != (running_var is None):
        raise ValueError(errors.RUNNING_STATS_PAIR)
    array = operand(input)
    if array.dtype.kind != "f":
        if training and not array.flags.c_contiguous:  # PyTorch's strided path calls mean()
            raise RuntimeError(errors.mean_dtype(dtype_name(input)))
        raise not_implemented("batch_norm", input)
    _check_param_dtypes(input, (weight, bias, running_mean, running_var))
    if training:
        wrap_dim(1, len(shape))  # (the batch statistics are per channel: dim 1 must exist)


def _check_features(name: str, features: int, value: Any) -> None:
    size = operand(value).size
    if size != features:
        raise RuntimeError(errors.feature_count(name, features, size))


# ==========================================================================================
# embedding
# ==========================================================================================
