"""Ops that overwrite values.

These are what ``zero_``, ``fill_``, ``copy_``, ``normal_``, ``uniform_`` and ``masked_fill``
record, each class followed by its function (``scatter`` lives in ``gather_scatter.py``). None
of them saves a tensor except the mask that decides which elements were replaced.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from minigrad import _random, errors
from minigrad._dtype import checked_value
from minigrad._half import as_dtype
from minigrad._layout import contiguous_result, written_through_aliases
from minigrad.autograd import grad_mode
from minigrad.autograd.function import Op
from minigrad.autograd.inplace import apply_inplace, has_internal_overlap
from minigrad.autograd.overlap import copied_in_kernel_order, partially_overlap
from minigrad.autograd.tensor_base import TensorBase
from minigrad.ops._helpers import check_differentiable_result, dtype_name, zeros_like_grad


class Zero(Op):
    """y = 0;  dx = 0.  Saves nothing."""

    saves = ()  # (it saves nothing: its node has no slot for saved values)
    checks_internal_overlap = False  # one value everywhere: an expanded tensor is fine
    checks_input_overlap = False  # PyTorch's fill_ does not check memory overlap

    @staticmethod
    def forward(ctx: Any, x: np.ndarray) -> np.ndarray:
        return np.zeros_like(x)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> Any:
        return zeros_like_grad(grad)


def zero_(input: Any) -> Any:
    """Fill ``input`` with zeros, in place."""
    return apply_inplace(Zero, input)


class Fill(Op):
    """y = value everywhere;  dx = 0.  Saves nothing."""

    saves = ()  # (it saves nothing: its node has no slot for saved values)
    checks_internal_overlap = False  # one value everywhere: an expanded tensor is fine
    checks_input_overlap = False  # PyTorch's fill_ does not check memory overlap

    node_name = "FillBackward2"

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, value: Any) -> np.ndarray:
        # (PyTorch fills one element without checking float16's range, more with the check)
        return np.full_like(x, checked_value(value, x.dtype, check_half=x.size != 1))

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, None]:
        return zeros_like_grad(grad), None


class FillTensor(Op):
    """y = value (a 0-d tensor) everywhere;  dx = 0,  dvalue = sum(grad).  Saves nothing."""

    saves = ()  # (it saves nothing: its node has no slot for saved values)
    checks_input_overlap = False  # PyTorch reads the value (or mask) before writing

    node_name = "FillBackward3"
    num_inputs = 2

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, value: np.ndarray) -> np.ndarray:
        return np.full_like(x, value)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, Any]:
        return zeros_like_grad(grad), np.sum(grad)


def fill_(input: Any, value: Any) -> Any:
    """Fill ``input`` with ``value`` (a number or a 0-d tensor), in place."""
    if isinstance(value, TensorBase):
        if value._array.ndim:
            raise RuntimeError(errors.fill_value_not_0d(value._array.ndim))
        return apply_inplace(FillTensor, input, value)
    return apply_inplace(Fill, input, value)


class FillOutOfPlace(Fill):
    """``minigrad.fill(input, number)``: Fill's formula on a new tensor (FillBackward0)."""

    node_name = "FillBackward0"


class FillTensorOutOfPlace(FillTensor):
    """``minigrad.fill(input, tensor)``: FillTensor's formula on a new tensor (FillBackward1)."""

    node_name = "FillBackward1"


def fill(input: Any, value: Any) -> Any:
    """A new tensor like ``input`` filled with ``value`` (a number or a 0-d tensor).

    Example:
        >>> import minigrad
        >>> minigrad.fill(minigrad.zeros(2), 3.0)
        tensor([3., 3.])
    """
    if isinstance(value, TensorBase):
        if value._array.ndim:
            raise RuntimeError(errors.fill_value_not_0d(value._array.ndim))
        return FillTensorOutOfPlace.apply(input, value)
    return FillOutOfPlace.apply(input, value)


