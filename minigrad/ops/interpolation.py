"""``F.interpolate``: resampling the spatial dims with PyTorch's index and weight rules.

An input is (N, C, *spatial) with 1, 2 or 3 spatial dims. Each mode resamples one spatial
dim at a time (``ops/taps.py``): output position ``j`` of an axis of ``n`` inputs and ``m``
outputs reads

- "nearest": ``floor(j * s)`` with ``s = 1 / scale_factor`` if one was given, else ``n / m``,
  in float32 (OpenCV's rule, kept by PyTorch for compatibility: a scale factor of 1.1 that
  leaves the size as it was still drops and repeats pixels);
- "nearest-exact": ``floor((j + 0.5) * s)`` (the pixel whose centre is nearest);
- "linear" (bilinear, trilinear): the two inputs around ``x = s * (j + 0.5) - 0.5`` (clamped
  at 0), weighted by distance; with ``align_corners=True``, ``x = j * (n - 1) / (m - 1)``
  (the corner pixels' centres line up);
- "bicubic": the four inputs around ``x`` (not clamped; indices past an edge repeat it) with
  Keys' cubic convolution weights, ``A = -0.75``.

Indices and weights are computed in the input's float type (float32 for float32), as
PyTorch's kernels compute them, so ``floor`` rounds where PyTorch's does. "area" is adaptive
average pooling. Each mode and number of dims is one op (``UpsampleBilinear2DBackward0`` ...)
that saves no tensor; its gradient is the transposed resampling (``...BackwardBackward0`` under
create_graph), whose own gradient is the resampling again.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, ClassVar

import numpy as np

from minigrad import _arguments, _warnings, errors
from minigrad._layout import contiguous_result, suggested_result
from minigrad.autograd.function import Op
from minigrad.autograd.saved_attributes import part
from minigrad.autograd.tensor_base import TensorBase
from minigrad.ops._helpers import dtype_name, operand, run
from minigrad.ops.adaptive_pooling import adaptive_avg_pool1d, adaptive_avg_pool2d
from minigrad.ops.taps import Plan, Taps, gather, scatter

_CUBIC_A = -0.75  # (Keys' kernel as PyTorch and OpenCV use it)


def _scale(n: int, m: int, scale: float | None, dtype: Any) -> Any:
    """PyTorch's ``compute_scales_value``: 1 / the given factor, else ``n / m``, in ``dtype``."""
    if scale is not None and scale > 0:
        return dtype.type(1.0 / scale)
    return dtype.type(n) / dtype.type(m)


def _ratio(n: int, m: int, align_corners: bool, scale: float | None, dtype: Any) -> Any:
    """PyTorch's ``area_pixel_compute_scale``: input positions per output position."""
    if align_corners:
        return dtype.type(n - 1) / dtype.type(m - 1) if m > 1 else dtype.type(0)
    return _scale(n, m, scale, dtype)


def _source(ratio: Any, m: int, align_corners: bool, cubic: bool) -> np.ndarray:
    """PyTorch's ``area_pixel_compute_source_index``: where each output sits in the input."""
    j = np.arange(m, dtype=ratio.dtype)
    if align_corners:
        return ratio * j
    half = ratio.dtype.type(0.5)
    x = ratio * (j + half) - half
    return x if cubic else np.maximum(x, 0)


def _floor_and_fraction(x: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray]:
    """PyTorch's ``guard_index_and_lambda``: the index at or below ``x`` (at most n - 1).

    Also the distance past it, clamped to [0, 1].
    """
    index = np.minimum(np.floor(x).astype(np.int64), n - 1)
    return index, np.clip(x - index.astype(x.dtype), 0, 1).astype(x.dtype)


def _nearest(n: int, m: int, scale: float | None, exact: bool) -> Taps:
    s = _scale(n, m, scale, np.dtype(np.float32))
    if exact:  # ((j + 0.5) computed in double, rounded to float for floorf)
        index = np.floor(((np.arange(m) + 0.5) * np.float64(s)).astype(np.float32))
    else:
        index = np.floor(np.arange(m, dtype=np.float32) * s)
    return [(np.minimum(index.astype(np.int64), n - 1), None)]


