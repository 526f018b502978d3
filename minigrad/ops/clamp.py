"""Clamping: ``clamp`` (``clip``), ``clamp_min``, ``clamp_max``, by numbers or by tensors.

The gradient flows where the input was inside the bounds (and, for tensor bounds, to the bound
that was taken). Each op saves what PyTorch 2.13 saves.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any, ClassVar

import numpy as np

from minigrad import errors
from minigrad._dtype import check_scalar_arguments, checked_value, default_float, result_type
from minigrad._layout import elementwise_result
from minigrad.autograd.function import NO_GRAD_CTX, Op
from minigrad.autograd.inplace import apply_inplace
from minigrad.autograd.tensor_base import TensorBase
from minigrad.ops._helpers import (
    cast,
    check_float_kernel,
    compute_dtype,
    is_bool,
    operand,
    promote,
    promote_inplace,
)
from minigrad.ops.ternary import call_ternary


class Clamp(Op):
    """y = min(max(x, low), high);  dx = grad where low <= x <= high.  Saves its input.

    The bounds are inclusive: at x == low the gradient passes, as in PyTorch.
    """

    result_layout = staticmethod(elementwise_result)  # (TensorIterator's)

    fields = ("low", "high")
    saved_options = {"min": "low", "max": "high"}

    node_name = "ClampBackward1"

    @staticmethod
    def forward(ctx: Any, x: np.ndarray, low: Any, high: Any) -> np.ndarray:
        if ctx is not NO_GRAD_CTX:
            ctx.save_for_backward(x)
            ctx.low, ctx.high = low, high
        # (each bound as x's dtype takes it: PyTorch's overflow error, uint8's wrap; the upper
        # first, as the parser unpacks a call's arguments last first)
        high = None if high is None else checked_value(high, x.dtype)
        low = None if low is None else checked_value(low, x.dtype)
        return clamp_array(x, low, high)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, None, None]:
        (x,) = ctx.saved_tensors
        if ctx.low is None:
            inside = x <= ctx.high
        elif ctx.high is None:
            inside = x >= ctx.low
        else:
            inside = (x >= ctx.low) & (x <= ctx.high)
        return np.where(inside, grad, 0), None, None  # an infinite grad outside stays 0


def clamp_array(x: np.ndarray, low: Any, high: Any) -> np.ndarray:
    """PyTorch's clamp with number bounds: ``x`` where it is within them, else the bound passed.

    PyTorch's kernels compute ``min(max(x, low), high)`` as C++'s ``std::max``/``std::min``
    (and its vector kernels alike): the bound only where x is strictly beyond it, so a nan
    stays nan and -0.0 stays -0.0 against a bound of 0 (np.clip gives 0.0 there), and
    ``high`` wins if ``low > high``; a nan bound makes every element nan. A copy in x's layout
    with each bound written where passed; np.clip's Python layers are left out too. A number
    bound is made a 0-d array of x's dtype first (the value numpy would convert it to): numpy
    converts a Python number on each ufunc call, which costs more than the comparison.
    """
    result = x.copy(order="K")
    if low != low or high != high:  # a nan bound: PyTorch's vector max and min return it
        result.fill(np.nan)
        return result
    if low is not None:
        if type(low) in _PYTHON_NUMBERS:
            low = _array(low, x.dtype)
        _copyto(result, low, where=_less(x, low))
    if high is not None:
        if type(high) in _PYTHON_NUMBERS:
            high = _array(high, x.dtype)
        _copyto(result, high, where=_greater(result, high))
    return result


# (bound once: np.<name> is a lookup)
_array, _copyto, _less, _greater = np.array, np.copyto, np.less, np.greater
_PYTHON_NUMBERS = frozenset({int, float})
# Bounds that need no check or cast with a floating input (bool ones have a check of their own)
_PLAIN_BOUNDS = frozenset({int, float, type(None)})


def clamp(input: Any, min: Any = None, max: Any = None) -> Any:
    """Limit every element to ``[min, max]`` (either bound may be None)."""
    if min is None and max is None:
        raise RuntimeError(errors.CLAMP_WITHOUT_BOUNDS)
    if (type(min) in _PLAIN_BOUNDS and type(max) in _PLAIN_BOUNDS
            and isinstance(input, TensorBase) and input._array.dtype.kind == "f"):
        # floating input, number bounds: nothing to cast; Clamp's recording function for
        # options (``apply`` would call it)
        return Clamp._record_options(input, min, max)
    tensor_bounds = [isinstance(operand(b), np.ndarray) for b in (min, max) if b is not None]
    if any(tensor_bounds):
        if not all(tensor_bounds):
            raise TypeError(errors.CLAMP_MIXED_BOUNDS)
        return _clamp_tensor(input, min, max)
    _check_bool_kernel(input, min, max)
    array = operand(input)
    if array.dtype.kind != "f" and any(isinstance(b, float) for b in (min, max)):
        input = cast(input, default_float())
    elif array.dtype == np.bool_:
        # a bool tensor and int bounds: int64 (PyTorch's promotion: an int past int64 raises)
        result_type(array, *(bound for bound in (min, max) if bound is not None))
        input = cast(input, np.dtype(np.int64))
    return Clamp.apply(input, min, max)


def clamp_(input: Any, min: Any = None, max: Any = None) -> Any:
    """Limit every element to ``[min, max]``, in place."""
    if min is None and max is None:
        raise RuntimeError(errors.CLAMP_WITHOUT_BOUNDS)
    bounds = [bound for bound in (min, max) if bound is not None]
    if any(isinstance(bound, TensorBase) for bound in bounds):
        # Tensor bounds are inputs (ClampBackward0), so they get their gradient.
        if not all(isinstance(bound, TensorBase) for bound in bounds):
            raise TypeError(errors.CLAMP_MIXED_BOUNDS)
        for bound in bounds:  # each must fit into the input's dtype, as for add_
            promote_inplace(input, bound)
        dtype = compute_dtype(input, min, max)
        return call_ternary(lambda *args: apply_inplace(ClampTensor, *args), (input, min, max),
                            dtype)
    _check_bool_kernel(input, min, max)
    _check_number_bounds(input, min, max)
    return apply_inplace(Clamp, input, min, max)


def _clamp_tensor(input: Any, min: Any, max: Any) -> Any:
    """Clamp with tensor bounds (ClampBackward0)."""
    dtype = compute_dtype(input, min, max)
    both = min is not None and max is not None  # one bound: PyTorch's clamp_min/max kernels
    if both and (dtype if dtype is not None else operand(input).dtype) == np.bool_:
        check_float_kernel("clamp_cpu", input)
    return call_ternary(ClampTensor.apply, (input, min, max), dtype)


clip = clamp
clip_ = clamp_


class ClampTensor(Op):
    """y = min(max(x, low), high) with tensor bounds (either may be None).  Saves x, low, high.

    dx = grad where low <= x <= high;  dlow = grad where x < low (and low < high);
    dhigh = grad where x > high (or high < low, where the result is high).
    """

    unsummed_when_called = True  # grad_fn(grad): a broadcast input's gradient unsummed

    saves = ("self", "min", "max")
    node_name = "ClampBackward0"
    num_inputs = 3

    @staticmethod
    def forward(ctx: Any, x: Any, low: Any, high: Any, dtype: Any) -> np.ndarray:
        ctx.save_for_backward(x, low, high)
        y = np.asarray(x, dtype=dtype) if dtype is not None else x
        # PyTorch's (scalar) kernel: a bound only where y is strictly beyond it (a tie keeps
        # y, 0.0 against -0.0), nan where a bound is; as ClampOneSideTensor's.
        if low is not None:
            low = np.asarray(low, dtype=dtype) if dtype is not None else low
            y = np.where((y < low) | (low != low), low, y)
        if high is not None:
            high = np.asarray(high, dtype=dtype) if dtype is not None else high
            y = np.where((y > high) | (high != high), high, y)
        return y if y is not x else x.copy()

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, ...]:
        x, low, high = ctx.saved_tensors
        needs = ctx.needs_input_grad
        dx = dlow = dhigh = None
        if low is not None and high is not None:
            if needs[0]:
                dx = np.where((x >= low) & (x <= high), grad, 0)
            if needs[1]:
                dlow = np.where((x < low) & (low < high), grad, 0)
            if needs[2]:
                dhigh = np.where((x > high) | (high < low), grad, 0)
        elif low is not None:
            dx, dlow = ClampMinTensor.gradients(grad, x, low, needs[0], needs[1])
        else:
            dx, dhigh = ClampMaxTensor.gradients(grad, x, high, needs[0], needs[2])
        return dx, dlow, dhigh, None


class ClampOneSide(Op):
    """y = max(x, bound) (``ClampMin``) or min(x, bound) (``ClampMax``), bound a number.

    dx = grad where x is on the bound's kept side, the bound included.  Saves its input.
    """

    result_layout = staticmethod(elementwise_result)  # (TensorIterator's)

    fields = ("bound",)

    kernel: ClassVar[np.ufunc]  # np.maximum or np.minimum
    passes: ClassVar[Callable[[Any, Any], Any]]  # where x's gradient flows: >= or <=

    @classmethod
    def forward(cls, ctx: Any, x: np.ndarray, bound: Any) -> np.ndarray:
        ctx.save_for_backward(x)
        ctx.bound = bound  # (as given: the node shows it so)
        if not (type(bound) is float and -65504.0 <= bound <= 65504.0):
            # (a float within float16's range fits every float x: a float bound makes x float)
            bound = checked_value(bound, x.dtype)  # (as x's dtype takes it: uint8's -1 is 255)
        if bound == 0 or bound != bound:
            # PyTorch's kernel gives x on a tie (clamp_min(0.0, -0.0) is 0.0), numpy's maximum
            # either, and a nan bound everywhere: clamp's kernel. Other ties are equal values.
            return clamp_array(x, *cls.bounds(bound))
        return cls.kernel(x, bound)

    @classmethod
    def backward(cls, ctx: Any, grad: Any) -> tuple[Any, None]:
        (x,) = ctx.saved_tensors
        return np.where(cls.passes(x, ctx.bound), grad, 0), None  # an infinite grad outside: 0


class ClampMin(ClampOneSide):
    """y = max(x, low), low a number;  dx = grad where x >= low.  Saves its input."""

    saved_options = {"min": "bound"}
    kernel = np.maximum
    passes = staticmethod(operator.ge)

    @staticmethod
    def bounds(bound: Any) -> tuple[Any, Any]:
        """``(min, max)`` as ``clamp`` would take them."""
        return bound, None


def clamp_min(input: Any, min: Any) -> Any:
    """``max(input, min)``: a lower bound only (a number or a tensor)."""
    return _clamp_one_side(input, min, ClampMinTensor, ClampMin)


def clamp_min_(input: Any, min: Any) -> Any:
    """``max(input, min)``, in place."""
    return _clamp_one_side_(input, min, ClampMinTensor, ClampMin)


def _clamp_one_side(
    input: Any, bound: Any, tensor_op: type[Op], number_op: type[ClampOneSide]
) -> Any:
    """clamp_min / clamp_max: a tensor bound is promoted with the input, a number is not."""
    check_scalar_arguments(bound)  # (the parser's error comes first)
    if isinstance(operand(bound), np.ndarray):
        a, b, dtype = promote(input, bound)
        return tensor_op.apply(a, b, dtype)
    _check_bool_kernel(input, *number_op.bounds(bound))
    return number_op.apply(_bound_dtype(input, bound), bound)


def _clamp_one_side_(
    input: Any, bound: Any, tensor_op: type[Op], number_op: type[ClampOneSide]
) -> Any:
    """clamp_min_ / clamp_max_: a tensor bound is promoted; a float one cannot go into ints."""
    check_scalar_arguments(bound)  # (the parser's error comes first)
    if isinstance(bound, TensorBase):
        bound, dtype = promote_inplace(input, bound)
        return apply_inplace(tensor_op, input, bound, dtype)
    _check_bool_kernel(input, *number_op.bounds(bound))
    _check_number_bounds(input, bound)
    return apply_inplace(number_op, input, bound)


def _check_bool_kernel(input: Any, min: Any, max: Any) -> None:
    """A bool tensor with only bool numbers as bounds: PyTorch's NotImplementedError.

    The result would stay bool (an int or float bound promotes it), and PyTorch's clamp
    kernels for number bounds have no bool version.
    """
    bounds = [bound for bound in (min, max) if bound is not None]
    if not is_bool(input) or not all(type(bound) is bool for bound in bounds):
        return
    kernel = "clamp_scalar_cpu" if len(bounds) == 2 else (
        "clamp_min_scalar_cpu" if min is not None else "clamp_max_scalar_cpu"
    )
    raise NotImplementedError(errors.not_implemented_for(kernel, "Bool"))


def _check_number_bounds(input: Any, *bounds: Any) -> None:
    """Number bounds the tensor cannot hold in place: PyTorch's text, with C++ type names.

    A float bound cannot go into an integer tensor, nor an int one into a bool tensor. PyTorch
    types the bounds together: a float one names Float whichever bound comes first.
    """
    kind = input._array.dtype.kind
    if kind != "f" and any(isinstance(bound, float) for bound in bounds):
        result = "Float"
    elif kind == "b" and any(type(bound) is int for bound in bounds):
        result = "Long"
    else:
        return
    raise RuntimeError(
        errors.inplace_dtype_mismatch(result, errors.CPP_TYPE_NAMES[input._array.dtype.name])
    )


def _bound_dtype(input: Any, bound: Any) -> Any:
    # An integer tensor clamped with a float bound becomes the default float dtype; a bool
    # tensor with an int bound, int64.
    if operand(input).dtype.kind != "f" and isinstance(bound, float):
        return cast(input, default_float())
    if is_bool(input):
        result_type(operand(input), bound)  # (PyTorch's promotion: an int past int64 raises)
        return cast(input, np.dtype(np.int64))
    return input


class ClampMax(ClampOneSide):
    """y = min(x, high), high a number;  dx = grad where x <= high.  Saves its input."""

    saved_options = {"max": "bound"}
    kernel = np.minimum
    passes = staticmethod(operator.le)

    @staticmethod
    def bounds(bound: Any) -> tuple[Any, Any]:
        """``(min, max)`` as ``clamp`` would take them."""
        return None, bound


def clamp_max(input: Any, max: Any) -> Any:
    """``min(input, max)``: an upper bound only (a number or a tensor)."""
    return _clamp_one_side(input, max, ClampMaxTensor, ClampMax)


def clamp_max_(input: Any, max: Any) -> Any:
    """``min(input, max)``, in place."""
    return _clamp_one_side_(input, max, ClampMaxTensor, ClampMax)


class ClampOneSideTensor(Op):
    """y = max(x, bound) (``ClampMinTensor``) or min(x, bound) (``ClampMaxTensor``), tensors.

    dx = grad where x is on the kept side (bound included), dbound = grad where the bound
    wins; a NaN in x passes neither way. Saves x and the bound.
    """

    broadcasts = True  # numpy's broadcasting errors become PyTorch's message

    num_inputs = 2

    passes: ClassVar[Callable[[Any, Any], Any]]  # where x's gradient flows: >= or <=
    wins: ClassVar[Callable[[Any, Any], Any]]  # where the bound's flows: < or >

    @classmethod
    def forward(cls, ctx: Any, x: Any, bound: Any, dtype: Any) -> np.ndarray:
        ctx.save_for_backward(x, bound)
        if dtype is not None:
            x, bound = np.asarray(x, dtype=dtype), np.asarray(bound, dtype=dtype)
        # PyTorch's kernels: the bound only where x is strictly beyond it (a tie keeps x,
        # 0.0 against -0.0), nan where either is (numpy's maximum may give either on a tie)
        return np.where(cls.wins(x, bound) | (bound != bound), bound, x)

    @classmethod
    def backward(cls, ctx: Any, grad: Any) -> tuple[Any, Any, None]:
        x, bound = ctx.saved_tensors
        needs = ctx.needs_input_grad
        return (*cls.gradients(grad, x, bound, needs[0], needs[1]), None)

    @classmethod
    def gradients(cls, grad: Any, x: Any, bound: Any, for_x: bool, for_bound: bool) -> Any:
        """(dx, dbound), each only if asked for (also ClampTensor's, given one bound)."""
        return (
            np.where(cls.passes(x, bound), grad, 0) if for_x else None,
            np.where(cls.wins(x, bound), grad, 0) if for_bound else None,
        )


class ClampMinTensor(ClampOneSideTensor):
    """y = max(x, low), low a tensor;  dx = grad where x >= low, dlow = grad where x < low."""

    saves = ("self", "min")
    node_name = "ClampMinBackward1"
    passes = staticmethod(operator.ge)
    wins = staticmethod(operator.lt)


class ClampMaxTensor(ClampOneSideTensor):
    """y = min(x, high), high a tensor;  dx = grad where x <= high, dhigh = grad where x > high."""

    saves = ("self", "max")
    node_name = "ClampMaxBackward1"
    passes = staticmethod(operator.le)
    wins = staticmethod(operator.gt)