def fill_diagonal_(input: Any, fill_value: Any, wrap: bool = False) -> Any:
    """Fill the main diagonal (``input[i, i, ..., i]``) with ``fill_value``, in place.

    As PyTorch: the diagonal is a view of ``input`` written by ``fill_`` (the result's history
    is a ``CopySlices``); every dimension must have one length beyond the first two. With
    ``wrap``, a matrix taller than ``width + 1`` rows gets the diagonal again below it, every
    ``width + 1`` elements in row-major order, as a second fill (a second version).

    Example:
        >>> import minigrad
        >>> minigrad.zeros(2, 3).fill_diagonal_(1.0)
        tensor([[1., 0., 0.],
                [0., 1., 0.]])
    """
    shape = input._array.shape
    if len(shape) < 2:
        raise RuntimeError("dimensions must larger than 1")
    if len(shape) > 2 and any(size != shape[0] for size in shape[1:]):
        raise RuntimeError("all dimensions of input must be of equal length")
    diagonal = input.diagonal()
    while diagonal.dim() > 1:  # (one more dim into the diagonal each time, for n-d cubes)
        diagonal = diagonal.diagonal(0, 0, -1)
    below = _wrapped_diagonal(input) if wrap else None  # (refused before anything is written)
    fill_(diagonal, fill_value)
    if below is not None:
        fill_(below, fill_value)
    return input


def _wrapped_diagonal(input: Any) -> Any:
    """The diagonal ``fill_diagonal_(wrap=True)`` writes below a tall matrix's (a view), or None."""
    shape = input._array.shape
    height, width = shape[0], shape[1]
    if len(shape) == 2 and height > width + 1:
        step = width + 1
        wrapped = (input._array.size + step - 1) // step - width
        if input._array.flags.c_contiguous:  # (PyTorch's strided view over the storage)
            return input.view(-1)[width * step :: step]
        if wrapped <= width:  # one wrap: the same elements whatever the strides
            return input[step:].diagonal()[:wrapped]
        raise NotImplementedError(
            "fill_diagonal_(wrap=True) of a non-contiguous matrix that wraps more than once: "
            "PyTorch's result follows its storage; call .contiguous() first"
        )
    return None


class Copy(Op):
    """y = src (broadcast to x's shape);  dx = 0,  dsrc = grad.  Saves nothing.

    Copying a tensor onto the same elements in the same layout (``x.copy_(x)``) changes
    nothing, so PyTorch skips its memory-overlap check then: an expanded tensor may do it.
    """

    saves = ()  # (it saves nothing: its node has no slot for saved values)
    unsummed_when_called = True  # grad_fn(grad): a broadcast input's gradient unsummed

    node_name = "torch::autograd::CopyBackwards"
    num_inputs = 2
    # Both overlap checks run in forward (still before anything is written), in PyTorch's order.
    checks_internal_overlap = False
    checks_input_overlap = False

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, src: np.ndarray) -> np.ndarray:
        if not _same_elements(x, src):
            if has_internal_overlap(x):
                raise RuntimeError(errors.INTERNAL_OVERLAP)
            if partially_overlap(x, src):
                raise RuntimeError(errors.PARTIAL_OVERLAP)
        try:
            shape = np.broadcast_shapes(x.shape, np.shape(src))
        except ValueError:
            raise RuntimeError(errors.broadcast_mismatch(x.shape, np.shape(src))) from None
        if shape != x.shape:
            raise RuntimeError(errors.inplace_shape_mismatch(x.shape, shape))
        source = np.broadcast_to(src, x.shape)
        values = as_dtype(source, x.dtype)
        if type(src) is np.ndarray and src.size and np.may_share_memory(x, src):
            # Memory shared in a way PyTorch does not check (one is not dense): its loop
            # reads source elements it already wrote (``x.T.copy_(x[:1])``).
            return copied_in_kernel_order(x, source, np.array(values, copy=True))
        return values

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, Any]:
        return zeros_like_grad(grad), grad


def copy_(input: Any, src: Any) -> Any:
    """Copy ``src``'s values (broadcast to ``input``'s shape) into ``input``.

    Into an integer or bool tensor nothing is recorded, even from a ``src`` that requires grad:
    PyTorch's copy_ records only into a dtype that can have a gradient.
    """
    if input._array.dtype.kind != "f" and isinstance(src, TensorBase) and src.requires_grad:
        with grad_mode.no_grad():
            return apply_inplace(Copy, input, src)
    return apply_inplace(Copy, input, src)


def _same_elements(x: np.ndarray, src: Any) -> bool:
    return (
        isinstance(src, np.ndarray)
        and src.dtype == x.dtype
        and src.shape == x.shape
        and src.strides == x.strides
        and src.__array_interface__["data"][0] == x.__array_interface__["data"][0]
    )


class Normal(Op):
    """y ~ Normal(mean, std);  dx = 0.  Saves nothing."""

    saves = ()  # (it saves nothing: its node has no slot for saved values)

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, mean: float, std: float, generator: Any) -> np.ndarray:
        return _random.generator(generator).normal(mean, std, size=x.shape).astype(x.dtype)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, None, None, None]:
        return grad * 0, None, None, None