def _linear(n: int, m: int, scale: float | None, align_corners: bool, dtype: Any) -> Taps:
    if m == n:
        return [(np.arange(m), None)]
    x = _source(_ratio(n, m, align_corners, scale, dtype), m, align_corners, cubic=False)
    index0, fraction = _floor_and_fraction(x, n)
    index1 = np.where(index0 < n - 1, index0 + 1, index0)
    return [(index0, (1 - fraction).astype(dtype)), (index1, fraction)]


def _cubic_weights(t: np.ndarray) -> list[np.ndarray]:
    """Keys' weights of the taps at -1, 0, 1, 2 for a point ``t`` in [0, 1] past tap 0."""
    a = t.dtype.type(_CUBIC_A)

    def near(x: np.ndarray) -> np.ndarray:  # |x| <= 1
        return ((a + 2) * x - (a + 3)) * x * x + 1

    def far(x: np.ndarray) -> np.ndarray:  # 1 < |x| < 2
        return ((a * x - 5 * a) * x + 8 * a) * x - 4 * a

    one = t.dtype.type(1)
    return [far(t + one), near(t), near(one - t), far(one - t + one)]


def _cubic(n: int, m: int, scale: float | None, align_corners: bool, dtype: Any) -> Taps:
    x = _source(_ratio(n, m, align_corners, scale, dtype), m, align_corners, cubic=True)
    index, t = _floor_and_fraction(x, n)
    weights = _cubic_weights(t)
    return [(np.clip(index - 1 + k, 0, n - 1), weights[k]) for k in range(4)]


class Upsample(Op):
    """y = x resampled along its spatial dims;  dx = grad sent back through the same taps.

    Saves no tensor: the sizes and options (PyTorch's ``_saved_output_size``,
    ``_saved_scales_h`` ..., ``_saved_align_corners``, ``_saved_self_sym_sizes``). A subclass
    per mode and number of spatial dims gives PyTorch's node name.
    """

    result_layout = staticmethod(suggested_result)  # (the input's suggested memory format)
    fields = ("options", "input_shape")
    kind: ClassVar[str]  # "nearest", "nearest-exact", "linear", "cubic"
    gradient: ClassVar[type[Op]]  # the backward as an op (create_graph)

    @classmethod
    def plan(
        cls, shape: Sequence[int], options: tuple[Any, ...], dtype: Any, backward: bool = False
    ) -> Plan:
        """The taps of each spatial axis, from ``options = (output_size, scales, align)``.

        ``backward``: the plan PyTorch's backward kernels use, which pass the gradient of an
        axis whose size is unchanged straight through ("nearest"; "bicubic" only when no
        axis changes size) even where the forward dropped and repeated pixels (a scale
        factor of 1.1 that keeps the size): PyTorch's gradient, not the derivative there.
        """
        output_size, scales, align_corners = options
        spatial = len(output_size)
        sizes = shape[len(shape) - spatial :]
        same = backward and (
            cls.kind == "nearest" or (cls.kind == "cubic" and tuple(sizes) == output_size)
        )
        plan = []
        for i, (n, m, scale) in enumerate(zip(sizes, output_size, scales)):
            if same and m == n:
                taps: Taps = [(np.arange(m), None)]
            elif cls.kind in ("nearest", "nearest-exact"):
                taps = _nearest(n, m, scale, exact=cls.kind == "nearest-exact")
            elif cls.kind == "linear":
                taps = _linear(n, m, scale, align_corners, dtype)
            else:
                taps = _cubic(n, m, scale, align_corners, dtype)
            plan.append((len(shape) - spatial + i, taps))
        return plan

    @classmethod
    def forward(cls, ctx: Any, x: np.ndarray, options: tuple[Any, ...]) -> np.ndarray:
        ctx.options, ctx.input_shape = options, x.shape
        return gather(x, cls.plan(x.shape, options, x.dtype))

    @classmethod
    def backward(cls, ctx: Any, grad: Any) -> tuple[Any, None]:
        return run(cls.gradient, grad, ctx.input_shape, ctx.options), None