def normal_(input: Any, mean: float = 0.0, std: float = 1.0, *,
            generator: _random.Generator | None = None) -> Any:
    """Fill ``input`` with samples from Normal(mean, std), in place."""
    check_normal_std(std)
    check_floating_kernel(input, "normal_kernel_cpu")
    return apply_inplace(Normal, input, mean, std, generator)


class Uniform(Op):
    """y ~ Uniform[low, high);  dx = 0.  Saves nothing."""

    saves = ()  # (it saves nothing: its node has no slot for saved values)

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, low: float, high: float, generator: Any) -> np.ndarray:
        drawn = _random.generator(generator).uniform(low, high, size=x.shape)
        return _below(drawn.astype(x.dtype), low, high)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, None, None, None]:
        return grad * 0, None, None, None


def _below(values: np.ndarray, low: float, high: float) -> np.ndarray:
    """``values`` with those that rounded up to ``high`` (or past it) one step below it.

    A double just under ``high`` can round to ``high`` in float16 (1 in ~2000 draws of
    ``uniform_(-2, 2)``); PyTorch draws on the dtype's own grid, so its values stay below.
    """
    if not low < high:
        return values
    with np.errstate(all="ignore"):
        top = np.nextafter(values.dtype.type(high), values.dtype.type(low))
        if top < high and top >= low:  # (else: the range is narrower than one step)
            values = np.where(values >= high, top, values)
    return values


def uniform_(input: Any, from_: float = 0.0, to: float = 1.0, *,
             generator: _random.Generator | None = None) -> Any:
    """Fill ``input`` with samples from Uniform[from_, to), in place."""
    check_floating_kernel(input, "check_uniform_bounds")
    check_uniform_bounds(input._array.dtype, from_, to)
    return apply_inplace(Uniform, input, from_, to, generator)


# The names PyTorch's check_uniform_bounds gives a floating dtype: its bounds' C++ type, and
# the std::numeric_limits<...> argument of its range error.
_CXX_TYPES = {
    np.dtype(np.float16): ("c10::Half", "Half"),
    np.dtype(np.float32): ("float", "Float"),
    np.dtype(np.float64): ("double", "Double"),
}


def check_uniform_bounds(dtype: np.dtype, from_: float, to: float) -> None:
    """PyTorch's checks of ``uniform_``'s range, in its order.

    Finite bounds the dtype holds, ordered, and a width the dtype holds too (numpy would raise a
    bare OverflowError or draw infinities).
    """
    bound_type, limits_type = _CXX_TYPES[dtype]
    largest = float(np.finfo(dtype).max)
    for name, value in (("from", from_), ("to", to)):
        if not -largest <= value <= largest:  # (nan too)
            raise RuntimeError(f"{name} is out of bounds for {bound_type}")
    if from_ > to:
        raise RuntimeError("uniform_ expects to return a [from, to) range, but found "
                           f"from={errors.double_text(from_)} > to={errors.double_text(to)}")
    if to - from_ > largest:
        raise RuntimeError(
            f"uniform_ expects to-from <= std::numeric_limits<{limits_type}>::max(), but found "
            f"to={errors.double_text(to)} and from={errors.double_text(from_)} which result in "
            "to-from to exceed the limit")


def check_normal_std(std: float) -> None:
    """PyTorch's refusal of a negative standard deviation (a number)."""
    if not std >= 0.0:
        raise RuntimeError(f"normal expects std >= 0.0, but found std {errors.double_text(std)}")


def check_floating_kernel(input: Any, kernel: str) -> None:
    """PyTorch's refusal of a random kernel that exists for floating dtypes only."""
    if input._array.dtype.kind != "f":
        raise NotImplementedError(errors.not_implemented_for(kernel, dtype_name(input)))


class MaskedFill(Op):
    """y = value where mask, else x;  dx = grad where not mask.  Saves the mask."""

    tensor_options = True  # an index or target tensor among the options

    result_layout = staticmethod(contiguous_result)  # (PyTorch's: contiguous)

    saves = "mask"
    checks_input_overlap = False  # PyTorch reads the value (or mask) before writing

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, mask: np.ndarray, value: Any) -> np.ndarray:
        value = checked_value(value, x.dtype)
        ctx.save_for_backward(mask)
        return np.where(mask, np.asarray(value, dtype=x.dtype), x)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, None, None]:
        (mask,) = ctx.saved_tensors
        return np.where(mask, 0, grad), None, None


class MaskedFillTensor(Op):
    """y = value where mask, else x, for a 0-d tensor ``value``;  dx = grad where not mask.

    dvalue = grad where mask, summed to the value's 0-d shape (by the node, as any broadcast
    input). Saves the mask; the inputs are ``x`` and ``value`` (the mask gets no gradient).
    """

    result_layout = staticmethod(contiguous_result)  # (PyTorch's: contiguous)

    saves = "mask"
    node_name = "MaskedFillBackward1"
    num_inputs = 2
    checks_input_overlap = False  # PyTorch reads the value (or mask) before writing

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, value: np.ndarray, mask: np.ndarray) -> np.ndarray:
        ctx.save_for_backward(mask)
        return np.where(mask, value.astype(x.dtype, copy=False), x)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, Any, None]:
        (mask,) = ctx.saved_tensors
        needs = ctx.needs_input_grad
        dx = np.where(mask, 0, grad) if needs[0] else None
        dvalue = np.where(mask, grad, 0) if needs[1] else None
        return dx, dvalue, None


class MaskedFillExpanded(MaskedFill):
    """``masked_fill_`` into an expanded tensor (elements sharing memory): ``fill_expanded``."""

    node_name = "MaskedFillBackward0"
    checks_internal_overlap = False  # PyTorch warns instead (fill_expanded)

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, mask: np.ndarray, value: Any) -> np.ndarray:
        value = checked_value(value, x.dtype)
        ctx.save_for_backward(mask)
        return fill_expanded(x, mask, value)


class MaskedFillTensorExpanded(MaskedFillTensor):
    """``masked_fill_`` of a 0-d tensor into an expanded tensor: ``fill_expanded``."""

    checks_internal_overlap = False  # PyTorch warns instead (fill_expanded)

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, value: np.ndarray, mask: np.ndarray) -> np.ndarray:
        ctx.save_for_backward(mask)
        return fill_expanded(x, mask, value)


def fill_expanded(x: np.ndarray, mask: np.ndarray, value: Any) -> np.ndarray:
    """``x`` after ``masked_fill_``, for an ``x`` whose elements share memory.

    PyTorch warns that this is deprecated, then writes each masked element's memory, which
    every alias of it then shows.
    """
    message = errors.expanded_write_deprecated("masked_fill_", "tensor[mask] = scalar")
    warnings.warn(message, UserWarning, stacklevel=2)
    return written_through_aliases(x, np.broadcast_to(mask, x.shape), value)


def masked_fill(input: Any, mask: Any, value: Any) -> Any:
    """A copy of ``input`` with ``value`` (a number or a 0-d tensor) where ``mask`` is True.

    The mask broadcasts to ``input``'s shape. A tensor value is an input of the node
    (MaskedFillBackward1): it gets the sum of the gradient over the filled positions.

    Example:
        >>> import minigrad
        >>> minigrad.masked_fill(minigrad.zeros(3), minigrad.tensor([True, False, True]), 2.0)
        tensor([2., 0., 2.])
    """
    # (PyTorch's expands mask and input together first, then fills in place: its mask check)
    try:
        np.broadcast_shapes(mask._array.shape, input._array.shape)
    except ValueError:
        raise RuntimeError(
            errors.broadcast_mismatch(mask._array.shape, input._array.shape)
        ) from None
    _check_mask(mask)
    value = _masked_fill_value(value)
    if isinstance(value, TensorBase):
        check_differentiable_result(input._array.dtype, value)
        return MaskedFillTensor.apply(input, value, mask)
    return MaskedFill.apply(input, mask, value)


def masked_fill_(input: Any, mask: Any, value: Any) -> Any:
    """Write ``value`` where ``mask`` is True, in place."""
    _check_mask(mask)
    value = _masked_fill_value(value)
    expanded = has_internal_overlap(input._array)
    if isinstance(value, TensorBase):
        op = MaskedFillTensorExpanded if expanded else MaskedFillTensor
        return apply_inplace(op, input, value, mask)
    return apply_inplace(MaskedFillExpanded if expanded else MaskedFill, input, mask, value)


def _check_mask(mask: Any) -> None:
    if not isinstance(mask, TensorBase) or mask._array.dtype != np.bool_:
        # PyTorch names the C++ type: "float", "long int"
        dtype = (errors.CPP_TYPE_NAMES[mask._array.dtype.name] if isinstance(mask, TensorBase)
                 else type(mask).__name__)
        raise RuntimeError(errors.masked_fill_mask_dtype(dtype))


def _masked_fill_value(value: Any) -> Any:
    """masked_fill's value: a number, or a 0-d tensor (PyTorch's check and text)."""
    if isinstance(value, TensorBase) and value._array.ndim:
        raise RuntimeError(errors.masked_fill_value_dims(value._array.ndim))
    return value