class UpsampleBackward(Op):
    """The backward of a resampling as an op;  d(grad) = the resampling of gg.  Saves nothing."""

    result_layout = staticmethod(contiguous_result)
    fields = ("options",)
    upsample: ClassVar[type[Upsample]]

    @classmethod
    def forward(
        cls, ctx: Any, grad: np.ndarray, shape: tuple[int, ...], options: tuple[Any, ...]
    ) -> np.ndarray:
        ctx.options = options
        return scatter(grad, shape, cls.upsample.plan(shape, options, grad.dtype, backward=True))

    @classmethod
    def backward(cls, ctx: Any, gg: Any) -> tuple[Any, None, None]:
        return run(cls.upsample, gg, ctx.options), None, None


def _scales_shown(dims: int) -> dict[str, Any]:
    """PyTorch's names of the scales: ``scales`` (1-d), ``scales_h``/``_w``, ``scales_d``/..."""
    if dims == 1:
        return {"scales": lambda node: node.options[1][0]}
    letters = "dhw"[3 - dims :]
    return {f"scales_{c}": (lambda node, i=i: node.options[1][i]) for i, c in enumerate(letters)}


def _op(prefix: str, dims: int, kind: str) -> type[Upsample]:
    """The resampling op of one mode and number of dims, and its backward op."""
    shown: dict[str, Any] = {"output_size": part("options", 0), **_scales_shown(dims)}
    if kind in ("linear", "cubic"):
        shown["align_corners"] = part("options", 2)
    name = f"{prefix}{dims}D"
    op = type(
        name,
        (Upsample,),
        {
            "__doc__": f"Resampling of {dims} spatial dim(s), mode {kind!r} (``{name}Backward0``).",
            "__module__": __name__,
            "kind": kind,
            "saved_options": {**shown, "self_sym_sizes": "input_shape"},
        },
    )
    op.gradient = type(
        f"{name}Backward",
        (UpsampleBackward,),
        {
            "__doc__": f"The backward of ``{name}`` as an op.",
            "__module__": __name__,
            "upsample": op,
            "saved_options": shown,
        },
    )
    return op


UPSAMPLE_OPS: dict[tuple[str, int], type[Upsample]] = {
    **{("nearest", d): _op("UpsampleNearest", d, "nearest") for d in (1, 2, 3)},
    **{("nearest-exact", d): _op("UpsampleNearestExact", d, "nearest-exact") for d in (1, 2, 3)},
    ("linear", 1): _op("UpsampleLinear", 1, "linear"),
    ("bilinear", 2): _op("UpsampleBilinear", 2, "linear"),
    ("trilinear", 3): _op("UpsampleTrilinear", 3, "linear"),
    ("bicubic", 2): _op("UpsampleBicubic", 2, "cubic"),
}


_MODES = "nearest | linear | bilinear | bicubic | trilinear | lanczos | area | nearest-exact"
_DIMS_OF_MODE = {"linear": 1, "bilinear": 2, "bicubic": 2, "trilinear": 3}
_UINT8_KERNELS = ("upsample_bilinear2d_channels_last", "compute_indices_weights_cubic")


def _is_integer(value: Any) -> bool:
    """PyTorch's ``_is_integer``: an int, a NumPy integer or a tensor that is not float."""
    if isinstance(value, (int, np.integer)):
        return True
    return isinstance(value, TensorBase) and operand(value).dtype.kind not in "fc"


def _sizes_and_scales(
    input: Any, size: Any, scale_factor: Any, mode: str, recompute_scale_factor: bool | None
) -> tuple[list[int] | None, list[float] | None]:
    """``interpolate``'s Python part: exactly one of output size and scale factors, per dim."""
    dim = input.dim() - 2
    spatial = list(input.shape[2:])
    if size is not None and scale_factor is not None:
        raise ValueError("only one of size or scale_factor should be defined")
    output_size: list[Any] | None = None
    scales: list[Any] | None = None
    if size is not None:
        if isinstance(size, (list, tuple)):
            if len(size) != dim:
                raise ValueError(
                    "Input and output must have the same number of spatial dimensions, but got "
                    f"input with spatial dimensions of {spatial} and output size of {size}. "
                    "Please provide input tensor in (N, C, d1, d2, ...,dK) format and output "
                    "size in (o1, o2, ...,oK) format."
                )
            if not all(_is_integer(n) for n in size):
                raise TypeError(
                    "expected size to be one of int or Tuple[int] or Tuple[int, int] or "
                    f"Tuple[int, int, int], but got size with types {[type(n) for n in size]}"
                )
            output_size = list(size)
        else:
            output_size = [size] * dim
    elif scale_factor is not None:
        if isinstance(scale_factor, (list, tuple)):
            if len(scale_factor) != dim:
                raise ValueError(
                    "Input and scale_factor must have the same number of spatial dimensions, but "
                    f"got input with spatial dimensions of {spatial} and scale_factor of shape "
                    f"{scale_factor}. Please provide input tensor in (N, C, d1, d2, ...,dK) "
                    "format and scale_factor in (s1, s2, ...,sK) format."
                )
            scales = list(scale_factor)
        else:
            scales = [scale_factor] * dim
    else:
        raise ValueError("either size or scale_factor should be defined")
    if recompute_scale_factor and size is not None:
        raise ValueError("recompute_scale_factor is not meaningful with an explicit size.")
    if mode == "area" and output_size is None:
        recompute_scale_factor = True  # (adaptive pooling takes sizes only)
    if scales is not None and any(
            isinstance(s, (int, float)) and n * s >= 2.0**63 for n, s in zip(spatial, scales)):
        # (the kernel's output size, floor(n * s), as c10's checked conversion refuses it)
        raise RuntimeError("value cannot be converted to type int64_t without overflow")
    if recompute_scale_factor and scales is not None:
        output_size = [math.floor(n * s) for n, s in zip(spatial, scales)]
        scales = None
    return output_size, scales


def _check_kernel_input(x: np.ndarray, output_size: Sequence[int], kernel: str) -> None:
    """The checks PyTorch's upsample kernels make: sizes above 0, a non-empty input, dtype."""
    inputs, outputs = x.shape[2:], tuple(output_size)
    if not all(n > 0 for n in (*inputs, *outputs)):
        letters = "DHW"[3 - len(inputs) :]
        shown_in = ", ".join(f"{c}: {n}" for c, n in zip(letters, inputs))
        shown_out = ", ".join(f"{c}: {n}" for c, n in zip(letters, outputs))
        joiner = " and" if len(inputs) == 1 else ""
        raise RuntimeError(
            "Input and output sizes should be greater than 0, but got input "
            f"({shown_in}){joiner} output ({shown_out})"
        )
    if x.size == 0 and x.shape[1] == 0:
        raise RuntimeError(
            f"Non-empty {x.ndim}D data tensor expected but got a tensor with sizes "
            f"[{', '.join(map(str, x.shape))}]"
        )
    if x.dtype == np.uint8 and "nearest" in kernel:
        return  # (PyTorch's nearest kernels copy bytes too)
    if x.dtype == np.uint8 and kernel in _UINT8_KERNELS:
        raise NotImplementedError(
            "minigrad: interpolate's bilinear and bicubic modes of a uint8 input (PyTorch's "
            "rounding kernels) are not implemented"
        )
    if x.dtype.kind != "f":
        raise NotImplementedError(errors.not_implemented_for(kernel, dtype_name(x)))


def _kernel_name(mode: str, dims: int) -> str:
    """The kernel PyTorch names in its dtype error."""
    if mode in ("linear", "trilinear"):
        return "compute_indices_weights_linear"
    if mode == "bicubic":
        return "compute_indices_weights_cubic"
    if mode == "bilinear":
        return "upsample_bilinear2d_channels_last"
    return "upsample_nearest2d_channels_last" if dims == 2 else "compute_indices_weights_nearest"


def interpolate(
    input: Any,
    size: Any = None,
    scale_factor: Any = None,
    mode: str = "nearest",
    align_corners: bool | None = None,
    recompute_scale_factor: bool | None = None,
    antialias: bool = False,
) -> Any:
    """``input`` (N, C, *spatial) resampled to ``size``, or to ``scale_factor`` times its size.

    ``mode``: "nearest", "nearest-exact", "linear" (3-d input), "bilinear", "bicubic" (4-d),
    "trilinear" (5-d), "area" (adaptive average pooling; 3-d and 4-d inputs). With a
    ``scale_factor`` the output is ``floor(n * scale_factor)`` long and the kernel maps
    positions by ``1 / scale_factor`` (not by ``n / m``) unless ``recompute_scale_factor``.
    ``align_corners`` (interpolating modes only) lines up the corner pixels' centres.
    ``antialias=True`` is not implemented.

    Example:
        >>> import minigrad
        >>> import minigrad.nn.functional as F
        >>> F.interpolate(minigrad.tensor([[[1.0, 2.0]]]), scale_factor=2)
        tensor([[[1., 1., 2., 2.]]])
        >>> F.interpolate(minigrad.tensor([[[1.0, 2.0]]]), size=3, mode="linear",
        ...               align_corners=True)
        tensor([[[1.0000, 1.5000, 2.0000]]])
    """
    if mode in ("nearest", "area", "nearest-exact"):
        if align_corners is not None:
            raise ValueError(
                "align_corners option can only be set with the interpolating modes: "
                "linear | bilinear | bicubic | trilinear"
            )
    elif align_corners is None:
        align_corners = False
    output_size, scales = _sizes_and_scales(input, size, scale_factor, mode, recompute_scale_factor)
    ndim = input.dim()
    if antialias and not (mode in ("bilinear", "bicubic", "lanczos") and ndim == 4):
        raise ValueError(
            "Anti-alias option is restricted to bilinear, bicubic, and lanczos modes and "
            "requires a 4-D tensor as input"
        )
    if mode == "lanczos" and ndim == 4:
        if align_corners:
            raise ValueError("Lanczos mode does not support align_corners=True")
        if not antialias:
            raise ValueError("Lanczos mode requires antialias=True")
    if antialias:
        raise NotImplementedError("minigrad: interpolate supports antialias=False only")
    dims = ndim - 2
    if mode == "area" and dims in (1, 2):
        pool = adaptive_avg_pool1d if dims == 1 else adaptive_avg_pool2d
        if output_size is not None:  # (the pool's parser names an item no int64 holds)
            _arguments.check_int64_items(output_size, pool.__name__, "output_size")
        return pool(input, output_size if dims == 2 else output_size[0])
    if mode == "area" and dims == 3:
        raise NotImplementedError(
            "minigrad: interpolate's 'area' mode of a 5-D input "
            "needs adaptive_avg_pool3d, which minigrad does not have"
        )
    if (mode in ("nearest", "nearest-exact") and dims in (1, 2, 3)) or (
        _DIMS_OF_MODE.get(mode) == dims
    ):
        return _upsample(input, mode, dims, output_size, scales, align_corners)
    if mode in ("linear", "bilinear", "trilinear") and dims in (1, 2, 3):
        needed = _DIMS_OF_MODE[mode] + 2
        raise NotImplementedError(f"Got {ndim}D input, but {mode} mode needs {needed}D input")
    raise NotImplementedError(
        f"Input Error: Only 3D, 4D and 5D input Tensors supported (got {ndim}D) for the modes: "
        f"{_MODES} (got {mode})"
    )


_KERNELS = {
    **{("nearest", d): f"upsample_nearest{d}d" for d in (1, 2, 3)},
    **{("nearest-exact", d): f"_upsample_nearest_exact{d}d" for d in (1, 2, 3)},
    ("linear", 1): "upsample_linear1d",
    ("bilinear", 2): "upsample_bilinear2d",
    ("trilinear", 3): "upsample_trilinear3d",
    ("bicubic", 2): "upsample_bicubic2d",
}


def _check_parsed(output_size: list | None, scales: list | None, kernel: str) -> None:
    """The TypeError of PyTorch's parser for sizes that are not ints, factors not numbers."""
    sizes_ok = output_size is None or all(_arguments.is_int(n) for n in output_size)
    scales_ok = scales is None or all(
        isinstance(s, (int, float, np.integer, np.floating)) and not isinstance(s, bool)
        for s in scales
    )
    if not (sizes_ok and scales_ok):
        raise TypeError(
            f"{kernel}() received an invalid combination of arguments - got output_size="
            f"{output_size}, scale_factors={scales}"
        )


def _upsample(
    input: Any,
    mode: str,
    dims: int,
    output_size: list[int] | None,
    scales: list[float] | None,
    align_corners: bool | None,
) -> Any:
    """The kernel: output sizes from the scales if needed (truncated, as C++ does), checks."""
    x = operand(input)
    kernel = _KERNELS[(mode, dims)]
    _check_parsed(output_size, scales, kernel)
    if output_size is not None:
        _arguments.check_int64_items(output_size, kernel, "output_size")
    if output_size is None:
        assert scales is not None
        output_size = [int(n * s) for n, s in zip(x.shape[2:], scales)]
    _check_kernel_input(x, output_size, _kernel_name(mode, dims))
    shown_scales = tuple(float(s) for s in scales) if scales is not None else (None,) * dims
    options = (tuple(output_size), shown_scales, bool(align_corners))
    return UPSAMPLE_OPS[(mode, dims)].apply(input, options)


def upsample(
    input: Any,
    size: Any = None,
    scale_factor: Any = None,
    mode: str = "nearest",
    align_corners: bool | None = None,
) -> Any:
    """Deprecated ``interpolate`` (it warns as PyTorch's does).

    Example:
        >>> import warnings
        >>> import minigrad
        >>> import minigrad.nn.functional as F
        >>> with warnings.catch_warnings():
        ...     warnings.simplefilter("ignore")
        ...     F.upsample(minigrad.tensor([[[1.0, 2.0]]]), scale_factor=2)
        tensor([[[1., 1., 2., 2.]]])
    """
    _warnings.warn(
        "`nn.functional.upsample` is deprecated. Use `nn.functional.interpolate` instead.",
        stacklevel=2,
    )
    return interpolate(input, size, scale_factor, mode, align_corners)


def upsample_nearest(input: Any, size: Any = None, scale_factor: Any = None) -> Any:
    """Deprecated ``interpolate(..., mode="nearest")`` (it warns as PyTorch's does).

    Example:
        >>> import warnings
        >>> import minigrad
        >>> import minigrad.nn.functional as F
        >>> with warnings.catch_warnings():
        ...     warnings.simplefilter("ignore")
        ...     F.upsample_nearest(minigrad.tensor([[[1.0, 2.0]]]), 3)
        tensor([[[1., 1., 2.]]])
    """
    _warnings.warn(
        "`nn.functional.upsample_nearest` is deprecated. Use `nn.functional.interpolate` instead.",
        stacklevel=2,
    )
    return interpolate(input, size, scale_factor, mode="nearest")


def upsample_bilinear(input: Any, size: Any = None, scale_factor: Any = None) -> Any:
    """Deprecated ``interpolate(..., mode="bilinear", align_corners=True)`` (it warns).

    Example:
        >>> import warnings
        >>> import minigrad
        >>> import minigrad.nn.functional as F
        >>> with warnings.catch_warnings():
        ...     warnings.simplefilter("ignore")
        ...     F.upsample_bilinear(minigrad.tensor([[[[0.0, 1.0]]]]), (1, 3))
        tensor([[[[0.0000, 0.5000, 1.0000]]]])
    """
    _warnings.warn(
        "`nn.functional.upsample_bilinear` is deprecated. Use `nn.functional.interpolate` instead.",
        stacklevel=2,
    )
    return interpolate(input, size, scale_factor, mode="bilinear", align_corners=True)
